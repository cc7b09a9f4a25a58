"""Finding the playing area without markers or configured corners.

The playing area (24 points and the bar, trays and frame left out) is found by fitting
a model of its edges to the image's colour gradients:

* **Model** (:func:`_template`): in unit coordinates ``(u, v)`` (u along the rows of
  points), the two long edges, the two short edges, the bar's two edges at
  ``0.5 +- bar_half`` and the two sides of each of the 24 triangles, ``point_len`` deep.
  The bar's width and the points' length are fitted too (real boards differ), within
  bounds.
* **Score** (:func:`fit_score`, :func:`scores` for many quads at once): for sample points
  along every model line mapped into the image by the quad's homography, the colour
  gradient across the line (Lab, summed over channels; looked up in maps precomputed for
  16 line directions, one direction per line, as a straight line stays straight), divided
  by the image's 90th-percentile gradient; the four groups (long edges, short edges, bar,
  triangle sides) combine as a weighted geometric mean, triangles weighing most, so no
  single strong edge (the board's outline, a row of checkers) wins on its own; the edges
  saturate softly (:data:`EDGE_SAT`: a board's outline against the table can be several
  times stronger than the playing area's edge); phantom triangles on the bar should find
  nothing (a fit shifted by whole points on a board whose bar has the surface's colour
  finds real ones there).  Quads too small, too thin or not convex score 0.
* **Search** (:func:`find_board`): the board's outline (:func:`board_quad`) and the whole
  image are rectified (rows along either side); in each such view an exhaustive search
  over axis-aligned rectangles scores the four edges and a bar at the middle from
  cumulative gradient sums (:func:`_coarse_rects`).  The best few (and the outline itself)
  are refined together (:func:`_refine_many`, every round scoring all moves of all quads in
  one batch): jumps (an edge or the whole quad by whole point widths, a short edge by a
  frame's width of a third or two thirds of a point, long edges by a share of the height,
  one or two corners across the rows; screened with a light model; a quad no jump helps
  tries a small grid of bar widths and point lengths, as real boards' proportions differ
  and a start with the wrong bar stays stuck), then
  ever smaller moves of corners, position, scale, rotation, bar and point length.  After a
  first step only the best distinct fits go on; insets of the best by a frame's width are
  refined too; finally the best fit hops (:func:`_hop`): every combination of moves of its
  four edges is scored and the best few refined, which leaves a fit one point off or on
  the board's outline.
* **Decision** (:func:`auto_corners`): the best fit is a board when its evidence reaches
  :data:`MIN_EVIDENCE`: its triangle sides stand out against the same model half a point
  aside (:func:`triangle_contrast`), and the colours along its rows repeat with the points
  (:func:`periodicity`) more than between the rows' tips, and no bar one point aside shows
  clearer edges between the rows' tips than the fit's own (:func:`bar_edges`: a fit a whole
  point off has triangles and periodicity as good as the true one).  The fit score itself is
  relative (noise scores like a poor board), so it picks the area but does not decide.

Corners come back ordered as seen: top-left, top-right, bottom-right, bottom-left with
the rows of points along the first edge; when the rows run up and down the image, the
first corner is the top-right one (the "top" row is then the right-hand column, read
downwards).  Everything works on a copy at most :data:`WORK` pixels on its longer side.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Iterator, Optional, Union

import cv2
import numpy as np

from . import layout as L

WORK = 480          # longer side of the working image, pixels
MIN_EVIDENCE = 1.8  # a fit with less evidence (see Fit.evidence) is no board
BAR_HALF = (L.BAR_RIGHT - L.BAR_LEFT) / 2 / L.WIDTH   # the layout's bar half-width, share of the width
POINT_LEN = L.POINT_LEN / L.HEIGHT                     # the layout's point length, share of the height
BAR_RANGE = (0.01, 0.08)
LEN_RANGE = (0.30, 0.48)
EDGE_SAT = 1.2  # edge gradients saturate softly at about this (see _combine_many)
WEIGHTS = np.array([0.2, 0.1, 0.1, 0.6])  # long edges, short edges, bar edges, triangle sides
UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points as TL, TR, BR, BL (as seen)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates, starting near -pi (left)
    k = int(np.argmin(pts.sum(axis=1)))  # top-left has the smallest x + y
    return np.roll(pts, -k, axis=0)



@dataclass(frozen=True)
class Fit:
    """A fitted playing area: corners in model order (rows along corners 0-1), score, shape."""

    corners: np.ndarray
    score: float
    parts: tuple[float, float, float, float]  # long edges, short edges, bar, triangle sides
    bar_half: float
    point_len: float
    contrast: float  # see :func:`triangle_contrast`
    periodicity: float  # see :func:`periodicity`
    gap_periodicity: float  # the same between the rows' tips
    bar_here: float = 0.0   # the bar's edges between the rows' tips (see :func:`bar_edges`)
    bar_aside: float = 0.0  # the same for a bar one point aside, the stronger side

    @property
    def bar_elsewhere(self) -> bool:
        """Whether a bar one point aside shows far clearer edges between the rows' tips than
        the fit's own (more than twice as strong, and by a tenth of the image's gradient
        scale): the fit is a point off, its bar on triangle sides."""
        return self.bar_aside > 2.0 * self.bar_here + 0.1

    @property
    def evidence(self) -> float:
        """How board-like the fitted area is:
        ``min(log(contrast) / log(1.6), 1.5) + (periodicity - gap_periodicity) / 0.1``,
        and at most 0 when the bar lies elsewhere (:attr:`bar_elsewhere`).
        Noise, plain shapes, stripes and chessboards mostly stay below 1 (stripes repeat
        between the rows as much as along them; a stripe pattern can fake the contrast,
        hence its cap), rarely 1.7; rendered boards reach 5 and more, well-fitted real
        photos -1..7 (see ``bench/vision_find.py``).  Triangles and periodicity cannot tell
        a fit a whole point off (its triangles fall on real ones), the bar can."""
        contrast = min(float(np.log(max(self.contrast, 1e-3)) / np.log(1.6)), 1.5)  # alone it never decides
        ev = contrast + (self.periodicity - self.gap_periodicity) / 0.1
        return min(ev, 0.0) if self.bar_elsewhere else ev

    def as_seen(self) -> np.ndarray:
        """The corners ordered as seen (see the module docstring)."""
        return corners_as_seen(self.corners)


def corners_as_seen(c: np.ndarray) -> np.ndarray:
    """Model-order corners (rows along edge 0-1) reordered clockwise as seen: rows horizontal,
    first corner top-left; rows vertical, first corner top-right."""
    c = np.asarray(c, np.float32).reshape(4, 2)
    x, y = c[:, 0], c[:, 1]
    if float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)) < 0:  # anticlockwise as seen: mirror
        c = c[[1, 0, 3, 2]]
    d = c[1] - c[0]
    if abs(d[0]) >= abs(d[1]):
        return c if d[0] > 0 else np.roll(c, 2, axis=0)
    return c if d[1] > 0 else np.roll(c, 2, axis=0)


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
    I: list = []
    E: list = []

    def line(p0: tuple[float, float], p1: tuple[float, float], k: int, ts: np.ndarray) -> None:
        a, b = np.array(p0, np.float64), np.array(p1, np.float64)
        I.append(np.full(len(ts), len(E) // 2))
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
    return (np.concatenate(P), np.concatenate(G).astype(np.intp), np.concatenate(I).astype(np.intp),
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


def _parts_many(field: _Field, quads: np.ndarray, bar_half: Union[np.ndarray, float], point_len: Union[np.ndarray, float],
                shift: float = 0.0, light: bool = False) -> tuple[np.ndarray, np.ndarray]:
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


def _parts(field: _Field, quad: np.ndarray, bar_half: float, point_len: float, shift: float = 0.0) -> Optional[np.ndarray]:
    parts, ok = _parts_many(field, quad[None], bar_half, point_len, shift)
    return parts[0] if ok[0] else None


def triangle_contrast(field: _Field, quad: np.ndarray, bar_half: float, point_len: float) -> float:
    """The triangle sides' gradient at the fit over that with the triangles half a point
    aside, for the weakest of the four kinds of side (left and right sides of either row,
    so stripes matching one slope do not count): about 1 on noise, plain shapes, stripes
    and chessboards, 1.5 and more on a board."""
    on = _parts(field, quad, bar_half, point_len)
    if on is None:
        return 0.0
    off = [_parts(field, quad, bar_half, point_len, sh) for sh in (-0.5, 0.5)]
    ref = np.mean([o[3:7] for o in off if o is not None], axis=0) + 0.02
    return float(np.min(on[3:7] / ref))


def _line_gradient(field: _Field, H: np.ndarray, u: float, v0: float, v1: float, n: int = 20) -> float:
    """Median gradient across the model line ``u`` from ``v0`` to ``v1`` (unit coordinates,
    mapped by ``H``), over the field's scale; 0 for samples outside the image."""
    pts = np.c_[np.full(n, u), np.linspace(v0, v1, n), np.ones(n)] @ H.T
    xy = pts[:, :2] / pts[:, 2:3]
    d = xy[-1] - xy[0]
    k = int(np.rint(np.arctan2(d[1], d[0]) * NDIR / np.pi)) % NDIR
    xi, yi = np.rint(xy[:, 0]).astype(np.intp), np.rint(xy[:, 1]).astype(np.intp)
    inside = (xi >= 0) & (xi < field.w) & (yi >= 0) & (yi < field.h)
    vals = np.zeros(n)
    vals[inside] = field.across[(k * (field.h + 2) + yi[inside] + 1) * (field.w + 2) + xi[inside] + 1]  # bordered maps
    return float(np.median(vals)) / field.norm


def bar_edges(field: _Field, quad: np.ndarray, bar_half: float, point_len: float) -> tuple[float, float]:
    """The bar's edges between the rows' tips (where a bar runs on and point sides leave no
    edge): the weaker of its two edges' median gradient at the fit, and the same for the
    bar one point width to either side, the stronger side (see :attr:`Fit.bar_elsewhere`)."""
    H = cv2.getPerspectiveTransform(UNIT, np.asarray(quad, np.float32)).astype(np.float64)
    pw = (0.5 - bar_half) / 6
    v0, v1 = point_len + 0.03, 1.0 - point_len - 0.03

    def at(c: float) -> float:
        return min(_line_gradient(field, H, c - bar_half, v0, v1), _line_gradient(field, H, c + bar_half, v0, v1))

    return at(0.5), max(at(0.5 - pw), at(0.5 + pw))


def periodicity(small: np.ndarray, quad: np.ndarray, bar_half: float, point_len: float,
                gap: bool = False) -> float:
    """Share of the colour variation along the rows that repeats with the points (every
    point width, or every second one): profiles across each half of each row at several
    depths, their Fourier energy at 6 and 3 cycles per half over the energy at 1..24 cycles.
    Noise and plain shapes give about 0.1, boards 0.3 and more (checkers, one stack per
    point, repeat with the points too)."""
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (0, 0), 1.0), cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = lab.shape[:2]
    H = cv2.getPerspectiveTransform(UNIT, quad.astype(np.float32))
    n = 48
    u_half = (np.arange(n) + 0.5) / n * (0.5 - bar_half)
    depths = np.linspace(0.1, 0.9, 6) * point_len
    if gap:  # the strip between the rows' tips instead: plain on a board, not on stripes
        depths = 0.5 + np.linspace(-0.35, 0.35, 6) * (0.5 - point_len)
    us, vs = [], []
    for u0 in (0.0, 0.5 + bar_half):
        for v in np.concatenate([depths, 1.0 - depths]):
            us.append(u0 + u_half)
            vs.append(np.full(n, v))
    u, v = np.concatenate(us), np.concatenate(vs)
    hp = np.c_[u, v, np.ones_like(u)] @ H.T
    xy = hp[:, :2] / hp[:, 2:3]
    xi = np.clip(np.rint(xy[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.rint(xy[:, 1]).astype(int), 0, h - 1)
    prof = lab[yi, xi].reshape(-1, n, 3)
    prof = prof - prof.mean(axis=1, keepdims=True)
    power = (np.abs(np.fft.rfft(prof, axis=1)) ** 2).sum(axis=2)  # (lines, n/2 + 1)
    total = power[:, 1:25].sum(axis=1) + 1e-6
    return float(np.median((power[:, 3] + power[:, 6]) / total))


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


def _jump_candidates(quad: np.ndarray, bar_half: float, point_len: float) -> tuple[np.ndarray, np.ndarray]:
    """Quads (and point lengths) one jump away: one short edge by whole point widths (frame,
    surface and bar of one colour hide the short edges), one or both long edges by a share of
    the height, the other row's points kept in place (a row of checkers or the board's outline
    along a long edge looks like one), the whole quad along the rows by whole points, alone or
    with both long edges moved (the shift and the outline at once)."""
    pw = (0.5 - bar_half) / 6
    qs, pls = [], []

    def add(q: np.ndarray, pl: float) -> None:
        qs.append(q)
        pls.append(pl)  # not clipped to LEN_RANGE here: see _jump_maps

    for n_edge, ((k0, k1), (o0, o1), fracs) in enumerate(
            (((0, 3), (1, 2), tuple(f * pw for f in SHORT_JUMPS)), ((1, 2), (0, 3), tuple(f * pw for f in SHORT_JUMPS)),
             ((0, 1), (3, 2), LONG_JUMPS), ((3, 2), (0, 1), LONG_JUMPS))):
        for f in fracs:
            q = quad.copy()
            q[k0] = quad[k0] + f * (quad[o0] - quad[k0])
            q[k1] = quad[k1] + f * (quad[o1] - quad[k1])
            add(q, point_len if n_edge < 2 else point_len / (1 - f))
    along = np.array([quad[1] - quad[0], quad[1] - quad[0], quad[2] - quad[3], quad[2] - quad[3]])
    for j in (0, -2, -1, 1, 2):
        for f in (0.0,) + LONG_JUMPS:
            if j == 0 and f == 0.0:
                continue
            q = quad + j * pw * along
            q[[0, 1]], q[[3, 2]] = q[[0, 1]] + f * (q[[3, 2]] - q[[0, 1]]), q[[3, 2]] + f * (q[[0, 1]] - q[[3, 2]])
            add(q, point_len / (1 - 2 * f))
    # one corner alone, across the rows or along them (a skewed fit: one end of an edge on
    # the frame or a row of checkers, or a point off)
    for k, (across, along_k) in enumerate(((3, 1), (2, 0), (1, 3), (0, 2))):
        for f in CORNER_JUMPS:
            q = quad.copy()
            q[k] = quad[k] + f * (quad[across] - quad[k])
            add(q, point_len)
        for f in (-pw, -pw / 2, pw / 2, pw):
            q = quad.copy()
            q[k] = quad[k] + f * (quad[along_k] - quad[k])
            add(q, point_len)
    # two corners at once across the rows (a tilted or skewed fit: neither corner alone helps)
    across_of = (3, 2, 1, 0)
    for k0 in range(4):
        for k1 in range(k0 + 1, 4):
            for f0 in PAIR_JUMPS:
                for f1 in PAIR_JUMPS:
                    q = quad.copy()
                    q[k0] = quad[k0] + f0 * (quad[across_of[k0]] - quad[k0])
                    q[k1] = quad[k1] + f1 * (quad[across_of[k1]] - quad[k1])
                    add(q, point_len)
    return np.array(qs), np.array(pls)


_ROT = np.array([[0.0, 1.0], [-1.0, 0.0]])


def _unit_moves() -> np.ndarray:
    m = np.zeros((10, 4, 2))
    for k in range(8):
        m[k, k // 2, k % 2] = 1.0
    m[8, :, 0] = 1.0
    m[9, :, 1] = 1.0
    return m


UNIT_MOVES = _unit_moves()


@functools.lru_cache(maxsize=1)
def _jump_maps() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_jump_candidates` as linear maps of the corners: candidates ``(W0 + pw W1) @ quad``
    (C, 4, 4) for a point width ``pw``, with point-length factors (C,)."""
    cols0, cols1 = [], []
    factors = np.ones(1)
    for j in range(4):
        e = np.zeros((4, 2))
        e[j, 0] = 1.0
        bh0, bh1 = 0.5, 0.5 - 6.0     # point widths 0 and 1 (bar_half is only used through pw)
        q0, f0 = _jump_candidates(e, bh0, 1.0)
        q1, _ = _jump_candidates(e, bh1, 1.0)
        cols0.append(q0[:, :, 0])
        cols1.append(q1[:, :, 0] - q0[:, :, 0])
        factors = f0
    return np.stack(cols0, axis=2), np.stack(cols1, axis=2), factors


def _shape_jump(field: _Field, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per quad, the best bar half-width and point length of the grid :data:`SHAPE_BARS` x
    :data:`SHAPE_LENS` with the quad kept (screened with the light model, the three likeliest
    scored in full): (bars, lengths, scores)."""
    bb, ll = (g.ravel() for g in np.meshgrid(SHAPE_BARS, SHAPE_LENS, indexing="ij"))
    m, k, nk = len(quads), len(bb), 3
    light = scores(field, np.repeat(quads, k, axis=0), np.tile(bb, m), np.tile(ll, m), light=True).reshape(m, k)
    few = np.argsort(-light, axis=1)[:, :nk]
    sc = scores(field, np.repeat(quads, nk, axis=0), bb[few].ravel(), ll[few].ravel()).reshape(m, nk)
    best = few[np.arange(m), np.argmax(sc, axis=1)]
    return bb[best].astype(np.float64), ll[best].astype(np.float64), sc.max(axis=1)


def _refine_many(field: _Field, quads: np.ndarray, bar_half: np.ndarray, point_len: np.ndarray,
                 steps: tuple[float, ...] = (0.01, 0.005, 0.0025)
                 ) -> list[tuple[np.ndarray, float, float, float]]:
    """Local search from each of M quads at once: edge jumps (:func:`_jump_candidates`), then
    corner, pose and shape moves of shrinking size; every round scores all moves of all quads
    in one go and each quad takes its best (with its helpful corner moves combined)."""
    Q = np.array(quads, np.float64).reshape(-1, 4, 2).copy()
    M = len(Q)
    bh = np.array(np.broadcast_to(bar_half, (M,)), np.float64)
    pl = np.array(np.broadcast_to(point_len, (M,)), np.float64)
    best = scores(field, Q, bh, pl)
    W0, W1, plf = _jump_maps()
    C = len(plf)
    rows = np.arange(M)
    for n_step, st in enumerate(steps):
        if n_step < 2:
            live = np.ones(M, bool)
            for _ in range(JUMP_ROUNDS):
                idx = rows[live]
                pw = (0.5 - bh[idx]) / 6
                W = W0[None] + pw[:, None, None, None] * W1[None]
                qs = np.einsum("mcij,mjk->mcik", W, Q[idx])
                pls = np.clip(pl[idx, None] * plf[None], *LEN_RANGE)
                # screened with the light model, the few likeliest per quad scored in full
                light = scores(field, qs.reshape(-1, 4, 2), np.repeat(bh[idx], C), pls.ravel(), light=True)
                nk = min(SCREENED, C)
                few = np.argsort(-light.reshape(len(idx), C), axis=1)[:, :nk]
                ar = np.arange(len(idx))[:, None]
                qs, pls = qs[ar, few], pls[ar, few]
                sc = scores(field, qs.reshape(-1, 4, 2), np.repeat(bh[idx], nk), pls.ravel()).reshape(len(idx), nk)
                i = np.argmax(sc, axis=1)
                top = sc[np.arange(len(idx)), i]
                better = top > best[idx]
                up = idx[better]
                Q[up], pl[up], best[up] = qs[better, i[better]], pls[better, i[better]], top[better]
                # quads no jump helped try the bar and point length of a small grid (a start
                # with the wrong bar width stays stuck, every small move of it scoring worse)
                stuck = idx[~better]
                if stuck.size:
                    sb_, sl_, ss_ = _shape_jump(field, Q[stuck])
                    grown = ss_ > best[stuck]
                    up = stuck[grown]
                    bh[up], pl[up], best[up] = sb_[grown], sl_[grown], ss_[grown]
                    live[stuck[~grown]] = False
                if not live.any():
                    break
        size = np.sqrt(np.abs(0.5 * np.sum(Q[:, :, 0] * np.roll(Q[:, :, 1], -1, 1) - np.roll(Q[:, :, 0], -1, 1) * Q[:, :, 1], axis=1)))
        d = st * size
        live = np.ones(M, bool)
        for _ in range(MOVE_ROUNDS):
            idx = rows[live]
            q = Q[idx]
            c = q.mean(axis=1, keepdims=True)
            s = size[idx, None, None]
            moves = np.concatenate([np.broadcast_to(UNIT_MOVES, (len(idx),) + UNIT_MOVES.shape),
                                    ((q - c) / s)[:, None], (((q - c) @ _ROT) / s)[:, None]], axis=1)  # (m, 12, 4, 2)
            nm = moves.shape[1]
            dd = d[idx, None, None, None]
            qs = np.concatenate([q[:, None] + dd * moves, q[:, None] - dd * moves, np.repeat(q[:, None], 4, axis=1)], axis=1)
            b0, l0 = bh[idx, None], pl[idx, None]
            bs = np.concatenate([np.repeat(b0, 2 * nm, 1), np.clip(b0 + st * 0.4, *BAR_RANGE), np.clip(b0 - st * 0.4, *BAR_RANGE),
                                 b0, b0], axis=1)
            ls = np.concatenate([np.repeat(l0, 2 * nm + 2, 1), np.clip(l0 + st, *LEN_RANGE), np.clip(l0 - st, *LEN_RANGE)], axis=1)
            K = qs.shape[1]
            sc = scores(field, qs.reshape(-1, 4, 2), bs.ravel(), ls.ravel()).reshape(len(idx), K)
            i = np.argmax(sc, axis=1)
            ar = np.arange(len(idx))
            top = sc[ar, i]
            better = top > best[idx]
            # every corner coordinate that helps on its own, moved together (and the shape)
            cur = best[idx, None]
            plus, minus = sc[:, :8], sc[:, nm:nm + 8]
            sign = np.where(plus > np.maximum(minus, cur), 1.0, np.where(minus > cur, -1.0, 0.0))
            k = 2 * nm
            nb = np.where(sc[:, k] > np.maximum(sc[:, k + 1], cur[:, 0]), bs[:, k],
                          np.where(sc[:, k + 1] > cur[:, 0], bs[:, k + 1], b0[:, 0]))
            nl = np.where(sc[:, k + 2] > np.maximum(sc[:, k + 3], cur[:, 0]), ls[:, k + 2],
                          np.where(sc[:, k + 3] > cur[:, 0], ls[:, k + 3], l0[:, 0]))
            both = q + d[idx, None, None] * np.tensordot(sign, UNIT_MOVES[:8], axes=1)
            sb = scores(field, both, nb, nl)
            use_both = better & (sb > top)
            one = better & ~use_both
            Q[idx[one]], bh[idx[one]], pl[idx[one]], best[idx[one]] = qs[ar[one], i[one]], bs[ar[one], i[one]], ls[ar[one], i[one]], top[one]
            Q[idx[use_both]], bh[idx[use_both]], pl[idx[use_both]], best[idx[use_both]] = both[use_both], nb[use_both], nl[use_both], sb[use_both]
            live[idx[~better]] = False
            if not live.any():
                break
    return [(Q[m], float(bh[m]), float(pl[m]), float(best[m])) for m in range(M)]


def _refine(field: _Field, quad: np.ndarray, bar_half: float, point_len: float,
            steps: tuple[float, ...] = (0.01, 0.005, 0.0025)) -> tuple[np.ndarray, float, float, float]:
    """:func:`_refine_many` for one quad: (quad, bar_half, point_len, score)."""
    return _refine_many(field, quad[None], np.array([bar_half]), np.array([point_len]), steps)[0]


LONG_JUMPS = (-0.1, -0.06, -0.03, 0.03, 0.06, 0.1)
SHAPE_BARS = (0.015, 0.025, BAR_HALF, 0.055)     # bar half-widths of the shape jumps
SHAPE_LENS = (0.30, 0.34, 0.38, POINT_LEN, 0.46)  # point lengths of the shape jumps
# short-edge jumps, point widths: whole points, and a frame's width (a third or two of a point) off
SHORT_JUMPS = (-2.0, -1.0, -2 / 3, -1 / 3, 1 / 3, 2 / 3, 1.0, 2.0)
SCREENED = 8      # jumps per quad and round scored in full after the light screening
JUMP_ROUNDS = 8    # rounds of jumps per refinement step at most
MOVE_ROUNDS = 12   # rounds of small moves per step at most
CORNER_JUMPS = (-0.08, -0.04, -0.02, 0.02, 0.04, 0.08)
PAIR_JUMPS = (-0.08, -0.04, 0.04, 0.08)
VIEW = 160  # longer side of a rectified view for the coarse search, pixels
STEP = 3    # coarse search step, view pixels


def _edge_maps(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lab = cv2.cvtColor(cv2.GaussianBlur(view, (0, 0), 1.2), cv2.COLOR_BGR2Lab).astype(np.float32)
    gx = np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2)
    gy = np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)
    norm = float(np.percentile(np.maximum(gx, gy), 90)) + 8.0
    return cv2.dilate(gx, np.ones((1, 3), np.uint8)) / norm, cv2.dilate(gy, np.ones((3, 1), np.uint8)) / norm


def _coarse_rects(view: np.ndarray, k: int = 6) -> list[tuple[float, float, float, float, float]]:
    """The ``k`` best distinct axis-aligned playing-area rectangles (x0, y0, x1, y1, score) in a
    view whose rows run along x: four edges and a bar at the middle, from cumulative gradient sums."""
    h, w = view.shape[:2]
    gx, gy = _edge_maps(view)
    CY = np.concatenate([np.zeros((h, 1), np.float32), np.cumsum(gy, axis=1)], axis=1)
    CX = np.concatenate([np.zeros((1, w), np.float32), np.cumsum(gx, axis=0)], axis=0)
    X0, X1 = np.arange(0, int(0.45 * w), STEP), np.arange(int(0.55 * w), w, STEP)
    Y0, Y1 = np.arange(0, int(0.45 * h), STEP), np.arange(int(0.55 * h), h, STEP)
    if min(len(X0), len(X1), len(Y0), len(Y1)) == 0:
        return []

    def hseg(y: np.ndarray) -> np.ndarray:  # (y, x0, x1): mean gradient along row y from x0 to x1
        return (CY[y][:, X1][:, None, :] - CY[y][:, X0][:, :, None]) / (X1[None, None, :] - X0[None, :, None])

    def vseg(x: np.ndarray) -> np.ndarray:  # (x, y0, y1)
        return (CX[Y1][:, x].T[:, None, :] - CX[Y0][:, x].T[:, :, None]) / (Y1[None, None, :] - Y0[None, :, None])

    lg = lambda a: np.log(a + 0.05)  # noqa: E731
    span = (X1[None, :] - X0[:, None]).astype(np.float32)
    xc = (X0[:, None] + X1[None, :]) / 2.0
    tall = (Y1[None, :] - Y0[:, None]).astype(np.float32)[:, :, None, None]
    bar: Optional[np.ndarray] = None
    for half in (0.025, 0.04, 0.06):
        acc: np.ndarray | float = 0.0
        for sg in (-1, 1):
            col = np.clip(np.rint(xc + sg * half * span).astype(int), 0, w - 1)
            acc = acc + lg((CX[Y1][:, col][None] - CX[Y0][:, col][:, None]) / tall)
        bar = np.asarray(acc) / 2 if bar is None else np.maximum(bar, np.asarray(acc) / 2)
    tot = (lg(hseg(Y0))[:, None, :, :] + lg(hseg(Y1))[None, :, :, :] + lg(vseg(X0)).transpose(1, 2, 0)[:, :, :, None]
           + lg(vseg(X1)).transpose(1, 2, 0)[:, :, None, :] + 1.5 * np.asarray(bar)) / 5.5   # (y0, y1, x0, x1)
    aspect = span[None, None] / tall
    tot = np.where((aspect > 0.75) & (aspect < 2.2), tot, -9.0)
    flat = tot.ravel()
    live = np.flatnonzero(flat > -9.0)  # (many equal values make a partition slow)
    top = live[np.argpartition(flat[live], -min(3000, live.size))[-3000:]] if live.size else live
    out: list[tuple[float, float, float, float, float]] = []
    for idx in top[np.argsort(flat[top])[::-1]]:
        a, b, c, d = np.unravel_index(idx, tot.shape)
        r = (float(X0[c]), float(Y0[a]), float(X1[d]), float(Y1[b]), float(flat[idx]))
        if all(max(abs(r[i] - o[i]) for i in range(4)) > 0.04 * w for o in out):
            out.append(r)
            if len(out) >= k:
                break
    return out


ANGLES = (-10.0, -5.0, 0.0, 5.0, 10.0)  # turns of the whole picture tried when the outline is unclear, degrees


def _views(small: np.ndarray, bq: Optional[np.ndarray] = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Rectified views (rows along x, longer side :data:`VIEW`) of the board's outline and of
    the whole picture turned by each of :data:`ANGLES`, both ways round."""
    h, w = small.shape[:2]
    whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    outlines = []
    bq = board_quad(small) if bq is None else bq
    if np.abs(bq - whole).max() > 3:
        outlines.append(bq)
    c = whole.mean(axis=0)
    for a in ANGLES:
        t = np.radians(a)
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
        outlines.append((whole - c) @ rot.T + c)
    for q in outlines:
        for src in (q, np.roll(q, -1, axis=0)):
            e = np.linalg.norm(np.roll(src, -1, axis=0) - src, axis=1)
            ratio = (e[1] + e[3]) / max(e[0] + e[2], 1e-6)
            if not 0.25 <= ratio <= 2.0:
                continue
            vw, vh = (VIEW, int(VIEW * ratio)) if ratio <= 1 else (int(VIEW / ratio), VIEW)
            dst = np.array([[0, 0], [vw, 0], [vw, vh], [0, vh]], np.float32)
            Hm = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
            yield cv2.warpPerspective(small, Hm, (vw + 1, vh + 1), borderMode=cv2.BORDER_REPLICATE), Hm


def _insets(quad: np.ndarray) -> list[np.ndarray]:
    """The quad (model order) shrunk by typical frame widths: the long edges by 5 or 8 % of the
    height, each short edge by 0, 5 or 10 % of the width."""
    out = []
    for fy in (0.05, 0.08):
        for fl in (0.0, 0.05, 0.1):
            for fr in (0.0, 0.05, 0.1):
                q = quad.copy()
                q[[0, 1]], q[[3, 2]] = q[[0, 1]] + fy * (q[[3, 2]] - q[[0, 1]]), q[[3, 2]] + fy * (q[[0, 1]] - q[[3, 2]])
                q[[0, 3]], q[[1, 2]] = q[[0, 3]] + fl * (q[[1, 2]] - q[[0, 3]]), q[[1, 2]] + fr * (q[[0, 3]] - q[[1, 2]])
                out.append(q)
    return out


KEPT = 6    # starts refined to the end (see find_board)
HOP_SCREENED = 120  # hop candidates scored in full after the light screening
HOPPED = 1  # fits that hop (see _hop)
SHORT_HOPS = (-2, -1, 0, 1, 2)                           # short-edge moves, point widths
LONG_HOPS = (-0.1, -0.06, -0.03, 0.0, 0.03, 0.06, 0.1)    # long-edge moves, share of the height


def _hop_candidates(quad: np.ndarray, bar_half: float, point_len: float) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of moves of the four edges at once: each short edge by whole point
    widths, each long edge by a share of the height (the other row's points kept in place)."""
    pw = (0.5 - bar_half) / 6
    a, b = np.meshgrid(np.array(SHORT_HOPS) * pw, np.array(SHORT_HOPS) * pw, indexing="ij")
    t, u = np.meshgrid(LONG_HOPS, LONG_HOPS, indexing="ij")
    fl, fr = a.ravel()[:, None, None], b.ravel()[:, None, None]          # left, right edge moves
    ft, fb = t.ravel()[None, :, None], u.ravel()[None, :, None]         # top, bottom edge moves
    q0, q1, q2, q3 = (quad[i][None, None] for i in range(4))
    # short edges first (along the rows), then the long ones (across)
    l0, r0 = q0 + fl * (q1 - q0), q1 - fr * (q1 - q0)
    l3, r2 = q3 + fl * (q2 - q3), q2 - fr * (q2 - q3)
    n0, n1 = l0 + ft * (l3 - l0), r0 + ft * (r2 - r0)
    n3, n2 = l3 + fb * (l0 - l3), r2 + fb * (r0 - r2)
    qs = np.stack(np.broadcast_arrays(n0, n1, n2, n3), axis=2).reshape(-1, 4, 2)
    shrink = 1 - t.ravel() - u.ravel()
    pls = np.clip(point_len / np.maximum(shrink, 0.5), *LEN_RANGE)
    return qs, np.tile(pls, len(a.ravel()))


def _hop_shapes(qs: np.ndarray, pls: np.ndarray, bar_half: float, point_len: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hop candidates with three point lengths each (points as long as before, their tips
    kept in place, the layout's) and, when the fit's bar is unlike the layout's, both bars."""
    n_long = len(LONG_HOPS) ** 2
    t, u = (g.ravel() for g in np.meshgrid(LONG_HOPS, LONG_HOPS, indexing="ij"))
    tips = np.clip((point_len - (t + u) / 2) / np.maximum(1 - t - u, 0.5), *LEN_RANGE)
    k = len(qs) // n_long
    qs3 = np.concatenate([qs, qs, qs])
    pls3 = np.concatenate([pls, np.tile(tips, k), np.full(len(qs), POINT_LEN)])
    bhs = np.full(len(qs3), bar_half)
    if abs(bar_half - BAR_HALF) > 0.005:  # a fit an edge off may widen its bar
        qs3, pls3, bhs = np.concatenate([qs3, qs3]), np.concatenate([pls3, pls3]), np.r_[bhs, np.full(len(qs3), BAR_HALF)]
    return qs3, pls3, bhs


def _hop(field: _Field, quad: np.ndarray, bar_half: float, point_len: float, score: float,
         tries: int = 3) -> tuple[np.ndarray, float, float, float]:
    """Leave a local optimum: score every combination of edge moves (:func:`_hop_candidates`)
    at once and refine the few best distinct ones; the best fit found (the search, starting
    from a board's outline or a fit one point off, stops where no single move helps)."""
    qs, pls, bhs = _hop_shapes(*_hop_candidates(quad, bar_half, point_len), bar_half, point_len)
    light = scores(field, qs, bhs, pls, light=True)  # screened, the likeliest scored in full
    few = np.argsort(-light)[:HOP_SCREENED]
    qs, pls, bhs = qs[few], pls[few], bhs[few]
    sc = scores(field, qs, bhs, pls)
    size = float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))
    taken: list[np.ndarray] = [quad]
    pick = []
    for i in np.argsort(-sc):
        if len(taken) > tries:
            break
        if min(float(np.abs(qs[i] - t).max()) for t in taken) < 0.03 * size:
            continue
        taken.append(qs[i])
        pick.append(i)
    got = _refine_many(field, qs[pick], bhs[pick], pls[pick], steps=(0.005, 0.0025))
    return max(got + [(quad, bar_half, point_len, score)], key=lambda t: t[3])


def find_board(frame: np.ndarray, refine: int = 12) -> Optional[Fit]:
    """The best-fitting playing area in ``frame`` (corners in frame pixels, model order), however
    poor (compare its :attr:`Fit.evidence` with :data:`MIN_EVIDENCE`); None for an empty or tiny image."""
    if frame is None or frame.size == 0 or min(frame.shape[:2]) < 32:
        return None
    img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    s = min(1.0, WORK / max(h, w))
    small = cv2.resize(img, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA) if s < 1 else img
    field = _Field(small, 1.0)
    outline = board_quad(small)
    quads, coarse = [], []
    for view, Hm in _views(small, outline):
        inv = np.linalg.inv(Hm)
        for x0, y0, x1, y1, c_score in _coarse_rects(view):
            pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            quads.append(cv2.perspectiveTransform(pts[None], inv)[0].astype(np.float64))
            coarse.append(c_score)
    if not quads:
        return None
    fine = scores(field, np.array(quads))
    # the likeliest by the fine model, and by the coarse one (a fine score misled by a
    # small misalignment), half each; and the outline itself, both ways round (its edges may
    # be the playing area's)
    by_fine, by_coarse = np.argsort(-fine, kind="stable"), np.argsort(-np.array(coarse), kind="stable")
    chosen: list[int] = []
    for i in [int(j) for pair in zip(by_fine, by_coarse) for j in pair]:
        if i not in chosen:
            chosen.append(i)
    starts = [quads[i] for i in chosen[:refine]]
    whole = np.array([[0, 0], [small.shape[1] - 1, 0], [small.shape[1] - 1, small.shape[0] - 1], [0, small.shape[0] - 1]])
    if np.abs(outline - whole).max() > 3:
        starts += [outline.astype(np.float64), np.roll(outline, -1, axis=0).astype(np.float64)]
    n = len(starts)
    # a first refinement of every start, then the rest for the best distinct ones
    first = _refine_many(field, np.array(starts), np.full(n, BAR_HALF), np.full(n, POINT_LEN), steps=(0.01,))
    first.sort(key=lambda t: -t[3])
    kept: list[tuple[np.ndarray, float, float, float]] = []
    for f in first:
        size = float(np.sqrt(abs(cv2.contourArea(f[0].astype(np.float32)))))
        if all(np.abs(f[0] - k[0]).max() > 0.02 * size for k in kept):
            kept.append(f)
        if len(kept) >= KEPT:
            break
    fits = _refine_many(field, np.array([k[0] for k in kept]), np.array([k[1] for k in kept]),
                        np.array([k[2] for k in kept]), steps=(0.005, 0.0025))
    fits.sort(key=lambda t: -t[3])
    # the best fits may hold the board's outline: their insets by a frame's width, the likeliest refined too
    insets = np.array([q for q0, bh, _, _ in fits[:2] for q in _insets(q0)])
    ins_bh = np.repeat([f[1] for f in fits[:2]], len(insets) // min(2, len(fits)))
    ins_sc = scores(field, insets, ins_bh, POINT_LEN)
    pick = np.argsort(-ins_sc)[:2]
    fits += _refine_many(field, insets[pick], ins_bh[pick], np.full(len(pick), POINT_LEN))
    fits.sort(key=lambda t: -t[3])
    q, bh, pl, sc = max((_hop(field, *f) for f in fits[:HOPPED]), key=lambda t: t[3])
    best = (sc, q, bh, pl)
    sc, q, bh, pl = best
    parts = _parts(field, q, bh, pl)
    p4 = np.zeros(4) if parts is None else np.r_[parts[:3], parts[3:7].mean()]
    p = tuple(float(v) for v in p4)
    return Fit((q / s).astype(np.float32), float(sc), p, float(bh), float(pl),  # type: ignore[arg-type]
               triangle_contrast(field, q, bh, pl), periodicity(small, q, bh, pl),
               periodicity(small, q, bh, pl, gap=True), *bar_edges(field, q, bh, pl))


def auto_corners(frame: np.ndarray, min_likeness: float = MIN_EVIDENCE) -> Optional[np.ndarray]:
    """The playing area's corners in ``frame`` (first corner at the start of the "top" row,
    ordered as seen), or None when the best fit's :attr:`Fit.evidence` is below ``min_likeness``."""
    fit = find_board(frame)
    if fit is None or fit.evidence < min_likeness:
        return None
    return fit.as_seen()


def _quad_from_edges(img: np.ndarray) -> Optional[np.ndarray]:
    """The largest convex four-sided outline among the image's edge contours, or None."""
    h, w = img.shape[:2]
    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.Canny(grey, 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, 0.2 * h * w
    for c in contours:
        x, y, cw, ch = cv2.boundingRect(c)
        if cw * ch <= best_area:
            continue
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if area <= best_area or area > 0.98 * h * w:
            continue
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx) and cv2.contourArea(approx) > 0.9 * area:
            best, best_area = approx.reshape(4, 2).astype(np.float32), area
    return None if best is None else order_corners(best)


def board_quad(img: np.ndarray) -> np.ndarray:
    """The board's outline in ``img`` (TL, TR, BR, BL); the image's own corners when unsure.

    First the largest four-sided edge outline; failing that, the blob of pixels unlike
    the image border's colour (lightness weighed less, so shadows stay background).
    """
    h, w = img.shape[:2]
    whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    q = _quad_from_edges(img)
    if q is not None:
        return q
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3), lab[:, :4].reshape(-1, 3), lab[:, -4:].reshape(-1, 3)])
    wgt = np.array([0.35, 1.0, 1.0], np.float32)
    bg = np.median(border, axis=0)
    spread = float(np.median(np.linalg.norm((border - bg) * wgt, axis=1)))
    if spread > 14:  # the border is not one background: the board fills the picture
        return whole
    mask = (np.linalg.norm((lab - bg) * wgt, axis=2) > max(14.0, 4 * spread)).astype(np.uint8) * 255
    k = max(3, int(min(h, w) * 0.02)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return whole
    cnt = max(contours, key=cv2.contourArea)
    if cv2.contourArea(cnt) < 0.15 * h * w:
        return whole
    hull = cv2.convexHull(cnt)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return order_corners(approx.reshape(4, 2))
    return order_corners(cv2.boxPoints(cv2.minAreaRect(hull)))


def board_likeness(frame: np.ndarray, corners: np.ndarray) -> float:
    """How much the quad looks like a playing area: alternating point colours along both rows.

    Each row's points alternate two colours; the score is the colour difference between
    odd and even points over the spread within each group (a blank or random area scores
    about 1 or less, a board several).
    """
    from .rectify import rectify
    view = rectify(frame, corners, px=12, margin=0.0)
    lab = cv2.cvtColor(view.image, cv2.COLOR_BGR2Lab).astype(np.float32)
    scores = []
    for y0, y1 in ((1.6, 3.2), (L.HEIGHT - 3.2, L.HEIGHT - 1.6)):
        means = []
        for i in range(12):
            x = L.column_x(i)
            patch = lab[int(y0 * 12):int(y1 * 12), int((x - 0.12) * 12):int((x + 0.12) * 12) + 1].reshape(-1, 3)
            means.append(np.median(patch, axis=0))
        m = np.array(means)
        even, odd = m[0::2], m[1::2]
        gap = float(np.linalg.norm(even.mean(axis=0) - odd.mean(axis=0)))
        spread = float(np.linalg.norm(even.std(axis=0)) + np.linalg.norm(odd.std(axis=0))) / 2
        scores.append(gap / (spread + 6.0))
    return min(scores)


