"""One camera's dice from frame to frame, only what changed searched (:mod:`vision.dice_carry`)."""
from __future__ import annotations

from functools import partial
from typing import Any, Callable

import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision import dice as D
from vision import render as R
from vision.dice import find_dice_in_frame
from vision.dice_candidates import spot_pixels
from vision.dice_carry import DiceCarry
from vision.dice_params import DiceParams
from vision.rectify import rectify
from vision.render_props import Die

CLEAN = R.RenderParams(noise_max=2, blur_max=0.5, glare_prob=0, shadow_prob=0, jpeg=(90, 95), rotation_max=3,
                       perspective_max=0.02, distortion_max=0.02, flip_prob=0)
FOUR = Die(4, 9.0, 5.5, angle=15.0, size=0.4)    # in the right half, between the points
TWO = Die(2, 2.5, 5.5, angle=30.0, size=0.4)      # in the left half


def _moved(pos: BoardEvidence, src: int, dst: int) -> BoardEvidence:
    """``pos`` with one checker from point ``src`` to ``dst`` (table numbers)."""
    pts = list(pos.points)
    colour = pts[src - 1].colour
    pts[src - 1] = PointReading(pts[src - 1].count - 1, colour if pts[src - 1].count > 1 else None)
    pts[dst - 1] = PointReading(pts[dst - 1].count + 1, colour)
    return BoardEvidence(points=tuple(pts), bar=pos.bar, off=pos.off)


def _frame(pos: BoardEvidence, dice: list[Die]) -> R.Rendered:
    return R.render_scene(pos, CLEAN, seed=8, dice=dice)   # the same noise on every frame (frame 0)


class _Looks:
    """Counts the close looks the finder makes (vision.dice._look)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made = 0
        look = D._look

        def counted(*a: Any, **k: Any) -> Any:
            self.made += 1
            return look(*a, **k)

        monkeypatch.setattr(D, "_look", counted)

    def during(self, run: Callable[[], Any]) -> tuple[Any, int]:
        made = self.made
        out = run()
        return out, self.made - made


def test_the_dice_of_each_frame_are_the_whole_searchs_with_the_looks_where_nothing_changed_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    start = L.start_position()
    frames = [_frame(start, [FOUR]), _frame(_moved(start, 6, 4), [FOUR, TWO]), _frame(_moved(start, 6, 4), [TWO])]
    carry = DiceCarry()
    for _ in range(2):   # the whole view's warp map made (the first sight of a geometry is warped plainly)
        find_dice_in_frame(frames[0].image, frames[0].corners)
    looks = _Looks(monkeypatch)
    got, made, whole, made_whole = [], [], [], []
    for r in frames:
        dice, n = looks.during(partial(carry.find, r.image, r.corners))
        got.append(dice)
        made.append(n)
    for r in frames:
        dice, n = looks.during(partial(find_dice_in_frame, r.image, r.corners))
        whole.append(dice)
        made_whole.append(n)
    assert sorted([d.value for d in g] for g in got) == [[2], [2, 4], [4]]
    assert got == whole   # every field
    assert made[0] == made_whole[0] and 0 < 2 * made[2] < made_whole[2]   # the last frame: a die lifted
    # its pip-like spots, kept where nothing changed and found again around the lifted die: the whole view's
    assert carry.spots is not None
    whole_spots = spot_pixels(rectify(frames[2].image, frames[2].corners, 64), DiceParams())
    for (xs, ys), (wx, wy) in zip(carry.spots, whole_spots):
        assert np.array_equal(xs, wx) and np.array_equal(ys, wy) and len(xs) > 10


def test_the_same_frame_again_makes_no_look(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _frame(L.start_position(), [FOUR])
    carry = DiceCarry()
    looks = _Looks(monkeypatch)
    first, made = looks.during(lambda: carry.find(r.image, r.corners))
    again, made_again = looks.during(lambda: carry.find(r.image.copy(), r.corners))
    assert again == first and len(first) == 1 and made > 0 and made_again == 0


def test_another_camera_or_a_board_changed_all_over_looks_again_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _frame(L.start_position(), [FOUR])
    other = R.render_scene(L.random_position(np.random.default_rng(3)), CLEAN, seed=8, dice=[])
    assert other.corners.tobytes() == r.corners.tobytes()
    carry = DiceCarry()
    carry.find(r.image, r.corners)
    assert carry.find(other.image, other.corners) == find_dice_in_frame(other.image, other.corners)
    looks = _Looks(monkeypatch)
    valid = carry.valid
    moved = other.corners + np.float32(2.0)   # the same board seen from elsewhere
    _, made = looks.during(lambda: carry.find(other.image, moved))
    assert carry.valid == valid and made > 40   # no look kept: every candidate looked at


def test_the_frame_is_not_kept_so_the_caller_may_reuse_its_buffer(monkeypatch: pytest.MonkeyPatch) -> None:
    r = _frame(L.start_position(), [FOUR])
    carry = DiceCarry()
    buf = r.image.copy()
    first = carry.find(buf, r.corners)
    buf[:] = 0   # a camera's buffer filled with the next frame
    looks = _Looks(monkeypatch)
    again, made = looks.during(lambda: carry.find(r.image, r.corners))
    assert again == first and made == 0


def test_each_camera_has_its_own_carry_kept_while_it_lives() -> None:
    import gc

    from vision.dice_carry import _CARRIES, carry_for

    class Camera:
        pass

    a, b = Camera(), Camera()
    assert carry_for(a) is carry_for(a) and carry_for(a) is not carry_for(b)
    before = len(_CARRIES)
    del a
    gc.collect()
    assert len(_CARRIES) == before - 1


def test_a_candidate_takes_a_kept_look_at_its_place_or_the_nearest_empty_one_never_a_die_elsewhere() -> None:
    from vision.dice import DieSeen, _taken

    die = DieSeen((2.0, 2.0), None, "left", False, False, 3, 1.0)
    kept = {(1.0, 1.0): None, (2.0, 2.0): die, (2.1, 2.0): None}
    cands = [(2.0, 2.0), (1.03, 1.0), (2.02, 2.0), (2.09, 2.0), (1.5, 1.5)]
    assert _taken(cands, kept, 0.06) == {(2.0, 2.0): die, (1.03, 1.0): None, (2.09, 2.0): None}
    assert _taken(cands, {}, 0.06) == {}


def test_the_kept_view_is_taken_afresh_where_the_frame_changed_and_its_maps_are_its_own() -> None:
    from vision.dice_candidates import coarse_maps

    start = L.start_position()
    frames = [_frame(start, [FOUR]), _frame(_moved(start, 6, 4), [FOUR, TWO])]
    for _ in range(2):   # the whole view's warp map made
        find_dice_in_frame(frames[0].image, frames[0].corners)
    carry = DiceCarry()
    carry.find(frames[0].image, frames[0].corners)
    carry.find(frames[1].image, frames[1].corners)
    assert carry.view is not None and carry.maps is not None
    whole = rectify(frames[1].image, frames[1].corners, 64)
    before = rectify(frames[0].image, frames[0].corners, 64)
    # the same noise on both frames: the kept view is the second frame's but where it changed by less than
    # a change (a soft shadow's edge), by a few levels
    off = np.abs(carry.view.image.astype(int) - whole.image.astype(int)).max(axis=2)
    moved = np.abs(before.image.astype(int) - whole.image.astype(int)).max(axis=2)
    assert off.max() < DiceParams().changed / 2 and (off > 0).sum() < (moved > 0).sum() / 4
    for kept, made in zip(carry.maps, coarse_maps(carry.view, DiceParams())):   # the maps: the kept view's
        assert np.array_equal(kept, made)


def test_the_coarse_maps_worked_out_again_in_boxes_are_those_of_the_whole_view() -> None:
    from vision.dice_candidates import coarse_maps, coarse_maps_again
    from vision.rectify import View

    a = rectify(_frame(L.start_position(), [FOUR]).image, _frame(L.start_position(), [FOUR]).corners, 64)
    other = rectify(R.render_scene(L.random_position(np.random.default_rng(4)), CLEAN, seed=9, dice=[TWO]).image,
                    _frame(L.start_position(), []).corners, 64)
    img = a.image.copy()
    boxes = [(0, 0, 37, 41), (300, 200, 371, 260), (340, 230, 420, 300), (img.shape[1] - 50, img.shape[0] - 30,
                                                                            img.shape[1], img.shape[0])]
    for x0, y0, x1, y1 in boxes:
        img[y0:y1, x0:x1] = other.image[y0:y1, x0:x1]
    b = View(img, a.px, a.margin)
    p = DiceParams()
    again = coarse_maps_again(tuple(m.copy() for m in coarse_maps(a, p)), b, p, boxes)  # type: ignore[arg-type]
    for kept, made in zip(again, coarse_maps(b, p)):
        assert np.array_equal(kept, made)
    assert not np.array_equal(coarse_maps(a, p)[1], again[1])   # (the boxes did change the measure)


def test_a_light_change_all_over_takes_the_whole_view_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    r = _frame(L.start_position(), [FOUR])
    brighter = cv2.add(r.image, (15, 15, 15, 0))   # below a change (25 levels), but everywhere
    for _ in range(2):
        find_dice_in_frame(brighter, r.corners)
    carry = DiceCarry()
    carry.find(r.image, r.corners)
    looks = _Looks(monkeypatch)
    got, made = looks.during(lambda: carry.find(brighter, r.corners))
    assert carry.view is not None and np.array_equal(carry.view.image, rectify(brighter, r.corners, 64).image)
    assert got == find_dice_in_frame(brighter, r.corners) and made > 40   # every candidate looked at again
