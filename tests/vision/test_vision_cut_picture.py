"""A picture that cuts off part of the board's frame (a camera set close, a photo cropped to the
board): where the rectified view reaches past the picture its pixels repeat the picture's edge and
show nothing, so the single-frame checks leave those places unjudged instead of seeing something
over the board there (the real unseen5 `redblack_crop`: its left, top and bottom frame lie out of
the picture, and every case was refused as "something over the board" before)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np

from referee.events import BoardEvidence
from vision import layout as L
from vision.blank_patch import BlankParams, blank_patch, emptiest_patch
from vision.cli import _text, read_image
from vision.config import VisionConfig
from vision.occlusion import OcclusionParams, band_scores, occlusion_score
from vision.odds import UNSEEN, row_odds
from vision.reader import BoardReader
from vision.rectify import FrameMap, View, points_out_of_picture, rectify
from vision.render import RenderParams, render_scene
from vision.stability import REBASE_FRAMES, StabilityFilter

CALM = RenderParams(glare_prob=0.0, shadow_prob=0.0)
PX = 20
NAVY = (90, 40, 20)


def clean_view(seed: int = 3) -> View:
    r = render_scene(L.start_position(), CALM, seed=seed)
    return rectify(r.image, r.corners, PX)


def boxed(view: View, x0: float, x1: float, y0: float, y1: float, colour: tuple[int, int, int]) -> View:
    """``view`` with a box of ``colour`` from ``x0`` to ``x1`` and ``y0`` to ``y1`` pw (layout)."""
    img = view.image.copy()
    m, px = view.margin, view.px
    img[max(0, int((m + y0) * px)):int((m + y1) * px), max(0, int((m + x0) * px)):int((m + x1) * px)] = colour
    return dataclasses.replace(view, image=img)


def cut_at(view: View, x_cut: float) -> View:
    """``view`` as cut from a picture (10 px a pw, straight above) that shows the board only from
    layout x ``x_cut`` on: everything left of it lies out of the picture."""
    px = 10.0
    corners = (L.playing_corners_pw() - np.array([x_cut, -1.0], np.float32)) * px
    size = (int((L.HEIGHT + 2) * px), int((L.WIDTH + 2 - x_cut) * px))
    return dataclasses.replace(view, frame=FrameMap(corners.astype(np.float32), L.BoardShape(), size))


def test_a_view_knows_which_board_places_its_picture_shows() -> None:
    r = render_scene(L.start_position(), CALM, seed=3)
    view = rectify(r.image, r.corners, PX)
    assert view.frame is not None and view.frame.size == r.image.shape[:2]
    xs, ys = np.array([-0.3, 3.0, 12.0, L.WIDTH + 0.3]), np.array([5.0, 1.0, 9.0, 5.0])
    assert view.in_frame(xs, ys).all() and view.sees_all(-0.5, -0.5, L.WIDTH + 0.5, L.HEIGHT + 0.5)
    cut = cut_at(view, 0.5)
    assert cut.in_frame(xs, ys).tolist() == [False, True, True, True]
    assert not cut.sees_all(0.0, 0.0, 1.0, 1.0) and cut.sees_all(0.6, 0.0, L.WIDTH, L.HEIGHT)
    # a view that does not know its picture sees everywhere (as before)
    plain = View(view.image, view.px, view.margin)
    assert plain.in_frame(xs, ys).all() and plain.sees_all(-9.0, -9.0, 99.0, 99.0)


def test_a_board_of_another_shape_maps_through_its_own_proportions() -> None:
    shape = L.BoardShape(bar=2.0, height=12.0)
    corners = shape.corners_pw() * 10.0 + np.float32(5.0)
    fm = FrameMap(corners, shape, (int(12 * 10 + 10), int(shape.width * 10 + 10)))
    # the layout's right edge (x 13) is the wider board's (x 14): inside; just past the picture's edge: not
    xs = np.array([L.WIDTH, L.WIDTH + 0.4, L.WIDTH + 0.6])
    assert fm.inside(xs, np.full(3, 5.0)).tolist() == [True, True, False]


def test_a_frame_band_out_of_the_picture_is_not_judged_but_an_arm_across_a_seen_one_is() -> None:
    view = clean_view()
    b0, b1 = OcclusionParams().band
    # what a view past the picture's edge holds: the edge's pixels smeared across the left band
    smeared = boxed(view, -b1 - 0.2, -b0 + 0.1, 1.0, L.HEIGHT - 1.0, (230, 230, 230))
    smeared = boxed(smeared, -b1 - 0.2, -b0 + 0.1, 1.5, 3.0, (20, 20, 20))   # (off the cube's place)
    assert band_scores(smeared)[2] > 2.5   # judged as if seen: something over the board on the left
    cut = cut_at(smeared, 0.05)             # ... but the picture ends at the playing area's left edge
    scores = band_scores(cut)
    assert scores[2] == 0.0 and occlusion_score(cut) < 1.0
    assert scores[:2] == band_scores(smeared)[:2] or max(scores[:2]) < 1.0
    # an arm across the bottom band of the same cut picture is seen as in the whole picture
    arm = boxed(cut, 3.0, 4.5, L.HEIGHT - 0.5, L.HEIGHT + b1 + 0.2, (240, 240, 240))
    whole = boxed(view, 3.0, 4.5, L.HEIGHT - 0.5, L.HEIGHT + b1 + 0.2, (240, 240, 240))
    assert band_scores(arm)[1] == band_scores(whole)[1] > 2.5 and occlusion_score(arm) > 2.5


def test_a_plain_stretch_out_of_the_picture_is_no_sleeve_but_a_sleeve_in_it_is() -> None:
    view = clean_view()
    # the picture's edge repeated over the rows' first two and a half points: as plain as a sleeve
    plain = boxed(view, -0.6, 2.5, -0.6, L.HEIGHT + 0.6, (120, 140, 160))
    assert blank_patch(plain) is not None and emptiest_patch(plain)[0] < BlankParams().limit
    cut = cut_at(plain, 2.5)
    assert blank_patch(cut) is None and emptiest_patch(cut)[0] > 4 * BlankParams().limit
    # a sleeve over the seen part of the same picture is refused as before
    sleeve = boxed(cut, 7.5, 10.0, 6.0, L.HEIGHT + 0.6, NAVY)
    assert blank_patch(sleeve) in {f"bottom {i}" for i in (8, 9, 10)}


def test_a_rendered_board_photographed_with_its_left_frame_cut_off_is_read_as_a_board() -> None:
    img, corners, _ = cut_scene()
    result = BoardReader(VisionConfig(), corners=corners).inspect(img)
    assert result.view is not None and not result.view.sees_all(-0.3, 0.0, 0.0, L.HEIGHT)
    assert result.evidence is not None and not result.occluded


def test_the_points_a_cut_picture_leaves_out_are_named() -> None:
    view = clean_view()
    assert points_out_of_picture(view) == (False,) * 24
    assert [i for i, c in enumerate(points_out_of_picture(cut_at(view, 0.5))) if c] == [0, 12]   # top 1, bottom 1
    assert [i for i, c in enumerate(points_out_of_picture(cut_at(view, 1.2))) if c] == [0, 1, 12, 13]


def test_a_point_the_picture_does_not_show_tells_nothing_in_the_odds() -> None:
    rows = L.RowReading(tuple(L.PointReading(2, "light", 0.9) for _ in range(12)),
                        tuple(L.PointReading(0, None, 0.9) for _ in range(12)), (0, 0), 0.9)
    plain = row_odds(rows)
    cut = row_odds(rows, unseen=[i in (0, 12) for i in range(24)])
    assert cut[0] == cut[12] == UNSEEN and len({p for _, _, p in UNSEEN}) == 1 and len(UNSEEN) == 31
    assert plain[0] != UNSEEN and cut[1:12] == plain[1:12] and cut[13:] == plain[13:]


def cut_scene(seed_from: int = 0, position: "L.BoardEvidence | None" = None,
              frame: int = 0) -> tuple[np.ndarray, np.ndarray, int]:
    """A clean rendered board (upright: its left on the picture's left) photographed with the picture
    cut a sixth of a point inside the playing area's left edge: the picture, its corners and the seed."""
    for seed in range(seed_from, seed_from + 12):
        r = render_scene(position or L.start_position(), CALM, seed=seed, frame=frame)
        c = np.asarray(r.corners, np.float32)
        if c[0, 0] < c[1, 0] and c[3, 0] < c[2, 0] and c[0, 1] < c[3, 1]:
            break
    pw = float(np.linalg.norm(c[1] - c[0])) / L.WIDTH
    cut = int(round(max(c[0, 0], c[3, 0]) + pw / 6))
    return np.ascontiguousarray(r.image[:, cut:]), c - np.array([cut, 0], np.float32), seed


def test_read_names_the_points_out_of_the_picture_and_gives_them_no_odds(tmp_path: Path) -> None:
    img, corners, _ = cut_scene()
    path = tmp_path / "cut.png"
    cv2.imwrite(str(path), img)
    out = read_image(str(path), " ".join(f"{x:.1f},{y:.1f}" for x, y in corners), dice=False)
    assert out["board_found"] and out["out_of_picture"] == ["top 1", "bottom 1"]
    assert out["p"]["top"][0] == out["p"]["bottom"][0] == round(UNSEEN[0][2], 3) and min(out["p"]["top"][1:]) > 0.3
    text = _text(out).splitlines()
    assert text[0].split()[1] == "?" and text[1].split()[1] == "?" and "not in the picture whole" in _text(out)


def test_a_move_at_a_cut_off_edge_is_read_at_once_not_taken_for_a_hand() -> None:
    # Dark plays 13/8 from the stack at the picture's cut edge (image top left): the warp repeats that
    # edge over the frame band, so the move changes the band too; it used to count as a hand there until
    # REBASE_FRAMES still frames had passed
    start = L.start_position()
    pts = list(start.points)
    pts[12] = dataclasses.replace(pts[12], count=4)
    pts[7] = dataclasses.replace(pts[7], count=4)
    moved = dataclasses.replace(start, points=tuple(pts))
    _, corners, seed = cut_scene()
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
    events = []
    for k in range(8 + REBASE_FRAMES):
        img, _, _ = cut_scene(seed, start if k < 8 else moved, frame=k + 1)
        events.append(sf.feed(img, t=k))
    boards = [k for k, e in enumerate(events) if isinstance(e, BoardEvidence)]
    assert boards and boards[0] < 8 and len(boards) == 2
    assert boards[1] - 8 <= VisionConfig().stable_frames + 2 < REBASE_FRAMES
    assert events[boards[1]].points[7].count == 4


def test_the_table_is_told_once_which_points_its_camera_leaves_out() -> None:
    img, corners, seed = cut_scene()
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
    sf.known(L.start_position())   # a game's start: the board learned from the first still frame showing it
    reports = []
    for k in range(12):
        frame, _, _ = cut_scene(seed, frame=k + 1)
        sf.feed(frame, t=k)
        reports.append(sf.take_report())
    told = [r for r in reports if r is not None]
    assert sf.learned == 1 and len(told) == 1
    # the picture's left edge: the top-left point is 13 and the bottom-left 12, Dark's home bottom right
    assert told[0].startswith("the camera's picture leaves out part of points 12, 13: set the camera")
    # a whole picture: nothing told
    whole = render_scene(L.start_position(), CALM, seed=seed)
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=whole.corners))
    sf.known(L.start_position())
    for k in range(12):
        sf.feed(render_scene(L.start_position(), CALM, seed=seed, frame=k + 1).image, t=k)
        assert sf.take_report() is None
    assert sf.learned == 1


def test_a_cut_camera_is_told_even_when_the_first_position_is_not_learned() -> None:
    # the referee tells a position the board does not show (players still setting up): nothing is
    # learned, but the camera's cut is told at once (before the table's patience with the set-up runs out)
    _, corners, seed = cut_scene()
    told = L.random_position(np.random.default_rng(7))
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
    sf.known(told)
    reports = []
    for k in range(8):
        frame, _, _ = cut_scene(seed, frame=k + 1)
        sf.feed(frame, t=k * 0.1)
        reports.append(sf.take_report())
    assert sf.learned == 0
    said = [r for r in reports if r is not None]
    assert len(said) == 1 and said[0].startswith("the camera's picture leaves out part of points 12, 13")
