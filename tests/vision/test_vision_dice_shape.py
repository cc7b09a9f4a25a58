"""The dice finder on boards of other shapes than the layout's: a die in the gap between the rows of a
taller or shorter board is searched on a view in the board's own coordinates (one scale all over), so
it stays square; its place is told in layout coordinates, as every other place."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import dice as D
from vision import layout as L
from vision import render as R
from vision.dice_carry import DiceCarry
from vision.rectify import rectify
from vision.render_props import Die

EMPTY = BoardEvidence(points=tuple([PointReading(0)] * 24), bar=(0, 0), off=(0, 15))
CLEAN = R.RenderParams(noise_max=2, blur_max=0.5, glare_prob=0, shadow_prob=0, jpeg=(90, 95), rotation_max=3,
                       perspective_max=0.02, distortion_max=0.02, flip_prob=0)   # (test_vision_dice's)


@pytest.mark.parametrize("bar,height", [(1.0, 11.0), (0.6, 10.2), (1.4, 12.5), (0.8, 14.0)])
def test_own_coordinates_to_the_layout_and_back(bar: float, height: float) -> None:
    shape = L.BoardShape(bar=bar, height=height)
    rng = np.random.default_rng(3)
    x, y = rng.uniform(-0.5, L.WIDTH + 0.5, 500), rng.uniform(-0.5, L.HEIGHT + 0.5, 500)
    keep = (x <= L.BAR_LEFT) | (x >= L.BAR_RIGHT) | (bar <= 1.0)   # a wider bar's sides: not on the layout
    xr, yr = shape.to_real(x, y)
    xl, yl = shape.to_layout(xr, yr)
    assert np.allclose(xl[keep], x[keep]) and np.allclose(yl, y)
    # a wider bar's sides, not shown on the layout's bar, go to its nearer edge
    sides = shape.to_layout(np.array([L.BAR_LEFT + 0.01, L.BAR_LEFT + shape.bar - 0.01]), np.array([5.0, 5.0]))[0]
    assert L.BAR_LEFT <= sides[0] < sides[1] <= L.BAR_RIGHT


def test_the_own_view_keeps_one_scale_and_the_layouts_own_shape_is_the_same_view() -> None:
    shape = L.BoardShape(bar=0.7, height=10.2)
    r = R.render_scene(EMPTY, R.RenderParams(shape=shape), seed=5)
    own = rectify(r.image, r.corners, 32, shape=shape, own=True)
    assert own.image.shape[:2] == (round((shape.height + 1.2) * 32), round((shape.width + 1.2) * 32))
    assert own.frame is not None and own.frame.own and bool(own.in_frame(np.array([shape.width]), np.array([5.1]))[0])
    plain = R.render_scene(EMPTY, R.RenderParams(), seed=5)
    rectify(plain.image, plain.corners, 32)   # (a geometry's first warp is a plain one, then its maps: both alike)
    a = rectify(plain.image, plain.corners, 32, own=True)
    b = rectify(plain.image, plain.corners, 32)
    assert np.array_equal(a.image, b.image) and not a.frame.own


@pytest.mark.parametrize("height,y", [(10.2, 5.1), (12.5, 6.25), (14.0, 7.0)])
def test_a_die_between_the_rows_of_a_board_of_another_height_is_read(height: float, y: float) -> None:
    """The checkers' view stretches the gap between the rows of a board 10.2 point widths high five
    times over (and squeezes a 14 high one to a quarter): a die lying there was no square face in it."""
    shape = L.BoardShape(bar=0.8, height=height)
    dice = [Die(5, 3.2, y, angle=15.0, size=0.4), Die(3, 4.2 + shape.bar + 5.0, y, angle=-25.0, size=0.4)]
    r = R.render_scene(EMPTY, replace(CLEAN, shape=shape), seed=11, dice=dice)
    for got in (D.find_dice_in_frame(r.image, r.corners, shape), DiceCarry().find(r.image, r.corners, shape)):
        assert len(got) == 2, got
        for d, t in zip(dice, r.dice):
            g = min(got, key=lambda g: np.hypot(g.image[0] - t.centre[0], g.image[1] - t.centre[1]))
            assert np.hypot(g.image[0] - t.centre[0], g.image[1] - t.centre[1]) < 6, g
            assert g.value == d.value and g.sure(), g
            assert g.half == t.half and not g.off_board and g.where == 1.0, g
            # the place in layout coordinates: the gap between the rows is the layout's 5..6
            assert L.POINT_LEN < g.board[1] < L.HEIGHT - L.POINT_LEN, g
            assert abs(g.side - 0.4) < 0.06, g   # measured square and true to size


def test_a_die_thrown_on_a_board_of_another_shape_is_found_where_it_changed() -> None:
    shape = L.BoardShape(bar=1.3, height=12.2)
    dice = [Die(6, 2.5, 6.1, angle=35.0, size=0.42), Die(2, 10.5, 5.6, angle=5.0, size=0.42)]
    params = replace(CLEAN, shape=shape)
    r = R.render_scene(EMPTY, params, seed=2, dice=dice)
    then = R.render_scene(EMPTY, params, seed=2, dice=[]).image
    got = D.find_dice_in_frame(r.image, r.corners, shape, before=then)
    assert sorted(g.value for g in got if g.sure()) == [2, 6]
    # a die's place lying before (layout pw) is looked at again though nothing changed there
    left = min(got, key=lambda g: g.board[0])
    again = D.find_dice_in_frame(r.image, r.corners, shape, before=r.image, also=[left.board])
    assert [(g.value, g.sure()) for g in again] == [(6, True)]


def test_the_camera_foot_is_the_board_point_under_the_pictures_centre() -> None:
    shape = L.BoardShape(bar=0.8, height=12.0)
    r = R.render_scene(EMPTY, replace(CLEAN, shape=shape), seed=4)
    fx, fy = D.camera_foot(r.image.shape, r.corners, shape)
    to_img = np.asarray(D._to_image(r.corners, shape), np.float64)
    u, v, w = to_img @ np.array([fx, fy, 1.0])
    assert abs(u / w - r.image.shape[1] / 2) < 0.01 and abs(v / w - r.image.shape[0] / 2) < 0.01
    assert 0 < fx < shape.width and 0 < fy < shape.height   # (the board fills the picture's middle)


def test_a_die_seen_off_the_cameras_axis_is_read_on_its_top_face() -> None:
    """A camera over the board sees a die away from its foot with the side faces turned towards it, of the
    die's own colour, and the 3 x 3 pip places of the whole region misread it; read on the square of the
    region's shorter side at its end away from the foot, more dice are read right and sure, none wrong.
    (A seeded sample of rendered real-table throws; ``bench/dice_camera.py`` measures 600 dice a run.)"""
    rng = np.random.default_rng(0)
    right = {True: 0, False: 0}
    wrong = {True: 0, False: 0}
    for i in range(40):
        shape = L.BoardShape(bar=float(rng.choice([1.0, 0.75])))
        params = R.RenderParams.real_table(bar=shape.bar, dice_prob=1.0)
        r = R.render_scene(L.random_position(rng), params, seed=i)
        rectify(r.image, r.corners, 64, shape=shape, own=True)   # (a geometry's first warp: then its maps)
        view = rectify(r.image, r.corners, 64, shape=shape, own=True)
        foot = D.camera_foot(r.image.shape, r.corners, shape)
        for with_foot in (True, False):
            got = D.find_dice(view, D.DiceParams(), r.corners, shape, foot=foot if with_foot else None)
            for g in got:
                if not g.sure():
                    continue
                assert g.image is not None
                t = min(r.dice, key=lambda t: np.hypot(t.centre[0] - g.image[0], t.centre[1] - g.image[1]))
                near = np.hypot(t.centre[0] - g.image[0], t.centre[1] - g.image[1]) < 15
                right[with_foot] += near and g.value == t.value
                wrong[with_foot] += not near or g.value != t.value
    assert wrong == {True: 0, False: 0}
    assert right[True] >= right[False] + 3, right


def test_a_die_at_the_cameras_foot_has_no_side_face_to_read_past() -> None:
    r = R.render_scene(EMPTY, CLEAN, seed=1)
    view = rectify(r.image, r.corners, 64)
    x, y = view.to_px(3.0, 3.0)
    rect = ((x, y), (36.0, 30.0), 0.0)   # long along x: the die's side face towards a foot to its right or left
    assert D.top_face(view, rect, (3.0 + 0.4 * D.FOOT_CLEAR, 3.0)) is None
    got = D.top_face(view, rect, (9.0, 3.0))
    assert got is not None and got[3] == pytest.approx(30.0 / 64)
    # the square lies at the region's end away from the foot (the foot to its right: its left end)
    assert got[2][0] == pytest.approx(x - 3.0, abs=0.01) and got[2][1] == pytest.approx(y, abs=0.01)
