"""A fast check of a written play, for replaying records at speed.

:func:`fast_play` tries to play the written moves die by die on the position,
checking each single-die step with the rules (bar first, open points, bearing off
only with every checker home, an oversized die only from the highest point).  When
the written play uses every die of the roll it is legal (maximum usage is then
satisfied) and the result is returned without generating all legal plays; an
empty play ("Cannot Move") is legal when no checker can move one die.  When there
are as many written segments as dice (``24/18 13/11``, ``6/off 5/off``; not ``24/13``)
every way to play them gives each segment one die, so the same steps and position:
the segments are first played in order each with the die of its exact distance, and
only when that fails does the search look for another assignment.  In
every other case -- fewer dice used, a step it cannot place, an empty play with a
legal move -- it returns ``None`` and the caller asks the full generator
(:func:`referee.rules.moves.match_play`), which stays the authority.  The test suite
cross-checks the two on every play of the real match files.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

from referee.rules.moves import LegalPlay
from referee.rules.notation import OFF_POINT, Play, Step, WrittenPlay
from referee.rules.position import Position


@lru_cache(maxsize=16384)  # a WrittenPlay is immutable, and the same plays come back
def _segments(written: WrittenPlay) -> tuple[tuple[int, int], ...]:
    """The written moves as (from, to) segments in the mover's numbering (25 = bar, 0 = off)."""
    segs: list[tuple[int, int]] = []
    for mv in written.moves:
        pts = mv.points
        for _ in range(mv.count):
            for a, b in zip(pts, pts[1:]):
                segs.append((a, b))
    return tuple(segs)


def fast_play(position: Position, d1: int, d2: int, written: WrittenPlay) -> Optional[LegalPlay]:
    """The legal play ``written`` describes when it provably uses the whole roll (or,
    written empty, when no checker can move), else None."""
    if not written.moves:
        return LegalPlay(_NO_PLAY, position.swap()) if _cannot_move(position, d1, d2) else None
    segs = _segments(written)
    if not segs:
        return None
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    me = list(position.me)
    opp = list(position.opp)
    steps: list[Step] = []
    if len(segs) == len(dice):
        direct = _one_die_each(me, opp, segs, dice, steps)
        if direct is not None:
            return direct
        me, opp, steps = list(position.me), list(position.opp), []
        dice = [d1] * 4 if d1 == d2 else [d1, d2]
    if _place(me, opp, segs, 0, dice, steps) and not dice:
        return LegalPlay(Play(tuple(steps)), Position._raw(tuple(opp), tuple(me)))
    return None


_NO_PLAY = Play(())


def _cannot_move(position: Position, d1: int, d2: int) -> bool:
    """Whether no checker can move by either die (then the only legal play is none)."""
    me = list(position.me)
    opp = list(position.opp)
    sources = [24] if me[24] else [s for s in range(24) if me[s]]
    for d in {d1, d2}:
        for s in sources:
            r = _step(me, opp, s, d)
            if r is not None:
                return False
    return True


def _one_die_each(me: list[int], opp: list[int], segs: tuple[tuple[int, int], ...], dice: list[int],
                  steps: list[Step]) -> Optional[LegalPlay]:
    """Play as many segments as dice in order, each with the die of its exact distance
    (a bear-off from the 4 point with a 4).  With one die per segment every legal way
    gives these steps, so no search is needed.  None when a segment has no such die or
    its step is illegal (``me``, ``opp``, ``dice`` and ``steps`` are then spoilt)."""
    for cur, dst in segs:
        d = cur - dst
        if d not in dice:
            return None
        r = _step(me, opp, 24 if cur == 25 else cur - 1, d)
        if r is None:
            return None
        dice.remove(d)
        steps.append(Step(cur, dst, r[1]))
    return LegalPlay(Play(tuple(steps)), Position._raw(tuple(opp), tuple(me)))


def _step(me: list[int], opp: list[int], s: int, d: int) -> Optional[tuple[int, bool]]:
    """Move one checker from index ``s`` (24 = bar) by die ``d`` if legal; returns
    (target index or -1 for off, hit).  Leaves the lists unchanged when illegal."""
    if me[s] == 0:
        return None
    if me[24] and s != 24:
        return None
    t = s - d
    if t < 0:
        if any(me[6:25]):
            return None
        if t < -1 and any(me[s + 1:6]):
            return None
        me[s] -= 1
        return -1, False
    o = 23 - t
    if opp[o] >= 2:
        return None
    me[s] -= 1
    me[t] += 1
    if opp[o] == 1:
        opp[o] = 0
        opp[24] += 1
        return t, True
    return t, False


def _undo(me: list[int], opp: list[int], s: int, t: int, hit: bool) -> None:
    me[s] += 1
    if t >= 0:
        me[t] -= 1
        if hit:
            opp[23 - t] = 1
            opp[24] -= 1


def _place(me: list[int], opp: list[int], segs: tuple[tuple[int, int], ...], i: int,
           dice: list[int], steps: list[Step]) -> bool:
    """Place segments ``i..`` using dice from ``dice`` (consumed in place); True when all fit."""
    if i == len(segs):
        return True
    src, dst = segs[i]
    return _walk(me, opp, segs, i, src, dst, dice, steps)


def _walk(me: list[int], opp: list[int], segs: tuple[tuple[int, int], ...], i: int, cur: int, dst: int,
          dice: list[int], steps: list[Step]) -> bool:
    """Move one checker from ``cur`` to ``dst`` with one or more dice, then the rest."""
    if cur == dst:
        return _place(me, opp, segs, i + 1, dice, steps)
    tried = set()
    for k, d in enumerate(dice):
        if d in tried:
            continue
        tried.add(d)
        if dst != OFF_POINT and d > cur - dst:
            continue
        s = 24 if cur == 25 else cur - 1
        r = _step(me, opp, s, d)
        if r is None:
            continue
        t, hit = r
        nxt = t + 1 if t >= 0 else OFF_POINT
        if hit and nxt != dst:
            # a hit on a point the text does not name: the text may mean the other
            # order; leave the choice to the full matcher
            _undo(me, opp, s, t, hit)
            continue
        steps.append(Step(cur, nxt, hit))
        dice.pop(k)
        if _walk(me, opp, segs, i, nxt, dst, dice, steps):
            return True
        dice.insert(k, d)
        steps.pop()
        _undo(me, opp, s, t, hit)
    return False
