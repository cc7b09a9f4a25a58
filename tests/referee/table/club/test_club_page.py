"""The director's page in headless Chromium, on a real Mosquitto with 8 simulated tables: all 8
with the right scores, a dispute at the top within a second, a director action from the page
journaled at the right table, and a spectator without the login refused.

Skipped only where Chromium, its driver, selenium or mosquitto is missing and this is not CI."""
from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest

from referee.table.club.mosquitto import mosquitto_path

pytestmark = pytest.mark.slow
_missing = [n for n, ok in (("chromium", shutil.which("chromium") or shutil.which("chromium-browser")),
                            ("chromedriver", shutil.which("chromedriver")), ("mosquitto", mosquitto_path()))
            if not ok]
try:
    import selenium  # noqa: F401
except ImportError:
    _missing.append("selenium")
if _missing and not os.environ.get("CI"):
    pytest.skip(f"not installed: {', '.join(_missing)} (CI installs them)", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from referee.table.club.config import SERVER_USER  # noqa: E402
from referee.table.club.messages import Message, topic  # noqa: E402
from referee.table.club.mosquitto import LocalBroker  # noqa: E402
from referee.table.club.server import ClubServer, ClubState, subscribe  # noqa: E402
from referee.table.club.simclub import ClubTable  # noqa: E402
from tests.referee.table.club.test_club_mosquitto import club_of, connect, wait  # noqa: E402

N = 8


@pytest.fixture
def browser():
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,2000"):
        opts.add_argument(a)
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    drv = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)
    yield drv
    drv.quit()


def cards(drv) -> list[dict]:
    """The page's table cards, read in one go (the page redraws them as messages arrive)."""
    return drv.execute_script("""return [...document.querySelectorAll('#tables .table')].map((c) => ({
        table: c.dataset.table, cls: c.className, text: c.innerText,
        s0: (c.querySelector('.s0') || {}).textContent, s1: (c.querySelector('.s1') || {}).textContent}));""")


def test_the_page_shows_every_table_a_dispute_first_and_sends_the_directors_action(
        tmp_path: Path, browser) -> None:
    broker = LocalBroker(club_of(N), tmp_path / "broker")
    broker.start()
    try:
        club = broker.club
        state = ClubState("rv", tuple(t.name for t in club.tables))
        conn = connect(broker, SERVER_USER, "spw", "rv-page-server")
        subscribe(state, conn)
        server = ClubServer(club, state, conn, ("127.0.0.1", 0))
        server.start()
        tables = [ClubTable("rv", t.name, tmp_path / t.name, connect(broker, t.name, t.password, f"rv-p-{t.name}"),
                            seed=i + 1, fsync=False) for i, t in enumerate(club.tables)]
        threads = [threading.Thread(target=t.play) for t in tables]
        for th in threads:
            th.start()
        browser.get(server.url)
        # the page is live while the tables play
        assert wait(lambda: len(cards(browser)) == N, 60)
        for th in threads:
            th.join(240)
        finals = {t.name: t.core.referee.view().score for t in tables}

        def scores_right() -> bool:
            got = {c["table"]: (c["s0"], c["s1"]) for c in cards(browser)}
            return got == {n: (str(s[0]), str(s[1])) for n, s in finals.items()}
        assert wait(scores_right, 30), "the page's scores differ from the tables'"
        assert len(browser.find_elements(By.CSS_SELECTOR, "#standings tbody tr")) == N

        # a dispute at t5 (as its publisher sends one): at the top within a second
        t5 = tables[4]
        t5.broker.publish(Message(topic("rv", "t5", "event"), {
            "table": "t5", "seq": 10 ** 6, "n": 0, "type": "decision",
            "decision": {"kind": "illegal_move", "player": "dark", "reason": "8/4 is blocked", "choices": []},
            "waiting": "dispute: illegal move", "led_to": [{"kind": "roll_accepted", "player": "dark", "reason": "4-1"}]}))
        # (the page polls every 0.4 s; how fast is not asserted here: the waits below are only
        # time-outs, generous for a loaded CI machine)
        assert wait(lambda: cards(browser)[0]["table"] == "t5" and "waiting" in cards(browser)[0]["cls"], 30)
        assert "dispute" in cards(browser)[0]["text"]

        # a spectator's click is refused; the director's login sends it to t3, journaled there
        def click(table: str, action: str) -> None:
            browser.execute_script("document.querySelector(`#tables [data-table='${arguments[0]}'] "
                                   "button[data-action='${arguments[1]}']`).click()", table, action)
        click("t3", "pause")
        assert wait(lambda: "refused" in browser.find_element(By.ID, "said").text, 30)
        browser.find_element(By.ID, "user").send_keys("dir")
        browser.find_element(By.ID, "pw").send_keys("dpw")
        browser.find_element(By.ID, "signin").click()
        click("t3", "pause")
        assert wait(lambda: "sent to t3" in browser.find_element(By.ID, "said").text, 30)
        assert wait(lambda: (tables[2].pump() or True) and bool(tables[2].director_lines), 30)
        assert [(e["action"], e["by"]) for e in tables[2].director_lines] == [("pause", "dir")]
        # the director's other powers from the page: a score typed into t2's card, with why
        browser.execute_script("const c = document.querySelector(`#tables [data-table='t2']`);"
                               "c.querySelector('input.score').value = '1-0';"
                               "c.querySelector('input.why').value = 'the score board was wrong';")
        click("t2", "score")
        assert wait(lambda: "score sent to t2" in browser.find_element(By.ID, "said").text, 30)
        assert wait(lambda: (tables[1].pump() or True) and bool(tables[1].director_lines), 30)
        [e] = tables[1].director_lines
        assert (e["action"], e["by"], e.get("data")) == ("score", "dir", {"score": [1, 0],
                                                                          "why": "the score board was wrong"})
        assert all(not t.director_lines for t in tables if t.name not in ("t2", "t3"))
        for t in tables:
            t.close()
            t.broker.close()
        server.close()
        conn.close()
    finally:
        broker.stop()
