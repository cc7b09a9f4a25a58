"""Stage 2, the checkers: counts per point and the checkers on the bar, from the rim profiles.

Rims on one board share their contrast, so the threshold is first raised to the board's own
(``params.relative`` of its typical best rim); then each point is counted
(:func:`vision.stacks.count_point`), judged again against the board (:mod:`vision.looks`,
:mod:`vision.rows`, and against the bare points of its colour, :mod:`vision.bare`), and the bar
read (:mod:`vision.bar`).  Returns a new :class:`Found`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from .bar import read_bar
from .bare import bare_points
from .looks import doubt_empty_rims, doubt_open_rims, drop_empty_bases, outlined_checkers
from .params import DEFAULT, ReadParams
from .rims import Axis, Profiles, axes, peaks_rows
from .rows import longer_rows
from .stacks import Checker, PointCount, _median, count_point, look_ahead, peak_steps
from .order import _percentile


@dataclass(frozen=True)
class Found:
    """Stage 2's result: per point (``"top0"``..``"bottom11"``) its count, and the bar's checkers."""

    per_axis: dict[str, PointCount]
    bar: tuple[Checker, ...]
    bar_confidence: float
    gap: Optional[int] = None        # the bar checker that may be the gap between two (:func:`vision.bar._gap_between`)
    bar_open: float = 1.0            # the bar's confidence were that one surely a checker or surely not
    on_bar: tuple[float, ...] = ()   # layout y of each square thing on the bar: the doubling cube or a die


def board_params(prof: Profiles, params: ReadParams = DEFAULT) -> ReadParams:
    """``params`` with the threshold raised to the board's own: much fainter rims than the
    board's typical best ones (``relative_q`` quantile, times ``relative``) are ignored."""
    tops = prof.full.max(axis=1)
    tops = tops[tops > params.threshold]
    if len(tops):  # rims on one board share their contrast: ignore the much fainter ones
        params = replace(params, threshold=max(params.threshold,
                                               params.relative * _percentile(tops, 100 * params.relative_q)))
    return params


START_MIN = 0.15     # pw: a row whose checkers start this far inside the edge seen is counted from where they start
START_POINTS = 3     # ... told by the base checkers of at least this many of its points ...
START_SPREAD = 0.12  # ... lying within this of one another (median absolute deviation, pw)


def row_starts(prof: Profiles, params: ReadParams = DEFAULT) -> dict[str, float]:
    """Per row, how far inside the edge seen its checkers start (pw; 0 when told too weakly).

    Checkers stand from a point's base, so each point's first whole rim lies half a checker from
    the edge.  In a photo from in front, the far frame's wall hides the field's edge and the far
    row's checkers lie further in (a third to half a point width on real photos); counted from the
    edge, a row of five then looks like one with four more on it.  The base checkers of a row's
    points tell where its checkers start; a point whose base shows its first checker's colour
    says "at the edge" (a checker's rim against a dark frame may not show)."""
    cd = params.checker
    nms = peak_steps(params)
    base = int(np.argmin(np.abs(prof.dist - cd / 2)))
    firsts: dict[str, list[float]] = {"top": [], "bottom": []}
    dist: list[float] = prof.dist.tolist()
    # every axis's peaks found at once (the same as :func:`vision.stacks._peaks` of each: ascending, and
    # every one above the threshold)
    for i, (a, pk) in enumerate(zip(axes(params), peaks_rows(prof.full, params.threshold, nms))):
        if not pk or dist[pk[0]] >= 1.25 * cd:
            continue
        full = prof.full[i]
        j = pk[0]
        o = dist[j] - cd / 2
        if 0 < j < len(full) - 1:   # between profile samples: the parabola through the top three
            lo, mid, hi = float(full[j - 1]), float(full[j]), float(full[j + 1])
            den = lo - 2 * mid + hi
            o += 0.5 * (lo - hi) / den * float(prof.dist[1] - prof.dist[0]) if den < 0 else 0.0
        if o >= START_MIN and prof.colour is not None:
            # the base shows the first checker's colour: it stands there, its rim missed (against the frame)
            c0, c1 = prof.colour[i][base].astype(np.float32), prof.colour[i][j].astype(np.float32)
            if float(np.linalg.norm(c0 - c1)) <= params.stranger_colour * max(40.0, float(np.linalg.norm(c0)),
                                                                             float(np.linalg.norm(c1))):
                o = 0.0
        firsts["top" if a.name.startswith("top") else "bottom"].append(o)
    out = {}
    for row, offs in firsts.items():
        o = 0.0
        if len(offs) >= START_POINTS:
            med = _median(offs)   # (np.median's values, without its overhead on a dozen floats)
            spread = _median([abs(x - med) for x in offs])
            if med >= START_MIN and spread <= START_SPREAD:
                o = med
        out[row] = o
    return out


def count_points(prof: Profiles, params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """Every point's count at ``params`` (already the board's own), before the second looks; what
    each count looks up in its point's profiles found for all points at once
    (:func:`vision.stacks.look_ahead`).  A row whose checkers start inside the edge
    (:func:`row_starts`) is counted from where they start."""
    starts = row_starts(prof, params)
    ahead = {0.0: look_ahead(prof.cap, prof.full, prof.dist, params)}
    for o in set(starts.values()) - {0.0}:
        ahead[o] = look_ahead(prof.cap, prof.full, prof.dist - o, params)
    out = {}
    for i, a in enumerate(axes(params)):
        o = starts["top" if a.name.startswith("top") else "bottom"]
        at = a if not o else Axis(a.name, a.x, a.y0 + a.direction * o, a.direction)
        out[a.name] = count_point(at, prof.full[i], prof.cap[i], prof.lateral[i], prof.dist - o if o else prof.dist,
                                  params, None if prof.colour is None else prof.colour[i],
                                  0.0 if prof.fill is None else float(prof.fill[i]), ahead[o][i])
    return out


def pick_checkers(prof: Profiles, params: ReadParams = DEFAULT) -> Found:
    """Stage 2: counts per point and the checkers on the bar."""
    params = board_params(prof, params)
    per_axis = outlined_checkers(prof, drop_empty_bases(prof, count_points(prof, params), params), params)
    per_axis = longer_rows(prof, per_axis, params)
    per_axis = doubt_empty_rims(prof, doubt_open_rims(prof, bare_points(prof, per_axis, params), params), params)
    bar = read_bar(prof, params)
    return Found(per_axis, bar.checkers, bar.confidence, bar.gap, bar.open,
                 tuple(y for y, what in bar.others if what == "square"))
