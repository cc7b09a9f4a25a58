"""The camera watching the dice: the dice finder run when the dice come to rest, not every frame.

:class:`DiceWatch` is fed every frame with the playing area's corners.  It keeps a coarse view of
the board (16 px per point width, about a millisecond) to see when the board is still, and a frame
of the board without dice (the last still frame on which no die was found).  Once the board has
been still for ``still`` frames it looks for dice once, only where the board changed since that
frame (:func:`vision.dice.find_dice_in_frame` with ``before``), and says what it found when that
differs from what it last said: the dice (thrown, moved, read more surely) or none (lifted).
A hand over the board, or a die still rolling, is movement: nothing is looked at until it stops.

The first still board is searched whole: dice may lie on it already (left from the last throw when
the table starts).  Only the dice read surely count there (a whole board shows more things like a
die than the places a throw changed; an unsure one is taken as part of the board, and found when it
is thrown again).  That frame is then the board "without dice", the places of the dice on it looked
at every time (``also``) until a look finds no die: then the board as it is replaces it.
"""
from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .dice import DieSeen, find_dice_in_frame, zone
from .dice_params import DiceParams
from .rectify import rectify


class DiceWatch:
    """Frames in, the dice at rest out (when they change); see the module docstring."""

    def __init__(self, params: DiceParams = DiceParams(), still: int = 3, px: int = 64,
                 moving: float = 25.0, moving_share: float = 0.002) -> None:
        if still < 1:
            raise ValueError(f"DiceWatch still={still}: the board must be still for at least 1 frame")
        self.params = params
        self.still = still
        self.px = px
        self.moving = moving              # grey levels a coarse pixel changes by between frames ...
        self.moving_share = moving_share  # ... on more than this share of the board: movement
        self.before: Optional[np.ndarray] = None  # a still frame of the board without dice (but ``lying``)
        self.lying: tuple[tuple[float, float], ...] = ()  # where dice lay on ``before`` (layout pw)
        self.seen: tuple[DieSeen, ...] = ()       # the dice last said
        self.looks = 0                            # times the dice finder ran
        self._thumb: Optional[np.ndarray] = None
        self._quiet = 0
        self._looked = False

    def _moved(self, frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape) -> bool:
        thumb = cv2.cvtColor(rectify(frame, corners, 16, shape=shape).image, cv2.COLOR_BGR2GRAY)
        last, self._thumb = self._thumb, thumb
        if last is None or last.shape != thumb.shape:
            return True
        changed = cv2.threshold(cv2.absdiff(thumb, last), self.moving, 255, cv2.THRESH_BINARY)[1]
        return cv2.countNonZero(changed) / changed.size > self.moving_share  # (as numpy's mean of d > moving)

    def feed(self, frame: np.ndarray, corners: Optional[np.ndarray], shape: L.BoardShape = L.BoardShape(),
             setup: L.SetUp = L.SetUp()) -> Optional[tuple[DieSeen, ...]]:
        """One frame: the dice at rest when what is seen of them changed (empty: none any more),
        else None (nothing new, still moving, or no board found)."""
        if corners is None:
            return None
        if self._moved(frame, corners, shape):
            self._quiet, self._looked = 0, False
            return None
        self._quiet += 1
        if self._quiet < self.still or self._looked:
            return None
        self._looked = True
        self.looks += 1
        lying: Optional[tuple[tuple[float, float], ...]] = None   # new places of dice on ``before``
        if self.before is None:  # the first still board: searched whole, its surely read dice taken
            dice = tuple(d for d in find_dice_in_frame(frame, corners, shape, self.params, self.px)
                         if d.sure(self.params))
            lying = tuple(d.board for d in dice)
        else:
            dice = tuple(find_dice_in_frame(frame, corners, shape, self.params, self.px, before=self.before,
                                            also=self.lying))
        if not dice:  # the board as it is now, without dice (checkers may have moved)
            lying = ()
        if lying is not None:   # (one copy of the frame, whichever way it became the board before)
            self.before, self.lying = frame.copy(), lying
        if _said(dice, setup, self.params) == _said(self.seen, setup, self.params):
            return None
        self.seen = dice
        return dice


def _said(dice: tuple[DieSeen, ...], setup: L.SetUp, params: DiceParams) -> tuple[tuple[object, ...], ...]:
    """What the referee is told of the dice, without their exact place: a new view only when it differs."""
    return tuple(sorted((zone(d, setup), d.value if d.sure(params) else 0, d.on_checker) for d in dice))
