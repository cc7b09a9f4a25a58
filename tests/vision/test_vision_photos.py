"""Checker detection on photos: the 49 real labelled photos (well above chance, every photo
read) and each rule of :func:`vision.photos.detect_checkers` on a small constructed image."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.photo_colour import split_colours
from vision.photos import (DARK, LIGHT, MISSES, PhotoParams, account_misses, detect_checkers, f1, load_boxes,
                           score, score_folder)

DARK_BGR, LIGHT_BGR, GREEN_BGR = (30, 30, 30), (220, 230, 235), (40, 200, 40)


def test_labels_load_boxes_and_polygons(photos_dir: Path) -> None:
    boxes = load_boxes(photos_dir / "IMG_2602.txt", 640, 640)
    assert any(b[0] == DARK for b in boxes) and any(b[0] == LIGHT for b in boxes)
    assert all(0 <= b[1] <= b[3] <= 640 and 0 <= b[2] <= b[4] <= 640 for b in boxes)


def test_detection_on_real_photos_is_well_above_chance(photos_dir: Path) -> None:
    sc, n = score_folder(photos_dir)
    assert n == 49
    # chance (a detection at a random place) hits a box of one colour about 8% of the time,
    # of either colour 16%; measured: dark 0.83/0.68, light 0.85/0.88, any 0.89/0.82
    assert sc.precision("any") > 0.86 and sc.recall("any") > 0.80
    assert sc.precision("dark") > 0.80 and sc.recall("dark") > 0.66
    assert sc.precision("light") > 0.82 and sc.recall("light") > 0.86
    # the second look for weaker circles is what lifts recall, at little cost in precision
    off, _ = score_folder(photos_dir, PhotoParams(recover=False))
    assert sc.recall("any") > off.recall("any") + 0.05
    assert f1(sc, "any") > f1(off, "any")


def test_a_plain_image_has_no_checkers() -> None:
    img = np.full((480, 640, 3), 120, np.uint8)
    assert detect_checkers(img) == []
    assert score([], [(DARK, 0, 0, 10, 10)]).fn["dark"] == 1


def _board() -> np.ndarray:
    img = np.zeros((640, 640, 3), np.uint8)
    img[:] = (60, 110, 150)
    return img


def _disc(img: np.ndarray, x: int, y: int, r: int, colour: tuple[int, int, int], ring: int = 0) -> None:
    cv2.circle(img, (x, y), r, colour, -1, cv2.LINE_AA)
    cv2.circle(img, (x, y), r, (0, 0, 0) if sum(colour) > 300 else (200, 200, 200), 1, cv2.LINE_AA)
    if ring:
        cv2.circle(img, (x, y), ring, tuple(int(c * 0.7) for c in colour), 2, cv2.LINE_AA)


def _top_row(img: np.ndarray) -> None:
    """Six lone checkers, alternately dark and light, from which the colours are learned."""
    for k in range(6):
        _disc(img, 80 + 100 * k, 80, 22, DARK_BGR if k % 2 else LIGHT_BGR)


def test_carved_checkers_are_found_at_their_rim_not_their_inner_ring() -> None:
    img = _board()
    for j in range(3):
        for i in range(5):
            _disc(img, 80 + 110 * i, 120 + 200 * j, 22, DARK_BGR if (i + j) % 2 else LIGHT_BGR, ring=9)
    dets = detect_checkers(cv2.GaussianBlur(img, (3, 3), 0))
    assert len(dets) == 15
    assert all(18 <= d.r <= 26 for d in dets), sorted(d.r for d in dets)
    assert sum(d.colour == "dark" for d in dets) == 7


def test_concentric_carvings_pass_and_grain_across_the_face_does_not() -> None:
    img = _board()
    for i in range(5):
        for j in range(3):
            x, y = 80 + 110 * i, 120 + 200 * j
            _disc(img, x, y, 22, DARK_BGR if (i + j) % 2 else LIGHT_BGR, ring=12 if j == 1 else 0)
            if j == 2:  # grain: straight dark and light lines across the face
                for k in range(-16, 17, 6):
                    cv2.line(img, (x - 15, y + k), (x + 15, y + k), (0, 0, 0) if k % 4 else (255, 255, 255), 2)
    trace: list[tuple[float, float, float, str]] = []
    dets = detect_checkers(cv2.GaussianBlur(img, (3, 3), 0), trace=trace)
    rows = [sum(1 for d in dets if abs(d.y - (120 + 200 * j)) < 8) for j in range(3)]
    assert rows == [5, 5, 0], rows
    assert any(reason == "texture" and abs(y - 520) < 8 for _, y, _, reason in trace)


def _stacks(middle: tuple[int, int, int] | None = None) -> np.ndarray:
    """Two stacks of five overlapping checkers (centres 1.4 radii apart: each rim partly hidden)."""
    img = _board()
    _top_row(img)
    for k in range(5):
        _disc(img, 100, 200 + 30 * k, 22, middle if middle and k % 2 else DARK_BGR)
        _disc(img, 400, 200 + 30 * k, 22, LIGHT_BGR)
    return cv2.GaussianBlur(img, (3, 3), 0)


def test_overlapping_checkers_hidden_by_the_minimum_distance_are_recovered() -> None:
    img = _stacks()
    strong = [d for d in detect_checkers(img, PhotoParams(recover=False)) if d.y > 150]
    dets = [d for d in detect_checkers(img) if d.y > 150]
    assert len(strong) < 10          # Hough's minimum distance keeps every other one
    assert len(dets) == 10
    for x, colour in ((100, "dark"), (400, "light")):
        ys = sorted(d.y for d in dets if abs(d.x - x) < 5 and d.colour == colour)
        assert len(ys) == 5 and all(abs(y - (200 + 30 * k)) < 7 for k, y in enumerate(ys)), (x, ys)  # a third of r


def test_a_weak_circle_of_neither_checker_colour_is_not_taken() -> None:
    trace: list[tuple[float, float, float, str]] = []
    dets = detect_checkers(_stacks(middle=GREEN_BGR), trace=trace)
    left = sorted(d.y for d in dets if abs(d.x - 100) < 5)
    assert all(min(abs(y - 230), abs(y - 290)) > 10 for y in left), left
    assert any(reason == "colour" and abs(x - 100) < 5 and abs(y - 230) < 6 for x, y, _, reason in trace)


def test_a_checker_as_grey_as_the_board_is_found_in_its_colour_map() -> None:
    img = _board()                        # grey level 116
    img[:170] = (200, 200, 200)
    hue = (160, 100, 130)                 # grey level 116 too, another colour
    for k in range(6):                    # lone checkers on a pale strip teach the two colours
        _disc(img, 80 + 100 * k, 85, 22, hue if k % 2 else (235, 235, 235))
    for k in range(3):                    # no rim in grey: only the colour map shows them
        cv2.circle(img, (150 + 150 * k, 400), 22, hue, -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (3, 3), 0)

    def low(params: PhotoParams) -> list[tuple[int, str]]:
        return sorted((round(d.x), d.colour) for d in detect_checkers(img, params) if d.y > 300)

    assert low(PhotoParams(likeness=0.0)) == []
    found = low(PhotoParams())
    assert [c for _, c in found] == ["dark"] * 3 and all(abs(x - 150 * (k + 1)) < 4 for k, (x, _) in enumerate(found))


def test_colours_always_split_in_two_even_when_close() -> None:
    rng = np.random.default_rng(1)
    # a washed-out photo: both colours pale, 12 Lab units apart in lightness, a little noise
    a = np.array([200.0, 130.0, 140.0]) + rng.normal(0, 1.5, (9, 3))
    b = np.array([212.0, 128.0, 132.0]) + rng.normal(0, 1.5, (6, 3))
    model = split_colours(np.vstack([a, b]).astype(np.float32))
    assert model is not None and model.dark[0] < model.light[0]
    assert list(model.classify(a)) == [0] * 9 and list(model.classify(b)) == [1] * 6
    assert split_colours(np.array([[100.0, 128.0, 128.0]], np.float32)) is None


def test_misses_are_accounted_for() -> None:
    img = _stacks()
    boxes = [(LIGHT, 58.0, 58.0, 102.0, 102.0),     # the light checker at x=80, found as light
             (LIGHT, 158.0, 58.0, 202.0, 102.0),    # the dark one at x=180 labelled light: "colour swapped"
             (DARK, 500.0, 500.0, 540.0, 540.0)]    # bare board: "no circle"
    out = account_misses(img, boxes)
    assert set(out) == set(MISSES)
    assert out["colour swapped"] == 1 and out["no circle"] == 1 and sum(out.values()) == 2


def test_board_finding_scores_iou_and_bar_line() -> None:
    from vision.photos import bar_inside, box_iou
    c = np.array([[10, 10], [110, 10], [110, 60], [10, 60]], np.float32)
    assert box_iou(c, (10, 10, 110, 60)) == 1.0
    assert abs(box_iou(c, (60, 10, 160, 60)) - 1 / 3) < 1e-6
    assert bar_inside(c, [(55, 5, 65, 65)], 0.0)            # a bar across the rows, in the middle
    assert not bar_inside(c, [(20, 5, 30, 65)], 0.0)        # off the middle
    assert not bar_inside(np.roll(c, 1, axis=0), [(55, 5, 65, 65)], 0.0)  # rows the other way round
