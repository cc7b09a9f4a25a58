"""Records you can trust (issue 16, items 7-13): what bgtable writes opens in GNU Backgammon
exactly as the game was played, and the record tools refuse what they cannot read.

GNU Backgammon itself is the judge: the files are loaded with ``gnubg -t -q`` and every
position it reaches is compared with the position the record's replay says stood on the
table (tests/gnubg_check.py).
"""
from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.cli.records import check_file, main_convert, main_replay
from referee.cli.referee import main as main_referee
from referee.records.builder import journal_lines
from referee.records.damage import parse_journal
from referee.records.journal import Journal, read_journal
from referee.records.matfile import gnubg_steps, load_mat, read_mat, writable_actions, write_mat
from referee.rules.position import Position
from referee.turn.referee import Referee
from referee.records.actions import (AcceptResign, Correction, Double, GameEnd, IllegalAccepted, Move, Resign, Reroll,
                                     Roll, Take)
from referee.records.problems import layout
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.records.replay import GameReplayer, replay_match
from referee.records.scoresheet import scoresheet
from referee.table.process import scoresheet_from_journal
from referee.settings import Settings
from referee.records.sgf import read_sgf, write_sgf
from referee.table.streams import Table
from referee.table.simtable import Rates
from tests.gnubg_check import compare, run_gnubg

IPE = "bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt"  # drops, a Crawford game, a roll then a resignation
TAKADA = "bgc_04_takadaleft_-_Schiemann_5pt_Backgammon_Studio_2022_08_14_13_46_59_1660486591.txt"
SGF_STEP = "bgc_Timster_-_ZicoBlack_13pt_Backgammon_Studio_2021_09_19_12_12_14_1632080197.txt"


def _sgf_moves(text: str) -> list[tuple[str, str]]:
    return [(side, body) for side, body in __import__("re").findall(r";([WB])\[([1-6]{2}[a-z]*)\]", text)]


def illegal_record() -> MatchRecord:
    """Dark opens 3-1 (8/5 6/5); Light throws 4-2 and plays 24/16 (eight pips: illegal),
    which Dark accepts; Dark plays 6-4, then Light resigns a single game."""
    acts = (Move(0, (3, 1), "8/5 6/5", t=1.0), Roll(1, (4, 2), t=2.0), IllegalAccepted(1, (4, 2), "24/16", t=3.0),
            Move(0, (6, 4), "24/14", t=4.0), Resign(1, 1, t=5.0), AcceptResign(0, t=5.5),
            GameEnd(0, 1, 1, "resign", t=5.5))
    return MatchRecord(("Dark", "Light"), 3, RuleSettings(), (GameRecord(1, (0, 0), False, acts),),
                       (("Event", "Club night"),))


def autodouble_record() -> MatchRecord:
    """A money game: the opening throw ties once (automatic doubles on: the cube goes to 2),
    Dark opens 3-1, Light resigns a single game: 2 points."""
    acts = (Reroll(0, "opening_tie"), Move(0, (3, 1), "8/5 6/5"), Resign(1, 1), AcceptResign(0),
            GameEnd(0, 2, 1, "resign"))
    return MatchRecord(("Dark", "Light"), 0, RuleSettings(crawford=False, automatic_doubles=1),
                       (GameRecord(1, (0, 0), False, acts),))


def opponents_checkers_record() -> MatchRecord:
    """Dark opens 3-1; Light throws 4-2 and moves one of Dark's checkers (13 to 11), which
    Dark accepts: no play text can say that, so the record holds the board as it stood."""
    from referee.rules.moves import match_play
    opened = match_play(Position.start(), 3, 1, "8/5 6/5").result  # Light on roll
    dark = list(opened.opp)
    dark[12] -= 1  # Dark's 13 point
    dark[10] += 1  # Dark's 11 point
    stood = Position(dark, opened.me)  # Dark to roll next
    acts = (Move(0, (3, 1), "8/5 6/5"), IllegalAccepted(1, (4, 2), "", stood.position_id()),
            Move(0, (6, 4), "24/14"), Resign(1, 1), AcceptResign(0), GameEnd(0, 1, 1, "resign"))
    return MatchRecord(("Dark", "Light"), 3, RuleSettings(), (GameRecord(1, (0, 0), False, acts),))


@pytest.fixture(scope="module")
def gnubg_files(matches_dir, tmp_path_factory):
    """Our .mat and SGF of two real matches, the illegal-play record and the automatic double,
    loaded into gnubg in one run."""
    tmp = tmp_path_factory.mktemp("trust")
    records = {"ipe": load_mat(matches_dir / IPE).record, "step": load_mat(matches_dir / SGF_STEP).record,
               "illegal": illegal_record(), "auto": autodouble_record(), "opp": opponents_checkers_record()}
    jobs = []
    for key, rec in records.items():
        (tmp / f"{key}.mat").write_text(write_mat(rec), encoding="utf-8")
        (tmp / f"{key}.sgf").write_text(write_sgf(rec), encoding="utf-8")
        jobs += [(f"mat:{key}", "import mat", tmp / f"{key}.mat"), (f"sgf:{key}", "load match", tmp / f"{key}.sgf")]
    result, output = run_gnubg(tmp, jobs)
    return tmp, records, result, output


def test_gnubg_loads_every_file_without_a_warning(gnubg_files):
    _, _, result, output = gnubg_files
    assert "WARNING" not in output and "garbage" not in output, output[-2000:]
    assert len(result) == 10


# ---------------------------------------------------------------------------- 7. step order


def test_sgf_steps_in_gnubgs_canonical_order():
    """Issue 16.7: gnubg keeps SGF steps as written and sorts .mat steps (by source, then
    destination, descending); bgtable writes SGF in that order."""
    rec = MatchRecord(("A", "B"), 1, RuleSettings(), (GameRecord(1, (0, 0), False, (Move(0, (3, 1), "6/5 8/5"),)),))
    assert _sgf_moves(write_sgf(rec)) == [("W", "31hefe")]  # 8/5 (h->e) before 6/5 (f->e)


def test_sgf_and_mat_of_one_match_give_gnubg_the_same_steps(gnubg_files):
    _, records, result, _ = gnubg_files
    for key in ("ipe", "step"):
        mat = [(a["player"], a["move"]) for g in result[f"mat:{key}"]["games"] for a in g["game"]
               if a["action"] == "move"]
        sgf = [(a["player"], a["move"]) for g in result[f"sgf:{key}"]["games"] for a in g["game"]
               if a["action"] == "move"]
        assert len(mat) > 100 and mat == sgf, key


# ---------------------------------------------------------------------------- 8. accepted illegal plays


def test_sgf_writes_the_roll_then_the_position_that_stood():
    text = write_sgf(illegal_record())
    lines = text.splitlines()
    assert lines[2] == ";PL[B]DI[42]TS[3]"
    board = lines[3]
    assert board.startswith(";PL[W]AE[a:y]AW") and "C[Light 42, accepted illegal play: 24/16]" in board
    # Light's checkers: one left on its 24 point (W's 1 = a), one on its 16 (W's 9 = i)
    assert board.count("[a]") == 1 and "[i]" in board.split("AB", 1)[1]
    back = read_sgf(text)
    assert back.problems == []
    # the accepted play comes back as it was (SGF folds the roll into it)
    acts = back.record.games[0].actions
    assert IllegalAccepted(1, (4, 2), "24/16") in acts and acts[1].t == 3.0
    assert replay_match(back.record).problems == []
    assert _signature(back.record)[3:] == _signature(replace(illegal_record(), games=(
        illegal_record().games[0].with_actions(a for a in illegal_record().games[0].actions
                                               if not isinstance(a, Roll)),)))[3:]


def test_the_set_board_names_the_right_side_whoever_plays_next():
    """gnubg reads AW for the side on roll, so PL goes first when W plays next and last when B does."""
    acts = (Move(0, (3, 1), "8/5 6/5"), Move(1, (4, 2), "8/4 6/4"), IllegalAccepted(0, (6, 5), "24/14"))
    rec = MatchRecord(("Dark", "Light"), 3, RuleSettings(), (GameRecord(1, (0, 0), False, acts),))
    board = [ln for ln in write_sgf(rec).splitlines() if "AE[a:y]" in ln][0]
    assert board.startswith(";AE[a:y]AW") and "PL[B]C[" in board
    assert read_sgf(write_sgf(rec)).record.games == rec.games  # each play's text as written here


def test_an_accepted_board_change_no_play_can_say_is_written_as_it_stood():
    rec = opponents_checkers_record()
    assert replay_match(rec).problems == []
    back = read_sgf(write_sgf(rec))
    assert back.problems == [] and back.record.games[0].actions[1] == rec.games[0].actions[1]
    assert _signature(back.record)[3:] == _signature(rec)[3:]
    assert MatchRecord.from_json(rec.to_json()) == rec
    assert "position" not in illegal_record().games[0].actions[2].to_dict()  # only when given


def test_gnubg_reaches_only_positions_that_stood_on_the_table(gnubg_files):
    _, records, result, _ = gnubg_files
    for key, rec in records.items():
        for fmt in ("mat", "sgf"):
            assert compare(rec, result[f"{fmt}:{key}"], fmt) == [], (key, fmt)
    sets = [a for a in result["sgf:illegal"]["games"][0]["game"] if a["action"] == "set" and "board" in a]
    assert [a.get("comment") for a in sets] == ["Light 42, accepted illegal play: 24/16"]


def test_mat_stops_the_game_at_the_accepted_plays_roll(gnubg_files):
    text = write_mat(illegal_record())
    body = text.split(" Game 1", 1)[1].splitlines()
    assert body[2].split() == ["1)", "31:", "8/5", "6/5", "42:"] and "Wins 1 point" in body[3]
    assert "24/16" not in text and "24/14" not in text
    back = read_mat(text)
    assert back.problems == [] and replay_match(back.record).problems == []
    _, _, result, _ = gnubg_files
    info = result["mat:illegal"]["games"][0]["info"]
    assert (info["winner"], info["points-won"]) == ("X", 1)


def test_json_and_journal_keep_the_accepted_play(tmp_path):
    rec = illegal_record()
    again = MatchRecord.from_json(rec.to_json())
    assert again == rec and IllegalAccepted(1, (4, 2), "24/16") in again.games[0].actions
    data = "".join(json.dumps({"seq": i, **ev}) + "\n" for i, ev in enumerate(journal_lines(rec), 1))
    assert parse_journal(data.encode()).record == rec


# ---------------------------------------------------------------------------- 9. automatic doubles, chouette


def test_automatic_doubles_are_written_as_the_cube_value(gnubg_files):
    text = write_sgf(autodouble_record())
    assert "CV[2]" in text.splitlines()[0]
    back = read_sgf(text).record
    assert back.rules.automatic_doubles == 1 and back.games == autodouble_record().games
    _, _, result, _ = gnubg_files
    info = result["sgf:auto"]["games"][0]["info"]
    assert info.get("initial-cube") == 2 and info["points-won"] == 2


def _chouette_session() -> tuple[Table, Settings]:
    settings = Settings(chouette=("Box", "Cap", "Ann", "Bob"))
    t = Table(Referee(settings))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.play((6, 4), "24/14")
    t.press("dark", "double")          # the box doubles every member
    t.press("light", "take", 0)        # Cap takes
    t.press("light", "pass", 1)        # Ann passes: pays the box 1
    t.press("light", "take", 2)        # Bob takes
    t.ref.setup(Position.from_points({1: 1}, {1: 2, 2: 3}), "dark")
    t.play((2, 1), "1/off")            # the box bears off: Cap and Bob pay 2 each
    return t, settings


def test_chouette_scoresheet_from_the_decisions():
    t, settings = _chouette_session()
    sheet = scoresheet(t.log, settings)
    assert sheet.totals() == t.ref.chouette.scores == {"Box": 5, "Cap": -2, "Ann": -1, "Bob": -2}
    [g] = sheet.games
    assert (g.box, g.captain, g.winner) == ("Box", "Cap", "box")
    assert [(c.member, c.action, c.by, c.value) for c in g.cube_actions] == [
        ("Cap", "double", "Box", None), ("Ann", "double", "Box", None), ("Bob", "double", "Box", None),
        ("Cap", "take", "Cap", 2), ("Ann", "pass", "Ann", None), ("Bob", "take", "Bob", 2)]
    rows = sheet.to_csv().splitlines()
    assert rows[0] == "game,box,captain,winner,cube actions,Box,Cap,Ann,Bob"
    assert rows[1].startswith("1,Box,Cap,box,") and rows[1].endswith(",5,-2,-1,-2")
    assert rows[-1] == "total,,,,,5,-2,-1,-2"
    assert json.loads(sheet.to_json())["totals"] == {"Box": 5, "Cap": -2, "Ann": -1, "Bob": -2}


def test_chouette_scoresheet_from_the_journal(tmp_path):
    from referee import events
    settings = Settings(chouette=("Box", "Cap", "Ann", "Bob"))
    t = Table(Referee(settings))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    t.press("light", "take", 2)    # Bob takes
    t.press("light", "pass", 0)    # Cap passes: Ann captains
    t.press("light", "pass", 1)
    t.play((5, 2), "13/8 13/11")   # the box plays on against Bob
    t.press("light", "double", 2)  # Bob redoubles the box to 4
    t.press("dark", "pass")        # the box passes: pays Bob 2, the game is over
    path = tmp_path / "session.jsonl"
    with Journal(path, fsync=lambda fd: None) as j:
        j.start_match(("Box", "Cap"), 0)
        for ev in t.ref.inputs:
            j.input(events.to_dict(ev))
    sheet = scoresheet_from_journal(path, settings)
    assert sheet == scoresheet(t.log, settings)
    [g] = sheet.games
    assert dict(g.points) == {"Box": 0, "Cap": -1, "Ann": -1, "Bob": 2} == t.ref.chouette.scores
    assert [str(c) for c in g.cube_actions][-2:] == ["Bob doubles", "Box passes Bob's double"]
    assert g.winner == "team"
    sheet.save(tmp_path / "sheet.csv")
    sheet.save(tmp_path / "sheet.json")
    assert (tmp_path / "sheet.csv").read_text().splitlines()[-1] == "total,,,,,0,-1,-1,2"
    assert json.loads((tmp_path / "sheet.json").read_text())["games"][0]["box"] == "Box"
    with pytest.raises(ValueError, match="csv or .json"):
        sheet.save(tmp_path / "sheet.txt")
    with pytest.raises(ValueError, match="chouette"):
        scoresheet(t.log, Settings())


# ---------------------------------------------------------------------------- 10. convert


def _convert(capsys, *args: Any) -> tuple[int, str]:
    rc = main_convert([str(a) for a in args])
    return rc, capsys.readouterr().err


def test_convert_refuses_empty_and_binary_input(tmp_path, capsys):
    empty, binary = tmp_path / "empty.mat", tmp_path / "bin.mat"
    empty.write_text("")
    binary.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(300)) + b"\0")
    for src in (empty, binary):
        rc, err = _convert(capsys, src, tmp_path / "out.sgf")
        assert rc == 2 and f"{src}:1:" in err and "nothing written" in err, err
        assert not (tmp_path / "out.sgf").exists()


def test_convert_names_the_line_of_an_unreadable_move(tmp_path, capsys):
    src = tmp_path / "bad.mat"
    src.write_text(" 1 point match\n\n Game 1\n A : 0                          B : 0\n"
                   "  1) 31: 8/5 6/5                 42: 8/x 6/4\n")
    rc, err = _convert(capsys, src, tmp_path / "out.sgf")
    assert rc == 2 and f"{src}:5: game 1, move 1: 42: 8/x 6/4: unreadable move" in err, err
    assert not (tmp_path / "out.sgf").exists()


def test_convert_never_overwrites_its_input(matches_dir, tmp_path, capsys):
    src = tmp_path / "m.mat"
    original = (matches_dir / IPE).read_bytes()
    src.write_bytes(original)
    for dst in (src, tmp_path / "." / "m.mat"):
        rc, err = _convert(capsys, src, dst)
        assert rc == 2 and "is the input file" in err
    assert src.read_bytes() == original


def test_convert_keeps_every_header_tag(matches_dir, tmp_path, capsys):
    src = matches_dir / TAKADA
    sgf, mat = tmp_path / "a.sgf", tmp_path / "b.mat"
    assert _convert(capsys, src, sgf)[0] == 0 and _convert(capsys, sgf, mat)[0] == 0
    text = mat.read_text()
    for tag in ('Match ID "2125122"', 'EventTime "13.46"', 'Variation "Backgammon"', 'Unrated "Off"',
                'Crawford "On"', 'CubeLimit "1024"', 'Player 1 "Hideaki Ueda"', 'Player 2 "Dirk Schiemann"'):
        assert f"; [{tag}]" in text, tag
    assert load_mat(mat).record.players == load_mat(src).record.players == ("takadaleft", "Schiemann")
    assert text == write_mat(load_mat(src).record)


# ---------------------------------------------------------------------------- 11. replay


def test_replay_reports_unfinished_and_unreadable_files(matches_dir, tmp_path, capsys):
    full = (matches_dir / TAKADA).read_text(encoding="utf-8-sig")
    cut = full[:full.index(" 10)")]  # game 1 stops in the middle: 0-0 in a 5-point match
    (tmp_path / "cut.mat").write_text(cut)
    (tmp_path / "empty.sgf").write_text("")
    (tmp_path / "noise.sgf").write_bytes(bytes(random.Random(7).randrange(256) for _ in range(300)))
    (tmp_path / "empty.jsonl").write_text("")
    for name, why in (("cut.mat", "unfinished"), ("empty.sgf", "empty file"), ("noise.sgf", "not UTF-8"),
                      ("empty.jsonl", "empty journal")):
        assert main_replay([str(tmp_path / name)]) == 1, name
        out = capsys.readouterr().out
        assert why in out and "clean" not in out, (name, out)
    assert main_replay([str(matches_dir / TAKADA)]) == 0
    assert capsys.readouterr().out.endswith(": clean\n")


# ---------------------------------------------------------------------------- 12 and 13: the journal


class _Clocked:
    """Feeds a table core as :class:`referee.table.streams.Table` feeds a referee, stamping each
    event with the next tick of an injected clock."""

    def __init__(self, core: Any) -> None:
        self.core, self.tick = core, 0.0

    def handle(self, ev: Any) -> Any:
        self.tick += 1.5
        return self.core.handle(replace(ev, t=self.tick))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.core.referee, name)


@pytest.fixture
def table_journal(tmp_path):
    from referee.table.process import TableCore
    core = TableCore.open(tmp_path / "journal.jsonl", Settings(match_to=3))
    t = Table(_Clocked(core))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    t.press("light", "take")
    t.play((5, 2), "13/8 13/11")
    core.close()
    return tmp_path / "journal.jsonl", t


def test_referee_script_reads_the_tables_journal(table_journal, capsys):
    path, t = table_journal
    assert main_referee(["--script", str(path)]) == 0
    out, err = capsys.readouterr()
    assert "unknown event kind" not in err and err == ""
    assert [ln.split(": ", 1)[1] for ln in out.splitlines()] == [str(d) for d in t.log]
    assert main_referee(["--script", str(path), "--json"]) == 0
    lines = [json.loads(ln) for ln in capsys.readouterr().out.splitlines()]
    assert {ln["line"] for ln in lines} <= {e["seq"] for e in read_journal(path).events}


def test_every_action_carries_its_time_into_sgf_and_json(table_journal, tmp_path):
    path, _ = table_journal
    rec = read_journal(path).record
    acts = rec.games[0].actions
    assert [type(a) for a in acts] == [Roll, Move, Roll, Move, Double, Take, Roll, Move]
    times = [a.t for a in acts]  # each the time of the input event that caused it
    assert all(t is not None for t in times) and times == sorted(times) and len(set(times)) == len(times)
    assert [a["t"] for a in json.loads(rec.to_json())["games"][0]["actions"]] == times
    assert MatchRecord.from_json(rec.to_json()).games[0].actions[3].t == times[3]
    text = write_sgf(rec)
    written = [a.t for a in acts if not isinstance(a, Roll)]  # a roll shares its play's node
    assert [float(x) for x in __import__("re").findall(r"TS\[([0-9.]+)\]", text)] == written
    assert [a.t for a in read_sgf(text).record.games[0].actions] == written


# ---------------------------------------------------------------------------- round trips


def _signature(record: MatchRecord) -> list[Any]:
    """Everything both formats hold: header tags, players, and per game every play's steps
    in order, every cube action and the result."""
    out: list[Any] = [record.players, record.match_length, sorted(record.meta)]
    for g in record.games:
        r = GameReplayer(g.number, record.match_length, record.rules, g.crawford)
        acts: list[tuple[Any, ...]] = []
        for i, (a, (line, _c)) in enumerate(zip(g.actions, layout(g.actions))):
            before = r.mover_position(a.player)
            r.feed(a, line, i)
            if isinstance(a, Move):
                play = r.out.resolved.get(i)
                steps = tuple(gnubg_steps(before, play)) if play is not None else a.play
                acts.append(("move", a.player, tuple(sorted(a.dice)), steps))
            elif a.TYPE in ("double", "take", "pass", "beaver", "roll", "resign"):
                acts.append((a.TYPE, a.player))
        res = g.result
        out.append((g.number, g.score_before, acts, res and (res.winner, res.points, res.reason)))
    return out


def _real_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".sgf") and p.name != "SOURCES.txt")


@pytest.mark.slow
def test_round_trips_keep_everything_on_every_real_file(matches_dir):
    from referee.cli.records import read_file
    files = _real_files(matches_dir)
    assert len(files) >= 114
    for path in files:
        rec0, problems, _ = read_file(path)
        assert problems == [], path.name
        mat, sgf = write_mat(rec0), write_sgf(rec0)
        via_sgf, via_mat = read_sgf(sgf), read_mat(mat)
        assert via_sgf.problems == [] and via_mat.problems == [], path.name
        assert write_mat(via_sgf.record) == mat, f"{path.name}: .mat -> SGF -> .mat"
        # what .mat can hold (a roll left unplayed whose play is forced is not: gnubg would play it)
        held = replace(rec0, games=tuple(g.with_actions(writable_actions(g)) for g in rec0.games))
        assert write_sgf(via_mat.record) == write_sgf(held), f"{path.name}: SGF -> .mat -> SGF"
        assert _signature(via_sgf.record) == _signature(rec0), path.name
        assert _signature(via_mat.record) == _signature(held), path.name


# ---------------------------------------------------------------------------- the simulated table

SIM_RATES = Rates(double=0.15, take=0.6, illegal=0.15, accept_illegal=0.5, cocked=0.03, outside=0.03,
                  on_checker=0.02, early_roll=0.1)
SIM_SEEDS = (1, 2, 3, 4, 5)


@pytest.mark.slow
def test_simulated_matches_open_in_gnubg_as_they_were_played(tmp_path):
    """Whatever the rates of illegal moves, accepted illegal moves, early rolls and
    corrections, the .mat and SGF the table writes import into gnubg with no warning, and
    every position gnubg reaches is the position that stood on the table."""
    from tests.referee.table.test_table_demo import play
    records, jobs = {}, []
    for seed in SIM_SEEDS:
        d = tmp_path / f"s{seed}"
        d.mkdir()
        core, _, _ = play(d, seed, SIM_RATES, match_to=3)
        rec = core.record()
        core.close()
        assert replay_match(rec).problems == [], seed
        records[seed] = rec
        (d / "m.mat").write_text(write_mat(rec), encoding="utf-8")
        (d / "m.sgf").write_text(write_sgf(rec), encoding="utf-8")
        jobs += [(f"mat:{seed}", "import mat", d / "m.mat"), (f"sgf:{seed}", "load match", d / "m.sgf")]
    kinds = {type(a) for r in records.values() for g in r.games for a in g.actions}
    assert {IllegalAccepted, Correction} <= kinds  # the sample holds what it is meant to test
    result, output = run_gnubg(tmp_path, jobs)
    assert "WARNING" not in output and "garbage" not in output, output[-2000:]
    for seed, rec in records.items():
        for fmt in ("mat", "sgf"):
            assert compare(rec, result[f"{fmt}:{seed}"], fmt) == [], (seed, fmt)
            assert check_file(tmp_path / f"s{seed}" / f"m.{fmt}")["problems"] == [], (seed, fmt)  # replays clean
