"""Rim scores of rings round in the board's own geometry, on the layout's view.

:mod:`vision.rectify` shows a board of another shape than the layout's in the layout's
coordinates: a narrower bar stretched across the layout's, the band between the rows'
tips squeezed (or stretched) onto the layout's gap (:meth:`vision.layout.BoardShape.to_real`).
A checker there is round on the board and an ellipse in the view.  :func:`ring_scores`
scores such rings as :mod:`vision.rims` scores its circles (per angle the best radius of
|radial gradient| minus half the tangential one, each quadrant's mean, the weakest
quadrant), the ring's normal and tangent carried through the mapping, on the view's
gradient map (:attr:`vision.rims.Profiles.grad`).
"""
from __future__ import annotations

import numpy as np

from . import layout as L
from .rims import Profiles

N_RING = 32                                    # samples round a ring (a sampling density)
# angle 0 points right, N_RING/4 down; rolled so that each quadrant (right, down, left, up) is a contiguous run
_TH = np.roll(np.arange(N_RING) * (2 * np.pi / N_RING), N_RING // 8)
_COS, _SIN = np.cos(_TH).astype(np.float32), np.sin(_TH).astype(np.float32)

def _mid(shape: L.BoardShape) -> float:
    return max(shape.height - 2 * L.POINT_LEN, 0.2)


def to_layout_y(y: np.ndarray, shape: L.BoardShape) -> tuple[np.ndarray, np.ndarray]:
    """The board's own y (pw from the top edge) in the layout's, and the squeeze there
    (layout pw per board pw): the rows' points as they are, the band between the tips
    onto the layout's gap (the inverse of :meth:`~vision.layout.BoardShape.to_real`)."""
    k = L.GAP / _mid(shape)
    lo, hi = L.POINT_LEN, shape.height - L.POINT_LEN
    out = np.where(y <= lo, y, np.where(y >= hi, y - shape.height + L.HEIGHT, lo + (y - lo) * k))
    return out, np.where((y > lo) & (y < hi), k, 1.0)


def to_layout_distance(u: np.ndarray, shape: L.BoardShape) -> tuple[np.ndarray, np.ndarray]:
    """A distance from a row's base in the board's own pw in the layout's, and the squeeze."""
    return to_layout_y(np.asarray(u, np.float64), shape)


def to_board_distance(v: float, shape: L.BoardShape) -> float:
    """The inverse of :func:`to_layout_distance` (a row's base outwards, up to the board's middle)."""
    if v <= L.POINT_LEN:
        return v
    return L.POINT_LEN + (v - L.POINT_LEN) * _mid(shape) / L.GAP


def bar_stretch(shape: L.BoardShape) -> float:
    """Layout pw per board pw across the bar: a narrower bar is stretched over the layout's."""
    return 1.0 / min(1.0, shape.bar / L.BAR_WIDTH)


def _unit_normal(sx: float, k: float, direction: int) -> np.ndarray:
    """Per ring angle, the conjugate of a round ring's unit normal in the view (complex, x + i y)."""
    n = (_COS / np.float32(sx) + 1j * direction * _SIN / np.float32(k)).astype(np.complex64)
    return np.asarray(np.conj(n / np.abs(n)))


def ring_scores(prof: Profiles, x: np.ndarray, y: np.ndarray, cd: float, ring_radii: tuple[float, ...],
                shape: L.BoardShape, sx: float = 1.0, direction: int = 1) -> np.ndarray:
    """Whole-rim scores (in the frame's strengths) of rings ``cd`` across, round on the board,
    centred at layout x ``x`` and board-own distance ``y`` from the top edge (``direction``
    +1) or from the bottom edge (-1); ``sx``: layout pw per board pw across (the bar's
    stretch).  ``x`` and ``y`` broadcast together; the result has their shape."""
    assert prof.grad is not None
    g = prof.grad
    h, w = g.shape
    x, y = np.broadcast_arrays(np.asarray(x, np.float32), np.asarray(y, np.float32))
    radii = (np.asarray(ring_radii, np.float32) * np.float32(cd / L.CHECKER)).reshape((1,) * x.ndim + (-1, 1))
    px_ = x[..., None, None] + radii * (_COS * np.float32(sx))
    u = y[..., None, None] + radii * _SIN
    yb = u if direction > 0 else np.float32(shape.height) - u
    lo, hi = L.POINT_LEN, shape.height - L.POINT_LEN
    band = (yb > lo) & (yb < hi)
    kk = np.float32(L.GAP / _mid(shape))
    yl = np.where(band, lo + (yb - lo) * kk, np.where(yb >= hi, yb - np.float32(shape.height - L.HEIGHT), yb))
    col = np.minimum(np.maximum(np.rint((px_ + prof.margin) * prof.px).astype(np.intp), 0), w - 1)
    row = np.minimum(np.maximum(np.rint((yl + prof.margin) * prof.px).astype(np.intp), 0), h - 1)
    z = g.ravel()[row * w + col]
    # the board's normal (cos, sin) through the mapping (x by sx, y by the squeeze, flipped going
    # up), as a unit complex number; the tangent stays perpendicular to it, so z times its
    # conjugate is radial + i tangential
    z *= np.where(band, _unit_normal(sx, float(kk), direction), _unit_normal(sx, 1.0, direction))
    best = (np.abs(z.real) - 0.5 * np.abs(z.imag)).max(axis=-2)     # (..., angle): the best radius
    quads = best.reshape(best.shape[:-1] + (4, N_RING // 4)).mean(axis=-1)
    return np.asarray(quads.min(axis=-1) / prof.strength)
