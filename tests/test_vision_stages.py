"""Each stage on its own: rectification, board finding, the occlusion check, the quiet check."""
from __future__ import annotations

import cv2
import numpy as np

from vision import layout as L
from vision.config import VisionConfig
from vision.locate import auto_corners, board_likeness, order_corners
from vision.occlusion import occlusion_score
from vision.reader import BoardReader
from vision.rectify import homography, rectify
from vision.render import RenderParams, render_scene
from vision.stability import StabilityFilter

CALM = RenderParams(glare_prob=0.0, shadow_prob=0.0)


def test_rectify_puts_the_corners_where_the_layout_says() -> None:
    r = render_scene(L.start_position(), seed=11)
    H = homography(r.corners, 20, 0.5)
    got = cv2.perspectiveTransform(r.corners[None], H)[0]
    want = (L.playing_corners_pw() + 0.5) * 20
    assert np.abs(got - want).max() < 1e-3
    v = rectify(r.image, r.corners, 20, 0.5)
    assert v.image.shape[:2] == (round((L.HEIGHT + 1) * 20), round((L.WIDTH + 1) * 20))


def test_order_corners_starts_top_left_and_runs_clockwise() -> None:
    pts = np.array([[90, 80], [10, 12], [88, 9], [12, 85]], np.float32)
    assert order_corners(pts).tolist() == [[10, 12], [88, 9], [90, 80], [12, 85]]


def test_board_found_without_markers_on_most_rendered_boards() -> None:
    found = 0
    for s in range(12):
        r = render_scene(L.random_position(np.random.default_rng(s)), RenderParams(markers=False, flip_prob=0), seed=s)
        c = auto_corners(r.image)
        if c is not None and np.abs(c - r.corners).max() < 12:
            found += 1
    assert found >= 5


def test_nothing_board_like_is_found_in_plain_or_noisy_images() -> None:
    assert auto_corners(np.full((400, 600, 3), 90, np.uint8)) is None
    assert auto_corners(np.random.default_rng(0).integers(0, 255, (400, 600, 3), dtype=np.uint8)) is None


def test_board_likeness_prefers_the_true_playing_area() -> None:
    r = render_scene(L.start_position(), CALM, seed=2)
    true = board_likeness(r.image, r.corners)
    shifted = board_likeness(r.image, r.corners + np.array([40, 0], np.float32))
    sideways = board_likeness(r.image, np.roll(r.corners, 1, axis=0))
    assert true > 1.5 and true > shifted and true > sideways


def test_occlusion_score_rises_with_a_hand_over_the_board() -> None:
    higher = 0
    for s in range(8):
        pos = L.random_position(np.random.default_rng(s))
        clear = render_scene(pos, CALM, seed=s)
        hand = render_scene(pos, CALM, seed=s, hand=True)
        a = occlusion_score(rectify(clear.image, clear.corners, 10))
        b = occlusion_score(rectify(hand.image, hand.corners, 10))
        assert a < 1.0
        higher += b > 1.0
    assert higher >= 6


def test_quiet_check_sees_motion_and_hands_against_the_last_stable_board() -> None:
    pos = L.start_position()
    still = render_scene(pos, CALM, seed=4)
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=still.corners))
    for k in range(4):
        sf.feed(still.image, t=k)
    assert sf.state.value == "stable"
    assert sf.is_quiet(still.image)
    hand = render_scene(pos, CALM, seed=4, hand=True).image
    assert not sf.is_quiet(hand)   # moved since the last frame
    assert not sf.is_quiet(hand)   # still, but unlike the last stable board
    assert sf.is_quiet(still.image) is False  # the hand left: movement again
    assert sf.is_quiet(still.image)
