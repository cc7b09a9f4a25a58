"""Stage 2 for a full first row, long rows: checkers lined up past the fifth (six in a row).

Tournament players line a point's checkers up from its base towards the board's middle
before starting a second layer: six (or seven) in a row where the board's own checkers
fit.  The rim profiles stop at the layout's point length, and on a board taller than the
layout :mod:`vision.rectify` squeezes the band between the rows' tips (where a sixth
checker lies) into the layout's gap.  So a row's next slots are looked at in the board's
own geometry: rings of the checkers' own diameter, touching the last one found, each
mapped into the view through the squeeze (an ellipse there) and scored like
:mod:`vision.rims` scores its rings (the radial gradient, the tangential half held
against it, the weakest quadrant).  A slot counts when its whole rim clears the board's
threshold and the checker stays on its own half of the board.
"""
from __future__ import annotations

import numpy as np

from . import layout as L
from .params import ReadParams
from .rims import Axis, Profiles, axes
from .stacks import TWIN, PointCount, count_point_low

N_RING = 32                                    # samples round a ring (a sampling density)
_TH = np.arange(N_RING) * (2 * np.pi / N_RING)
_QUAD = ((_TH + np.pi / 4) // (np.pi / 2)).astype(int) % 4   # right, down (+u), left, up
_SEARCH = np.arange(-4, 5) / 16                # pw, along the axis round a slot's place (the profiles' step)


def to_view_distance(u: np.ndarray, height: float) -> tuple[np.ndarray, np.ndarray]:
    """Distances from a row's base in the board's own pw to the layout's (the view's), and
    the squeeze there (layout pw per board pw): as :meth:`vision.layout.BoardShape.to_real`
    maps them, the point's length as it is, the band beyond the tip squeezed (or stretched)
    onto the layout's gap."""
    mid = max(height - 2 * L.POINT_LEN, 0.2)
    k = L.GAP / mid
    beyond = u > L.POINT_LEN
    return np.where(beyond, L.POINT_LEN + (u - L.POINT_LEN) * k, u), np.where(beyond, k, 1.0)


def from_view_distance(v: float, height: float) -> float:
    """The inverse of :func:`to_view_distance`: a distance from a row's base in the view's pw
    to the board's own."""
    if v <= L.POINT_LEN:
        return v
    return L.POINT_LEN + (v - L.POINT_LEN) * max(height - 2 * L.POINT_LEN, 0.2) / L.GAP


def ring_scores(prof: Profiles, a: Axis, lateral: np.ndarray, u: np.ndarray, cd: float,
                ring_radii: tuple[float, ...], height: float) -> np.ndarray:
    """Whole-rim scores (in the frame's strengths) of rings ``cd`` across centred ``u`` pw
    (the board's own) from axis ``a``'s base and ``lateral`` pw beside it; shaped (u, lateral)."""
    assert prof.grad is not None
    g = prof.grad
    h, w = g.shape
    radii = np.asarray(ring_radii, np.float64) * cd / L.CHECKER
    cu = u[:, None, None, None]                             # (u, lat, radius, angle)
    cx = a.x + lateral[None, :, None, None]
    r = radii[None, None, :, None]
    su = cu + r * np.sin(_TH)
    sx = cx + r * np.cos(_TH)
    v, k = to_view_distance(su, height)
    sy = a.y0 + a.direction * v
    col = np.clip(np.rint((sx + prof.margin) * prof.px).astype(np.intp), 0, w - 1)
    row = np.clip(np.rint((sy + prof.margin) * prof.px).astype(np.intp), 0, h - 1)
    z = g[row, col]
    gx, gy = z.real.astype(np.float64), z.imag.astype(np.float64)
    # the ring's normal and tangent in the view: the board's (cos, sin) through the squeeze
    nx, ny = np.cos(_TH) + 0 * k, a.direction * np.sin(_TH) / k
    tx, ty = -np.sin(_TH) + 0 * k, a.direction * np.cos(_TH) * k
    nn = np.hypot(nx, ny)
    tn = np.hypot(tx, ty)
    radial = np.abs(gx * nx + gy * ny) / nn
    tangential = np.abs(gx * tx + gy * ty) / tn
    best = (radial - 0.5 * tangential).max(axis=2)          # (u, lat, angle): the best radius
    quads = np.stack([best[..., _QUAD == q].mean(axis=-1) for q in range(4)], axis=-1)
    return np.asarray(quads.min(axis=-1) / prof.strength)


def longer_row(prof: Profiles, a: Axis, pc: PointCount, params: ReadParams) -> PointCount:
    """``pc`` (a full first row of 5) with the checkers lined up past its fifth added: each
    next slot touching the last checker found, whole-rimmed above the board's threshold
    (``params.threshold``), and its far edge short of the board's middle."""
    cd = params.checker
    height = params.board_height
    if not pc.samples:
        return pc
    # the last cap found: the fifth, or a sixth the rim count stopped at five
    last = from_view_distance(abs(pc.samples[0].y - a.y0), height)
    k = int(round((last - cd / 2) / cd))
    if k < L.PYRAMID[0] - 1:
        return pc   # the last cap is not a full row's end
    last -= (k - L.PYRAMID[0] + 1) * cd      # the fifth's centre, board pw
    lateral = np.asarray(params.lateral, np.float64) * cd / L.CHECKER
    n, conf = pc.count, pc.confidence
    while True:
        u = last + cd + _SEARCH * cd / L.CHECKER
        u = u[u + cd / 2 <= height / 2 + 0.05]     # a row stays on its own half of the board
        if not len(u):
            break
        s = ring_scores(prof, a, lateral, u, cd, params.ring_radii, height)
        j = int(np.unravel_index(int(np.argmax(s)), s.shape)[0])
        score = float(s.max())
        conf = min(conf, abs(score - params.threshold) / params.threshold * 2)
        if score <= params.threshold:
            break
        n += 1
        last = float(u[j])
    if n == pc.count:
        return pc if conf == pc.confidence else PointCount(n, pc.samples, conf, pc.alt, pc.faint)
    return PointCount(n, pc.samples, float(max(0.0, min(1.0, conf))), pc.count, pc.faint)


def longer_rows(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> dict[str, PointCount]:
    """Every point whose rims show a full first row of 5, with its row's checkers past the
    fifth (:func:`longer_row`).  A checker there rules out a pyramid (whose layers never
    reach past the fifth slot), so it also overrules a tall stack's rim pattern; the other
    points as they are."""
    if prof.grad is None:
        return per_axis
    out = dict(per_axis)
    for i, a in enumerate(axes(params)):
        pc = per_axis.get(a.name)
        if pc is None or pc.count < L.PYRAMID[0]:
            continue
        low = pc
        if pc.count > L.PYRAMID[0] or pc.alt not in (None, TWIN):   # the pattern pass's: the rims' own count
            low = count_point_low(a, prof.full[i], prof.cap[i], prof.lateral[i], prof.dist, params,
                                  None if prof.colour is None else prof.colour[i])
            if low.count < L.PYRAMID[0]:
                continue
        row = longer_row(prof, a, low, params)
        if row.count > low.count:
            out[a.name] = row if low is pc else PointCount(row.count, row.samples, row.confidence, pc.count, pc.faint)
        elif low is pc:
            out[a.name] = row     # no sixth; its confidence when one nearly showed
    return out
