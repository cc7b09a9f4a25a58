"""The serial link's own logic (reconnection, back-off, re-handshake) on a fake clock and port.

:meth:`DiceLink.step` is driven directly: the clock is an object the test advances and the
port is an in-memory pipe to a :class:`ReaderCore`, so "back within 2 s of the replug" is
measured on the link's clock, never waited for.
"""
from __future__ import annotations

from typing import Any, Optional

import pytest
import serial

from referee.events import DiceLifted, ReaderFault, RollSettled, RollStarted

from firmware_bridge.errors import BadPortUrl
from firmware_bridge.link import DiceLink, check_url
from firmware_bridge.messages import Die
from firmware_bridge.reader import ReaderCore
from firmware_bridge.session import HostSession

STEP = 0.01


class Clock:
    """A clock the test advances."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Cable:
    """A reader at the end of a cable that can be pulled: ports opened on it are in-memory pipes."""

    def __init__(self, clock: Clock, boot_id: int = 0x42) -> None:
        self.clock = clock
        self.reader = ReaderCore(boot_id, clock())
        self.plugged = True
        self.port: Optional[MemPort] = None
        self.opens = 0

    def open(self, url: str) -> "MemPort":
        if not self.plugged:
            raise FileNotFoundError(2, f"could not open port {url}: No such file or directory")
        self.opens += 1
        self.port = MemPort(self)
        return self.port

    def reader_out(self, frames: list[bytes]) -> None:
        if self.plugged and self.port is not None and not self.port.closed:
            self.port.rx += b"".join(frames)

    def unplug(self) -> None:
        self.plugged = False


class MemPort:
    """What the link reads and writes: bytes from and to the cable's reader."""

    def __init__(self, cable: Cable) -> None:
        self.cable = cable
        self.rx = bytearray()
        self.closed = False

    @property
    def in_waiting(self) -> int:
        return len(self.rx)

    def read(self, size: int = 1) -> bytes:
        if not self.cable.plugged:
            raise serial.SerialException("device reports readiness to read but returned no data")
        self.cable.reader_out(self.cable.reader.tick(self.cable.clock()))
        data, self.rx[:] = bytes(self.rx[:size]), self.rx[size:]
        return data

    def write(self, data: bytes) -> int:
        if self.cable.plugged:
            self.cable.reader_out(self.cable.reader.feed(data, self.cable.clock()))
        return len(data)

    def close(self) -> None:
        self.closed = True

    def reset_input_buffer(self) -> None:
        self.rx.clear()


def run(link: DiceLink, clock: Clock, seconds: float) -> None:
    end = clock.t + seconds
    while clock.t < end:
        link.step()
        clock.t = round(clock.t + STEP, 6)


def events(link: DiceLink) -> list[Any]:
    out = []
    while not link.events.empty():
        out.append(link.events.get_nowait())
    return out


@pytest.fixture
def rig() -> tuple[DiceLink, Clock, Cable]:
    import random
    clock = Clock()
    cable = Cable(clock)
    link = DiceLink("/dev/fake-dice", clock=clock, opener=cable.open, session=HostSession(rng=random.Random(1)))
    run(link, clock, 0.2)
    assert link.connected
    return link, clock, cable


def test_the_link_is_back_within_2_s_of_the_replug_and_loses_nothing(rig: tuple[DiceLink, Clock, Cable]) -> None:
    link, clock, cable = rig
    cable.reader_out(cable.reader.start_roll(clock()))
    run(link, clock, 0.1)
    assert [type(e) for e in events(link)] == [RollStarted]
    cable.unplug()
    run(link, clock, 0.1)
    lost = events(link)
    assert len(lost) == 1 and isinstance(lost[0], ReaderFault) and lost[0].message.startswith("link lost")
    cable.reader.settle((Die(4), Die(2)), clock())  # while the cable is out: queued in the reader
    cable.reader.lift(clock())
    run(link, clock, 4.0)                          # the link backs off to one try a second
    replugged_at = clock()
    cable.plugged = True
    run(link, clock, 3.0)
    got = events(link)
    assert [type(e) for e in got] == [RollSettled, DiceLifted]
    assert got[0].values == (4, 2) and got[0].source == "00000042"
    assert got[0].t - replugged_at <= 2.0, f"back after {got[0].t - replugged_at:.2f} s"
    assert link.stats.losses == 1 and link.stats.connects == 2 and not cable.reader.fifo


def test_back_off_doubles_from_0_1_s_to_1_s(rig: tuple[DiceLink, Clock, Cable]) -> None:
    link, clock, cable = rig
    cable.unplug()
    tries: list[float] = []
    link.on_status = lambda text: tries.append(clock()) if text.startswith("cannot open") else None
    run(link, clock, 5.0)
    gaps = [round(b - a, 2) for a, b in zip(tries, tries[1:])]
    assert gaps[:4] == [0.1, 0.2, 0.4, 0.8] and set(gaps[4:]) == {1.0}


def test_a_silent_reader_is_handshaken_again_on_the_open_port(rig: tuple[DiceLink, Clock, Cable]) -> None:
    link, clock, cable = rig
    mute = cable.reader_out
    cable.reader_out = lambda frames: None  # type: ignore[method-assign]
    run(link, clock, 3.5)
    assert any(isinstance(e, ReaderFault) and "no frame from the reader for 3 s" in e.message for e in events(link))
    cable.reader_out = mute  # type: ignore[method-assign]
    run(link, clock, 0.5)
    assert link.connected and cable.opens == 1  # not reopened: reopening resets Arduino-type boards


def test_a_restarted_reader_with_the_same_boot_id_gets_a_new_source(rig: tuple[DiceLink, Clock, Cable]) -> None:
    link, clock, cable = rig
    cable.reader_out(cable.reader.start_roll(clock()) + cable.reader.settle((Die(1), Die(1)), clock()))
    run(link, clock, 0.2)
    cable.reader = ReaderCore(0x42, clock())  # a power cycle that reused the boot id
    run(link, clock, 1.5)
    cable.reader_out(cable.reader.start_roll(clock()) + cable.reader.settle((Die(6), Die(5)), clock()))
    run(link, clock, 0.5)
    settled = [(e.source, e.roll_id, e.values) for e in events(link) if isinstance(e, RollSettled)]
    assert settled == [("00000042", 1, (1, 1)), ("00000042~2", 1, (6, 5))]


@pytest.mark.parametrize("url, words", [
    ("", "empty"), ("usb:zz", "usb:VID:PID"), ("usb:2341", "usb:VID:PID"), ("nosuch://x", "'nosuch' not known"),
    ("socket://nohost", "socket://nohost"), ("/", "is a directory"),
])
def test_a_malformed_port_url_is_refused_at_once_naming_it(url: str, words: str) -> None:
    with pytest.raises(BadPortUrl, match=words):
        DiceLink(url)
    with pytest.raises(ValueError):
        check_url(url)


@pytest.mark.parametrize("url", ["/dev/ttyACM7", "loop://", "usb:2341:0043", "usb:2341:0043:A1", "socket://h:7"])
def test_a_well_formed_url_is_accepted_even_when_nothing_is_there_yet(url: str) -> None:
    check_url(url)
