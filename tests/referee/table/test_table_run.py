"""``bgtable run``: real-device wiring with the simulators standing in (pty dice reader,
replayed camera frames, no GPIO), degraded modes and the messages for missing devices."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import cv2
import pytest

from firmware_bridge.sim import SimulatedReader
from vision.layout import start_position
from vision.render import render

RUN = [sys.executable, "-m", "referee.cli", "run", "--headless"]


@pytest.fixture()
def frames(tmp_path):
    d = tmp_path / "frames"
    d.mkdir()
    cv2.imwrite(str(d / "0.png"), render(start_position(), seed=3))
    return d


def config(tmp_path: Path, camera: str, dice: str, rules: str = "") -> Path:
    p = tmp_path / "table.toml"
    p.write_text(f"""
[players]
dark = "Ann"
light = "Bob"
[camera]
{camera}
[dice]
port = "{dice}"
[rules]
match_to = 3
{rules}
[journal]
directory = "{tmp_path / 'journal'}"
""")
    return p


def test_missing_camera_names_the_device_and_how_to_list_cameras(tmp_path):
    cfg = config(tmp_path, 'source = "opencv"\ndevice = 9', "/nonexistent/tty")
    res = subprocess.run([*RUN, "--config", str(cfg), "--max-seconds", "1"], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 2
    last = res.stderr.strip().splitlines()[-1]
    assert "camera" in last and "device 9" in last and "v4l2-ctl --list-devices" in last


def test_bad_config_names_the_key(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[rules]\nearly_roll = "sometimes"\n')
    res = subprocess.run([*RUN, "--config", str(p)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "early_roll" in res.stderr and "sometimes" in res.stderr
    res = subprocess.run([*RUN, "--config", str(tmp_path / "none.toml")], capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "none.toml" in res.stderr and "cannot be read" in res.stderr


def test_without_the_dice_reader_the_table_runs_camera_only(tmp_path, frames):
    cfg = config(tmp_path, f'source = "replay"\npath = "{frames}"', "/nonexistent/tty")
    res = subprocess.run([*RUN, "--config", str(cfg), "--max-seconds", "2"], capture_output=True, text=True,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    assert "dice reader: port '/nonexistent/tty' does not exist" in res.stdout
    assert "inferred from the move" in res.stdout
    journal = tmp_path / "journal" / "current.jsonl"
    first = json.loads(journal.read_text().splitlines()[0])
    assert first["event"] == "match" and first["players"] == ["Ann", "Bob"]


def test_dice_from_the_simulated_reader_reach_the_referee_and_the_journal(tmp_path, frames):
    sim = SimulatedReader(seed=4).start()
    try:
        cfg = config(tmp_path, f'source = "replay"\npath = "{frames}"', sim.port_path)
        proc = subprocess.Popen([*RUN, "--config", str(cfg), "--max-seconds", "6"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        lines: list[str] = []
        started = threading.Event()
        decided = threading.Event()

        def pump() -> None:
            for line in proc.stdout:  # type: ignore[union-attr]
                lines.append(line)
                if "started a new match" in line:
                    started.set()
                if line.startswith("opening_won"):
                    decided.set()

        threading.Thread(target=pump, daemon=True).start()
        assert started.wait(20), "".join(lines)
        sim.roll([5, 3], zone=["right", "left"])
        assert decided.wait(10), "".join(lines)
        proc.wait(timeout=30)
        assert proc.returncode == 0, "".join(lines)
        text = "".join(lines)
        assert "Ann" in text and "5-3" in text
        events = [json.loads(l) for l in (tmp_path / "journal" / "current.jsonl").read_text().splitlines()]
        settled = [e for e in events if e["event"] == "input" and e["data"]["kind"] == "roll_settled"]
        assert [d["value"] for d in settled[0]["data"]["dice"]] == [5, 3]
        assert any(e["event"] == "action" and e["action"]["type"] == "roll" for e in events) or \
            any(e["event"] == "game" for e in events)
    finally:
        sim.stop()


@pytest.mark.parametrize("landing, first", [("tray", "opening_won"), ("board", "reroll")])
def test_a_tray_table_takes_the_reference_readers_tray_throws(tmp_path, frames, landing, first):
    """The reference dice reader reports zone "tray": a table configured ``landing = "tray"`` takes the
    throw; left on "board" (the default), the same throw is thrown again (issue 15)."""
    sim = SimulatedReader(seed=5).start()
    try:
        cfg = config(tmp_path, f'source = "replay"\npath = "{frames}"', sim.port_path, f'landing = "{landing}"')
        proc = subprocess.Popen([*RUN, "--config", str(cfg), "--max-seconds", "6"], stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        lines: list[str] = []
        started = threading.Event()
        decided = threading.Event()

        def pump() -> None:
            for line in proc.stdout:  # type: ignore[union-attr]
                lines.append(line)
                if "started a new match" in line:
                    started.set()
                if line.startswith(("opening_won", "reroll")):
                    decided.set()

        threading.Thread(target=pump, daemon=True).start()
        assert started.wait(20), "".join(lines)
        sim.roll([5, 3], zone="tray")
        assert decided.wait(10), "".join(lines)
        proc.wait(timeout=30)
        assert proc.returncode == 0, "".join(lines)
        decisions = [l for l in lines if l.startswith(("opening_won", "reroll"))]
        assert decisions[0].startswith(first), "".join(lines)
        events = [json.loads(l) for l in (tmp_path / "journal" / "current.jsonl").read_text().splitlines()]
        settled = [e for e in events if e["event"] == "input" and e["data"]["kind"] == "roll_settled"]
        assert [d["zone"] for d in settled[0]["data"]["dice"]] == ["tray", "tray"]
        # the journal keeps the landing rule, so replaying the dispute judges the throw alike
        match = next(e for e in events if e["event"] == "match")
        assert match["rules"].get("landing", "board") == landing
        out = subprocess.run([*RUN[:3], "referee", "--script", str(tmp_path / "journal" / "current.jsonl")],
                             capture_output=True, text=True, timeout=60)
        replayed = [l.split(": ", 1)[-1] for l in out.stdout.splitlines()
                    if l.split(": ", 1)[-1].startswith(("opening_won", "reroll"))]
        assert replayed and replayed[0].startswith(first), out.stdout + out.stderr
    finally:
        sim.stop()
