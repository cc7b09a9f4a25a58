"""Every real match file replays clean, and agrees with gnubg's reading in plays.jsonl.gz:
each game's winner, points and resignation flag, and the position after every play."""
from __future__ import annotations

import collections
import gzip
import json

import pytest

from referee.cli.records import load_record, main_replay
from referee.records.actions import Move, Roll
from referee.records.problems import layout
from referee.records.replay import GameReplayer, replay_match


def _match_files(matches_dir):
    return sorted(p for p in matches_dir.iterdir() if p.suffix in (".txt", ".sgf") and p.name != "SOURCES.txt")


@pytest.fixture(scope="module")
def gnubg_reading(matches_dir):
    ends: dict = collections.defaultdict(dict)
    moves: dict = collections.defaultdict(list)
    with gzip.open(matches_dir / "plays.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["action"] == "game_end":
                ends[d["file"]][d["game"]] = d
            elif d["action"] == "move":
                moves[(d["file"], d["game"])].append(d)
    return ends, moves


def test_there_are_114_match_files(matches_dir):
    assert len(_match_files(matches_dir)) == 114


def test_every_file_replays_clean_and_agrees_with_gnubg(matches_dir, gnubg_reading):
    ends, moves = gnubg_reading
    total_plays = 0
    unplayed_rolls = 0
    for path in _match_files(matches_dir):
        record, read_problems = load_record(path)
        assert read_problems == [], (path.name, read_problems[:3])
        rep = replay_match(record)
        assert rep.problems == [], (path.name, [str(p) for p in rep.problems[:3]])
        expected = ends[path.name]
        assert len(record.games) == len(expected), path.name
        score = list(record.games[0].score_before)
        for g in record.games:
            e = expected[g.number]
            r = g.result
            assert r is not None, (path.name, g.number)
            assert ("X" if r.winner == 0 else "O") == e["winner"], (path.name, g.number)
            assert r.points == e["points_won"], (path.name, g.number)
            assert (r.reason == "resign") == e["resigned"], (path.name, g.number)
            assert list(g.score_before) == e["score_XO"], (path.name, g.number)
            score[r.winner] += r.points
            # the position after every play, as gnubg saw it (mover on roll)
            rp = GameReplayer(g.number, record.match_length, record.rules, g.crawford)
            played = moves[(path.name, g.number)]
            k = 0
            for i, (a, (mv, _)) in enumerate(zip(g.actions, layout(g.actions))):
                rp.feed(a, mv, i)
                if isinstance(a, Move):
                    mover_view = rp.pos0 if a.player == 0 else rp.pos0.swap()
                    assert mover_view.position_id() == played[k]["played_position_id"], (path.name, g.number, mv)
                    assert sorted(a.dice) == sorted(played[k]["dice"])
                    k += 1
            if k != len(played):
                # "64: ????" with a single legal play: gnubg plays it, the record keeps the bare roll
                assert k == len(played) - 1 and any(isinstance(a, Roll) for a in g.actions), (path.name, g.number)
                unplayed_rolls += 1
            total_plays += k
        assert list(rep.score) == score
    assert total_plays > 45000
    assert unplayed_rolls <= 2


def test_cli_replay_json_reports_every_file(matches_dir, capsys, tmp_path):
    files = [str(p) for p in _match_files(matches_dir)[:5]]
    missing = str(tmp_path / "missing.mat")
    rc = main_replay(files + [missing, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert [f["file"] for f in out["files"]] == files + [missing]
    for f in out["files"][:5]:
        assert f["problems"] == [] and f["plays"] > 0 and f["games"] > 0 and len(f["score"]) == 2
    assert out["files"][-1]["problems"][0]["reason"].startswith("cannot read the file")
    assert main_replay(files) == 0
