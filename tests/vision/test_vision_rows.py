"""Long rows (vision.rows): checkers lined up past a point's fifth, six in a row, counted in
the board's own geometry (the band between the tips squeezed on a tall board)."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision.checkers import pick_checkers
from vision.params import DEFAULT
from vision.read import read_view
from vision.rectify import rectify
from vision.render import RenderParams, render_scene
from vision.rims import ring_profiles
from vision.board_rings import to_board_distance, to_layout_distance

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402


def test_view_distances_round_trip_through_the_squeeze() -> None:
    u = np.array([0.5, 4.9, 5.0, 5.6, 6.1])
    v, k = to_layout_distance(u, L.BoardShape(height=12.26))
    assert list(v[:3]) == [0.5, 4.9, 5.0] and list(k[:3]) == [1.0, 1.0, 1.0]
    assert v[3] == pytest.approx(5.0 + 0.6 / 2.26) and k[3] == pytest.approx(1 / 2.26)
    assert [to_board_distance(float(x), L.BoardShape(height=12.26)) for x in v] == pytest.approx(list(u))
    assert list(to_layout_distance(u, L.BoardShape())[0]) == pytest.approx(list(u))  # the layout's shape: as it is


def _six_in_a_row() -> BoardEvidence:
    pts = [PointReading(0)] * 24
    pts[5], pts[18] = PointReading(6, "dark"), PointReading(6, "light")
    pts[12], pts[0] = PointReading(5, "dark"), PointReading(2, "light")
    return BoardEvidence(points=tuple(pts), bar=(0, 0), off=(4, 7))


@pytest.mark.parametrize("height", [L.HEIGHT, 12.26])
@pytest.mark.parametrize("seed", range(3))
def test_six_in_a_row_on_a_rendered_board_is_six(height: float, seed: int) -> None:
    # before: 5, sure (the first row's count stopped at five, the sixth beyond the profiles)
    pos = _six_in_a_row()
    shape = L.BoardShape(height=height)
    r = render_scene(pos, RenderParams(row_max=6, shape=shape), seed=seed)
    a, _ = read_view(rectify(r.image, r.corners, shape=shape), None, replace(DEFAULT, shape=shape))
    got = r.setup.to_evidence(a.rows).points
    assert [got[i].count for i in (5, 18, 12, 0)] == [6, 6, 5, 2]


def test_six_in_a_row_on_the_real_tall_board_is_six() -> None:
    # wtc2022 frame0: six dark in a row on bottom 4, the sixth in the band between the tips
    # (board 12.26 pw tall); before: 5 (its counts as the stage reads them, before the totals)
    lab = VR.load_labels()["images"]["frame0"]
    cfg = VR.config_for(lab)
    view = rectify(VR.load_image("frame0"), L.parse_corners(L.format_corners(lab["corners"])), cfg.px, shape=cfg.shape)
    params = replace(cfg.read, checker=1.0)
    found = pick_checkers(ring_profiles(view, params), params)
    assert found.per_axis["bottom3"].count == 6
    assert [found.per_axis[f"bottom{i}"].count for i in (4, 5, 6)] == [3, 2, 2]  # rows of 2..3 stay
    assert found.per_axis["top0"].count == 4


def _run_profile(beyond: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A point's profiles with three light checkers whose rims fade (0.49, 0.33, 0.145, as on
    the real wtc2022 test8's top 12), the point beyond them coloured ``beyond``."""
    dist = np.arange(0.25, 5.0, 1 / 16, dtype=np.float32)
    full = np.zeros_like(dist)
    colour = np.tile(np.array(beyond, np.uint8), (len(dist), 1))
    for c, s in ((0.5, 0.49), (1.5, 0.33), (2.5, 0.145)):
        full += s * np.exp(-((dist - c) / 0.06) ** 2)
        colour[np.abs(dist - c) < 0.4] = (185, 175, 172)
    return full, full.copy(), colour


def test_a_fading_run_of_light_checkers_is_continued_by_its_colour() -> None:
    from vision.rims import Axis
    from vision.stacks import count_point
    a = Axis("top11", 12.5, 0.0, 1)
    params = replace(DEFAULT, checker=1.0, threshold=0.286)
    full, cap, colour = _run_profile((10, 8, 9))          # on a black point: the third is a checker
    lateral = np.zeros_like(full)
    dist = np.arange(0.25, 5.0, 1 / 16, dtype=np.float32)
    got = count_point(a, full, cap, lateral, dist, params, colour)
    assert got.count == 3 and got.alt == 2 and got.confidence <= params.point_knee * 4
    full, cap, colour = _run_profile((185, 175, 172))     # the point itself that colour: no evidence, 2 stays
    assert count_point(a, full, cap, lateral, dist, params, colour).count == 2


@pytest.mark.parametrize("axis", ["top11", "bottom7"])
def test_three_light_checkers_on_the_real_board_are_three(axis: str) -> None:
    # wtc2022 test8: white checkers whose sides lie against the cream board; before: 2
    lab = VR.load_labels()["images"]["test8"]
    cfg = VR.config_for(lab)
    view = rectify(VR.load_image("test8"), L.parse_corners(L.format_corners(lab["corners"])), cfg.px, shape=cfg.shape)
    params = replace(cfg.read, checker=1.0)
    assert pick_checkers(ring_profiles(view, params), params).per_axis[axis].count == 3
