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
only when that fails does the search look for another assignment.  Other plays (``24/13``,
``13/7(2)`` with 3-3, ``6/off`` with a 4) take the steps the search would try first: those the
dice alone fix are kept per play and roll (a route) and played straight, and the search runs
only when the board stops one of them.  In every other case -- fewer dice used, a step it
cannot place, an empty play with a legal move -- it returns ``None`` and the caller asks the full generator
(:func:`referee.rules.moves.match_play`), which stays the authority.  The test suite
cross-checks the two on every play of the real match files.
"""
from __future__ import annotations

from typing import Optional, Sequence

from referee.rules.moves import LegalPlay
from referee.rules.notation import OFF_POINT, Play, Step, WrittenMove, WrittenPlay
from referee.rules.position import Position


#: every single-die step as one shared value: ``_STEP[src][dst][hit]`` (steps are immutable)
_STEP = tuple(tuple((Step(s, d, False), Step(s, d, True)) for d in range(26)) for s in range(26))
_new = tuple.__new__


#: a segment's step with the die of its distance: (from index, to index or -1 for off, the
#: opponent's index of the point landed on, its step, its step as a hit)
_Direct = tuple[int, int, int, Step, Step]
#: one checker's step on a route: (from index, to index -- or, off the board, from index
#: minus the die, so negative --, the opponent's index of the point landed on, its step as a
#: hit or None where the route may not hit -- a point the text passes without naming --, and
#: its place in the play)
_Entry = tuple[int, int, int, Optional[Step], int]
#: the steps a play takes for a roll when the board allows them: the play without hits, and
#: each step's entry
_Route = tuple[Play, tuple[_Entry, ...]]
#: a written play's plan: its (from, to) segments, their distances sorted, its steps with one
#: die each, and its routes by roll (``d1 * 8 + d2`` -> the route, or None: search)
_Plan = tuple[tuple[tuple[int, int], ...], tuple[int, ...], tuple[_Direct, ...], dict[int, Optional[_Route]]]
#: the plans made so far, by the written play's identity (the replay parses each text once,
#: :func:`referee.rules.notation.parse_play_cached`): id -> (the play, its plan)
_PLANS: dict[int, tuple[WrittenPlay, _Plan]] = {}
_PLANS_KEPT = 1 << 14
#: a written move's segments and their one-die steps (moves repeat across plays: "24/18")
_MOVE_PLANS: dict[WrittenMove, tuple[list[tuple[int, int]], list[int], list[_Direct]]] = {}


def _direct(a: int, b: int) -> _Direct:
    """The step of a segment ``a``/``b`` made with the die of its distance."""
    return (a - 1, b - 1, 24 - b, _STEP[a][b][False], _STEP[a][b][True])


def _move_plan(mv: WrittenMove) -> tuple[list[tuple[int, int]], list[int], list[_Direct]]:
    """A written move's (from, to) segments (each repeat in turn), distances and one-die steps."""
    segs: list[tuple[int, int]] = []
    pts = mv.points
    for _ in range(mv.count):
        for a, b in zip(pts, pts[1:]):
            segs.append((a, b))
    if len(_MOVE_PLANS) >= _PLANS_KEPT:
        _MOVE_PLANS.clear()
    out = _MOVE_PLANS[mv] = (segs, [a - b for a, b in segs], [_direct(a, b) for a, b in segs])
    return out


def _plan(written: WrittenPlay) -> _Plan:
    """The written moves as (from, to) segments in the mover's numbering (25 = bar, 0 = off),
    their distances sorted, per segment its step with the die of its distance, and the
    routes found so far (:func:`_route`)."""
    segs: list[tuple[int, int]] = []
    dists: list[int] = []
    direct: list[_Direct] = []
    known = _MOVE_PLANS
    for mv in written.moves:
        m = known.get(mv)
        if m is None:
            m = _move_plan(mv)
        segs += m[0]
        dists += m[1]
        direct += m[2]
    dists.sort()
    plan: _Plan = (tuple(segs), tuple(dists), tuple(direct), {})
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[id(written)] = (written, plan)  # the play is kept with it: its id stays its own
    return plan


#: the dice's distances as a plan has them: sorted, four of a double
_DICE = tuple(tuple(((a,) * 4 if a == b else (min(a, b), max(a, b))) for b in range(7)) for a in range(7))


def fast_play(position: Position, d1: int, d2: int, written: WrittenPlay) -> Optional[LegalPlay]:
    """The legal play ``written`` describes when it provably uses the whole roll (or,
    written empty, when no checker can move), else None."""
    if not written.moves:
        return LegalPlay(_NO_PLAY, position.swap()) if _cannot_move(position, d1, d2) else None
    known = _PLANS.get(id(written))
    plan = known[1] if known is not None and known[0] is written else _plan(written)
    routes = plan[3]
    key = d1 * 8 + d2
    route = routes[key] if key in routes else _route(plan, key, d1, d2)
    if route is not None:
        lp = _play_route(position, route)
        if lp is not None:
            return lp
    segs = plan[0]
    if not segs:
        return None
    return _search(position, segs, ((d1,) * 4,) if d1 == d2 else ((d1, d2), (d2, d1)))


def _route(plan: _Plan, key: int, d1: int, d2: int) -> Optional[_Route]:
    """The steps the play takes for this roll whenever the board allows every one of them, or
    None when that depends on the board (kept in the plan's routes under ``key``).

    With as many segments as dice, each of its distance, they are the segments in order, each
    with its die (every legal way to play them gives these steps).  Otherwise they are the
    steps :func:`_search` takes -- what it finds is then this play --, of which only the points
    each die reaches are fixed here: the order it tries first, or its other order when the first
    cannot place the segments (a die past a segment's end), playing every segment and every die."""
    segs, dists, direct, routes = plan
    route: Optional[_Route] = None  # d1 * 8 + d2 is never 0: the dice are 1-6
    if not segs:
        pass
    elif dists == _DICE[d1][d2]:  # the same route for both orders of the dice: kept under 0
        route = routes.get(0)
        if route is None:
            route = routes[0] = (_new(Play, (tuple([plain for _s, _t, _o, plain, _h in direct]),)),
                                 tuple([(s, t, o, hit, k) for k, (s, t, o, _p, hit) in enumerate(direct)]))
    else:
        for order in (((d1,) * 4,) if d1 == d2 else ((d1, d2), (d2, d1))):
            walked = _walk(segs, order)
            if walked is not _STUCK:  # an order that cannot place the segments: the search tries the next
                route = walked
                break
    routes[key] = route
    return route


#: :func:`_walk`'s answer for an order that cannot place the segments (never a route)
_STUCK: _Route = (Play(()), ())


def _walk(segs: tuple[tuple[int, int], ...], order: tuple[int, ...]) -> Optional[_Route]:
    """:func:`_search`'s walk of ``order`` on the segments, before any board: its route when it
    places every segment with every die, :data:`_STUCK` when a die passes a segment's end (the
    search goes on to the next order, whatever the board), None otherwise (the board decides)."""
    n = len(segs)
    plain: list[Step] = []
    out: list[_Entry] = []
    i = 0
    cur, dst = segs[0]
    while cur == dst:
        i += 1
        if i == n:
            break
        cur, dst = segs[i]
    for d in order:
        if i == n:
            return None  # every segment placed with dice to spare (or the board stops it first)
        if dst != OFF_POINT and d > cur - dst:
            return _STUCK
        nxt = cur - d if cur - d >= 1 else OFF_POINT
        s = cur - 1  # 24 for the bar
        k = len(out)
        plain.append(_STEP[cur][nxt][False])
        if nxt == OFF_POINT:
            out.append((s, s - d, 0, None, k))
        else:
            out.append((s, nxt - 1, 24 - nxt, _STEP[cur][nxt][True] if nxt == dst else None, k))
        cur = nxt
        while cur == dst:
            i += 1
            if i == n:
                break
            cur, dst = segs[i]
    if i < n:
        return None
    return (_new(Play, (tuple(plain),)), tuple(out))


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


def _play_route(position: Position, route: _Route) -> Optional[LegalPlay]:
    """Play a route's steps in order (:func:`_route`: the caller has checked that they are
    the roll's).  None when a step is illegal (or hits where the route may not)."""
    plain, entries = route
    me = list(position[0])
    opp: Sequence[int] = position[1]  # a list once a checker is hit
    bar = me[24]  # while a checker is on the bar it enters first (no hit ever puts one there)
    steps: Optional[list[Step]] = None  # the play's steps once one hits
    for s, t, o, hit, k in entries:
        if not me[s] or (bar and me[24] and s != 24):
            return None
        if t < 0:  # bearing off: every checker home, and with a die past the point none above it
            if any(me[6:24]) or (t < -1 and any(me[s + 1:6])):
                return None
            me[s] -= 1
            continue
        n = opp[o]
        if n:
            if n >= 2 or hit is None:  # a held point, or a hit the text does not name (the search decides)
                return None
            hit_opp = list(opp)
            hit_opp[o] = 0
            hit_opp[24] += 1
            opp = hit_opp
            if steps is None:
                steps = list(plain[0])
            steps[k] = hit
        me[s] -= 1
        me[t] += 1
    return _new(LegalPlay, (plain if steps is None else _new(Play, (tuple(steps),)),
                            _new(Position, (tuple(opp), tuple(me)))))


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


def _search(position: Position, segs: tuple[tuple[int, int], ...],
            orders: tuple[tuple[int, ...], ...]) -> Optional[LegalPlay]:
    """Play the segments in order with the dice in each of ``orders`` in turn (a die on the
    current segment's checker until it reaches the segment's end), the first order that
    places every segment winning: the play when it uses every die, else None.  For two
    different dice the orders are ``(d1, d2)`` then ``(d2, d1)``, for doubles the one order:
    exactly the depth-first search of one die per step, without its recursion."""
    n = len(segs)
    step = _STEP
    for order in orders:
        me = list(position[0])
        opp = list(position[1])
        steps: list[Step] = []
        i = 0
        cur, dst = segs[0]
        while cur == dst:  # a segment that goes nowhere takes no die
            i += 1
            if i == n:
                break
            cur, dst = segs[i]
        used = 0
        for d in order:
            if i == n:
                break
            if dst != OFF_POINT and d > cur - dst:
                break
            s = 24 if cur == 25 else cur - 1
            r = _step(me, opp, s, d)
            if r is None:
                break
            t, hit = r
            nxt = t + 1 if t >= 0 else OFF_POINT
            if hit and nxt != dst:
                # a hit on a point the text does not name: the text may mean the other
                # order; leave the choice to the full matcher
                break
            steps.append(step[cur][nxt][hit])
            used += 1
            cur = nxt
            while cur == dst:
                i += 1
                if i == n:
                    break
                cur, dst = segs[i]
        if i < n:
            continue
        if used < len(order):
            return None  # every segment placed with dice to spare: not the whole roll
        return _new(LegalPlay, (_new(Play, (tuple(steps),)), _new(Position, (tuple(opp), tuple(me)))))
    return None
