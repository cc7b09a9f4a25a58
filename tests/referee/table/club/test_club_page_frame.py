"""The director opens a dispute on the page and sees the camera's last frame at that table with
the decisions that led to it: a real Mosquitto, two simulated tables publishing through it, the
page in headless Chromium.  Skipped only where Chromium, its driver, selenium or mosquitto is
missing and this is not CI (the existing page test's pattern)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.events import PlayerInput
from tests.referee.table.club.test_club_page import browser, cards  # noqa: F401 (the fixture)
from tests.referee.table.club.test_club_mosquitto import club_of, connect, wait

pytestmark = pytest.mark.slow

from referee.table.club.config import SERVER_USER  # noqa: E402
from referee.table.club.mosquitto import LocalBroker  # noqa: E402
from referee.table.club.server import ClubServer, ClubState, subscribe  # noqa: E402
from referee.table.club.simclub import ClubTable  # noqa: E402


def test_an_opened_dispute_shows_the_cameras_last_frame_and_what_led_to_it(tmp_path: Path, browser) -> None:  # noqa: F811
    broker = LocalBroker(club_of(2), tmp_path / "broker")
    broker.start()
    tables: list[ClubTable] = []
    try:
        club = broker.club
        state = ClubState("rv", tuple(t.name for t in club.tables))
        conn = connect(broker, SERVER_USER, "spw", "rv-frame-server")
        subscribe(state, conn)
        server = ClubServer(club, state, conn, ("127.0.0.1", 0))
        server.start()
        tables = [ClubTable("rv", t.name, tmp_path / t.name, connect(broker, t.name, t.password, f"rv-f-{t.name}"),
                            seed=i + 1, fsync=False) for i, t in enumerate(club.tables)]
        for t in tables:
            t.table.look()
            for _ in range(20):
                t.table.step()
                t.pump()
        t2 = tables[1]
        t2.core.handle(PlayerInput(t2.core.referee.view().turn or "dark", "call_director"))
        t2.pump()
        sent = t2.frames.sent[-1].body
        assert sent["what"] == "director called" and sent["width"] == 640

        browser.get(server.url)
        assert wait(lambda: bool(cards(browser)) and cards(browser)[0]["table"] == "t2"
                    and "director called" in cards(browser)[0]["text"], 20)
        browser.execute_script("document.querySelector(\"#tables [data-table='t2'] details.led summary\").click()")
        loaded = ("const i = document.querySelector(\"#tables [data-table='t2'] details.led[open] img.frame\");"
                  "return i && i.complete ? [i.naturalWidth, i.naturalHeight, i.getBoundingClientRect().width] : null;")
        assert wait(lambda: bool(browser.execute_script(loaded)) and browser.execute_script(loaded)[0] > 0, 10), \
            "the opened dispute shows no camera frame"
        w, h, shown = browser.execute_script(loaded)
        assert (w, h) == (640, sent["height"]) and shown > 100
        led = browser.execute_script(
            "return document.querySelector(\"#tables [data-table='t2'] details.led .ledlist\").innerText")
        assert "director" in led and led.count("\n") >= 2  # the decisions before it, then the call itself
        # the page redraws as messages come: the opened dispute stays open with its frame
        tables[0].table.step()
        tables[0].pump()
        assert wait(lambda: bool(browser.execute_script(loaded)), 5)
        server.close()
        conn.close()
    finally:
        for t in tables:
            t.close()
            t.broker.close()
        broker.stop()
