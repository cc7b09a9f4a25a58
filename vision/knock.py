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
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .rectify import View

SCALE = 0.5          # the anchor's size, a share of the view's
TILES = (3, 2)       # tiles across and down the view
STILL = 2.0          # view pixels: a move no point of the board shifts by this much is no move
FAR = 0.75           # point widths: a move that shifts some point of the board further is more than a knock
AGREE = 1.5          # view pixels: a tile whose shift lies further from the fitted move disagrees
MIN_TILES = 4        # tiles that must agree on a move for it to be taken
WEAK = 0.05          # a tile's phase correlation peak below this found nothing


@dataclass(frozen=True)
class Move:
    """How the board moved in the view: a shift (view pixels) and a turn (radians) about the
    view's centre; ``tiles``: how many tiles agree with it; ``reach``: the largest shift of any
    point of the view (pixels)."""

    dx: float
    dy: float
    turn: float
    tiles: int
    reach: float

    @property
    def still(self) -> bool:
        """No point of the board moved by :data:`STILL` view pixels (or too few tiles agree to tell)."""
        return self.reach < STILL or self.tiles < MIN_TILES

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


def _tiles(shape: tuple[int, int]) -> list[tuple[int, int, int, int]]:
    h, w = shape
    nx, ny = TILES
    xs, ys = np.linspace(0, w, nx + 1).astype(int), np.linspace(0, h, ny + 1).astype(int)
    return [(ys[j], ys[j + 1], xs[i], xs[i + 1]) for j in range(ny) for i in range(nx)]


def measure(before: np.ndarray, view: View) -> Move:
    """How the board moved from the anchor ``before`` (:func:`anchor`) to ``view`` (in ``view``'s pixels)."""
    now = anchor(view)
    if now.shape != before.shape:
        return NONE
    h, w = now.shape
    cx, cy = (w - 1) / 2, (h - 1) / 2
    rows, shifts = [], []
    for y0, y1, x0, x1 in _tiles((h, w)):
        win = cv2.createHanningWindow((x1 - x0, y1 - y0), cv2.CV_32F)
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
    return Move(dx, dy, turn, int(keep.sum()), math.hypot(dx, dy) + abs(turn) * corner)


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
