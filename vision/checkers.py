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

from .bar import read_bar
from .bare import bare_points
from .looks import doubt_empty_rims, doubt_open_rims, drop_empty_bases, outlined_checkers
from .params import DEFAULT, ReadParams
from .rims import Profiles, axes
from .rows import longer_rows
from .stacks import Checker, PointCount, count_point, look_ahead
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


def count_points(prof: Profiles, params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """Every point's count at ``params`` (already the board's own), before the second looks; what
    each count looks up in its point's profiles found for all points at once
    (:func:`vision.stacks.look_ahead`)."""
    ahead = look_ahead(prof.cap, prof.full, prof.dist, params)
    return {a.name: count_point(a, prof.full[i], prof.cap[i], prof.lateral[i], prof.dist, params,
                                None if prof.colour is None else prof.colour[i],
                                0.0 if prof.fill is None else float(prof.fill[i]), ahead[i])
            for i, a in enumerate(axes(params))}


def pick_checkers(prof: Profiles, params: ReadParams = DEFAULT) -> Found:
    """Stage 2: counts per point and the checkers on the bar."""
    params = board_params(prof, params)
    per_axis = outlined_checkers(prof, drop_empty_bases(prof, count_points(prof, params), params), params)
    per_axis = longer_rows(prof, per_axis, params)
    per_axis = doubt_empty_rims(prof, doubt_open_rims(prof, bare_points(prof, per_axis, params), params), params)
    bar = read_bar(prof, params)
    return Found(per_axis, bar.checkers, bar.confidence, bar.gap, bar.open,
                 tuple(y for y, what in bar.others if what == "square"))
