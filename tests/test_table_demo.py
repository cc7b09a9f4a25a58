"""End-to-end: the simulated table plays whole matches through the real table core.

Every kind of decision happens at least once (each re-roll cause, an illegal move
accepted and one corrected, an early roll, a double taken and one passed, a gammon);
the record replays clean and GNU Backgammon imports its .mat and SGF exports with the
same plays and results; the same seed gives the same match; and ``kill -9`` at random
moments, then ``--resume``, ends with the record of an uninterrupted run.
"""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from hardware.config import loads
from referee.matfile import write_mat
from referee.record import Correction, IllegalAccepted, Reroll
from referee.replay import replay_match
from referee.settings import Settings
from referee.sgf import write_sgf
from referee.table.demo import DEFAULT_BUTTONS, VISION_MIN_CONFIDENCE
from referee.table.process import LogSink, TableCore
from referee.table.simdevices import DirectDice, MockButtons, PerfectCamera, PtyDice
from referee.table.simtable import Rates, SimulatedTable
from tests.test_mat_gnubg import SCRIPT, _compare, _gnubg

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
    assert record == core.referee.match_record()
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


def test_kill_at_random_moments_then_resume_gives_the_same_record(tmp_path):
    seed = 12
    t0 = time.monotonic()
    ref = _run_demo(tmp_path / "ref", seed)
    full = time.monotonic() - t0
    assert ref.returncode == 0, ref.stderr[-2000:]
    expected = (tmp_path / "ref" / "match.mat").read_text()
    rng = random.Random(2026)
    out = tmp_path / "crashy"
    kills = 0
    sizes = []
    for attempt in range(4):  # three kills at random moments, then run to the end
        cmd = [*DEMO, "--seed", str(seed), "--out", str(out)] + (["--resume"] if attempt else [])
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            proc.wait(timeout=None if attempt == 3 else rng.uniform(0.3, 1.0) * full)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            kills += 1
            journal = out / "journal.jsonl"
            # complete lines only: a torn last line is dropped (and rewritten) on resume
            sizes.append(journal.read_bytes().count(b"\n") if journal.exists() else 0)
            continue
        assert proc.returncode == 0, proc.stderr.read()[-2000:]
        break
    assert kills >= 1 and sizes == sorted(sizes)  # the journal's record only grows
    assert (out / "match.mat").read_text() == expected


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
