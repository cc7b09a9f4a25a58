"""``bgtable dice-sim`` and ``bgtable dice``, and simulator scripts."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.events import from_json

from referee.cli import main as bgtable
from firmware_bridge.errors import ScriptError
from firmware_bridge.script import parse_script

ROOT = Path(__file__).resolve().parents[2]


def _start_sim(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "referee.cli", "dice-sim", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_dice_sim_script_and_dice_json(tmp_path: Path, capsys: Any) -> None:
    script = tmp_path / "s.jsonl"
    script.write_text("\n".join([
        "# a cocked die, then a good roll",
        json.dumps({"action": "roll", "values": [0, 4], "cocked": [True, False]}),
        json.dumps({"action": "lift"}),
        json.dumps({"action": "garbage", "bytes": 50}),
        json.dumps({"action": "roll", "values": [6, 1], "zone": "left", "on_checker": [False, True]}),
        json.dumps({"action": "wait_acked", "seconds": 20}),
        json.dumps({"action": "exit"}),
    ]) + "\n")
    proc = _start_sim("--script", str(script), "--seed", "4")
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert port.endswith("/tty")
        assert bgtable(["dice", "--port", port, "--json", "--count", "5", "--timeout", "20"]) == 0
        assert proc.wait(timeout=20) == 0
    finally:
        proc.kill()
    lines = capsys.readouterr().out.splitlines()
    events = [from_json(line) for line in lines]
    assert [e.kind for e in events] == ["roll_started", "roll_settled", "dice_lifted", "roll_started", "roll_settled"]
    assert events[1].values == (None, 4) and not events[1].dice[0].flat
    assert events[4].values == (6, 1) and events[4].dice[1].on_checker and events[4].dice[0].zone == "left"
    assert events[4].source == events[1].source and len(events[1].source) == 8


def test_dice_sim_runs_until_interrupted() -> None:
    proc = _start_sim("--seed", "1")
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert os.path.exists(port)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0  # a bound on a hang only (a loaded machine is slow to stop)
        assert not os.path.exists(port)
    finally:
        proc.kill()


def test_dice_sim_stops_on_ctrl_c_when_started_in_the_background() -> None:
    """A shell's "&" and nohup start a program with SIGINT ignored (and Python then keeps it
    ignored): the simulator still stops on Ctrl-C."""
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "dice-sim", "--seed", "2"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    try:
        assert proc.stdout is not None
        port = proc.stdout.readline().strip()
        assert os.path.exists(port)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0  # a bound on a hang only
        assert not os.path.exists(port)
    finally:
        proc.kill()


def test_dice_human_output(capsys: Any) -> None:
    from firmware_bridge.sim import SimulatedReader
    with SimulatedReader(seed=3) as sim:
        sim.roll([2, 0], cocked=[False, True])
        assert bgtable(["dice", "--port", sim.port_path, "--count", "2", "--timeout", "20"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "roll 1 started" in out[0]
    assert f"roll 1 settled [{sim.source}]: 2 (right" in out[1] and "? COCKED" in out[1]


def test_dice_reports_a_port_with_no_reader(tmp_path: Path, capsys: Any) -> None:
    assert bgtable(["dice", "--port", str(tmp_path / "nothing"), "--timeout", "0.5"]) == 1
    assert "no dice reader answered on" in capsys.readouterr().err


def test_bad_arguments_exit_2(tmp_path: Path, capsys: Any) -> None:
    assert bgtable(["dice"]) == 2
    assert bgtable(["dice", "--port", "loop://", "--count", "0"]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"action": "roll", "values": [7, 1]}\n')
    assert bgtable(["dice-sim", "--script", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("bgtable dice-sim: error:") and "line 1" in err[-1]
    assert bgtable(["dice-sim", "--script", str(tmp_path / "missing.jsonl")]) == 2


@pytest.mark.parametrize("line, message", [
    ("not json", "not JSON"),
    ('{"action": "dance"}', "needs \"action\""),
    ('{"action": "lift", "speed": 3}', "unknown key(s) speed"),
    ('{"action": "roll", "values": [1, 2, 3]}', "1 or 2 dice"),
])
def test_script_errors_quote_the_line(line: str, message: str) -> None:
    with pytest.raises(ScriptError) as exc:
        parse_script(["", "# comment", line])
    assert "line 3" in str(exc.value) and message in str(exc.value)


def test_script_parses_every_action() -> None:
    lines = [json.dumps({"action": a}) for a in
             ("start_roll", "lift", "unplug", "replug", "reboot", "drop", "corrupt", "drop_incoming", "exit")]
    lines.append(json.dumps({"action": "settle", "values": [3, None]}))
    assert [a.name for a in parse_script(lines)][-1] == "settle"


@pytest.mark.parametrize("url, words", [
    ("usb:zz", "usb:VID:PID"), ("nosuch://x", "'nosuch' not known"), ("", "empty"), ("/", "is a directory"),
    ("socket://nohost", "socket://nohost"),
])
def test_dice_refuses_a_malformed_port_url_at_once(url: str, words: str, capsys: Any) -> None:
    # no --timeout: a URL that retried would hang this test rather than fail it
    assert bgtable(["dice", "--port", url]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("bgtable dice: error: --port") and words in err[0]


def test_dice_refuses_a_timeout_that_is_not_positive(capsys: Any) -> None:
    assert bgtable(["dice", "--port", "loop://", "--timeout", "-1"]) == 2
    assert "--timeout -1" in capsys.readouterr().err


def test_dice_sim_link_dir_that_cannot_hold_the_symlink(tmp_path: Path, capsys: Any) -> None:
    missing = tmp_path / "nope"
    afile = tmp_path / "f"
    afile.write_text("x")
    for value, words in ((missing, "does not exist; create it"), (afile, "is not a directory")):
        assert bgtable(["dice-sim", "--link-dir", str(value)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and str(value) in err[0] and words in err[0]
    assert not missing.exists()


def test_firmware_sim_build_dir_and_eeprom_that_cannot_be_written(tmp_path: Path, capsys: Any) -> None:
    afile = tmp_path / "f"
    afile.write_text("x")
    cases = [(["--build-dir", str(afile)], "is a file"),
             (["--build-dir", str(afile / "sub")], "cannot be written (Not a directory)"),
             (["--build-dir", "/proc/bgtable"], "cannot be written"),
             (["--build-dir", str(tmp_path / "b"), "--eeprom", str(tmp_path / "no" / "e.bin")], "--eeprom"),
             (["--build-dir", str(tmp_path / "b"), "--eeprom", str(tmp_path)], "Is a directory")]
    for argv, words in cases:
        assert bgtable(["firmware-sim", *argv]) == 2, argv
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("bgtable firmware-sim: error:") and words in err[0], err
    assert not (tmp_path / "no").exists() and list((tmp_path / "b").iterdir()) == []
