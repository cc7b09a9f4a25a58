"""Each stage on its own: rectification, board finding, the occlusion check, the quiet check."""
from __future__ import annotations

import cv2
import numpy as np

from vision import layout as L
from vision.config import VisionConfig
from vision.locate import auto_corners, board_likeness, order_corners
from vision.occlusion import occlusion_score
from vision.read import ReadParams
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
    assert found >= 10  # bench/vision_find.py: about 96 % over all schemes and flips


def test_nothing_board_like_is_found_in_plain_or_noisy_images() -> None:
    assert auto_corners(np.full((400, 600, 3), 90, np.uint8)) is None
    assert auto_corners(np.random.default_rng(0).integers(0, 255, (400, 600, 3), dtype=np.uint8)) is None
    assert auto_corners(np.zeros((10, 10, 3), np.uint8)) is None


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


def test_real_photo_board_found_and_read(photos_dir) -> None:
    """A real photo nobody here made: the found playing area matches the labelled board and bar."""
    from vision.photos import load_boxes
    img = cv2.imread(str(photos_dir / "image010.jpg"))
    h, w = img.shape[:2]
    labels = load_boxes(photos_dir / "image010.txt", w, h)
    board = next(b for b in labels if b[0] == 1)
    bar = next(b for b in labels if b[0] == 0)
    c = auto_corners(img)
    assert c is not None
    x0, y0 = c.min(axis=0)
    x1, y1 = c.max(axis=0)
    inter = max(0, min(x1, board[3]) - max(x0, board[1])) * max(0, min(y1, board[4]) - max(y0, board[2]))
    union = (x1 - x0) * (y1 - y0) + (board[3] - board[1]) * (board[4] - board[2]) - inter
    assert inter / union > 0.85
    bar_x = (bar[1] + bar[3]) / 2
    assert abs(bar_x - (x0 + (x1 - x0) * (L.BAR_LEFT + L.BAR_RIGHT) / 2 / L.WIDTH)) < 0.05 * w
    # this board's points are longer than our layout's, so its deep rows would be judged as
    # pyramids of 10+: the tall-stack pass assumes the layout's proportions and is off here
    cfg = VisionConfig(markers=False, read=ReadParams(tall_stacks=False))
    r = BoardReader(cfg, corners=c).inspect(img, read_occluded=True)
    assert r.rows is not None
    colours = {p.colour for p in r.rows.top + r.rows.bottom if p.count}
    assert colours == {"dark", "light"}
    labelled = sum(1 for b in labels if b[0] in (2, 4))
    total = sum(p.count for p in r.rows.top + r.rows.bottom) + sum(r.rows.bar)
    # a sanity bound only: this board's points are longer than our layout's, so deep stacks
    # read a checker too many (see the report); exact counts are measured on rendered boards
    assert 0.7 * labelled <= total <= 1.4 * labelled
