"""The backgammon position: an immutable value with the player on roll.

Representation (gnubg's, see FORMATS.md section 0): two tuples of 25 counts,
``me`` for the player on roll and ``opp`` for the other player.  Index ``i`` in
0..23 is that side's OWN point ``i + 1`` (its ace point is 1, it moves from 24
towards 1); index 24 is its bar.  Borne-off checkers are ``15 - sum(side)``.
My point ``p`` is the opponent's point ``25 - p``.

Canonical text forms: the gnubg Position ID (14 characters, which starts with
the player NOT on roll) and the position part of an XGID (written with the
player on roll at the bottom).  Both round-trip.
"""
from __future__ import annotations

import base64
from typing import Iterable, Mapping, Optional, Sequence

from referee.errors import PositionError

CHECKERS = 15
BAR = 24  # index of the bar in a side tuple
_START_SIDE = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


_new_tuple = tuple.__new__


class Position(tuple[tuple[int, ...], tuple[int, ...]]):
    """A position with the player on roll.  Immutable and hashable.

    It is a pair ``(me, opp)`` underneath (a tuple subclass), which keeps the
    move generator's result construction cheap.
    """

    __slots__ = ()

    def __new__(cls, me: Sequence[int], opp: Sequence[int]) -> "Position":
        me_t, opp_t = tuple(me), tuple(opp)
        if len(me_t) != 25 or len(opp_t) != 25:
            raise PositionError(f"a side needs 25 counts (points 1-24 and the bar), got {len(me_t)} and {len(opp_t)}")
        for side in (me_t, opp_t):
            for n in side:
                if not isinstance(n, int) or n < 0:
                    raise PositionError(f"checker count {n!r} must be a non-negative integer")
        return _new_tuple(cls, (me_t, opp_t))

    @classmethod
    def _raw(cls, me: tuple[int, ...], opp: tuple[int, ...]) -> "Position":
        """Unchecked constructor for the move generator's inner loop."""
        return _new_tuple(cls, (me, opp))

    @property
    def me(self) -> tuple[int, ...]:
        """The player on roll's side: points 1..24 (index 0..23) and the bar (index 24)."""
        return self[0]

    @property
    def opp(self) -> tuple[int, ...]:
        """The opponent's side, in its own numbering."""
        return self[1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Position) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = tuple.__hash__

    def __getnewargs__(self) -> tuple[tuple[int, ...], tuple[int, ...]]:  # pickling
        return (self[0], self[1])

    def __repr__(self) -> str:
        return f"Position.from_position_id({self.position_id()!r})"

    # ------------------------------------------------------------------ constructors

    @classmethod
    def start(cls) -> "Position":
        """The starting position (either player on roll: it is symmetric)."""
        return cls._raw(_START_SIDE, _START_SIDE)

    @classmethod
    def from_board(cls, board: Sequence[Sequence[int]]) -> "Position":
        """From gnubg's board convention ``(opp, me)`` with the player on roll second."""
        if len(board) != 2:
            raise PositionError(f"a gnubg board is two sides (opp, me), got {len(board)}")
        return cls(board[1], board[0])

    @classmethod
    def from_points(cls, me: Mapping[object, int], opp: Mapping[object, int]) -> "Position":
        """From per-point counts in each side's own numbering: ``{6: 5, 8: 3, "bar": 1}``.

        Keys are points 1..24, 25 or ``"bar"``.  Missing checkers are borne off.
        """
        sides = []
        for name, spec in (("player on roll", me), ("opponent", opp)):
            side = [0] * 25
            for key, n in spec.items():
                if isinstance(key, str) and key.lower() == "bar":
                    idx = BAR
                elif isinstance(key, str) and key.lower() == "off":
                    continue
                else:
                    try:
                        point = int(key)  # type: ignore[call-overload]
                    except (TypeError, ValueError):
                        raise PositionError(f"{name}: point {key!r} is not 1..24, 25 or 'bar'") from None
                    if not 1 <= point <= 25:
                        raise PositionError(f"{name}: point {point} is not 1..24 (or 25 for the bar)")
                    idx = point - 1
                side[idx] += n
            sides.append(side)
        return cls(sides[0], sides[1])

    @classmethod
    def from_position_id(cls, pid: str) -> "Position":
        """From a gnubg Position ID (14 characters; the player NOT on roll comes first)."""
        text = pid.strip()
        if text.startswith("Position ID:"):
            text = text.split(":", 1)[1].strip()
        if len(text) != 14 or any(c not in _B64 for c in text):
            raise PositionError(
                f"position ID {pid!r} is malformed: expected 14 characters of A-Z a-z 0-9 + /")
        key = base64.b64decode(text + "==")
        bits = int.from_bytes(key, "little")
        sides: list[list[int]] = [[0] * 25, [0] * 25]
        side = slot = 0
        for k in range(80):
            if side > 1:
                if (bits >> k) & 1:
                    raise PositionError(f"position ID {pid!r} has checker bits after the last point")
                continue
            if (bits >> k) & 1:
                sides[side][slot] += 1
            else:
                slot += 1
                if slot == 25:
                    side, slot = side + 1, 0
        for s, name in ((sides[0], "player not on roll"), (sides[1], "player on roll")):
            if sum(s) > CHECKERS:
                raise PositionError(f"position ID {pid!r} gives the {name} {sum(s)} checkers (at most 15)")
        return cls(sides[1], sides[0])

    @classmethod
    def from_xgid(cls, xgid: str) -> "Position":
        """From an XGID (``XGID=...`` or just its 26-character position part).

        When the XGID has a turn field of ``-1`` (top player to act), the top
        player is the player on roll; otherwise the bottom player is.
        """
        text = xgid.strip()
        if text.upper().startswith("XGID="):
            text = text[5:]
        parts = text.split(":")
        pos = parts[0]
        if len(pos) != 26 or any(not (c == "-" or "A" <= c <= "O" or "a" <= c <= "o") for c in pos):
            raise PositionError(
                f"XGID position {pos!r} is malformed: expected 26 characters of '-', A-O, a-o")
        bottom = [0] * 25
        top = [0] * 25
        for i, c in enumerate(pos):
            if c == "-":
                continue
            if c.isupper():
                n = ord(c) - ord("A") + 1
                if i == 0:
                    raise PositionError(f"XGID {xgid!r}: character 0 is the top player's bar, not {c!r}")
                bottom[BAR if i == 25 else i - 1] += n
            else:
                n = ord(c) - ord("a") + 1
                if i == 25:
                    raise PositionError(f"XGID {xgid!r}: character 25 is the bottom player's bar, not {c!r}")
                top[BAR if i == 0 else 24 - i] += n
        turn = 1
        if len(parts) > 3 and parts[3].strip():
            try:
                turn = int(parts[3])
            except ValueError:
                raise PositionError(f"XGID {xgid!r}: turn {parts[3]!r} is not 1 or -1") from None
        for s, name in ((bottom, "bottom"), (top, "top")):
            if sum(s) > CHECKERS:
                raise PositionError(f"XGID {xgid!r} gives the {name} player {sum(s)} checkers (at most 15)")
        return cls(top, bottom) if turn == -1 else cls(bottom, top)

    # ------------------------------------------------------------------ text forms

    def position_id(self) -> str:
        """The gnubg Position ID: the player NOT on roll first (as gnubg 1.07 writes it)."""
        return key_to_id(self.opp, self.me)

    def xgid(self) -> str:
        """The 26-character XGID position part, the player on roll at the bottom."""
        chars = ["-"] * 26
        if self.opp[BAR]:
            chars[0] = chr(ord("a") + self.opp[BAR] - 1)
        if self.me[BAR]:
            chars[25] = chr(ord("A") + self.me[BAR] - 1)
        for i in range(24):
            m, o = self.me[i], self.opp[23 - i]
            if m and o:
                chars[i + 1] = "?"
            elif m:
                chars[i + 1] = chr(ord("A") + m - 1)
            elif o:
                chars[i + 1] = chr(ord("a") + o - 1)
        return "".join(chars)

    def board(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """gnubg's board convention ``(opp, me)``."""
        return (self.opp, self.me)

    def swap(self) -> "Position":
        """The same checkers with the other player on roll."""
        return Position._raw(self.opp, self.me)

    # ------------------------------------------------------------------ queries

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return CHECKERS - sum(self.me), CHECKERS - sum(self.opp)

    def pips(self) -> tuple[int, int]:
        """Pip counts: (player on roll, opponent); the bar counts 25."""
        return (sum((i + 1) * n for i, n in enumerate(self.me)),
                sum((i + 1) * n for i, n in enumerate(self.opp)))

    def is_contact(self) -> bool:
        """True while some checkers can still meet."""
        my_back = max((i for i in range(25) if self.me[i]), default=-1)
        opp_back = max((i for i in range(25) if self.opp[i]), default=-1)
        # my point p meets the opponent's point 25-p; contact while my furthest
        # checker is behind the opponent's furthest checker
        return my_back >= 0 and opp_back >= 0 and (my_back + 1) + (opp_back + 1) > 25

    def is_game_over(self) -> bool:
        """Whether a side has borne off all its checkers."""
        return sum(self.me) == 0 or sum(self.opp) == 0

    def validate(self) -> list[str]:
        """Problems that make this position impossible (empty list when it is fine). Never raises."""
        problems: list[str] = []
        for side, name in ((self.me, "player on roll"), (self.opp, "opponent")):
            total = sum(side)
            if total > CHECKERS:
                problems.append(f"the {name} has {total} checkers on the board (at most 15)")
        for i in range(24):
            if self.me[i] and self.opp[23 - i]:
                problems.append(
                    f"both players have checkers on point {i + 1} of the player on roll "
                    f"({self.me[i]} and {self.opp[23 - i]})")
        if sum(self.me) == 0 and sum(self.opp) == 0:
            problems.append("both players have borne off all their checkers")
        return problems

    def is_valid(self) -> bool:
        """Whether :meth:`validate` finds no problem (the position is possible)."""
        return not self.validate()

    # ------------------------------------------------------------------ display

    def __str__(self) -> str:
        return self.ascii()

    def ascii(self, names: tuple[str, str] = ("O", "X")) -> str:
        """A board a player can read.  The player on roll (``X``) moves from 24 down
        to 1 along the bottom-right home board; the opponent (``O``) plays the other way."""
        me_mark, opp_mark = names[1], names[0]

        def cell(point: int, height: int) -> str:
            m, o = self.me[point - 1], self.opp[24 - point]
            n, mark = (m, me_mark) if m else (o, opp_mark)
            if n > height:
                if height == 4 and n > 5:
                    return f"{n:>2}"[-2:] if n >= 10 else f" {n}"
                return f" {mark}"
            return "  "

        lines = [f" +13-14-15-16-17-18-+---+19-20-21-22-23-24-+  {opp_mark}: {self.off[1]} off, pips {self.pips()[1]}"]
        for h in range(5):
            row = "".join(cell(p, h) + " " for p in range(13, 19))
            row2 = "".join(cell(p, h) + " " for p in range(19, 25))
            bar = f" {opp_mark} " if self.opp[BAR] > h else "   "
            lines.append(f" |{row}|{bar}|{row2}|")
        lines.append(" |                  |BAR|                  |")
        for h in reversed(range(5)):
            row = "".join(cell(p, h) + " " for p in range(12, 6, -1))
            row2 = "".join(cell(p, h) + " " for p in range(6, 0, -1))
            bar = f" {me_mark} " if self.me[BAR] > h else "   "
            lines.append(f" |{row}|{bar}|{row2}|")
        lines.append(f" +12-11-10--9--8--7-+---+-6--5--4--3--2--1-+  {me_mark} (on roll): "
                     f"{self.off[0]} off, pips {self.pips()[0]}")
        lines.append(f" Position ID: {self.position_id()}")
        return "\n".join(lines)


def key_to_id(first: Iterable[int], second: Iterable[int]) -> str:
    """Pack two sides (first = player not on roll) into a gnubg Position ID."""
    a, b = tuple(first), tuple(second)
    try:
        counts = bytes(a + b)
    except (TypeError, ValueError):  # not counts 0..255: packed bit by bit below
        counts = b""
    if len(counts) == 50 and len(a) == 25 and max(counts) <= CHECKERS:
        return counts_to_id(int.from_bytes(counts, "little"))
    bits = 0
    k = 0
    for side in (a, b):
        for n in side:
            bits |= ((1 << n) - 1) << k
            k += n + 1
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


# The Position ID's bits: each point's n checkers as n one-bits and a zero, least significant
# first.  _PAIR_BITS[lo | hi << 4] is two consecutive points' bits written most significant
# first (the later point first), so one join over 25 pairs writes the whole key.
_UNARY_MSB = tuple("0" + "1" * n for n in range(16))
_PAIR_BITS = tuple(_UNARY_MSB[i >> 4] + _UNARY_MSB[i & 15] for i in range(256))
_EVEN_BYTES = int.from_bytes(bytes([255, 0] * 25), "little")


def counts_to_id(counts: int) -> str:
    """The Position ID of 50 point counts packed one a byte, least significant first (the
    player not on roll's 25, then the other's; each at most 15, as in a move generator's
    result key): the same text as :func:`key_to_id`, about twice as fast."""
    pairs = (counts | (counts >> 4)) & _EVEN_BYTES   # byte 2i: point 2i's count | point 2i+1's << 4
    bits = int("".join([_PAIR_BITS[c] for c in pairs.to_bytes(50, "big")[1::2]]), 2)
    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


def parse_position(text: str) -> Position:
    """A position from any text form: gnubg Position ID, ``ID:MatchID``, or XGID."""
    t = text.strip()
    if t.upper().startswith("XGID=") or (len(t.split(":")[0]) == 26):
        return Position.from_xgid(t)
    if ":" in t and len(t.split(":")[0]) == 14:
        t = t.split(":")[0]
    return Position.from_position_id(t)


def optional_position(text: Optional[str]) -> Optional[Position]:
    """A position from its text (as :func:`parse_position`), or None for None."""
    return None if text is None else parse_position(text)
