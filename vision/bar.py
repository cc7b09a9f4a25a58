"""Stage 2 for the bar: the checkers on it, side by side along its middle.

The bar is one even strip without triangles, so its own profile is a clean reference.
Strong rims are checkers; fainter ones count when they continue a run one diameter on
(:func:`_faint_bar_runs`); a lone rim far above the bar's own even level is a checker
(:func:`_lone_bar_rims`); a faint rim between two checkers may be the gap between them
(:func:`_gap_between`: the count is then unsure, unless the totals decide).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


from . import layout as L
from .params import DEFAULT, ReadParams
from .rims import Profiles
from .stacks import Checker, _peaks
from .order import median_axis


@dataclass(frozen=True)
class BarReading:
    """The bar's checkers, the count's raw confidence, and the one that may be a gap."""

    checkers: tuple[Checker, ...]
    confidence: float
    gap: Optional[int] = None   # index in ``checkers`` of the rim that may be the gap between two
    open: float = 1.0           # the confidence were that one surely a checker or surely not


def read_bar(prof: Profiles, params: ReadParams = DEFAULT) -> BarReading:
    """The bar's checkers from its rim profile (``params.threshold``: the board's own)."""
    thr = params.threshold
    nms = max(1, int(round(0.7 * params.checker / params.step)))  # bar checkers lie side by side, one layer
    bp = _peaks(prof.bar_full, thr * 0.5, nms)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    strong = [j for j in bp if prof.bar_full[j] > thr]
    faint = _faint_bar_runs(prof, bp, strong, thr, params)
    lone, lone_conf = _lone_bar_rims(prof, bp, strong + faint, params)
    faint = sorted(faint + lone)
    low = max(params.floor, thr * params.weak)
    bar = [Checker("bar", bx, float(prof.bar_y[j]), float(prof.bar_full[j])) for j in sorted(strong + faint)]
    m = [abs(prof.bar_full[j] - thr) / thr for j in bp if j not in faint] + [
        abs(prof.bar_full[j] - low) / low * 0.5 for j in faint]
    conf = min(m + [0.5]) * 2
    if lone:
        conf = min(conf, lone_conf)
    gap = _gap_between(bar, params.checker, params)
    return BarReading(tuple(bar), conf if gap is None else min(conf, params.point_knee / 2), gap, conf)


def _gap_between(bar: list[Checker], cd: float = L.CHECKER, params: ReadParams = DEFAULT) -> Optional[int]:
    """A bar checker one diameter (``cd``) from a checker on each side and much fainter than both
    (its index, or None; ``params.bar_gap_ratio``): the gap between two checkers a little more than a diameter apart
    makes a ring of about a checker's size too (their facing rims and the bar's edges).
    Then the bar count is unsure (the rim scores cannot tell them apart: measured rendered
    cases overlap), unless the totals decide (:func:`vision.assemble.assemble`)."""
    for k, (a, b, c) in enumerate(zip(bar, bar[1:], bar[2:])):
        if abs(b.y - a.y - cd) < 0.2 * cd and abs(c.y - b.y - cd) < 0.2 * cd and \
                b.score < params.bar_gap_ratio * min(a.score, c.score):
            return k + 1
    return None


def _lone_bar_rims(prof: Profiles, peaks: list[int], taken: list[int], params: ReadParams) -> tuple[list[int], float]:
    """The bar is one even strip without triangles, so its own profile is a clean reference:
    a rim far from every checker found there that stands ``params.bar_lone`` times above the
    bar's median score (and above the floor) is a checker too (dark on a dark bar), with
    a confidence from how far above; returns the rims and that raw confidence."""
    med = max(1e-3, float(median_axis(prof.bar_full, 0)))
    cd = params.checker
    lone = [j for j in peaks if j not in taken and float(prof.bar_full[j]) > max(params.floor, params.bar_lone * med)
            and all(abs(float(prof.bar_y[j] - prof.bar_y[k])) > 1.5 * cd for k in taken)]
    conf = min([float(prof.bar_full[j]) / (params.bar_lone * med) - 1.0 for j in lone] + [1.0])
    return lone, conf


def _faint_bar_runs(prof: Profiles, peaks: list[int], strong: list[int], thr: float, params: ReadParams) -> list[int]:
    """Fainter bar rims that belong to a run: bar checkers lie side by side, one diameter
    apart, so a fainter rim (as strong as half the bar's strongest) one diameter on from a
    checker, or two such rims one diameter apart, are checkers too (dark on a dark bar)."""
    low = max(params.floor, thr * params.weak)
    top = max([float(prof.bar_full[j]) for j in strong] + [thr])
    cand = [j for j in peaks if low < float(prof.bar_full[j]) <= thr and float(prof.bar_full[j]) >= params.even * top]
    if not cand:
        return []

    def next_to(a: int, b: int) -> bool:
        return abs(abs(float(prof.bar_y[a] - prof.bar_y[b])) - params.checker) <= 0.2 * params.checker

    # grow from the sure checkers, then let faint ones vouch for each other in pairs
    accepted: set[int] = set()
    grew = True
    while grew:
        grew = False
        for j in cand:
            if j not in accepted and (any(next_to(j, k) for k in strong) or any(next_to(j, k) for k in accepted)
                                      or any(next_to(j, k) for k in cand if k != j)):
                accepted.add(j)
                grew = True
    return sorted(accepted)
