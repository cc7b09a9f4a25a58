"""The club publisher and the club server's state on the in-memory broker: every journal line
published once, in order, through broker outages and publisher restarts; bad messages refused."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.records.journal import Journal
from referee.table import demo
from referee.table.club.broker import MemoryBroker
from referee.table.club.director import DirectorInbox
from referee.table.club.messages import MessageError, director_action, parse, topic
from referee.table.club.publisher import Publisher, offset_path
from referee.table.club.server import ClubState, subscribe
from referee.table.club.translate import Translator


@pytest.fixture(scope="module")
def demo_journal(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines of a whole simulated match's journal (the demo's fast path)."""
    out = tmp_path_factory.mktemp("demo")
    assert demo.main(["--headless", "--camera", "perfect", "--dice", "direct", "--quiet", "--seed", "1",
                      "--match-to", "3", "--out", str(out)]) == 0
    return (out / "journal.jsonl").read_bytes().splitlines(keepends=True)


def every_message(lines: list[bytes], table: str = "t1") -> list[tuple[str, int, int]]:
    tr = Translator("club", table)
    return [m.key for line in lines for m in tr.feed(json.loads(line))]


def grow(path: Path, lines: list[bytes], upto: int) -> None:
    """The table writes its journal up to line ``upto``."""
    path.write_bytes(b"".join(lines[:upto]))


def setup(tmp_path: Path, hub: MemoryBroker, table: str = "t1") -> tuple[Path, ClubState]:
    state = ClubState("club")
    subscribe(state, hub.client("club-server"))
    return tmp_path / f"{table}.jsonl", state


def test_every_line_is_published_once_and_the_state_has_the_score(tmp_path: Path, demo_journal: list[bytes]) -> None:
    hub = MemoryBroker()
    path, state = setup(tmp_path, hub)
    grow(path, demo_journal, len(demo_journal))
    pub = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    pub.pump()
    assert pub.offset == len(demo_journal) and pub.lag == 0
    assert json.loads(offset_path(path).read_text())["seq"] == len(demo_journal)
    assert state.duplicates == 0 and not state.refused
    snap = state.snapshot()["tables"][0]
    assert snap["result"]["score"] == snap["view"]["score"]
    assert max(snap["result"]["score"]) >= 3
    assert state.standings[0]["table"] == "t1"
    keys = [(t, s, n) for (_, tp, p) in hub.log if tp.endswith("/event") or tp.endswith("/state")
            for t, s, n in [tuple(json.loads(p)[k] for k in ("table", "seq", "n"))]]
    assert keys == every_message(demo_journal)


def test_a_broker_outage_mid_match_loses_and_repeats_nothing(tmp_path: Path, demo_journal: list[bytes]) -> None:
    hub = MemoryBroker()
    path, state = setup(tmp_path, hub)
    pub = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    n = len(demo_journal)
    grow(path, demo_journal, n // 3)
    pub.pump()
    hub.stop()
    for k in range(n // 3, 2 * n // 3, 7):  # the table plays on while the broker is away
        grow(path, demo_journal, k)
        pub.pump()
    assert pub.offset <= n // 3
    hub.restart()
    grow(path, demo_journal, n)
    pub.pump()
    pub.pump()
    assert pub.offset == n
    assert state.duplicates == 0
    got = sorted(k for t in state.tables.values() for k in [(t["name"],)])  # one table
    assert got == [("t1",)]
    assert len(state.keys()) == len(every_message(demo_journal))


def test_a_publisher_restart_goes_on_from_its_offset(tmp_path: Path, demo_journal: list[bytes]) -> None:
    hub = MemoryBroker()
    path, state = setup(tmp_path, hub)
    n = len(demo_journal)
    grow(path, demo_journal, n // 2)
    first = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    first.pump()
    # the broker stops acknowledging; the publisher dies with lines in flight
    hub.auto_ack = False
    grow(path, demo_journal, n // 2 + 40)
    first.pump()
    assert n // 2 <= first.offset < n // 2 + 40  # only lines with nothing to send moved it
    stopped_at = first.offset
    first.broker.close()
    hub.auto_ack = True
    grow(path, demo_journal, n)
    again = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    assert again.offset == stopped_at
    again.pump()
    assert again.offset == n
    assert len(state.keys()) == len(every_message(demo_journal))
    assert state.duplicates == 0  # nothing acknowledged was sent again
    # the offset file lost (a new SD card): everything again, the server keeps each once
    offset_path(path).unlink()
    third = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    third.pump()
    assert state.duplicates == len(every_message(demo_journal))
    assert len(state.keys()) == len(every_message(demo_journal))


def test_a_torn_last_line_waits_for_its_end(tmp_path: Path, demo_journal: list[bytes]) -> None:
    hub = MemoryBroker()
    path, state = setup(tmp_path, hub)
    path.write_bytes(b"".join(demo_journal[:10]) + demo_journal[10][:20])
    pub = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    pub.pump()
    assert pub.offset == 10
    grow(path, demo_journal, 12)
    pub.pump()
    assert pub.offset == 12


@pytest.mark.parametrize("t, payload, why", [
    ("bgtable/club/t1/state", b"{not json", "not JSON"),
    ("bgtable/club/t1/state", b"\xff\xfe", "not UTF-8"),
    ("bgtable/club/t1/state", b"[1, 2]", "not a JSON object"),
    ("bgtable/club/t1/state", b'{"table": "t2", "seq": 1, "n": 0, "view": {"score": [0, 0]}}', "does not match"),
    ("bgtable/club/t1/event", b'{"table": "t1", "seq": -1, "n": 0, "type": "decision"}', "seq"),
    ("bgtable/club/t1/event", b'{"table": "t1", "seq": 1, "n": 0, "type": "virus"}', "type"),
    ("bgtable/club/t1/director", b'{"action": "format_disk", "by": "x", "id": "1"}', "action"),
    ("bgtable/other/t1/state", b'{"table": "t1", "seq": 1, "n": 0, "view": {"score": [0, 0]}}', "not this club"),
    ("elsewhere/x", b"{}", "is not bgtable"),
])
def test_bad_messages_are_refused_with_a_reason(t: str, payload: bytes, why: str) -> None:
    state = ClubState("club")
    assert state.apply(t, payload) is False
    assert why in state.refused[-1]


def test_a_table_not_in_the_club_list_is_refused() -> None:
    state = ClubState("club", tables=("t1",))
    body = b'{"table": "t9", "seq": 1, "n": 0, "view": {"score": [0, 0]}}'
    assert not state.apply("bgtable/club/t9/state", body)
    assert "not in the club's table list" in state.refused[-1]


def test_the_acl_stops_a_table_writing_under_another_tables_topic() -> None:
    hub = MemoryBroker(acl={"t1": (("bgtable/club/t1/state", "bgtable/club/t1/event"), ())})
    state = ClubState("club")
    subscribe(state, hub.client("club-server"))
    from referee.table.club.messages import Message
    hub.client("t1").publish(Message(topic("club", "t2", "state"), {"table": "t2", "seq": 1, "n": 0,
                                                                    "view": {"score": [0, 9]}}))
    assert hub.refused == [("t1", "bgtable/club/t2/state")]
    assert state.tables == {}


def test_a_director_action_is_journaled_once_with_who_sent_it(tmp_path: Path) -> None:
    hub = MemoryBroker()
    table_side = hub.client("t1")
    inbox = DirectorInbox(table_side, "club", "t1")
    msg = director_action("club", "t1", "pause", "alice", "id-1")
    director = hub.client("director")
    director.publish(msg)
    director.publish(msg)  # delivered twice (QoS 1)
    director.publish(director_action("club", "t2", "pause", "alice", "id-2"))  # another table's
    hub.client("director").publish(type(msg)(msg.topic, {"action": "pause"}))  # no 'by', no 'id'
    assert "'by'" in inbox.refused[-1]
    with Journal(tmp_path / "j.jsonl") as j:
        j.start_match(("A", "B"), 3)
        done = inbox.journal(j)
        assert inbox.journal(j) == []
    assert [(e["action"], e["by"], e["id"]) for e in done] == [("pause", "alice", "id-1")]
    lines = [json.loads(x) for x in (tmp_path / "j.jsonl").read_text().splitlines()]
    assert lines[-1]["event"] == "director" and lines[-1]["by"] == "alice"
    # the publisher echoes it, so the page sees it journaled at the table
    tr = Translator("club", "t1")
    out = [m for line in lines for m in tr.feed(line)]
    assert out[-1].body["type"] == "director" and out[-1].body["by"] == "alice"
    assert DirectorInbox.seen_in(lines) == ("id-1",)


def test_parse_checks_a_good_state_message() -> None:
    club, table, kind, body = parse("bgtable/c/t-1/state", b'{"table":"t-1","seq":3,"n":0,"view":{"score":[1,2]}}')
    assert (club, table, kind, body["seq"]) == ("c", "t-1", "state", 3)
    with pytest.raises(MessageError, match="table name"):
        topic("c", "t/1", "state")


def test_a_journal_cut_short_is_read_again_from_its_start(tmp_path: Path, demo_journal: list[bytes]) -> None:
    hub = MemoryBroker()
    path, state = setup(tmp_path, hub)
    grow(path, demo_journal, 60)
    pub = Publisher(path, hub.client("t1"), Translator("club", "t1"))
    pub.pump()
    grow(path, demo_journal, 50)  # a repair cut the last lines
    pub.pump()
    assert pub.offset == 50 and pub.errors == []
    grow(path, demo_journal, len(demo_journal))
    pub.pump()
    assert pub.offset == len(demo_journal)
    assert len(state.keys()) == len(every_message(demo_journal))


def test_the_server_forgets_only_lines_far_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    from referee.table.club import server
    monkeypatch.setattr(server, "KEEP_SEEN", 10)
    state = ClubState("club")
    msg = lambda seq: json.dumps({"table": "t1", "seq": seq, "n": 0, "type": "decision",  # noqa: E731
                                  "decision": {"kind": "roll_accepted"}}).encode()
    for seq in range(1, 30):
        assert state.apply("bgtable/club/t1/event", msg(seq))
    assert len(state.keys()) <= 21 and state.counted["t1"] == 29
    assert not state.apply("bgtable/club/t1/event", msg(2))  # forgotten, still a repeat
    assert not state.apply("bgtable/club/t1/event", msg(29))
    assert state.apply("bgtable/club/t1/event", msg(30))
