"""End-to-end: every kind of table the demo plays, through the demo's own wiring.

Each test builds the table exactly as ``bgtable demo`` does (:func:`referee.table.demo.build`:
the real table core and journal, simulated devices at its edges), plays a small seeded
session and checks its records: the number of games, scores that add up game by game, the
rules in the journal, the .mat/.sgf/scoresheet exports.  Kinds: a money session of N games,
Jacoby with beavers, automatic doubles, a chouette, and a camera-only table (no dice reader:
the camera reads the dice when it can, else the roll is inferred from the move).
"""
from __future__ import annotations

import contextlib
import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from referee.events import from_dict
from referee.records.journal import Journal, read_journal
from referee.records.matfile import read_mat, write_mat
from referee.records.actions import Beaver, IllegalAccepted, Reroll
from referee.records.replay import replay_match
from referee.table import demo

FAST = ["--headless", "--camera", "perfect", "--dice", "direct", "--quiet"]


def play(out: Path, *argv: str, resume: bool = False):
    """The demo's table for ``argv`` (fast devices, no fsync), played to its end: (core, table)."""
    args = demo._parser().parse_args([*FAST, "--out", str(out), *argv] + (["--resume"] if resume else []))
    out.mkdir(parents=True, exist_ok=True)
    with contextlib.redirect_stderr(io.StringIO()):
        core, table, closers = demo.build(args, out, printer=lambda s: None,
                                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None))
        try:
            table.run()
            core.export(out)
        finally:
            for c in reversed(closers):
                c.close()
    return core, table


def inputs(out: Path) -> list:
    return [from_dict(e["data"]) for e in read_journal(out / "journal.jsonl").events if e["event"] == "input"]


def check_scores_add_up(record, score) -> None:
    """Each game starts at the score the games before it left, and the last leaves ``score``."""
    running = [0, 0]
    for g in record.games:
        assert g.result is not None, f"game {g.number} has no result"
        assert tuple(g.score_before) == tuple(running), (g.number, g.score_before, running)
        running[g.result.winner] += g.result.points
    assert tuple(running) == tuple(score)
    result = replay_match(record)
    assert not result.problems, result.problems[:3]
    assert tuple(result.score) == tuple(score)


# --------------------------------------------------------------------------- the options


def test_the_options_and_their_refusals(capsys):
    parse = demo._parser().parse_args
    assert demo.session(parse([])) == (3, None)
    assert demo.session(parse(["--match-to", "0"])) == (0, demo.DEFAULT_GAMES) == (0, 5)
    assert demo.session(parse(["--jacoby"])) == (0, 5)  # a money option means money play
    assert demo.session(parse(["--chouette", "A,B,C", "--games", "2"])) == (0, 2)
    assert demo.chouette_names(" Ann, Bob ,Cid,Dee") == ("Ann", "Bob", "Cid", "Dee")
    s = demo.settings_of(parse(["--chouette", "Ann,Bob,Cid", "--no-dice-reader", "--beavers"]), 0.6)
    assert s.chouette == ("Ann", "Bob", "Cid") and s.money and not s.dice_reader and s.beavers
    for argv, named in ((["--chouette", "Ann,Bob"], "'Ann,Bob'"), (["--chouette", "Ann,,Cid"], "'Ann,,Cid'"),
                        (["--chouette", "Ann,Bob,Ann"], "'Ann,Bob,Ann'"),
                        (["--jacoby", "--match-to", "3"], "--jacoby"), (["--games", "4"], "--games 4"),
                        (["--match-to", "0", "--games", "0"], "--games 0"), (["--match-to", "-1"], "--match-to -1"),
                        (["--automatic-doubles", "-1"], "--automatic-doubles -1"),
                        (["--no-dice-reader", "--camera-unsure-rate", "2"], "--camera-unsure-rate 2")):
        assert demo.main([*FAST, "--out", "/nonexistent/never-made", *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and named in err[0], (argv, err)
    help_text = demo._parser().format_help()
    for option in ("--games", "(default 5)", "--jacoby", "--beavers", "--automatic-doubles", "--chouette",
                   "--no-dice-reader"):
        assert option in help_text


# --------------------------------------------------------------------------- money


def test_a_money_session_ends_after_its_games(tmp_path, capsys):
    # the bug this fixes: `bgtable demo --match-to 0` never ended (an error after 20,000 steps)
    out = tmp_path / "money"
    assert demo.main([*FAST, "--out", str(out), "--match-to", "0", "--seed", "5"]) == 0
    err = capsys.readouterr().err
    assert "session over: Dark" in err and "(5 games," in err, err[-500:]
    record = read_journal(out / "journal.jsonl").record
    assert record.match_length == 0 and len(record.games) == 5
    mat = (out / "match.mat").read_text()
    assert mat.startswith(" 0 point match") and mat.count(" Game ") == 5
    # every game's points as the session scored them (a game with an accepted illegal play is
    # written up to that play, then its result: the journal and the SGF keep the rest)
    assert [int(n) for n in re.findall(r"Wins (\d+) point", mat)] == [g.result.points for g in record.games]
    back = read_mat(mat)
    assert not back.problems and len(back.record.games) == 5
    clean = [i for i, g in enumerate(record.games) if not any(isinstance(a, IllegalAccepted) for a in g.actions)]
    assert clean and all(back.record.games[i].result.points == record.games[i].result.points for i in clean)
    assert "MI[length:0]" in (out / "match.sgf").read_text()


def test_a_money_session_of_n_games_keeps_a_running_score(tmp_path):
    core, table = play(tmp_path / "m", "--games", "3", "--seed", "5", "--match-to", "0")
    record = core.record()
    assert len(record.games) == 3 and core.referee.score.games == 3
    assert core.referee.state == "game_over" and table.finished
    check_scores_add_up(record, core.referee.score.points)
    assert sum(core.referee.score.points) > 0


def test_jacoby_and_beavers(tmp_path):
    core, table = play(tmp_path / "jb", "--jacoby", "--beavers", "--games", "3", "--seed", "5")
    record = core.record()
    assert record.rules.jacoby and record.rules.beavers and record.match_length == 0
    assert len(record.games) == 3
    assert table.stats.decisions.get("beaver", 0) >= 1
    beavered = [g for g in record.games if any(isinstance(a, Beaver) for a in g.actions)]
    assert beavered and all(g.result.points >= 4 for g in beavered if g.result.reason != "pass"), \
        [(g.number, g.result) for g in beavered]
    check_scores_add_up(record, core.referee.score.points)
    # the replay scores the games by the journal's rules: a gammon with the cube never turned
    # counts single under Jacoby (the referee and the replay agree, checked above)
    assert "RU[Jacoby]" in (tmp_path / "jb" / "match.sgf").read_text()


def test_the_mat_of_a_jacoby_session_keeps_its_rules(tmp_path):
    core, _ = play(tmp_path / "jb", "--jacoby", "--beavers", "--games", "1", "--seed", "5")
    back = read_mat(write_mat(core.record())).record
    assert back.rules.jacoby and back.rules.beavers


def test_automatic_doubles(tmp_path):
    core, table = play(tmp_path / "ad", "--automatic-doubles", "2", "--games", "3", "--seed", "5")
    record = core.record()
    assert record.rules.automatic_doubles == 2 and len(record.games) == 3
    ties = [sum(1 for a in g.actions if isinstance(a, Reroll) and a.cause == "opening_tie") for g in record.games]
    assert sum(ties) >= 2, ties
    log = [d for d in table.stats.decisions if d == "opening_tie"]
    assert log
    check_scores_add_up(record, core.referee.score.points)
    # a game after two opening ties starts with the cube at 4 (at most two automatic doubles):
    # its points are a multiple of 4 unless a pass ended it at a lower offered value (never)
    for g, n in zip(record.games, ties):
        if n >= 2 and g.result.reason == "bearoff":
            assert g.result.points % 4 == 0, (g.number, g.result)


# --------------------------------------------------------------------------- chouette


def test_a_chouette_session_and_its_scoresheet(tmp_path):
    out = tmp_path / "ch"
    core, table = play(out, "--chouette", "Ann,Bob,Cid,Dee", "--games", "4", "--seed", "5")
    ch = core.referee.chouette
    assert ch is not None and core.referee.score.games == 4 and table.finished
    sheet = json.loads((out / "match-scoresheet.json").read_text())
    assert sheet["players"] == ["Ann", "Bob", "Cid", "Dee"] and len(sheet["games"]) == 4
    assert sheet["games"][0]["box"] == "Ann" and sheet["games"][0]["captain"] == "Bob"  # the first is the box
    running = {p: 0 for p in sheet["players"]}
    for g in sheet["games"]:
        assert sum(g["points"].values()) == 0, g  # what one player wins another pays
        assert g["winner"] in ("box", "team")
        for p, v in g["points"].items():
            running[p] += v
        assert g["totals"] == running
    assert sheet["totals"] == running == ch.scores and any(running.values())
    rows = list(csv.reader((out / "match-scoresheet.csv").open()))
    assert rows[0][-4:] == ["Ann", "Bob", "Cid", "Dee"] and len(rows) == 1 + 4 + 1
    assert rows[-1][0] == "total" and [int(x) for x in rows[-1][-4:]] == [running[p] for p in sheet["players"]]
    # every member's cube action the referee decided is on the sheet
    assert sum(len(g["cube_actions"]) for g in sheet["games"]) >= table.stats.decisions.get("chouette", 0) - 4
    # the rotation: a box that loses hands the box to that game's captain
    for a, b in zip(sheet["games"], sheet["games"][1:]):
        assert b["box"] == (a["box"] if a["winner"] == "box" else a["captain"]), (a, b)


def test_the_chouette_match_record_keeps_a_running_score(tmp_path):
    core, _ = play(tmp_path / "ch", "--chouette", "Ann,Bob,Cid", "--games", "3", "--seed", "5")
    record = core.record()
    assert len(record.games) == 3
    running = [0, 0]
    for g in record.games:
        assert tuple(g.score_before) == tuple(running)
        running[g.result.winner] += g.result.points
    assert not replay_match(record).problems


# --------------------------------------------------------------------------- camera only


def check_camera_only(out: Path, core, table) -> None:
    record = core.record()
    d = table.stats.decisions
    # the opening roll, rolls the camera read, rolls inferred from the move, rolls confirmed
    assert d.get("opening_won", 0) == len(record.games)
    assert d.get("roll_accepted", 0) > 0 and d.get("roll_inferred", 0) > 0 and d.get("confirm_roll", 0) > 0
    events = inputs(out)
    rolls = [e for e in events if e.kind == "roll_settled"]
    assert rolls and all(e.source == "camera" for e in rolls)  # no dice reader: the camera's dice only
    confirms = [e for e in events if e.kind == "player" and e.action == "confirm"]
    assert confirms and any(e.choice is not None for e in confirms)
    assert read_journal(out / "journal.jsonl").record == record
    assert not replay_match(record).problems
    assert core.match_over


def test_a_camera_only_match_fast(tmp_path):
    out = tmp_path / "cam"
    core, table = play(out, "--no-dice-reader", "--match-to", "3", "--seed", "3")
    assert core.referee.settings.dice_reader is False
    check_camera_only(out, core, table)
    check_scores_add_up(core.record(), core.referee.score.points)
    assert max(core.referee.score.points) >= 3


def test_a_camera_only_match_resumes_to_the_same_record(tmp_path):
    """kill -9 leaves the journal cut after some line; a camera-only demo resumed from a few
    cuts (an opening tie among them) ends with the uninterrupted run's record and journal."""
    seed = 8
    ref_core, _ = play(tmp_path / "ref", "--no-dice-reader", "--match-to", "1", "--seed", str(seed))
    expected = ref_core.record()
    whole = (tmp_path / "ref" / "journal.jsonl").read_bytes()
    lines = whole.splitlines(keepends=True)
    for k in (2, len(lines) // 4, len(lines) // 2, len(lines) - 3):
        out = tmp_path / f"cut{k}"
        out.mkdir()
        (out / "journal.jsonl").write_bytes(b"".join(lines[:k]))
        core, _ = play(out, "--no-dice-reader", "--match-to", "1", "--seed", str(seed), resume=True)
        assert core.record() == expected, k
        assert (out / "journal.jsonl").read_bytes() == whole, k
        shutil.rmtree(out)


def test_a_camera_only_chouette(tmp_path):
    out = tmp_path / "cc"
    core, table = play(out, "--no-dice-reader", "--chouette", "Ann,Bob,Cid", "--games", "2", "--seed", "2")
    assert core.referee.score.games == 2 and (out / "match-scoresheet.csv").exists()
    assert table.stats.decisions.get("roll_inferred", 0) > 0
    assert all(e.source == "camera" for e in inputs(out) if e.kind == "roll_settled")


@pytest.mark.slow
def test_a_camera_only_match_through_the_rendered_camera(tmp_path):
    """The whole camera-only chain: rendered frames read by the real vision pipeline, the dice
    seen by the camera (or inferred), buttons on mock GPIO, a whole 3-point match."""
    out = tmp_path / "render"
    args = demo._parser().parse_args(["--headless", "--camera", "render", "--quiet", "--out", str(out),
                                      "--no-dice-reader", "--match-to", "3", "--seed", "3"])
    out.mkdir()
    with contextlib.redirect_stderr(io.StringIO()):
        core, table, closers = demo.build(args, out, printer=lambda s: None,
                                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None))
        try:
            table.run()
        finally:
            for c in reversed(closers):
                c.close()
    check_camera_only(out, core, table)
    kinds = [e.kind for e in inputs(out)]
    assert kinds.count("board") > 20 and kinds.count("hand_over_board") > 20
    assert table.stats.director_readings <= kinds.count("board") // 10
