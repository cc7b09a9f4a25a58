"""Levels 2 and 3 in simavr: the real firmware image (dice_reader.elf, built with avr-gcc) runs on
a simulated 16 MHz ATmega328P, its UART bridged to a pseudo-terminal; firmware_bridge's link
connects to that pty and the harness drives the simulated sensor voltages through rolls, a
cocked die, a die outside the area, lifts, a sensor fault and a reset.

Every wait is on an event (a frame decoded, an event queued, the link's state changing under its
condition variable); the wall-clock bound WAIT only stops a hung test, it decides nothing."""
from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import serial

from firmware_bridge import messages as M
from firmware_bridge.codec import Decoder, Frame, encode_frame
from firmware_bridge.link import DiceLink
from hardware.firmware.tools import Build, SimavrReader, build
from referee.events import DiceLifted, ReaderFault, RollSettled, RollStarted

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
SPEED = 4.0  # simulated time runs this many times faster than wall-clock time
WAIT = 15.0  # generous wall-clock bound on any awaited event


@pytest.fixture(scope="module")
def fw(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build(tmp_path_factory.mktemp("fw-avr"), targets=("firmware", "sim"))


@pytest.fixture
def reader(fw: Build, tmp_path: Path) -> Iterator[SimavrReader]:
    with SimavrReader(fw, eeprom=tmp_path / "eeprom.bin", seed=7, speed=SPEED) as r:
        yield r


@pytest.fixture
def link(reader: SimavrReader) -> Iterator[DiceLink]:
    with DiceLink(reader.port) as dl:
        assert dl.wait_connected(WAIT), "no handshake with the simulated reader"
        yield dl


def next_event(link: DiceLink, kinds: tuple[type, ...] = (RollStarted, RollSettled, DiceLifted, ReaderFault)) -> Any:
    """The next event of one of ``kinds`` (link-loss faults are never expected here)."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            ev = link.events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no {' / '.join(k.__name__ for k in kinds)} within {WAIT} s") from None
        assert not (isinstance(ev, ReaderFault) and "link lost" in ev.message), ev
        if isinstance(ev, kinds):
            return ev


def throw(reader: SimavrReader, link: DiceLink, die0: str, die1: str) -> RollSettled:
    reader.command(f"tumble 200; die 0 {die0}; die 1 {die1}")  # one simulated instant
    started = next_event(link)
    assert isinstance(started, RollStarted)
    settled = next_event(link)
    assert isinstance(settled, RollSettled) and settled.roll_id == started.roll_id
    return settled


def pick_up(reader: SimavrReader, link: DiceLink) -> DiceLifted:
    reader.command("tumble 50; die 0 empty; die 1 empty")
    lifted = next_event(link)
    assert isinstance(lifted, DiceLifted)
    return lifted


def test_firmware_fits_the_atmega328p_with_headroom(fw: Build) -> None:
    flash, ram = fw.usage()
    print(fw.size_report)
    assert 0 < flash <= 0.6 * 32256, "less than 40 % of the application flash left"
    assert 0 < ram <= 1280, "less than 768 bytes of RAM left for the stack"
    lines = fw.hex.read_text().splitlines()
    assert lines[0].startswith(":") and lines[-1] == ":00000001FF"


def test_uart_divisor_gives_115200_baud_within_the_8n1_tolerance() -> None:
    """UBRR and U2X in main_avr.c against the Makefile's F_CPU: the baud error must stay within
    +-2.5 % (the classic 8N1 budget, shared with an exact USB bridge)."""
    src = (FIRMWARE / "src" / "main_avr.c").read_text()
    make = (FIRMWARE / "Makefile").read_text()
    ubrr = int(re.search(r"#define BAUD_UBRR (\d+)", src).group(1))  # type: ignore[union-attr]
    f_cpu = int(re.search(r"F_CPU\s*\?=\s*(\d+)", make).group(1))  # type: ignore[union-attr]
    divisor = 8 if "_BV(U2X0)" in src else 16
    baud = f_cpu / (divisor * (ubrr + 1))
    assert f_cpu == 16_000_000
    assert abs(baud / 115200 - 1) < 0.025, f"{baud:.0f} baud"


def read_until(port: serial.Serial, decoder: Decoder, got: list[Frame], done: Callable[[list[Frame]], bool]) -> None:
    """Read frames into ``got`` until ``done(got)``; each read blocks until bytes arrive."""
    port.timeout = WAIT  # a read returns as soon as a byte is there; WAIT only bounds a hang
    while not done(got):
        data = port.read(max(1, port.in_waiting))
        assert data, f"the simulated reader sent nothing for {WAIT} s; got {[f.message.NAME for f in got]}"
        got += decoder.feed(data)


def test_uart_and_clock_over_the_pty_with_raw_frames(fw: Build, tmp_path: Path) -> None:
    """Level 2 at real-time pace: HELLO -> INFO, SNAPSHOT; SET_LEDS is ACKed; the heartbeat's
    uptime follows simulated time (the 16 MHz clock and the 1 ms timer agree)."""
    with SimavrReader(fw, eeprom=tmp_path / "ee.bin", speed=1.0) as sim, \
            serial.Serial(sim.port, 115200, timeout=0.05) as port:
        decoder = Decoder()
        got: list[Frame] = []

        def kinds() -> list[type]:
            return [type(f.message) for f in got]

        def answered() -> bool:
            return any(isinstance(f.message, M.Info) and f.message.session_nonce for f in got)

        for _ in range(5):  # as the host does: HELLO again until it is answered
            beats = kinds().count(M.Heartbeat) + kinds().count(M.Info)
            port.write(b"\x00" + encode_frame(M.Hello(nonce=0xC0FFEE), 0))
            read_until(port, decoder, got, lambda g: answered() or
                       kinds().count(M.Heartbeat) + kinds().count(M.Info) > beats)
            if answered():
                break
        answer_at = next(i for i, f in enumerate(got) if isinstance(f.message, M.Info) and f.message.session_nonce)
        read_until(port, decoder, got, lambda g: M.Snapshot in kinds()[answer_at:])  # INFO, then SNAPSHOT
        port.write(encode_frame(M.SetLeds(on=M.LED_READY, blink=0), 1))
        read_until(port, decoder, got, lambda g: M.Ack in kinds() and kinds().count(M.Heartbeat) >= 3)
        messages = [f.message for f in got]
        info = next(m for m in messages if isinstance(m, M.Info) and m.session_nonce)
        assert info.proto_version == 2 and info.boot_id != 0 and info.max_dice == 2
        assert info.session_nonce == 0xC0FFEE
        assert M.Ack(1, M.SetLeds.TYPE) in messages
        beat = [m for m in messages if isinstance(m, M.Heartbeat)][-1]
        now = sim.time_ms()
        assert 2000 <= beat.uptime_ms <= now <= beat.uptime_ms + 1500
        assert decoder.stats.errors == 0
        # the sensors are scanned every 10 ms, each scan (32 conversions) well inside that
        stats = sim.stats()
        assert 0.09 <= stats["scans"] / stats["ms"] <= 0.101
        assert stats["adc"] >= 32 * stats["scans"]
        assert 3000 <= stats["scan_us"] <= 8000


def test_handshake_ping_and_snapshot_through_the_link(reader: SimavrReader, link: DiceLink) -> None:
    assert link.info is not None and link.info.proto_version == 2
    assert link.info.capabilities & M.CAP_COCKED
    assert link.ping() < WAIT
    snap = link.request_snapshot()
    assert (snap.state, snap.roll_id, snap.dice) == (M.STATE_IDLE, 0, ())
    link.set_leds({"ready"}, blink={"reroll"})
    assert link.request_snapshot().leds & M.LED_READY


def test_roll_cocked_outside_and_lifts_arrive_as_referee_events(reader: SimavrReader, link: DiceLink) -> None:
    assert link.info is not None
    source = link.info.source

    settled = throw(reader, link, "top 3", "top 5 1")
    assert settled.values == (3, 5) and settled.source == source
    assert all(d.flat and d.zone == "tray" and d.confidence > 0.8 for d in settled.dice)
    assert pick_up(reader, link).roll_id == settled.roll_id

    cocked = throw(reader, link, "cocked", "top 2")
    assert cocked.roll_id == settled.roll_id + 1
    assert [(d.value, d.flat) for d in cocked.dice] == [(None, False), (2, True)]
    pick_up(reader, link)

    outside = throw(reader, link, "top 6", "offarea")
    assert [(d.value, d.zone) for d in outside.dice] == [(6, "tray"), (None, "outside")]
    pick_up(reader, link)

    apron = throw(reader, link, "apron", "empty")
    assert [(d.value, d.zone) for d in apron.dice] == [(None, "outside")]


def test_a_failed_sensor_reaches_the_referee_as_a_reader_fault(reader: SimavrReader, link: DiceLink) -> None:
    reader.command("short 11")
    fault = next_event(link, (ReaderFault,))
    assert "sensor failed" in fault.message and "arg 11" in fault.message
    assert link.request_snapshot().faults == 1


def test_reset_gives_a_new_boot_id_and_its_roll_1_is_delivered(fw: Build, reader: SimavrReader,
                                                               link: DiceLink, tmp_path: Path) -> None:
    assert link.info is not None
    first = link.info.boot_id
    throw(reader, link, "top 1", "top 1")
    pick_up(reader, link)
    reader.command("reset")
    assert link.wait_for(lambda s: s.online and s.info is not None and s.info.boot_id != first, WAIT)
    assert link.info is not None and link.info.boot_id not in (0, first)
    settled = throw(reader, link, "top 4", "top 2")
    assert settled.roll_id == 1 and settled.source == link.info.source and settled.values == (4, 2)
    # the EEPROM boot counter survives the simulator itself: another run, another id
    second = link.info.boot_id
    reader.command("save")
    with SimavrReader(fw, eeprom=tmp_path / "eeprom.bin", seed=7, speed=SPEED) as again, \
            DiceLink(again.port) as other:
        assert other.wait_connected(WAIT) and other.info is not None
        assert other.info.boot_id not in (first, second)


def test_firmware_sim_command_prints_the_pty_and_applies_scene_commands(fw: Build, tmp_path: Path) -> None:
    code = "import sys; from referee.cli import main; sys.exit(main(['firmware-sim', *sys.argv[1:]]))"
    proc = subprocess.run([sys.executable, "-c", code, "--build-dir", str(fw.dir), "--eeprom", str(tmp_path / "e.bin")],
                          input="die 0 top 3\nnonsense 1\nquit\n", capture_output=True, text=True, timeout=60)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr
    assert lines[0].startswith("PTY /dev/") and lines[1].startswith("ok ")
    assert lines[2].startswith("error: ") and "nonsense 1" in lines[2]
    bad = subprocess.run([sys.executable, "-c", code, "--speed", "0"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--speed 0" in bad.stderr


def test_firmware_bridge_contract_suite_passes_against_the_simulated_firmware(fw: Build, tmp_path: Path) -> None:
    """firmware_bridge's backend contract (tests/firmware_bridge/test_dicelink_contract.py), run with
    BGTABLE_DICE_PORT naming the firmware's pty, as it would name a real reader."""
    contract = Path(__file__).resolve().parents[1] / "firmware_bridge" / "test_dicelink_contract.py"
    with SimavrReader(fw, eeprom=tmp_path / "ee.bin", speed=1.0, link=tmp_path / "dice") as sim:
        env = {**os.environ, "BGTABLE_DICE_PORT": sim.port}
        proc = subprocess.run([sys.executable, "-m", "pytest", str(contract), "-q", "-k", "device", "-p", "no:cacheprovider",
                               "-p", "no:randomly", "-n", "0"], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert " passed" in proc.stdout and "skipped" not in proc.stdout
