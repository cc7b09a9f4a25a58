"""Is something over the rows?  A check for a patch of the rows that shows no board at all.

The frame band (:mod:`vision.occlusion`) sees an arm only where it differs from the frame it
crosses: a navy sleeve over a black frame does not (the labelled real frame ``frame4``: band
score 0.9, under the single frame's limit of 2.5), and a sleeve is not sampled as checkers.
But whatever the colours, the rows of a board are full of edges: every point width of a row
holds the two sides of a point's triangle, and whatever lies on a point - checkers, a die, a cup,
a logo - has rims and edges of its own.  An arm or a hand held over the board (out of focus, in
motion, a plain sleeve) hides all of it: a patch of the rows two point widths square with no
edge at all.  (The gap between the rows and the bar are left out: a plain field there is no
sign of anything; only windows lying in a row, ``row_depth`` pw from its edge at most, count.)

Measured on the labelled real frames (the views at 32 px/pw, judged at 16 px/pw: ``scale``):
``frame4``'s arm leaves a patch whose edge share is 0.000; the clean frames' emptiest patches are
0.206 (``board``, a drawn board of flat colours), 0.207 (``template``) and 0.260 (``moma``), every
other above 0.27; 150 rendered clean scenes (seeds 300000.., two thirds real tables) 0.197 and up,
median 0.36.  The limit, 0.03, lies over six times below the clean frames' least.  (At the view's
full resolution the clean frames' least was 0.122 and the check cost 0.79 ms a frame, 0.40 at
half.)  A textured sleeve (``frame3``'s pink one: 0.38), or an arm narrower than the window, is not
seen here (the frame band and the foreign stacks may still see it): this check only adds refusals
of plain, wide things.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .rectify import View


@dataclass(frozen=True)
class BlankParams:
    """Thresholds of the blank-patch check (see the module docstring)."""

    window: float = 2.0        # pw: the side of the square patch judged
    row_depth: float = 3.5     # pw from a row's edge the patch's centre may lie at most (so the gap between
                               # the rows, smooth on many boards, is never most of it)
    edge: float = 40.0         # an edge pixel: |Sobel x| + |Sobel y| (3x3) of some channel above this
                               # (a step of 10 grey levels) ...
    edge_share: float = 0.25   # ... or above this share of the rows' 90th percentile, if lower (a dim
                               # or soft image)
    limit: float = 0.03        # a patch with a smaller share of edge pixels shows no board
    scale: int = 2             # the rows judged at this fraction of the view's resolution (a quarter of
                               # the pixels at 2: the check's cost 0.79 -> 0.2 ms a frame)


def _area(view: View, params: BlankParams) -> tuple[np.ndarray, float]:
    """The playing area of ``view`` at ``1 / params.scale`` of its resolution, and its pixels a pw."""
    px = view.px
    x0, y0 = int(round(-view.x0 * px)), int(round(-view.y0 * px))
    area = view.image[max(0, y0):y0 + int(L.HEIGHT * px), max(0, x0):x0 + int(L.WIDTH * px)]
    if params.scale > 1 and min(area.shape[:2]) >= 2 * params.scale:
        area = cv2.resize(area, (area.shape[1] // params.scale, area.shape[0] // params.scale),
                          interpolation=cv2.INTER_AREA)
        return area, px / params.scale
    return area, float(px)


def edge_map(view: View, params: BlankParams = BlankParams()) -> tuple[np.ndarray, float]:
    """The playing area of ``view`` (``(H, W)`` as the layout's HEIGHT x WIDTH at ``view.px /
    params.scale``): 1.0 where an edge is (:class:`BlankParams`), else 0.0; and its pixels a pw."""
    area, px = _area(view, params)
    # |Sobel x| + |Sobel y| saturated at 255 (both thresholds lie below: the same edges)
    g = cv2.add(cv2.convertScaleAbs(cv2.Sobel(area, cv2.CV_16S, 1, 0, ksize=3)),
                cv2.convertScaleAbs(cv2.Sobel(area, cv2.CV_16S, 0, 1, ksize=3)))
    if g.ndim == 3:
        g = cv2.max(cv2.max(g[..., 0], g[..., 1]), g[..., 2])
    if g.size == 0:
        return np.zeros(g.shape[:2], np.float32), px
    hist = np.bincount(g[::2, ::2].ravel(), minlength=256).cumsum()
    p90 = float(np.searchsorted(hist, 0.9 * hist[-1]))
    thr = min(params.edge, params.edge_share * p90)
    return (g > thr).astype(np.float32), px


def emptiest_patch(view: View, params: BlankParams = BlankParams()) -> tuple[float, Optional[tuple[float, float]]]:
    """The smallest share of edge pixels (:func:`edge_map`) in a ``params.window`` pw square of
    the rows (its centre at most ``params.row_depth`` pw from a row's edge, the whole square in
    the playing area), and where its centre is (x, y pw in the layout); (1.0, None) when the
    view holds no such square."""
    e, px = edge_map(view, params)
    w = max(1, int(round(params.window * px)))
    h = w // 2
    H, W = e.shape
    depth = int(round(params.row_depth * px))
    if H < 2 * h + 1 or W < 2 * h + 1 or depth <= h:
        return 1.0, None
    share = cv2.boxFilter(e, -1, (w, w), normalize=True, borderType=cv2.BORDER_REFLECT)
    unseen = None if view.frame is None else view.frame.outside(px, 0.0, 0.0, (H, W))
    if unseen is not None:
        # where the view reaches past the picture its pixels repeat the picture's edge (as plain as
        # a sleeve): a square holding any of them is not judged
        touched = cv2.boxFilter(unseen.astype(np.float32), -1, (w, w), normalize=True, borderType=cv2.BORDER_REFLECT)
        share = np.where(touched > 0, np.float32(1.0), share)
    rows = np.zeros(H, bool)
    rows[h:min(depth, H - h)] = True
    rows[max(h, H - depth):H - h] = True
    inside = share[rows][:, h:W - h]
    if inside.size == 0:
        return 1.0, None
    k = int(np.argmin(inside))
    r, c = divmod(k, inside.shape[1])
    y = int(np.flatnonzero(rows)[r])
    return float(inside[r, c]), ((c + h) / px, y / px)


def blank_patch(view: View, params: BlankParams = BlankParams()) -> Optional[str]:
    """The point (``"bottom 9"``: row and place from the first corner, as ``bgtable read`` names
    them) under a patch of the rows that shows no board (:func:`emptiest_patch` below
    ``params.limit``), or None when every patch shows some.  A square the picture does not show
whole (a view reaching past a cut-off picture) is not judged."""
    share, at = emptiest_patch(view, params)
    if at is None or share >= params.limit:
        return None
    x, y = at
    i = min(range(12), key=lambda j: abs(L.column_x(j) - x))
    return L.POINT_NAMES[i if y < L.HEIGHT / 2 else 12 + i]
