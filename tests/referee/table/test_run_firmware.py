"""End to end: a tray table whose dice reader is the real firmware image in simavr, through
``bgtable run``'s own wiring, a 1-point match played to its end (issue 15).

``referee.table.run.main`` runs as it does at a club: it reads the table's TOML (``[rules]
landing = "tray"``, ``[dice] port`` naming the simulated reader's pty), opens the devices
(``open_devices`` / ``open_dice``: the real :class:`firmware_bridge.link.DiceLink` on the pty),
runs the loop over one event queue into :class:`~referee.table.process.TableCore`, keeps the
finished match under the players' names and stops on SIGTERM as under systemd.  Only the
camera is simulated: the boards of a scripted game (:func:`referee.table.streams.random_game`)
put on the same queue by :class:`~referee.table.simdevices.PerfectCamera`, on an injected clock.
The harness drives the firmware's simulated sensors through every throw and lift of the game.

Every wait is on an event (a decision shown, an input journaled, the wiring done); the
wall-clock bound WAIT only stops a hung test, it decides nothing."""
from __future__ import annotations

import dataclasses
import json
import os
import queue
import random
import signal
import threading
from pathlib import Path
from typing import Any, Callable, Iterator, Optional, Sequence

import pytest

from hardware.firmware.tools import Build, SimavrReader, build
from referee.colour import other
from referee.events import RollSettled
from referee.records.journal import read_journal
from referee.records.matfile import read_mat, write_mat
from referee.records.actions import GameEnd, Move, Reroll
from referee.records.record import MatchRecord
from referee.rules.moves import match_play
from referee.rules.position import Position
from referee.table import devices, run
from referee.table.simdevices import FakeClock, PerfectCamera
from referee.table.streams import RandomGame, as_dark, random_game

pytestmark = pytest.mark.slow

SPEED = 4.0  # simulated time runs this many times faster than wall-clock time
WAIT = 30.0  # generous wall-clock bound on any awaited event
SEED = 285  # a 42-move game that ends in a gammon, with two turns that have no legal play
#: decisions a clean game of tray throws never gets; one of them fails the test at once
WRONG = ("reroll", "wrong_turn", "early_roll", "illegal_move", "illegal_accepted", "wait_board",
         "unseen_roll", "ambiguous", "confirm_roll", "refused", "not_accepted", "reader_fault")


@pytest.fixture(scope="module")
def fw(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build(tmp_path_factory.mktemp("fw-avr"), targets=("firmware", "sim"))


@pytest.fixture
def reader(fw: Build, tmp_path: Path) -> Iterator[SimavrReader]:
    with SimavrReader(fw, eeprom=tmp_path / "eeprom.bin", seed=11, speed=SPEED) as r:
        yield r


class Shown:
    """One more output of the table: every view and decision it shows, for the harness to wait
    on.  The table shows after every event it handled, once the event is in ``journal``."""

    def __init__(self, journal: Path) -> None:
        self.cond = threading.Condition()
        self.decisions: list[Any] = []
        self.view: Any = None
        self.journal = journal

    def show(self, view: Any, decisions: Sequence[Any]) -> None:
        """Keep what the table shows and wake the harness."""
        with self.cond:
            self.view = view
            self.decisions += decisions
            self.cond.notify_all()

    def inputs(self, kind: str) -> int:
        """How many input events of ``kind`` the journal holds (in its whole lines: the table
        may be writing the next one)."""
        lines = self.journal.read_text().split("\n")[:-1] if self.journal.exists() else []
        return sum(1 for line in lines if json.loads(line).get("data", {}).get("kind") == kind)

    def wait_input(self, kind: str, n: int) -> None:
        """Wait until the table has handled (journaled) its ``n``-th input event of ``kind``."""
        with self.cond:
            assert self.cond.wait_for(lambda: self.inputs(kind) >= n, WAIT), f"no {kind} #{n} within {WAIT} s"

    def wait(self, kind: str, n: int) -> None:
        """Wait until the ``n``-th decision of ``kind`` is shown; fail at once on a wrong decision."""
        def done() -> bool:
            return any(d.kind in WRONG for d in self.decisions) or \
                sum(1 for d in self.decisions if d.kind == kind) >= n
        with self.cond:
            arrived = self.cond.wait_for(done, WAIT)
            wrong = [str(d) for d in self.decisions if d.kind in WRONG]
            state = getattr(self.view, "state", None)
            last = [str(d) for d in self.decisions[-6:]]
        assert not wrong, f"the table decided {wrong[0]!r} (state {state}); last decisions {last}"
        assert arrived, f"no {kind} #{n} within {WAIT} s (state {state}); last decisions {last}"


class SimCamera:
    """The camera edge of the table: the simulated camera's events for each board the players
    leave, put on ``bgtable run``'s event queue as the camera thread would, stamped by ``clock``."""

    def __init__(self, events: "queue.Queue[Any]", clock: FakeClock) -> None:
        self.events = events
        self.clock = clock
        self.camera = PerfectCamera()
        self.told: list[Position] = []

    def show(self, board: Position) -> None:
        """Hands over the board, then the board still: the camera's events onto the queue."""
        for hand in (True, False):
            self.clock.advance(0.5)
            for e in self.camera.show(board, hand):
                self.events.put(dataclasses.replace(e, t=self.clock()))

    def known(self, board: Position) -> None:
        """The referee says the board shows ``board`` (the real camera learns its look)."""
        self.told.append(board)

    def close(self) -> None:
        """Nothing to close."""


def config(tmp_path: Path, port: str) -> Path:
    """The table's TOML: a tray table, the dice reader on ``port``, a 1-point match."""
    p = tmp_path / "table.toml"
    p.write_text(f"""
[players]
dark = "Ann"
light = "Bob"
[dice]
port = "{port}"
[rules]
match_to = 1
landing = "tray"
[cube_display]
type = "none"
[match]
event = "Club night"
[journal]
directory = "{tmp_path / 'journal'}"
""")
    return p


def play_game(reader: SimavrReader, camera: SimCamera, shown: Shown, game: RandomGame) -> None:
    """The players' hands: every throw and lift of ``game`` on the firmware's simulated sensors,
    every board in front of the camera, each step once the table has decided the one before."""
    camera.show(Position.start())
    reader.command("tumble 200; die 0 top 4; die 1 top 4")  # an opening tie: both throw again
    shown.wait("opening_tie", 1)
    reader.command("tumble 50; die 0 empty; die 1 empty")  # picked up to be thrown again
    shown.wait_input("dice_lifted", 1)
    pos = Position.start()  # the mover on roll
    for i, (who, dice, play) in enumerate(game.moves):
        if i == 0:  # the opening throw: die 0 is Dark's, die 1 Light's
            opening = game.events[0]
            assert isinstance(opening, RollSettled)
            thrown = tuple(d.value for d in opening.dice)
        else:
            thrown = dice
        reader.command(f"tumble 200; die 0 top {thrown[0]}; die 1 top {thrown[1]}")
        shown.wait("roll_accepted", i + 1)  # (the opening's after its opening_won)
        after = match_play(pos, *dice, play).result if play else pos.swap()  # the opponent on roll
        camera.show(as_dark(after, other(who)))
        reader.command("tumble 50; die 0 empty; die 1 empty")
        shown.wait("move_accepted", i + 1)
        pos = after
    shown.wait("match_over", 1)


def same_plays(record_moves: Sequence[Move], game: RandomGame) -> list[str]:
    """Where the recorded moves differ from the scripted game's (dice, or the position a play leaves)."""
    out: list[str] = []
    pos = Position.start()
    for i, (m, (who, dice, play)) in enumerate(zip(record_moves, game.moves)):
        if sorted(m.dice) != sorted(dice):
            out.append(f"move {i + 1}: dice {m.dice} recorded, {dice} thrown")
            break
        want = match_play(pos, *dice, play).result if play else pos.swap()
        got = match_play(pos, *dice, m.play).result if m.play else pos.swap()
        if got != want:
            out.append(f"move {i + 1} ({who} {dice}): {m.play!r} recorded, {play!r} played")
            break
        pos = want
    if len(record_moves) != len(game.moves):
        out.append(f"{len(record_moves)} moves recorded, {len(game.moves)} played")
    return out


def run_table(cfg: Path, harness: Callable[[SimCamera, Shown], None], monkeypatch: pytest.MonkeyPatch) -> int:
    """``bgtable run --headless --config cfg`` in this thread, with the simulated camera at its
    edge and :class:`Shown` among its outputs; ``harness`` plays on another thread, then stops
    the table with SIGTERM as systemd does.  Returns run's exit status."""
    clock = FakeClock(100.0)
    cameras: list[SimCamera] = []
    shown = Shown(cfg.parent / "journal" / "current.jsonl")
    wired = threading.Event()
    failure: list[BaseException] = []
    opened: list[devices.Devices] = []

    def open_camera(config: Any, events: "queue.Queue[Any]", memory: Optional[Path] = None) -> SimCamera:
        cameras.append(SimCamera(events, clock))
        return cameras[-1]

    real_sinks = run.output_sinks

    def output_sinks(dev: devices.Devices, core_of: Callable[[], Any]) -> list[Any]:
        opened.append(dev)
        wired.set()  # after run installed its SIGTERM handler: the harness may stop it
        return [*real_sinks(dev, core_of), shown]

    def players() -> None:
        try:
            assert wired.wait(WAIT), "bgtable run did not get as far as its outputs"
            assert opened[0].dice is not None, f"the dice reader did not open: {opened[0].problems}"
            harness(cameras[0], shown)
        except BaseException as exc:  # handed to the test's thread
            failure.append(exc)
        finally:
            if wired.is_set():
                os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(devices, "open_camera", open_camera)
    monkeypatch.setattr(run, "output_sinks", output_sinks)
    before = signal.signal(signal.SIGTERM, lambda *_: None)  # a stray SIGTERM never ends pytest
    hands = threading.Thread(target=players, name="players", daemon=True)
    hands.start()
    try:
        code = run.main(["--headless", "--config", str(cfg)])
    finally:
        signal.signal(signal.SIGTERM, before)
        hands.join(WAIT)
    if failure:
        raise failure[0]
    return code


def test_a_tray_table_plays_a_match_with_the_real_firmware_through_bgtable_run(
        reader: SimavrReader, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = random_game(random.Random(SEED))
    cfg = config(tmp_path, reader.port)
    code = run_table(cfg, lambda camera, shown: play_game(reader, camera, shown, game), monkeypatch)
    assert code == 0
    directory = tmp_path / "journal"
    kept = sorted(directory.glob("*-Ann-Bob.jsonl"))
    assert len(kept) == 1, sorted(p.name for p in directory.iterdir())
    stem = kept[0].with_suffix("")

    # the journal holds the match: the config's players and length, the game as played
    journal = read_journal(kept[0])
    record: MatchRecord = journal.record
    assert record.players == ("Ann", "Bob") and record.match_length == 1
    assert record.rules.landing == "tray"
    assert len(record.games) == 1
    actions = record.games[0].actions
    moves = [a for a in actions if isinstance(a, Move)]
    assert not same_plays(moves, game), same_plays(moves, game)
    end = actions[-1]
    winner = 0 if game.winner == "dark" else 1
    assert isinstance(end, GameEnd) and (end.player, end.kind, end.points) == (winner, game.kind, game.kind)
    # every throw counted but the opening tie: none re-rolled as "outside the landing area"
    assert [(a.cause, a.dice) for a in actions if isinstance(a, Reroll)] == [("opening_tie", (4, 4))]
    inputs = [e["data"] for e in journal.events if e["event"] == "input"]
    settled = [e for e in inputs if e["kind"] == "roll_settled"]
    assert len(settled) == 1 + len(game.moves)
    assert all(d["zone"] == "tray" and d["flat"] for e in settled for d in e["dice"])
    sources = {e["source"] for e in settled}
    assert len(sources) == 1 and len(sources.pop()) == 8  # the firmware's boot id, as the link reports it

    # the .mat export says the same, with the config's event in its header
    text = stem.with_suffix(".mat").read_text()
    assert text == write_mat(record) and '; [Event "Club night"]' in text
    mat = read_mat(text)
    assert not mat.problems, mat.problems[:3]
    assert mat.record.players == ("Ann", "Bob") and mat.record.match_length == 1
    mat_moves = [a for a in mat.record.games[0].actions if isinstance(a, Move)]
    assert not same_plays(mat_moves, game), same_plays(mat_moves, game)
    mat_end = mat.record.games[0].actions[-1]
    assert isinstance(mat_end, GameEnd) and mat_end.player == winner and mat_end.points == end.points
