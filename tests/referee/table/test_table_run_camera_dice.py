"""Whole matches (a match to 3; camera-only, a money session of 3 games) through ``bgtable run``'s
own wiring with the camera on the dice (issue 15): the
table core, the run loop and the real camera thread (rendered frames of the board and the dice:
its stability filter and its dice watch), simulated players and buttons at the edges.

* board mode with a dice reader: the reader's throws are the rolls; the camera's view of the
  same throws goes into the journal and cross-checks them;
* camera-only: the camera's sure view of the dice is the roll (the opening roll too), its view of
  no dice the lift; a throw it cannot read surely is never a roll (the roll is inferred from the
  move); no roll is ever accepted with a value other than the one thrown.
"""
from __future__ import annotations

import json
import queue
import threading
from pathlib import Path
from typing import Any, Sequence

import pytest

from referee.decisions import Decision
from referee.records.replay import replay_match
from referee.table.config import loads
from referee.table.demo import DEFAULT_BUTTONS
from referee.table.devices import Devices, settings_from
from referee.table.process import TableCore
from referee.table.run import loop, output_sinks
from referee.table.sdnotify import Notifier
from referee.table.simdevices import CameraOnTheDice, DirectDice, MockButtons, PerfectCamera
from referee.table.simtable import Rates, SimulatedTable

# short games (a double is passed; no Crawford game), so a whole match to 3 takes a few dozen throws
# of rendered dice
RATES = Rates(double=0.35, take=0.0, illegal=0.0, cocked=0.04, outside=0.08, on_checker=0.0, early_roll=0.0)


class Recorder:
    """An output of the table core that keeps every decision shown."""

    def __init__(self) -> None:
        self.decisions: list[Decision] = []

    def show(self, view: Any, decisions: Sequence[Decision]) -> None:
        self.decisions += decisions


class RunTable(SimulatedTable):
    """The simulated players at a table whose events go through ``bgtable run``'s loop."""

    def __init__(self, core: TableCore, events: "queue.Queue[Any]", dev: Devices, recorder: Recorder,
                 camera: CameraOnTheDice, **kw: Any) -> None:
        super().__init__(core, camera, camera, MockButtons(loads(DEFAULT_BUTTONS).buttons), **kw)
        self.events, self.dev, self.recorder = events, dev, recorder
        self.thrown: list[tuple[int, ...]] = []
        self.wrong: list[str] = []

    def feed(self, events: Sequence[Any]) -> list[Decision]:
        """Each event onto the table's queue, then the run loop until the queue is empty."""
        for e in events:
            self.events.put(e)
        start = len(self.recorder.decisions)
        while not self.events.empty():
            loop(self.core, self.events, self.dev, Notifier({}), threading.Event(), max_seconds=0)
        out = self.recorder.decisions[start:]
        self.stats.count(out)
        for d in out:  # a roll the camera gave must be the roll thrown
            if d.kind in ("roll_accepted", "opening_won") and d.get("dice") and self.thrown \
                    and sorted(d.get("dice")) != sorted(self.thrown[-1]):
                self.wrong.append(f"{d.reason} (thrown {self.thrown[-1]})")
        self._tell_camera()
        return out


def _play(tmp_path: Path, seed: int, reader: bool, match_to: int = 3,
          games: Any = None) -> tuple[RunTable, TableCore, list[dict[str, Any]]]:
    config = loads(f'[players]\ndark = "Ann"\nlight = "Bob"\n[rules]\nmatch_to = {match_to}\ncrawford = false\n'
                   f'[journal]\ndirectory = "{tmp_path}"\n')
    events: "queue.Queue[Any]" = queue.Queue()
    camera = CameraOnTheDice(config, events, DirectDice() if reader else None, seed=seed)
    dev = Devices(camera=camera.camera)
    recorder = Recorder()
    holder: list[TableCore] = []
    sinks = [*output_sinks(dev, lambda: holder[-1]), recorder]
    core = TableCore.open(tmp_path / "current.jsonl", settings_from(config, dice_reader=reader), sinks)
    holder.append(core)
    table = RunTable(core, events, dev, recorder, camera, seed=seed, rates=RATES, max_steps=300, games=games,
                     director_camera=PerfectCamera())  # a stack the camera cannot count: the director reads it
    throw = camera.throw

    def thrown(values: Sequence[Any], *rest: Any) -> list[Any]:
        table.thrown.append(tuple(values))
        return throw(values, *rest)
    camera.throw = thrown  # type: ignore[method-assign]
    table.run()
    core.close()
    lines = [json.loads(x) for x in (tmp_path / "current.jsonl").read_text().splitlines()]
    return table, core, lines


def _inputs(lines: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [x["data"] for x in lines if x["event"] == "input" and x["data"]["kind"] == kind]


@pytest.mark.slow
def test_board_mode_the_camera_cross_checks_the_dice_reader_through_a_whole_match(tmp_path: Path) -> None:
    table, core, lines = _play(tmp_path, seed=3, reader=True)
    assert core.match_over
    record = core.record()
    assert record.games and not replay_match(record).problems
    seen = _inputs(lines, "dice_seen")
    assert len(_inputs(lines, "roll_settled")) >= 4 and len(seen) >= 4  # the camera saw the throws
    assert any(s["dice"] for s in seen) and any(not s["dice"] for s in seen)  # thrown and lifted
    assert not table.wrong, table.wrong  # the reader's rolls stand
    disagree = [d for d in table.recorder.decisions if d.kind == "dice_disagree"]
    # the camera and the reader saw the same throws: a difference is rare (a die the camera misread
    # while unsure says nothing), and each one is said with the reader's roll standing
    assert len(disagree) <= len(seen) // 4, [d.reason for d in disagree]
    assert all("stands" in d.reason for d in disagree), disagree


def test_camera_only_the_camera_gives_every_roll_it_is_sure_of_through_a_whole_session(tmp_path: Path) -> None:
    # a money session of three games: at double match point nobody may double, and a whole game of
    # rendered frames is too long for a test
    table, core, lines = _play(tmp_path, seed=5, reader=False, match_to=0, games=3)
    assert table.finished and core.referee.score.games >= 3
    record = core.record()
    assert record.games and not replay_match(record).problems
    assert not _inputs(lines, "roll_settled")  # no dice reader: every roll came from the camera's view
    assert _inputs(lines, "dice_seen")
    decided = [d.kind for d in table.recorder.decisions]
    assert "opening_won" in decided and decided.count("roll_accepted") >= 2  # the camera's sure views
    assert not table.wrong, table.wrong  # never a roll with a value other than the one thrown
