"""The false over-count of the whole camera-only match (tests/data/verdicts/false_illegal_trays.json):
Ann's legal 6-2 bear-off (3/off 2/off) read as "not moved", points 2 and 3 one over each (6 at 0.95,
3 at 0.90).  The absolute reading of that rendered frame is right (1, 5 and 2 dark, 5 at 0.95): the
over-counts are the table's learned look (vision.memory), taught wrongly in two ways:

* the known position told again (the match test's harness runs ``bgtable run``'s loop once per
  batch of events, and the loop tells the camera the referee's position on each start) arms a second
  lesson, which the next still frame, already the next move, satisfies: ``vision.stability.shows``
  lets a reading contradict the known position at two locations, and a two-checker bear-off changes
  just two.  Point 3 (2 dark) was learned as 3, then read as 3;
* a six-stack drawn as five in a row and one on top leaves its sixth slot showing the bare tip; the
  table learns that look as "a dark checker in slot 6", so the five left after one is borne off
  read six.  Point 2.

Neither lies in the absolute reading (vision.bare, stacks, totals): the fixes belong to
vision.stability and vision.memory (other engineers' areas), so these tests are kept as strict
expected failures that name the fix; remove the mark with it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional

import pytest

from referee.events import BoardEvidence
from referee.rules.position import Position
from referee.table.config import loads
from referee.table.simdevices import board_evidence
from vision.reader import BoardReader
from vision.render import RenderParams, render, render_scene
from vision.stability import StabilityFilter

# the camera of tests/referee/table/test_table_run_camera_dice.py's camera-only match (seed 5)
PARAMS = RenderParams(width=960, height=540, rotation_max=3.0, flip_prob=0.0, perspective_max=0.02,
                      distortion_max=0.03, glare_prob=0.0, shadow_prob=0.0, noise_max=2.0, blur_max=0.6, jitter=0.03)
SEED = 5
BEFORE = Position.from_position_id("/zsAAEC/AwAAAA")   # Ann (dark) on roll: 1, 6 and 3 on her 1, 2, 3 points
AFTER = Position.from_position_id("/zsAAEDfAAAAAA")    # after her 6-2, 3/off 2/off: 1, 5, 2


class _Camera:
    """Rendered frames of the match's table through a stability filter."""

    def __init__(self) -> None:
        first = render_scene(board_evidence(Position.start()), PARAMS, seed=SEED)
        corners = tuple((float(x), float(y)) for x, y in first.corners)
        config = loads('[players]\ndark = "Ann"\nlight = "Bob"\n')
        self.filter = StabilityFilter(BoardReader(replace(config.vision, corners=corners)))
        self.frame = 0

    def show(self, board: Position, frames: int = 6, hand: bool = False) -> Optional[BoardEvidence]:
        """Feed ``frames`` frames of ``board``; the last board reading emitted, if any."""
        out: Any = None
        for _ in range(frames):
            self.frame += 1
            ev = self.filter.feed(render(board_evidence(board), PARAMS, seed=SEED, hand=hand, frame=self.frame),
                                  self.frame / 10)
            out = ev if isinstance(ev, BoardEvidence) else out
        return out


def _home(ev: BoardEvidence) -> list[tuple[int, float]]:
    return [(p.count, p.confidence) for p in ev.points[:3]]


def test_the_absolute_reading_of_the_bear_off_frame_is_right() -> None:
    cam = _Camera()
    ev = cam.show(AFTER)
    assert ev is not None
    assert [n for n, _ in _home(ev)] == [1, 5, 2], _home(ev)
    assert _home(ev)[1][1] >= 0.6  # the five on the 2 point is read surely


@pytest.mark.xfail(strict=True, reason="vision.stability: a known position told again after it was learned "
                   "must not arm a second lesson (StabilityFilter.known ignores the position it last learned)")
def test_a_position_told_again_is_not_learned_from_the_next_move() -> None:
    cam = _Camera()
    cam.show(BEFORE)
    assert cam.filter.known(board_evidence(BEFORE))
    cam.show(AFTER, 1, hand=True)
    cam.show(AFTER)
    cam.filter.known(board_evidence(BEFORE))   # told again, as the loop does on each start
    cam.show(AFTER, 1, hand=True)
    ev = cam.show(AFTER)
    assert ev is None or _home(ev)[2][0] == 2 or _home(ev)[2][1] < 0.6, _home(ev)


@pytest.mark.xfail(strict=True, reason="vision.memory: the sixth slot of a six-stack drawn five in a row and "
                   "one on top shows the bare tip; learned as a checker, the five left read six surely")
def test_five_left_of_a_six_stack_are_not_read_six_surely() -> None:
    cam = _Camera()
    cam.show(BEFORE)
    assert cam.filter.known(board_evidence(BEFORE))
    cam.show(AFTER, 1, hand=True)
    ev = cam.show(AFTER)
    assert ev is not None
    n, p = _home(ev)[1]
    assert n == 5 or p < 0.6, _home(ev)
