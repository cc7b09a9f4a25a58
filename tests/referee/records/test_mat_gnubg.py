"""Against the real program: .mat and SGF files written by bgtable are imported by
GNU Backgammon (Debian package ``gnubg``) with the same plays, cube actions and
results; and the .mat writer produces gnubg's own export byte for byte."""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from referee.records.matfile import GNUBG_TAGS, load_mat, write_mat
from referee.records.actions import Double, IllegalAccepted, Move, Pass, Resign, Roll, Take
from referee.records.problems import layout
from referee.records.replay import GameReplayer
from referee.records.sgf import write_sgf

FILES = [
    "bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt",  # drops, a Crawford game, "51: ????" then resigns
    "bgc_Timster_-_ZicoBlack_13pt_Backgammon_Studio_2021_09_19_12_12_14_1632080197.txt",
    "lhm_match1484923.txt",  # the right-hand player opens
    "bgc_Justin_Nowell-Chris_Trencher_11p_2022-05-27_1653687185.txt",  # "Concedes"
]
BYTE_EQUAL = ["bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt",
              "bgc_04_takadaleft_-_Schiemann_5pt_Backgammon_Studio_2022_08_14_13_46_59_1660486591.txt"]

SCRIPT = r'''
import gnubg, json, sys
jobs = json.load(open(JOBS))
out = {}
for key, cmd, path, export in jobs:
    gnubg.command('%s "%s"' % (cmd, path))
    if export:
        gnubg.command('export match mat "%s"' % export)
    out[key] = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
json.dump(out, open(RESULT, "w"))
'''


def _gnubg() -> str:
    exe = shutil.which("gnubg") or "/usr/games/gnubg"
    assert Path(exe).exists(), "GNU Backgammon (Debian package gnubg) must be installed for these tests"
    return exe


@pytest.fixture(scope="module")
def gnubg_run(matches_dir, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("gnubg")
    jobs = []
    records = {}
    for i, name in enumerate(FILES):
        rec = load_mat(matches_dir / name).record
        records[name] = rec
        mat, sgf = tmp / f"w{i}.mat", tmp / f"w{i}.sgf"
        mat.write_text(write_mat(rec), encoding="utf-8")
        sgf.write_text(write_sgf(rec), encoding="utf-8")
        jobs.append([f"mat:{name}", "import mat", str(mat), None])
        jobs.append([f"sgf:{name}", "load match", str(sgf), None])
    for i, name in enumerate(BYTE_EQUAL):
        src = tmp / f"orig{i}.mat"
        src.write_bytes((matches_dir / name).read_bytes())
        jobs.append([f"export:{name}", "import mat", str(src), str(tmp / f"gnubg{i}.mat")])
    (tmp / "jobs.json").write_text(json.dumps(jobs))
    script = tmp / "script.py"
    script.write_text(f"JOBS = {str(tmp / 'jobs.json')!r}\nRESULT = {str(tmp / 'result.json')!r}\n" + SCRIPT)
    proc = subprocess.run([_gnubg(), "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                          timeout=240, stdin=subprocess.DEVNULL)
    assert (tmp / "result.json").exists(), proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "WARNING" not in proc.stdout + proc.stderr, (proc.stdout + proc.stderr)[-2000:]
    return tmp, records, json.loads((tmp / "result.json").read_text())


def _apply_pairs(pos, pairs):
    """Move the mover's checkers as gnubg's (from, to) pairs say, hitting blots."""
    me, opp = list(pos.me), list(pos.opp)
    for s, d in pairs:
        me[24 if s == 25 else s - 1] -= 1
        if d > 0:
            me[d - 1] += 1
            if opp[24 - d] == 1:
                opp[24 - d] = 0
                opp[24] += 1
    return tuple(me), tuple(opp)


def _compare(record, gnubg_match, where):
    games = gnubg_match["games"]
    assert len(games) == len(record.games), where
    assert gnubg_match["match-info"]["match-length"] == record.match_length
    for g, gg in zip(record.games, games):
        info = gg["info"]
        res = g.result
        assert ("X" if res.winner == 0 else "O") == info["winner"], (where, g.number)
        assert res.points == info["points-won"], (where, g.number)
        assert (res.reason == "resign") == bool(info["resigned"]), (where, g.number)
        assert [info["score-X"], info["score-O"]] == list(g.score_before), (where, g.number)
        theirs = gg["game"]
        rp = GameReplayer(g.number, record.match_length, record.rules, g.crawford)
        k = 0
        for i, (a, (mv, _)) in enumerate(zip(g.actions, layout(g.actions))):
            t = theirs[k] if k < len(theirs) else {"action": "<none>"}
            who = "X" if a.player == 0 else "O"
            if isinstance(a, (Move, IllegalAccepted)):
                assert t["action"] == "move" and t["player"] == who, (where, g.number, mv, t)
                assert sorted(t["dice"]) == sorted(a.dice), (where, g.number, mv)
                before = rp.mover_position(a.player)
                rp.feed(a, mv, i)
                after = rp.mover_position(a.player).swap()
                assert _apply_pairs(before, t["move"]) == (after.opp, after.me), (where, g.number, mv, t)
                k += 1
                continue
            rp.feed(a, mv, i)
            if isinstance(a, Roll):
                nxt = g.actions[i + 1] if i + 1 < len(g.actions) else None
                if isinstance(nxt, Move):
                    continue
                assert t["action"] == "set" and sorted(t["dice"]) == sorted(a.dice), (where, g.number, t)
            elif isinstance(a, Double):
                assert (t["action"], t["player"]) == ("double", who), (where, g.number, mv, t)
            elif isinstance(a, Take):
                assert (t["action"], t["player"]) == ("take", who), (where, g.number, mv, t)
            elif isinstance(a, Pass):
                assert (t["action"], t["player"]) == ("drop", who), (where, g.number, mv, t)
            elif isinstance(a, Resign):
                assert (t["action"], t["player"], t["points"]) == ("resign", who, a.kind), (where, g.number, t)
            else:
                continue
            k += 1
        assert k == len(theirs), (where, g.number, theirs[k:])


@pytest.mark.parametrize("name", FILES)
def test_gnubg_imports_our_mat(gnubg_run, name):
    _, records, result = gnubg_run
    _compare(records[name], result[f"mat:{name}"], f"mat {name}")


@pytest.mark.parametrize("name", FILES)
def test_gnubg_loads_our_sgf(gnubg_run, name):
    _, records, result = gnubg_run
    _compare(records[name], result[f"sgf:{name}"], f"sgf {name}")


@pytest.mark.parametrize("i, name", list(enumerate(BYTE_EQUAL)))
def test_mat_writer_equals_gnubg_export(gnubg_run, matches_dir, i, name):
    tmp, _, _ = gnubg_run
    theirs = (tmp / f"gnubg{i}.mat").read_text(encoding="utf-8")
    record = load_mat(matches_dir / name).record
    ours = write_mat(record)
    # gnubg drops the header tags it does not know; bgtable keeps them, in place
    kept = tuple((k, v) for k, v in record.meta if (k in GNUBG_TAGS or k.lower() == "clocktype") and v)
    assert write_mat(replace(record, meta=kept)) == theirs
    dropped = [f'; [{k} "{v}"]' for k, v in record.meta if (k, v) not in kept]
    assert dropped and all(line in ours.splitlines() for line in dropped)
