"""Analysis after a match: a finished demo match analysed by GNU Backgammon, each player's error
rate and biggest errors kept beside the match files, journaled, published and on the page.
Skipped only where gnubg is not installed and this is not CI."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from referee.table import demo
from referee.records.journal import Journal
from referee.table.club.analysis import AnalysisError, analyse, from_gnubg, gnubg_path, journal_line
from referee.table.club.broker import MemoryBroker
from referee.table.club.publisher import Publisher
from referee.table.club.server import ClubState, subscribe
from referee.table.club.translate import Translator

needs_gnubg = pytest.mark.skipif(gnubg_path() is None and not os.environ.get("CI"),
                                 reason="GNU Backgammon is not installed (CI installs it)")


@needs_gnubg
def test_a_finished_demo_match_is_analysed_and_shown(tmp_path: Path) -> None:
    assert demo.main(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet", "--seed", "1",
                      "--match-to", "3", "--out", str(tmp_path)]) == 0
    a = analyse(tmp_path / "match.mat")
    assert [p.name for p in a.players] == ["Dark", "Light"]
    for p in a.players:
        assert p.unforced_moves > 0 and p.error_rate > 0  # the simulated players blunder
        assert sum(p.marks.values()) > 0
    assert a.biggest and all(e.loss > 0 for e in a.biggest)
    assert {e.player for e in a.biggest} == {"Dark", "Light"}
    files = a.save(tmp_path)
    assert json.loads(files[0].read_text())["players"][0]["name"] == "Dark"
    assert "Error rate" in files[1].read_text()
    with Journal(tmp_path / "journal.jsonl") as j:
        j.append(journal_line(a, files))
    hub = MemoryBroker()
    state = ClubState("club")
    subscribe(state, hub.client("s"))
    Publisher(tmp_path / "journal.jsonl", hub.client("t1"), Translator("club", "t1")).pump()
    shown = state.snapshot()["tables"][0]["analysis"]
    assert shown["summary"] == a.summary() and "error rate" in shown["summary"]
    assert shown["players"][1]["error_rate"] == a.players[1].error_rate


def test_without_gnubg_the_reason_is_given(tmp_path: Path) -> None:
    with pytest.raises(AnalysisError, match="not installed|does not exist"):
        analyse(tmp_path / "none.mat")
    with pytest.raises(AnalysisError, match="does not exist"):
        analyse(tmp_path / "none.mat", exe="/bin/true")


def test_error_rates_from_gnubgs_statistics() -> None:
    m = {"match-info": {"X": {"name": "A"}, "O": {"name": "B"}},
         "stats": {"X": {"moves": {"unforced-moves": 10, "error-skill": 0.5, "marked": {"bad": 1}},
                         "cube": {"close-cube": 0}},
                   "O": {"moves": {"unforced-moves": 20, "error-skill": 0.1}, "cube": {"close-cube": 5,
                                                                                      "err-wrong-take-skill": 0.4}}},
         "games": [{"game": [{"action": "move", "player": "O", "dice": [3, 1], "move": [[24, 21], [24, 23]],
                              "analysis": {"imove": 1, "moves": [{"move": [[8, 5], [6, 5]], "score": 0.2},
                                                                 {"move": [[24, 21], [24, 23]], "score": -0.1}]}}]}]}
    a = from_gnubg(m, 0)
    assert (a.players[0].error_rate, a.players[1].error_rate) == (50.0, 20.0)
    assert a.biggest[0].player == "B" and a.biggest[0].played == "24/21 24/23" and a.biggest[0].best == "8/5 6/5"
    assert a.biggest[0].loss == 0.3
