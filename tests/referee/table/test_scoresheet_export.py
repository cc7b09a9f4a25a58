"""A chouette session's scoresheet is written beside its records when the table exports."""
from __future__ import annotations

import json

from referee.settings import Settings
from referee.table.process import TableCore


def test_a_chouette_session_exports_its_scoresheet(tmp_path) -> None:
    settings = Settings(match_to=0, chouette=("Ann", "Bob", "Cy"), names=("Ann", "Bob"))
    core = TableCore.open(tmp_path / "journal.jsonl", settings)
    try:
        paths = core.export(tmp_path / "out", stem="session")
    finally:
        core.close()
    names = sorted(p.name for p in paths)
    assert names == ["session-scoresheet.csv", "session-scoresheet.json", "session.mat", "session.sgf"]
    sheet = json.loads((tmp_path / "out" / "session-scoresheet.json").read_text())
    assert [p for p in sheet["players"]] == ["Ann", "Bob", "Cy"] or "players" in sheet


def test_a_match_exports_no_scoresheet(tmp_path) -> None:
    core = TableCore.open(tmp_path / "journal.jsonl", Settings(match_to=3))
    try:
        paths = core.export(tmp_path / "out")
    finally:
        core.close()
    assert sorted(p.suffix for p in paths) == [".mat", ".sgf"]
