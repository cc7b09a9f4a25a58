"""A dispute opens the camera's last frame: a table publishes it (a small JPEG, retained on its
``frame`` topic) when something waits there, the server keeps it beside the decisions that led
to it and serves it to the page; bad frames are refused and logged.  In-memory broker."""
from __future__ import annotations

import base64
import json
import logging
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from referee.decisions import Decision
from referee.events import PlayerInput
from referee.table.club.broker import MemoryBroker
from referee.table.club.config import Club
from referee.table.club.frames import FrameSink, frame_source, jpeg, waiting_now
from referee.table.club.messages import MessageError, frame_message, parse
from referee.table.club.server import ClubServer, ClubState, subscribe
from referee.table.club.simclub import ClubTable
from referee.view import TableView

CLUB = Club.from_toml({"club": {"name": "rv", "director": "dir", "director_password": "secret", "http": "127.0.0.1:0"},
                       "tables": [{"name": "t1", "password": "p1"}]})


def test_a_frame_is_a_small_jpeg() -> None:
    data, w, h = jpeg(np.full((1080, 1920, 3), 90, np.uint8))
    assert data[:3] == b"\xff\xd8\xff" and (w, h) == (640, 360) and len(data) < 40_000
    assert jpeg(np.zeros((100, 200, 3), np.uint8))[1:] == (200, 100)  # never scaled up


def test_only_what_waits_sends_a_frame() -> None:
    d = lambda kind: Decision(kind, "dark", "")  # noqa: E731
    assert waiting_now(TableView(state="illegal_move"), [d("move_accepted"), d("illegal_move")]) == \
        "dispute: illegal move"
    assert waiting_now(TableView(state="director"), [d("director")]) == "director called"
    assert waiting_now(TableView(state="moving"), [d("director")]) == ""  # play resumes: nothing waits
    assert waiting_now(TableView(state="moving"), [d("roll_accepted")]) == ""
    hub = MemoryBroker()
    frames = iter([None, np.zeros((10, 10, 3), np.uint8)])
    sink = FrameSink(hub.client("t1"), "rv", "t1", lambda: next(frames))
    sink.show(TableView(state="waiting_for_board"), [d("wait_board")])  # no frame yet: nothing sent
    sink.show(TableView(state="waiting_for_board"), [d("wait_board")])
    assert [m.topic for m in sink.sent] == ["bgtable/rv/t1/frame"] and sink.sent[0].retain


def test_a_director_call_at_a_simulated_table_opens_its_last_frame_on_the_page(tmp_path: Path) -> None:
    hub = MemoryBroker()
    state = ClubState("rv", ("t1",))
    conn = hub.client("club-server")
    subscribe(state, conn)
    server = ClubServer(CLUB, state, conn, ("127.0.0.1", 0))
    server.start()
    table = ClubTable("rv", "t1", tmp_path / "t1", hub.client("t1"), seed=3, fsync=False)
    try:
        table.table.look()
        for _ in range(25):
            table.table.step()
        view = table.core.referee.view()
        table.core.handle(PlayerInput(view.turn or "dark", "call_director"))
        table.pump()
        assert table.frames.sent[-1].body["what"] == "director called"  # (the demo had disputes before)
        snap = json.loads(urllib.request.urlopen(server.url + "api/state", timeout=5).read())
        tab = snap["tables"][0]
        assert tab["waiting"]["what"] == "director called"
        assert tab["waiting"]["led_to"], "the decisions that led to it"
        assert tab["frame"]["seq"] >= tab["waiting"]["seq"] and tab["frame"]["width"] == 640
        with urllib.request.urlopen(server.url + f"api/frame/t1?seq={tab['frame']['seq']}", timeout=5) as r:
            assert r.headers["Content-Type"] == "image/jpeg"
            body = r.read()
        assert body[:3] == b"\xff\xd8\xff" and len(body) == tab["frame"]["bytes"]
        # the perfect camera's board, drawn: a board-sized picture, not a blank
        img = frame_source(table.table.camera)()
        assert img is not None and img.shape[1] == 640 and float(img.std()) > 10
    finally:
        table.close()
        server.close()


@pytest.mark.parametrize("body, words", [
    ({"jpeg": "!!not base64!!", "width": 10, "height": 10}, "not base64"),
    ({"jpeg": base64.b64encode(b"GIF89a....").decode(), "width": 10, "height": 10}, "not a JPEG"),
    ({"jpeg": base64.b64encode(b"\xff\xd8\xff\xe0").decode(), "width": 0, "height": 10}, "width 0"),
    ({"width": 10, "height": 10}, "'jpeg'"),
])
def test_bad_frames_are_refused_and_logged(body: dict, words: str, caplog: pytest.LogCaptureFixture) -> None:
    t = "bgtable/rv/t1/frame"
    payload = json.dumps({"table": "t1", "seq": 1, "n": 0, **body}).encode()
    with pytest.raises(MessageError, match=words):
        parse(t, payload)
    state = ClubState("rv", ("t1",))
    caplog.set_level(logging.WARNING, logger="bgtable.club")
    assert state.apply(t, payload) is False
    assert words.strip("'") in caplog.text and state.frame("t1") is None


def test_a_frame_is_not_mistaken_for_a_repeat_of_an_event() -> None:
    state = ClubState("rv", ("t1",))
    ok = base64.b64encode(jpeg(np.zeros((8, 8, 3), np.uint8))[0]).decode()
    ev = {"table": "t1", "seq": 5, "n": 0, "type": "decision", "waiting": "director called",
          "decision": {"kind": "director", "player": "dark", "reason": "called"}}
    assert state.apply("bgtable/rv/t1/event", json.dumps(ev).encode())
    m = frame_message("rv", "t1", 5, "director called", ok, 8, 8)
    assert state.apply(m.topic, m.payload)  # the same (seq, n) as the event, kept anyway
    assert state.snapshot()["tables"][0]["frame"]["seq"] == 5
    too_big = json.dumps({"table": "t1", "seq": 6, "n": 0, "width": 8, "height": 8,
                          "jpeg": "A" * (600 * 1024)}).encode()
    assert not state.apply(m.topic, too_big)
