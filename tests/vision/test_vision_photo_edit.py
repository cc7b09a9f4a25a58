"""Frames of another position made from a real photo (:mod:`vision.photo_edit`, for benches and tests)."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision import layout as L
from vision.config import VisionConfig
from vision.photo_edit import CheckerPlaces, _along, _segment, doctored_reference, layout_to_image

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



def _set6(name: str) -> tuple[dict, np.ndarray, VisionConfig]:
    lab = json.loads(SET6.read_text())["images"][name]
    config = VisionConfig(markers=False, corners=L.format_corners(lab["corners"]), bar_width=lab["bar_width"],
                          board_height=lab["board_height"])
    return lab, cv2.imread(str(PHOTOS / lab["image"])), config


def test_checkers_on_the_bar_are_laid_on_a_photos_empty_bar_round_and_nowhere_else() -> None:
    # a real photo with an empty bar, made to show one dark and two light checkers there: only round
    # pieces about three checkers' area change, all along the bar's middle
    lab, img, config = _set6("image045")
    rows = {"top": [list(p) for p in lab["top"]], "bottom": [list(p) for p in lab["bottom"]]}
    empty = doctored_reference(img, lab, dict(rows, bar={"dark": 0, "light": 0}), "bottom-right", config, seed=5)
    three = doctored_reference(img, lab, dict(rows, bar={"dark": 1, "light": 2}), "bottom-right", config, seed=5)
    changed = cv2.absdiff(three, empty).max(axis=2) > 40
    corners = np.asarray(lab["corners"], np.float32)
    cd = L.CHECKER
    x = L.BAR_LEFT + config.shape.bar / 2
    disc = np.pi / 4 * cv2.contourArea(layout_to_image(np.array(
        [[x - cd / 2, 5.0 - cd / 2], [x + cd / 2, 5.0 - cd / 2], [x + cd / 2, 5.0 + cd / 2],
         [x - cd / 2, 5.0 + cd / 2]], np.float32), corners, config.shape))
    assert 1.5 * disc < int(np.count_nonzero(changed)) < 3.3 * disc
    ys, xs = np.nonzero(changed)
    bar_x = layout_to_image(np.array([[L.BAR_LEFT + L.BAR_WIDTH / 2, L.HEIGHT / 2]], np.float32), corners,
                            config.shape)[0]
    px = np.linalg.norm(layout_to_image(np.array([[0, 0], [1, 0]], np.float32), corners, config.shape)[1]
                        - layout_to_image(np.array([[0, 0]], np.float32), corners, config.shape)[0])
    # every changed pixel within a checker's radius of the bar's middle line (the photo is turned:
    # measured across the bar, along the picture's direction of the layout's x)
    across = layout_to_image(np.array([[1, 0]], np.float32), corners, config.shape)[0] - \
        layout_to_image(np.array([[0, 0]], np.float32), corners, config.shape)[0]
    across /= np.linalg.norm(across)
    off = np.abs((np.stack([xs, ys], axis=1) - bar_x) @ across)
    assert float(np.percentile(off, 99)) < 0.6 * px


def test_a_photo_whose_bar_holds_checkers_makes_no_frame_of_another_bar() -> None:
    lab, img, config = _set6("image019")
    rows = {"top": [list(p) for p in lab["top"]], "bottom": [list(p) for p in lab["bottom"]],
            "bar": {"dark": 0, "light": 0}}
    assert any(lab["bar"].values())
    try:
        doctored_reference(img, lab, rows, "bottom-right", config, seed=1)
    except ValueError as e:
        assert "the photo's bar holds checkers" in str(e)
    else:
        raise AssertionError("a frame of an empty bar was made from a photo with checkers on it")


def test_a_place_a_checker_left_looks_the_same_in_every_frame_made_from_the_photo() -> None:
    # a real board's empty place looks the same from frame to frame: made frames where a point keeps
    # fewer of its checkers show the same piece at each place emptied, whatever the count kept (the
    # piece once came from the nearest point empty up to the count kept, so a place's look changed with
    # it, and the table saw change where nothing had moved: session 46, 11 more true plays in the games)
    lab, img, config = _set6("image045")
    corners = np.asarray(lab["corners"], np.float32)
    rows = {"top": [list(p) for p in lab["top"]], "bottom": [list(p) for p in lab["bottom"]], "bar": lab["bar"]}
    tried = 0
    for row in ("top", "bottom"):
        for col, (m, colour) in enumerate(lab[row]):
            if m < 4:
                continue
            frames = []
            for keep in (0, 1, 2):
                want = {r: [list(p) for p in rows[r]] for r in ("top", "bottom")}
                want[row][col] = [keep, colour if keep else None]
                frames.append(doctored_reference(img, lab, dict(want, bar=lab["bar"]), "bottom-right", config,
                                                 seed=3, checker=1.0))
            region = np.zeros(img.shape[:2], np.uint8)
            cv2.fillConvexPoly(region, np.round(layout_to_image(_segment(row, col, _along(config.shape, 2.2), _along(config.shape, m - 0.2)), corners,
                                                                config.shape)).astype(np.int32), 1)
            inside = region.astype(bool)
            assert np.abs(frames[0].astype(int) - img.astype(int)).max(axis=2)[inside].mean() > 20  # checkers gone
            for other in frames[1:]:
                assert np.array_equal(other[inside], frames[0][inside])
            tried += 1
    assert tried >= 3


def _strip(img: np.ndarray, lab: dict, config: VisionConfig, row: str, col: int, d0: float, d1: float) -> np.ndarray:
    """A point's stretch ``d0`` to ``d1`` pw from its base (on the board itself), warped to 40 x 160 px."""
    quad = layout_to_image(_segment(row, col, _along(config.shape, d0), _along(config.shape, d1)),
                           np.asarray(lab["corners"], np.float32), config.shape)
    H = cv2.getPerspectiveTransform(quad, np.array([[0, 0], [40, 0], [40, 160], [0, 160]], np.float32))
    return cv2.warpPerspective(img, H, (40, 160)).astype(np.float32)


def test_a_stack_made_where_the_photo_shows_its_checkers_begin_looks_like_a_real_one() -> None:
    # unseen6's image045, seen obliquely: its top row's checkers stand a third of a checker before the
    # points' bases (CheckerPlaces.start).  Four checkers made on its empty point 2 (top, second from the
    # left), three from point 5's stack and one from point 7's: laid from the base, the pieces cut point 5's
    # empty cloth beyond its third checker and left a gap in the made stack (read as five: an illegal board
    # accepted in the games bench); laid where the stacks begin, the made stack looks like point 7's real one
    lab, img, config = _set6("image045")
    rows = {"top": [list(p) for p in lab["top"]], "bottom": [list(p) for p in lab["bottom"]], "bar": lab["bar"]}
    assert lab["top"][1][0] == 0 and lab["top"][4] == [3, "dark"] and lab["top"][6] == [5, "dark"]
    rows["top"][1] = [4, "dark"]
    cd, start = 1.087, -0.31
    real = _strip(img, lab, config, "top", 6, start, start + 4 * cd)

    def off(places: CheckerPlaces) -> float:
        made = doctored_reference(img, lab, rows, "top-left", config, seed=2, checker=places)
        return float(np.abs(_strip(made, lab, config, "top", 1, start, start + 4 * cd) - real).mean())

    at_base, where_they_begin = off(CheckerPlaces((cd, cd))), off(CheckerPlaces((cd, cd), (start, 0.0)))
    assert where_they_begin < 0.75 * at_base, (where_they_begin, at_base)
