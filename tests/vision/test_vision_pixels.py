"""A camera that shows the board too small is told once, with the fix (``bench/vision_scale.py``)."""
from __future__ import annotations

import cv2
import numpy as np

from vision import layout as L
from vision.cli import _text, read_image
from vision.compare_readings import FEW_PIXELS, FEW_PIXELS_ALONE
from vision.config import VisionConfig
from vision.reader import BoardReader
from vision.rectify import pixels_per_point, rectify
from vision.render import RenderParams, render_scene
from vision.stability import StabilityFilter

CALM = RenderParams(glare_prob=0.0, shadow_prob=0.0)


def small(img: np.ndarray, scale: float) -> np.ndarray:
    return cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def test_pixels_per_point_is_the_playing_areas_width_in_the_picture_over_its_points() -> None:
    r = render_scene(L.start_position(), CALM, seed=4)
    c = np.asarray(r.corners, np.float32)
    view = rectify(r.image, c, 32)
    want = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2 / L.WIDTH
    assert abs(pixels_per_point(view) - want) < 1e-6 and want > FEW_PIXELS
    assert abs(pixels_per_point(rectify(small(r.image, 0.5), c * 0.5, 32)) - want / 2) < 1e-6


def test_a_camera_showing_the_board_small_is_told_once_with_the_fix() -> None:
    seed, scale = 4, 0.45
    first = render_scene(L.start_position(), CALM, seed=seed)
    corners = np.asarray(first.corners, np.float32) * np.float32(scale)
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
    sf.known(L.start_position())   # a game's start: the board learned from the first still frame showing it
    told = []
    for k in range(12):
        sf.feed(small(render_scene(L.start_position(), CALM, seed=seed, frame=k + 1).image, scale), t=k)
        report = sf.take_report()
        if report is not None:
            told.append(report)
    assert sf.learned == 1 and len(told) == 1
    px = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3])) / 2 / L.WIDTH
    assert px < FEW_PIXELS
    assert told[0] == (f"the camera shows a point's width in {px:.0f} pixels, too few to read the checkers surely "
                       f"(at least {FEW_PIXELS:.0f}): bring the camera nearer the board, zoom in ([camera] zoom, with "
                       "the Raspberry Pi camera) or raise [camera] resolution (until then the table may ask you to "
                       "confirm moves)")


def test_bgtable_read_gives_the_pixels_a_point_width_and_says_when_a_picture_is_read_less_surely(tmp_path) -> None:
    r = render_scene(L.start_position(), CALM, seed=4)
    c = np.asarray(r.corners, np.float32)
    full = tmp_path / "full.png"
    cv2.imwrite(str(full), r.image)
    res = read_image(str(full), " ".join(f"{x:.1f},{y:.1f}" for x, y in c), dice=False)
    assert res["px_per_point"] > FEW_PIXELS_ALONE and "pixels" not in _text(res)
    scale = 0.6
    part = tmp_path / "small.png"
    cv2.imwrite(str(part), small(r.image, scale))
    res = read_image(str(part), " ".join(f"{x * scale:.1f},{y * scale:.1f}" for x, y in c), dice=False)
    px = res["px_per_point"]
    assert FEW_PIXELS < px < FEW_PIXELS_ALONE   # about 26: the table would hold, a single picture less so
    assert (f"the picture shows a point's width in {px:.0f} pixels: below about 35 a single picture is read less "
            "surely (bring the camera nearer, or take the photo closer)") in _text(res).splitlines()
