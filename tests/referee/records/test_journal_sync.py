"""The table's journal fsyncs on its sync thread: nothing is shown before its lines are on
disk, and a failed fsync pauses play, cuts the file back and writes the lines again."""
from __future__ import annotations

import errno
import os

import pytest

from referee.records.journal import Journal, JournalWriteError, read_journal
from referee.settings import Settings
from referee.table.config import loads
from referee.table.demo import DEFAULT_BUTTONS
from referee.table.process import PAUSED, TableCore
from referee.table.sinks import LogSink
from referee.table.simdevices import DirectDice, MockButtons, PerfectCamera
from referee.table.simtable import Rates, SimulatedTable

RATES = Rates(double=0.15, take=0.6, illegal=0.08, accept_illegal=0.5, cocked=0.05, outside=0.05,
              on_checker=0.05, early_roll=0.05)


class Disk:
    """An fsync that notes how many bytes of the journal each call made durable, and fails
    on the calls listed in ``fail``."""

    def __init__(self, fail: tuple[int, ...] = ()) -> None:
        self.fail = set(fail)
        self.calls = 0
        self.synced = 0  # bytes of the journal file on disk

    def __call__(self, fd: int) -> None:
        self.calls += 1
        if self.calls in self.fail:
            raise OSError(errno.EIO, "Input/output error")
        size = os.fstat(fd).st_size
        if os.path.isfile(f"/proc/self/fd/{fd}"):
            self.synced = size


class Watcher:
    """A sink that checks, at every show, that the whole journal file is on disk."""

    def __init__(self, path, disk: Disk) -> None:
        self.path, self.disk = path, disk
        self.shown = 0
        self.paused = 0

    def show(self, view, decisions) -> None:
        if view.message.startswith(PAUSED):
            self.paused += 1
            return
        self.shown += len(decisions)
        assert self.path.stat().st_size == self.disk.synced, "a decision shown before its lines were fsync'ed"


def play(tmp, disk: Disk, sync: str = "thread", seed: int = 7):
    path = tmp / "journal.jsonl"
    watcher = Watcher(path, disk)
    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    core = TableCore.open(path, Settings(match_to=3), [LogSink(printer=lambda s: None), watcher],
                          journal_factory=lambda p: Journal(p, fsync=disk), sync=sync)
    try:
        SimulatedTable(core, DirectDice(), PerfectCamera(), buttons, seed=seed, rates=RATES,
                       pause_wait=lambda: None).run()
    finally:
        buttons.close()
        core.close()
    return read_journal(path), watcher


def _inputs(read):
    return [{k: v for k, v in e["data"].items() if k != "t"} for e in read.events if e["event"] == "input"]


def test_nothing_is_shown_before_its_lines_are_on_disk_and_one_fsync_per_event(tmp_path):
    disk = Disk()
    read, watcher = play(tmp_path, disk)
    assert watcher.shown > 100 and watcher.paused == 0
    inputs = sum(1 for e in read.events if e["event"] == "input")
    each = Disk()
    (tmp_path / "each").mkdir()
    read_each, _ = play(tmp_path / "each", each, sync="each")
    assert read_each.record == read.record and _inputs(read_each) == _inputs(read)
    assert disk.calls <= inputs + 3 < each.calls  # one fsync per event (or fewer), not one per line


def test_a_failed_fsync_pauses_and_writes_the_lines_again(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    clean, _ = play(tmp_path / "a", Disk())
    disk = Disk(fail=(6, 40, 41, 87, 90))
    read, watcher = play(tmp_path / "b", disk)
    assert watcher.paused >= 3  # each failure paused play, shown on the screen
    assert read.damage is None and read.record == clean.record
    assert _inputs(read) == _inputs(clean)  # every event journaled once, in order


def test_durable_cuts_back_to_the_last_durable_line_when_fsync_fails(tmp_path):
    disk = Disk(fail=(3,))
    path = tmp_path / "j.jsonl"
    with Journal(path, fsync=disk, sync="group") as j:  # call 1: the new directory entry
        j.start_match(("a", "b"), 3)
        j.durable()  # call 2
        j.start_game(1, (0, 0))
        j.input({"kind": "hand_over_board", "t": 0.0})
        assert j.seq == 3 and j.unsynced
        with pytest.raises(JournalWriteError, match="Input/output error"):
            j.durable()  # call 3 fails
        assert j.seq == 1 and j.unsynced and len(j.record().games) == 0
        assert read_journal(path).events[-1]["event"] == "match"  # the file is cut back
        j.durable()  # the lines cut off are written again, then fsync'ed
        assert j.seq == 3 and not j.unsynced
        assert j.start_game(2, (1, 0)) == 4
    assert [e["event"] for e in read_journal(path).events] == ["match", "game", "input", "game"]


def test_begin_sync_returns_once_the_fsync_is_under_way(tmp_path):
    """The screen draws while the disk works: begin_sync does not return before the sync
    thread has started the fsync (it would otherwise wait for the drawing to let go of the
    interpreter), and durable() waits for that fsync to end."""
    import threading

    started, release, ended = threading.Event(), threading.Event(), threading.Event()
    calls = []

    def fsync(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 3:  # past the new file's and the match line's
            started.set()
            release.wait(10)
            ended.set()

    with Journal(tmp_path / "j.jsonl", fsync=fsync, sync="thread") as j:
        j.start_match(("a", "b"), 3)
        j.durable()
        j.input({"kind": "hand_over_board", "t": 0.0})
        try:
            j.begin_sync()
            assert started.is_set() and not ended.is_set()
        finally:
            release.set()
        j.durable()
        assert ended.is_set() and not j.unsynced
