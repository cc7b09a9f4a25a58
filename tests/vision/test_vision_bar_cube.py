"""The doubling cube and a die on the bar (vision.render_props draws them, vision.bar_shapes tells
them from checkers): a square is no checker; a checker's round rim stays one."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision import render_props as P
from vision.bar import read_bar
from vision.bar_shapes import not_a_checker
from vision.checkers import board_params
from vision.config import VisionConfig
from vision.params import ReadParams
from vision.read import read_view
from vision.rectify import rectify
from vision.render import Die, RenderParams, render_scene
from vision.render_board import _draw_board
from vision.render_params import SCHEMES
from vision.rims import ring_profiles


def _position(bar: tuple[int, int]) -> BoardEvidence:
    pts = [PointReading(0)] * 24
    pts[5], pts[18], pts[12], pts[0] = (PointReading(5, "dark"), PointReading(5, "light"),
                                        PointReading(5 - bar[0], "dark"), PointReading(2, "light"))
    return BoardEvidence(points=tuple(pts), bar=bar, off=(5, 8 - bar[1]))


def _params(bar_width: float) -> ReadParams:
    return replace(VisionConfig(markers=False, bar_width=bar_width).read, checker=0.9)


def test_a_cube_shows_one_of_its_faces() -> None:
    with pytest.raises(ValueError, match="doubling cube"):
        P.Cube(3, 6.5, 5.5, 0.7, 0.0)


def test_the_cube_is_drawn_where_the_props_say_and_nothing_else_changes() -> None:
    pos = _position((1, 1))
    scheme = SCHEMES[0]
    for seed in range(6):
        kw = dict(rng=np.random.default_rng([seed, 7]), pr=np.random.default_rng([seed, 23]))
        plain, _ = _draw_board(pos, scheme, L.SetUp(), params=RenderParams(hinge_prob=1.0), **kw)  # type: ignore[arg-type]
        kw = dict(rng=np.random.default_rng([seed, 7]), pr=np.random.default_rng([seed, 23]))
        tex, props = _draw_board(pos, scheme, L.SetUp(), params=RenderParams(hinge_prob=1.0, cube_prob=1.0),
                                 **kw)  # type: ignore[arg-type]
        cube = props.cube
        assert cube is not None and cube.value in P.CUBE_FACES
        ys, xs = np.nonzero(np.any(tex != plain, axis=2))
        assert len(xs) > 0.5 * (cube.size * 40) ** 2          # the face and its number drawn
        x_pw, y_pw = xs / 40 - 1.15, ys / 40 - 1.15           # texture px to pw (TEX 40, FRAME 1.15)
        reach = cube.size * 0.75 + 0.15                        # a turned face's corners and its shadow
        assert np.all(np.abs(x_pw - cube.x) < reach) and np.all(np.abs(y_pw - cube.y) < reach)


def test_the_cube_lies_clear_of_the_bar_checkers() -> None:
    shape = L.BoardShape()
    for k in range(300):
        rng = np.random.default_rng(k)
        bar = (int(rng.integers(0, 6)), int(rng.integers(0, 6)))
        cube = P.cube_place(rng, shape, 0.9, bar)
        # bar checkers lie from 0.55 pw off the middle outwards, dark's above, light's below
        ys = [5.5 - (0.55 + 0.9 * (k + 0.5)) for k in range(min(bar[0], 5))]
        ys += [5.5 + (0.55 + 0.9 * (k + 0.5)) for k in range(min(bar[1], 5))]
        if abs(cube.x - 6.5) < 0.5:
            assert all(abs(cube.y - y) >= 0.45 + cube.size * 0.6 - 0.05 for y in ys), (k, bar, cube)
        else:
            assert cube.x < 0 or cube.x > shape.width   # beside the board, on the frame


@pytest.mark.parametrize("bar_width", [1.0, 0.75, 1.4])
def test_a_cube_on_the_bar_is_no_checker(bar_width: float) -> None:
    # before (vision.bar without vision.bar_shapes): 2, 3 and 2 of these 12 bars right, no square told;
    # after: 9 (7 squares), 8 (5) and 9 (7)
    right = squares = 0
    shape = L.BoardShape(bar=bar_width)
    for seed in range(12):
        bar = [(0, 0), (1, 0), (0, 1), (1, 1)][seed % 4]
        r = render_scene(_position(bar), RenderParams(shape=shape, cube_prob=1.0, checker=(0.9, 0.9)), seed=400 + seed)
        assert r.props.cube is not None
        params = _params(bar_width)
        view = rectify(r.image, r.corners, shape=shape)
        a, _ = read_view(view, None, params)
        right += tuple(a.rows.bar) == bar
        prof = ring_profiles(view, params)
        squares += any(w == "square" for _, w in read_bar(prof, board_params(prof, params)).others)
    assert right >= 8
    assert squares >= 5


def test_a_die_on_the_bar_is_no_checker() -> None:
    # before: 4 of these 8 bars right (a die near the bar's end read as a checker); after: 6 (a die
    # between two bar checkers, with their facing rims, still makes a ring: seeds 3 and 7)
    right = 0
    for seed in range(8):
        bar = [(0, 0), (1, 0), (0, 1), (1, 1)][seed % 4]
        y = [5.5, 1.0, 10.0, 5.5][seed % 4]
        die = Die(1 + seed % 6, x=6.5 + 0.05 * (seed % 3 - 1), y=y, angle=float(10 * seed), size=0.45)
        r = render_scene(_position(bar), RenderParams(checker=(0.9, 0.9)), seed=500 + seed, dice=[die])
        a, _ = read_view(rectify(r.image, r.corners), None, _params(1.0))
        right += tuple(a.rows.bar) == bar
    assert right >= 6


@pytest.mark.parametrize("bar_width", [1.0, 0.75])
def test_a_checker_on_the_bar_is_no_square(bar_width: float) -> None:
    # every bar checker the reader finds on real-table renders (pearl, carved and marbled faces,
    # off-centre on a narrow bar, hinges beside them) outlines a ring, not a square
    shape = L.BoardShape(bar=bar_width)
    told = kept = 0
    for seed in range(10):
        bar = [(2, 1), (1, 2), (3, 0), (0, 3), (1, 1)][seed % 5]
        r = render_scene(_position(bar), RenderParams.real_table(bar=bar_width, dice_prob=0.0, checker=(0.9, 0.9)),
                         seed=600 + seed)
        params = _params(bar_width)
        prof = ring_profiles(rectify(r.image, r.corners, shape=shape), params)
        bp = board_params(prof, params)
        for x, y, _ in r.props.checkers:
            if abs(x - (L.BAR_LEFT + bar_width / 2)) < 0.4:
                ly = float(np.interp(y, [0, shape.height], [0, L.HEIGHT]))
                j = int(np.argmin(np.abs(prof.bar_y - ly)))
                k = j - 3 + int(np.argmax(prof.bar_full[max(j - 3, 0):j + 4]))
                told += 1
                kept += not_a_checker(prof, L.BAR_LEFT + 0.5, float(prof.bar_y[k]), float(prof.bar_full[k]), bp) is None
    assert told >= 15 and kept == told


def test_a_cube_on_the_bar_is_reported_where_it_lies() -> None:
    # the square told from checkers (vision.bar_shapes) reaches the reading (RowReading.on_bar,
    # ``bgtable read --json``'s "on_bar"); before, Found dropped it: 0 of these 12 reported
    told = 0
    for seed in range(12):
        bar = [(0, 0), (1, 0), (0, 1), (1, 1)][seed % 4]
        r = render_scene(_position(bar), RenderParams(cube_prob=1.0, checker=(0.9, 0.9)), seed=400 + seed)
        cube = r.props.cube
        assert cube is not None
        a, _ = read_view(rectify(r.image, r.corners), None, _params(1.0))
        on_bar = a.rows.things_on_bar()
        assert all(o["what"] == "cube or die" for o in on_bar)
        if abs(cube.x - 6.5) < 0.5:
            told += any(abs(o["y"] - cube.y) < 0.6 for o in on_bar)
        else:   # the cube beside the board: nothing on the bar
            assert on_bar == [], (seed, cube)
    assert told >= 5


def test_nothing_on_a_bar_without_cube_or_dice() -> None:
    for seed in range(6):
        bar = [(0, 0), (1, 0), (0, 1), (1, 1), (2, 0), (0, 2)][seed]
        r = render_scene(_position(bar), RenderParams(checker=(0.9, 0.9)), seed=600 + seed)
        a, _ = read_view(rectify(r.image, r.corners), None, _params(1.0))
        assert a.rows.on_bar == ()
        assert a.rows == replace(a.rows, on_bar=(5.5,))   # no part of the reading itself


def test_outlines_and_squares_read_from_kept_places_are_those_worked_out_afresh() -> None:
    """A camera's frames look round the same places on the bar: where an outline or a square reads
    the gradients is kept per place and geometry (vision.bar_shapes), and what it reads on another
    frame of the same camera, or on another board shape, is what the plain sampling reads there."""
    from vision import bar_shapes as B

    shape = L.BoardShape(bar=0.8)
    frames = [render_scene(_position((1, 1)), RenderParams(shape=shape, cube_prob=1.0, checker=(0.9, 0.9)),
                           seed=700, frame=k) for k in (1, 2)]
    params = board_params(ring_profiles(rectify(frames[0].image, frames[0].corners, shape=shape), _params(0.8)),
                          _params(0.8))
    params = replace(params, shape=shape)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    xs = bx + np.array(params.lateral, np.float32)

    def plain_outline(prof, x, y):   # (the sampling worked out afresh, as before the places were kept)
        sx = B.bar_stretch(params.shape)
        r = np.array(B.OUTLINE_RADII, np.float32)[:, None] * np.float32(params.checker)
        px_ = np.asarray(x, np.float32)[..., None, None] + r * B._COS * sx
        py_ = np.broadcast_to(y + r * B._SIN, px_.shape)
        return B._edge_across(prof, px_, py_, np.broadcast_to(B._COS, px_.shape), np.broadcast_to(B._SIN, px_.shape),
                              params).max(axis=-2)

    B._KEPT.clear()
    for r in frames + frames[::-1]:
        prof = ring_profiles(rectify(r.image, r.corners, shape=shape), params)
        for y in (2.0, 5.5, 8.25):
            assert np.array_equal(B.outline_by_angle(prof, xs, y, params), plain_outline(prof, xs, y))
            got = B.square_sides(prof, xs, y, params)
            kept = dict(B._KEPT)
            B._KEPT.clear()
            assert np.array_equal(got, B.square_sides(prof, xs, y, params))   # kept, then afresh
            B._KEPT.update(kept)
    assert len(B._KEPT) == 6   # (an outline and a square at each of the three places, kept)
