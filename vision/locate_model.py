"""The playing-area model behind :mod:`vision.locate` and how well a quad fits it.

In unit coordinates ``(u, v)`` (u along the rows of points): the two long edges, the two
short edges, the bar's two edges at ``0.5 +- bar_half`` and the two sides of each of the 24
triangles, ``point_len`` deep, as sample points linear in the shape (:func:`_lines`); the
colour gradient across each line looked up in maps precomputed per line direction
(:class:`_Field`); a quad's score (:func:`scores`, many quads at once) the weighted
geometric mean of the groups' gradients.  See :mod:`vision.locate` for the search.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional, Union

import cv2
import numpy as np

from . import layout as L

BAR_HALF = (L.BAR_RIGHT - L.BAR_LEFT) / 2 / L.WIDTH   # the layout's bar half-width, share of the width
POINT_LEN = L.POINT_LEN / L.HEIGHT                     # the layout's point length, share of the height
BAR_RANGE = (0.01, 0.08)
LEN_RANGE = (0.30, 0.48)
EDGE_SAT = 1.2  # edge gradients saturate softly at about this (see _combine_many)
WEIGHTS = np.array([0.2, 0.1, 0.1, 0.6])  # long edges, short edges, bar edges, triangle sides
UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


NDIR = 16  # directions of the precomputed across-line gradient maps (every 11.25 degrees)


class _Field:
    """Colour gradients of the working image and their scale (90th percentile of magnitude),
    and the gradient across a line at each pixel for :data:`NDIR` line directions (summed
    over the Lab channels), so scoring a sample is one look-up."""

    def __init__(self, img: np.ndarray, sigma: float) -> None:
        lab = cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), sigma), cv2.COLOR_BGR2Lab).astype(np.float32)
        gx = cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)
        self.grad = np.concatenate([gx, gy], axis=2)
        self.norm = float(np.percentile(np.sqrt(gx ** 2 + gy ** 2).sum(axis=2), 90)) + 8.0
        self.h, self.w = img.shape[:2]
        across = np.zeros((NDIR, self.h + 2, self.w + 2), np.float32)  # a border of zeros (see _parts_many)
        ones = np.ones((1, 3), np.float32)
        for k in range(NDIR):
            a = k * np.pi / NDIR
            m = cv2.addWeighted(gy, float(np.cos(a)), gx, -float(np.sin(a)), 0.0)
            across[k, 1:-1, 1:-1] = cv2.transform(np.abs(m), ones).reshape(img.shape[:2])
        self.across = across.reshape(-1)


@dataclass(frozen=True)
class _Lines:
    """The model's sample points in unit coordinates, linear in the shape: the points at
    ``(bar_half, point_len)`` are ``base + bar_half * d_bar + point_len * d_len``."""

    base: np.ndarray     # (n + 2 m, 2): n samples (sorted by group), then both ends of each of the m lines
    d_bar: np.ndarray    # (n + 2 m, 2)
    d_len: np.ndarray    # (n + 2 m, 2)
    n: int
    line_of: np.ndarray  # (n,) the line each sample lies on (a line stays straight in the image)
    starts: np.ndarray   # (8,) first sample of each group; groups: 0 long edge, 1 short edge, 2 bar
                         # edge, 3..6 triangle sides (top row's left and right sides, then the
                         # bottom row's), 7 phantom triangles on the bar
    counts: np.ndarray   # (8,) samples per group


def _samples(bar_half: float, point_len: float, shift: float, light: bool = False
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Sample points, their groups and lines, and the lines' ends (a0, b0, a1, b1, ...);
    ``light``: about a third of the samples (for screening many candidates)."""
    P: list = []
    G: list = []
    In: list = []
    E: list = []

    def line(p0: tuple[float, float], p1: tuple[float, float], k: int, ts: np.ndarray) -> None:
        a, b = np.array(p0, np.float64), np.array(p1, np.float64)
        In.append(np.full(len(ts), len(E) // 2))
        E.extend([a, b])
        P.append(a + ts[:, None] * (b - a))
        G.append(np.full(len(ts), k))

    long_t, short_t, side_t = np.linspace(0.03, 0.97, 36), np.linspace(0.03, 0.97, 24), np.linspace(0.15, 0.85, 6)
    if light:
        long_t, short_t, side_t = long_t[1::3], short_t[1::3], np.linspace(0.2, 0.8, 2)
    line((0, 0), (1, 0), 0, long_t)
    line((0, 1), (1, 1), 0, long_t)
    line((0, 0), (0, 1), 1, short_t)
    line((1, 0), (1, 1), 1, short_t)
    line((0.5 - bar_half, 0), (0.5 - bar_half, 1), 2, short_t)
    line((0.5 + bar_half, 0), (0.5 + bar_half, 1), 2, short_t)
    pw = (0.5 - bar_half) / 6
    for i in range(12):
        a = i * pw if i < 6 else 0.5 + bar_half + (i - 6) * pw
        for r, (base, tip) in enumerate(((0.0, point_len), (1.0, 1.0 - point_len))):
            for k, bx in enumerate((a, a + pw)):
                line((bx + shift * pw, base), (a + pw / 2 + shift * pw, tip), 3 + 2 * r + k, side_t)
    # phantom triangles on the bar: nothing there on a board (a fit shifted by whole points,
    # on a board whose bar has the surface's colour, finds real triangles there)
    for base, tip in ((0.0, point_len), (1.0, 1.0 - point_len)):
        for bx in (0.5 - bar_half, 0.5 + bar_half):
            line((bx, base), (0.5, tip), 7, side_t)
    return (np.concatenate(P), np.concatenate(G).astype(np.intp), np.concatenate(In).astype(np.intp),
            np.array(E))


@functools.lru_cache(maxsize=16)
def _lines(shift: float = 0.0, light: bool = False) -> _Lines:
    """The model's lines (see the module docstring) as a linear function of its shape,
    samples sorted by group."""
    p00, g, line_of, e00 = _samples(0.0, 0.0, shift, light)
    p10, _, _, e10 = _samples(1.0, 0.0, shift, light)
    p01, _, _, e01 = _samples(0.0, 1.0, shift, light)
    order = np.argsort(g, kind="stable")
    counts = np.bincount(g, minlength=8)
    f32 = np.float32
    pts = [np.concatenate([p[order], e]) for p, e in ((p00, e00), (p10, e10), (p01, e01))]
    return _Lines(pts[0].astype(f32), (pts[1] - pts[0]).astype(f32), (pts[2] - pts[0]).astype(f32), len(g),
                  line_of[order], np.r_[0, np.cumsum(counts)[:-1]].astype(np.intp), counts.astype(f32))


def _homographies(quads: np.ndarray) -> np.ndarray:
    """(K, 3, 3) maps of the unit square's corners (0,0) (1,0) (1,1) (0,1) onto each quad's (K, 4, 2)."""
    x0, x1, x2, x3 = (quads[:, i, 0] for i in range(4))
    y0, y1, y2, y3 = (quads[:, i, 1] for i in range(4))
    dx1, dx2, dx3 = x1 - x2, x3 - x2, x0 - x1 + x2 - x3
    dy1, dy2, dy3 = y1 - y2, y3 - y2, y0 - y1 + y2 - y3
    den = dx1 * dy2 - dx2 * dy1
    den = np.where(np.abs(den) < 1e-9, 1e-9, den)
    g = (dx3 * dy2 - dx2 * dy3) / den
    h = (dx1 * dy3 - dx3 * dy1) / den
    H = np.empty((len(quads), 3, 3))
    H[:, 0] = np.stack([x1 - x0 + g * x1, x3 - x0 + h * x3, x0], axis=1)
    H[:, 1] = np.stack([y1 - y0 + g * y1, y3 - y0 + h * y3, y0], axis=1)
    H[:, 2] = np.stack([g, h, np.ones_like(g)], axis=1)
    return H


def _plausible_many(quads: np.ndarray, h: int, w: int) -> np.ndarray:
    """Per quad: convex, at least a tenth of the image, sides' aspect 0.75..2.3."""
    nxt = [1, 2, 3, 0]
    d = quads[:, nxt] - quads                                   # edges
    dn = d[:, nxt]
    cross = d[:, :, 0] * dn[:, :, 1] - d[:, :, 1] * dn[:, :, 0]
    convex = np.all(cross > 0, axis=1) | np.all(cross < 0, axis=1)
    x, y = quads[:, :, 0], quads[:, :, 1]
    area = 0.5 * np.abs(np.sum(x * y[:, nxt] - x[:, nxt] * y, axis=1))
    e = np.sqrt(d[:, :, 0] ** 2 + d[:, :, 1] ** 2)
    aspect = (e[:, 0] + e[:, 2]) / np.maximum(e[:, 1] + e[:, 3], 1e-6)
    return convex & (area >= 0.1 * h * w) & (aspect > 0.75) & (aspect < 2.3)


def _parts_many(field: _Field, quads: np.ndarray, bar_half: Union[np.ndarray, float],
                point_len: Union[np.ndarray, float], shift: float = 0.0,
                light: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Mean gradient across the model's lines per group, (K, 8), for K quads (model order) and
    shapes at once, and which quads are plausible at all."""
    quads = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    k = len(quads)
    bh = np.broadcast_to(np.asarray(bar_half, np.float64), (k,))
    pl = np.broadcast_to(np.asarray(point_len, np.float64), (k,))
    ok = _plausible_many(quads, field.h, field.w)
    lines = _lines(shift, light)
    uv = (lines.base[None] + bh.astype(np.float32)[:, None, None] * lines.d_bar[None]
          + pl.astype(np.float32)[:, None, None] * lines.d_len[None])
    H = _homographies(quads).astype(np.float32)
    u, v = uv[:, :, 0], uv[:, :, 1]
    den = H[:, 2, 0, None] * u + H[:, 2, 1, None] * v + 1.0
    x = (H[:, 0, 0, None] * u + H[:, 0, 1, None] * v + H[:, 0, 2, None]) / den
    y = (H[:, 1, 0, None] * u + H[:, 1, 1, None] * v + H[:, 1, 2, None]) / den
    n = lines.n
    ax, ay = x[:, :n], y[:, :n]
    ends_x, ends_y = x[:, n:], y[:, n:]
    k_line = np.rint(np.arctan2(ends_y[:, 1::2] - ends_y[:, 0::2], ends_x[:, 1::2] - ends_x[:, 0::2])
                     * (NDIR / np.pi)).astype(np.intp) % NDIR
    k_dir = k_line[:, lines.line_of]
    # the maps have a border of zeros: a sample outside the image lands on it (rounded to the
    # nearest pixel, shifted by the border)
    w, h = field.w + 2, field.h + 2
    xi = np.clip(ax + 1.5, 0, w - 1).astype(np.int32)
    yi = np.clip(ay + 1.5, 0, h - 1).astype(np.int32)
    across = field.across[k_dir.astype(np.int32) * (h * w) + yi * w + xi]
    return np.add.reduceat(across, lines.starts, axis=1) / lines.counts / field.norm, ok


def _parts(field: _Field, quad: np.ndarray, bar_half: float, point_len: float,
           shift: float = 0.0) -> Optional[np.ndarray]:
    parts, ok = _parts_many(field, quad[None], bar_half, point_len, shift)
    return parts[0] if ok[0] else None


def _combine_many(parts: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Fit scores from the groups' gradients (K, 8); 0 where implausible."""
    tri = parts[:, 3:7].mean(axis=1)
    edges = EDGE_SAT * np.tanh(parts[:, :2] / EDGE_SAT)  # a board's outline against the table can be far stronger
    four = np.c_[edges, parts[:, 2], tri]
    empty_bar = np.sqrt((tri + 0.05) / (tri + parts[:, 7] + 0.1))  # about 1 with a plain bar, 0.7 with triangles on it
    return np.where(ok, np.exp(np.log(four + 0.05) @ WEIGHTS) * empty_bar, 0.0)


def scores(field: _Field, quads: np.ndarray, bar_half: np.ndarray | float = BAR_HALF,
           point_len: np.ndarray | float = POINT_LEN, light: bool = False) -> np.ndarray:
    """:func:`fit_score` for K quads (K, 4, 2) and shapes at once (``light``: from about a
    third of the samples, for screening)."""
    parts, ok = _parts_many(field, quads, np.asarray(bar_half), np.asarray(point_len), light=light)
    return _combine_many(parts, ok)


def fit_score(field: _Field, quad: np.ndarray, bar_half: float = BAR_HALF, point_len: float = POINT_LEN) -> float:
    """How well the model with this quad (model order) and shape fits the image's edges (0 = implausible)."""
    return float(scores(field, np.asarray(quad)[None], bar_half, point_len)[0])
