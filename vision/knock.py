"""The camera was knocked: how far the board moved in the rectified view since it was learned.

With corners fixed in the configuration (``--corners``) nothing finds the board again when
someone knocks the table and the camera turns a little: the rectified view then shows the
board a few pixels off, and every learned look is compared with its neighbour's place.  The
board's own edges tell how far: the view of the last known frame (its grey levels at half
size, the *anchor*) and the new view are compared tile by tile (:data:`TILES`) by phase
correlation, which a change of light or a moved checker hardly moves; the tiles' shifts give
the move as a shift and a turn about the view's centre (least squares, the tiles that
disagree left out).  A move of less than :data:`STILL` pixels is no move; one that fits is
undone by warping the new view back (:func:`undo`); one of more than :data:`FAR` point widths
is more than a knock: the corners must be set again.

A camera that has not moved still gives the tiles' shifts some scatter (tenths of an anchor
pixel: checkers and dice moved under them), and a turn fitted on six tiles magnifies it at the
view's corners: on a still rendered camera, real games' frames measured turns of 0.003-0.005
radians, 2.2-2.3 pixels at a corner, each folded into the corners as a knock, and over the twelve
games of one match the corners walked 7.5 image pixels (16 questions in 481 moves, against 10 with
the corners kept).  So a move's parts count only beyond :data:`SURE` standard errors of the fit (the agreeing
tiles' scatter about it): :attr:`Move.sure`, the reach of what the tiles surely show, tells a move
from none.  The real frames knocked 2, 4 and 8 pixels, turned 0.5 and 1 degree, or knocked 40
pixels and turned 3 (``bench/vision_drift.py --cases 2``) are judged as before, 560 of 560.

Phase correlation is most of a knock check's cost, and a camera that has not moved since the
last check needs none: a :class:`Probe` keeps the last measured view's anchor with its
gradients, and one Lucas-Kanade step per tile (:func:`drift`, a twentieth of the work) tells
how far a later view moved from it; while that is a fraction of a pixel the move measured
then still holds (:func:`holds`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Optional

import cv2
import numpy as np

from . import layout as L
from .rectify import View, region_homography

SCALE = 0.5          # the anchor's size, a share of the view's
TILES = (3, 2)       # tiles across and down the view
STILL = 2.0          # view pixels: a move no point of the board shifts by this much is no move
FAR = 0.75           # point widths: a move that shifts some point of the board further is more than a knock
AGREE = 1.5          # view pixels: a tile whose shift lies further from the fitted move disagrees
MIN_TILES = 4        # tiles that must agree on a move for it to be taken
SURE = 1.0           # standard errors of the fit a shift or turn must exceed to count (:attr:`Move.sure`)
NOISE_FLOOR = 0.1    # anchor pixels: the least scatter of the tiles' shifts taken (a perfect fit of a few tiles)
WEAK = 0.05          # a tile's phase correlation peak below this found nothing
SAME = 0.25          # anchor pixels: a view no tile of which drifted this far from a probe's lies where it did
CHANGED = 2.0        # a tile whose difference from the probe's is this many of its gradients' (RMS) is no drift
#                      to tell: something else changed (a hand, the light) or it moved too far for one step
MARGIN = 0.75        # view pixels: a move is taken to hold only this far from STILL and FAR (a drift under
#                      SAME moves the tiles' centres half a view pixel, the board's corners half as much again)


@dataclass(frozen=True)
class Move:
    """How the board moved in the view: a shift (view pixels) and a turn (radians) about the
    view's centre; ``tiles``: how many tiles agree with it; ``reach``: the largest shift of any
    point of the view (pixels); ``sure``: the same of the move the tiles surely show (each part
    less :data:`SURE` standard errors of the fit; the reach itself when not given)."""

    dx: float
    dy: float
    turn: float
    tiles: int
    reach: float
    sure: float = -1.0

    @property
    def shown(self) -> float:
        """The reach of the move the tiles surely show (:attr:`sure`, or :attr:`reach` when not given)."""
        return self.reach if self.sure < 0 else self.sure

    @property
    def still(self) -> bool:
        """No point of the board surely moved by :data:`STILL` view pixels (or too few tiles agree to tell)."""
        return self.shown < STILL or self.tiles < MIN_TILES

    def far(self, px: float) -> bool:
        """Some point of the board moved further than :data:`FAR` point widths (``px`` view pixels each)."""
        return not self.still and self.reach > FAR * px

    def told(self, px: float) -> str:
        """The move as a player reads it, in point widths (``px`` view pixels each) and degrees."""
        across, down = self.dx / px, self.dy / px
        way = f"{abs(across):.1f} {'right' if across >= 0 else 'left'}, {abs(down):.1f} {'down' if down >= 0 else 'up'}"
        return (f"the board lies {math.hypot(across, down):.1f} point widths from where the table learned it "
                f"({way}), turned {abs(math.degrees(self.turn)):.1f} degrees")


NONE = Move(0.0, 0.0, 0.0, 0, 0.0)


def anchor(view: View) -> np.ndarray:
    """The view's grey levels at :data:`SCALE`, float32: what a later view is aligned with."""
    grey = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY) if view.image.ndim == 3 else view.image
    return cv2.resize(grey, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA).astype(np.float32)


@lru_cache(maxsize=8)
def _tiles(shape: tuple[int, int]) -> tuple[tuple[int, int, int, int, np.ndarray], ...]:
    """The tiles of an anchor of ``shape``: rows and columns (y0, y1, x0, x1) and the Hanning
    window phase correlation weighs each with (kept: a view's size does not change)."""
    h, w = shape
    nx, ny = TILES
    xs, ys = np.linspace(0, w, nx + 1).astype(int), np.linspace(0, h, ny + 1).astype(int)
    return tuple((int(ys[j]), int(ys[j + 1]), int(xs[i]), int(xs[i + 1]),
                  cv2.createHanningWindow((int(xs[i + 1] - xs[i]), int(ys[j + 1] - ys[j])), cv2.CV_32F))
                 for j in range(ny) for i in range(nx))


def measure(before: np.ndarray, view: View) -> Move:
    """How the board moved from the anchor ``before`` (:func:`anchor`) to ``view`` (in ``view``'s pixels)."""
    return measure_anchors(before, anchor(view))


def measure_anchors(before: np.ndarray, now: np.ndarray) -> Move:
    """:func:`measure` of a view given by its own :func:`anchor` ``now``."""
    if now.shape != before.shape:
        return NONE
    h, w = now.shape
    cx, cy = (w - 1) / 2, (h - 1) / 2
    rows, shifts = [], []
    for y0, y1, x0, x1, win in _tiles((h, w)):
        (sx, sy), peak = cv2.phaseCorrelate(before[y0:y1, x0:x1], now[y0:y1, x0:x1], win)
        if peak < WEAK:
            continue
        tx, ty = (x0 + x1 - 1) / 2 - cx, (y0 + y1 - 1) / 2 - cy
        rows += [(1.0, 0.0, -ty), (0.0, 1.0, tx)]   # a small turn t moves (x, y) by (-t y, t x)
        shifts += [sx, sy]
    if len(rows) < 6:
        return NONE
    a, b = np.array(rows), np.array(shifts)
    # the points' triangles repeat every point width: a tile may lock on the next one; the
    # tiles far from the shift most tiles show are left out from the start
    each = b.reshape(-1, 2)
    keep = np.hypot(*(each - np.median(each, axis=0)).T) <= 2 * AGREE
    for _ in range(2):
        sel = np.repeat(keep, 2)
        if sel.sum() < 6:
            return NONE
        p = np.linalg.lstsq(a[sel], b[sel], rcond=None)[0]
        off = np.hypot(*(a @ p - b).reshape(-1, 2).T)
        keep = off <= AGREE
    dx, dy, turn = float(p[0]) / SCALE, float(p[1]) / SCALE, float(p[2])   # a turn is the same at any scale
    corner = math.hypot(w, h) / SCALE / 2
    # the parts the tiles surely show: each less SURE standard errors (the agreeing tiles' scatter about the fit)
    sel = np.repeat(keep, 2)
    res = (a @ p - b)[sel]
    dof = max(1, int(sel.sum()) - 3)
    sigma = max(NOISE_FLOOR, math.sqrt(float(res @ res) / dof))
    try:
        se = sigma * np.sqrt(np.diag(np.linalg.inv(a[sel].T @ a[sel])))
    except np.linalg.LinAlgError:
        se = np.full(3, np.inf)
    cut = [max(0.0, abs(float(v)) - SURE * float(e)) for v, e in zip(p, se)]
    sure = math.hypot(cut[0], cut[1]) / SCALE + cut[2] * corner
    return Move(dx, dy, turn, int(keep.sum()), math.hypot(dx, dy) + abs(turn) * corner, sure)


@dataclass(frozen=True)
class Probe:
    """A view's :func:`anchor` kept to tell cheaply how far a later view drifted from it
    (:func:`drift`), per tile (:func:`_tiles`): its place (y0, y1, x0, x1), its grey levels, its
    gradients across and down (flat), their 2x2 normal matrix inverted, and their energy (the
    smaller direction's mean square)."""

    shape: tuple[int, int]
    tiles: tuple[tuple[tuple[int, int, int, int], np.ndarray, np.ndarray, np.ndarray, np.ndarray, float], ...]


def probe(small: np.ndarray) -> Optional[Probe]:
    """The :class:`Probe` of an anchor ``small``; None when a tile shows too little texture to
    tell a drift (no gradient along some direction)."""
    gx = cv2.Sobel(small, cv2.CV_32F, 1, 0, ksize=3, scale=0.125)
    gy = cv2.Sobel(small, cv2.CV_32F, 0, 1, ksize=3, scale=0.125)
    tiles = []
    for y0, y1, x0, x1, _ in _tiles(small.shape):
        a, b = gx[y0:y1, x0:x1].ravel(), gy[y0:y1, x0:x1].ravel()
        g = np.array([[float(a @ a), float(a @ b)], [float(a @ b), float(b @ b)]])
        if np.linalg.det(g) <= 1e-6 * max(1.0, float(np.trace(g))) ** 2:
            return None
        tiles.append(((y0, y1, x0, x1), np.ascontiguousarray(small[y0:y1, x0:x1]), a, b, np.linalg.inv(g),
                      min(g[0, 0], g[1, 1]) / a.size))
    return Probe((small.shape[0], small.shape[1]), tuple(tiles))


def drift(p: Probe, now: np.ndarray) -> float:
    """How far (anchor pixels) the view whose :func:`anchor` is ``now`` drifted from the probe's:
    the largest shift of any tile by one Lucas-Kanade step (the shift that explains the
    difference by the probe's gradients; sensor noise and a flicker hardly move it), and
    infinite when some tile changed by more than :data:`CHANGED` times its gradients (one step
    cannot tell that: a hand, a light that moved, a shift of pixels).  A tenth of a millisecond."""
    if now.shape != p.shape:
        return math.inf
    most = 0.0
    for (y0, y1, x0, x1), grey, gx, gy, solve, energy in p.tiles:
        t = (now[y0:y1, x0:x1] - grey).ravel()
        if float(t @ t) > CHANGED ** 2 * energy * t.size:
            return math.inf
        dx, dy = solve @ np.array([float(gx @ t), float(gy @ t)])
        most = max(most, math.hypot(float(dx), float(dy)))
    return most


def holds(move: Move, px: float, drifted: float) -> bool:
    """Whether ``move``, measured on a probe's view, holds for a view that ``drifted`` (:func:`drift`)
    from it: the drift is under :data:`SAME` and the move lies clear (:data:`MARGIN`) of
    :data:`STILL` and of :data:`FAR` (so the view's own measure would tell the same: no move, or
    a knock to undo), enough tiles having agreed on it."""
    return drifted < SAME and move.tiles >= MIN_TILES and abs(move.shown - STILL) > MARGIN \
        and abs(move.reach - FAR * px) > MARGIN and not move.far(px)


def moved_corners(corners: np.ndarray, view: View, move: Move) -> np.ndarray:
    """The playing area's corners in the image with ``move`` folded in: ``view`` was rectified
    at ``corners`` and shows the board moved by ``move`` from where it was learned; rectified at
    the corners returned, the board lies where it was learned (up to the view's own distortion
    for a board of another shape than the layout's, a fraction of the move).  How the table
    takes a board found again after a knock (:meth:`vision.reader.BoardReader.inspect`)."""
    h, w = view.image.shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    q = (L.playing_corners_pw() - np.array([view.x0, view.y0])) * view.px    # the corners, learned (view px)
    c, s = math.cos(move.turn), math.sin(move.turn)
    now = np.stack([c * (q[:, 0] - cx) - s * (q[:, 1] - cy) + cx + move.dx,
                    s * (q[:, 0] - cx) + c * (q[:, 1] - cy) + cy + move.dy], axis=1)  # ... where they are now
    to_image = np.linalg.inv(region_homography(corners, view.px, view.x0, view.y0))
    return cv2.perspectiveTransform(now[None].astype(np.float64), to_image)[0].astype(np.float32)


def fold(look: Callable[[np.ndarray], View], measure: Callable[[View], Move], corners: np.ndarray,
         steps: int) -> tuple[np.ndarray, View, Move]:
    """``corners`` with the move their view shows folded in (:func:`moved_corners`), measured
    again on the view at the new ones, at most ``steps`` times or until it is still (or too few
    tiles agree to tell); the corners, their view (``look``: the frame rectified at corners) and
    its move (``measure``: from where the board was learned)."""
    view = look(corners)
    m = measure(view)
    for _ in range(steps):
        if m.still:
            break
        corners = moved_corners(corners, view, m)
        view = look(corners)
        m = measure(view)
    return corners, view, m


def undo(view: View, move: Move) -> View:
    """``view`` warped back by ``move``: the board where the anchor shows it."""
    h, w = view.image.shape[:2]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    c, s = math.cos(move.turn), math.sin(move.turn)
    # the move maps a point p of the anchor to R (p - c) + c + d; the warp samples it there
    m = np.array([[c, -s, cx - c * cx + s * cy + move.dx],
                  [s, c, cy - s * cx - c * cy + move.dy]], np.float64)
    img = cv2.warpAffine(view.image, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    return View(img, view.px, view.margin, view.origin)
