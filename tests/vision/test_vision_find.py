"""Board finding without markers (vision.locate): rendered boards, real photos, no-board images, the CLI."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import layout as L
from referee.cli import main as bgtable
from vision.config import VisionConfig
from vision import locate
from vision.locate import MIN_EVIDENCE, auto_corners, corners_as_seen, find_board, order_corners
from vision.photos import load_boxes
from vision.reader import BoardReader
from vision.render import SCHEMES, RenderParams, render_scene


def _rel_error(found: np.ndarray, truth: np.ndarray) -> float:
    a, b = order_corners(found), order_corners(truth)
    return float(np.abs(a - b).max() / np.linalg.norm(b[1] - b[0]))


def test_every_scheme_found_and_read_without_markers() -> None:
    """Two seeded boards per colour scheme, some seen upside down: the found area is the true
    one within 2 % of its width, and the reader then reads the board exactly."""
    right = exact = 0
    for k, scheme in enumerate(SCHEMES):
        for j in range(2):
            seed = 700 + 10 * k + j
            pos = L.random_position(np.random.default_rng(seed))
            r = render_scene(pos, RenderParams(markers=False, scheme=scheme.name, flip_prob=0.5), seed=seed)
            c = auto_corners(r.image)
            if c is None or _rel_error(c, r.corners) >= 0.02:
                continue
            right += 1
            reader = BoardReader(VisionConfig(markers=False, auto=False), corners=c)
            reader.setup = L.SetUp("top-left") if r.flipped else L.SetUp()
            ev = reader.read(r.image)
            exact += ev is not None and L.same_board(ev, pos)
    assert right >= 10, right
    assert exact >= right - 1, (exact, right)


def test_found_corners_are_ordered_as_seen() -> None:
    r = render_scene(L.start_position(), RenderParams(markers=False, flip_prob=1.0, glare_prob=0, shadow_prob=0), seed=4)
    c = auto_corners(r.image)
    assert c is not None
    assert r.flipped and np.abs(c - np.roll(r.corners, 2, axis=0)).max() < 12  # top-left as seen first
    rows_h = np.array([[10, 10], [110, 12], [108, 90], [12, 88]], np.float32)
    assert np.array_equal(corners_as_seen(rows_h), rows_h)
    assert np.array_equal(corners_as_seen(np.roll(rows_h, 2, axis=0)), rows_h)
    assert np.array_equal(corners_as_seen(rows_h[[1, 0, 3, 2]]), rows_h)  # mirrored input
    rows_v = rows_h[[1, 2, 3, 0]]  # rows run up and down: the top-right corner first, first edge downwards
    got = corners_as_seen(rows_v[[2, 3, 0, 1]])
    assert np.array_equal(got, rows_v)


def _no_board_images() -> list[np.ndarray]:
    rng = np.random.default_rng(5)
    out = [np.full((360, 480, 3), 90, np.uint8), rng.integers(0, 255, (360, 480, 3), dtype=np.uint8)]
    ys, xs = np.mgrid[0:360, 0:480].astype(np.float32)
    for period, ang in ((24.0, 0.0), (40.0, 0.3)):
        wave = (np.sin((xs * np.cos(ang) + ys * np.sin(ang)) * 2 * np.pi / period) > 0)[..., None]
        out.append(np.where(wave, np.uint8(220), np.uint8(40)).repeat(3, axis=2).astype(np.uint8))
    chess = np.full((360, 480, 3), 120, np.uint8)
    for r in range(8):
        for c in range(8):
            chess[20 + r * 40:60 + r * 40, 80 + c * 40:120 + c * 40] = 230 if (r + c) % 2 else 30
    out.append(chess)
    shapes = np.full((360, 480, 3), 150, np.uint8)
    for _ in range(10):
        p = rng.integers(0, 480, 2), rng.integers(0, 360, 2)
        cv2.rectangle(shapes, (int(p[0][0]), int(p[1][0])), (int(p[0][1]), int(p[1][1])),
                      tuple(int(v) for v in rng.integers(0, 255, 3)), int(rng.integers(-1, 5)))
    out.append(shapes)
    return out


def test_no_board_in_plain_noise_stripes_chessboard_or_shapes() -> None:
    for i, img in enumerate(_no_board_images()):
        fit = find_board(img)
        assert fit is None or fit.evidence < MIN_EVIDENCE, (i, fit and fit.evidence)
        assert auto_corners(img) is None, i


# real photos nobody here made, reported as a board, with the IoU of the found area's bounding
# box and the labelled board box measured by bench/vision_find.py (0.89..0.96; the box includes
# the frame); image002 and image013 were refused or a point off before the shape jumps
REAL = ("image002", "image008", "image010", "image013", "image038")


def _iou(c: np.ndarray, box: tuple[float, float, float, float]) -> float:
    x0, y0 = c.min(axis=0)
    x1, y1 = c.max(axis=0)
    inter = max(0.0, min(x1, box[2]) - max(x0, box[0])) * max(0.0, min(y1, box[3]) - max(y0, box[1]))
    return float(inter / ((x1 - x0) * (y1 - y0) + (box[2] - box[0]) * (box[3] - box[1]) - inter))


@pytest.mark.parametrize("name", REAL)
def test_real_photo_playing_area_matches_the_labelled_board(photos_dir: Path, name: str) -> None:
    img = cv2.imread(str(photos_dir / f"{name}.jpg"))
    h, w = img.shape[:2]
    labels = load_boxes(photos_dir / f"{name}.txt", w, h)
    board = next(b[1:] for b in labels if b[0] == 1)
    c = auto_corners(img)
    assert c is not None
    assert _iou(c, board) >= 0.8
    # the bar runs across the rows, through the middle of the first and last edges
    top_mid, bottom_mid = (c[0] + c[1]) / 2, (c[3] + c[2]) / 2
    bars = [b[1:] for b in labels if b[0] == 0]
    slack = 0.01 * max(w, h)
    assert any(all(x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack
                   for x, y in (0.8 * top_mid + 0.2 * bottom_mid, 0.2 * top_mid + 0.8 * bottom_mid))
               for x0, y0, x1, y1 in bars)


def test_real_photo_with_rows_up_and_down_starts_top_right(photos_dir: Path) -> None:
    fit = find_board(cv2.imread(str(photos_dir / "IMG_2602.jpg")))  # bar across the picture
    assert fit is not None
    c = fit.as_seen()
    board = next(b[1:] for b in load_boxes(photos_dir / "IMG_2602.txt", 640, 640) if b[0] == 1)
    assert _iou(c, board) >= 0.8
    d = c[1] - c[0]
    assert d[1] > abs(d[0])  # the first edge (the "top" row) runs downwards
    assert c[0][0] > c[3][0]  # on the right-hand side


def test_cli_reads_a_board_found_automatically_and_says_when_there_is_none(tmp_path: Path, capsys) -> None:
    r = render_scene(L.start_position(), RenderParams(markers=False, flip_prob=0), seed=5)
    board, blank = tmp_path / "board.png", tmp_path / "blank.png"
    cv2.imwrite(str(board), r.image)
    cv2.imwrite(str(blank), np.full((300, 400, 3), 80, np.uint8))
    assert bgtable(["read", str(board), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["board_found"] and res["corner_source"] == "auto"
    assert len(res["top"]) == 12 and len(res["bottom"]) == 12
    top, bottom = L.SetUp().to_rows(L.start_position())  # left to right as seen
    assert [p[0] for p in res["top"]] == [p.count for p in top]
    assert [p[0] for p in res["bottom"]] == [p.count for p in bottom]
    assert bgtable(["read", str(blank), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["board_found"] is False and res["reason"]["kind"] == "no_board"
    assert res["reason"]["text"].startswith("board not found: ")


def _working_field(img: np.ndarray) -> tuple[locate._Field, float]:
    h, w = img.shape[:2]
    s = min(1.0, locate.WORK / max(h, w))
    small = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    return locate._Field(small, 1.0), s


def test_batched_scores_match_one_at_a_time_and_opencv_homographies() -> None:
    r = render_scene(L.random_position(np.random.default_rng(21)), RenderParams(markers=False), seed=21)
    field, s = _working_field(r.image)
    rng = np.random.default_rng(3)
    quads = np.array([r.corners * s + rng.normal(0, 6, (4, 2)) for _ in range(12)])
    quads[-1] = quads[-1][[0, 2, 1, 3]]           # crossed: not convex
    quads[-2] = quads[-2] * 0.1                   # tiny
    H = locate._homographies(quads)
    for q, h in zip(quads[:10], H[:10]):
        want = cv2.getPerspectiveTransform(locate.UNIT, q.astype(np.float32))
        assert np.abs(h / h[2, 2] - want / want[2, 2]).max() < 1e-6 * np.abs(want).max()
    bh = rng.uniform(*locate.BAR_RANGE, 12)
    pl = rng.uniform(*locate.LEN_RANGE, 12)
    many = locate.scores(field, quads, bh, pl)
    one = [locate.fit_score(field, q, b, p) for q, b, p in zip(quads, bh, pl)]
    assert np.allclose(many, one, rtol=1e-5)
    assert many[-1] == 0 and many[-2] == 0 and many[:10].min() > 0
    # the true area scores best among its disturbed copies
    assert locate.fit_score(field, r.corners * s) > many[:10].max()


@pytest.mark.parametrize("start", ["one point off", "outer outline", "tilted"])
def test_search_leaves_a_wrong_local_fit_for_the_true_area(start: str) -> None:
    """From a fit a whole point off along the rows, on the board's outline, or tilted (the
    wrong areas the search used to report), refinement and hops reach the true area."""
    r = render_scene(L.random_position(np.random.default_rng(31)), RenderParams(markers=False, flip_prob=0), seed=31)
    field, s = _working_field(r.image)
    truth = r.corners.astype(np.float64) * s
    H = cv2.getPerspectiveTransform(locate.UNIT, truth.astype(np.float32))
    pw = (0.5 - locate.BAR_HALF) / 6
    unit = {"one point off": [[pw, 0], [1 + pw, 0], [1 + pw, 1], [pw, 1]],
            "outer outline": [[-0.02, -0.1], [1.02, -0.1], [1.02, 1.1], [-0.02, 1.1]],
            "tilted": [[0, -0.07], [1, 0.07], [1, 1.07], [0, 0.93]]}[start]
    q0 = cv2.perspectiveTransform(np.array([unit], np.float32), H)[0].astype(np.float64)
    fit = locate._refine(field, q0, locate.BAR_HALF, locate.POINT_LEN)
    q, _, _, _ = locate._hop(field, *fit)
    assert _rel_error(q, truth) < 0.02, (start, _rel_error(fit[0], truth), _rel_error(q, truth))


@pytest.mark.parametrize("seed", [700030, 700064])
def test_the_board_outline_does_not_outscore_the_playing_area(seed: int) -> None:
    """Boards whose outline stands out far more against the table than the playing area's
    edge (these two were once reported on their outline): refined from either, the playing
    area scores higher, and the search reports it."""
    pos = L.random_position(np.random.default_rng(seed))
    r = render_scene(pos, RenderParams(markers=False), seed=seed)
    field, s = _working_field(r.image)
    truth = r.corners.astype(np.float64) * s
    H = cv2.getPerspectiveTransform(locate.UNIT, truth.astype(np.float32))
    outer = cv2.perspectiveTransform(np.array([[[0, -0.105], [1, -0.105], [1, 1.105], [0, 1.105]]], np.float32), H)[0]
    a, b = locate._refine_many(field, np.array([truth, outer.astype(np.float64)]), np.full(2, locate.BAR_HALF),
                               np.array([locate.POINT_LEN, 0.48]))
    assert a[3] > b[3] and _rel_error(a[0], truth) < 0.02
    c = auto_corners(r.image)
    assert c is not None and _rel_error(c, r.corners) < 0.02


@pytest.mark.parametrize("seed", [32, 35])
def test_a_fit_one_point_off_has_its_bar_elsewhere(seed: int) -> None:
    """Between the rows' tips the true bar's edges stand out and a bar one point aside finds
    none; shifted a whole point, the fit's own bar finds nothing and the true one lies aside,
    so such a fit is no board however good its triangles."""
    r = render_scene(L.random_position(np.random.default_rng(seed)), RenderParams(markers=False, flip_prob=0), seed=seed)
    field, s = _working_field(r.image)
    truth = r.corners.astype(np.float64) * s
    H = cv2.getPerspectiveTransform(locate.UNIT, truth.astype(np.float32))
    pw = (0.5 - locate.BAR_HALF) / 6
    here, aside = locate.bar_edges(field, truth, locate.BAR_HALF, locate.POINT_LEN)
    assert here > 2 * aside + 0.1 and here > 0.5, (here, aside)
    fit = find_board(r.image)
    assert fit is not None and not fit.bar_elsewhere and fit.evidence >= MIN_EVIDENCE
    for j in (-1, 1):
        unit = np.array([[[j * pw, 0], [1 + j * pw, 0], [1 + j * pw, 1], [j * pw, 1]]], np.float32)
        q = cv2.perspectiveTransform(unit, H)[0].astype(np.float64)
        h2, a2 = locate.bar_edges(field, q, locate.BAR_HALF, locate.POINT_LEN)
        off = locate.Fit(q / s, fit.score, fit.parts, locate.BAR_HALF, locate.POINT_LEN, fit.contrast,
                         fit.periodicity, fit.gap_periodicity, h2, a2)
        assert off.bar_elsewhere and off.evidence <= 0.0, (j, h2, a2)


def test_shape_jump_finds_the_bar_width_at_the_true_area() -> None:
    """At the true quad, the shape grid picks the layout's bar over narrower and wider ones
    and scores at least what the layout's shape scores (a quad stuck with the wrong bar gets it back)."""
    r = render_scene(L.random_position(np.random.default_rng(34)), RenderParams(markers=False, flip_prob=0), seed=34)
    field, s = _working_field(r.image)
    truth = r.corners.astype(np.float64) * s
    bh, pl, sc = locate._shape_jump(field, np.array([truth, truth]))
    assert np.allclose(bh, locate.BAR_HALF)
    assert sc[0] >= locate.fit_score(field, truth, 0.015, pl[0]) and sc[0] >= locate.fit_score(field, truth, 0.055, pl[0])
    assert sc[0] >= 0.95 * locate.fit_score(field, truth)
