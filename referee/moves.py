"""Legal plays for a position and a roll (RULES.md sections 3-5), and checking a play.

:func:`legal_plays` returns one :class:`LegalPlay` per distinct resulting position,
each with its play in GNU Backgammon's notation and the resulting position with
the opponent on roll.  The generator is an unchecked inner loop over gnubg-style
lists; :func:`match_play` and :func:`plays_to` are the checked entry points the
match records and the referee use.
"""
from __future__ import annotations

import gc
from functools import lru_cache
from itertools import repeat
from typing import NamedTuple, Optional, Sequence, Union

from .errors import DiceError, IllegalPlay
from .notation import BAR_POINT, OFF_POINT, Play, Step, WrittenPlay, format_steps, parse_play
from .movegen import generate
from .position import Position


class LegalPlay(NamedTuple):
    """A legal play and the position after it (the opponent on roll)."""

    play: Play
    result: Position

    def __str__(self) -> str:
        return str(self.play)


def check_dice(d1: object, d2: object) -> tuple[int, int]:
    for d in (d1, d2):
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise DiceError(f"die {d!r} is out of range: each die must be 1-6")
    return d1, d2  # type: ignore[return-value]


def parse_dice(text: Union[str, Sequence[int]]) -> tuple[int, int]:
    """Dice from ``"31"``, ``"3-1"``, ``"3 1"`` or a pair of ints."""
    if not isinstance(text, str):
        if len(text) != 2:
            raise DiceError(f"dice {list(text)!r}: expected two dice, each 1-6")
        return check_dice(text[0], text[1])
    t = text.strip().replace("-", "").replace(" ", "").replace(",", "")
    if len(t) != 2 or not t.isdigit():
        raise DiceError(f"dice {text!r} are malformed: expected two digits 1-6 like '31' or '3-1'")
    return check_dice(int(t[0]), int(t[1]))


# ---------------------------------------------------------------------------- generator


_W = tuple(1 << (4 * i) for i in range(25))


def _generate(me0: tuple[int, ...], opp0: tuple[int, ...], d1: int, d2: int) -> dict:
    """All maximal step sequences, one per resulting (me, opp), filtered by the
    maximum-usage rule.  Returns {(me, opp): steps}.

    The inner loop works on gnubg-style lists with undo.  For each die a static
    candidate list holds the source points whose landing point is not blocked
    (blocked points cannot change during a turn); bear-off legality is checked
    against the running count of checkers outside the home board.
    """
    me = list(me0)
    opp = list(opp0)
    blocked = [opp[23 - t] >= 2 for t in range(24)]
    outside = sum(me[6:25])
    single_die: dict = {}
    path: list = []
    best = 0

    def cands(d: int) -> list[int]:
        return [s for s in range(23, -1, -1) if s < d or not blocked[s - d]]

    def legal(s: int, d: int) -> bool:
        """Bar and bear-off checks (the landing point is already known open)."""
        t = s - d
        if t >= 0:
            return True
        if outside:
            return False
        if t == -1:
            return True
        for k in range(s + 1, 6):
            if me[k]:
                return False
        return True

    def step(s: int, d: int) -> tuple[int, bool]:
        nonlocal outside
        t = s - d
        me[s] -= 1
        if s >= 6 and t < 6:
            outside -= 1
        if t >= 0:
            me[t] += 1
            o = 23 - t
            if opp[o] == 1:
                opp[o] = 0
                opp[24] += 1
                path.append(Step(s + 1, t + 1, True))
                return t, True
            path.append(Step(s + 1, t + 1, False))
            return t, False
        path.append(Step(s + 1, OFF_POINT, False))
        return t, False

    def back(s: int, t: int, hit: bool) -> None:
        nonlocal outside
        path.pop()
        me[s] += 1
        if s >= 6 and t < 6:
            outside += 1
        if t >= 0:
            me[t] -= 1
            if hit:
                opp[23 - t] = 1
                opp[24] -= 1

    W = _W
    km = sum(n << (4 * i) for i, n in enumerate(me))
    ko = sum(n << (4 * i) for i, n in enumerate(opp))
    seen: dict = {}  # (km, ko) -> (me tuple, opp tuple, steps)

    def leaf(depth: int, die: int = 0) -> None:
        nonlocal best
        if depth < best:
            return
        if depth > best:
            seen.clear()
            single_die.clear()
            best = depth
        key = (km, ko)
        if key not in seen:
            seen[key] = (tuple(me), tuple(opp), tuple(path))
            if depth == 1:
                single_die[key] = die

    if d1 != d2:
        cand = {d1: cands(d1), d2: cands(d2)}
        for a, b in ((d1, d2), (d2, d1)):
            moved_a = False
            first = (24,) if me[24] else cand[a]
            for s in first:
                if not me[s]:
                    continue
                if s == 24:
                    if blocked[24 - a]:
                        continue
                elif not legal(s, a):
                    continue
                moved_a = True
                t, hit = step(s, a)
                dk = (W[t] if t >= 0 else 0) - W[s]
                dko = W[24] - W[23 - t] if hit else 0
                km += dk
                ko += dko
                moved_b = False
                second = (24,) if me[24] else cand[b]
                opp_t = None
                for s2 in second:
                    if not me[s2]:
                        continue
                    if s2 == 24:
                        if blocked[24 - b]:
                            continue
                    elif not legal(s2, b):
                        continue
                    moved_b = True
                    # the second step's result, found without moving anything
                    t2 = s2 - b
                    if t2 >= 0:
                        k1 = km - W[s2] + W[t2]
                        o = 23 - t2
                        hit2 = opp[o] == 1
                        k2 = ko + W[24] - W[o] if hit2 else ko
                    else:
                        k1, k2, hit2 = km - W[s2], ko, False
                    if (k1, k2) in seen:
                        continue
                    if best < 2:
                        seen.clear()
                        single_die.clear()
                        best = 2
                    m = me.copy()
                    m[s2] -= 1
                    if t2 >= 0:
                        m[t2] += 1
                        last = Step(s2 + 1, t2 + 1, hit2)
                    else:
                        last = Step(s2 + 1, OFF_POINT, False)
                    if hit2:
                        oo = opp.copy()
                        oo[o] = 0
                        oo[24] += 1
                        ot = tuple(oo)
                    else:
                        if opp_t is None:
                            opp_t = tuple(opp)
                        ot = opp_t
                    seen[(k1, k2)] = (tuple(m), ot, (path[0], last))
                if not moved_b:
                    leaf(1, a)
                km -= dk
                ko -= dko
                back(s, t, hit)
            if not moved_a:
                leaf(0)
        if best == 1:
            larger = max(d1, d2)
            if any(d == larger for d in single_die.values()):
                for key, d in single_die.items():
                    if d != larger:
                        del seen[key]
    else:
        d = d1
        cand_d = cands(d)
        enter_open = not blocked[24 - d]
        def rec(depth: int, hi: int) -> None:
            # inlined step/back: this recursion is the hot loop for doubles
            nonlocal outside, km, ko, best
            moved = False
            if me[24]:
                if enter_open:
                    moved = True
                    t, hit = step(24, d)
                    km += W[t] - W[24]
                    if hit:
                        ko += W[24] - W[23 - t]
                    if depth == 3:
                        leaf(4)
                    else:
                        rec(depth + 1, 24)
                    km -= W[t] - W[24]
                    if hit:
                        ko -= W[24] - W[23 - t]
                    back(24, t, hit)
            elif depth == 3:
                # the last step: find new leaves without moving anything
                opp_t = None
                for s in cand_d:
                    if s > hi or not me[s]:
                        continue
                    t = s - d
                    if t < 0 and not legal(s, d):
                        continue
                    moved = True
                    if t >= 0:
                        k1 = km - W[s] + W[t]
                        o = 23 - t
                        hit = opp[o] == 1
                        k2 = ko + W[24] - W[o] if hit else ko
                    else:
                        k1, k2, hit = km - W[s], ko, False
                    if 4 < best or (k1, k2) in seen:
                        continue
                    if 4 > best:
                        seen.clear()
                        best = 4
                    m = me.copy()
                    m[s] -= 1
                    if t >= 0:
                        m[t] += 1
                        if hit:
                            oo = opp.copy()
                            oo[o] = 0
                            oo[24] += 1
                            ot = tuple(oo)
                        else:
                            if opp_t is None:
                                opp_t = tuple(opp)
                            ot = opp_t
                        last = Step(s + 1, t + 1, hit)
                    else:
                        if opp_t is None:
                            opp_t = tuple(opp)
                        ot = opp_t
                        last = Step(s + 1, OFF_POINT, False)
                    seen[(k1, k2)] = (tuple(m), ot, (*path, last))
            else:
                for s in cand_d:
                    if s > hi or not me[s]:
                        continue
                    t = s - d
                    if t < 0 and not legal(s, d):
                        continue
                    moved = True
                    me[s] -= 1
                    crossed = s >= 6 and t < 6
                    if crossed:
                        outside -= 1
                    hit = False
                    if t >= 0:
                        me[t] += 1
                        o = 23 - t
                        km += W[t] - W[s]
                        if opp[o] == 1:
                            opp[o] = 0
                            opp[24] += 1
                            ko += W[24] - W[o]
                            hit = True
                        path.append(Step(s + 1, t + 1, hit))
                    else:
                        km -= W[s]
                        path.append(Step(s + 1, OFF_POINT, False))
                    rec(depth + 1, s)
                    path.pop()
                    me[s] += 1
                    if crossed:
                        outside += 1
                    if t >= 0:
                        me[t] -= 1
                        km -= W[t] - W[s]
                        if hit:
                            opp[o] = 1
                            opp[24] -= 1
                            ko -= W[24] - W[o]
                    else:
                        km += W[s]
            if not moved:
                leaf(depth)

        rec(0, 24)
    if best == 0:
        return {}  # no legal play: the turn is lost
    return {(m, o): p for m, o, p in seen.values()}


@lru_cache(maxsize=4096)
def _cached(me: tuple[int, ...], opp: tuple[int, ...], d1: int, d2: int) -> tuple[LegalPlay, ...]:
    """The legal plays as values, built in bulk (C-level map) from the raw lists."""
    # a burst of small tuples: the collector would only walk them (they hold no
    # cycles), and its full passes are the slowest cases' outliers
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        mes, opps, paths = generate(me, opp, d1, d2)
        new = tuple.__new__
        return tuple(map(new, repeat(LegalPlay),
                         zip(map(new, repeat(Play), zip(paths)), map(new, repeat(Position), zip(opps, mes)))))
    finally:
        if collecting:
            gc.enable()


def legal_plays(position: Position, d1: int, d2: int) -> list[LegalPlay]:
    """Every legal play for ``position`` and the roll ``d1-d2``, one per distinct result.

    An empty list means no legal play: the turn is lost (the position passes to
    the opponent unchanged).
    """
    check_dice(d1, d2)
    if d1 < d2:
        d1, d2 = d2, d1
    return list(_cached(position.me, position.opp, d1, d2))


def results(position: Position, d1: int, d2: int) -> set[Position]:
    """The positions (opponent on roll) the roll allows; the unchanged position,
    swapped, when no play is possible."""
    plays = legal_plays(position, d1, d2)
    if not plays:
        return {position.swap()}
    return {lp.result for lp in plays}


def plays_to(position: Position, d1: int, d2: int, result: Position) -> list[LegalPlay]:
    """The legal play(s) producing ``result`` (opponent on roll), or [] if none does.

    ``result`` may also be given with the mover still on roll; both are accepted.
    """
    plays = legal_plays(position, d1, d2)
    found = [lp for lp in plays if lp.result == result or lp.result == result.swap()]
    if not found and not plays and result in (position.swap(), position):
        return [LegalPlay(Play(()), position.swap())]
    return found


# ---------------------------------------------------------------------------- checking text


def _apply_written(position: Position, written: WrittenPlay) -> tuple[Optional[list[int]], Optional[str], set[int]]:
    """Move my checkers as the text says (ignoring legality); returns my side
    afterwards, or a reason it cannot be done, and the hit points written."""
    me = list(position.me)
    hits: set[int] = set()
    for mv in written.moves:
        for _ in range(mv.count):
            src, dst = mv.points[0], mv.points[-1]
            idx = 24 if src == BAR_POINT else src - 1
            if me[idx] <= 0:
                where = "on the bar" if src == BAR_POINT else f"on the {src} point"
                return None, f"there is no checker of the player on roll {where}", hits
            me[idx] -= 1
            if dst != OFF_POINT:
                me[dst - 1] += 1
        for p, h in zip(mv.points[1:], mv.hits):
            if h:
                hits.add(p)
    return me, None, hits


def _why_illegal(position: Position, d1: int, d2: int, written: WrittenPlay, plays: list[LegalPlay]) -> str:
    me, reason, _ = _apply_written(position, written)
    if reason:
        return reason
    steps = [(mv.points, mv.count) for mv in written.moves]
    for pts, _count in steps:
        for p in pts[1:]:
            if p != OFF_POINT and position.opp[24 - p] >= 2:
                return f"it lands on the {p} point, held by the opponent ({position.opp[24 - p]} checkers)"
    if position.me[24]:
        entering = sum(c for pts, c in steps if pts[0] == BAR_POINT)
        if entering < position.me[24] and any(pts[0] != BAR_POINT for pts, _ in steps):
            return f"{position.me[24]} checker(s) on the bar must enter before any other checker moves"
    if any(pts[-1] == OFF_POINT for pts, _ in steps) and sum(position.me[6:25]) > 0:
        return "it bears off while checkers are still outside the home board"
    pips = sum((pts[0] - pts[-1]) * c for pts, c in steps)
    allowed = 4 * d1 if d1 == d2 else d1 + d2
    max_dice = max((len(lp.play) for lp in plays), default=0)
    used = sum(c * max(1, len(pts) - 1) for pts, c in steps)
    if not plays:
        return "no checker can move: the turn is lost"
    if pips > allowed and not any(pts[-1] == OFF_POINT for pts, _ in steps):
        return f"it moves {pips} pips but the roll {d1}-{d2} gives {allowed}"
    if pips < allowed and max_dice > 0 and written.is_empty:
        return f"a legal play exists, so the roll must be played (e.g. {plays[0].play})"
    if max_dice and pips < allowed:
        return (f"it does not use the roll fully: the rules require playing as much of "
                f"{d1}-{d2} as possible ({max_dice} dice can be played)")
    return f"it is not one of the {len(plays)} legal plays for {d1}-{d2}"


def _written_landings(written: WrittenPlay) -> dict[int, int]:
    out: dict[int, int] = {}
    for mv in written.moves:
        for p in mv.points[1:]:
            out[p] = out.get(p, 0) + mv.count
    return out


def _landings(play: Play) -> dict[int, int]:
    out: dict[int, int] = {}
    for st in play.steps:
        out[st.dst] = out.get(st.dst, 0) + 1
    return out


def _contains(have: dict[int, int], need: dict[int, int]) -> bool:
    return all(have.get(p, 0) >= n for p, n in need.items())


def match_play(position: Position, d1: int, d2: int, text: Union[str, WrittenPlay]) -> LegalPlay:
    """The legal play that ``text`` describes.  Raises NotationError for malformed
    text and IllegalPlay naming the play, dice and position (and why) otherwise."""
    written = parse_play(text) if isinstance(text, str) else text
    check_dice(d1, d2)
    plays = legal_plays(position, d1, d2)
    pid = position.position_id()
    if written.is_empty:
        if not plays:
            return LegalPlay(Play(()), position.swap())
        raise IllegalPlay(
            f"play {written.text!r} with {d1}-{d2} in position {pid}: "
            f"{_why_illegal(position, d1, d2, written, plays)}")
    me, reason, hits = _apply_written(position, written)
    candidates = [] if me is None else [lp for lp in plays if list(lp.result.opp) == me]
    if len(candidates) > 1:
        landed = _written_landings(written)
        via = [lp for lp in candidates if _contains(_landings(lp.play), landed)]
        candidates = via or candidates
    if len(candidates) > 1:
        exact = [lp for lp in candidates if {st.dst for st in lp.play.steps if st.hit} == hits]
        if len(exact) == 1:
            candidates = exact
        elif not hits:
            quiet = [lp for lp in candidates if not any(st.hit for st in lp.play.steps)]
            candidates = quiet or candidates
        if len(candidates) > 1:
            raise IllegalPlay(
                f"play {written.text!r} with {d1}-{d2} in position {pid} is ambiguous: it could be "
                + " or ".join(repr(str(c.play)) for c in candidates) + "; mark the hits with '*'")
    if candidates:
        return candidates[0]
    why = reason or _why_illegal(position, d1, d2, written, plays)
    raise IllegalPlay(f"play {written.text!r} with {d1}-{d2} in position {pid} is illegal: {why}")


def play_text(steps: Sequence[Step]) -> str:
    return format_steps(steps)
