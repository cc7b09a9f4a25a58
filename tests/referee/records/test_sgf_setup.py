"""The director's set-up (``SetUp``) in SGF: written as a set-board node, read back as a
set-up (position, player on roll, cube from ``CV``/``CP``); GNU Backgammon loads that SGF
at the set-up position and imports the .mat of a set-up game."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.records.actions import Double, GameEnd, Move, Pass, Roll, SetUp
from referee.records.matfile import write_mat
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.records.replay import replay_match
from referee.records.sgf import read_sgf, write_sgf
from referee.rules.position import Position

START = Position.start()

NOTE = "C[set up by the director]"


def _shape(rec: MatchRecord) -> list[tuple[object, ...]]:
    """The games with each play as its player and dice (SGF writes a play as its steps)."""
    return [(g.number, g.score_before, g.crawford,
             tuple((a.TYPE, a.player, a.dice) if isinstance(a, Move) else a for a in g.actions))
            for g in rec.games]


def _race() -> Position:
    """A bearing-in race, player 0 on roll (2 off; player 1: 1 off)."""
    me, opp = [0] * 25, [0] * 25
    me[0], me[1], me[2], me[5], me[12], me[24] = 3, 3, 3, 2, 1, 1
    opp[0], opp[3], opp[4], opp[7] = 4, 4, 4, 2
    return Position(me, opp)


def _record(cube: int = 1, owner: int | None = None) -> MatchRecord:
    """Game 1: two plays, the set-up, a double passed; game 2: a roll, then a set-up, a play."""
    g1 = GameRecord(1, (0, 0), False, (
        Move(0, (3, 1), "8/5 6/5"), Move(1, (4, 2), "8/4 6/4"),
        SetUp(0, _race().position_id(), cube, owner, t=5.0),
        Double(0, cube * 2), Pass(1), GameEnd(0, max(cube, 1), 1, "pass")))
    g2 = GameRecord(2, (g1.result.points, 0), False, (  # type: ignore[union-attr]
        Move(0, (3, 1), "8/5 6/5"), Roll(1, (6, 6), t=9.0),
        SetUp(1, START.position_id(), t=11.0), Move(1, (6, 5), "24/13")))
    return MatchRecord(("Ann", "Bob"), 5, RuleSettings(), (g1, g2))


def test_a_set_up_game_round_trips():
    rec = _record()
    assert replay_match(rec).problems == []
    text = write_sgf(rec)
    assert text.count(NOTE) == 2
    back = read_sgf(text)
    assert back.problems == [] and back.notes == []
    assert _shape(back.record) == _shape(rec)
    setup = back.record.games[0].actions[2]
    assert isinstance(setup, SetUp) and setup.t == 5.0
    assert back.record.games[1].actions[1] == Roll(1, (6, 6))  # the roll before the set-up is kept
    ours, theirs = replay_match(rec), replay_match(back.record)
    assert theirs.problems == [] and [g.final for g in theirs.games] == [g.final for g in ours.games]


def test_player_two_on_roll_reads_from_his_side():
    g = GameRecord(1, (0, 0), False, (Move(0, (3, 1), "8/5 6/5"), SetUp(1, _race().position_id()),
                                      Move(1, (6, 5), "bar/14")))
    rec = MatchRecord(("Ann", "Bob"), 0, RuleSettings(crawford=False), (g,))
    assert replay_match(rec).problems == []
    text = write_sgf(rec)
    assert "PL[B]" + NOTE in text  # PL last when B is on roll (gnubg's reading order)
    back = read_sgf(text)
    assert back.problems == [] and _shape(back.record) == _shape(rec)


@pytest.mark.parametrize("where", ["same node", "gnubg's nodes after it"])
def test_the_cube_of_a_set_up_is_read_from_cv_and_cp(where):
    rec = _record(cube=2, owner=0)
    text = write_sgf(rec)
    cube = "CV[2]CP[w]" if where == "same node" else "\n;CV[2]\n;CP[w]"
    text = text.replace(NOTE + "TS[5]", NOTE + "TS[5]" + cube, 1)
    back = read_sgf(text)
    assert back.problems == []
    assert back.record.games[0].actions[2] == SetUp(0, _race().position_id(), 2, 0)
    assert back.record.games[0].actions[3] == Double(0, 4)
    assert replay_match(back.record).problems == []


def test_a_set_up_cube_round_trips():
    rec = _record(cube=2, owner=0)
    assert _shape(read_sgf(write_sgf(rec)).record) == _shape(rec)


GNUBG_EXPORT = """(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:5][game:0][ws:0][bs:0]PW[gnubg]PB[root]
DT[2026-12-01]RU[Crawford]
;W[64xrmi]
;PL[B]AE[a:y]AW[f][f][f][f][f][h][h][h][m][m][m][m][m][x][x]AB[s][s][s][s][s][q][q][q][l][l][l][l][l][a][a]
;CV[4]
;CP[b])
"""


def test_gnubg_edited_position_and_cube_read_as_a_set_up():
    """gnubg 1.07's own save after ``set board``, ``set cube value 4``, ``set cube owner 1``."""
    back = read_sgf(GNUBG_EXPORT)
    assert back.problems == []
    assert back.record.games[0].actions[1:] == (SetUp(1, START.position_id(), 4, 1),)
    assert replay_match(back.record).problems == []


def test_a_lone_cube_node_sets_the_cube_where_the_game_stands():
    text = GNUBG_EXPORT.replace(";PL[B]AE[a:y]AW[f][f][f][f][f][h][h][h][m][m][m][m][m][x][x]"
                                "AB[s][s][s][s][s][q][q][q][l][l][l][l][l][a][a]\n", "")
    back = read_sgf(text)
    assert back.problems == []
    opened = MatchRecord(("gnubg", "root"), 5, RuleSettings(), (GameRecord(1, (0, 0), False, (
        Move(0, (6, 4), "24/18 13/9"),)),))
    stands = replay_match(opened).games[0].final.swap()  # as Bob, on roll, sees it
    assert back.record.games[0].actions[1:] == (SetUp(1, stands.position_id(), 4, 1),)


def test_bad_set_up_nodes_are_problems():
    text = ("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b];W[31hefe]"
            ";PL[B]AW[a]AB[x];B[42qusu])")
    read = read_sgf(text)
    assert [(p.game, p.text) for p in read.problems] == [(1, "AE/AB/AW")]
    assert "AE[a:y]" in read.problems[0].reason
    bad_cube = write_sgf(_record()).replace(NOTE, NOTE + "CV[3]", 1)
    read = read_sgf(bad_cube)
    assert [p.text for p in read.problems] == ["CV[3]"]
    sixteen = text.replace(";PL[B]AW[a]AB[x]", ";PL[B]AE[a:y]AW[a]AB" + "[x]" * 16)
    assert [p.text for p in read_sgf(sixteen).problems] == ["AE/AB/AW"]
    lone = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b];CV[2];W[31hefe])"
    assert [p.text for p in read_sgf(lone).problems] == ["CV/CP"]


SCRIPT = r'''
import gnubg, json
jobs = json.load(open(JOBS))
out = {}
for key, cmd, path in jobs:
    gnubg.command('%s "%s"' % (cmd, path))
    out[key] = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
json.dump(out, open(RESULT, "w"))
'''


def _gnubg() -> str:
    exe = shutil.which("gnubg") or "/usr/games/gnubg"
    assert Path(exe).exists(), "GNU Backgammon (Debian package gnubg) must be installed for these tests"
    return exe


@pytest.fixture(scope="module")
def gnubg_read(tmp_path_factory):
    """What gnubg makes of a set-up game: our SGF (without and with the cube), our .mat."""
    tmp = tmp_path_factory.mktemp("gnubg_setup")
    plain, cubed = _record(), _record(cube=2, owner=0)
    with_cube = write_sgf(cubed)
    if "CV[2]CP[w]" not in with_cube:  # until the writer writes the set-up's cube
        with_cube = with_cube.replace(NOTE, "CV[2]CP[w]" + NOTE, 1)
    files = {"sgf": ("load match", write_sgf(plain), "s.sgf"), "sgf_cube": ("load match", with_cube, "c.sgf"),
             "mat": ("import mat", write_mat(plain), "m.mat")}
    jobs = []
    for key, (cmd, text, name) in files.items():
        (tmp / name).write_text(text, encoding="utf-8")
        jobs.append([key, cmd, str(tmp / name)])
    (tmp / "jobs.json").write_text(json.dumps(jobs))
    script = tmp / "script.py"
    script.write_text(f"JOBS = {str(tmp / 'jobs.json')!r}\nRESULT = {str(tmp / 'result.json')!r}\n" + SCRIPT)
    proc = subprocess.run([_gnubg(), "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    log = proc.stdout + proc.stderr
    assert (tmp / "result.json").exists(), log[-2000:]
    assert "WARNING" not in log.upper(), log[-2000:]
    return json.loads((tmp / "result.json").read_text())


def test_gnubg_loads_our_set_up_sgf_at_the_set_up_position(gnubg_read):
    for key, points in (("sgf", 1), ("sgf_cube", 2)):
        games = gnubg_read[key]["games"]
        assert len(games) == 2, key
        first = games[0]["game"]
        sets = [a for a in first if a["action"] == "set" and "board" in a]
        assert [a["board"] for a in sets] == [_race().position_id()], key
        assert [a["action"] for a in first[-2:]] == ["double", "drop"], key
        # without CV/CP gnubg plays the set-up for a centred cube: the pass gives 1, not the record's 2
        assert games[0]["info"]["points-won"] == points, key
    cube = [a for a in gnubg_read["sgf_cube"]["games"][0]["game"] if a["action"] == "set" and "board" not in a]
    assert cube == [{"cube": 2, "action": "set"}, {"cube-owner": "X", "action": "set"}]
    second = gnubg_read["sgf"]["games"][1]["game"]
    assert second[1] == {"dice": [6, 6], "action": "set", "player": "O"}  # the roll before the set-up
    assert [a["board"] for a in second if "board" in a] == [START.position_id()]
    assert second[-1] == {"dice": [6, 5], "move": [[24, 18], [18, 13]], "action": "move", "player": "O"}


def test_gnubg_imports_the_mat_of_a_set_up_game(gnubg_read):
    """.mat cannot hold a set-up: the game is written up to it, then its result (a resignation to gnubg)."""
    games = gnubg_read["mat"]["games"]
    assert len(games) == 2
    first = games[0]
    assert [a["action"] for a in first["game"]] == ["move", "move", "resign"]
    assert first["info"]["winner"] == "X" and first["info"]["points-won"] == 1
    # game 2 stops at the set-up: its opening play, then the roll that stood (gnubg: set dice)
    assert games[1]["game"][1:] == [{"dice": [6, 6], "action": "set", "player": "O"}]
    assert games[1]["info"]["winner"] is None


def test_a_roll_then_a_bad_board_keeps_the_roll():
    text = ("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]PW[a]PB[b];W[31hefe]"
            ";PL[B]DI[42];AE[a:y]AW[a]AB[x][x][x][x][x][x][x][x][x][x][x][x][x][x][x][x]PL[B]"
            "C[b 42, accepted illegal play: 8/4 6/4])")
    read = read_sgf(text)
    assert [(p.game, p.text) for p in read.problems] == [(1, "AE/AB/AW")]
    assert read.record.games[0].actions[-1] == Roll(1, (4, 2))
