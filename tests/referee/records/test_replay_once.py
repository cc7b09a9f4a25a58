"""Each game is walked once (issue 19): the readers' replays stand in for the validator's,
and what ``bgtable replay`` and ``bgtable convert`` print is byte for byte what it was.

The digests in ``tests/data/replay_base_outputs.json`` were recorded from the commit before
this work by ``python3 bench/replay_cli.py --manifest``; the bench compares every file.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from referee.cli.records import main_convert, main_replay, read_any
from referee.records.actions import Double
from referee.records.record import GameRecord, RuleSettings
from referee.records.replay import KnownReplay, replay_game, replay_match

from tests.conftest import DATA, MATCHES, ROOT

BASE = json.loads((DATA / "replay_base_outputs.json").read_text(encoding="utf-8"))
FILES = sorted(p for p in MATCHES.iterdir() if p.suffix in (".txt", ".sgf") and p.name != "SOURCES.txt")
SAMPLE = sorted(random.Random(19).sample(FILES, 8), key=lambda p: p.name)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_the_recorded_digests_cover_every_real_file():
    assert sorted(BASE["files"]) == [p.name for p in FILES] and len(FILES) == 114


@pytest.mark.parametrize("path", SAMPLE, ids=lambda p: p.name[:40])
def test_replay_and_convert_print_what_the_base_commit_printed(path, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the reports name the file as it was given
    rel = str(path.relative_to(ROOT))
    want = BASE["files"][path.name]
    for key, argv in (("replay", [rel]), ("replay_json", ["--json", rel])):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main_replay(argv)
        assert _sha(out.getvalue().encode()) == want[key], (key, out.getvalue()[:300])
    for ext in (".mat", ".sgf", ".json"):
        dst = tmp_path / (path.name + ext)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = main_convert([rel, str(dst)])
        assert _sha((f"{rc}\n" + err.getvalue()).encode()) == want[ext + ".rc"], err.getvalue()
        assert _sha(dst.read_bytes()) == want[ext], ext


def test_every_real_game_is_replayed_once_and_the_shared_replay_is_the_full_one():
    shared = 0
    for path in FILES:
        read = read_any(path)
        assert len(read.known) == len(read.record.games) and all(k is not None for k in read.known), path.name
        again = replay_match(read.record)
        assert replay_match(read.record, read.known) == again, path.name
        shared += len(read.known)
    assert shared > 1000


def _real_game() -> tuple[GameRecord, RuleSettings, int, KnownReplay]:
    read = read_any(MATCHES / "bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt")
    g, k = read.record.games[0], read.known[0]
    assert k is not None and k.fits(g, read.record.match_length, read.record.rules, g.crawford)
    return g, read.record.rules, read.record.match_length, k


def test_a_known_replay_is_used_only_for_the_same_game_and_settings():
    g, rules, length, k = _real_game()
    assert not k.fits(g, length, rules, not g.crawford)
    assert not k.fits(g, length + 2, rules, g.crawford)
    assert not k.fits(g, length, replace(rules, jacoby=not rules.jacoby), g.crawford)
    assert not k.fits(g.with_actions(g.actions[:-1]), length, rules, g.crawford)
    assert not k.fits(replace(g, number=g.number + 1), length, rules, g.crawford)
    with_problem = replay_game(g.with_actions((Double(1, 4),) + g.actions), length, rules)
    assert with_problem.problems
    assert not replace(k, replay=with_problem).fits(g, length, rules, g.crawford)


def test_a_known_replay_that_does_not_fit_is_replayed_and_its_problems_found():
    g, rules, length, k = _real_game()
    rec = read_any(MATCHES / "bgc_01_ipe-sam_11p_2022-07-10_1659882266.txt").record
    doubled = g.with_actions((Double(0, 2),) + g.actions)  # before the opening roll: a problem
    bad = replace(rec, games=(doubled,) + rec.games[1:])
    stale = (k,) + tuple(None for _ in rec.games[1:])
    assert replay_match(bad, stale) == replay_match(bad)
    assert any("before the opening roll" in p.reason for p in replay_match(bad, stale).problems)


def test_the_copy_handed_out_is_fresh():
    g, rules, length, k = _real_game()
    a = k.copy()
    a.problems.append(None)
    a.resolved.clear()
    assert k.copy().problems == [] and k.copy().resolved == k.replay.resolved != {}
