"""End-to-end: the simulated table plays whole matches through the real table core.

Every kind of decision happens at least once (each re-roll cause, an illegal move
accepted and one corrected, an early roll, a double taken and one passed, a gammon);
the record replays clean and GNU Backgammon imports its .mat and SGF exports with the
same plays and results; the same seed gives the same match; and ``kill -9`` at random
moments, then ``--resume``, ends with the record of an uninterrupted run.
"""
from __future__ import annotations

import contextlib
import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from referee import events as ev
from referee.records.builder import build_record, record_entries
from referee.table.config import loads
from referee.turn.referee import Referee
from referee.records.journal import Journal, read_journal
from referee.records.matfile import write_mat
from referee.records.actions import Correction, IllegalAccepted, Reroll
from referee.records.replay import replay_match
from referee.settings import Settings
from referee.records.sgf import write_sgf
from referee.table import demo
from referee.table.demo import DEFAULT_BUTTONS
from vision.config import SURE as VISION_MIN_CONFIDENCE
from referee.table.process import PAUSED, TableCore
from referee.table.sinks import LogSink
from referee.table.simdevices import DirectDice, MockButtons, PerfectCamera, PtyDice
from referee.table.simtable import Rates, SimulatedTable
from tests.referee.records.test_mat_gnubg import SCRIPT, _compare, _gnubg

FAULTY = Rates(double=0.15, take=0.6, illegal=0.08, accept_illegal=0.5, cocked=0.05, outside=0.05,
               on_checker=0.05, early_roll=0.05)
DEMO = [sys.executable, "-m", "referee.cli", "demo", "--headless", "--camera", "perfect", "--dice", "direct",
        "--quiet", "--match-to", "3"]


def play(tmp: Path, seed: int, rates: Rates, match_to: int = 5, dice=None):
    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    log = LogSink(printer=lambda s: None)
    core = TableCore.open(tmp / "journal.jsonl", Settings(match_to=match_to), [log])
    dice = dice or DirectDice()
    try:
        table = SimulatedTable(core, dice, PerfectCamera(), buttons, seed=seed, rates=rates)
        stats = table.run()
    finally:
        buttons.close()
        dice.close()
    return core, stats, log


@pytest.fixture(scope="module")
def faulty_match(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("faulty")
    core, stats, log = play(tmp, seed=7, rates=FAULTY, dice=PtyDice(seed=7))
    return core, stats, log


def test_every_kind_of_decision_happens(faulty_match):
    core, stats, log = faulty_match
    kinds = set(stats.decisions)
    for kind in ("reroll", "illegal_move", "illegal_accepted", "correction_demanded", "early_roll",
                 "double", "take", "pass", "move_accepted", "game_over", "match_over"):
        assert kind in kinds, (kind, sorted(kinds))
    record = core.record()
    causes = {a.cause for g in record.games for a in g.actions if isinstance(a, Reroll)}
    assert {"cocked", "outside", "on_checker"} <= causes
    ends = [g.result for g in record.games]
    assert any(e.kind >= 2 and e.reason == "bearoff" for e in ends), "no gammon was won"
    assert any(e.reason == "pass" for e in ends)
    assert any(isinstance(a, IllegalAccepted) for g in record.games for a in g.actions)
    # the reasons are sentences a club player reads
    assert any(line.startswith("reroll") and "cocked" in line for line in log.lines)
    assert any("Illegal:" in line and "may accept the move or ask for a legal one" in line for line in log.lines)


def test_the_record_replays_clean_and_agrees_with_the_referee(faulty_match):
    core, _, _ = faulty_match
    record = core.record()
    # the record is kept once, by the journal: a referee replaying the journal's inputs
    # emits exactly the entries the journal folded
    inputs = [ev.from_dict(e["data"]) for e in core.journal.events() if e["event"] == "input"]
    again = Referee.replay(core.referee.settings, inputs)
    assert build_record(again.new_record_actions()) == record
    assert core.journal.record_entries == len(record_entries(record))
    result = replay_match(record)
    assert not result.problems, result.problems[:3]
    assert tuple(result.score) == core.referee.score.points
    assert max(result.score) >= 5


def test_gnubg_imports_the_exported_match(tmp_path):
    # accepted illegal plays cannot be written in .mat/SGF (gnubg refuses illegal moves),
    # so this match has corrections only (and no early rolls: an illegal move followed by
    # the opponent's early roll stands as played)
    rates = Rates(double=0.15, take=0.6, illegal=0.08, accept_illegal=0.0, cocked=0.05, outside=0.05,
                  on_checker=0.05, early_roll=0.0)
    core, stats, _ = play(tmp_path, seed=8, rates=rates)
    assert "correction_demanded" in stats.decisions and "take" in stats.decisions
    record = core.record()
    assert not any(isinstance(a, IllegalAccepted) for g in record.games for a in g.actions)
    assert not replay_match(record).problems
    mat, sgf = tmp_path / "m.mat", tmp_path / "m.sgf"
    mat.write_text(write_mat(record), encoding="utf-8")
    sgf.write_text(write_sgf(record), encoding="utf-8")
    jobs = [["mat", "import mat", str(mat), None], ["sgf", "load match", str(sgf), None]]
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "script.py"
    script.write_text(f"JOBS = {str(tmp_path / 'jobs.json')!r}\nRESULT = {str(tmp_path / 'result.json')!r}\n"
                      + SCRIPT)
    proc = subprocess.run([_gnubg(), "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                          timeout=240, stdin=subprocess.DEVNULL)
    assert (tmp_path / "result.json").exists(), proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "WARNING" not in proc.stdout + proc.stderr
    result = json.loads((tmp_path / "result.json").read_text())
    # re-rolls and corrections have no place in .mat/SGF; compare what they can hold
    plain = replace(record, games=tuple(
        replace(g, actions=tuple(a for a in g.actions if not isinstance(a, (Reroll, Correction))))
        for g in record.games))
    _compare(plain, result["mat"], "demo mat")
    _compare(plain, result["sgf"], "demo sgf")


def _run_demo(out: Path, seed: int, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*DEMO, "--seed", str(seed), "--out", str(out), *extra], capture_output=True,
                          text=True, timeout=300)


def test_same_seed_same_match_and_cli_outputs(tmp_path):
    a = _run_demo(tmp_path / "a", 11)
    b = _run_demo(tmp_path / "b", 11)
    assert a.returncode == 0 and b.returncode == 0, a.stderr[-2000:]
    for name in ("match.mat", "match.sgf"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert "match over" in a.stderr
    # a journal that exists is never overwritten without --resume
    again = _run_demo(tmp_path / "a", 11)
    assert again.returncode == 2 and "--resume" in again.stderr
    replay = subprocess.run([sys.executable, "-m", "referee.cli", "replay", str(tmp_path / "a" / "journal.jsonl")],
                            capture_output=True, text=True, timeout=120)
    assert replay.returncode == 0, replay.stdout


def _fast_demo(out: Path, seed: int, match_to: int = 1, resume: bool = False):
    """The demo's own table (``demo.build``), fast path, without fsync: its record."""
    args = demo._parser().parse_args(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet",
                                      "--seed", str(seed), "--match-to", str(match_to), "--out", str(out)]
                                     + (["--resume"] if resume else []))
    out.mkdir(parents=True, exist_ok=True)
    core, table, closers = demo.build(args, out, printer=lambda s: None,
                                      journal_factory=lambda p: Journal(p, fsync=lambda fd: None))
    try:
        table.run()
        return core.record()
    finally:
        for c in reversed(closers):
            c.close()


def test_a_crash_after_any_journal_line_resumes_to_the_same_record(tmp_path):
    """kill -9 leaves the journal cut after some line (every line is on disk before the table
    acts on it); resuming from every such cut of a short seeded demo (two early rolls, an
    illegal move accepted, a correction) ends with the uninterrupted run's record, and the
    very same journal."""
    seed = 54
    expected = _fast_demo(tmp_path / "ref", seed)
    whole = (tmp_path / "ref" / "journal.jsonl").read_bytes()
    lines = whole.splitlines(keepends=True)
    kinds = [json.loads(l)["event"] + ":" + json.loads(l).get("action", {}).get("type", "") for l in lines]
    assert len(lines) > 300 and "action:illegal_accepted" in kinds and "action:correction" in kinds
    different = []
    for k in range(1, len(lines)):
        out = tmp_path / f"cut{k}"
        out.mkdir()
        (out / "journal.jsonl").write_bytes(b"".join(lines[:k]))
        with contextlib.redirect_stderr(io.StringIO()):
            if _fast_demo(out, seed, resume=True) != expected or (out / "journal.jsonl").read_bytes() != whole:
                different.append(k)
        shutil.rmtree(out)
    assert different == []


def test_kill_9_at_journal_lines_then_resume_gives_the_same_record(tmp_path):
    """The real process killed (SIGKILL, from inside its journal writer) just after chosen
    journal lines, then ``demo --resume``: the same .mat as an uninterrupted run."""
    seed = 12
    ref = _run_demo(tmp_path / "ref", seed)
    assert ref.returncode == 0, ref.stderr[-2000:]
    expected = (tmp_path / "ref" / "match.mat").read_text()
    n = (tmp_path / "ref" / "journal.jsonl").read_bytes().count(b"\n")
    out = tmp_path / "crashy"
    sizes = []
    for attempt, line in enumerate((3, n // 3, n // 2, 2 * n // 3)):
        killed = _run_killed_at(out, seed, line, resume=attempt > 0)
        assert killed.returncode == -signal.SIGKILL, killed.stderr[-2000:]
        sizes.append((out / "journal.jsonl").read_bytes().count(b"\n"))
    assert sizes == sorted(sizes) and sizes[0] == 3  # the journal only grows, cut where it was killed
    last = _run_demo(out, seed, "--resume")
    assert last.returncode == 0, last.stderr[-2000:]
    assert (out / "match.mat").read_text() == expected


KILL_AT = """
import os, signal, sys
from referee.records import journal
from referee.table import demo
limit = int(sys.argv[1])
real = journal.Journal.append
def append(self, event):
    seq = real(self, event)
    if seq >= limit:
        os.kill(os.getpid(), signal.SIGKILL)
    return seq
journal.Journal.append = append
sys.exit(demo.main(sys.argv[2:]))
"""


def _run_killed_at(out: Path, seed: int, line: int, resume: bool) -> subprocess.CompletedProcess:
    """The demo, killed with SIGKILL once its journal holds ``line`` lines."""
    return subprocess.run([sys.executable, "-c", KILL_AT, str(line), *DEMO[4:], "--seed", str(seed), "--out",
                           str(out)] + (["--resume"] if resume else []), capture_output=True, text=True, timeout=300)


def test_resume_refuses_a_missing_or_unreadable_journal(tmp_path, capsys):
    for out, setup in ((tmp_path / "missing", None), (tmp_path / "garbage", b"\x00\x13not a journal\n"),
                       (tmp_path / "file", "file")):
        if setup == "file":
            out.write_text("x")
        elif setup is not None:
            out.mkdir()
            (out / "journal.jsonl").write_bytes(setup)
        assert demo.main(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet", "--out", str(out),
                          "--resume"]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(out) in err[0], err
        if setup not in (None, "file"):
            assert (out / "journal.jsonl").read_bytes() == setup  # left as it was
        assert not list(tmp_path.glob("missing/*"))


def test_a_damaged_journal_resumes_from_its_last_good_line_and_says_so(tmp_path, capsys):
    seed = 54
    expected = _fast_demo(tmp_path / "ref", seed)
    data = (tmp_path / "ref" / "journal.jsonl").read_bytes()
    lines = data.splitlines(keepends=True)
    out = tmp_path / "damaged"
    out.mkdir()
    bad = bytearray(b"".join(lines[:150]))
    bad[sum(map(len, lines[:99])) + 30] ^= 0x10  # a flipped bit in line 100
    (out / "journal.jsonl").write_bytes(bytes(bad))
    shown = []
    core = TableCore.open(out / "journal.jsonl", Settings(match_to=1, names=("Dark", "Light")),
                          [type("S", (), {"show": lambda self, v, d: shown.append(v.message)})()],
                          on_warning=shown.append)
    try:
        assert core.journal.repair is not None and core.journal.repair.damage.line == 100
        assert core.journal.repair.backup.read_bytes() == bytes(bad[sum(map(len, lines[:99])):])
        assert any("line 100" in s and "lines 1-99" in s for s in shown)  # the log
        assert any(s.startswith("the journal was damaged at line 100") for s in shown)  # the screen
    finally:
        core.close()
    with contextlib.redirect_stderr(io.StringIO()):
        assert _fast_demo(out, seed, resume=True) == expected


class FullDisk:
    """An os.write that fails with ``errno`` while ``full`` is set."""

    def __init__(self) -> None:
        self.full: int | None = None

    def __call__(self, fd: int, data) -> int:
        if self.full is not None:
            raise OSError(self.full, os.strerror(self.full))
        return os.write(fd, data)


@pytest.mark.parametrize("err, reason", [(errno.ENOSPC, "disk full"), (errno.EROFS, "read-only filesystem")])
def test_a_full_or_read_only_disk_pauses_play_until_writing_works(tmp_path, err, reason):
    seed = 54
    expected = _fast_demo(tmp_path / "ref", seed)
    disk = FullDisk()
    views: list = []

    class Screen:
        def show(self, view, decisions):
            views.append((view.message, list(decisions)))

    core = TableCore.open(tmp_path / "journal.jsonl", Settings(match_to=1, names=("Dark", "Light")), [Screen()],
                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None, write=disk))
    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    table = SimulatedTable(core, DirectDice(), PerfectCamera(), buttons, seed=seed, rates=Rates())
    original = core.retry
    paused_at = {40, 41, 120, 200}
    pauses = []

    def flaky_retry():  # the disk fills at some events, and empties again a few tries later
        if core.events in paused_at and disk.full is None and not pauses.count(core.events):
            disk.full = err
            pauses.append(core.events)
            before = (core.events, core.decisions, core.journal.seq, len(views))
            for _ in range(3):
                assert original() == []  # nothing decided, nothing but the pause shown
                assert core.paused == reason and (core.events, core.decisions, core.journal.seq) == before[:3]
            assert all(m.startswith(f"the journal cannot be written: {reason}") and d == []
                       for m, d in views[before[3]:])
            disk.full = None
        return original()

    core.retry = flaky_retry
    try:
        table.run()
    finally:
        buttons.close()
        core.close()
    assert sorted(pauses) == sorted(paused_at) and core.paused is None
    assert core.record() == expected == read_journal(tmp_path / "journal.jsonl").record
    assert read_journal(tmp_path / "journal.jsonl").damage is None


def test_the_screen_titles_a_paused_table():
    from hardware.screen import state_title
    from referee.view import TableView
    assert state_title(TableView(message=f"{PAUSED}: disk full. Play is paused")).startswith("Paused")
    assert not state_title(TableView(message="Dark to roll")).startswith("Paused")


def test_a_second_demo_on_the_same_journal_is_refused(tmp_path, capsys):
    out = tmp_path / "d"
    out.mkdir()
    with Journal(out / "journal.jsonl") as j:
        j.start_match(("Dark", "Light"), 1)
        code = demo.main(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet", "--out", str(out),
                          "--resume"])
    assert code == 2 and "in use by another process" in capsys.readouterr().err


def test_a_game_through_the_rendered_camera_and_the_real_vision_pipeline(tmp_path):
    """The whole chain: rendered frames (hands over the board while moving) read by the vision
    pipeline, dice through the pty link, buttons on mock GPIO; the referee judges every move
    from what the camera saw."""
    from referee.table.simdevices import RenderedCamera

    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    dice = PtyDice(seed=2)
    core = TableCore.open(tmp_path / "journal.jsonl", Settings(match_to=1, min_confidence=VISION_MIN_CONFIDENCE),
                          [LogSink(printer=lambda s: None)])
    camera = RenderedCamera(seed=2)
    try:
        table = SimulatedTable(core, dice, camera, buttons, seed=2, rates=Rates(illegal=0.05),
                               director_camera=PerfectCamera())
        stats = table.run()
    finally:
        buttons.close()
        dice.close()
    record = core.record()
    assert len(record.games) >= 1 and record.games[-1].result is not None
    assert not replay_match(record).problems
    lines = [json.loads(l) for l in (tmp_path / "journal.jsonl").read_text().splitlines()]
    kinds = [l["data"]["kind"] for l in lines if l["event"] == "input"]
    assert kinds.count("hand_over_board") > 20 and kinds.count("board") > 20
    # nearly every move was judged from the camera's own reading, not the director's
    assert stats.director_readings <= kinds.count("board") // 10
    assert camera.count > 100


def test_the_run_loop_retries_a_paused_journal_until_it_can_be_written(tmp_path):
    import queue
    import threading

    from referee.events import RollSettled
    from referee.table.devices import Devices
    from referee.table.run import loop
    from referee.table.sdnotify import Notifier
    from referee.table.simdevices import board_evidence
    from referee.rules.position import Position
    from referee.events import DieReading

    disk = FullDisk()
    log = LogSink(printer=lambda s: None)
    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=1), [log],
                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None, write=disk))
    core.handle(board_evidence(Position.start()))
    disk.full = errno.ENOSPC
    opening = RollSettled((DieReading(5, zone="right"), DieReading(3, zone="left")), 1, "t")
    assert core.handle(opening) == [] and core.paused == "disk full" and core.pending == [opening]
    now = [0.0]

    def clock():  # each look at the clock is half a second later
        now[0] += 0.5
        if now[0] >= 3.0:
            disk.full = None  # space came back
        return now[0]

    loop(core, queue.Queue(), Devices(), Notifier({}), threading.Event(), max_seconds=6.0, clock=clock)
    core.close()
    assert core.paused is None and core.pending == []
    assert any("opening" in line.lower() for line in log.lines), log.lines
    read = read_journal(tmp_path / "current.jsonl")
    assert read.damage is None and [e["data"]["kind"] for e in read.events if e["event"] == "input"] == [
        "board", "roll_settled"]


def test_the_simulated_players_wait_while_the_disk_is_full(tmp_path):
    # the disk fills mid-match and stays full for three retries: the players wait (the
    # injected wait counts them), nothing is decided meanwhile, and the match ends as without it
    seed = 54
    expected = _fast_demo(tmp_path / "ref", seed)
    disk = FullDisk()
    core = TableCore.open(tmp_path / "journal.jsonl", Settings(match_to=1, names=("Dark", "Light")), [],
                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None, write=disk))
    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    waits = []

    def wait():
        waits.append(core.events)
        if len(waits) >= 3:
            disk.full = None  # space came back

    table = SimulatedTable(core, DirectDice(), PerfectCamera(), buttons, seed=seed, rates=Rates(), pause_wait=wait)
    real_handle = core.handle

    def handle(event):
        if core.events == 60 and not waits:
            disk.full = errno.ENOSPC
        return real_handle(event)

    core.handle = handle  # type: ignore[method-assign]
    try:
        table.run()
    finally:
        buttons.close()
        core.close()
    assert len(waits) == 3 and core.paused is None
    assert core.record() == expected == read_journal(tmp_path / "journal.jsonl").record
