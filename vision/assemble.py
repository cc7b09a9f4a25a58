"""Stage 4, assemble: counts and colours per point, the bar, calibrated confidences.

A row of 5 keeps the 12-pyramid as its next likeliest count; :func:`settle_with_off` takes it
when trays read surely leave that colour exactly 7 short of 15 (the reader calls it).  A colour
over 15 gives one point or bar checker to the other colour when that makes both possible and
its colour was clearly the least sure (:func:`flip_one_colour`).  Impossible totals leave the
reading with its reason (:func:`vision.reasons.impossible`).  A stack taller than real games
leave is never sure (:func:`doubt_rare_stacks`).  Every function returns new values.

Calibration (measured on rendered boards, ``bench/vision_accuracy.py`` part 3): a point's raw
score is the smallest of its margins (rim against threshold, stack phase, colour); below
``point_knee`` most readings are wrong, above it almost all are right.  The knee maps to
``certain``, the referee's default ``min_confidence``.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from referee.events import PointReading

from . import layout as L
from .checkers import Found
from .colours import ColourModel
from .params import DEFAULT, ReadParams
from .reasons import NoReading, impossible
from .stacks import TWIN, PointCount

Rows = dict[str, list[PointReading]]


@dataclass(frozen=True)
class Assembled:
    """A whole reading: the rows, the checkers counted, whether the totals are possible."""

    rows: L.RowReading
    checkers: int
    plausible: bool
    totals: tuple[int, int] = (0, 0)          # checkers read per colour (points and bar)
    model: Optional[ColourModel] = None       # the colour model the reading used
    alts: tuple[tuple[str, int, int], ...] = ()  # (row, index, count): a tall stack's next likeliest count
    bar_confidence: float = 1.0               # the bar count's calibrated confidence
    reason: Optional[NoReading] = None        # why this is no reading (impossible totals), else None
    margins: tuple[float, ...] = ()           # per point (top then bottom) its least sure checker's colour
    #                                           margin (vision.colours), 1.0 where empty or flipped by the totals
    foreign: tuple[str, ...] = ()             # the points holding a stack of a colour neither set shows
    #                                           (foreign_points): something lies over the board there
    odd: tuple[bool, ...] = ()                # per point (top then bottom): it holds a checker whose hue
    #                                           neither colour shows (its colour doubted in the odds)


def calibrate(raw: float, params: ReadParams = DEFAULT) -> float:
    """A raw margin (0..1) to a confidence: below ``certain`` exactly when raw < ``point_knee``."""
    certain, knee = params.certain, params.point_knee
    raw = max(0.0, min(1.0, float(raw)))
    if raw < knee:
        return certain * raw / knee
    return certain + (1 - certain) * (raw - knee) / (1 - knee)


def colour_raw(margin: float, params: ReadParams = DEFAULT) -> float:
    """A colour margin (:meth:`ColourModel.classify`) as a raw point score: below
    ``point_knee`` exactly when the margin is below ``colour_knee``."""
    knee, ck = params.point_knee, params.colour_knee
    if margin < ck:
        return knee * margin / ck
    return knee + 3 * (margin - ck)


def board_confidence(point_confs: list[float], plausible: bool, bar: float = 1.0,
                     params: ReadParams = DEFAULT) -> float:
    """The reading as a whole: 0 when its totals are impossible; below ``certain`` when
    more than ``unsure_points`` points are unsure or the bar is (a bar count has no
    confidence of its own in :class:`referee.events.BoardEvidence`); else 0.6 + 0.4 x the
    weakest point's."""
    certain = params.certain
    if not plausible:
        return 0.0
    weakest = min(point_confs)
    unsure = sum(c < certain for c in point_confs)
    if bar < certain:
        return min(bar, certain * weakest) if unsure > params.unsure_points else bar
    if unsure > params.unsure_points:
        return certain * weakest
    return certain + (1 - certain) * weakest


def _point_rows(found: Found, labels: np.ndarray, cmargin: np.ndarray,
                params: ReadParams) -> tuple[Rows, list[int], dict[tuple[str, int], float], int]:
    """Each point's count, colour (the majority of its samples) and raw confidence; the totals
    per colour, each point's weakest colour margin, and how many samples the points used."""
    k = 0
    rows: Rows = {"top": [], "bottom": []}
    total = [0, 0]
    margins: dict[tuple[str, int], float] = {}   # each point's weakest colour margin
    # as Python numbers: a point's few samples summed and their least margin found without
    # numpy's per-call cost (the same values: the labels' ints, the margins' floats)
    labs, cms = labels.tolist(), cmargin.tolist()
    for name in [f"{r}{i}" for r in ("top", "bottom") for i in range(12)]:
        pc = found.per_axis[name]
        m = len(pc.samples)
        lab = labs[k:k + m]
        weakest = min(cms[k:k + m]) if pc.count else np.inf
        k += m
        conf = pc.confidence
        colour = None
        if pc.count:
            light = sum(lab)
            colour = "light" if light * 2 > m else "dark"
            conf = min(conf, colour_raw(weakest, params)) * (0.3 if min(light, m - light) else 1.0)
            total[colour == "light"] += pc.count
        row = "top" if name.startswith("top") else "bottom"
        margins[(row, len(rows[row]))] = weakest
        rows[row].append(PointReading(pc.count, colour, max(0.0, min(1.0, conf))))
    return rows, total, margins, k


def assemble(found: Found, labels: np.ndarray, cmargin: np.ndarray, params: ReadParams = DEFAULT,
             odd: Optional[np.ndarray] = None) -> Assembled:
    """Stage 4: counts and colours per point and bar, with calibrated confidences.  ``odd``: per
    sample, whether its hue is one neither colour shows (:func:`vision.colours.hue_outliers`): a
    point holding one has its colour doubted in the odds (its margin for them at most
    ``params.colour_knee``), its reading and confidence as they are."""
    rows, total, margins, k = _point_rows(found, labels, cmargin, params)
    rows, total, settled = settle_tall(rows, found, total, params)
    rows = {r: [PointReading(p.count, p.colour, round(calibrate(p.confidence, params), 3)) for p in rows[r]]
            for r in ("top", "bottom")}
    blab = labels[k:k + len(found.bar)]
    bmargin = cmargin[k:k + len(found.bar)]
    bar_conf = found.bar_confidence
    bar_l = [0, 0]
    for lab_ in blab:
        bar_l[int(lab_)] += 1
    g = found.gap
    bar_marks = [(int(x), float(y)) for x, y in zip(blab, bmargin)]   # each bar checker's colour and margin
    if g is not None and total[int(blab[g])] + bar_l[int(blab[g])] > L.PER_SIDE:
        # a colour over 15 with a rim that may be the gap between two bar checkers: it is the gap
        bar_l[int(blab[g])] -= 1
        bmargin = np.delete(bmargin, g)
        bar_marks = bar_marks[:g] + bar_marks[g + 1:]
        bar_conf = min(found.bar_open, 2 * params.point_knee)
    coloured = {r: [p.colour for p in rows[r]] for r in ("top", "bottom")}
    flipped, rows, bar_marks = flip_one_colour(rows, margins, bar_marks, [total[0] + bar_l[0], total[1] + bar_l[1]],
                                               params)
    # each point's colour margin for the odds (vision.odds.colour_doubt); a colour the totals flipped
    # is not doubted by its checkers' margin (which spoke for the other colour): its confidence says it
    point_margins = tuple(float(margins[(r, i)]) if rows[r][i].count and rows[r][i].colour == coloured[r][i]
                          else 1.0 for r in ("top", "bottom") for i in range(12))
    foreign: tuple[str, ...] = ()
    odd_points: tuple[bool, ...] = ()
    if odd is not None and odd[:k].any():   # (a colour the totals flipped: its confidence says it, as above)
        per_point = _flags_per_point(found, odd)
        odd_points = tuple(bool(n) and m < 1.0 for m, n in zip(point_margins, per_point))
        point_margins = tuple(min(m, params.colour_knee) if o else m for m, o in zip(point_margins, odd_points))
        foreign = _stacked(per_point, params)
    if flipped == "bar":
        bar_l = [sum(1 for c, _ in bar_marks if c == k) for k in (0, 1)]
        bar_conf = min(bar_conf, params.point_knee / 2)
    elif flipped is not None:
        total = [sum(p.count for r in ("top", "bottom") for p in rows[r] if p.colour == c) for c in ("dark", "light")]
    rows = doubt_rare_stacks(doubt_unsure_board(rows, params), params)
    bar = (bar_l[0], bar_l[1])
    total = [total[0] + bar[0], total[1] + bar[1]]
    plausible = total[0] <= 15 and total[1] <= 15
    bar_raw = min([bar_conf] + [colour_raw(float(x), params) for x in bmargin])
    confs = [p.confidence for r in ("top", "bottom") for p in rows[r]]
    conf = board_confidence(confs, plausible, calibrate(bar_raw, params), params)
    alts = tuple((r, i, pc.alt) for r in ("top", "bottom") for i in range(12)
                 if f"{r}{i}" not in settled and (pc := found.per_axis[f"{r}{i}"]).alt is not None
                 and pc.alt != rows[r][i].count)
    totals = (total[0], total[1])
    return Assembled(L.RowReading(tuple(rows["top"]), tuple(rows["bottom"]), bar, round(conf, 3), found.on_bar),
                     sum(total),
                     plausible, totals, alts=alts, bar_confidence=calibrate(bar_raw, params),
                     reason=None if plausible else impossible(totals), margins=point_margins, foreign=foreign,
                     odd=odd_points)


def _flags_per_point(found: Found, flags: np.ndarray) -> list[int]:
    """Per point (top then bottom), how many of its samples are flagged (``flags`` in the
    samples' order: the points', then the bar's)."""
    out, k = [], 0
    for name in [f"{r}{i}" for r in ("top", "bottom") for i in range(12)]:
        m = len(found.per_axis[name].samples)
        out.append(int(flags[k:k + m].sum()))
        k += m
    return out


def foreign_points(found: Found, odd: np.ndarray, params: ReadParams = DEFAULT) -> tuple[str, ...]:
    """The points (``"top 10"``: row and place from the first corner, as ``bgtable read`` names
    them) holding ``params.foreign_stack`` or more samples whose hue neither colour of the set
    shows (``odd``: :func:`vision.colours.hue_outliers`).  A die lying on a point is one or two
    such samples; a stack of them is something else lying there, several checkers long: a dice
    cup, a sleeve (the labelled real board ``felt``: two black leather cups over three points of a
    red and cream set, read as three dark checkers).  On every other labelled real board no point
    holds more than one."""
    return _stacked(_flags_per_point(found, odd), params)


def _stacked(per_point: list[int], params: ReadParams) -> tuple[str, ...]:
    """:func:`foreign_points` from each point's count of odd samples (top then bottom)."""
    return tuple(n for n, c in zip(L.POINT_NAMES, per_point) if c >= params.foreign_stack)


def doubt_unsure_board(rows: Rows, params: ReadParams = DEFAULT) -> Rows:
    """On a board with more than ``doubted_points`` unsure points (one the reader does not read
    well: a pattern, a steep view, hands) a point is sure only when it is ``firm``: a sure point
    below that is at most ``doubted``.  Sure points below ``firm`` are wrong far more often than
    those above it (rendered real tables: 2 to 7 % against 0.1 to 0.3 %).  Returns new rows
    (``rows`` unchanged)."""
    certain, firm, cap = params.certain, params.firm, params.doubted
    if sum(p.confidence < certain for r in ("top", "bottom") for p in rows[r]) <= params.doubted_points:
        return rows
    return {r: [PointReading(p.count, p.colour, cap) if certain <= p.confidence < firm else p for p in rows[r]]
            for r in ("top", "bottom")}


def doubt_rare_stacks(rows: Rows, params: ReadParams = DEFAULT) -> Rows:
    """A point read with ``rare_stack`` checkers or more is at most ``doubted`` sure: real games
    leave that many on one point about once in 400 points (:data:`vision.totals.REAL_COUNTS`), and
    the reader's readings of that many were mostly wrong (its sure ones on rendered real tables:
    20 right in 116; on the real boards none of 10, a pattern or the grain read as a second layer).
    Returns new rows (``rows`` unchanged)."""
    cap = params.doubted
    if all(p.count < params.rare_stack or p.confidence <= cap for r in ("top", "bottom") for p in rows[r]):
        return rows
    return {r: [p if p.count < params.rare_stack or p.confidence <= cap else PointReading(p.count, p.colour, cap)
                for p in rows[r]] for r in ("top", "bottom")}


def flip_one_colour(rows: Rows, margins: dict[tuple[str, int], float], bar_marks: list[tuple[int, float]],
                    totals: list[int],
                    params: ReadParams = DEFAULT) -> tuple[Optional[str], Rows, list[tuple[int, float]]]:
    """Each colour has 15 checkers: when one colour's total is over 15 and giving one point
    (or one bar checker) the other colour would make both possible, and that point's colour
    was clearly the least sure of those that would (its margin at most ``flip_clear`` of
    the next), it takes the other colour, unsure (the totals vouch for it, its colour did
    not).  Returns what was flipped ("point", "bar" or None) and the new rows and bar marks
    (the arguments are left as they were)."""
    over = 0 if totals[0] > L.PER_SIDE else 1 if totals[1] > L.PER_SIDE else -1
    if over < 0 or totals[1 - over] > L.PER_SIDE:
        return None, rows, bar_marks
    excess, room = totals[over] - L.PER_SIDE, L.PER_SIDE - totals[1 - over]
    name = ("dark", "light")[over]
    cands: list[tuple[float, str, tuple[str, int]]] = [
        (margins[(r, i)], "point", (r, i)) for r in ("top", "bottom") for i, p in enumerate(rows[r])
        if p.colour == name and excess <= p.count <= room]
    if excess == 1:
        cands += [(m, "bar", ("bar", j)) for j, (c, m) in enumerate(bar_marks) if c == over]
    if not cands:
        return None, rows, bar_marks
    cands.sort()
    if len(cands) > 1 and cands[0][0] > params.flip_clear * cands[1][0]:
        return None, rows, bar_marks  # no clear culprit: the board stays impossible (no reading)
    _, kind, (r, i) = cands[0]
    if kind == "bar":
        marks = list(bar_marks)
        marks[i] = (1 - over, bar_marks[i][1])
        return kind, rows, marks
    p = rows[r][i]
    new = {k: list(v) for k, v in rows.items()}
    new[r][i] = PointReading(p.count, ("dark", "light")[1 - over], min(p.confidence, 0.3))
    return kind, new, bar_marks


def settle_with_off(a: Assembled, off: tuple[int, int], params: ReadParams = DEFAULT) -> Assembled:
    """Each colour has exactly 15 checkers: with the trays read surely (``off``), a colour
    whose board total misses ``15 - off`` by exactly what one of its tall stacks' next
    likeliest count would change, when the two are a row of 5 and a 12-pyramid (whose whole
    rims lie at the same places: the one confusion a miscounted tray is unlikely to mimic),
    takes that count, the least sure such stack first.  The point is then
    sure only just (``certain``): the trays vouch for it, its rims did not."""
    rows = {"top": list(a.rows.top), "bottom": list(a.rows.bottom)}
    totals = list(a.totals)
    alts = list(a.alts)
    for ci, colour in enumerate(("dark", "light")):
        need = L.PER_SIDE - off[ci] - totals[ci]
        if need == 0:
            continue
        cand = [(rows[r][i].confidence, r, i, n) for r, i, n in alts
                if rows[r][i].colour == colour and n - rows[r][i].count == need
                and {n, rows[r][i].count} == {L.PYRAMID[0], TWIN}]
        if not cand:
            continue
        _, r, i, n = min(cand)
        rows[r][i] = PointReading(n, colour, params.certain)
        totals[ci] += need
        alts = [x for x in alts if x[:2] != (r, i)]
    if totals == list(a.totals):
        return a
    plausible = totals[0] <= L.PER_SIDE and totals[1] <= L.PER_SIDE
    confs = [p.confidence for r in ("top", "bottom") for p in rows[r]]
    conf = board_confidence(confs, plausible, a.bar_confidence, params)
    t = (totals[0], totals[1])
    return replace(a, rows=L.RowReading(tuple(rows["top"]), tuple(rows["bottom"]), a.rows.bar, round(conf, 3),
                                        a.rows.on_bar),
                   checkers=sum(totals), plausible=plausible, totals=t, alts=tuple(alts),
                   reason=None if plausible else impossible(t))


def settle_tall(rows: Rows, found: Found, total: list[int],
                params: ReadParams = DEFAULT) -> tuple[Rows, list[int], frozenset[str]]:
    """A colour with more than 15 checkers where a tall stack was judged: that stack is what the rims
    counted along its point (a row), unsure, least sure first.  The tall count was the rim pattern's
    guess at checkers stacked over the row (a row of 5 and a 12-pyramid look much alike), and its next
    likeliest count is often another such guess (10 after 11).  On real boards it guessed 7 to 15 over
    22 of 66 rows of 4 to 6 (``bench/vision_tall_rows.py``: wood grain, a face's rings, the shading
    between checkers; no real labelled point holds more than 6), where real games leave 10 or more on
    a point once in 36,000 points: a tall count that makes 15 too many is that guess gone wrong, and
    the row is what was counted.  Without the row (a stack the pattern alone saw), the next likeliest count.
    Returns the new rows and totals and the points settled so (whose next count is used up)."""
    rows = {k: list(v) for k, v in rows.items()}
    total = list(total)
    settled: set[str] = set()
    for ci, colour in enumerate(("dark", "light")):
        while total[ci] > 15:
            cand = [(p.confidence, r, i, back) for r in ("top", "bottom") for i, p in enumerate(rows[r])
                    if p.colour == colour and f"{r}{i}" not in settled
                    and (back := _settled_count(found.per_axis[f"{r}{i}"])) is not None and back < p.count]
            if not cand:
                break
            _, r, i, back = min(cand)
            p = rows[r][i]
            total[ci] -= p.count - back
            conf = min(p.confidence, params.point_knee / 2)
            rows[r][i] = PointReading(back, colour, conf)
            settled.add(f"{r}{i}")
    return rows, total, frozenset(settled)


def _settled_count(pc: PointCount) -> Optional[int]:
    """The count a tall stack falls back to when its colour has too many: the rims' own row, else the
    pattern's next likeliest (None: no tall stack was judged there)."""
    if pc.row is not None and pc.row < pc.count:
        return pc.row
    return pc.alt
