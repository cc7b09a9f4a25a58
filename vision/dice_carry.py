"""One camera's dice from frame to frame: its view kept, and searched again only where it changed.

``bgtable read --batch`` reads the pictures of one camera: consecutive ones mostly show the same
board, a few points and the dice changed.  :class:`DiceCarry` keeps the camera's rectified view (64 px
per point width, as :func:`vision.dice.find_dice_in_frame` warps it) and what its search worked out:
the coarse search's maps (:func:`vision.dice_candidates.coarse_maps`), the pip-like spots and the close
looks.  On the next frame of the same camera (the same frame size, corners and board shape) the frame
is rectified coarsely (16 px per pw) and compared, pixel by pixel, with the coarse view of what the kept
view shows: where a channel moved by ``DiceParams.changed`` grey levels or more (with the fainter change
about it: its pieces of half a change, a shadow's or a blur's; widened by 1/8 pw) the kept view is
taken afresh from the frame, in rectangles, through the whole view's own warp maps (the same pixels);
elsewhere it keeps the pixels it had.  Then the whole search runs on the kept view, candidates, ranks
and all, its maps (and their peaks) and spots worked out again only within their reach of what was taken
afresh (each on a crop that reach wider again, taken only where the crop is the whole view's), and a
close look kept wherever it saw nothing taken afresh (its window; for a die found, the checker it may
lie on too); a candidate with no look kept at its place takes a kept look that found nothing within
``DiceParams.kept_within`` (0.06 pw) when that is the nearest kept look.  So a line's dice are the whole
search's on the kept view, field for field, and nothing changed is no search at all (the dice before).
Taken whole again: a new camera, more than half the view changed, or more than ``_DRIFT`` of the rest
moved by half a change (the light: what is kept never drifts far from what the camera sees).

What is kept is a frame before's pixels where the camera saw no change: on rendered games drawn with the
same sensor noise on every frame the dice are the whole search's on 70 of 72 lines (a soft change of
less than half a change left out; the carry before this kept view: 72), with fresh noise on each frame
40 of 72 (before: 42), found 53 of 96 dice drawn and 40 right and sure against the whole search's 50
and 37 (the carry before: 50 and 36), none wrong while sure (``bench/dice_camera.py --sequence 3``, with
``--same-noise``).  Close looks made a rendered game's line (``bench/vision_batch.py``'s game): 27.5 -> 14.7.
"""
from __future__ import annotations

import math
import weakref
from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .dice import DieSeen, Looks, camera_foot, find_dice
from .dice_candidates import (SPOT_REACH, CoarseMaps, chan_max, coarse_maps, coarse_maps_again, ring_peaks,
                              ring_peaks_again, spot_pixels, spots_at)
from .dice_params import DiceParams
from .rectify import View, bgra_part, rectify, view_extent, warp_maps

__all__ = ["DiceCarry", "carry_for", "grown_pieces", "sorted_unique"]

_MARGIN = 0.6   # the rectified views' margin around the playing area (pw), find_dice_in_frame's
_COARSE = 16    # px per pw of the view the frames are compared on, changed_regions'
_WIDEN = 2      # coarse px (1/8 pw) the places that changed are widened by before the view is taken afresh there
_LOW = 0.5     # ... and the fainter change about it, by this share of a change
_WHOLE = 0.5    # more of the view than this changed: the whole view is warped afresh
_DRIFT = 0.05   # ... or more than this of the rest by half a change (rendered games, fresh noise: 0.04-0.14 %)


class DiceCarry:
    """Frames of one camera in, the dice on each out (see the module docstring)."""

    def __init__(self, params: DiceParams = DiceParams(), px: int = 64) -> None:
        self.params = params
        self.px = px
        self.coarse: Optional[View] = None          # what the kept view shows, rectified coarsely
        self.view: Optional[View] = None            # the camera's view (px per pw), taken afresh where it changed
        self.grey: Optional[np.ndarray] = None      # ... in grey levels (its spots' picture), kept alike
        self.found: list[DieSeen] = []              # the dice on it
        self.maps: Optional[CoarseMaps] = None      # its coarse search's maps (vision.dice_candidates.coarse_maps)
        self.peaks: Optional[np.ndarray] = None     # ... their stand-out measure's peaks (ring_peaks)
        self._shifted: Optional[tuple] = None       # the coarse warp's maps into the kept view's warp's part
        self.camera: Optional[tuple[object, ...]] = None   # its size, corners and board shape
        self.looks: Looks = {}                      # the close looks of its search
        self.spots: Optional[tuple[tuple[np.ndarray, np.ndarray], ...]] = None   # its pip-like spots (pixels)
        self.valid = 0                              # close looks of the frames before still valid, in all
        self.searched = 0                           # frames searched

    def find(self, frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape = L.BoardShape()) -> list[DieSeen]:
        """The dice on ``frame`` (most confident first, at most 6): :func:`vision.dice.find_dice_in_frame`'s
        whole search on the camera's view, its pixels taken afresh only where the frame changed since
        the view was last taken there (:meth:`_refresh`), its close looks and pip-like spots where
        nothing was taken afresh kept from the search before; nothing taken afresh: that search's dice."""
        camera = (frame.shape, np.asarray(corners, np.float64).tobytes(), shape)
        kept: Looks = {}
        spots = None
        boxes = None
        if self.coarse is not None and self.view is not None and camera == self.camera:
            coarse, src = self._coarse(frame, corners, shape)
            boxes = self._refresh(frame, corners, shape, coarse, src)
        else:
            coarse = rectify(frame, corners, _COARSE, _MARGIN, shape, own=True)
        if boxes is None:   # a new camera, or the board changed all over: the whole view
            # (its warp's maps made first: a first sight of a geometry is warped plainly, and the parts
            # taken afresh later are the maps' pixels)
            W, H = (int(round((v + 2 * _MARGIN) * self.px)) for v in view_extent(shape, own=True))
            warp_maps(corners, frame.shape, self.px, -_MARGIN, -_MARGIN, (W, H), shape, own=True)
            view = self.view = rectify(frame, corners, self.px, _MARGIN, shape, own=True)
            self.grey = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY)
            self.coarse = coarse
            self.maps = coarse_maps(view, self.params)
            self.peaks = ring_peaks(self.maps[1], self.params)
        elif not boxes:     # nothing changed: the same view, the same dice
            self.searched += 1
            self.valid += len(self.looks)
            return list(self.found)
        else:
            assert self.view is not None
            view = self.view
            fresh = np.zeros(coarse.image.shape[:2], np.uint8)
            for x0, y0, x1, y1 in boxes:
                fresh[y0:y1, x0:x1] = 1
            kept = self._unchanged(view, coarse, fresh)
            spots = self._spots(view, coarse, boxes)
            assert self.maps is not None and self.peaks is not None
            parts: list[tuple[int, int, int, int]] = []
            self.maps = coarse_maps_again(self.maps, view, self.params, self._view_boxes(view, coarse, boxes), parts)
            self.peaks = ring_peaks_again(self.peaks, self.maps[1], self.params, parts)
        if spots is None:
            spots = spot_pixels(view, self.params, grey=self.grey)
        looks: Looks = {}
        found = find_dice(view, self.params, corners, shape, kept=kept, looks=looks,
                          spots=spots_at(view, self.params, spots), maps=self.maps, peaks=self.peaks,
                          foot=camera_foot(frame.shape, corners, shape))
        self.valid += len(kept)
        self.searched += 1
        self.camera, self.looks, self.spots, self.found = camera, looks, spots, found
        return list(found)

    def _coarse(self, frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape
                ) -> "tuple[View, Optional[np.ndarray]]":
        """The frame rectified coarsely (:func:`vision.rectify.rectify` at ``_COARSE`` px per pw: the same
        pixels) and the part of the frame the kept view's warp reads, as BGRA (None: no kept warp): the
        coarse view is remapped from that part (the frame's part converted once a line, not twice)."""
        H, W = self.view.image.shape[:2] if self.view is not None else (0, 0)
        fine = warp_maps(corners, frame.shape, self.px, -_MARGIN, -_MARGIN, (W, H), shape, own=True)
        size = tuple(int(round((v + 2 * _MARGIN) * _COARSE)) for v in view_extent(shape, own=True))
        warp = warp_maps(corners, frame.shape, _COARSE, -_MARGIN, -_MARGIN, size, shape, own=True)  # type: ignore[arg-type]
        if fine is None or warp is None or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3 \
                or not (fine.x0 <= warp.x0 and fine.y0 <= warp.y0 and warp.x1 <= fine.x1 and warp.y1 <= fine.y1):
            return rectify(frame, corners, _COARSE, _MARGIN, shape, own=True), None
        if self._shifted is None or self._shifted[0] is not warp or self._shifted[1] is not fine:
            # the coarse warp's maps made relative to the fine warp's part (whole pixels added: exact)
            self._shifted = (warp, fine, warp.mx + np.float32(warp.x0 - fine.x0),
                             warp.my + np.float32(warp.y0 - fine.y0))
        src = bgra_part(frame, fine)
        out = cv2.remap(src, self._shifted[2], self._shifted[3], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return View(cv2.cvtColor(out, cv2.COLOR_BGRA2BGR), _COARSE, _MARGIN), src

    def _refresh(self, frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape, coarse: View,
                 src: Optional[np.ndarray] = None) -> Optional[list[tuple[int, int, int, int]]]:
        """The kept view's pixels taken afresh from ``frame`` where it changed since they were taken (seen
        coarsely: a channel's level ``params.changed`` or more apart, pixel by pixel (unblurred: a stack's
        checkers shifted a little when one is added change their sharp rims by less than a blurred view
        tells), against the coarse view of what the kept view shows, widened by
        ``_WIDEN`` coarse px so a thing's faint edge and shadow come with it), in rectangles of the coarse
        grid (x0, y0, x1, y1, coarse px, ends excluded), the coarse view kept alike; the same pixels as
        the whole view's warp (its maps, cut to each rectangle).  Empty: nothing changed; None: more than
        ``_WHOLE`` of the view changed, or more than ``_DRIFT`` of the rest by half a change (the light), or no
        kept warp (the whole view is warped afresh)."""
        assert self.coarse is not None and self.view is not None
        d = chan_max(cv2.absdiff(coarse.image, self.coarse.image))
        changed = _at_least(d, self.params.changed).astype(np.uint8)
        if _LOW and changed.any():
            # with what changed, the fainter change around it (a shadow, a blur): the pieces of half a change
            # that hold a change
            low = _at_least(d, self.params.changed * _LOW).astype(np.uint8)
            n, lab = cv2.connectedComponents(low, connectivity=8, ltype=cv2.CV_16U)
            hold = np.zeros(n, np.uint8)
            hold[lab[changed > 0]] = 1
            hold[0] = 0
            changed = hold.take(lab)  # type: ignore[arg-type]
        k = 2 * _WIDEN + 1
        near = cv2.dilate(changed, np.ones((k, k), np.uint8))
        # the light changed (or the picture drifted) all over, by less than a change: the whole view afresh,
        # so what is kept never lies far from what the camera sees
        if float(np.count_nonzero(_at_least(d, self.params.changed / 2) & (near == 0))) > _DRIFT * near.size:
            return None
        if not changed.any():
            return []
        # (16-bit labels: the same boxes, their sums two to three times faster than with 32-bit ones)
        n, _lab, stats, _c = cv2.connectedComponentsWithStats(near, connectivity=8, ltype=cv2.CV_16U)
        boxes = [(int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _a in stats[1:]]
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) > _WHOLE * near.size:
            return None
        view = self.view
        f = view.px // coarse.px
        H, W = view.image.shape[:2]
        warp = warp_maps(corners, frame.shape, view.px, view.x0, view.y0, (W, H), shape, own=True)
        if warp is None or view.px % coarse.px or view.image.dtype != np.uint8 or frame.dtype != np.uint8 \
                or frame.ndim != 3 or frame.shape[2] != 3 or H > (coarse.image.shape[0] + 1) * f \
                or W > (coarse.image.shape[1] + 1) * f:
            return None
        if src is None:
            src = bgra_part(frame, warp)   # (rectify's: the frame's part the warp reads, as BGRA)
        for (x0, y0, x1, y1), (c0, r0, c1, r1) in zip(boxes, self._view_boxes(view, coarse, boxes)):
            if c0 >= c1 or r0 >= r1:
                continue
            part = cv2.remap(src, warp.mx[r0:r1, c0:c1], warp.my[r0:r1, c0:c1], cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
            cv2.cvtColor(part, cv2.COLOR_BGRA2BGR, dst=view.image[r0:r1, c0:c1])
            if self.grey is not None:   # (a pixel's grey level is its own: the whole view's, converted here)
                cv2.cvtColor(view.image[r0:r1, c0:c1], cv2.COLOR_BGR2GRAY, dst=self.grey[r0:r1, c0:c1])
            self.coarse.image[y0:y1, x0:x1] = coarse.image[y0:y1, x0:x1]
        return boxes

    @staticmethod
    def _view_boxes(view: View, coarse: View, boxes: list[tuple[int, int, int, int]]
                    ) -> list[tuple[int, int, int, int]]:
        """The rectangles of coarse px ``boxes`` in ``view``'s px (x0, y0, x1, y1, ends excluded; the view's
        last pixels past the coarse grid's go with its last ones)."""
        f = view.px // coarse.px
        H, W = view.image.shape[:2]
        ch, cw = coarse.image.shape[:2]
        return [(x0 * f, y0 * f, W if x1 >= cw else min(x1 * f, W), H if y1 >= ch else min(y1 * f, H))
                for x0, y0, x1, y1 in boxes]

    def _spots(self, view: View, coarse: View, boxes: list[tuple[int, int, int, int]]
               ) -> Optional[tuple[tuple[np.ndarray, np.ndarray], ...]]:
        """The pip-like spots of ``view`` (pixels, :func:`vision.dice_candidates.spot_pixels`): the frame
        before's where nothing changed within their reach, found again in the rest (None: found whole).
        ``boxes``: the coarse rectangles taken afresh (x0, y0, x1, y1, ends excluded)."""
        if self.spots is None or self.params.spot_px < view.px or view.px % coarse.px:
            return None
        grey = self.grey if view is self.view else None   # (the kept view's grey levels, kept alike)
        f = view.px // coarse.px
        # a spot is found from the view's pixels within SPOT_REACH of it (px, rounded up): those within that
        # reach of a pixel taken afresh, the coarse pixels of them (the rectangles grown by the reach in
        # coarse px, rounded up), are found again, on crops that reach as far about them
        pad = int(np.ceil(SPOT_REACH * view.px))
        reach = -(-pad // f)
        h, w = coarse.image.shape[:2]
        # (the pieces' boxes worked out from the rectangles themselves: no image dilated nor labelled)
        grown = np.asarray([(max(x0 - reach, 0), max(y0 - reach, 0), min(x1 + reach, w), min(y1 + reach, h))
                            for x0, y0, x1, y1 in boxes], np.int64).reshape(-1, 4)
        H, W = view.image.shape[:2]
        found: list[list[tuple[np.ndarray, np.ndarray]]] = [[], []]
        for x0, y0, x1, y1 in grown_pieces(grown):
            # (at an even pixel: the wide blur's half-scale grid is the whole view's, dice_candidates._blurred_wide)
            c0, r0 = max(0, x0 * f - pad) & ~1, max(0, y0 * f - pad) & ~1
            c1, r1 = min(W, x1 * f + pad), min(H, y1 * f + pad)
            part = View(view.image[r0:r1, c0:c1], view.px, 0.0, (view.x0 + c0 / view.px, view.y0 + r0 / view.px))
            # a crop's spots taken only within its own piece's box (coarse px; in the crop's px, the view's last
            # px past the coarse grid's going with its last ones): the crop reaches SPOT_REACH about it, so each
            # is the whole view's there (not near the crop's edge, in another piece)
            box = (x0 * f - c0, y0 * f - r0, (x1 * f if x1 < w else W) - c0, (y1 * f if y1 < h else H) - r0)
            for colour, (xs, ys) in enumerate(spot_pixels(part, self.params, box,
                                                          None if grey is None else grey[r0:r1, c0:c1])):
                found[colour].append((xs + c0, ys + r0))

        near = np.zeros((h, w), bool)   # the coarse px within reach of a rectangle taken afresh
        for x0, y0, x1, y1 in grown.tolist():
            near[y0:y1, x0:x1] = True

        def at(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
            return near[np.minimum(ys // f, h - 1), np.minimum(xs // f, w - 1)]

        out = []
        for (old_x, old_y), new in zip(self.spots, found):
            keep = ~at(old_x, old_y)
            xs = np.concatenate([old_x[keep]] + [a for a, _ in new])
            ys = np.concatenate([old_y[keep]] + [b for _, b in new])
            fresh = np.ones(len(xs), bool)
            fresh[: int(keep.sum())] = False
            ok = ~fresh | at(xs, ys)   # a spot found again only where something changed near
            xs, ys = xs[ok], ys[ok]
            # row by row, as found on the whole view, each once (crops may overlap): one key a pixel
            # (its row, then its column), sorted and made unique at once
            key = sorted_unique(ys.astype(np.int64) * (W + 1) + xs)
            out.append(((key % (W + 1)).astype(np.intp), (key // (W + 1)).astype(np.intp)))
        return out[0], out[1]

    def _unchanged(self, view: View, coarse: View, fresh: np.ndarray) -> Looks:
        """The close looks of the search before that saw no pixel taken afresh (``fresh``: 1 on the coarse
        grid where the view was, each coarse pixel ``view.px // coarse.px`` view pixels a side): a look that
        found no die saw its window (:func:`vision.dice_face.face_at`), one that found a die that and the
        checker about the die (:func:`vision.dice_face.on_checker_at`, about a centre within the window)."""
        if not self.looks:
            return {}
        f = view.px // coarse.px
        win = int(round(self.params.max_extent * 0.62 * view.px))         # the window's half side, px
        rim = win + int(round((self.params.checker_radius[1] + 0.15) * view.px)) + 2
        ii = cv2.integral(fresh)
        H, W = fresh.shape[:2]
        places = list(self.looks)
        xy = np.asarray(places, np.float64).reshape(-1, 2)
        u = np.round((xy[:, 0] - view.x0) * view.px).astype(np.int64)
        v = np.round((xy[:, 1] - view.y0) * view.px).astype(np.int64)
        reach = np.asarray([win if self.looks[c] is None else rim for c in places], np.int64)

        def coarse_px(a: np.ndarray, n: int) -> np.ndarray:
            return np.clip(a // f, 0, n)

        x0, x1 = coarse_px(u - reach, W), coarse_px(u + reach, W - 1) + 1
        y0, y1 = coarse_px(v - reach, H), coarse_px(v + reach, H - 1) + 1
        seen = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
        return {c: self.looks[c] for c, n in zip(places, seen.tolist()) if n == 0}


def _at_least(levels: np.ndarray, least: float) -> np.ndarray:
    """Where the whole grey ``levels`` (8 bits) are ``least`` or more: those at least its ceiling (the
    same test; against a float, numpy compares every level as a float, several times slower)."""
    return levels >= math.ceil(least)


def sorted_unique(a: np.ndarray) -> np.ndarray:
    """:func:`numpy.unique` of the 1-d integer array ``a`` (the same values, sorted): one sort and one
    comparison of neighbours.  (``np.unique`` asks whether its input is masked, which imports
    ``numpy.ma`` the first time, some 8 ms: the dice's child process paid it on its second line.)"""
    a = np.sort(a)
    if len(a) < 2:
        return a
    first = np.empty(len(a), bool)
    first[0] = True
    np.not_equal(a[1:], a[:-1], out=first[1:])
    return a[first]


def grown_pieces(rects: "np.ndarray | list[tuple[int, int, int, int]]") -> list[tuple[int, int, int, int]]:
    """The boxes (x0, y0, x1, y1, ends excluded) of the pieces (8-connected) of the union of ``rects``
    (the same form, none empty): the boxes :func:`cv2.connectedComponentsWithStats` gives of the union
    drawn on an image, in no set order.  Two rectangles are of one piece when a chain of rectangles joins
    them, each overlapping or touching the next (a corner's pixel beside the other's included)."""
    rs = [tuple(int(v) for v in r) for r in rects]
    group = list(range(len(rs)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i, a in enumerate(rs):
        for j in range(i + 1, len(rs)):
            b = rs[j]
            if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                group[root(j)] = root(i)
    boxes: dict[int, tuple[int, int, int, int]] = {}
    for i, r in enumerate(rs):
        k = root(i)
        q = boxes.get(k, r)
        boxes[k] = (min(q[0], r[0]), min(q[1], r[1]), max(q[2], r[2]), max(q[3], r[3]))
    return list(boxes.values())


_CARRIES: "weakref.WeakKeyDictionary[object, DiceCarry]" = weakref.WeakKeyDictionary()


def carry_for(camera: object) -> DiceCarry:
    """The :class:`DiceCarry` of ``camera`` (any object standing for one camera, e.g. ``read --batch``'s
    reader kept for it), made the first time and kept while ``camera`` lives."""
    carry = _CARRIES.get(camera)
    if carry is None:
        carry = _CARRIES[camera] = DiceCarry()
    return carry
