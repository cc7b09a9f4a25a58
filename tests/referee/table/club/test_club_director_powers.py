"""The director's actions from the club page applied at the table (issue 20 with issue 15): the
login is the director's key; undo, set-position, score, override and end of match reach the
referee as journaled inputs with who sent them, and a resumed table decides them alike."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from referee.events import PlayerInput
from referee.officials import DirectorAction
from referee.records.journal import read_journal
from referee.rules.position import Position
from referee.settings import Settings
from referee.table.club.broker import MemoryBroker
from referee.table.club.config import ClubLink
from referee.table.club.link import ClubSink, director_input
from referee.table.club.messages import director_action
from referee.table.process import TableCore
from referee.table.streams import Table

MIDGAME = Position.from_points({6: 5, 8: 3, 13: 4, 24: 2, 5: 1}, {6: 4, 8: 3, 13: 5, 24: 2, 3: 1})


class View:
    state, turn = "waiting_for_roll", "light"


def test_each_page_action_becomes_the_directors_input_with_the_login_as_key() -> None:
    def entry(action: str, **data: Any) -> dict[str, Any]:
        return {"event": "director", "action": action, "by": "alice", "id": "x", "data": data}

    e = director_input(entry("undo", why="wrong roll"), View(), t=5.0)
    assert e == DirectorAction("undo", by="alice", why="wrong roll", key="login", t=5.0)
    e = director_input(entry("set_position", position=MIDGAME.position_id(), turn="light"), View())
    assert isinstance(e, DirectorAction) and (e.action, e.position, e.colour) == ("setup", MIDGAME.position_id(),
                                                                                   "light")
    e = director_input(entry("set_position", xgid="XGID=" + MIDGAME.xgid()), View())
    assert isinstance(e, DirectorAction) and e.position.startswith("XGID=")
    e = director_input(entry("score", score=[2, 1]), View())
    assert isinstance(e, DirectorAction) and e.score == (2, 1)
    e = director_input(entry("override", verdict="accept"), View())
    assert isinstance(e, DirectorAction) and e.action == "accept_move"
    e = director_input(entry("override", verdict="reject"), View())
    assert isinstance(e, DirectorAction) and e.action == "reject_move"
    e = director_input(entry("end_match", winner="dark"), View())
    assert isinstance(e, DirectorAction) and (e.action, e.colour) == ("end_match", "dark")
    e = director_input(entry("learn_board", why="pearl checkers: set-up checked"), View(), t=6.0)
    assert e == DirectorAction("learn_board", by="alice", why="pearl checkers: set-up checked", key="login", t=6.0)
    assert director_input(entry("override", verdict="maybe"), View()) is None  # logged, ignored
    assert director_input(entry("score", score="2-1"), View()) is None
    assert director_input(entry("note", text="coffee"), View()) is None
    assert director_input(entry("pause"), View()) == PlayerInput("light", "call_director")


def test_a_page_undo_is_applied_at_the_table_journaled_and_resumed_alike(tmp_path: Path) -> None:
    hub = MemoryBroker()
    path = tmp_path / "current.jsonl"
    core = TableCore.open(path, Settings(match_to=5))
    arrived: list[dict[str, Any]] = []
    sink = ClubSink(core.journal, hub.client("t1"), ClubLink(broker="memory", club="club", table="t1"),
                    on_director=arrived.append)
    core.sinks.append(sink)
    t = Table(core.referee)
    t.send = lambda *evs: [d for e in evs for d in core.handle(e)]  # type: ignore[method-assign]
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.throw((6, 5))
    page = hub.client("director")
    page.publish(director_action("club", "t1", "undo", "alice", "id-1", {"why": "the die was cocked"}))
    page.publish(director_action("club", "t1", "score", "alice", "id-2", {"score": [1, 2]}))
    sink.pump()
    assert [e["action"] for e in arrived] == ["undo", "score"]
    for entry in arrived:  # what bgtable run's loop does with each
        order = director_input(entry, core.referee.view())
        assert order is not None
        core.handle(order)
    r = core.referee
    assert r.state == "waiting_for_roll" and r.turn == "light" and r.score.points == (1, 2)
    record = core.record()
    # the correction is kept in the game (the replay accepts the score it sets)
    assert [a.TYPE for a in record.games[0].actions] == ["roll", "move", "score"]
    assert record.games[0].score_before == (1, 2)
    core.close()
    events = read_journal(path).events
    inputs = [e["data"] for e in events if e.get("event") == "input" and e["data"]["kind"] == "director"]
    assert [(e["action"], e["by"], e["key"], e["why"]) for e in inputs] == [
        ("undo", "alice", "login", "the die was cocked"), ("score", "alice", "login", "from the club page")]
    again = TableCore.open(path, Settings(match_to=5))
    try:
        assert (again.referee.state, again.referee.turn, again.referee.score.points) == ("waiting_for_roll",
                                                                                        "light", (1, 2))
        assert again.record() == record
    finally:
        again.close()
