"""The move generator's shared tables: result keys (a position packed in one int) and
interned steps.

A result key holds the mover's 25 counts, a byte each, then the opponent's
(:func:`key_of`; :func:`sides_of` unpacks it); a step changes it by one precomputed
addition (``_MK[d][s]``, plus ``_HIT[t]`` when it hits), and ``_ST[d][2*s + hit]`` is the one
:class:`~referee.rules.notation.Step` for it.  Used by :mod:`referee.rules.movegen` and its
parts (:mod:`referee.rules.movegen_two`, :mod:`referee.rules.movegen_doubles`,
:mod:`referee.rules.movegen_home`).
"""
from __future__ import annotations

from typing import Sequence

from referee.rules.notation import OFF_POINT, Step

Path = tuple[Step, ...]  # the steps of one play
Results = tuple[list[int], list[Path]]  # (keys, paths), parallel

_W = tuple(1 << (8 * i) for i in range(25))            # my side's key fields (a byte each)
_WO = tuple(1 << (200 + 8 * i) for i in range(25))     # the opponent's key fields
_DESC = tuple(range(23, -1, -1))
_OPEN = bytes(1 if n < 2 else 0 for n in range(256))  # opponent count -> landing open
_BLOT = bytes(1 if n == 1 else 0 for n in range(256))  # opponent count -> a blot to hit
_HIT = tuple(_WO[24] - _WO[23 - t] for t in range(24))  # key delta of hitting on my point t


def key_of(me: Sequence[int], opp: Sequence[int]) -> int:
    """The result key of a position: byte i is ``me[i]``, byte 25 + i is ``opp[i]``."""
    return int.from_bytes(bytes(me) + bytes(opp), "little")


def sides_of(key: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(me, opp) back from a result key (the inverse of :func:`key_of`)."""
    b = key.to_bytes(50, "little")
    return tuple(b[:25]), tuple(b[25:])


def _move_key(s: int, d: int) -> int:
    t = s - d
    return (_W[t] if t >= 0 else 0) - _W[s]


# _MK[d][s]: key delta of moving a checker from index s by d (without the hit)
_MK = tuple(tuple(_move_key(s, d) for s in range(25)) if d else () for d in range(7))
# _ST[d][2*s + hit]: the interned Step for moving from index s by d
_ST = tuple(
    tuple(Step(s + 1, s - d + 1 if s - d >= 0 else OFF_POINT, bool(h) and s - d >= 0)
          for s in range(25) for h in (0, 1)) if d else ()
    for d in range(7))
