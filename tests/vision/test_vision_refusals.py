"""A folding case's join across the bar's end, taken for a hand (session 51, docs/measurements.md).

The frame band (:mod:`vision.occlusion`) refused the real image026 (and the stock rendering
image025) as "something over the board" on every case.  A frame teaching itself under the position
before (``bgtable judge`` without a reference) now takes a thing no wider than the bar's end for a
fitting (``OcclusionParams.bar_fittings``) and judges the move; the absolute reading alone still
refuses, and must: read, two wrong verdicts came out of these frames:

* the real image026's absolute reading, two points misread at 0.45 each (Light's two against the
  frame read none, a stack of three on a light triangle read five), matched 13/5(2) at 7.4 nats
  for a 4-4 the mover lifted without moving;
* the stock rendering image025's frame teaching itself, its rows laid from the points' bases,
  accepted 23/19 under 1-1 and 1-3 at 15.9 nats for a board played with 1-4 (its corner points,
  whose pieces reach over the frame, misread); with its rows laid where its stacks begin, before
  the bases (:data:`vision.self_reference.SELF_STARTS`), it asks.

Whatever lets these frames be read must keep these cases from being accepted."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402
from referee.cli.judge import judge_image, position_rows, rows_evidence  # noqa: E402
from referee.rules.moves import legal_plays  # noqa: E402
from referee.rules.position import Position  # noqa: E402
from referee.turn.matching import evidence_position, match_reading  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.reader import BoardReader  # noqa: E402


@pytest.fixture(autouse=True)
def _unseen6_labels() -> Iterator[None]:
    """The bench's labels and images set to unseen6's (tests/data/vision/photos-yolo) for each test."""
    kept = VR.LABELS, VR.IMAGES
    VR.set_labels(str(ROOT / "tests" / "data" / "vision_unseen6" / "labels.json"),
                  str(ROOT / "tests" / "data" / "vision" / "photos-yolo"))
    try:
        yield
    finally:
        VR.set_labels(*kept)


def _unseen6(name: str) -> tuple[dict, object]:
    """An unseen6 photo's label and picture."""
    return VR.load_labels()["images"][name], VR.load_image(name)


def test_an_unmoved_board_misread_by_two_points_is_not_taken_for_a_double_played() -> None:
    lab, img = _unseen6("image026")
    home = "top-left"
    cfg = VR.config_for(lab, home)
    board = evidence_position(VR.rows_evidence(lab, home))   # the position, Light lifting the dice unmoved
    read = BoardReader(cfg, corners=L.parse_corners(cfg.corners or "")).inspect(img)
    plays = legal_plays(board.swap(), 4, 4)
    assert any(str(lp.play) == "13/5(2)" for lp in plays)          # the play the misread points line up with
    if read.evidence is not None:
        verdict = match_reading(read.evidence, board, [lp.result for lp in plays], "light")
        assert verdict.kind != "match", [str(plays[i].play) for i in verdict.indices]


def test_a_frame_teaching_itself_does_not_accept_another_rolls_play_on_misread_corner_points() -> None:
    lab, img = _unseen6("image025")
    home = "bottom-right"
    before = Position.from_position_id("BeCD8xAD4IPzAQ")    # Dark on roll's view; Light then played 1-4
    cfg = VR.config_for(lab, home)
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    reader.inspect(img, read_occluded=True)
    assert reader.assume(rows_evidence(position_rows(before, home), home), dice=(1, 4))
    assert reader.memory is not None
    reader.memory.dice_lying(VR.dice_seen("image025", lab))
    after = evidence_position(VR.rows_evidence(lab, home))
    assert after in [lp.result for lp in legal_plays(before.swap(), 1, 4)]   # the board is 1-4's
    ev = reader.inspect(img).evidence
    for dice in ((1, 1), (1, 3)):   # rolls that cannot leave it
        plays = legal_plays(before.swap(), *dice)
        assert after not in [lp.result for lp in plays]
        if ev is not None:
            verdict = match_reading(ev, before, [lp.result for lp in plays], "light")
            assert verdict.kind != "match", (dice, [str(plays[i].play) for i in verdict.indices])


def test_judged_without_a_reference_a_folding_case_whose_join_crosses_the_bar_end_is_read() -> None:
    lab, img = _unseen6("image026")
    home = "top-left"
    after = evidence_position(VR.rows_evidence(lab, home))
    corners = " ".join(f"{x},{y}" for x, y in lab["corners"])
    cfg = VR.config_for(lab, home)
    plain = BoardReader(cfg, corners=L.parse_corners(cfg.corners or "")).inspect(img)
    assert plain.evidence is None and plain.reason is not None and plain.reason.kind == "occluded"  # alone: refused
    for mover, draw in (("dark", 0), ("light", 1)):
        for before, dice in VR.cases_for(after, mover, random.Random(draw), 1):
            moved = before if mover == "dark" else before.swap()
            truth = [str(lp.play) for lp in legal_plays(moved, *dice)
                     if (lp.result.swap() if mover == "dark" else lp.result) == after]
            res = judge_image(VR.image_path("image026"), position_rows(before, home), mover, dice, corners=corners,
                              dark_home=home, bar_width=lab["bar_width"], board_height=lab["board_height"])
            assert res["verdict"] == "legal" and res["play"] in truth, (mover, dice, res.get("reason"))


def test_a_frame_teaching_itself_lays_a_row_from_before_the_base_where_the_photo_shows_it() -> None:
    # the real image045, seen from in front: its far (top) row's checkers begin a third of a checker
    # before the points' bases (its checker boxes: 0.31 pw; the near row 0.11)
    lab, img = _unseen6("image045")
    cfg = VR.config_for(lab, "bottom-right")
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    reader.inspect(img, read_occluded=True)
    assert reader.assume(VR.rows_evidence(lab, "bottom-right"))
    assert reader.memory is not None
    top, bottom = reader.memory.geo.start
    assert -0.45 < top <= -0.2 and -0.2 <= bottom <= 0.0, (top, bottom)
    # the set-up check asks whether a frame shows a position at all: no such room there
    assert reader.assume(VR.rows_evidence(lab, "bottom-right"), before_base=False)
    assert reader.memory.geo.start[0] >= 0.0
