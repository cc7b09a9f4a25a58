"""The legal-move generator's inner loop: raw results for a position and a roll.

:func:`generate` returns two parallel lists (the result's key, the steps
played), one entry per distinct resulting position, already filtered by the
maximum-usage rule (RULES.md sections 3-5).  A result key is the position after
the play packed in one int, a byte per count (:func:`key_of`: the mover's 25
counts, then the opponent's; :func:`sides_of` unpacks it): a step changes it by
one precomputed addition, so a result costs an add and two appends, and nothing
is built until asked.  :mod:`referee.rules.moves` turns them into ``LegalPlay`` values
(and compares keys where it only needs to find a result); nothing here is public.
Which step sequence stands for a result (and so its notation) is the first one
a search of the larger die first, sources highest first, meets.

Why it is fast enough in pure Python:

* Doubles need no deduplication: moving checkers in non-increasing order of
  source point visits every multiset of (source, die) steps exactly once, and
  distinct multisets give distinct results (the net change of a side,
  read from the highest point down, recovers the multiset), so every leaf of
  the search is a new result.  The common cases (nothing on the bar after the
  entries, and no bear-off possible; or every checker home) run as four
  unrolled loops over the few points that can be sources this turn
  (:func:`_doubles_free`, :func:`_doubles_home`); the rest use a recursion.
* Two different dice with nothing on the bar and no bear-off possible
  (:func:`_two_dice_no_bar`): every order of legal steps stays legal, so the
  only duplicates (one checker moving a+b, reached four ways) are skipped by
  rule.  Other two-dice positions (bar, bear-off) walk only occupied sources
  and deduplicate by the result keys, from precomputed per-step deltas.
* Steps are interned: one ``Step`` per (source, die, hit), built at import.
"""
from __future__ import annotations

from referee.rules.movekeys import Path, Results, key_of, sides_of
from referee.rules.movegen_doubles import _doubles
from referee.rules.movegen_two import _two_dice

__all__ = ["Path", "Results", "generate", "key_of", "sides_of"]


def generate(me0: tuple[int, ...], opp0: tuple[int, ...], d1: int, d2: int) -> Results:
    """(keys, paths) for every distinct result of playing ``d1-d2`` (d1 >= d2):
    the result's key (:func:`key_of`, the mover's side still first) and the steps.

    Both lists are empty when no checker can move.
    """
    if d1 == d2:
        return _doubles(me0, opp0, d1)
    return _two_dice(me0, opp0, d1, d2)
