"""One camera's dice from frame to frame: the close looks made again only where something changed.

``bgtable read --batch`` reads the pictures of one camera: consecutive ones mostly show the same
board, a few points and the dice changed.  Half of a whole-board search (:func:`vision.dice.find_dice`)
is its close looks at about 96 candidates, most of them at things that are no die and lie where nothing
changed.  :class:`DiceCarry` keeps the camera's last frame seen coarsely (16 px per point width) and
the close looks of its search; on the next frame of the same camera (the same frame size, corners and
board shape) the whole search runs again, candidates and all, but takes the frame before's look at a
candidate (the same place) when nothing changed within the look's reach of it (its window and the
checker a die there may lie on: ``reach`` pw; a change is ``DiceParams.changed`` grey levels on the
coarse views blurred, as :func:`vision.dice.changed_places` measures it); a candidate with no look
kept at its place takes a kept look that found nothing within ``DiceParams.kept_within`` (0.06 pw) when
that is the nearest kept look (sensor noise moves a pip group's centre a little: on rendered games with
fresh noise a line's candidates are two thirds new places; a die found is always looked at again from
its new place).  The pip-like spots the candidates are grouped from are kept alike: the frame before's
where nothing changed within ``SPOT_REACH`` of them (:mod:`vision.dice_candidates`), found again on the
parts of the view around what changed (their pixels on the whole view's grid, so the same spots in the
same order).  A look sees only pixels
within that reach, so when what did not change is truly the same the dice are the whole search's,
field for field; a camera's fresh sensor noise changes what a look would see a little, and then a
kept look may differ from the one made again (``bench/dice_camera.py --sequence``).
"""
from __future__ import annotations

import weakref
from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .dice import DieSeen, Looks, find_dice
from .dice_candidates import SPOT_REACH, chan_max, spot_pixels, spots_at
from .dice_params import DiceParams
from .rectify import View, rectify

__all__ = ["DiceCarry", "carry_for"]

_MARGIN = 0.6   # the rectified views' margin around the playing area (pw), find_dice_in_frame's
_COARSE = 16    # px per pw of the view the frames are compared on, changed_regions'
# how far from its candidate (pw) a close look sees: its window (vision.dice_face: half a side 0.45) and,
# about the die's centre within it, the checker it may lie on (checker_radius + 0.15 = 0.67); and a
# coarse pixel and its blur more
_REACH = 0.45 + 0.67 + 2 / _COARSE


class DiceCarry:
    """Frames of one camera in, the dice on each out (see the module docstring)."""

    def __init__(self, params: DiceParams = DiceParams(), px: int = 64, reach: float = _REACH) -> None:
        self.params = params
        self.px = px
        self.reach = reach
        self.coarse: Optional[View] = None          # the frame before, rectified coarsely
        self.camera: Optional[tuple[object, ...]] = None   # its size, corners and board shape
        self.looks: Looks = {}                      # the close looks of its search
        self.spots: Optional[tuple[tuple[np.ndarray, np.ndarray], ...]] = None   # its pip-like spots (pixels)
        self.valid = 0                              # close looks of the frames before still valid, in all
        self.searched = 0                           # frames searched

    def find(self, frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape = L.BoardShape()) -> list[DieSeen]:
        """The dice on ``frame`` (most confident first, at most 6): :func:`vision.dice.find_dice_in_frame`'s
        whole search, its close looks where nothing changed since the camera's frame before taken from that
        frame's search."""
        camera = (frame.shape, np.asarray(corners, np.float64).tobytes(), shape)
        coarse = rectify(frame, corners, _COARSE, _MARGIN, shape)
        view = rectify(frame, corners, self.px, _MARGIN, shape)
        kept: Looks = {}
        spots = None
        if self.coarse is not None and camera == self.camera:
            changed = self._changed(coarse, self.coarse)
            kept = self._unchanged(coarse, changed)
            spots = self._spots(view, coarse, changed)
        if spots is None:
            spots = spot_pixels(view, self.params)
        looks: Looks = {}
        found = find_dice(view, self.params, corners, shape, kept=kept, looks=looks,
                          spots=spots_at(view, self.params, spots))
        self.valid += len(kept)
        self.searched += 1
        self.coarse, self.camera, self.looks, self.spots = coarse, camera, looks, spots
        return found

    def _changed(self, coarse: View, before: View) -> np.ndarray:
        """Where the frame changed since the frame before, on the coarse views (8 bits, 1: changed)."""
        d = chan_max(cv2.absdiff(cv2.blur(coarse.image, (3, 3)), cv2.blur(before.image, (3, 3))))
        return (d >= self.params.changed).astype(np.uint8)

    def _spots(self, view: View, coarse: View, changed: np.ndarray
               ) -> Optional[tuple[tuple[np.ndarray, np.ndarray], ...]]:
        """The pip-like spots of ``view`` (pixels, :func:`vision.dice_candidates.spot_pixels`): the frame
        before's where nothing changed within their reach, found again in the rest (None: found whole)."""
        if self.spots is None or self.params.spot_px < view.px or view.px % coarse.px:
            return None
        f = view.px // coarse.px
        k = 2 * int(np.ceil((SPOT_REACH + 2 / coarse.px) * coarse.px)) + 1
        near = cv2.dilate(changed, np.ones((k, k), np.uint8))
        n, _lab, stats, _c = cv2.connectedComponentsWithStats(near, connectivity=8)
        H, W = view.image.shape[:2]
        pad = int(np.ceil(SPOT_REACH * view.px)) + f
        found: list[list[tuple[np.ndarray, np.ndarray]]] = [[], []]
        for x, y, w, h, _area in stats[1:]:
            c0, r0 = max(0, x * f - pad), max(0, y * f - pad)
            c1, r1 = min(W, (x + w) * f + pad), min(H, (y + h) * f + pad)
            part = View(view.image[r0:r1, c0:c1], view.px, 0.0, (view.x0 + c0 / view.px, view.y0 + r0 / view.px))
            for colour, (xs, ys) in enumerate(spot_pixels(part, self.params)):
                found[colour].append((xs + c0, ys + r0))
        h, w = near.shape

        def at(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
            return near[np.minimum(ys // f, h - 1), np.minimum(xs // f, w - 1)] > 0

        out = []
        for (old_x, old_y), new in zip(self.spots, found):
            keep = ~at(old_x, old_y)
            xs = np.concatenate([old_x[keep]] + [a for a, _ in new])
            ys = np.concatenate([old_y[keep]] + [b for _, b in new])
            fresh = np.ones(len(xs), bool)
            fresh[: int(keep.sum())] = False
            ok = ~fresh | at(xs, ys)   # a spot found again only where something changed near
            xs, ys = xs[ok], ys[ok]
            order = np.lexsort((xs, ys))   # row by row, as found on the whole view
            xy = np.unique(np.stack([ys[order], xs[order]], axis=1), axis=0)   # crops may overlap
            out.append((xy[:, 1].astype(np.intp), xy[:, 0].astype(np.intp)))
        return out[0], out[1]

    def _unchanged(self, coarse: View, changed: np.ndarray) -> Looks:
        """The close looks of the frame before with nothing changed within ``reach`` of their candidate
        (seen coarsely: :func:`vision.dice.changed_places`' measure, a change of ``params.changed`` grey levels)."""
        if not self.looks:
            return {}
        k = 2 * int(np.ceil(self.reach * coarse.px)) + 1
        near = cv2.dilate(changed, np.ones((k, k), np.uint8))
        H, W = near.shape
        return {(x, y): die for (x, y), die in self.looks.items()
                if not near[min(max(int(round((y - coarse.y0) * coarse.px)), 0), H - 1),
                            min(max(int(round((x - coarse.x0) * coarse.px)), 0), W - 1)]}


_CARRIES: "weakref.WeakKeyDictionary[object, DiceCarry]" = weakref.WeakKeyDictionary()


def carry_for(camera: object) -> DiceCarry:
    """The :class:`DiceCarry` of ``camera`` (any object standing for one camera, e.g. ``read --batch``'s
    reader kept for it), made the first time and kept while ``camera`` lives."""
    carry = _CARRIES.get(camera)
    if carry is None:
        carry = _CARRIES[camera] = DiceCarry()
    return carry
