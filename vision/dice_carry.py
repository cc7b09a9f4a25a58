"""One camera's dice from frame to frame: only what changed since the frame before is searched.

``bgtable read --batch`` reads the pictures of one camera: consecutive ones mostly show the same
board, a few points and the dice changed.  :class:`DiceCarry` keeps the last frame it was given and
the dice found on it.  On the next frame of the same camera (the same frame size, corners and board
shape) it compares the two coarsely (:func:`vision.dice.changed_regions`, 16 px per point width,
about a millisecond): a die of the frame before whose centre lies in no changed rectangle is carried
over as it was (its face, its surround and a checker under it are unchanged: a whole search would see
it again as before), the others are looked at again, and new dice are looked for only where the
board changed (:func:`vision.dice.find_dice_in_regions`).  The first frame, a frame of another
camera, and one whose changed rectangles cover more than ``whole`` of the board are searched whole.

The result is the whole search's when the unchanged places are truly unchanged, but for what a whole
search decides over the whole board at once: its 32 strongest stand-out peaks and 96 close looks are
the board's, a changed rectangle gets its own (a die the whole search ranked out may be found), and
at most 6 dice are kept (``bench/dice_camera.py --sequence`` measures both on rendered games).
"""
from __future__ import annotations

import weakref
from typing import Optional

import numpy as np

from . import layout as L
from .dice import (DieSeen, also_regions, find_dice, find_dice_in_views, merge_regions, ranked,
                   regions_between)
from .dice_params import DiceParams
from .rectify import View, rectify

__all__ = ["DiceCarry", "carry_for"]

_MARGIN = 0.6   # the rectified views' margin around the playing area (pw), find_dice_in_frame's
_COARSE = 16    # px per pw of the view the frames are compared on, changed_regions'


class DiceCarry:
    """Frames of one camera in, the dice on each out (see the module docstring).  ``whole``: the
    share of the board (with its margin) that, changed, has the whole board searched."""

    def __init__(self, params: DiceParams = DiceParams(), px: int = 64, whole: float = 0.5) -> None:
        if not 0.0 <= whole <= 1.0:
            raise ValueError(f"DiceCarry whole={whole}: a share of the board is in 0..1")
        self.params = params
        self.px = px
        self.whole = whole
        self.views: Optional[tuple[View, View]] = None   # the frame before, rectified (px, and coarsely)
        self.camera: Optional[tuple[object, ...]] = None   # its size, corners and board shape
        self.dice: tuple[DieSeen, ...] = ()        # the dice found on it
        self.searched_whole = 0                     # frames searched whole (first, new camera, large change)
        self.carried = 0                            # dice carried over unlooked at

    def find(self, frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape = L.BoardShape()) -> list[DieSeen]:
        """The dice on ``frame`` (most confident first, at most 6), as :func:`vision.dice.find_dice_in_frame`
        finds them on the whole board, searching only what changed since the frame before."""
        camera = (frame.shape, np.asarray(corners, np.float64).tobytes(), shape)
        views = (rectify(frame, corners, self.px, _MARGIN, shape), rectify(frame, corners, _COARSE, _MARGIN, shape))
        found: Optional[list[DieSeen]] = None
        if self.views is not None and camera == self.camera:
            found = self._changed(views, self.views, corners, shape)
        if found is None:
            self.searched_whole += 1
            found = find_dice(views[0], self.params, corners, shape)
        self.views, self.camera, self.dice = views, camera, tuple(found)
        return found

    def _changed(self, views: tuple[View, View], before: tuple[View, View], corners: np.ndarray,
                 shape: L.BoardShape) -> Optional[list[DieSeen]]:
        """The dice, searched where the frame changed since the frame before (None: too much changed)."""
        boxes = regions_between(views[1], before[1], self.params)
        if not boxes:
            self.carried += len(self.dice)
            return list(self.dice)
        board = (L.WIDTH + 2 * _MARGIN) * (L.HEIGHT + 2 * _MARGIN)
        if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) > self.whole * board:
            return None
        inside = [any(x0 <= d.board[0] <= x1 and y0 <= d.board[1] <= y1 for x0, y0, x1, y1 in boxes)
                  for d in self.dice]
        kept = [d for d, i in zip(self.dice, inside) if not i]
        again = [d.board for d, i in zip(self.dice, inside) if i]   # looked at whatever changed there
        if again:   # their places in the rectangles (as changed_regions widens them: a die and its surround)
            boxes = merge_regions([*boxes, *also_regions(again, self.params, _MARGIN)])
        found = kept + [d for d in find_dice_in_views(views[0], before[0], boxes, self.params, corners, shape, again)
                        if all(np.hypot(d.board[0] - k.board[0], d.board[1] - k.board[1]) >= 0.2 for k in kept)]
        self.carried += len(kept)
        return ranked(found)


_CARRIES: "weakref.WeakKeyDictionary[object, DiceCarry]" = weakref.WeakKeyDictionary()


def carry_for(camera: object) -> DiceCarry:
    """The :class:`DiceCarry` of ``camera`` (any object standing for one camera, e.g. ``read --batch``'s
    reader kept for it), made the first time and kept while ``camera`` lives."""
    carry = _CARRIES.get(camera)
    if carry is None:
        carry = _CARRIES[camera] = DiceCarry()
    return carry
