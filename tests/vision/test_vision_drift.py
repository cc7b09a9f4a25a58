"""The learned board under a club's light and knocks (issue 14): real frames drifted.

The fresh split's real frames (tests/data/vision_real), judged by a table that learned its
board from the earlier frames of the same game, each judged frame changed the way a club
table changes (``bench/vision_drift.py``): the light (gain, tone curve, colour, a gradient, a
shadow), the camera knocked (shifted, turned), the stream re-compressed.  Never a wrong
verdict; and the table still answers (a table that asks on every move after the sun moved is
useless).  Before the looks were carried into the frame's light and a knock undone, gain 0.7,
gain 1.4 and a shadow over a quarter of the board were asked in every case.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_drift as VD  # noqa: E402
import vision_real as VR  # noqa: E402

from referee.cli.judge import rows_evidence  # noqa: E402
from referee.turn.matching import evidence_position  # noqa: E402

from vision import knock  # noqa: E402
from vision import photo_edit as P  # noqa: E402
from vision.memory import BoardMemory  # noqa: E402
from vision.relight import Light, fit_light, neighbours  # noqa: E402
from vision.rectify import rectify  # noqa: E402

# a seeded sample of the bench's conditions, one of each kind, and the share of the cases the
# table answered (the true play) when this was written (seed 11: 40 of 40 but where said);
# before, gain 0.7, gain 1.4 and the shadow answered none
SAMPLE = {"gain 0.7": 1.0, "gain 1.4": 1.0, "gradient 30 %": 1.0,
          # test8's two light checkers on the bar lie one on the other: since the bar's places lie on the board
          # itself (session 50) the learned bar sees the one footprint surely, and under the warm lamp its four
          # cases are asked (the truth's 2 against the 1 it shows; 40 of 40 before, when its squeezed places read
          # 0, 1 or 2 at 0.55, 0.30 and 0.13, and the absolute reading's count carried it)
          "warm lamp": 0.9,
          "shadow a quarter": 0.7,   # 28 of 40: the slots along the shadow's edge look foreign
          "shift 8 px": 0.9, "turn 1 deg": 0.95, "noise + jpeg": 1.0}


@pytest.fixture(scope="module")
def fresh():
    data = VR.load_labels()
    return data["split"]["fresh"], data["images"], data["tables"]


@pytest.mark.parametrize("name", SAMPLE)
def test_a_drifted_real_frame_is_judged_right_or_asked_never_wrong(fresh, name: str) -> None:
    names, labels, tables = fresh
    t, detail = VD.condition(VD.CONDITIONS[name], names, labels, tables, per=1, seed=11)
    assert t["cases"] >= 36
    assert t["wrong"] == 0, detail
    assert t["right"] >= SAMPLE[name] * t["cases"], (name, t["right"], t["cases"], detail)


def test_the_table_follows_the_light_darkening_move_by_move(fresh) -> None:
    # an afternoon: each known frame 10 % darker than the last, the table relearning from each
    _, labels, tables = fresh
    t, detail = VD.sequence(VD.STEPS["darker 10 % a move"], labels, tables, per=1, seed=5)
    assert t["cases"] >= 30
    assert t["wrong"] == 0, detail
    assert t["right"] >= 0.9 * t["cases"], detail


def test_a_camera_knocked_far_finds_its_board_again_and_reads_on(fresh) -> None:
    # 40 camera pixels, further than a knock is undone (0.75 point widths): the move is folded
    # into the corners and the table reads on with what it learned
    _, labels, tables = fresh
    reader = VR.learned_reader("test9", labels, tables)
    corners = np.asarray(VR.table_corners("test9", labels, tables), np.float32)
    img = P.moved(VR.load_image("test9"), corners, dx=40)
    r = reader.inspect(img)
    assert r.reason is None and r.evidence is not None
    assert reader.corner_source == "found again"
    assert np.abs(reader.corners - (corners + np.array([40.0, 0.0], np.float32))).max() < 2.0
    assert reader.memory is not None and np.array_equal(reader.memory.corners, reader.corners)
    plain = VR.learned_reader("test9", labels, tables).inspect(VR.load_image("test9"))
    assert plain.evidence is not None
    assert evidence_position(r.evidence) == evidence_position(plain.evidence)
    # and it learns on from the frame found again, its look kept (not started afresh)
    frames = reader.memory.frames
    assert reader.learn(rows_evidence(labels["test9"], "bottom-right"))
    assert reader.memory.frames == frames + 1


def test_a_camera_moved_beyond_finding_says_so_and_gives_no_verdict(fresh, monkeypatch) -> None:
    # the move cannot be folded into the corners (here: taken as nothing) and the automatic
    # search is turned off: the table says the camera moved, by how much, and reads nothing
    _, labels, tables = fresh
    reader = VR.learned_reader("test9", labels, tables)
    reader.config = replace(reader.config, auto=False)
    monkeypatch.setattr(knock, "moved_corners", lambda corners, view, move: np.asarray(corners, np.float32))
    corners = np.asarray(VR.table_corners("test9", labels, tables), np.float32)
    r = reader.inspect(P.moved(VR.load_image("test9"), corners, dx=40))
    assert r.evidence is None and r.reason is not None
    assert r.reason.kind == "no_board" and str(r.reason).startswith("the camera moved:"), r.reason
    assert "point widths" in str(r.reason) and "right" in str(r.reason)
    assert reader.corner_source != "found again"


def test_a_camera_knocked_and_turned_is_found_by_the_search(fresh) -> None:
    # shifted 40 px and turned 3 degrees: the tiles cannot tell the move, the board's slots look
    # foreign; the automatic search finds the board, its view matches the learned one
    _, labels, tables = fresh
    reader = VR.learned_reader("test9", labels, tables)
    corners = np.asarray(VR.table_corners("test9", labels, tables), np.float32)
    r = reader.inspect(P.moved(VR.load_image("test9"), corners, dx=40, degrees=3.0))
    assert r.evidence is not None and reader.corner_source == "found again", r.reason


def _view(name: str, fresh, **move):
    _, labels, tables = fresh
    lab = dict(labels[name], corners=VR.table_corners(name, labels, tables))
    cfg = VR.config_for(lab)
    corners = np.asarray(lab["corners"], np.float32)
    return rectify(P.moved(VR.load_image(name), corners, **move), corners, cfg.px, shape=cfg.shape)


def test_a_knock_is_measured_on_the_boards_own_edges_and_undone(fresh) -> None:
    # the anchor is another frame of the same game (checkers moved since): a shift of 8 camera
    # pixels is about 5 view pixels at this board's 52 pixels a point width
    before = knock.anchor(_view("test8", fresh))
    still = knock.measure(before, _view("test9", fresh))
    assert still.still
    m = knock.measure(before, _view("test9", fresh, dx=8))
    assert not m.still and m.tiles >= knock.MIN_TILES
    assert 4.0 < m.dx < 6.5 and abs(m.dy) < 1.0 and abs(m.turn) < np.radians(0.3)
    turned = knock.measure(before, _view("test9", fresh, degrees=1.0))
    assert abs(abs(np.degrees(turned.turn)) - 1.0) < 0.25
    knocked = _view("test9", fresh, degrees=1.0)
    back = knock.undo(knocked, turned)
    off = np.abs(knock.anchor(knocked) - before).mean()
    assert np.abs(knock.anchor(back) - before).mean() < 0.8 * off
    assert knock.measure(before, _view("test9", fresh, dx=40)).far(32)


def _patches(rng: np.random.Generator, n: int) -> np.ndarray:
    """n slot patches of a board: cream, red or black ground, some with a checker's disc."""
    grounds = np.array([[200, 225, 235], [40, 40, 190], [25, 25, 25]], np.float32)
    out = np.empty((n, 8, 8, 3), np.float32)
    yy, xx = np.mgrid[0:8, 0:8]
    disc = (yy - 3.5) ** 2 + (xx - 3.5) ** 2 < 9
    for i in range(n):
        out[i] = grounds[rng.integers(3)]
        if rng.random() < 0.4:
            out[i][disc] = (230, 230, 225) if rng.random() < 0.5 else (35, 30, 30)
    return np.clip(out + rng.normal(0, 2, out.shape), 0, 255).astype(np.float32)


def test_the_light_is_fitted_and_a_changed_slot_does_not_explain_itself() -> None:
    rng = np.random.default_rng(3)
    centres = np.array([(x + 0.5, y + 0.5) for x in range(12) for y in range(10)], np.float64)
    learned = _patches(rng, len(centres))
    truth = Light(np.log(np.array([0.9, 1.0, 1.15], np.float32)), np.array([1.1, 1.0, 0.95], np.float32),
                  np.where(centres[:, 0] > 6, np.log(0.7), 0.0).astype(np.float32))  # the right side in shadow
    now = truth.carry(learned)
    changed = 40
    now[changed] = (35, 30, 30)            # a dark checker arrived on that slot
    fit = fit_light(learned, now, neighbours(centres, centres), neighbours(centres, centres))
    assert np.allclose(fit.power, truth.power, atol=0.06)
    carried = fit.carry(learned)
    unchanged = np.abs(centres[:, 0] - 6.5) > 1.0   # away from the shadow's edge
    unchanged[changed] = False
    assert np.abs(carried - now)[unchanged].mean() < 4.0
    # the changed slot's look is carried by its neighbours' light, not made the checker's
    assert np.abs(carried[changed] - truth.carry(learned)[changed]).mean() < 6.0
    assert np.abs(carried[changed] - now[changed]).mean() > 40


def test_what_the_light_and_the_knock_need_round_trips_through_the_memory_file(tmp_path, fresh) -> None:
    _, labels, tables = fresh
    reader = VR.learned_reader("test9", labels, tables)
    mem = reader.memory
    assert mem is not None and mem.anchor is not None and (mem.states >= 0).any()
    path = str(tmp_path / "board-memory.npz")
    mem.save(path)
    back = BoardMemory.load(path)
    assert np.array_equal(back.states, mem.states)
    assert np.array_equal(back.anchor, mem.anchor)
    # a file from before them loads: the light taken as steady, the camera as still
    with np.load(path) as z:
        old = {k: z[k] for k in z.files if k not in ("states", "anchor")}
    np.savez_compressed(str(tmp_path / "old.npz"), **old)
    was = BoardMemory.load(str(tmp_path / "old.npz"))
    assert (was.states == -1).all() and was.anchor is None
    view = _view("test9", fresh, dx=8)
    assert was.move(view).still
    assert not cv2.absdiff(was.aligned(view).image, view.image).any()


def test_a_camera_knocked_far_teaches_nothing_until_the_corners_are_set_again(fresh, monkeypatch) -> None:
    # told the position on a frame whose board lies a point width off (the camera moved, the
    # corners did not, the board was not found again), the table learns nothing: its slots
    # would lie half on the next point
    _, labels, tables = fresh
    reader = VR.learned_reader("test9", labels, tables)
    reader.config = replace(reader.config, auto=False)
    monkeypatch.setattr(knock, "moved_corners", lambda corners, view, move: np.asarray(corners, np.float32))
    assert reader.memory is not None
    frames, look = reader.memory.frames, reader.memory.look.copy()
    lab = dict(labels["test9"], corners=VR.table_corners("test9", labels, tables))
    img = P.moved(VR.load_image("test9"), np.asarray(lab["corners"], np.float32), dx=40)
    assert reader.inspect(img).evidence is None
    assert not reader.learn(rows_evidence(lab, "bottom-right"))
    assert reader.memory.frames == frames and np.array_equal(reader.memory.look, look)
    r = reader.inspect(img)
    assert r.evidence is None and str(r.reason).startswith("the camera moved:")


def test_a_knock_no_tile_agrees_on_teaches_nothing() -> None:
    # a rendered board knocked 40 px (about a point width: its points match themselves nowhere):
    # no tile agrees on how it moved, so its view at the old corners is not taken for still and
    # taught misaligned
    import verdicts as V
    from referee.rules.position import Position
    from vision.config import VisionConfig
    from vision.reader import BoardReader
    from dataclasses import replace
    seed = 930004
    # drawn as before the checkers lay still between frames (RenderParams.still_checkers): this
    # board's knocked frame with its checkers as they lie then is one the automatic board finder
    # does not find at all (auto_corners: None), which is the finder's limit, not this test's
    params = replace(V.params_for(seed, False), still_checkers=False)
    start = V._ev(Position.start())
    r0 = V.render_scene(start, params, seed=seed)
    reader = BoardReader(VisionConfig(markers=False, bar_width=params.shape.bar, board_height=params.shape.height),
                         corners=r0.corners)
    reader.setup = r0.setup
    reader.inspect(r0.image, read_occluded=True)
    assert reader.learn(start) and reader.memory is not None
    r1 = V.render_scene(start, params, seed=seed, frame=1)
    knocked = VD.CONDITIONS["knocked 40 px"](r1.image, np.asarray(r1.corners, np.float32), seed)
    misaligned = rectify(knocked, reader.corners, reader.config.px, shape=reader.config.shape)
    assert reader.memory.move(misaligned).tiles < knock.MIN_TILES
    frames = reader.memory.frames
    assert not reader.learn(start, misaligned)
    assert reader.memory.frames == frames
    # the same frame unknocked still teaches
    reader.inspect(r1.image)
    assert reader.learn(start) and reader.memory.frames == frames + 1
    # and the reader, its board looking foreign there, finds the board again by the automatic
    # search, checked against the learned view, and reads the position right
    r = reader.inspect(knocked)
    assert reader.corner_source == "found again" and r.evidence is not None, r.reason
    assert evidence_position(r.evidence) == evidence_position(start)
    assert reader.learn(start) and reader.memory.frames == frames + 2


@pytest.mark.parametrize("name,settled", [("knocked 40 px", 7), ("shadow a quarter", 5)])
def test_the_table_path_settles_again_after_a_knock_or_a_shadow(fresh, name: str, settled: int) -> None:
    # the same frames through the table's stability filter: before, a knocked camera (the frame
    # band crossed in the thumbnail) stayed "moving" for ever and a shadow over a quarter of the
    # board on 5 of 7 frames, as the reader was never shown the frame; when this was written 7
    # and 5 of 7 settled (two shadowed frames are refused by the reader: their slots look foreign)
    names, labels, tables = fresh
    t, detail = VD.table(VD.CONDITIONS[name], names, labels, tables, per=1, seed=3)
    assert t["frames"] == 7 and t["settled"] >= settled, detail
    assert t["wrong"] == 0, detail
    assert t["right"] >= 0.9 * t["cases"], detail
