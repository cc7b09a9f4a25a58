"""The link and the simulated reader through a real pseudo-terminal.

Unplug/replug mid-roll, reboots, garbage, lost and corrupted frames, a slow line:
every roll arrives exactly once.  Waits are on events (the queue, the simulator's
"all ACKed" condition, status lines) with generous timeouts that only bound a hang;
nothing is decided by how long something took.  Timing requirements ("back within
2 s of the replug") are checked on a fake clock in test_dicelink_link.py.
"""
from __future__ import annotations

import queue
import threading
from typing import Any, Iterator

import pytest
import serial

from referee.events import DiceLifted, ReaderFault, RollSettled, RollStarted

from firmware_bridge.errors import CommandTimeout, PortNotFound
from firmware_bridge.link import DiceLink, open_serial, resolve_port
from firmware_bridge.sim import SimulatedReader

WAIT = 5.0


@pytest.fixture
def sim() -> Iterator[SimulatedReader]:
    s = SimulatedReader(seed=11).start()
    yield s
    s.stop()


@pytest.fixture
def link(sim: SimulatedReader) -> Iterator[DiceLink]:
    lk = DiceLink(sim.port_path).start()
    assert lk.wait_connected(WAIT)
    yield lk
    lk.stop()


def take(q: "queue.Queue[Any]", kind: type, timeout: float = WAIT) -> Any:
    """The next event of ``kind`` (others are kept in the returned order in ``take.skipped``)."""
    while True:
        ev = q.get(timeout=timeout)
        if isinstance(ev, kind):
            return ev
        take.skipped.append(ev)  # type: ignore[attr-defined]


take.skipped = []  # type: ignore[attr-defined]


def drain(sim: SimulatedReader, q: "queue.Queue[Any]") -> list[Any]:
    """Every event still to come: once the reader has all its ACKs, the link has queued them all
    (it queues a frame's events before it sends the ACK), so the queue is read without waiting."""
    assert sim.wait_idle(WAIT)
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def settled_keys(events: list[Any]) -> list[tuple[str, int, tuple]]:
    return [(e.source, e.roll_id, e.values) for e in events if isinstance(e, RollSettled)]


def test_roll_and_lift_arrive_as_referee_events(sim: SimulatedReader, link: DiceLink) -> None:
    rid = sim.roll([3, 0], cocked=[False, True], zone=["right", "outside"], on_checker=[True, False])
    started = take(link.events, RollStarted)
    settled = take(link.events, RollSettled)
    sim.lift()
    lifted = take(link.events, DiceLifted)
    assert started.roll_id == settled.roll_id == lifted.roll_id == rid == 1
    assert settled.source == sim.source and settled.values == (3, None)
    d0, d1 = settled.dice
    assert d0.flat and d0.on_checker and d0.zone == "right"
    assert not d1.flat and d1.zone == "outside" and d1.confidence < 0.5
    assert settled.t > 0


def test_unplug_and_replug_mid_roll_loses_nothing(sim: SimulatedReader, link: DiceLink) -> None:
    sim.start_roll()
    assert take(link.events, RollStarted).roll_id == 1
    sim.unplug()
    fault = take(link.events, ReaderFault)
    assert fault.message.startswith("link lost")
    sim.settle([4, 2])          # happens while the cable is out
    sim.lift()
    sim.replug()
    settled = take(link.events, RollSettled)
    assert (settled.roll_id, settled.values, settled.source) == (1, (4, 2), sim.source)
    assert take(link.events, DiceLifted).roll_id == 1
    assert drain(sim, link.events) == []
    assert link.stats.losses == 1 and link.stats.connects == 2


def test_repeated_outages_deliver_every_roll_once(sim: SimulatedReader, link: DiceLink) -> None:
    expected = []
    for i in range(6):
        vals = [(i % 6) + 1, ((i * 5) % 6) + 1]
        if i % 2:
            sim.unplug()
        sim.roll(vals)
        sim.lift()
        expected.append((sim.source, i + 1, tuple(vals)))
        if i % 2:
            sim.inject_garbage(40)
            sim.replug()
            assert sim.wait_idle(WAIT)  # rolls are seconds apart at a table: let the FIFO drain
    got: list[RollSettled] = []
    while len(got) < len(expected):
        got.append(take(link.events, RollSettled))
    assert settled_keys(got) == expected
    assert settled_keys(drain(sim, link.events)) == []


def test_reboot_gives_a_new_source_and_no_duplicate(sim: SimulatedReader, link: DiceLink) -> None:
    sim.roll([1, 2])
    first = take(link.events, RollSettled)
    old = sim.source
    sim.reboot()
    assert sim.source != old
    sim.roll([6, 6])
    second = take(link.events, RollSettled)
    assert (first.source, first.roll_id) == (old, 1)
    assert (second.source, second.roll_id, second.values) == (sim.source, 1, (6, 6))
    assert settled_keys(drain(sim, link.events)) == []
    assert link.stats.unsolicited_info >= 1


def test_reboot_while_unplugged(sim: SimulatedReader, link: DiceLink) -> None:
    sim.unplug()
    take(link.events, ReaderFault)
    sim.reboot()
    sim.replug()
    sim.roll([2, 2])
    settled = take(link.events, RollSettled)
    assert settled.source == sim.source and settled.roll_id == 1


def test_garbage_drops_and_corruption_are_survived(sim: SimulatedReader, link: DiceLink) -> None:
    sim.inject_garbage(300)
    sim.corrupt_next(2)
    sim.drop_next(1)
    sim.roll([5, 3])
    sim.inject_garbage(b"\x00\x01\x02\xff" * 20)
    sim.lift()
    settled = take(link.events, RollSettled)
    assert settled.values == (5, 3)
    take(link.events, DiceLifted)
    assert settled_keys(drain(sim, link.events)) == []
    assert link.session.decoder.stats.errors >= 2


def test_lost_acks_are_retransmitted_not_duplicated(sim: SimulatedReader, link: DiceLink) -> None:
    sim.drop_incoming(3)   # the reader misses the host's next ACKs
    sim.roll([4, 4])
    take(link.events, RollSettled)
    assert sim.wait_idle(WAIT)
    assert settled_keys(drain(sim, link.events)) == []
    assert link.stats.duplicates >= 1


def test_slow_link_and_random_loss(sim: SimulatedReader, link: DiceLink) -> None:
    sim.set_rate(1500)
    sim.set_loss(drop_rate=0.15, corrupt_rate=0.1)
    expected = []
    for i in range(5):
        sim.roll([i + 1, 6 - i])
        sim.lift()
        expected.append((sim.source, i + 1, (i + 1, 6 - i)))
    got = [take(link.events, RollSettled, timeout=10.0) for _ in expected]
    sim.set_loss(0.0, 0.0)
    assert settled_keys(got) == expected


def test_commands_reach_the_reader(sim: SimulatedReader, link: DiceLink) -> None:
    link.set_leds({"reroll"}, blink={"reroll"})
    assert sim.leds == 1 and sim.core.blink == 1
    link.set_zone("tray", -10, -10, 10, 10)
    assert sim.core.zones[3] == (-10, -10, 10, 10)
    sim.roll([2, 3], zone=None, positions=[(0, 0), (100, 0)])
    settled = take(link.events, RollSettled)
    assert [d.zone for d in settled.dice] == ["tray", "right"]
    snap = link.request_snapshot()
    assert snap.roll_id == 1 and snap.state == 2 and snap.leds == 1
    assert link.ping() >= 0.0


def test_commands_time_out_naming_the_command(sim: SimulatedReader, link: DiceLink) -> None:
    sim.drop_incoming(1000)
    with pytest.raises(CommandTimeout, match="SET_LEDS"):
        link.set_leds(2, timeout=0.5)
    with pytest.raises(TimeoutError, match="REQUEST_SNAPSHOT"):
        link.request_snapshot(timeout=0.5)
    with pytest.raises(CommandTimeout, match="PING"):
        link.ping(timeout=0.5)


def test_port_is_opened_exclusively(sim: SimulatedReader, link: DiceLink) -> None:
    with pytest.raises(serial.SerialException):
        open_serial(sim.port_path)


def test_usb_urls_that_match_nothing_name_the_ids() -> None:
    with pytest.raises(PortNotFound, match="0000:0001"):
        resolve_port("usb:0000:0001")
    with pytest.raises(PortNotFound, match="usb:VID:PID"):
        resolve_port("usb:zz")
    assert resolve_port("loop://") == "loop://"


def test_link_keeps_trying_a_missing_port_and_connects_when_it_appears(tmp_path: Any) -> None:
    failures: list[str] = []
    tried_twice = threading.Event()

    def status(text: str) -> None:
        if text.startswith("cannot open"):
            failures.append(text)
            if len(failures) >= 2:
                tried_twice.set()

    lk = DiceLink(str(tmp_path / "tty"), on_status=status).start()
    try:
        assert tried_twice.wait(WAIT) and not lk.connected
        with SimulatedReader(seed=2, link_dir=str(tmp_path)) as s:
            assert lk.wait_connected(WAIT)
            s.roll([1, 6])
            assert take(lk.events, RollSettled).values == (1, 6)
    finally:
        lk.stop()


def test_a_silent_reader_is_reported_and_recovered_on_the_open_port(sim: SimulatedReader, link: DiceLink) -> None:
    pty_before = sim.pty_path
    sim.set_loss(drop_rate=1.0)          # the reader's frames all vanish: silence, no I/O error
    fault = take(link.events, ReaderFault, timeout=10.0)
    assert "no frame from the reader for 3 s" in fault.message
    sim.roll([5, 5])
    sim.set_loss(0.0)
    settled = take(link.events, RollSettled, timeout=10.0)
    assert settled.values == (5, 5) and sim.pty_path == pty_before
    assert link.stats.losses == 1 and link.stats.connects == 2


class _FakePortInfo:
    def __init__(self, device: str, vid: int, pid: int, serial_number: str) -> None:
        self.device, self.vid, self.pid, self.serial_number = device, vid, pid, serial_number


def test_usb_urls_find_the_port_by_vid_pid_and_serial(monkeypatch: pytest.MonkeyPatch) -> None:
    ports = [_FakePortInfo("/dev/ttyACM0", 0x2341, 0x0043, "A1"), _FakePortInfo("/dev/ttyACM1", 0x2341, 0x0043, "B2"),
             _FakePortInfo("/dev/ttyUSB0", 0x0403, 0x6001, "FT1")]
    monkeypatch.setattr("firmware_bridge.link.list_ports.comports", lambda: ports)
    assert resolve_port("usb:0403:6001") == "/dev/ttyUSB0"
    assert resolve_port("usb:2341:0043:B2") == "/dev/ttyACM1"
    with pytest.raises(PortNotFound, match="2 USB serial ports match 2341:0043"):
        resolve_port("usb:2341:0043")
    with pytest.raises(PortNotFound, match="2341:0043 serial C3"):
        resolve_port("usb:2341:0043:C3")
