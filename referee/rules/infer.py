"""What the mover did: rolls that explain a move (no dice reader), and why a move is illegal.

* :func:`rolls_explaining` -- for a camera-only table: the rolls (``(high, low)``, 21 of
  them) whose legal plays lead from ``before`` to ``after``.
* :func:`describe_change` -- the checkers' change written as a play (``"13/7 8/6*"``),
  pairing the points left with the points reached from the back.
* :func:`opponent_change` -- the opponent's checkers' change that no hit explains (the
  mover moved the opponent's checkers), as play text in the opponent's numbering.
* :func:`explain_illegal` -- one sentence a club player understands saying why the
  change is not a legal play of the roll, naming the colours.
"""
from __future__ import annotations

from itertools import combinations_with_replacement

from referee.rules.moves import legal_plays, results
from referee.rules.position import BAR, Position

ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for b, a in combinations_with_replacement(range(1, 7), 2))


def rolls_explaining(before: Position, after: Position) -> list[tuple[int, int]]:
    """The rolls that allow ``after`` (the mover's opponent on roll, or the mover still on roll)."""
    targets = {after, after.swap()}
    return [r for r in ROLLS if results(before, *r) & targets]


def describe_change(before: Position, after: Position) -> tuple[str, list[tuple[int, int]]]:
    """The change from ``before`` to ``after`` (both with the mover on roll) as play text,
    and its (from, to) pairs in the mover's numbering (25 = bar, 0 = off)."""
    srcs: list[int] = []
    dsts: list[int] = []
    for i in range(25):
        diff = after.me[i] - before.me[i]
        point = 25 if i == BAR else i + 1
        srcs += [point] * max(0, -diff)
        dsts += [point] * max(0, diff)
    dsts += [0] * max(0, after.off[0] - before.off[0])
    hit_points = ({24 - j for j in range(24) if before.opp[j] > after.opp[j]}
                  if after.opp[BAR] > before.opp[BAR] else set())
    srcs.sort(reverse=True)
    dsts.sort(reverse=True)
    pairs = list(zip(srcs, dsts))
    # a blot hit on the way (not where a checker stopped) is written as an intermediate
    # point of a path that passes over it: "bar/22*/17", so the record replays the hit
    at_dst = {d for _, d in pairs} & hit_points
    passing = {pair: sorted((h for h in hit_points - at_dst if pair[0] > h > pair[1]), reverse=True)
               for pair in pairs}
    used: set[int] = set()
    parts: list[str] = []
    for s, d in pairs:
        st = "bar" if s == 25 else str(s)
        dt = "off" if d == 0 else str(d)
        mids = [h for h in passing[(s, d)] if h not in used]
        used.update(mids)
        parts.append(st + "".join(f"/{h}*" for h in mids) + f"/{dt}" + ("*" if d in hit_points else ""))
        hit_points.discard(d)
    grouped: list[str] = []
    for part in parts:  # "24/18 24/18" -> "24/18(2)", as gnubg writes it
        if grouped and grouped[-1].split("(")[0] == part:
            head, _, n = grouped[-1].partition("(")
            grouped[-1] = f"{head}({int(n.rstrip(')') or 1) + 1})"
        else:
            grouped.append(part)
    return " ".join(grouped), pairs


def opponent_change(before: Position, after: Position) -> str:
    """The change of the opponent's checkers from ``before`` to ``after`` (both with the
    mover on roll) that no hit explains, as play text in the opponent's numbering; "" when
    the opponent's checkers are as before, or only hit blots went to the bar."""
    ob, oa = list(before.opp), after.opp
    hits = oa[BAR] - ob[BAR]
    for j in range(24):  # a blot hit by a checker of the mover's now on its point
        if hits > 0 and ob[j] == 1 and oa[j] == 0 and after.me[23 - j]:
            ob[j], ob[BAR], hits = 0, ob[BAR] + 1, hits - 1
    if tuple(ob) == oa:
        return ""
    text, _ = describe_change(Position._raw(tuple(ob), after.me), Position._raw(oa, after.me))
    return text


def _reachable(dist: int, d1: int, d2: int) -> list[list[int]]:
    """The die sequences that move one checker exactly ``dist`` pips."""
    if d1 == d2:
        return [[d1] * k for k in range(1, 5) if d1 * k == dist]
    out = []
    for seq in ([d1], [d2], [d1, d2], [d2, d1]):
        if sum(seq) == dist:
            out.append(seq)
    return out


def explain_illegal(before: Position, after: Position, d1: int, d2: int, names: tuple[str, str]) -> str:
    """Why ``after`` (mover on roll) is not a legal play of ``d1-d2`` from ``before``.
    ``names`` = (mover's name, opponent's name)."""
    me, opp = names
    text, pairs = describe_change(before, after)
    moved = opponent_change(before, after)
    if moved:
        own = f", and played {text}" if text else ""
        return f"{me} moved {opp}'s checkers ({opp}'s {moved}){own}"
    plays = legal_plays(before, d1, d2)
    roll = f"{d1}-{d2}"
    example = f" (for example {plays[0].play})" if plays and len(plays[0].play) else ""
    if not pairs:
        if after.opp != before.opp or after.me != before.me:
            return f"the checkers do not show a move of {me}'s that {roll} allows"
        return f"{me} has not moved, but {roll} can be played{example}"
    if before.me[BAR] and after.me[BAR] and any(s != 25 for s, _ in pairs):
        return f"{text}: {me} has a checker on the bar and must enter it before moving another checker"
    pips = sum(s - d for s, d in pairs if d)
    allowed = 4 * d1 if d1 == d2 else d1 + d2
    off = any(d == 0 for _, d in pairs)
    if off and sum(before.me[6:25]) - sum(1 for s, d in pairs if s > 6 and 0 < d <= 6) > 0:
        return f"{text}: {me} bears off while checkers are still outside the home board"
    if pips > allowed and not off:
        return f"{text} moves {pips} pips, but {roll} gives {allowed}"
    for s, d in pairs:
        if d == 0:
            continue
        seqs = _reachable(s - d, d1, d2)
        if not seqs:
            return f"{text}: no die of {roll} moves a checker from {s} to {d}"
        blocked: list[int] = []
        for seq in seqs:
            pos, bad = s, None
            for die in seq[:-1]:
                pos -= die
                if before.opp[24 - pos] >= 2:
                    bad = pos
                    break
            if bad is None:
                break
            blocked.append(bad)
        else:
            where = " and ".join(f"the {p} point" for p in sorted(set(blocked), reverse=True))
            held = "is" if len(set(blocked)) == 1 else "are"
            return f"{text} lands on {where}, which {held} held by {opp}"
    if plays:
        most = max(len(lp.play) for lp in plays)
        used = sum(len(_reachable(s - d, d1, d2)[0]) if d and _reachable(s - d, d1, d2) else 1 for s, d in pairs)
        if used < most or (pips < allowed and not off):
            if most == 1 and used == 1 and d1 != d2 and len(pairs) == 1 and pairs[0][1] \
                    and pairs[0][0] - pairs[0][1] == min(d1, d2):
                return (f"{text} plays the {min(d1, d2)}, but when only one die can be played the larger, "
                        f"the {max(d1, d2)}, must be played{example}")
            return f"{text} does not play all of {roll}: {me} must play as much of the roll as possible{example}"
        if most == 1 and d1 != d2 and len(pairs) == 1 and pairs[0][1] and pairs[0][0] - pairs[0][1] == min(d1, d2):
            return (f"{text} plays the {min(d1, d2)}, but when only one die can be played the larger, "
                    f"the {max(d1, d2)}, must be played{example}")
    if not plays:
        return f"{me} cannot move with {roll}: the checkers must stay where they were"
    return f"{text} is not one of the {len(plays)} legal plays for {roll}"
