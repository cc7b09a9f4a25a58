"""Stage 2 for the bar: the checkers on it, side by side along its middle.

The bar is one even strip without triangles, so its own profile is a clean reference.
Strong rims are checkers; fainter ones count when they continue a run one diameter on
(:func:`_faint_bar_runs`); a lone rim far above the bar's own even level is a checker
(:func:`_lone_bar_rims`); a faint rim between two checkers may be the gap between them
(:func:`_gap_between`: the count is then unsure, unless the totals decide).  A ring that
outlines something else (the doubling cube or a die, a fitting's plate or screws, the bar's
own texture: :mod:`vision.bar_shapes`) is no checker, nor evidence of one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

from . import layout as L
from .params import DEFAULT, ReadParams
from .bar_shapes import bar_texture, not_a_checker
from .board_rings import bar_stretch, ring_scores, to_layout_y
from .rims import Profiles
from .stacks import Checker, _peaks
from .order import _percentile, median_axis


EDGE_SEARCH = 0.1     # pw either side of the layout's bar edges where the board's edge is looked for
RIM_REACH = 0.94      # a checker's width a sixth of a diameter off its centre, in diameters
EDGE_CLEAR = 0.03     # pw (the board's) kept between the edges looked at and such a checker's rim
BAND_SQUEEZE = 0.15   # pw: a band between the tips this much taller (or shorter) than the layout's is not as it is
EDGE_KEPT = 0.5       # share of the edges' typical strength that shows past something narrower than the bar
SEAM_ALONG = 0.75     # share of the bar's length its seam shows along, at the board's rim threshold
SEAM_REACH = 0.06     # pw either side of the bar's middle where its seam (the fold, the hinge's gap) is looked for


@dataclass(frozen=True)
class BarReading:
    """The bar's checkers, the count's raw confidence, the one that may be a gap, and the rings
    found there that outline something else."""

    checkers: tuple[Checker, ...]
    confidence: float
    gap: Optional[int] = None   # index in ``checkers`` of the rim that may be the gap between two
    open: float = 1.0           # the confidence were that one surely a checker or surely not
    others: tuple[tuple[float, str], ...] = ()  # layout y and what each is ("square": the cube or a die, ...)


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
    narrow = narrower_than_the_bar(prof, [float(prof.bar_y[j]) for j in bp], params)
    narrow = [a or b for a, b in zip(narrow, seam_through(prof, [float(prof.bar_y[j]) for j in bp], params))]
    texture = bar_texture(prof)
    why = {j: not_a_checker(prof, bx, float(prof.bar_y[j]), float(prof.bar_full[j]), params, texture)
           for j in sorted(set(strong + faint))}
    others = [(float(prof.bar_y[j]), w) for j, w in why.items() if w is not None]
    if any(narrow) or others:  # a fitting the bar's edges run past, the cube...: no checker, nor evidence of one
        keep = {j for j, n in zip(bp, narrow) if not n and why.get(j) is None}
        bp, strong = [j for j in bp if j in keep], [j for j in strong if j in keep]
        faint = [j for j in faint if j in keep]
    low = max(params.floor, thr * params.weak)
    bar = [Checker("bar", bx, float(prof.bar_y[j]), float(prof.bar_full[j])) for j in sorted(strong + faint)]
    band = band_checkers(prof, params)
    if band is not None:  # the band between the tips squeezed: its checkers found in the board's geometry
        lo, hi = band_span(params)
        inside = {j for j in bp if lo < float(prof.bar_y[j]) < hi}
        kept = [c for c, j in zip(bar, sorted(strong + faint)) if j not in inside]
        real = lambda c: float(params.shape.to_real(np.array(c.x), np.array(c.y))[1])  # noqa: E731
        told = [(b, not_a_checker(prof, b.x, b.y, b.score, params, texture)) for b in band]
        others += [(b.y, w) for b, w in told if w is not None]
        band = [b for b, w in told if w is None]
        band = [b for b in band if all(abs(real(b) - real(c)) >= 0.7 * params.checker for c in kept)]  # side by side
        bar = sorted(kept + band, key=lambda c: c.y)
        bp = [j for j in bp if j not in inside]
        faint = [j for j in faint if j not in inside]
    m = [abs(prof.bar_full[j] - thr) / thr for j in bp if j not in faint] + [
        abs(prof.bar_full[j] - low) / low * 0.5 for j in faint]
    conf = min(m + [0.5]) * 2
    if lone:
        conf = min(conf, lone_conf)
    gap = _gap_between(bar, params.checker, params)
    return BarReading(tuple(bar), conf if gap is None else min(conf, params.point_knee / 2), gap, conf,
                      tuple(sorted(others)))


def bar_edges(prof: Profiles, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The bar's two long edges as the view shows them: per row of the view (layout y, pw,
    one a profile step), the weaker edge's gradient across (in the frame's strengths, each
    edge's best within ``reach`` pw of the layout's bar edge, where :mod:`vision.rectify`
    puts the board's own)."""
    assert prof.grad is not None
    g = prof.grad
    h, w = g.shape
    ys = np.arange(0.2, L.HEIGHT - 0.2, 1.0 / 16)
    rows = np.minimum(np.maximum(np.rint((ys + prof.margin) * prof.px).astype(np.intp), 0), h - 1)
    offs = np.arange(-reach, reach + 1e-9, 1.0 / prof.px)
    out = []
    for x in (L.BAR_LEFT, L.BAR_RIGHT):
        cols = np.minimum(np.maximum(np.rint((x + offs + prof.margin) * prof.px).astype(np.intp), 0), w - 1)
        out.append(np.abs(g[rows[:, None], cols[None, :]].real).max(axis=1))
    return ys, np.minimum(out[0], out[1]) / prof.strength


def narrower_than_the_bar(prof: Profiles, ys: list[float], params: ReadParams = DEFAULT) -> list[bool]:
    """For bar rims centred at layout ``ys``: whether both the bar's edges run on past them.

    A checker wider than the bar (the board's own bar, ``params.shape``) lies across its
    edges and hides at least one (both when it lies in the middle); a hinge, a clasp or a
    logo narrower than the bar leaves both showing.  Each edge is looked for close enough
    that a checker's own rim, beyond it, is not taken for it (checkers too little wider than
    the bar: not judged), and only where the bar's edges show along most of its length (at
    least the board's rim threshold, ``params.threshold``): a rim whose middle (a third of a
    checker along the bar) shows both at :data:`EDGE_KEPT` of their typical strength is no checker."""
    cd, shape = params.checker, params.shape
    sx = bar_stretch(shape)
    reach = min(EDGE_SEARCH, ((RIM_REACH * cd - shape.bar) / 2 - EDGE_CLEAR) * sx)
    if not ys or prof.grad is None or reach * prof.px < 1.5:
        return [False] * len(ys)
    ey, e = bar_edges(prof, reach)
    typical = float(median_axis(e, 0))
    if typical < params.threshold:
        return [False] * len(ys)
    # each rim's middle, a third of a checker along the bar, in the layout's y (every rim's at
    # once: the same arithmetic element by element)
    yb = shape.to_real(np.zeros(len(ys)), np.array(ys, np.float64))[1]
    out = []
    for lo, hi in zip(to_layout_y(yb - cd / 6, shape)[0].tolist(), to_layout_y(yb + cd / 6, shape)[0].tolist()):
        m = (ey >= lo) & (ey <= hi)
        out.append(bool(m.any()) and float(e[m].mean()) >= EDGE_KEPT * typical)
    return out


def seam_through(prof: Profiles, ys: list[float], params: ReadParams = DEFAULT) -> list[bool]:
    """For bar rims centred at layout ``ys``: whether the bar's seam runs on through their middle.

    A board that folds at the bar shows a straight seam along its middle (the fold, the
    hinge's gap between two straps); a checker lying on the bar hides it under its face,
    while tiles, straps or clasps on the bar leave it showing.  Judged only where the seam
    shows along :data:`SEAM_ALONG` of the bar at least as strong as the board's rim threshold
    (a bar's texture, a marbled or carved checker, has edges there by chance, not along it): a rim whose
    middle (a third of a checker along the bar) shows it at :data:`EDGE_KEPT` of its typical
    strength is no checker."""
    if not ys or prof.grad is None:
        return [False] * len(ys)
    g = prof.grad
    h, w = g.shape
    ey = np.arange(0.2, L.HEIGHT - 0.2, 1.0 / 16)
    rows = np.minimum(np.maximum(np.rint((ey + prof.margin) * prof.px).astype(np.intp), 0), h - 1)
    offs = np.arange(-SEAM_REACH, SEAM_REACH + 1e-9, 1.0 / prof.px)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    cols = np.minimum(np.maximum(np.rint((bx + offs + prof.margin) * prof.px).astype(np.intp), 0), w - 1)
    e = np.abs(g[rows[:, None], cols[None, :]].real).max(axis=1) / prof.strength
    if _percentile(e, 100 * (1 - SEAM_ALONG)) < params.threshold:   # no seam, or texture's chance edges
        return [False] * len(ys)
    typical = float(median_axis(e, 0))
    shape, cd = params.shape, params.checker
    yb = shape.to_real(np.zeros(len(ys)), np.array(ys, np.float64))[1]
    out = []
    for lo, hi in zip(to_layout_y(yb - cd / 6, shape)[0].tolist(), to_layout_y(yb + cd / 6, shape)[0].tolist()):
        m = (ey >= lo) & (ey <= hi)
        out.append(bool(m.any()) and float(e[m].mean()) >= EDGE_KEPT * typical)
    return out


def band_span(params: ReadParams) -> tuple[float, float]:
    """Layout y (pw) of the bar's stretch whose rings cross the band between the rows' tips."""
    r = 0.5 * params.checker
    return L.POINT_LEN - r, L.POINT_LEN + L.GAP + r


def band_checkers(prof: Profiles, params: ReadParams = DEFAULT) -> Optional[list[Checker]]:
    """The bar's checkers in the band between the rows' tips, where a board taller than the
    layout is squeezed in the view: rings round in the board's own geometry (an ellipse in
    the view, stretched across as a narrow bar is), searched along the band and across the
    bar (a checker wider than the bar lies off its middle); whole rims above the board's
    threshold, side by side.  None on a board whose band the view shows as it is."""
    shape, cd = params.shape, params.checker
    mid = shape.height - 2 * L.POINT_LEN
    if prof.grad is None or abs(mid - L.GAP) < BAND_SQUEEZE:
        return None
    sx = bar_stretch(shape)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    lo, hi = band_span(params)
    y0 = float(shape.to_real(np.array(bx), np.array(lo))[1])
    y1 = float(shape.to_real(np.array(bx), np.array(hi))[1])
    # coarse, then refined round each peak; half a checker past the stretch's ends, as every rim peak
    # the stretch takes over must be found again here (a checker centred at its end, its coarse rings
    # stopping just short of its centre, was lost: one of two touching checkers on a real bar)
    ys = np.arange(y0 - 0.5 * cd, y1 + 0.5 * cd + 1e-9, 2 * params.step)
    side = max(0.1, (cd - min(shape.bar, L.BAR_WIDTH)) / 2) * sx
    xs = bx + np.linspace(-side, side, 2 * int(round(side / 0.1)) + 1)
    sc = ring_scores(prof, xs[None, :], ys[:, None], cd, params.ring_radii, shape, sx)
    best = sc.max(axis=1)
    out: list[Checker] = []
    taken: list[float] = []     # board y of the checkers found (bar checkers lie side by side)
    looked: list[float] = []    # ... and of the coarse peaks looked at closely
    for j in np.argsort(-best).tolist():
        if best[j] <= params.threshold * 0.8:
            break
        if any(abs(ys[j] - b) < 0.7 * cd for b in taken) or any(abs(ys[j] - b) < 2 * params.step for b in looked):
            continue
        looked.append(float(ys[j]))
        fy = ys[j] + np.arange(-2, 3) * params.step / 2
        fx = xs[int(np.argmax(sc[j]))] + np.arange(-2, 3) * 0.025 * sx
        f = ring_scores(prof, fx[None, :], fy[:, None], cd, params.ring_radii, shape, sx)
        k = np.unravel_index(int(np.argmax(f)), f.shape)
        if float(f[k]) > params.threshold:
            taken.append(float(fy[k[0]]))
            out.append(Checker("bar", float(fx[k[1]]), float(to_layout_y(np.array(fy[k[0]]), shape)[0]), float(f[k])))
    return sorted(out, key=lambda c: c.y)


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

