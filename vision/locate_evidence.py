"""The board/no-board decision of :mod:`vision.locate`: a fitted area (:class:`Fit`) and its
evidence (triangle contrast, periodicity along the rows, the bar where the fit puts it)."""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .locate_model import NDIR, UNIT, _Field, _parts

MIN_EVIDENCE = 1.8  # a fit with less evidence (see Fit.evidence) is no board


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
