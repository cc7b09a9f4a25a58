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
