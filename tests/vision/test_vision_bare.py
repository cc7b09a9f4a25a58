"""Each point against the bare points of its colour (vision.bare), the rim pattern's fit
(vision.stacks.tall_fit) and a settled reading's kept points (vision.totals): on made-up
profiles, and on real frames of tests/data/vision_real."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from referee.events import PointReading as P
from vision import bare as B
from vision import layout as L
from vision import totals as T
from vision.params import DEFAULT, ReadParams
from vision.rims import Profiles, axes
from vision.stacks import Checker, PointCount, count_point, tall_fit

DATA = Path(__file__).resolve().parents[1] / "data" / "vision_real"
RED, CREAM = (40, 40, 150), (200, 220, 230)       # the two point colours (BGR)
BLACK, WHITE = (25, 25, 25), (245, 245, 245)      # the two checker colours


def _board(faces: dict[str, list[tuple[int, int, int]]], rings: dict[str, list[float]] | None = None,
           p: ReadParams = DEFAULT) -> Profiles:
    """Profiles of a board whose points of even index are red and odd ones cream, with the
    given face colours from the base of the named points, and whole rims (in thresholds) there."""
    dist = np.arange(p.axis_start, p.axis_end, p.step, dtype=np.float32)
    names = [a.name for a in axes(p)]
    colour = np.zeros((24, len(dist), 3), np.uint8)
    full = np.full((24, len(dist)), 0.1 * p.threshold, np.float32)
    for j, n in enumerate(names):
        colour[j] = RED if int(n.lstrip("topbotm")) % 2 == 0 else CREAM
        for k, c in enumerate(faces.get(n, [])):
            near = np.abs(dist - (k + 0.5) * p.checker) <= p.checker / 2
            colour[j, near] = c
        for k, r in enumerate((rings or {}).get(n, [])):
            full[j, int(np.argmin(np.abs(dist - (k + 0.5) * p.checker)))] = r * p.threshold
    bar_y = np.arange(0.3, L.HEIGHT - 0.3, p.step, dtype=np.float32)
    return Profiles(full, full, np.zeros_like(full), dist, np.zeros_like(bar_y), bar_y, 1.0, colour)


def _counts(read: dict[str, int]) -> dict[str, PointCount]:
    out = {}
    for a in axes(DEFAULT):
        n = read.get(a.name, 0)
        out[a.name] = PointCount(n, (Checker(a.name, a.x, a.y0 + a.direction * 0.45, 1.0),) if n else (), 0.8)
    return out


def _real(name: str):
    cv2 = pytest.importorskip("cv2")
    from vision.config import VisionConfig
    from vision.reader import BoardReader

    lab = json.loads((DATA / "labels.json").read_text())["images"][name]
    cfg = VisionConfig(markers=False, corners=L.format_corners(lab["corners"]), dark_home="bottom-right",
                       bar_width=lab["bar_width"], board_height=lab["board_height"])
    reader = BoardReader(cfg, corners=L.parse_corners(L.format_corners(lab["corners"])))
    r = reader.inspect(cv2.imread(str(DATA / "images" / f"{name}.jpg")), read_occluded=True)
    assert r.rows is not None
    return r.rows, lab


def test_a_stack_whose_faces_show_its_own_bare_point_is_unsure_unless_its_rims_are_clear() -> None:
    # top0 (a red point) "holds" 2 whose faces are just red, its rims clear of the bare red points'
    # (0.1 thresholds); top4 (red) holds 1 red-faced "checker" whose rim is no more than theirs
    # twice over: the point's own pattern; top2 (red too) holds 2 black checkers
    prof = _board({"top0": [RED, RED], "top2": [BLACK, BLACK], "top4": [RED], "bottom3": [BLACK]},
                  {"top0": [1.0, 1.0], "top4": [0.15]})
    per = _counts({"top0": 2, "top2": 2, "top4": 1, "bottom3": 1})
    out = B.bare_points(prof, per, DEFAULT)
    assert out["top0"].count == 2
    assert out["top0"].confidence == pytest.approx(0.8 * DEFAULT.point_knee / B.CLEAR)
    assert out["top4"].count == 0 and out["top4"].confidence < DEFAULT.point_knee      # empty, unsure
    assert out["top2"] == per["top2"] and out["bottom3"] == per["bottom3"]   # faces unlike the point: as read


def test_a_board_read_covered_on_every_point_is_its_pattern_but_where_a_rim_stands_out() -> None:
    # every point "holds" one, each colour's alike (an etched board's busy points): no game covers
    # every point, so the pattern is what a row's points of a colour show alike; top3's rim
    # stands three times above its colour's: a checker
    rings = {a.name: [1.0] for a in axes(DEFAULT)}
    rings["top3"] = [3.0]
    per = _counts({a.name: 1 for a in axes(DEFAULT)})
    out = B.bare_points(_board({}, rings), per, DEFAULT)
    assert out["top3"] == per["top3"]
    for a in axes(DEFAULT):
        if a.name != "top3":
            assert out[a.name].count == 0 and out[a.name].confidence < DEFAULT.point_knee, a.name
    # one point bare: the rows are compared with the bare points only (none of top3's colour in the
    # top row: as read; faces unlike the bare points': as read)
    per["bottom0"] = _counts({})["bottom0"]
    assert B.bare_points(_board({}, rings), per, DEFAULT) == per


def test_a_short_row_grows_while_its_next_slots_show_its_face_and_a_ring() -> None:
    # top4: one black checker found; the next two slots show black faces with faint rings, then the red point
    prof = _board({"top4": [BLACK, BLACK, BLACK], "top6": [BLACK, BLACK]}, {"top4": [2.0, 0.7, 0.7], "top6": [2.0]})
    per = _counts({"top4": 1, "top6": 1})
    out = B.bare_points(prof, per, DEFAULT)
    assert out["top4"].count == 3 and out["top4"].confidence < DEFAULT.point_knee and out["top4"].alt == 1
    assert len(out["top4"].samples) == 3
    assert out["top6"] == per["top6"]     # a face there but no ring: no checker


def test_real_frames_bare_looking_blots_are_read_empty_and_a_faint_second_checker_is_counted() -> None:
    from vision.read import CERTAIN
    # template2 (held-out half): the dark points' bases against the frame read as lone dark
    # checkers (0.61..0.63, sure; then 1, unsure); their faces are the points' own colour and their
    # rims no stronger than the bare dark points' twice over: empty, unsure
    rows, lab = _real("template2")
    for row, i in (("top", 4), ("bottom", 1), ("bottom", 3)):
        p = (rows.top if row == "top" else rows.bottom)[i]
        assert lab[row][i][0] == 0 and p.count == 0 and p.confidence < CERTAIN, (row, i, p)
    # wtc2022 frame0 (fresh half): top 5 holds two black checkers, the second's rim faint (was 1, sure)
    rows, lab = _real("frame0")
    assert (rows.top[4].count, rows.top[4].colour) == (2, "dark") == tuple(lab["top"][4])


def test_a_point_whose_rims_fit_no_stack_pattern_keeps_its_rim_count() -> None:
    p = DEFAULT
    dist = np.arange(p.axis_start, p.axis_end, p.step, dtype=np.float32)
    thr = p.threshold
    # a grained or etched point: rings at every half checker, about the board's threshold, in no order
    full = np.full(len(dist), 0.3 * thr, np.float32)
    for h, level in enumerate((1.3, 0.9, 1.2, 1.0, 1.0, 0.8, 0.85, 0.95, 1.25), start=1):
        full = np.maximum(full, level * thr * np.exp(-((dist - h * p.checker / 2) / 0.05) ** 2))
    n, _, _, fit = tall_fit(full, dist, thr, 0.0, p.checker, p)
    assert n >= 10 and fit < 4.0          # the best pattern is a tall one, and it fits badly
    a = axes(p)[0]
    pc = count_point(a, full, full, np.zeros_like(full), dist, p)
    # the rims' own count, a row at most (before: the tall pattern's 13..15); its rims at 0.85..1.3
    # thresholds on every slot make a run of five with the faint inner rims (vision.stacks)
    assert pc.count <= 5, pc
    assert pc.confidence <= p.point_knee / 2   # and unsure: its far end showed a rim it does not explain
    # a clear 12-pyramid still fits its pattern
    from vision.read import TALL_PATTERNS
    halves = [h for h, ch in enumerate(TALL_PATTERNS[14], start=1) if ch == "H"]
    peaks = np.zeros(len(dist), np.float32)
    for h in halves:
        peaks = np.maximum(peaks, 2.5 * thr * np.exp(-((dist - h * p.checker / 2) / 0.05) ** 2))
    assert tall_fit(np.maximum(peaks, 0.2 * thr), dist, thr, 0.0, p.checker, p)[3] >= 4.0


def test_a_real_stack_the_tall_pattern_misfitted_is_read_by_its_rims() -> None:
    # dices6 (held-out half): bottom 12 holds two dark checkers; the pattern pass (fit 2 of 9)
    # made it a tall stack the totals then cut to a light one
    rows, lab = _real("dices6")
    assert (rows.bottom[11].count, rows.bottom[11].colour) == (2, "dark") == tuple(lab["bottom"][11])


def test_a_settled_reading_keeps_no_point_surer_than_the_possible_readings_agree() -> None:
    # every point read as two dark checkers, surely (a patterned, empty board): 48 dark
    pts = [P(2, "dark", 0.9)] * 24
    s = T.settle_totals(pts, (0, 0), 0.9)
    assert s is not None
    kept = [p for i, p in enumerate(s.points) if i not in s.changed and p.count]
    assert kept and all(p.confidence < 0.6 for p in kept)
    # a reading one phantom over: the points it keeps stay as sure as they were read
    ok = [P(5, "dark", 0.9), P(0, None, 0.9)] + [P(0, None, 0.9)] * 10 + [P(5, "light", 0.9)] * 3 + \
        [P(0, None, 0.9)] * 3 + [P(5, "dark", 0.9), P(5, "dark", 0.9), P(1, "dark", 0.2)] + [P(0, None, 0.9)] * 3
    s = T.settle_totals(ok, (0, 0), 0.9)
    assert s is not None and s.changed == (20,)
    assert all(p.confidence >= 0.6 for i, p in enumerate(s.points) if i != 20)
