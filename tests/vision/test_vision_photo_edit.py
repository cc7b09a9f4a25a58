"""Frames of another position made from a real photo (:mod:`vision.photo_edit`, for benches and tests)."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import layout as L
from vision.config import VisionConfig
from vision.photo_edit import _along, _segment, doctored_reference, layout_to_image, point_shifts

ROOT = Path(__file__).resolve().parents[2]
SET6 = ROOT / "tests" / "data" / "vision_unseen6" / "labels.json"
PHOTOS = ROOT / "tests" / "data" / "vision" / "photos-yolo"


def test_a_place_beyond_the_tip_is_as_long_on_the_board_as_the_others() -> None:
    shape = L.BoardShape(bar=1.0, height=12.34)
    for d in (0.0, 2.5, 4.9, 5.0, 5.6, 6.2):
        _, y = shape.to_real(np.zeros(1), np.array([_along(shape, d)]))
        assert abs(float(y[0]) - d) < 1e-9


def test_a_sixth_checker_made_on_a_tall_board_covers_one_place_not_two() -> None:
    # a real photo of a board 12.34 point widths tall: a sixth checker lies beyond the point's tip, in the
    # layout's squeezed band; made as long as the layout's band (not the board's), it covered two places
    lab = json.loads(SET6.read_text())["images"]["IMG_2602"]
    img = cv2.imread(str(PHOTOS / lab["image"]))
    config = VisionConfig(markers=False, corners=L.format_corners(lab["corners"]), bar_width=lab["bar_width"],
                          board_height=lab["board_height"])
    row, col = next((r, c) for r in ("top", "bottom") for c, p in enumerate(lab[r]) if p[0] == 5)
    rows = {"top": [list(p) for p in lab["top"]], "bottom": [list(p) for p in lab["bottom"]], "bar": lab["bar"]}
    rows[row][col] = [6, lab[row][col][1]]
    ref = doctored_reference(img, lab, rows, "bottom-right", config, seed=1, checker=1.0)
    changed = int(np.count_nonzero(cv2.absdiff(ref, img).max(axis=2) > 40))
    corners = np.asarray(lab["corners"], np.float32)
    place = cv2.contourArea(layout_to_image(_segment(row, col, 4.0, 5.0), corners, config.shape))  # the fifth's
    assert 0.3 * place < changed < 1.2 * place


def _changed_centre(ref: np.ndarray, img: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(cv2.absdiff(ref, img).max(axis=2) > 40)
    return np.array([xs.mean(), ys.mean()])


def test_a_checker_is_made_on_the_photos_own_point_where_the_labels_say_it_lies() -> None:
    # a photo whose labelled corners lay a quarter's axes between two triangles (image039 did, its bar labelled
    # 1.41 pw for 0.55, session 42): its labels may say where the points lie, and the made frame's checker is
    # cut and pasted there; at the layout's place it came out half on each of two points
    lab = dict(json.loads(SET6.read_text())["images"]["image039"], point_shift=[0.45, 0.0, 0.0, 0.0])
    img = cv2.imread(str(PHOTOS / lab["image"]))
    config = VisionConfig(markers=False, corners=L.format_corners(lab["corners"]), bar_width=lab["bar_width"],
                          board_height=lab["board_height"])
    rows = {"top": [list(p) for p in lab["top"]], "bottom": [list(p) for p in lab["bottom"]], "bar": lab["bar"]}
    rows["top"][2] = [1, "dark"]     # a checker made on an empty point of that quarter
    on = doctored_reference(img, lab, rows, "bottom-right", config, seed=1, checker=1.0)
    off = doctored_reference(img, dict(lab, point_shift=None), rows, "bottom-right", config, seed=1, checker=1.0)
    corners = np.asarray(lab["corners"], np.float32)
    axis = np.array([[L.column_x(2), 0.5], [L.column_x(2) + 0.45, 0.5]], np.float32)
    want = np.diff(layout_to_image(axis, corners, config.shape), axis=0)[0]   # 0.45 pw sideways, in the picture
    moved = _changed_centre(on, img) - _changed_centre(off, img)
    assert np.linalg.norm(want) > 10                    # a third of a point or more: a visible shift
    assert np.linalg.norm(moved - want) < 0.3 * np.linalg.norm(want)


def test_point_shifts_name_a_bad_label() -> None:
    assert point_shifts({}) == (0.0, 0.0, 0.0, 0.0)
    with pytest.raises(ValueError, match=r"point_shift \[0\.4\]"):
        point_shifts({"point_shift": [0.4]})
