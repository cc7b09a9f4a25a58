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
from .looks import doubt_empty_rims, drop_empty_bases, outlined_checkers
from .params import DEFAULT, ReadParams, low_params
from .rims import Profiles, axes, peaks_rows
from .rows import longer_rows
from .stacks import Ahead, Checker, PointCount, count_point, peak_steps
from .order import _percentile


@dataclass(frozen=True)
class Found:
    """Stage 2's result: per point (``"top0"``..``"bottom11"``) its count, and the bar's checkers."""

    per_axis: dict[str, PointCount]
    bar: tuple[Checker, ...]
    bar_confidence: float
    gap: Optional[int] = None        # the bar checker that may be the gap between two (:func:`vision.bar._gap_between`)
    bar_open: float = 1.0            # the bar's confidence were that one surely a checker or surely not


def board_params(prof: Profiles, params: ReadParams = DEFAULT) -> ReadParams:
    """``params`` with the threshold raised to the board's own: much fainter rims than the
    board's typical best ones (``relative_q`` quantile, times ``relative``) are ignored."""
    tops = prof.full.max(axis=1)
    tops = tops[tops > params.threshold]
    if len(tops):  # rims on one board share their contrast: ignore the much fainter ones
        params = replace(params, threshold=max(params.threshold,
                                               params.relative * _percentile(tops, 100 * params.relative_q)))
    return params


def count_points(prof: Profiles, params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """Every point's count at ``params`` (already the board's own), before the second looks.

    What each count looks up in its point's profiles is found for all points at once
    (:class:`vision.stacks.Ahead`): the rim peaks at the board's threshold and the faint pass's
    (:func:`vision.rims.peaks_rows`: the indices :func:`vision.stacks._peaks` gives row by row;
    the faint pass's only for the points it looks at), which points show faint rims, which a
    rim where a full row ends."""
    low = low_params(params)
    faint: list[bool] = np.any((prof.cap > low.threshold) & (prof.cap <= params.threshold), axis=1).tolist()
    far = np.abs(prof.dist - 4.5 * params.checker) < 0.3
    far_rim: list[bool] = (prof.cap[:, far].max(axis=1) > params.threshold).tolist() if far.any() \
        else [False] * len(prof.cap)
    n = len(prof.cap)
    peaks: list[dict[float, tuple[list[int], list[int]]]] = [{} for _ in range(n)]
    # the faint pass's peaks only where it will look (points with faint rims)
    for p, at in ((low, [i for i in range(n) if faint[i]]), (params, list(range(n)))):
        if at:
            caps = peaks_rows(prof.cap[at], p.threshold * 0.5, peak_steps(p), lead=True)
            fulls = peaks_rows(prof.full[at], p.threshold * 0.5, peak_steps(p), lead=True)
            for i, c, f in zip(at, caps, fulls):
                peaks[i][p.threshold] = (c, f)
    return {a.name: count_point(a, prof.full[i], prof.cap[i], prof.lateral[i], prof.dist, params,
                                None if prof.colour is None else prof.colour[i],
                                0.0 if prof.fill is None else float(prof.fill[i]),
                                Ahead(peaks[i], faint[i], far_rim[i]))
            for i, a in enumerate(axes(params))}


def pick_checkers(prof: Profiles, params: ReadParams = DEFAULT) -> Found:
    """Stage 2: counts per point and the checkers on the bar."""
    params = board_params(prof, params)
    per_axis = outlined_checkers(prof, drop_empty_bases(prof, count_points(prof, params), params), params)
    per_axis = longer_rows(prof, per_axis, params)
    per_axis = doubt_empty_rims(prof, bare_points(prof, per_axis, params), params)
    bar = read_bar(prof, params)
    return Found(per_axis, bar.checkers, bar.confidence, bar.gap, bar.open)
