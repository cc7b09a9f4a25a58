"""One camera's dice from frame to frame, only what changed searched (:mod:`vision.dice_carry`)."""
from __future__ import annotations

import numpy as np

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision import render as R
from vision.dice import find_dice_in_frame
from vision.dice_carry import DiceCarry
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


def _said(dice: list) -> list[tuple[object, ...]]:
    return [(d.board, d.value, d.confidence, d.on_checker, d.half) for d in dice]


def test_a_die_where_nothing_changed_is_carried_and_a_new_one_found_as_the_whole_search_finds_them() -> None:
    start = L.start_position()
    frames = [_frame(start, [FOUR]), _frame(_moved(start, 6, 4), [FOUR, TWO]), _frame(_moved(start, 6, 4), [TWO])]
    carry = DiceCarry()
    for _ in range(2):   # the whole view's warp map made (the first sight of a geometry is warped plainly)
        find_dice_in_frame(frames[0].image, frames[0].corners)
    got = [carry.find(r.image, r.corners) for r in frames]
    whole = [find_dice_in_frame(r.image, r.corners) for r in frames]
    assert [[d.value for d in g] for g in got] == [[4], [2, 4], [2]]   # equals: left before right
    assert [_said(g) for g in got] == [_said(w) for w in whole]
    assert carry.searched_whole == 1
    assert carry.carried == 2   # the four on the second frame (a checker moved, a die thrown elsewhere), then the two


def test_the_same_frame_again_is_not_searched() -> None:
    r = _frame(L.start_position(), [FOUR])
    carry = DiceCarry()
    first = carry.find(r.image, r.corners)
    again = carry.find(r.image.copy(), r.corners)
    assert again == first and len(first) == 1 and carry.searched_whole == 1 and carry.carried == 1


def test_another_camera_or_a_board_changed_all_over_is_searched_whole() -> None:
    r = _frame(L.start_position(), [FOUR])
    carry = DiceCarry()
    carry.find(r.image, r.corners)
    carry.find(r.image, r.corners + np.float32(2.0))   # the board seen from elsewhere
    assert carry.searched_whole == 2
    other = R.render_scene(L.random_position(np.random.default_rng(3)), CLEAN, seed=8, dice=[])
    assert other.corners.tobytes() == r.corners.tobytes()
    assert carry.find(other.image, other.corners) == find_dice_in_frame(other.image, other.corners)
    carry.find(r.image, r.corners)   # back: most of the board changed again
    assert carry.searched_whole == 4


def test_the_frame_is_not_kept_so_the_caller_may_reuse_its_buffer() -> None:
    r = _frame(L.start_position(), [FOUR])
    carry = DiceCarry()
    buf = r.image.copy()
    first = carry.find(buf, r.corners)
    buf[:] = 0   # a camera's buffer filled with the next frame
    assert carry.find(r.image, r.corners) == first and carry.searched_whole == 1


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
