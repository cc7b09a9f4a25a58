"""Matches at a club: ``[match]`` (event, round, table, site) in every record, ``bgtable run
--new-match``, kept matches named by players and date, and a config that is not the
journal's match reported, never silently ignored."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import cv2
import pytest

from referee.records.matfile import read_mat, write_mat
from referee.records.record import MatchRecord
from referee.records.sgf import read_sgf, write_sgf
from referee.settings import Settings
from referee.table.config import ConfigError, MatchConfig, loads
from referee.table.matches import JournalMatch, archive_stem, differences, resumed_settings
from referee.table.process import TableCore
from referee.table.streams import Table, opening_throw
from referee.turn.referee import Referee
from vision.layout import start_position
from vision.render import render

RUN = [sys.executable, "-m", "referee.cli", "run", "--headless"]
HEADER = (("Site", "The Crown"), ("Event", "Club night"), ("Round", "Round 2"), ("EventDate", "2026.12.01"),
          ("EventTime", "19.30"), ("Table", "3"))


def played(names: tuple[str, str] = ("Ann Lee", "Bob")) -> MatchRecord:
    t = Table(Referee(Settings(match_to=3, names=names)))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.press("light", "double")
    t.press("dark", "pass")
    return replace(t.record(), meta=HEADER)


# --------------------------------------------------------------------------- the config


def test_the_match_section_gives_the_records_header() -> None:
    c = loads('[match]\nevent = "Club night"\nround = "Round 2"\ntable = 3\nsite = "The Crown"\n')
    assert c.match == MatchConfig("Club night", "Round 2", "3", "The Crown")
    assert c.match.header(datetime(2026, 12, 1, 19, 30)) == HEADER
    assert loads("").match.header(datetime(2026, 12, 1, 9, 5)) == (("EventDate", "2026.12.01"), ("EventTime", "09.05"))


@pytest.mark.parametrize("text,key", [('event = "The \\"Open\\""', "match.event"), ("round = 2.5", "match.round"),
                                      ('table = "' + "9" * 13 + '"', "match.table"), ('venue = "x"', "match.venue")])
def test_a_bad_match_key_is_named(text: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")):
        loads(f"[match]\n{text}\n")


# --------------------------------------------------------------------------- the records


def test_the_header_round_trips_through_mat_and_sgf_exactly() -> None:
    rec = played()
    mat = write_mat(rec)
    assert mat.startswith('; [Site "The Crown"]\n; [Event "Club night"]\n; [Round "Round 2"]\n'
                          '; [EventDate "2026.12.01"]\n; [EventTime "19.30"]\n; [Table "3"]\n')
    back = read_mat(mat).record
    assert (back.meta, back.players, back.match_length) == (HEADER, ("Ann Lee", "Bob"), 3)
    assert write_mat(back) == mat
    sgf = write_sgf(rec)
    assert "PW[Ann Lee]PB[Bob]DT[2026-12-01]EV[Club night]RO[Round 2]PC[The Crown]HT[EventTime:19.30][Table:3]" in sgf
    back = read_sgf(sgf).record
    assert (back.meta, back.players) == (HEADER, ("Ann Lee", "Bob")) and write_sgf(back) == sgf
    assert write_mat(read_sgf(sgf).record) == mat and write_sgf(read_mat(mat).record) == sgf


@pytest.mark.slow
def test_gnubg_reads_the_header_without_a_warning(tmp_path: Path) -> None:
    from tests.gnubg_check import compare, run_gnubg

    rec = played()
    (tmp_path / "m.mat").write_text(write_mat(rec), encoding="utf-8")
    (tmp_path / "m.sgf").write_text(write_sgf(rec), encoding="utf-8")
    result, output = run_gnubg(tmp_path, [("mat", "import mat", tmp_path / "m.mat"),
                                          ("sgf", "load match", tmp_path / "m.sgf")])
    assert not [ln for ln in output.splitlines() if "WARNING" in ln or "garbage" in ln], output
    assert compare(rec, result["mat"], "mat") == [] and compare(rec, result["sgf"], "sgf") == []


def test_a_kept_match_is_named_by_its_date_and_players() -> None:
    rec = played(("Ann Lee", "Bob/O'Neil"))
    now = datetime(2027, 1, 2, 3, 4)
    assert archive_stem(rec, now) == "2026-12-01-1930-Ann_Lee-BobONeil"
    assert archive_stem(replace(rec, meta=()), now, finished=False) == "2027-01-02-0304-Ann_Lee-BobONeil-unfinished"


# --------------------------------------------------------------------------- the journal against the config


def test_a_config_naming_another_match_is_described() -> None:
    config = loads('[players]\ndark = "Cid"\nlight = "Dee"\n[rules]\nmatch_to = 5\n[match]\nround = "Final"\n')
    found = JournalMatch(("Ann", "Bob"), 3, (("Round", "Round 2"),), 4)
    told = differences(config, config.rules, found)
    assert told == ["players Ann - Bob in the journal, Cid - Dee in the config",
                    "a 3-point match in the journal, a 5-point match in the config",
                    "round 'Round 2' in the journal, 'Final' in the config"]
    s = resumed_settings(config.rules, found)
    assert s.names == ("Ann", "Bob") and s.match_to == 3  # the journal's events replay in its own match
    same = JournalMatch(("Cid", "Dee"), 5, (("Round", "Final"), ("EventDate", "2026.12.01")), 40)
    assert differences(config, config.rules, same) == []


# --------------------------------------------------------------------------- bgtable run, end to end


def _config(tmp_path: Path, frames: Path, dark: str, light: str, match_to: int) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(f"""
[players]
dark = "{dark}"
light = "{light}"
[camera]
source = "replay"
path = "{frames}"
[dice]
port = "/nonexistent/tty"
[rules]
match_to = {match_to}
[match]
event = "Club night"
round = "Round 2"
table = 3
site = "The Crown"
[journal]
directory = "{tmp_path / 'journal'}"
""")
    return p


def test_a_journal_with_nothing_played_starts_the_configs_match(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render(start_position(), seed=3))
    _run(_config(tmp_path, frames, "Ann", "Bob", 3))
    res = _run(_config(tmp_path, frames, "Cid", "Dee", 5))
    assert "had no play yet" in res.stdout and "started a new match" in res.stdout
    assert _first(tmp_path / "journal" / "current.jsonl")["players"] == ["Cid", "Dee"]


def _run(cfg: Path, *extra: str) -> subprocess.CompletedProcess:
    res = subprocess.run([*RUN, "--config", str(cfg), "--max-seconds", "1", *extra], capture_output=True,
                         text=True, timeout=90)
    assert res.returncode == 0, res.stdout + res.stderr
    return res


def _first(path: Path) -> dict:
    return json.loads(path.read_text().splitlines()[0])


def test_run_reports_another_match_and_new_match_keeps_the_old_one(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render(start_position(), seed=3))
    journal = tmp_path / "journal"
    current = journal / "current.jsonl"

    _run(_config(tmp_path, frames, "Ann", "Bob", 3))
    line = _first(current)
    assert line["players"] == ["Ann", "Bob"] and line["match_length"] == 3
    meta = dict(line["meta"])
    assert (meta["Event"], meta["Round"], meta["Table"], meta["Site"]) == ("Club night", "Round 2", "3", "The Crown")
    assert meta["EventDate"] == datetime.now().strftime("%Y.%m.%d")
    assert '; [Event "Club night"]' in (journal / "current.mat").read_text()
    # (no game was played, so the SGF, a tree per game, has no root to hold the header yet)

    # the match is under way: the opening roll is in the journal
    core = TableCore.open(current, Settings(match_to=3, names=("Ann", "Bob")))
    core.handle(opening_throw(3, 1))
    core.close()
    res = _run(_config(tmp_path, frames, "Cid", "Dee", 5))  # another match in the config: said, not ignored
    assert "players Ann - Bob in the journal, Cid - Dee in the config" in res.stdout
    assert "a 3-point match in the journal, a 5-point match in the config" in res.stdout
    assert "--new-match" in res.stdout and "resumed the match" in res.stdout
    assert _first(current)["players"] == ["Ann", "Bob"]

    res = _run(_config(tmp_path, frames, "Cid", "Dee", 5), "--new-match")
    kept = sorted(p.name for p in journal.iterdir() if "Ann-Bob" in p.name)
    stem = f"{meta['EventDate'].replace('.', '-')}-{meta['EventTime'].replace('.', '')}-Ann-Bob-unfinished"
    assert kept == [f"{stem}.jsonl", f"{stem}.mat", f"{stem}.sgf"], kept
    assert '; [Event "Club night"]' in (journal / f"{stem}.mat").read_text()
    line = _first(current)
    assert line["players"] == ["Cid", "Dee"] and line["match_length"] == 5
    assert "started a new match" in res.stdout and "not the config's" not in res.stdout


# --------------------------------------------------------------------------- the buttons' chooser in the table loop


class FakeRunner:
    """A screen runner that keeps what it was asked to draw."""

    def __init__(self) -> None:
        self.shown: list = []

    def show(self, view, highlight=None) -> None:
        self.shown.append((view, highlight))

    def pump(self) -> bool:
        return True


class FakePanel:
    """A button panel whose presses the test queues (the chooser is the real one)."""

    def __init__(self) -> None:
        from hardware.chooser import Chooser

        self.chooser = Chooser()
        self.presses: list = []

    def poll(self) -> list:
        out = []
        for colour, action in self.presses:
            out += self.chooser.press(colour, action)
        self.presses = []
        return out


def test_the_table_loop_shows_the_highlight_and_sends_the_chosen_answer(tmp_path: Path) -> None:
    import queue
    import threading

    from referee.table.devices import Devices
    from referee.table.run import loop, output_sinks
    from referee.table.sdnotify import Notifier

    dev = Devices(buttons=FakePanel(), screen=FakeRunner())
    holder: list = []
    sinks = output_sinks(dev, lambda: holder[-1])
    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3, names=("Ann", "Bob")), sinks)
    holder.append(core)
    t = Table(core.referee)
    t.send = lambda *evs: [d for e in evs for d in core.handle(e)]  # type: ignore[method-assign]
    t.opening(3, 1)  # through the core: journaled, decided, shown
    t.move("8/5 6/5")
    t.lift()
    assert core.referee.state == "waiting_for_roll" and core.referee.turn == "light"
    events: "queue.Queue" = queue.Queue()

    def step(*presses: tuple[str, str]) -> None:
        dev.buttons.presses = list(presses)
        loop(core, events, dev, Notifier({}), threading.Event(), max_seconds=0)

    step(("light", "double"))
    assert core.referee.state == "double_offered"
    step(("dark", "next"), ("dark", "next"))
    view, lit = dev.screen.shown[-1]
    assert view.choices == ("Take", "Pass") and lit == 1  # redrawn with the highlight, no referee event
    step(("dark", "confirm"))
    assert core.referee.state == "game_over"
    inputs = [json.loads(x) for x in (tmp_path / "current.jsonl").read_text().splitlines()]
    assert [e["data"]["action"] for e in inputs if e["event"] == "input" and e["data"]["kind"] == "player"] \
        == ["double", "pass"]
    core.close()
