"""Stage 2 for a full first row, long rows: checkers lined up past the fifth (six in a row).

Tournament players line a point's checkers up from its base towards the board's middle
before starting a second layer: six (or seven) in a row where the board's own checkers
fit.  The rim profiles stop at the layout's point length, and on a board taller than the
layout :mod:`vision.rectify` squeezes the band between the rows' tips (where a sixth
checker lies) into the layout's gap.  So a row's next slots are looked at in the board's
own geometry: rings of the checkers' own diameter, touching the last one found, each
mapped into the view through the squeeze (an ellipse there, :mod:`vision.board_rings`).
A slot counts when its whole rim clears the board's threshold and the checker stays on
its own half of the board.
"""
from __future__ import annotations

import numpy as np

from . import layout as L
from .board_rings import ring_scores, to_board_distance
from .params import ReadParams
from .rims import Axis, Profiles, axes
from .stacks import TWIN, PointCount, count_point_low

_SEARCH = np.arange(-4, 5) / 16                # pw, along the axis round a slot's place (the profiles' step)


def longer_row(prof: Profiles, a: Axis, pc: PointCount, params: ReadParams) -> PointCount:
    """``pc`` (a full first row of 5) with the checkers lined up past its fifth added: each
    next slot touching the last checker found, whole-rimmed above the board's threshold
    (``params.threshold``), and its far edge short of the board's middle."""
    cd = params.checker
    shape = params.shape
    if not pc.samples:
        return pc
    # the last cap found: the fifth, or a sixth the rim count stopped at five
    last = to_board_distance(abs(pc.samples[0].y - a.y0), shape)
    k = int(round((last - cd / 2) / cd))
    if k < L.PYRAMID[0] - 1:
        return pc   # the last cap is not a full row's end
    last -= (k - L.PYRAMID[0] + 1) * cd      # the fifth's centre, board pw
    lateral = np.asarray(params.lateral, np.float64) * cd / L.CHECKER
    n, conf = pc.count, pc.confidence
    while True:
        u = last + cd + _SEARCH * cd / L.CHECKER
        u = u[u + cd / 2 <= shape.height / 2 + 0.05]     # a row stays on its own half of the board
        if not len(u):
            break
        s = ring_scores(prof, a.x + lateral[None, :], u[:, None], cd, params.ring_radii, shape, direction=a.direction)
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
