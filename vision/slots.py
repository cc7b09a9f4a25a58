"""The checker slots: where each lies on the layout, and what a slot's patch looks like.

A *slot* is the place of the k-th checker from a point's base (or a place along the bar,
half a checker apart).  :func:`slot_geometry` lays them out for a checker size, a board's
height and each row's spacing; :func:`patches` samples every slot's patch (with a margin to
allow a nudged checker) from a rectified view in Lab; :func:`_shifted_dist` compares patches
with templates allowing that nudge.  The board's learned look (:mod:`vision.memory`) and the
frame teaching itself (:mod:`vision.self_reference`) both read the board slot by slot.

Pure: arrays in, arrays out.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import cv2
import numpy as np

from . import layout as L
from .rectify import View

EMPTY, DARK, LIGHT = 0, 1, 2
PATCH = 8            # a slot's patch, samples a side (after resampling)
SHIFT = 1            # samples a patch may be shifted by when compared (a checker nudged, jitter)
WIDE = PATCH + 2 * SHIFT

def row_fits(cd: float, height: float = L.HEIGHT) -> int:
    """Checkers that fit in a row from a point's base to the middle of a board ``height`` pw tall
    (five at least, seven at most)."""
    return max(5, min(7, int((height / 2) // cd)))


def point_slots(cd: float, height: float = L.HEIGHT) -> int:
    """Checkers a point's row is read for: as many as fit (:func:`row_fits`), six at least.  Players
    line a sixth up in the row even where it reaches past the middle (the real image026, 10.7 pw tall:
    five fit; a light sixth on point 19, read without a slot of its own, looked like a checker moved a
    pip off)."""
    return max(6, row_fits(cd, height))



@dataclass(frozen=True)
class SlotGeometry:
    """Where the slots lie in layout coordinates (pw): centres, and their side."""

    centres: np.ndarray  # (n, 2) x, y
    side: float
    per_point: int       # slots per point; points are rows top 0..11 then bottom 0..11
    height: float = L.HEIGHT  # the board's own height (pw) the slots were laid out for
    squeeze: Optional[np.ndarray] = None  # (n,) each slot's height in the layout per pw of the board's (1: as it is)
    pitch: tuple[float, float] = (1.0, 1.0)  # per row (top, bottom): the checkers' spacing along it, per diameter
    start: tuple[float, float] = (0.0, 0.0)  # per row: how far from the frame (pw) its first checker's edge lies
    lateral: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # per quarter (top left, top right, bottom
    # left, bottom right): how far sideways (pw, to the right in the view) its points' checkers lie

    @property
    def fits(self) -> int:
        """Checkers that fit in a row from a point's base to the middle (:func:`row_fits`): the slots past
        them (a sixth where five fit) lie past the middle, on the band between the tips."""
        return row_fits(self.side, self.height)

    @property
    def bar_start(self) -> int:
        """The index of the first bar slot (the 24 points' slots come first)."""
        return 24 * self.per_point


def slot_geometry(cd: float = L.CHECKER, height: float = L.HEIGHT,
                  pitch: tuple[float, float] = (1.0, 1.0), start: tuple[float, float] = (0.0, 0.0),
                  lateral: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)) -> SlotGeometry:
    """Slots of the 24 points (row ``top`` columns 0..11, then ``bottom``) and of the bar.

    ``pitch``: per row, how far apart its checkers lie along the point, per diameter: in a steep
    oblique view one row's stacks are foreshortened (their checkers' tops lie closer together
    than a diameter in the rectified board), and its slots, each as tall as its checker, with them.

    On a board taller than the layout's (``height`` pw), :mod:`vision.rectify` keeps each row's
    first :data:`~vision.layout.POINT_LEN` pw as they are and squeezes the band between the tips:
    the checkers a row holds beyond it (six in a row on a tall board) lie squeezed there, and
    their slots with them.

    ``start``: per row, how far from the frame its first checker's edge lies (pw): in a photo from
    in front the far row's frame has a wall whose face hides the field's edge, and the labelled or
    found edge is the wall's top: the row's checkers then begin a little inside it."""
    per = point_slots(cd, height)
    mid = max(height - 2 * L.POINT_LEN, 0.2)   # the board's band between the tips, shown as GAP
    cs, sq = [], []
    for r, (row, along, first) in enumerate(zip(("top", "bottom"), pitch, start)):
        for col in range(12):
            x = L.column_x(col) + lateral[2 * r + (col >= 6)]
            for k in range(per):
                d = first + (k + 0.5) * cd * along        # from the base, in the board's own pw
                if d > L.POINT_LEN:
                    d, f = L.POINT_LEN + (d - L.POINT_LEN) * L.GAP / mid, L.GAP / mid
                else:
                    f = 1.0
                cs.append((x, d if row == "top" else L.HEIGHT - d))
                sq.append(f * along)
    # the bar: overlapping places half a checker apart (bar checkers lie anywhere along it, most often
    # in its middle); on a board taller than the layout's, half a checker apart on the board itself: in
    # the band between the tips, which the view squeezes, a place is squeezed with it (laid evenly in
    # the view, two checkers in the middle of a board 14 pw tall fill half a place there)
    step = cd / 2
    tall = height > L.HEIGHT
    down = cd / 2 + step * np.arange(int(((height if tall else L.HEIGHT) - cd) / step) + 1)   # from the top
    ys = L.BoardShape(height=height).to_layout(np.zeros(len(down)), down)[1] if tall else down
    band = tall & (down > L.POINT_LEN) & (down < height - L.POINT_LEN)
    cs.extend((L.BAR_LEFT + L.BAR_WIDTH / 2, float(v)) for v in ys)
    sq.extend(np.where(band, L.GAP / mid, 1.0).tolist())
    return SlotGeometry(np.array(cs, np.float32), cd, per, height, np.array(sq, np.float32),
                        (float(pitch[0]), float(pitch[1])), (float(start[0]), float(start[1])),
                        (float(lateral[0]), float(lateral[1]), float(lateral[2]), float(lateral[3])))


_GRIDS: dict[tuple[object, ...], tuple[np.ndarray, int, tuple[slice, slice]]] = {}


def _grid(view: View, geo: SlotGeometry, shift: int = SHIFT) -> tuple[np.ndarray, int, tuple[slice, slice]]:
    """Every slot's sample points (the patch and a margin of ``shift`` samples round it) as
    flat pixel indices (slots, wide, wide) of the part of the view's image they lie in (rows
    and columns: the samples' box with a box's margin, so that a blur of the part alone gives
    the whole view's blur at every sample), the box size, and that part."""
    h, w = view.image.shape[:2]
    key = (h, w, view.px, view.x0, view.y0, geo.side, len(geo.centres), geo.height, shift, geo.pitch, geo.start,
           geo.lateral)
    hit = _GRIDS.get(key)
    if hit is None:
        cell = geo.side / PATCH
        wide = PATCH + 2 * shift
        offs = (np.arange(wide) - shift + 0.5) * cell - geo.side / 2
        xs = (geo.centres[:, 0, None] + offs[None, :] - view.x0) * view.px       # (slots, W)
        squeeze = geo.squeeze if geo.squeeze is not None else np.ones(len(geo.centres), np.float32)
        ys = (geo.centres[:, 1, None] + offs[None, :] * squeeze[:, None] - view.y0) * view.px
        cols = np.clip(np.round(xs), 0, w - 1).astype(np.intp)[:, None, :].repeat(wide, axis=1)
        rows = np.clip(np.round(ys), 0, h - 1).astype(np.intp)[:, :, None].repeat(wide, axis=2)
        box = max(1, int(round(cell * view.px)))
        r0, r1 = max(0, int(rows.min()) - box), min(h, int(rows.max()) + box + 1)
        c0, c1 = max(0, int(cols.min()) - box), min(w, int(cols.max()) + box + 1)
        hit = ((rows - r0) * (c1 - c0) + cols - c0, box, (slice(r0, r1), slice(c0, c1)))
        if len(_GRIDS) > 8:
            _GRIDS.clear()
        _GRIDS[key] = hit
    return hit


def samples(view: View, geo: SlotGeometry, shift: int = SHIFT) -> np.ndarray:
    """Every slot's patch with its margin of ``shift`` samples, (slots, wide, wide, 3) uint8 BGR,
    from a rectified view: the view box-filtered to one sample's size, sampled on each slot's grid
    (only the part of the view the slots lie in is filtered: the frame and the trays round it are
    not sampled)."""
    at, box, part = _grid(view, geo, shift)
    blurred = cv2.blur(view.image[part], (box, box))
    return blurred.reshape(-1, blurred.shape[-1]).take(at.ravel(), axis=0).reshape(*at.shape, -1)


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """:func:`samples` (uint8 BGR) in OpenCV's 8-bit Lab, float32, the same shape.  Converted
    as one row of pixels: OpenCV converts a row in blocks, a column of one-pixel rows one by
    one (three times the work; the same Lab for every one of the 16.7 million colours)."""
    return cv2.cvtColor(bgr.reshape(1, -1, 3), cv2.COLOR_BGR2LAB).astype(np.float32).reshape(bgr.shape)


def patches(view: View, geo: SlotGeometry, shift: int = SHIFT) -> np.ndarray:
    """Every slot's patch with its margin of ``shift`` samples, (slots, wide, wide, 3) float32 in
    Lab (:func:`samples` converted)."""
    return to_lab(samples(view, geo, shift))


def _dist(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Mean absolute Lab difference of patches (last three axes), lightness weighted half."""
    d = np.abs(a - b)
    return (0.5 * d[..., 0] + d[..., 1] + d[..., 2]).mean(axis=(-1, -2))


def _core(p: np.ndarray, shift: int = SHIFT) -> np.ndarray:
    """The patch itself, without its margin of ``shift`` samples."""
    return p[..., shift:shift + PATCH, shift:shift + PATCH, :]


def _shifted_dist(wide: np.ndarray, tpl: np.ndarray,
                  dist: Callable[[np.ndarray, np.ndarray], np.ndarray] = _dist) -> np.ndarray:
    """(slots, states): the smallest ``dist`` of each template (slots, states, P, P, 3) to the
    new patch (slots, W, W, 3) shifted by up to its margin ((W - P) / 2 samples) either way."""
    shift = (wide.shape[-2] - PATCH) // 2
    if dist is _dist and shift == SHIFT:
        return _shifted_lab_dist(wide, tpl)
    best = None
    for dy in range(2 * shift + 1):
        for dx in range(2 * shift + 1):
            win = wide[:, None, dy:dy + PATCH, dx:dx + PATCH, :]
            d = dist(win, tpl)
            best = d if best is None else np.minimum(best, d)
    assert best is not None
    return best


_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)  # :func:`_dist`'s channel weights (a power of two: exact)


def _shifted_lab_dist(wide: np.ndarray, tpl: np.ndarray, rows: Optional[list[np.ndarray]] = None) -> np.ndarray:
    """:func:`_shifted_dist` with :func:`_dist`, as OpenCV's row differences and sums: the
    channels weighted first, each shifted patch beside each state's template (``rows``: the
    templates so weighted, :func:`_weighted_rows`, when kept) as one row."""
    n = tpl.shape[0]
    ww = np.asarray(wide, np.float32) * _WEIGHTS
    rows = rows if rows is not None else _weighted_rows(tpl)
    best: Optional[np.ndarray] = None
    for dy in range(2 * SHIFT + 1):
        for dx in range(2 * SHIFT + 1):
            win = np.ascontiguousarray(ww[:, dy:dy + PATCH, dx:dx + PATCH, :]).reshape(n, -1)
            d = np.concatenate([cv2.reduce(cv2.absdiff(win, r), 1, cv2.REDUCE_SUM) for r in rows], axis=1)
            best = d if best is None else np.minimum(best, d)
    assert best is not None
    return best / (PATCH * PATCH)


def _weighted_rows(tpl: np.ndarray) -> list[np.ndarray]:
    """Per state, every slot's template (slots, states, P, P, 3) with :func:`_dist`'s channel
    weights, one row a slot (what :func:`_shifted_lab_dist` compares with)."""
    n = tpl.shape[0]
    return [np.ascontiguousarray((tpl[:, s].astype(np.float32) * _WEIGHTS).reshape(n, -1)) for s in range(tpl.shape[1])]
