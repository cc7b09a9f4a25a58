"""Stage 1, rims: for every point (and the bar) a score along its axis for "a checker's rim
is centred here", the mean radial gradient on a ring of a checker's radius.

Rims are found whatever the board and checker colours; a checker half hidden under a
second-layer one still shows its sides.  :func:`ring_profiles` takes a rectified
:class:`~vision.rectify.View` and returns a new :class:`Profiles` (nothing is changed in place;
the ring sample indices are kept per view geometry, a cache of pure values).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .params import DEFAULT, ReadParams
from .order import _percentile, median_axis
from .rectify import View

N_RING = 32   # samples around a ring (a sampling density, not a threshold)


@dataclass(frozen=True)
class Axis:
    """One line of candidate checker centres: a point's axis or the bar's."""

    name: str           # "top3", "bottom11", "bar"
    x: float            # pw
    y0: float           # pw, first candidate
    direction: int      # +1 down, -1 up


def axes(params: ReadParams) -> list[Axis]:
    """The 24 points' axes, top0, bottom0, top1... (the same whatever ``params``: a view is in
    the layout's coordinates)."""
    return list(_axes())


@functools.lru_cache(maxsize=1)
def _axes() -> tuple[Axis, ...]:
    out = []
    for i in range(12):
        x = L.column_x(i)
        out.append(Axis(f"top{i}", x, 0.0, +1))
        out.append(Axis(f"bottom{i}", x, L.HEIGHT, -1))
    return tuple(out)


@dataclass
class Profiles:
    """Rim scores along each axis, in units of the frame's rim strength.

    ``full[a, j]``: a whole rim (all four quadrants) centred on axis ``a`` at distance
    ``dist[j]`` (pw) from its base; ``cap[a, j]``: the far and side quadrants only (the
    last checker of a row, whose base side may lie under a second-layer checker).
    ``lateral[a, j]``: the sideways offset (pw) where ``full`` was best.
    """

    full: np.ndarray
    cap: np.ndarray
    lateral: np.ndarray
    dist: np.ndarray
    bar_full: np.ndarray
    bar_y: np.ndarray
    strength: float
    colour: Optional[np.ndarray] = None   # BGR (blurred) at each axis's candidate centres
    fill: Optional[np.ndarray] = None     # per axis: how checker-like the gaps beside halves 4 and 6 are
    grad: Optional[np.ndarray] = None     # the complex gradient map (:func:`_gradients`), for second looks
    px: int = 0                           # the view's pixels per point width ...
    margin: float = 0.0                   # ... and margin (pw), to place second looks
    image: Optional[np.ndarray] = None    # the rectified BGR image, for second looks


# grey level to CIE lightness (0..255): more contrast in the dark, as the eye (and Lab) has it
_LIGHTNESS = np.clip(np.array([(116 * ((v / 255) ** (1 / 3) if v / 255 > 0.008856 else 7.787 * v / 255 + 16 / 116)
                                - 16) * 2.55
                               for v in range(256)]), 0, 255).astype(np.uint8)


def _gradients(view: View) -> np.ndarray:
    """Image gradients of lightness, or of red-minus-green where that is stronger (red on black),
    as one complex map ``gx + i gy`` (one gather per ring sample later)."""
    img = view.image
    grey = cv2.LUT(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), _LIGHTNESS)
    _, green, red = cv2.split(img)   # (contiguous planes: subtracting the strided channels copies them)
    rg = cv2.subtract(red, green, dtype=cv2.CV_16S)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    ax = cv2.Sobel(rg, cv2.CV_32F, 1, 0, ksize=3, scale=0.5)
    ay = cv2.Sobel(rg, cv2.CV_32F, 0, 1, ksize=3, scale=0.5)
    a, b = np.abs(ax), np.abs(gx)   # |ax| + |ay| > |gx| + |gy|, summed in place
    a += np.abs(ay)
    b += np.abs(gy)
    mask = np.greater(a, b).view(np.uint8)
    gx = cv2.copyTo(ax, mask, gx)  # in place, much faster than np.where / np.copyto(where=)
    gy = cv2.copyTo(ay, mask, gy)
    return cv2.merge([gx, gy]).view(np.complex64)[..., 0]


_RING_INDEX: dict = {}
_RING_TH = np.roll(np.linspace(0, 2 * np.pi, N_RING, endpoint=False).astype(np.float32), N_RING // 8)
_RING_C, _RING_S = np.cos(_RING_TH), np.sin(_RING_TH)
_RING_ROT = np.exp(-1j * _RING_TH).astype(np.complex64)  # g * rot: radial + i tangential


def _ring_index(h: int, w: int, cx: np.ndarray, cy: np.ndarray, radii_px: np.ndarray,
                key: Optional[tuple]) -> list[np.ndarray]:
    """Flat pixel indices of every ring sample, per radius; kept per ``key`` (the same view
    geometry gives the same indices every frame)."""
    full_key = None if key is None else (h, w, key)
    if full_key is not None and full_key in _RING_INDEX:
        return _RING_INDEX[full_key]
    cxe, cye = cx[..., None], cy[..., None]
    out = []
    for r in radii_px:
        idx = np.rint(cye + r * _RING_S).astype(np.int32) * w + np.rint(cxe + r * _RING_C).astype(np.int32)
        np.clip(idx, 0, h * w - 1, out=idx)
        out.append(idx)
    if full_key is not None:
        if len(_RING_INDEX) > 8:
            _RING_INDEX.clear()
        _RING_INDEX[full_key] = out
    return out


def _ring_quadrants(g: np.ndarray, cx: np.ndarray, cy: np.ndarray, radii_px: np.ndarray,
                    key: Optional[tuple] = None) -> list[np.ndarray]:
    """Quadrant rim scores for centres (cx, cy): four arrays shaped like ``cx``, the
    quadrants centred on right (+x), down (+y), left and up.

    ``g`` is the complex gradient map of :func:`_gradients`.  Per ring angle the best over
    the radii of |radial gradient| minus half the tangential one (noise scores about zero,
    a rim high), averaged over each quadrant's angles.  Centres must lie at least the
    largest radius inside the image.
    """
    # angle 0 points right (+x), N_RING/4 down (+y); rolled so that each quadrant is a
    # contiguous run of samples
    h, w = g.shape
    flat = g.ravel()
    index = _ring_index(h, w, cx, cy, radii_px, key)
    z = np.empty(index[0].shape, np.complex64)
    best = np.empty(z.shape, np.float32)
    v = np.empty(z.shape, np.float32)
    tan = np.empty(z.shape, np.float32)
    for k, idx in enumerate(index):  # (every buffer reused: no fresh pages per radius)
        np.take(flat, idx, out=z, mode="wrap")  # (indices clipped already; "raise" with out= buffers: 3x slower)
        z *= _RING_ROT
        np.abs(z.real, out=v if k else best)
        np.abs(z.imag, out=tan)
        tan *= 0.5
        if k:
            v -= tan
            np.maximum(best, v, out=best)
        else:
            best -= tan
    # each quadrant's mean summed in angle order (as a BLAS product with 1/8 weights summed
    # it: the same bits, without waking BLAS threads)
    k = N_RING // 4
    best *= np.float32(4.0 / N_RING)   # every sample weighted once (in place), then summed in angle order
    b = best.reshape(-1, 4, k)
    acc = b[:, :, 0].copy()
    for j in range(1, k):
        acc += b[:, :, j]
    return [acc[:, i].reshape(best.shape[:-1]) for i in range(4)]


def ring_profiles(view: View, params: ReadParams = DEFAULT) -> Profiles:
    """Stage 1: rim scores along every point's axis and along the bar."""
    g = _gradients(view)
    px = view.px
    sub = g[::2, ::2]
    mag = np.abs(sub.real) + np.abs(sub.imag)
    strength = _percentile(mag, 97) * 0.8 + 8.0
    dist = np.arange(params.axis_start, params.axis_end, params.step, dtype=np.float32)
    ax = axes(params)
    lat = np.array(params.lateral, np.float32)
    dirs = np.array([a.direction for a in ax], np.float32)[:, None, None]
    X = np.array([a.x for a in ax], np.float32)[:, None, None] + lat[None, None, :]
    Y = np.array([a.y0 for a in ax], np.float32)[:, None, None] + dirs * dist[None, :, None]
    X = np.broadcast_to(X, (len(ax), len(dist), len(lat)))
    Y = np.broadcast_to(Y, X.shape)
    radii = np.array(params.ring_radii, np.float32) * (params.checker / L.CHECKER) * px
    right, down, left, up = (q / strength for q in _ring_quadrants(g, (X + view.margin) * px, (Y + view.margin) * px,
                                                                   radii, ("axes", px, view.margin, params)))
    # "far" faces away from the axis's base: down on the top row, up on the bottom one; a
    # whole rim scores its weakest quadrant, a cap its weakest but the base's
    far = np.where(np.broadcast_to(dirs, down.shape) > 0, down, up)
    cap_l = np.minimum(np.minimum(far, left), right)
    full_l = np.minimum(np.minimum(down, up), np.minimum(left, right))
    li = full_l.argmax(axis=2)
    bar_y = np.arange(0.3, L.HEIGHT - 0.3, params.step, dtype=np.float32)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    BX = np.broadcast_to(bx + lat[None, :], (len(bar_y), len(lat)))
    BY = np.broadcast_to(bar_y[:, None], BX.shape)
    bq = [q / strength for q in _ring_quadrants(g, (BX + view.margin) * px, (BY + view.margin) * px, radii,
                                                ("bar", px, view.margin, params))]
    bar_full = np.minimum(np.minimum(bq[0], bq[1]), np.minimum(bq[2], bq[3]))
    blur = cv2.blur(view.image, (5, 5))
    cxs = np.rint((np.array([a.x for a in ax], np.float32)[:, None] + view.margin) * px).astype(np.int32)
    cys = np.rint((Y[:, :, 0] + view.margin) * px).astype(np.int32)
    colour = blur[np.clip(cys, 0, blur.shape[0] - 1), np.clip(np.broadcast_to(cxs, cys.shape), 0, blur.shape[1] - 1)]
    return Profiles(full_l.max(axis=2), cap_l.max(axis=2), lat[li], dist, bar_full.max(axis=1), bar_y, strength, colour,
                    _gap_fill(view, ax, blur, params), g, px, view.margin, view.image)


def _gap_fill(view: View, ax: list[Axis], blur: np.ndarray, params: ReadParams = DEFAULT) -> np.ndarray:
    """Per axis, in -1..1: whether the gaps beside halves 4 and 6 look like the stack's checkers
    (+1: a layer below shows there) or like the board beyond the point (-1); 0 when the two
    look alike.  Tells a row of 5 from a 12-pyramid, whose whole rims lie at the same places
    (``params.gap_halves``, ``gap_lateral``; ``checker``: the diameter, pw)."""
    cd = params.checker
    halves = params.gap_halves
    xs, ys = [], []
    for a in ax:
        for h in halves:
            for side in (-1, 1):
                xs.append(a.x + side * params.gap_lateral * cd / L.CHECKER)
                ys.append(a.y0 + a.direction * h * cd / 2)
        for h in (3, 5, 7):
            xs.append(a.x)
            ys.append(a.y0 + a.direction * h * cd / 2)
        xs.append(a.x)
        ys.append(a.y0 + a.direction * (L.POINT_LEN + L.GAP * 0.3))
    X = np.clip(np.rint((np.array(xs) + view.margin) * view.px).astype(int), 0, blur.shape[1] - 1)
    Y = np.clip(np.rint((np.array(ys) + view.margin) * view.px).astype(int), 0, blur.shape[0] - 1)
    c = blur[Y, X].astype(np.float32).reshape(len(ax), 2 * len(halves) + 4, 3)
    gap = c[:, :2 * len(halves)]
    checker = median_axis(c[:, -4:-1], 1)[:, None]
    board = c[:, -1:]
    dc = np.linalg.norm(gap - checker, axis=2)
    db = np.linalg.norm(gap - board, axis=2)
    sep = np.linalg.norm(checker - board, axis=2)
    f = median_axis((db - dc) / (sep + 20.0), 1)
    return np.clip(f, -1.0, 1.0)
