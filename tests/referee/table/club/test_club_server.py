"""The club server on the in-memory broker: simulated tables play, the page's JSON has every
table's score; director actions need the login, reach the right table and are journaled there;
the broker's ACL and password files."""
from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from referee.table.club.acl import acl_text, check_password, passwords_text, password_hash
from referee.table.club.broker import MemoryBroker
from referee.table.club.config import Club, ClubConfigError, ClubLink
from referee.table.club.server import ClubServer, ClubState, subscribe
from referee.table.club.simclub import ClubTable

CLUB = Club.from_toml({"club": {"name": "rv", "director": "dir", "director_password": "secret",
                                "server_password": "srv", "http": "127.0.0.1:0"},
                       "tables": [{"name": "t1", "password": "p1"}, {"name": "t2", "password": "p2"}]})


def post(url: str, body: dict, login: str = "") -> tuple[int, dict]:
    req = urllib.request.Request(url + "api/director", json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    if login:
        req.add_header("Authorization", "Basic " + base64.b64encode(login.encode()).decode())
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def get(url: str) -> dict:
    with urllib.request.urlopen(url + "api/state", timeout=5) as r:
        return json.loads(r.read())


def test_two_tables_play_and_the_page_has_both_scores_and_a_director_action(tmp_path: Path) -> None:
    hub = MemoryBroker()
    state = ClubState("rv", ("t1", "t2"))
    server_conn = hub.client("club-server")
    subscribe(state, server_conn)
    server = ClubServer(CLUB, state, server_conn, ("127.0.0.1", 0))
    server.start()
    try:
        tables = [ClubTable("rv", f"t{i}", tmp_path / f"t{i}", hub.client(f"t{i}"), seed=i, fsync=False) for i in (1, 2)]
        sent: list[int] = []

        def director_midway(t: ClubTable) -> None:
            if t.name == "t2" and t.steps == 30:
                assert post(server.url, {"table": "t2", "action": "pause"})[0] == 401  # a spectator
                assert post(server.url, {"table": "t2", "action": "pause"}, "dir:wrong")[0] == 401
                assert post(server.url, {"table": "t2", "action": "explode"}, "dir:secret")[0] == 400
                assert post(server.url, {"table": "t9", "action": "pause"}, "dir:secret")[0] == 400
                code, body = post(server.url, {"table": "t2", "action": "note", "data": {"text": "hi"}}, "dir:secret")
                assert code == 200
                sent.append(1)

        for t in tables:
            t.after_step = director_midway
            t.play()
            t.close()
        assert sent
        snap = get(server.url)
        by = {t["name"]: t for t in snap["tables"]}
        assert set(by) == {"t1", "t2"}
        for t in tables:
            rec = t.core.record()
            final = list(t.core.referee.view().score)
            assert by[t.name]["view"]["score"] == final
            assert by[t.name]["result"]["score"] == final
            assert len(by[t.name]["games"]) == len(rec.games)
        assert sorted(s["table"] for s in snap["standings"]) == ["t1", "t2"]
        # the action was journaled at t2 (only), with who sent it, and the page saw it journaled
        assert [(e["action"], e["by"]) for e in tables[1].director_lines] == [("note", "dir")]
        assert tables[0].director_lines == []
        lines = [json.loads(x) for x in (tmp_path / "t2" / "journal.jsonl").read_text().splitlines()]
        assert [e["by"] for e in lines if e["event"] == "director"] == ["dir"]
        assert by["t2"]["directors"][0]["by"] == "dir"
        assert snap["duplicates"] == 0 and snap["refused"] == 0
        with urllib.request.urlopen(server.url, timeout=5) as r:
            assert b"director's page" in r.read()
    finally:
        server.close()


def test_a_dispute_is_at_the_top_with_the_decisions_that_led_to_it() -> None:
    state = ClubState("rv")
    ev = lambda table, seq, body: state.apply(f"bgtable/rv/{table}/event", json.dumps(  # noqa: E731
        {"table": table, "seq": seq, "n": 0, **body}).encode())
    ev("a", 1, {"type": "decision", "decision": {"kind": "roll_accepted", "player": "dark", "reason": "31"}})
    ev("b", 1, {"type": "decision", "decision": {"kind": "roll_accepted", "player": "dark", "reason": "31"}})
    ev("b", 2, {"type": "decision", "decision": {"kind": "illegal_move", "player": "dark", "reason": "8/4"},
                "waiting": "dispute: illegal move", "led_to": [{"kind": "roll_accepted", "reason": "31"}]})
    snap = state.snapshot()
    assert [t["name"] for t in snap["tables"]] == ["b", "a"]
    assert snap["tables"][0]["waiting"]["led_to"][0]["kind"] == "roll_accepted"
    ev("b", 3, {"type": "decision", "decision": {"kind": "illegal_accepted", "player": "light", "reason": ""}})
    assert state.snapshot()["tables"][0]["name"] == "a"


def test_the_acl_lets_each_table_write_only_its_own_topics() -> None:
    text = acl_text(CLUB)
    block = text.split("user t1\n")[1].split("\n\n")[0].splitlines()
    assert block == ["topic write bgtable/rv/t1/state", "topic write bgtable/rv/t1/event",
                     "topic write bgtable/rv/t1/health", "topic write bgtable/rv/t1/frame",
                     "topic read bgtable/rv/t1/director"]
    anonymous = text.split("\n\nuser ")[0]
    assert "write" not in anonymous.replace("# ", "").split("only read")[1]
    assert "user dir\ntopic read bgtable/rv/#\ntopic write bgtable/rv/+/director" in text


def test_the_password_file_holds_hashes_mosquitto_reads() -> None:
    lines = dict(line.split(":", 1) for line in passwords_text(CLUB).splitlines())
    assert set(lines) == {"t1", "t2", "club-server", "dir"}
    assert lines["t1"].startswith("$7$101$") and check_password("p1", lines["t1"])
    assert not check_password("p2", lines["t1"])
    assert password_hash("x", b"\0" * 12) == password_hash("x", b"\0" * 12)


@pytest.mark.parametrize("data, word", [
    ({"club": {"nme": "x"}}, "nme"),
    ({"club": {"name": "a b"}}, "name"),
    ({"club": {"port": 0}}, "port"),
    ({"club": {}, "tables": [{"name": "t1"}]}, "password"),
    ({"club": {}, "tables": [{"name": "t1", "password": "a"}, {"name": "t1", "password": "b"}]}, "already used"),
    ({"club": {"http": "8080"}}, "HOST:PORT"),
])
def test_bad_club_files_name_the_key(data: dict, word: str) -> None:
    with pytest.raises(ClubConfigError, match=word):
        Club.from_toml(data)


def test_a_table_without_a_broker_works_alone() -> None:
    assert not ClubLink.from_toml({}).enabled
    link = ClubLink.from_toml({"broker": "club.local", "club": "rv", "table": "t1", "password": "p"})
    assert link.enabled and link.port == 1883
    with pytest.raises(ClubConfigError, match="table"):
        ClubLink.from_toml({"broker": "club.local", "table": "t/1"})
    assert CLUB.link("t2").password == "p2"


def test_the_club_sink_is_one_more_output_of_the_table_core(tmp_path: Path) -> None:
    from referee.records.journal import Journal
    from referee.settings import Settings
    from referee.table.club.link import ClubSink, open_link
    from referee.table.club.messages import director_action
    from referee.table.process import TableCore
    from referee import events as ev

    assert open_link({}, None) is None  # no broker: the table works alone
    hub = MemoryBroker()
    state = ClubState("rv")
    subscribe(state, hub.client("club-server"))
    core = TableCore.open(tmp_path / "j.jsonl", Settings(match_to=3),
                          journal_factory=lambda p: Journal(p, fsync=lambda fd: None))
    got: list[dict] = []
    sink = ClubSink(core.journal, hub.client("t1"), ClubLink("h", club="rv", table="t1"), on_director=got.append)
    core.sinks.append(sink)
    core.handle(ev.RollSettled(dice=(ev.DieReading(5, zone="right"), ev.DieReading(2, zone="left")), t=1.0))
    hub.client("dir").publish(director_action("rv", "t1", "pause", "dir", "a1"))
    core.handle(ev.HandOverBoard(t=2.0))
    assert [g["action"] for g in got] == ["pause"]
    snap = state.snapshot()["tables"][0]
    assert snap["view"]["state"] == "moving" and snap["directors"][0]["by"] == "dir"
    assert sink.publisher.lag == 0
    core.close()


def test_a_pause_from_the_director_pauses_the_table_and_a_resume_resumes_it(tmp_path: Path) -> None:
    hub = MemoryBroker()
    state = ClubState("rv")
    subscribe(state, hub.client("club-server"))
    t = ClubTable("rv", "t1", tmp_path / "t1", hub.client("t1"), seed=1, fsync=False)
    from referee.table.club.messages import director_action
    t.table.look()
    for _ in range(5):
        t.table.step()
    t.pump()
    before = t.core.referee.state
    hub.client("dir").publish(director_action("rv", "t1", "pause", "dir", "p1"))
    t.pump()
    assert t.core.referee.state == "director"
    assert state.snapshot()["tables"][0]["view"]["state"] == "director"
    assert state.snapshot()["tables"][0]["waiting"]["what"] == "director called"
    hub.client("dir").publish(director_action("rv", "t1", "resume", "dir", "r1"))
    t.pump()
    assert t.core.referee.state == before
    assert state.snapshot()["tables"][0]["waiting"] is None
    t.play()
    assert t.core.match_over
    t.close()
