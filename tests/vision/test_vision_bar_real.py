"""The bar of a real tournament board (vision.bar): hinges the bar's edges run past are not
checkers, checkers in a tall board's squeezed band between the tips are found in the board's
own geometry, and the checkers on a real bar are round (vision.bar_shapes); the same on
rendered boards with hinges and a narrow bar."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Optional

import pytest

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision.bar import read_bar
from vision.checkers import Found, board_params, pick_checkers
from vision.read import read_view
from vision.rectify import rectify
from vision.render import RenderParams, render_scene
from vision.rims import ring_profiles
from vision.size import measure_checker, rim_spacings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402


def _found(name: str, checker: Optional[float] = None) -> Found:
    """Stage 2 on a labelled real image, with the checkers' size as given or as the reader
    measures it on the frame (:mod:`vision.size`)."""
    lab = VR.load_labels()["images"][name]
    cfg = VR.config_for(lab)
    view = rectify(VR.load_image(name), L.parse_corners(L.format_corners(lab["corners"])), cfg.px, shape=cfg.shape)
    cd = checker or measure_checker(rim_spacings(ring_profiles(view, cfg.read), cfg.read))
    assert cd is not None
    params = replace(cfg.read, checker=cd)
    return pick_checkers(ring_profiles(view, params), params)


def test_the_hinges_of_a_real_bar_are_no_checkers() -> None:
    # wtc2022 frame0: an empty bar with two metal hinges; before: two bar checkers (y 2.0 and 9.1)
    assert _found("frame0").bar == ()   # the checkers measured 1.01 pw


@pytest.mark.parametrize("name, y", [("test8", 5.77), ("frame5", 5.01)])
def test_a_checker_in_the_squeezed_band_of_a_real_bar_is_found(name: str, y: float) -> None:
    # the bar's checker lies between the tips, squeezed 2.26 times in the view; before: only the hinges
    band = [c for c in _found(name, 1.0).bar if 4.5 < c.y < 6.5]
    assert len(band) == 1 and band[0].y == pytest.approx(y, abs=0.15)


@pytest.mark.parametrize("checker", [None, 1.0])
def test_two_checkers_side_by_side_at_the_end_of_a_real_bar_s_squeezed_band(checker: Optional[float]) -> None:
    # test10: two gold checkers touching on the bar, the second centred at the band's end (layout 6.5,
    # board 6.87); the band's coarse rings stopped just short of it and its peak was taken over by the
    # band all the same: the bar read one checker of two
    band = _found("test10", checker).bar
    assert [round(c.y, 1) for c in band] == [5.6, 6.5]


@pytest.mark.parametrize("bar", [(0, 0), (1, 0), (0, 1)])
def test_a_rendered_narrow_bar_with_hinges_on_a_tall_board(bar: tuple[int, int]) -> None:
    # before: 3 of these 18 right (the hinges read as checkers, the band's checkers missed)
    pts = [PointReading(0)] * 24
    pts[5], pts[18], pts[12], pts[0] = (PointReading(5, "dark"), PointReading(5, "light"), PointReading(5, "dark"),
                                        PointReading(2, "light"))
    pos = BoardEvidence(points=tuple(pts), bar=bar, off=(5 - bar[0], 8 - bar[1]))
    shape = L.BoardShape(bar=0.7, height=12.26)
    right = 0
    for seed in range(6):
        r = render_scene(pos, RenderParams(shape=shape, hinge_prob=1.0, bar_offset=0.1, checker=(1.0, 1.0)), seed=seed)
        a, _ = read_view(rectify(r.image, r.corners, shape=shape), None,
                         replace(VR.config_for({"corners": r.corners.tolist(), "bar_width": 0.7,
                                                "board_height": 12.26}).read, checker=1.0))
        right += tuple(a.rows.bar) == bar
    assert right >= 5


@pytest.mark.parametrize("name", ["frame4", "frame5", "test10", "test11", "test12"])
def test_no_checker_on_a_real_bar_is_told_apart_as_a_square(name: str) -> None:
    # vision.bar_shapes: the rings on these bars (each holds 1..3 checkers) are round, none a
    # square (the cube, a die), corners only (a fitting's screws) or the bar's own texture
    lab = VR.load_labels()["images"][name]
    cfg = VR.config_for(lab)
    view = rectify(VR.load_image(name), L.parse_corners(L.format_corners(lab["corners"])), cfg.px, shape=cfg.shape)
    cd = measure_checker(rim_spacings(ring_profiles(view, cfg.read), cfg.read))
    params = replace(cfg.read, checker=cd or L.CHECKER)    # as the reader does when the frame shows too few
    prof = ring_profiles(view, params)
    read = read_bar(prof, board_params(prof, params))
    assert read.checkers and read.others == ()
