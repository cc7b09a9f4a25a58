"""A chouette from the table's TOML (``[chouette]``): validated with the key and the fix,
built by ``bgtable run``'s own settings wiring, and a chouette journal resumed as a chouette."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.table.config import EXAMPLE, ChouetteConfig, ConfigError, loads
from referee.table.devices import settings_from
from referee.table.process import TableCore
from referee.table.streams import Table
from referee.turn.referee import Referee

CHOUETTE = '[chouette]\nplayers = ["Ann", "Bob", "Cid"]\n'


def test_the_chouette_section_gives_the_referee_a_chouette() -> None:
    c = loads(CHOUETTE + 'box_colour = "light"\nrotation = "box_rotates"\n[rules]\nmatch_to = 0\njacoby = true\n')
    assert c.chouette == ChouetteConfig(("Ann", "Bob", "Cid"), "light", "box_rotates")
    s = settings_from(c, dice_reader=True)
    assert (s.chouette, s.box_colour, s.chouette_rotation, s.match_to, s.jacoby) == \
        (("Ann", "Bob", "Cid"), "light", "box_rotates", 0, True)
    assert s.names == ("Bob", "Ann")  # (dark, light): the box Ann plays light, the captain Bob dark
    ref = Referee(s)
    assert ref.chouette is not None and ref.chouette.box == "Ann" and ref.chouette.captain == "Bob"
    assert ref.view().names == ("Bob", "Ann")


def test_no_chouette_section_is_a_heads_up_table() -> None:
    c = loads('[players]\ndark = "Ann"\nlight = "Bob"\n')
    assert not c.chouette.on and c.rules.chouette == () and c.rules.names == ("Ann", "Bob") and c.notes == ()


@pytest.mark.parametrize("text, key, fix", [
    (CHOUETTE.replace(', "Cid"', ""), "chouette.players", "three or more players"),
    ('[chouette]\nplayers = "Ann,Bob,Cid"\n', "chouette.players", "must be a list of player names"),
    ('[chouette]\nplayers = ["Ann", "Bob", "Ann"]\n', "chouette.players", "Ann is named twice"),
    ('[chouette]\nplayers = ["Ann", "", "Cid"]\n', "chouette.players", "1..24 characters"),
    ('[chouette]\nbox_colour = "dark"\n', "chouette.players", "name the chouette's players"),
    (CHOUETTE + 'box_colour = "red"\n', "chouette.box_colour", "'dark', 'light'"),
    (CHOUETTE + 'rotation = "clockwise"\n', "chouette.rotation", "'standard', 'box_rotates'"),
    (CHOUETTE + 'rotate = "standard"\n', "chouette.rotate", "did you mean 'rotation'"),
    (CHOUETTE + "[rules]\nmatch_to = 7\n", "rules.match_to", "set rules.match_to = 0"),
    (CHOUETTE + "[rules]\nbeavers = true\n", "rules.beavers", "set rules.beavers = false"),
])
def test_a_bad_chouette_names_the_key_and_the_fix(text: str, key: str, fix: str) -> None:
    with pytest.raises(ConfigError) as exc:
        loads(text)
    assert str(exc.value).startswith(key + " = ") and fix in str(exc.value)


def test_names_in_players_too_are_said_to_be_unused() -> None:
    c = loads('[players]\ndark = "Zed"\nleft = "light"\n' + CHOUETTE)
    assert c.rules.names == ("Ann", "Bob") and c.players.left == "light"
    [note] = c.notes
    assert note.startswith("players.dark not used: at a chouette the names come from chouette.players")
    assert "remove players.dark" in note


def test_the_examples_chouette_block_loads_when_uncommented() -> None:
    text = EXAMPLE.read_text()
    assert "# [chouette]" in text
    for key in ("[chouette]", "players =", "box_colour =", "rotation ="):
        text = text.replace("# " + key, key, 1)
    c = loads(text.replace("match_to = 7", "match_to = 0"))
    assert c.rules.chouette == ("Ann", "Bob", "Cid", "Dan") and c.rules.box_colour == "dark"
    assert len(c.notes) == 1  # the example's [players] names Ann and Bob


def _first_game(ref: Referee) -> list:
    """A chouette's first game, ended on the cube: both members double the box, who passes each."""
    t = Table(ref)
    t.opening(3, 1)  # Ann (the box, dark) starts
    t.move("8/5 6/5")
    t.lift()
    t.press("light", "double", 0)  # Bob doubles the box...
    t.press("dark", "pass")        # ...who passes: Bob is paid and out; Cid captains
    t.press("light", "double", 1)
    t.press("dark", "pass")        # every member is out: the team won; Bob becomes the box
    return list(ref.inputs)


def test_a_chouette_journal_resumes_as_a_chouette(tmp_path: Path) -> None:
    settings = settings_from(loads(CHOUETTE), dice_reader=True)
    inputs = _first_game(Referee(settings))
    path = tmp_path / "current.jsonl"
    core = TableCore.open(path, settings)
    try:
        for e in inputs:
            core.handle(e)
        ch = core.referee.chouette
        before = (ch.box, tuple(ch.team), dict(ch.scores))
    finally:
        core.close()
    assert before == ("Bob", ("Cid", "Ann"), {"Ann": -2, "Bob": 1, "Cid": 1})
    again = TableCore.open(path, settings_from(loads(CHOUETTE), dice_reader=True))
    try:
        ch = again.referee.chouette
        assert ch is not None and again.events == len(inputs)
        assert (ch.box, tuple(ch.team), dict(ch.scores)) == before
        v = again.referee.view()
        assert v.names == ("Bob", "Cid") and v.chouette is not None and v.chouette.box == "Bob"
    finally:
        again.close()


def test_the_scores_on_the_screen_are_the_scoresheets(tmp_path: Path) -> None:
    from referee.table.process import scoresheet_from_journal  # noqa: PLC0415
    settings = settings_from(loads(CHOUETTE), dice_reader=True)
    inputs = _first_game(Referee(settings))
    core = TableCore.open(tmp_path / "current.jsonl", settings)
    try:
        for e in inputs:
            core.handle(e)
        shown = core.referee.view().chouette
    finally:
        core.close()
    sheet = scoresheet_from_journal(tmp_path / "current.jsonl", settings)
    assert shown is not None and shown.scores == sheet.games[-1].totals


def test_bgtable_run_builds_a_chouette_from_the_config(tmp_path: Path) -> None:
    import json  # noqa: PLC0415
    import subprocess  # noqa: PLC0415
    import sys  # noqa: PLC0415

    import cv2  # noqa: PLC0415

    from vision.layout import start_position  # noqa: PLC0415
    from vision.render import render  # noqa: PLC0415
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0.png"), render(start_position(), seed=3))
    cfg = tmp_path / "table.toml"
    cfg.write_text(f'[players]\ndark = "Zed"\n[camera]\nsource = "replay"\npath = "{frames}"\n'
                   f'[dice]\nport = "/nonexistent/tty"\n{CHOUETTE}box_colour = "light"\n'
                   f'[journal]\ndirectory = "{tmp_path / "journal"}"\n')
    res = subprocess.run([sys.executable, "-m", "referee.cli", "run", "--headless", "--config", str(cfg),
                          "--max-seconds", "1"], capture_output=True, text=True, timeout=90)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "players.dark not used: at a chouette the names come from chouette.players" in res.stdout
    journal = tmp_path / "journal"
    first = json.loads((journal / "current.jsonl").read_text().splitlines()[0])
    assert first["event"] == "match" and first["players"] == ["Bob", "Ann"] and first["match_length"] == 0
    sheet = json.loads((journal / "current-scoresheet.json").read_text())
    assert "Cid" in json.dumps(sheet)
