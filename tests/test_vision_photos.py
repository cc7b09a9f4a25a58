"""Checker detection on the 49 real labelled photos: well above chance, every photo read."""
from __future__ import annotations

from pathlib import Path


from vision.photos import DARK, LIGHT, detect_checkers, load_boxes, score, score_folder


def test_labels_load_boxes_and_polygons(photos_dir: Path) -> None:
    boxes = load_boxes(photos_dir / "IMG_2602.txt", 640, 640)
    assert any(b[0] == DARK for b in boxes) and any(b[0] == LIGHT for b in boxes)
    assert all(0 <= b[1] <= b[3] <= 640 and 0 <= b[2] <= b[4] <= 640 for b in boxes)


def test_detection_on_real_photos_is_well_above_chance(photos_dir: Path) -> None:
    sc, n = score_folder(photos_dir)
    assert n == 49
    # chance (a detection at a random place) hits a box of one colour about 8% of the time
    assert sc.precision("any") > 0.7 and sc.recall("any") > 0.55
    for k in ("dark", "light"):
        assert sc.precision(k) > 0.6 and sc.recall(k) > 0.45, k


def test_a_plain_image_has_no_checkers() -> None:
    import numpy as np
    img = np.full((480, 640, 3), 120, np.uint8)
    assert detect_checkers(img) == []
    assert score([], [(DARK, 0, 0, 10, 10)]).fn["dark"] == 1


def test_board_finding_scores_iou_and_bar_line() -> None:
    import numpy as np
    from vision.photos import bar_inside, box_iou
    c = np.array([[10, 10], [110, 10], [110, 60], [10, 60]], np.float32)
    assert box_iou(c, (10, 10, 110, 60)) == 1.0
    assert abs(box_iou(c, (60, 10, 160, 60)) - 1 / 3) < 1e-6
    assert bar_inside(c, [(55, 5, 65, 65)], 0.0)            # a bar across the rows, in the middle
    assert not bar_inside(c, [(20, 5, 30, 65)], 0.0)        # off the middle
    assert not bar_inside(np.roll(c, 1, axis=0), [(55, 5, 65, 65)], 0.0)  # rows the other way round
