"""The score's notes in the records (issues 20, 15): a time-out's penalty (``Penalty``) and the
director's score correction (``ScoreCorrection``) are kept in the game, so the replay's score
sequence accepts the next game's score; the journal replays them alike, SGF has a comment node,
and the .mat (nothing for them: the next game's score line) imports in GNU Backgammon."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from referee.errors import RecordError
from referee.officials import ClockTimeOut, DirectorAction
from referee.records.actions import (Double, GameEnd, Move, Pass, Penalty, Roll, ScoreCorrection, Undo,
                                     action_from_json)
from referee.records.builder import GameStart, MatchStart, build_record
from referee.records.journal import Journal, read_journal
from referee.records.matfile import write_mat
from referee.records.problems import layout
from referee.records.record import MatchRecord
from referee.records.replay import replay_match, score_after
from referee.records.sgf import write_sgf
from referee.settings import Settings
from referee.table.process import TableCore
from referee.table.streams import Table


def _director(action: str, **kw: Any) -> DirectorAction:
    return DirectorAction(action, by="Ann", why="the scoresheet", key="pin", **kw)


def _penalty_game(t: Table) -> None:
    """Game 1: Light runs out of time after rolling (1 point to Dark), plays, Dark doubles, Light
    passes (Dark 2-0); game 2 starts."""
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.throw((6, 5))
    t.send(ClockTimeOut("light", "penalty", points=1, t=20.0))
    t.move("24/13")
    t.lift()
    t.press("dark", "double")
    t.press("light", "pass")
    t.opening(4, 2)


def _corrected_match(t: Table) -> None:
    """A correction mid-game (to 1-0), one between games (to 1-3), game 2 starts from it."""
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.send(_director("score", score=(1, 0)))
    t.press("light", "double")
    t.press("dark", "pass")  # Light wins 1: 1-1
    t.send(_director("score", score=(1, 3)))
    t.opening(4, 2)


PLAYS: dict[str, Callable[[Table], None]] = {"penalty": _penalty_game, "corrected": _corrected_match}


def _table(tmp_path: Path, play: Callable[[Table], None]) -> tuple[TableCore, Path]:
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "journal.jsonl"
    core = TableCore.open(path, Settings(match_to=5), journal_factory=lambda p: Journal(p, fsync=lambda fd: None))
    t = Table(core.referee)
    t.send = lambda *evs: [d for e in evs for d in core.handle(e)]  # type: ignore[method-assign]
    play(t)
    return core, path


def test_a_penalty_is_in_the_record_and_the_next_games_score_is_accepted(tmp_path: Path) -> None:
    core, _ = _table(tmp_path, _penalty_game)
    record = core.record()
    core.close()
    g1, g2 = record.games
    assert Penalty(1, 1, "timeout") in g1.actions and g2.score_before == (2, 0)
    assert replay_match(record).problems == [] and replay_match(record).score == (2, 0)
    assert score_after(g1, g1.score_before) == (2, 0)
    # without the penalty the record's score sequence is broken: the check can fail
    bare = MatchRecord(record.players, 5, record.rules,
                       (g1.with_actions(a for a in g1.actions if a.TYPE != "penalty"), g2))
    [p] = replay_match(bare).problems
    assert p.game == 2 and "the score before this game is 1-0" in p.reason


def test_a_score_corrected_match_replays_with_no_problem(tmp_path: Path) -> None:
    core, _ = _table(tmp_path, _corrected_match)
    record = core.record()
    assert core.referee.score.points == (1, 3)
    core.close()
    g1, g2 = record.games
    assert g1.score_before == (1, 0) and ScoreCorrection(0, (1, 0)) in g1.actions
    assert g2.score_before == (1, 3) and g2.actions[0] == ScoreCorrection(0, (1, 3))  # made between games
    assert replay_match(record).problems == []
    # a score before that is not the correction's is still found
    wrong = MatchRecord(record.players, 5, record.rules, (g1, type(g2)(2, (2, 3), False, g2.actions)))
    assert [p.reason for p in replay_match(wrong).problems] == ["the director corrected the score to 1-3"]


@pytest.mark.parametrize("name", sorted(PLAYS))
def test_the_journal_replays_the_notes_alike(tmp_path: Path, name: str) -> None:
    core, path = _table(tmp_path, PLAYS[name])
    record, score, state = core.record(), core.referee.score, core.referee.state
    core.close()
    assert read_journal(path).record == record
    again = TableCore.open(path, Settings(match_to=5))
    try:
        assert again.record() == record and again.referee.score == score and again.referee.state == state
    finally:
        again.close()


def test_the_writers_show_the_notes_and_leave_the_plays_alone(tmp_path: Path) -> None:
    core, _ = _table(tmp_path, _penalty_game)
    record = core.record()
    core.close()
    g1 = record.games[0]
    bare = g1.with_actions(a for a in g1.actions if a.TYPE != "penalty")
    # the roll before the penalty still shares its play's cell
    assert [x for x, a in zip(layout(g1.actions), g1.actions) if a.TYPE != "penalty"] == layout(bare.actions)
    mat = write_mat(record)
    assert "65: 24/18 18/13" in mat and "Dark : 2" in mat and "penalty" not in mat
    sgf = write_sgf(record)
    assert ";C[Light ran out of time: 1 penalty point to Dark]TS[20]" in sgf and "[ws:2][bs:0]" in sgf
    core, _ = _table(tmp_path / "c", _corrected_match)
    sgf = write_sgf(core.record())
    core.close()
    assert "C[the director corrected the score to 1-3]" in sgf and "C[the director corrected the score to 1-0]" in sgf


def test_the_penalty_action_checks_its_fields_and_round_trips() -> None:
    p = Penalty(0, 2, "timeout", t=3.5)
    assert action_from_json(p.to_json()) == p and p.gainer == 1
    with pytest.raises(RecordError, match="penalty points 0"):
        Penalty(0, 0)
    with pytest.raises(RecordError, match="penalty reason 'late'"):
        Penalty(0, 1, "late")


def test_a_penalty_while_a_double_is_pending_and_an_undo_after_it() -> None:
    entries = [MatchStart(("A", "B"), 5), GameStart(1),
               Move(0, (3, 1), "8/5 6/5"), Double(1, 2), Penalty(0, 1), Pass(0), GameEnd(1, 1, 1, "pass"),
               GameStart(2, (0, 2))]
    record = build_record(entries)
    assert replay_match(record).problems == []
    assert build_record(entries[:7]).final_score() == (0, 2)  # the record's own score counts the penalty
    assert build_record(entries[:5]).final_score() == (0, 1)  # unfinished: the penalty alone
    # the director's undo takes back the last action that is not a score note
    undone = build_record(entries[:5] + [Undo(1, "Doubles => 2")]).games[0].actions
    assert undone == (Move(0, (3, 1), "8/5 6/5"), Penalty(0, 1))


def test_a_penalty_that_reaches_the_match_length_is_a_problem() -> None:
    record = build_record([MatchStart(("A", "B"), 3), GameStart(1, (0, 2)), Roll(0, (3, 1)), Penalty(0, 1)])
    assert any("a penalty reaches the 3-point match's end" in p.reason for p in replay_match(record).problems)


SCRIPT = r'''
import gnubg, json
out = {}
for key, cmd, path in json.load(open(JOBS)):
    gnubg.command('%s "%s"' % (cmd, path))
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    out[key] = [[g["info"].get("score-X"), g["info"].get("score-O"), len(g["game"])] for g in m["games"]]
json.dump(out, open(RESULT, "w"))
'''


def test_gnubg_imports_the_mat_and_sgf_of_a_penalty_and_a_corrected_match(tmp_path: Path) -> None:
    exe = shutil.which("gnubg") or "/usr/games/gnubg"
    assert Path(exe).exists(), "GNU Backgammon (Debian package gnubg) must be installed for this test"
    jobs, want, entries = [], {}, {}
    for name, play in sorted(PLAYS.items()):
        core, _ = _table(tmp_path / name, play)
        record = core.record()
        core.close()
        (tmp_path / f"{name}.mat").write_text(write_mat(record), encoding="utf-8")
        (tmp_path / f"{name}.sgf").write_text(write_sgf(record), encoding="utf-8")
        jobs += [[f"mat:{name}", "import mat", str(tmp_path / f"{name}.mat")],
                 [f"sgf:{name}", "load match", str(tmp_path / f"{name}.sgf")]]
        want[name] = [sorted(g.score_before) for g in record.games]
        entries[name] = sum(a.TYPE in ("move", "double", "take", "pass") for a in record.games[0].actions)
    (tmp_path / "jobs.json").write_text(json.dumps(jobs))
    script = tmp_path / "script.py"
    script.write_text(f"JOBS = {str(tmp_path / 'jobs.json')!r}\nRESULT = {str(tmp_path / 'result.json')!r}\n"
                      + SCRIPT)
    proc = subprocess.run([exe, "-t", "-q", "-p", str(script)], capture_output=True, text=True, timeout=240,
                          stdin=subprocess.DEVNULL)
    said = proc.stdout + proc.stderr
    assert (tmp_path / "result.json").exists(), said[-2000:]
    assert "WARNING" not in said and "rror" not in said, said[-2000:]
    got = json.loads((tmp_path / "result.json").read_text())
    for key, games in got.items():
        name = key.split(":", 1)[1]
        assert [sorted(g[:2]) for g in games] == want[name], key  # every game, at its score
        assert games[0][2] == entries[name] >= 3, key  # game 1's plays and cube actions came in
