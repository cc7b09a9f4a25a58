"""``bgtable referee --script FILE``: decisions with line numbers, bad lines reported, exit codes."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.cli import main as bgtable
from referee.cli.referee import main
from referee.decisions import Decision

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_example_script_prints_each_decision(capsys) -> None:
    assert bgtable(["referee", "--script", str(SCRIPTS / "disputed_game.jsonl")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "5: opening_won [dark]: Ann 3, Bob 1: Ann starts and plays 3-1"
    assert "10: reroll [light]: Re-roll: the right die is cocked. Bob throws both dice again" in out
    assert any(line.startswith("15: illegal_move [light]: Illegal: 24/18 does not play all of 6-4") for line in out)
    assert any(line.startswith("22: early_roll [light]: Early roll: Bob threw before Ann lifted") for line in out)
    assert any(line.startswith("27: illegal_move [light]: Illegal: 18/13 moves 5 pips, but 2-1 gives 3") for line in out)
    assert "31: move_accepted [light]: Bob plays 2-1: 18/16 6/5" in out
    assert out[-1].startswith("36: wrong_turn [light]: Both dice are on Bob's side: if Bob threw, it is Ann's turn")


def test_json_output_round_trips(capsys) -> None:
    assert main(["--script", str(SCRIPTS / "disputed_game.jsonl"), "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    first = json.loads(lines[0])
    assert first["line"] == 5 and first["kind"] == "opening_won"
    d = Decision.from_json(lines[3])
    assert d.kind == "reroll" and d.get("cause") == "cocked"
    assert Decision.from_json(d.to_json()) == d


def test_bad_lines_are_reported_with_their_numbers(tmp_path, capsys) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text("\n".join([
        '{"kind":"roll_settled","dice":[{"value":3,"zone":"right"},{"value":1,"zone":"left"}]}',
        'not json at all',
        '{"kind":"roll_settled","dice":[{"value":9}]}',
        '{"kind":"teleport"}',
        '{"kind":"player","player":"dark","action":"double"}',
    ]) + "\n")
    assert main(["--script", str(script)]) == 1
    cap = capsys.readouterr()
    err = cap.err.splitlines()
    assert err[0].startswith("bgtable referee: line 2: not JSON")
    assert err[1].startswith("bgtable referee: line 3: die value 9 is not 1..6")
    assert err[2].startswith("bgtable referee: line 4: unknown event kind 'teleport'")
    assert cap.out.splitlines()[-1].startswith("5: refused [dark]: Dark cannot double after rolling")


def test_settings_line_and_set_option(tmp_path, capsys) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text('{"kind":"settings","match_to":3,"names":["Ann","Bob"]}\n'
                      '{"kind":"roll_settled","dice":[{"value":2,"zone":"right"},{"value":5,"zone":"left"}]}\n')
    assert main(["--script", str(script), "--view"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2: opening_won [light]: Ann 2, Bob 5: Bob starts and plays 5-2"
    view = json.loads(out[-1])
    assert view["match_length"] == 3 and view["turn"] == "light" and view["state"] == "moving"
    assert main(["--script", str(script), "--set", "early_roll=never"]) == 2
    assert "early_roll = 'never'" in capsys.readouterr().err


def test_unreadable_file_exits_2(tmp_path, capsys) -> None:
    assert main(["--script", str(tmp_path / "missing.jsonl")]) == 2
    assert "cannot read script" in capsys.readouterr().err


@pytest.mark.parametrize("script", sorted(SCRIPTS.glob("*.jsonl")), ids=lambda p: p.stem)
def test_example_scripts_give_the_expected_decisions(script: Path, capsys) -> None:
    """Each example script's decisions, as a director reads them, are kept beside it (.out)."""
    assert main(["--script", str(script)]) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert out.out == script.with_suffix(".out").read_text()
    assert "not_accepted" not in out.out
