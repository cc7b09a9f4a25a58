"""Real frames refused as "something over the board" for a fitting's sake, whose reading would
otherwise line up with a wrong play (session 51's findings, docs/measurements.md).

The frame band (:mod:`vision.occlusion`) takes a folding case's join across the bar's end for a
hand on two real photos.  That refusal is not right for its reason, but it stands between their
readings and a wrong verdict: a rule that told the join from a hand (only the bar's end segment
standing out, the frame either side clear) read them, and then

* the real image026's absolute reading, two points misread at 0.45 each (Light's two against the
  frame read none, a stack of three on a light triangle read five), matched 13/5(2) at 7.4 nats
  for a 4-4 the mover lifted without moving;
* the stock rendering image025's frame teaching itself (``bgtable judge`` without a reference)
  accepted 23/19 under 1-1 and 1-3 at 15.9 nats for a board played with 1-4 (its corner points,
  whose pieces reach over the frame, misread).

Whatever lets these frames be read must keep these cases from being accepted."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402
from referee.cli.judge import position_rows, rows_evidence  # noqa: E402
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
