"""``bgtable run``'s wiring of the club issue: ``[clock]`` and ``[club]`` read with the table's
config, the clock and the club link added as outputs of the table core, and a finished match
analysed by gnubg beside its kept files (skipped only where gnubg is missing outside CI)."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from referee.settings import Settings
from referee.table import demo
from referee.table.clock_sink import ClockSink
from referee.table.club.analysis import gnubg_path
from referee.table.config import loads
from referee.table.process import TableCore
from referee.table.matches import archive
from referee.table.run import analyse_match, club_outputs


def test_clock_and_club_sections_are_read_and_checked() -> None:
    c = loads('[clock]\nreserve = 600\ndelay = 12\n[club]\nbroker = "127.0.0.1"\nclub = "north"\ntable = "t3"\n')
    assert c.clock.enabled and c.clock.delay == 12
    assert c.club.enabled and (c.club.club, c.club.table) == ("north", "t3")
    assert not loads("").clock.enabled and not loads("").club.enabled
    with pytest.raises(ValueError, match="reserv"):
        loads("[clock]\nreserv = 600\n")


def test_the_clock_is_an_output_only_when_a_reserve_is_set(tmp_path: Path) -> None:
    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3))
    try:
        assert club_outputs(core, loads(""), []) == []
        assert not any(isinstance(s, ClockSink) for s in core.sinks)
        club_outputs(core, loads("[clock]\nreserve = 600\n"), [])
        assert sum(isinstance(s, ClockSink) for s in core.sinks) == 1
    finally:
        core.close()


def test_a_club_broker_that_is_away_leaves_the_table_alone(tmp_path: Path) -> None:
    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3))
    try:
        cfg = loads('[club]\nbroker = "127.0.0.1"\nport = 1\nclub = "north"\ntable = "t3"\n')
        n = len(core.sinks)
        assert club_outputs(core, cfg, []) == []
        assert len(core.sinks) in (n, n + 1)  # a sink that publishes once the broker is back, or none
    finally:
        core.close()


@pytest.mark.skipif(gnubg_path() is None and not os.environ.get("CI"),
                    reason="GNU Backgammon is not installed (CI installs it)")
def test_a_finished_match_is_kept_with_its_analysis(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    assert demo.main(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet", "--seed", "1",
                      "--match-to", "1", "--out", str(out)]) == 0
    table = tmp_path / "table"
    table.mkdir()
    shutil.copy(out / "journal.jsonl", table / "current.jsonl")
    core = TableCore.open(table / "current.jsonl", Settings(match_to=1, names=("Dark", "Light")))
    assert core.match_over
    kept = archive(core, table, on_kept=analyse_match)
    names = sorted(p.name for p in kept)
    stem = kept[0].stem
    assert f"{stem}-analysis.json" in names and f"{stem}-analysis.txt" in names
    a = json.loads((table / f"{stem}-analysis.json").read_text())
    assert [p["name"] for p in a["players"]] == ["Dark", "Light"]
    lines = [json.loads(line) for line in (table / f"{stem}.jsonl").read_text().splitlines()]
    assert any(e.get("event") == "analysis" for e in lines)
