"""The dice watch keeps one copy of the frame it takes as the board without dice (:mod:`vision.dice_watch`)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision import layout as L
from vision import render as R
from vision.dice_watch import DiceWatch
from vision.render_props import Die

CLEAN = R.RenderParams(noise_max=2, blur_max=0.5, glare_prob=0, shadow_prob=0, jpeg=(90, 95), rotation_max=3,
                       perspective_max=0.02, distortion_max=0.02, flip_prob=0)


class _Counted(np.ndarray):
    """A frame that counts the copies made of it."""

    copies = 0

    def copy(self, *args: Any, **kwargs: Any) -> np.ndarray:  # type: ignore[override]
        _Counted.copies += 1
        return np.asarray(self).copy(*args, **kwargs)


@pytest.mark.parametrize("dice", [[], [Die(5, 9.0, 5.0, angle=20.0, size=0.4)]], ids=["no die", "a die"])
def test_the_first_look_keeps_one_copy_of_the_frame_as_the_board_before(dice: list[Die]) -> None:
    watch = DiceWatch(still=1)
    frames = [R.render_scene(L.start_position(), CLEAN, seed=8, frame=k, dice=dice) for k in range(2)]
    said = None
    for r in frames:
        _Counted.copies = 0
        frame = np.ascontiguousarray(r.image).view(_Counted)
        said = watch.feed(frame, r.corners)
    assert watch.looks == 1 and _Counted.copies == 1   # the look's frame copied once, found a die or none
    assert watch.before is not None and type(watch.before) is np.ndarray
    assert np.array_equal(watch.before, frames[-1].image)
    frame[:] = 0   # the caller's frame used again: the board before is the watch's own
    assert watch.before.any()
    assert [d.value for d in said or ()] == [d.value for d in dice]
    assert watch.lying == tuple(d.board for d in said or ())
