"""A time-out at a table reaches the club: the journal's ClockTimeOut input replays into the
decision, the match's end with the opponent winning, and the standings."""
from __future__ import annotations

import json
from pathlib import Path

from referee import events as ev
from referee import officials as off
from referee.records.journal import Journal
from referee.settings import Settings
from referee.table.club.server import ClubState
from referee.table.club.translate import Translator
from referee.table.process import TableCore

OPENING = ev.RollSettled(dice=(ev.DieReading(5, zone="right"), ev.DieReading(2, zone="left")), t=1.0)


def test_a_time_out_ends_the_match_on_the_page(tmp_path: Path) -> None:
    core = TableCore.open(tmp_path / "j.jsonl", Settings(match_to=3, names=("Ann", "Bob")),
                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None))
    core.handle(OPENING)
    core.handle(off.ClockTimeOut("dark", "lose_match", t=40.0))
    core.close()
    tr = Translator("rv", "t1")
    state = ClubState("rv", ("t1",))
    msgs = [m for line in (tmp_path / "j.jsonl").read_text().splitlines() for m in tr.feed(json.loads(line))]
    for m in msgs:
        state.apply(m.topic, m.payload)
    kinds = [(m.body.get("decision") or {}).get("kind") or m.body.get("type") for m in msgs if "/event" in m.topic]
    assert "time_out" in kinds and "match_end" in kinds and kinds[-1] == "game_end"
    assert state.standings == [{"table": "t1", "players": ["Ann", "Bob"], "score": [0, 3], "match_length": 3}]
    assert state.snapshot()["tables"][0]["view"]["message"] == "Bob wins the match 3-0"
    reasons = [d.get("reason", "") for d in state.decisions("t1")]
    assert any("Ann ran out of time" in r for r in reasons) and any("Bob wins on time" in r for r in reasons)
