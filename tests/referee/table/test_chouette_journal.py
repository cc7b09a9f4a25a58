"""A chouette journal says it is a chouette (issue 15): the match line records the players in
rotation, the box's colour and the rotation; a config whose chouette differs (other players,
heads-up against a chouette journal, or the reverse) is reported, never silently ignored; resume
replays the journal's chouette, and ``--new-match`` starts the config's.  A journal written before
the match line kept the chouette resumes as the chouette it was when its play or its players tell
it, and is never resumed as heads-up when they do not."""
from __future__ import annotations

import json
from dataclasses import replace
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from referee.records.journal import JournalError
from referee.settings import Settings
from referee.table.config import ChouetteConfig, loads
from referee.table.devices import settings_from
from referee.table.matches import (HeaderJournal, JournalMatch, Told, chouette_of, differences, journal_match,
                                   resumed_settings, told_chouette)
from referee.table.process import TableCore
from referee.table.streams import Table, opening_throw
from referee.turn.referee import Referee
from tests.referee.table.test_chouette_config import CHOUETTE, _first_game
from vision.layout import start_position
from vision.render import render

ABC = ChouetteConfig(("Ann", "Bob", "Cid"))
HEADS_UP = '[players]\ndark = "Ann"\nlight = "Bob"\n'


def _settings(text: str) -> Settings:
    return settings_from(loads(text), dice_reader=True)


def _first(path: Path) -> dict:
    return json.loads(path.read_text().splitlines()[0])


def _open(path: Path, settings: Settings) -> TableCore:
    """The core as ``bgtable run`` opens it: a header journal carrying the settings' chouette."""
    return TableCore.open(path, settings, journal_factory=lambda p: HeaderJournal(p, (), chouette_of(settings)))


# --------------------------------------------------------------------------- the match line


def test_a_chouettes_match_line_records_the_chouette(tmp_path: Path) -> None:
    settings = _settings(CHOUETTE + 'box_colour = "light"\nrotation = "box_rotates"\n')
    path = tmp_path / "current.jsonl"
    _open(path, settings).close()
    line = _first(path)
    assert line["event"] == "match" and line["players"] == ["Bob", "Ann"]
    assert line["chouette"] == {"players": ["Ann", "Bob", "Cid"], "box_colour": "light", "rotation": "box_rotates"}
    found = journal_match(path)
    assert found is not None and found.chouette == ChouetteConfig(("Ann", "Bob", "Cid"), "light", "box_rotates")
    assert found.players == ("Bob", "Ann") and found.match_length == 0


def test_a_heads_up_match_line_has_no_chouette(tmp_path: Path) -> None:
    path = tmp_path / "current.jsonl"
    _open(path, _settings(HEADS_UP)).close()
    assert "chouette" not in _first(path)
    found = journal_match(path)
    assert found is not None and not found.chouette.on and found.players == ("Ann", "Bob")


def test_an_old_journal_without_the_key_reads_as_heads_up(tmp_path: Path) -> None:
    path = tmp_path / "current.jsonl"
    TableCore.open(path, _settings(HEADS_UP)).close()  # a plain journal, as written before the key
    found = journal_match(path)
    assert found is not None and found.chouette == ChouetteConfig()
    assert differences(loads(HEADS_UP), _settings(HEADS_UP), found) == []


def test_a_malformed_chouette_in_the_journal_is_named(tmp_path: Path) -> None:
    path = tmp_path / "current.jsonl"
    _open(path, _settings(CHOUETTE)).close()
    lines = path.read_text().splitlines()
    from referee.records.lines import encode_line  # noqa: PLC0415
    line = {k: v for k, v in json.loads(lines[0]).items() if k != "crc"}
    line["chouette"] = "Ann,Bob,Cid"
    path.write_bytes(encode_line(line) + "".join(x + "\n" for x in lines[1:]).encode())
    with pytest.raises(JournalError, match=r"chouette = 'Ann,Bob,Cid'.*--new-match"):
        journal_match(path)


# --------------------------------------------------------------------------- the journal against the config


def test_a_heads_up_config_against_a_chouette_journal_is_reported() -> None:
    found = JournalMatch(("Ann", "Bob"), 0, (), 5, ABC)
    told = differences(loads(HEADS_UP), _settings(HEADS_UP), found)
    assert told == ["a chouette of Ann, Bob, Cid in the journal, a heads-up match Ann - Bob in the config"]


def test_a_chouette_config_against_a_heads_up_journal_is_reported() -> None:
    found = JournalMatch(("Ann", "Bob"), 3, (), 5)
    told = differences(loads(CHOUETTE), _settings(CHOUETTE), found)
    assert told == ["a heads-up match Ann - Bob in the journal, a chouette of Ann, Bob, Cid in the config",
                    "a 3-point match in the journal, money play in the config"]


@pytest.mark.parametrize("text, told", [
    (CHOUETTE.replace("Cid", "Dee"), "chouette players Ann, Bob, Cid in the journal, Ann, Bob, Dee in the config"),
    ('[chouette]\nplayers = ["Bob", "Ann", "Cid"]\n',
     "chouette players Ann, Bob, Cid in the journal, Bob, Ann, Cid in the config"),
    (CHOUETTE + 'box_colour = "light"\n', "the box plays dark in the journal, light in the config"),
    (CHOUETTE + 'rotation = "box_rotates"\n',
     "chouette rotation 'standard' in the journal, 'box_rotates' in the config"),
])
def test_another_chouette_in_the_config_is_reported(text: str, told: str) -> None:
    found = JournalMatch(("Ann", "Bob"), 0, (), 5, ABC)
    assert differences(loads(text), _settings(text), found) == [told]


def test_the_same_chouette_is_no_difference() -> None:
    found = JournalMatch(("Ann", "Bob"), 0, (), 5, ABC)
    assert differences(loads(CHOUETTE), _settings(CHOUETTE), found) == []


def test_resume_takes_the_journals_chouette_or_heads_up() -> None:
    s = resumed_settings(_settings(HEADS_UP), JournalMatch(("Cid", "Ann"), 0, (), 5,
                                                           ChouetteConfig(("Ann", "Bob", "Cid"), "light", "box_rotates")))
    assert (s.chouette, s.box_colour, s.chouette_rotation, s.names, s.match_to) == \
        (("Ann", "Bob", "Cid"), "light", "box_rotates", ("Cid", "Ann"), 0)
    s = resumed_settings(_settings(CHOUETTE), JournalMatch(("Ann", "Dee"), 0, (), 5))
    assert (s.chouette, s.names) == ((), ("Ann", "Dee"))
    assert Referee(s).chouette is None


def test_a_chouette_journal_resumed_under_a_heads_up_config_replays_the_chouette(tmp_path: Path) -> None:
    settings = _settings(CHOUETTE)
    inputs = _first_game(Referee(settings))
    path = tmp_path / "current.jsonl"
    core = _open(path, settings)
    try:
        for e in inputs:
            core.handle(e)
        ch = core.referee.chouette
        before = (ch.box, tuple(ch.team), dict(ch.scores))
    finally:
        core.close()
    found = journal_match(path)
    assert found is not None
    heads_up = _settings(HEADS_UP)
    assert differences(loads(HEADS_UP), heads_up, found) != []
    again = _open(path, resumed_settings(heads_up, found))
    try:
        ch = again.referee.chouette
        assert ch is not None and again.events == len(inputs)
        assert (ch.box, tuple(ch.team), dict(ch.scores)) == before
    finally:
        again.close()
    assert _first(path)["chouette"]["players"] == ["Ann", "Bob", "Cid"]  # the match line is unchanged


# --------------------------------------------------------------------------- bgtable run, end to end


def _config(tmp_path: Path, frames: Path, table: str) -> Path:
    p = tmp_path / "table.toml"
    p.write_text(f'[camera]\nsource = "replay"\npath = "{frames}"\n[dice]\nport = "/nonexistent/tty"\n'
                 f'{table}[journal]\ndirectory = "{tmp_path / "journal"}"\n')
    return p


def _run(cfg: Path, *extra: str) -> subprocess.CompletedProcess:
    res = subprocess.run([sys.executable, "-m", "referee.cli", "run", "--headless", "--config", str(cfg),
                          "--max-seconds", "1", *extra], capture_output=True, text=True, timeout=90)
    assert res.returncode == 0, res.stdout + res.stderr
    return res


def test_run_reports_a_heads_up_config_against_a_chouette_journal(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render(start_position(), seed=3))
    current = tmp_path / "journal" / "current.jsonl"
    _run(_config(tmp_path, frames, CHOUETTE))
    assert _first(current)["chouette"] == {"players": ["Ann", "Bob", "Cid"], "box_colour": "dark",
                                           "rotation": "standard"}
    core = TableCore.open(current, _settings(CHOUETTE))  # the chouette is under way
    core.handle(opening_throw(3, 1))
    core.close()

    res = _run(_config(tmp_path, frames, HEADS_UP))  # heads-up in the config: said, and the chouette goes on
    assert "a chouette of Ann, Bob, Cid in the journal, a heads-up match Ann - Bob in the config" in res.stdout
    assert "--new-match" in res.stdout and "resumed the match" in res.stdout
    assert "chouette" in _first(current)
    assert (tmp_path / "journal" / "current-scoresheet.json").exists()  # exported as the chouette it is

    res = _run(_config(tmp_path, frames, HEADS_UP), "--new-match")  # the config's heads-up match starts
    line = _first(current)
    assert line["players"] == ["Ann", "Bob"] and "chouette" not in line
    assert "started a new match" in res.stdout and "not the config's" not in res.stdout


# ------------------------------------------------------------------- journals written before the chouette was kept

OLD = Path(__file__).parent / "data" / "old_chouette_journal.jsonl"  # see data/README.md
OLD_CLUB = CHOUETTE + '[match]\nevent = "Club night"\n'  # the config the old journal was written with


def _old(tmp_path: Path) -> Path:
    path = tmp_path / "current.jsonl"
    path.write_bytes(OLD.read_bytes())
    return path


def test_the_old_fixture_is_an_old_chouette_journal() -> None:
    first = _first(OLD)
    assert "chouette" not in first and first["players"] == ["Ann", "Bob"] and "landing" not in first["rules"]
    members = [json.loads(x)["data"] for x in OLD.read_text().splitlines() if '"choice":1' in x]
    assert members and all(d["player"] == "light" for d in members)  # a team member doubles, passes: a chouette


def test_an_old_chouette_journal_resumes_as_the_configs_chouette(tmp_path: Path) -> None:
    path = _old(tmp_path)
    found = journal_match(path)
    assert found is not None and found.keyless and found.chouette == ChouetteConfig()
    settings = _settings(OLD_CLUB)
    told = told_chouette(found, settings)
    assert told.chouette == ABC and not told.problem and "its play replays as the config's chouette" in told.note
    assert differences(loads(OLD_CLUB), settings, found) == []
    lines = path.read_text()
    core = _open(path, resumed_settings(settings, found))
    try:
        ch = core.referee.chouette
        assert ch is not None and (ch.box, ch.team) == ("Bob", ["Cid", "Ann"])
        assert ch.scores == {"Ann": -4, "Bob": 3, "Cid": 1}
        assert (ch.cubes["Cid"].value, ch.cubes["Cid"].playing, ch.cubes["Ann"].playing) == (2, True, False)
        assert core.referee.state == "moving" and core.referee.t.dice == (3, 1)
    finally:
        core.close()
    assert path.read_text() == lines  # nothing owed: the replay made the record lines it holds


def test_an_old_chouette_journal_is_never_resumed_as_heads_up(tmp_path: Path) -> None:
    path = _old(tmp_path)
    found = journal_match(path)
    assert found is not None
    for text in (HEADS_UP, CHOUETTE.replace("Ann", "Dee")):  # heads-up, or another chouette
        told = differences(loads(text), _settings(text), found)
        assert "its play is a chouette's of 3 or more players (Ann the box, Bob the captain" in told[0]
        assert "[chouette]" in told[0]
        with pytest.raises(JournalError, match=r"it is not resumed\. To resume it, name its chouette in \[chouette\]"):
            resumed_settings(_settings(text), found)
    assert path.read_bytes() == OLD.read_bytes()


def _old_style(path: Path, settings: Settings, inputs: list) -> None:
    """A journal as the old code wrote it: the match line without the chouette."""
    core = TableCore.open(path, settings, journal_factory=lambda p: HeaderJournal(p, ()))
    try:
        for e in inputs:
            core.handle(e)
    finally:
        core.close()
    assert "chouette" not in _first(path)


def test_an_old_chouette_journal_with_no_cube_action_yet_is_told_by_its_players(tmp_path: Path) -> None:
    settings = _settings(CHOUETTE)
    t = Table(Referee(settings))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    path = tmp_path / "current.jsonl"
    _old_style(path, settings, list(t.ref.inputs))
    found = journal_match(path)
    assert found is not None
    told = told_chouette(found, settings)
    assert told.chouette == ABC and "its players are the box and captain of the config's chouette" in told.note
    assert resumed_settings(settings, found).chouette == ABC.players
    heads_up = _settings(HEADS_UP)  # nothing tells a chouette from heads-up: the config's heads-up match
    assert told_chouette(found, heads_up) == Told(ChouetteConfig())
    assert differences(loads(HEADS_UP), heads_up, found) == []


def _old_heads_up_with_a_take(tmp_path: Path, heads_up: Settings) -> JournalMatch:
    """An old-style heads-up journal: the opening, a move, a double and a take."""
    t = Table(Referee(heads_up))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.press("light", "double")
    t.press("dark", "take")
    path = tmp_path / "current.jsonl"
    _old_style(path, heads_up, list(t.ref.inputs))
    found = journal_match(path)
    assert found is not None
    return found


def test_an_old_heads_up_journal_with_cube_actions_stays_heads_up(tmp_path: Path) -> None:
    heads_up = _settings(HEADS_UP)
    found = _old_heads_up_with_a_take(tmp_path, heads_up)
    assert told_chouette(found, heads_up) == Told(ChouetteConfig())
    assert differences(loads(HEADS_UP), heads_up, found) == []
    chouette = _settings(CHOUETTE)  # the config's chouette has its players as box and captain, but not its play
    assert told_chouette(found, chouette) == Told(ChouetteConfig())
    assert differences(loads(CHOUETTE), chouette, found)[0].startswith("a heads-up match Ann - Bob in the journal")
    assert resumed_settings(chouette, found).chouette == ()


def test_an_old_journal_that_replays_as_nothing_is_resumed_as_heads_up_and_said(tmp_path: Path) -> None:
    heads_up = _settings(HEADS_UP)
    found = _old_heads_up_with_a_take(tmp_path, heads_up)
    odd = replace(found, lines=tuple(e for e in found.lines if e.get("action", {}).get("type") != "double"))
    told = told_chouette(odd, heads_up)  # its double is not in its record: no table's play makes it
    assert not told.chouette.on and not told.problem
    assert "replays neither as a heads-up match nor as a chouette" in told.note


def test_run_resumes_an_old_chouette_journal_as_the_chouette_or_says_why_not(tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render(start_position(), seed=3))
    (tmp_path / "journal").mkdir()
    current = tmp_path / "journal" / "current.jsonl"
    current.write_bytes(OLD.read_bytes())
    res = subprocess.run([sys.executable, "-m", "referee.cli", "run", "--headless", "--config",
                          str(_config(tmp_path, frames, HEADS_UP)), "--max-seconds", "1"],
                         capture_output=True, text=True, timeout=90)
    assert res.returncode == 2 and "its play is a chouette's" in res.stderr and "[chouette]" in res.stderr
    assert current.read_bytes() == OLD.read_bytes()  # not resumed, not touched
    res = _run(_config(tmp_path, frames, OLD_CLUB))
    assert "resumed as that chouette" in res.stdout + res.stderr and "resumed the match" in res.stdout
    assert "not the config's" not in res.stdout
    assert (tmp_path / "journal" / "current-scoresheet.json").exists()  # exported as the chouette it is
