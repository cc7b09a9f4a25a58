"""The renderer's real-table variations: each changes the image where it should, and the defaults draw what they always drew."""
from __future__ import annotations

import hashlib
from dataclasses import replace

import cv2
import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision.render import Die, Rendered, RenderParams, render_scene, stack_offsets

# sha256 (first 16 hex digits) of frames rendered at commit b1b8704, before the real-table
# options existed (OpenCV 5.0.0, numpy 2.4.6): the defaults must keep drawing exactly these
BASE_HASHES = {
    (0, "default", False, 0): "8d7095f75f8e9f2d",
    (1, "default", False, 0): "c7b7e028c40222e8",
    (7, "default", False, 0): "3977da5d3506ea09",
    (123, "default", False, 0): "5747d86ec5efab38",
    (100005, "default", False, 0): "d3810a24b2267772",
    (3, "default", True, 0): "9ab643765483b2d4",
    (4, "no markers", False, 2): "2f6b72f90cb814d8",
    (5, "shape", True, 1): "42e945c2a7fb7586",
}
PARAMS = {"default": RenderParams(), "no markers": RenderParams(markers=False),
          "shape": RenderParams(checker=(0.8, 0.95), shape=L.BoardShape(1.5, 12))}

# a clean camera: no lens distortion, noise, blur or JPEG, so an option's pixels can be traced
CLEAN = RenderParams(scheme="walnut", noise_max=0.0, blur_max=0.0, jpeg=(0, 0), distortion_max=0.0, glare_prob=0.0)


def position(seed: int) -> BoardEvidence:
    return L.start_position() if seed % 2 else L.random_position(np.random.default_rng(seed), tall=0.6)


@pytest.mark.parametrize("key", sorted(BASE_HASHES))
def test_default_options_draw_the_same_frames_as_before_them(key: tuple[int, str, bool, int]) -> None:
    seed, name, hand, frame = key
    r = render_scene(position(seed), PARAMS[name], seed=seed, hand=hand, frame=frame)
    assert hashlib.sha256(r.image.tobytes()).hexdigest()[:16] == BASE_HASHES[key]
    assert r.dice == () and r.props.hinges == () and r.props.lip is None and r.props.beside == ()


def test_real_table_frames_are_deterministic_and_show_the_props() -> None:
    p = RenderParams.real_table()
    shown = set()
    for seed in range(12):
        a = render_scene(position(seed), p, seed=seed, hand=seed % 3 == 0)
        b = render_scene(position(seed), p, seed=seed, hand=seed % 3 == 0)
        assert np.array_equal(a.image, b.image) and a.dice == b.dice
        shown |= {"hinges"} if a.props.hinges else set()
        shown |= {"dice"} if a.dice else set()
        shown |= {"faces"} if a.props.faces != (None, None) else set()
        shown |= {name for name, _ in a.props.beside}
    assert shown == {"hinges", "dice", "faces", "clock", "scoreboard"}


def board_to_image(r: Rendered, shape: L.BoardShape) -> np.ndarray:
    """The homography from board pw to image px (a camera without lens distortion)."""
    return cv2.getPerspectiveTransform(shape.corners_pw().astype(np.float32), r.corners.astype(np.float32))


def changed_board_points(a: Rendered, b: Rendered, shape: L.BoardShape, level: int = 3) -> np.ndarray:
    """The board pw of every pixel that differs between two frames of the same camera."""
    assert np.allclose(a.corners, b.corners)
    ys, xs = np.nonzero(cv2.absdiff(a.image, b.image).max(axis=2) > level)
    inv = np.linalg.inv(board_to_image(a, shape))
    return cv2.perspectiveTransform(np.stack([xs, ys], 1)[None].astype(np.float32), inv)[0]


def inside(pts: np.ndarray, boxes: tuple[tuple[float, float, float, float], ...], margin: float) -> np.ndarray:
    ok = np.zeros(len(pts), bool)
    for x0, y0, x1, y1 in boxes:
        ok |= (pts[:, 0] >= x0 - margin) & (pts[:, 0] <= x1 + margin) & (pts[:, 1] >= y0 - margin) & (pts[:, 1] <= y1 + margin)
    return ok


@pytest.mark.parametrize("bar", [1.0, 0.7])
def test_hinges_lie_on_the_bar(bar: float) -> None:
    shape = L.BoardShape(bar=bar)
    for seed in range(4):
        plain = render_scene(L.start_position(), replace(CLEAN, shape=shape), seed=seed)
        hinged = render_scene(L.start_position(), replace(CLEAN, shape=shape, hinge_prob=1.0), seed=seed)
        boxes = hinged.props.hinges
        assert len(boxes) >= 2
        for x0, y0, x1, y1 in boxes:  # across the bar's middle
            assert x0 < L.BAR_LEFT + bar / 2 < x1 and 0 < y0 < y1 < shape.height
        pts = changed_board_points(plain, hinged, shape)
        assert len(pts) > 200
        assert inside(pts, boxes, 0.08).all()
        assert (np.abs(pts[:, 0] - (L.BAR_LEFT + bar / 2)) < 0.7 * bar + 0.08).all()


def test_logos_are_printed_inside_their_boxes() -> None:
    for seed in range(4):
        plain = render_scene(L.start_position(), CLEAN, seed=seed)
        logo = render_scene(L.start_position(), replace(CLEAN, logo_prob=1.0), seed=seed)
        pts = changed_board_points(plain, logo, L.BoardShape())
        assert len(pts) > 100 and logo.props.logos
        assert inside(pts, logo.props.logos, 0.08).all()
        for x0, y0, x1, y1 in logo.props.logos:  # printed on the playing area
            assert 0 <= x0 < x1 <= L.WIDTH and 0 <= y0 < y1 <= L.HEIGHT


@pytest.mark.parametrize("value", range(1, 7))
def test_a_die_shows_its_pips_inside_its_box(value: int) -> None:
    die = Die(value, x=3.0, y=L.HEIGHT / 2, angle=0.0, size=0.5)
    plain = render_scene(L.start_position(), CLEAN, seed=3)
    r = render_scene(L.start_position(), CLEAN, seed=3, dice=[die])
    [seen] = r.dice
    assert (seen.value, seen.half, seen.on_checker, seen.off_board, seen.overhang) == (value, "left", False, False, False)
    x0, y0, x1, y1 = seen.box
    ys, xs = np.nonzero(cv2.absdiff(plain.image, r.image).max(axis=2) > 3)
    shadow = 0.15 * (seen.box[2] - seen.box[0]) / die.size  # the shadow falls 0.07 pw aside (the camera may be turned)
    assert xs.min() >= x0 - shadow and ys.min() >= y0 - shadow and xs.max() <= x1 + shadow and ys.max() <= y1 + shadow
    face = cv2.cvtColor(r.image[int(y0) + 2:int(y1) - 1, int(x0) + 2:int(x1) - 1], cv2.COLOR_BGR2GRAY)
    n, _ = cv2.connectedComponents((face < 110).astype(np.uint8))
    assert n - 1 == value


def test_dice_report_their_half_checker_and_edge() -> None:
    pos = L.start_position()
    dice = [Die(2, x=10.0, y=5.5), Die(3, x=6.5, y=5.5), Die(4, x=-0.8, y=5.0), Die(5, x=3.0, y=0.0, off_board=True),
            Die(6, x=0.5, y=0.5, on_checker=True), Die(1, x=11.0, y=3.0, angle=0.0, tilt=20.0)]
    r = render_scene(pos, CLEAN, seed=5, dice=dice)
    got = [(d.value, d.half, d.on_checker, d.off_board, d.overhang) for d in r.dice]
    assert got == [(2, "right", False, False, False), (3, "bar", False, False, False), (4, None, False, True, True),
                   (5, "left", False, False, True), (6, "left", True, False, False), (1, "right", False, False, False)]
    on = r.dice[4]
    assert min((on.board[0] - x) ** 2 + (on.board[1] - y) ** 2 for x, y, _ in r.props.checkers) < 0.45 ** 2
    H = board_to_image(r, L.BoardShape())
    for d in r.dice:  # the image centre is the board centre seen through the camera
        c = cv2.perspectiveTransform(np.array([[d.board]], np.float32), H)[0, 0]
        assert np.hypot(*(c - d.centre)) < 1.0
        assert d.box[0] <= d.centre[0] <= d.box[2] and d.box[1] <= d.centre[1] <= d.box[3]
    tilted = r.dice[5]
    flat = render_scene(pos, CLEAN, seed=5, dice=[replace(dice[5], tilt=0.0)]).dice[0]
    assert tilted.box[3] - tilted.box[1] > 1.15 * (flat.box[3] - flat.box[1])  # a side face shows


def test_random_dice_are_thrown_on_the_board_with_some_on_or_against_checkers() -> None:
    p = replace(CLEAN, dice_prob=1.0)
    dice = [d for s in range(40) for d in render_scene(L.random_position(np.random.default_rng(s)), p, seed=s).dice]
    assert len(dice) == 80 and {d.value for d in dice} == set(range(1, 7))
    assert any(d.on_checker for d in dice) and any(d.overhang for d in dice)
    assert sum(d.half in ("left", "right") for d in dice) > 60


@pytest.mark.parametrize("row_max", [6, 7])
def test_tournament_rows_line_up_more_checkers_along_the_point(row_max: int) -> None:
    for n in range(16):
        slots = stack_offsets(n, 0.76, row_max)
        assert len(slots) == n == len(set(slots))
        for d, layer in slots:  # every upper checker rests across two of the layer below
            if layer:
                assert {(round(d - 0.38, 6), layer - 1), (round(d + 0.38, 6), layer - 1)} <= {(round(a, 6), b) for a, b in slots}
    assert [layer for _, layer in stack_offsets(row_max, 0.76, row_max)] == [0] * row_max
    assert [layer for _, layer in stack_offsets(7, 0.9, 7)] == [0] * 6 + [1]  # only six of 0.9 fit in half the board
    assert stack_offsets(7, 0.9) == stack_offsets(7, 0.9, 5)


def test_six_in_a_row_gives_six_checkers_along_the_point() -> None:
    pts = [PointReading(0, None)] * 24
    pts[5] = PointReading(6, "dark")
    pos = BoardEvidence(points=tuple(pts), bar=(0, 0))
    for row_max, first_row in ((5, 5), (6, 6)):
        r = render_scene(pos, replace(CLEAN, checker=(0.9, 0.9), row_max=row_max), seed=2)
        ys = sorted(round(y, 1) for _, y, rad in r.props.checkers if rad == pytest.approx(0.45))
        assert len(ys) == first_row
        assert np.allclose(np.diff(ys), 0.9, atol=0.3)


def test_textured_faces_change_only_the_checkers() -> None:
    pos = L.start_position()
    plain = render_scene(pos, CLEAN, seed=1)
    faced = render_scene(pos, replace(CLEAN, face_prob=1.0), seed=1)
    assert all(f is not None for f in faced.props.faces)
    pts = changed_board_points(plain, faced, L.BoardShape(), level=6)
    assert len(pts) > 500
    discs = np.array([(x, y, r) for x, y, r in faced.props.checkers])
    d = np.hypot(pts[:, None, 0] - discs[None, :, 0], pts[:, None, 1] - discs[None, :, 1]) - discs[None, :, 2]
    assert (d.min(axis=1) < 0.02).all()


def test_bar_checkers_sit_off_centre_with_bar_offset() -> None:
    pos = BoardEvidence(points=L.start_position().points, bar=(3, 2))
    shape = L.BoardShape(bar=0.7)
    centre = L.BAR_LEFT + 0.35
    spread = []
    for off in (0.0, 0.15):
        xs = [x - centre for s in range(6) for x, _, _ in
              render_scene(pos, replace(CLEAN, shape=shape, bar_offset=off), seed=s).props.checkers
              if abs(x - centre) < 0.6]
        assert len(xs) == 30
        spread.append(float(np.std(xs)))
    assert spread[1] > 2 * spread[0]


def test_a_frame_lip_covers_a_band_along_its_edge() -> None:
    pos = L.start_position()
    for seed in range(4):
        plain = render_scene(pos, CLEAN, seed=seed)
        lipped = render_scene(pos, replace(CLEAN, lip_prob=1.0), seed=seed)
        assert lipped.props.lip is not None
        edge, depth = lipped.props.lip
        pts = changed_board_points(plain, lipped, L.BoardShape())
        dist = {"top": pts[:, 1], "bottom": L.HEIGHT - pts[:, 1], "left": pts[:, 0], "right": L.WIDTH - pts[:, 0]}[edge]
        assert len(pts) > 100 and (dist < depth + 0.08).all() and (dist > -0.08).all()


def test_clock_and_score_board_stand_beside_the_board() -> None:
    pos = L.start_position()
    for seed in range(4):
        plain = render_scene(pos, CLEAN, seed=seed)
        r = render_scene(pos, replace(CLEAN, clock_prob=1.0, scoreboard_prob=1.0), seed=seed)
        assert [name for name, _ in r.props.beside] == ["clock", "scoreboard"]
        ys, xs = np.nonzero(cv2.absdiff(plain.image, r.image).max(axis=2) > 3)
        pix = np.stack([xs, ys], 1).astype(float)
        boxes = tuple(b for _, b in r.props.beside)
        assert len(pix) > 500 and inside(pix, boxes, 3.0).all()
        tex = L.BoardShape().corners_pw() + np.array([[-1.15, -1.15], [2.65 + 1.15, -1.15], [2.65 + 1.15, 1.15], [-1.15, 1.15]])
        quad = cv2.perspectiveTransform(tex[None].astype(np.float32), board_to_image(r, L.BoardShape()))[0]
        on_board = [cv2.pointPolygonTest(quad, (float(x), float(y)), True) > 1 for x, y in pix[::37]]
        assert not any(on_board)


def test_a_moving_arm_is_blurred_only_around_itself() -> None:
    pos = L.start_position()
    for seed in (0, 3):
        empty = render_scene(pos, CLEAN, seed=seed)
        sharp = render_scene(pos, CLEAN, seed=seed, hand=True)
        blurred = render_scene(pos, replace(CLEAN, arm_blur_prob=1.0), seed=seed, hand=True)
        n = blurred.props.arm_blur
        assert n >= 8 and sharp.props.arm_blur == 0
        arm = (cv2.absdiff(empty.image, sharp.image).max(axis=2) > 0).astype(np.uint8)
        near = cv2.dilate(arm, np.ones((2 * n + 3, 2 * n + 3), np.uint8)) > 0
        moved = cv2.absdiff(sharp.image, blurred.image).max(axis=2) > 3
        assert moved.sum() > 1000 and not (moved & ~near).any()
        edges = [cv2.Laplacian(cv2.cvtColor(im.image, cv2.COLOR_BGR2GRAY), cv2.CV_32F)[arm > 0].var() for im in (sharp, blurred)]
        assert edges[1] < edges[0]


def test_bad_options_are_errors_naming_them() -> None:
    with pytest.raises(ValueError, match="row_max 9"):
        RenderParams(row_max=9)
    with pytest.raises(ValueError, match="dice_prob 1.5"):
        RenderParams(dice_prob=1.5)
    with pytest.raises(ValueError, match="die value 7"):
        Die(7)
    with pytest.raises(ValueError, match="both coordinates"):
        Die(3, x=1.0)


def test_on_a_real_table_a_move_leaves_the_checkers_it_did_not_touch_as_they_lay() -> None:
    # 24/13 (Dark, 6-5 from the start): the frame changes only where that checker left and landed;
    # without still_checkers every checker drawn after the first changed place lay and turned afresh
    from referee.rules.moves import legal_plays
    from referee.rules.position import Position
    from referee.turn.matching import layout_of, layout_to_evidence
    start = Position.start()
    after = next(lp.result.swap() for lp in legal_plays(start, 6, 5) if str(lp.play) == "24/13")
    changed = {}
    for still in (True, False):
        params = RenderParams.real_table(still_checkers=still, dice_prob=0.0, face_prob=1.0)
        a = render_scene(layout_to_evidence(layout_of(start)), params, seed=950000, frame=1)
        b = render_scene(layout_to_evidence(layout_of(after)), params, seed=950000, frame=1)
        diff = np.abs(a.image.astype(int) - b.image.astype(int)).sum(axis=2) > 40
        changed[still] = int(diff.sum())
        if still:   # two checker-sized blobs: where it left, where it landed
            n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(diff.astype(np.uint8), np.ones((5, 5))))
            assert n - 1 == 2
    assert changed[True] < 0.5 * changed[False]


def test_a_die_away_from_the_cameras_foot_shows_side_faces_and_their_pips() -> None:
    """A camera over the board sees a die's top face pushed away from its foot and the side faces turned
    towards it, pips and all (a real table's camera does, towards the board's edges); at its foot, the top
    face alone."""
    p = replace(CLEAN, camera_height=(12.0, 12.0))
    plain = render_scene(L.start_position(), p, seed=3)
    pips = {}
    for where, x, y in (("edge", 2.9, 5.5), ("middle", None, None)):
        if x is None:   # right under the camera: its foot lies near the playing area's middle
            from vision.render import _camera
            fx, fy, _h = _camera(p, L.BoardShape(), 3)
            x, y = fx - 0.35, fy   # (clear of the bar)
            assert abs(x - L.WIDTH / 2) < 2.0 and abs(y - L.HEIGHT / 2) < 1.5
        r = render_scene(L.start_position(), p, seed=3, dice=[Die(4, x=x, y=y, angle=0.0, size=0.5)])
        [seen] = r.dice
        x0, y0, x1, y1 = seen.box
        changed = cv2.absdiff(plain.image, r.image).max(axis=2) > 3
        ys, xs = np.nonzero(changed)
        shadow = 0.15 * (x1 - x0) / 0.5
        assert xs.min() >= x0 - shadow and xs.max() <= x1 + shadow and ys.min() >= y0 - shadow and ys.max() <= y1 + shadow
        face = cv2.cvtColor(r.image[int(y0) + 2:int(y1) - 1, int(x0) + 2:int(x1) - 1], cv2.COLOR_BGR2GRAY)
        pips[where] = cv2.connectedComponents((face < 110).astype(np.uint8))[0] - 1
    assert pips["middle"] == 4 < pips["edge"]
    with pytest.raises(ValueError, match="camera_height"):
        RenderParams(camera_height=(3.0, 5.0))
