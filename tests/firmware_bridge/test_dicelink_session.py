"""The protocol engines of both ends wired together in memory, with an injected clock.

No threads and no sleeps: a lossy in-memory wire carries the frames and the test
advances time, so ACK/retransmit, duplicates, resync and reboot detection are
checked exactly.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Optional

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.events import DiceLifted, ReaderFault, RollSettled, RollStarted

from firmware_bridge.codec import Decoder, decode_frame, encode_frame
from firmware_bridge.messages import (
    STATE_SETTLED, Ack, Die, Hello, Info, RequestSnapshot, RollSettledMsg, RollStartedMsg, SetLeds, Snapshot,
)
from firmware_bridge.reader import ReaderCore
from firmware_bridge.session import MAX_ROLL_JUMP, HostSession
from firmware_bridge.vectors import _raw_v1

DICE = (Die(3, "right", x=100, y=20), Die(5, "right", x=150, y=-40))


class Wire:
    """Both ends and a clock; ``up`` False loses everything; filters can drop frames."""

    def __init__(self, seed: int = 0, boot: int = 0x1234) -> None:
        self.now = 0.0
        self.reader = ReaderCore(boot, self.now)
        self.host = HostSession(rng=random.Random(seed))
        self.events: list[Any] = []
        self.up = True
        self.to_host_filter: Optional[Callable[[bytes], bool]] = None
        self.to_reader_filter: Optional[Callable[[bytes], bool]] = None
        self.rng = random.Random(seed)
        self.reopen()

    def reopen(self) -> None:
        self._to_reader(self.host.open(self.now))

    def _to_reader(self, data: bytes) -> None:
        if not self.up or not data:
            return
        for f in _frames(data):
            if self.to_reader_filter and not self.to_reader_filter(f):
                continue
            self._to_host(self.reader.feed(f, self.now))

    def _to_host(self, frames: list[bytes]) -> None:
        for f in frames:
            if not self.up or (self.to_host_filter and not self.to_host_filter(f)):
                continue
            out, ev = self.host.feed(f, self.now)
            self.events += ev
            self._to_reader(out)

    def reader_out(self, frames: list[bytes]) -> None:
        self._to_host(frames)

    def run(self, seconds: float, step: float = 0.05) -> None:
        end = self.now + seconds
        while self.now < end:
            self.now += step
            self._to_host(self.reader.tick(self.now))
            self._to_reader(self.host.tick(self.now))
            if self.host.lost_reason and self.host.phase != "closed":
                self.events += self.host.close(self.host.lost_reason)
            if self.host.phase == "closed" and self.up:
                self.reopen()

    def rolls(self) -> list[tuple[str, int, tuple]]:
        return [(e.source, e.roll_id, e.values) for e in self.events if isinstance(e, RollSettled)]


def _frames(data: bytes) -> list[bytes]:
    parts = data.split(b"\x00")
    return [p + b"\x00" for p in parts if p]


def test_handshake_then_a_roll_and_a_lift() -> None:
    w = Wire()
    assert w.host.online and w.host.info is not None and w.host.info.boot_id == 0x1234
    w.reader_out(w.reader.start_roll(w.now))
    w.reader_out(w.reader.settle(DICE, w.now))
    w.reader_out(w.reader.lift(w.now))
    assert [type(e) for e in w.events] == [RollStarted, RollSettled, DiceLifted]
    settled = w.events[1]
    assert settled.source == "00001234" and settled.values == (3, 5) and settled.roll_id == 1
    assert settled.dice[0].x == 100.0 and settled.dice[1].y == -40.0
    assert not w.reader.fifo


def test_reader_sends_no_event_before_hello() -> None:
    r = ReaderCore(7, 0.0)
    assert r.start_roll(0.0) == []
    sent = r.tick(0.3) + r.tick(1.5)
    assert [type(f.message) for f in Decoder().feed(b"".join(sent))] == [Info, Info]
    answer = Decoder().feed(b"".join(r.feed(encode_frame(Hello(), 0), 1.6)))
    assert [f.message.NAME for f in answer] == ["INFO", "SNAPSHOT", "ROLL_STARTED"]


def test_lost_acks_cause_retransmission_but_no_duplicate() -> None:
    w = Wire()
    acks_dropped = [0]

    def drop_first_acks(f: bytes) -> bool:
        fr = decode_frame(f[:-1])
        if fr is not None and fr.message.NAME == "ACK" and acks_dropped[0] < 3:
            acks_dropped[0] += 1
            return False
        return True

    w.to_reader_filter = drop_first_acks
    w.reader_out(w.reader.start_roll(w.now))
    w.reader_out(w.reader.settle(DICE, w.now))
    w.run(2.0)
    assert acks_dropped[0] == 3
    assert [type(e) for e in w.events] == [RollStarted, RollSettled]
    assert w.host.stats.duplicates == 3
    assert not w.reader.fifo


def test_events_queued_during_an_outage_arrive_in_order_after_it() -> None:
    w = Wire()
    w.up = False
    for v in ([1, 2], [3, 4], [5, 6]):
        w.reader_out(w.reader.start_roll(w.now))
        w.reader_out(w.reader.settle((Die(v[0]), Die(v[1])), w.now))
        w.reader_out(w.reader.lift(w.now))
    w.run(4.0)  # the host notices the silence
    assert w.host.phase in ("closed", "handshake")
    w.up = True
    w.run(5.0)
    assert w.host.online
    assert w.rolls() == [("00001234", 1, (1, 2)), ("00001234", 2, (3, 4)), ("00001234", 3, (5, 6))]
    assert [e.roll_id for e in w.events if isinstance(e, DiceLifted)] == [1, 2, 3]
    assert not w.reader.fifo


def test_snapshot_resync_when_reader_has_nothing_pending() -> None:
    # the reader's FIFO lost the events (depth 1 overflowed); the snapshot still shows the roll
    w = Wire()
    w.reader.fifo_depth = 1
    w.up = False
    w.reader_out(w.reader.start_roll(w.now))
    w.reader_out(w.reader.settle(DICE, w.now))
    w.reader.fifo.clear()
    w.reader.dropped = 0
    w.run(4.0)
    w.up = True
    w.run(1.0)
    assert w.rolls() == [("00001234", 1, (3, 5))]
    assert [type(e) for e in w.events if not isinstance(e, ReaderFault)] == [RollStarted, RollSettled]
    assert w.host.stats.resynced == 2


def test_snapshot_does_not_replay_what_was_delivered() -> None:
    w = Wire()
    w.reader_out(w.reader.start_roll(w.now))
    w.reader_out(w.reader.settle(DICE, w.now))
    w.host.close("test")
    w.reopen()
    w.run(1.0)
    assert len(w.rolls()) == 1 and w.host.stats.resynced == 0


def test_reboot_is_noticed_by_unsolicited_info_and_rolls_get_the_new_source() -> None:
    w = Wire()
    w.reader_out(w.reader.start_roll(w.now))
    w.reader_out(w.reader.settle(DICE, w.now))
    w.reader = ReaderCore(0xBEEF, w.now)  # power cycle without the host noticing a link loss
    w.reader_out(w.reader.start_roll(w.now))  # queued: no session yet
    w.reader_out(w.reader.settle((Die(6), Die(6)), w.now))
    w.run(2.0)
    assert w.host.stats.unsolicited_info >= 1
    assert w.rolls() == [("00001234", 1, (3, 5)), ("0000beef", 1, (6, 6))]


def test_reliable_command_is_retransmitted_until_acked() -> None:
    w = Wire()
    dropped = [0]

    def drop_two_set_leds(f: bytes) -> bool:
        fr = decode_frame(f[:-1])
        if fr is not None and isinstance(fr.message, SetLeds) and dropped[0] < 2:
            dropped[0] += 1
            return False
        return True

    w.to_reader_filter = drop_two_set_leds
    cmd, out = w.host.command(SetLeds(1, 0), w.now)
    w._to_reader(out)
    assert cmd is not None and not cmd.done
    w.run(1.0)
    assert cmd.done and w.reader.leds == 1 and dropped[0] == 2


def test_silence_and_handshake_timeouts_name_the_cause() -> None:
    w = Wire()
    w.up = False
    w.run(3.2)
    assert any(isinstance(e, ReaderFault) and "no frame from the reader for 3 s" in e.message for e in w.events)
    h = HostSession()
    h.open(0.0)
    h.tick(2.5)
    assert h.lost_reason == "no INFO within 2 s of HELLO"


def test_events_before_info_are_not_acked() -> None:
    h = HostSession()
    h.open(0.0)
    out, ev = h.feed(encode_frame(RollSettledMsg(1, DICE), 3), 0.1)
    assert out == b"" and ev == []


def test_random_loss_never_loses_or_duplicates_a_roll() -> None:
    for seed in range(5):
        w = Wire(seed)
        rng = random.Random(seed)
        w.to_host_filter = lambda f: rng.random() > 0.3
        w.to_reader_filter = lambda f: rng.random() > 0.3
        expected = []
        for i in range(12):
            vals = (rng.randint(1, 6), rng.randint(1, 6))
            w.reader_out(w.reader.start_roll(w.now))
            w.reader_out(w.reader.settle((Die(vals[0]), Die(vals[1])), w.now))
            w.reader_out(w.reader.lift(w.now))
            expected.append(("00001234", i + 1, vals))
            w.run(1.5)
        w.to_host_filter = w.to_reader_filter = None
        w.run(6.0)
        assert not [e for e in w.events if isinstance(e, ReaderFault) and "overflow" in e.message]
        assert w.rolls() == expected, seed
        snap: Snapshot = w.reader.snapshot()
        assert snap.pending == 0


def test_fifo_overflow_is_reported_as_a_fault() -> None:
    w = Wire()
    w.reader.fifo_depth = 2
    w.up = False
    for _ in range(3):  # coalesced, each roll is one entry; the third still overflows 2 entries
        w.reader_out(w.reader.start_roll(w.now))
        w.reader_out(w.reader.settle(DICE, w.now))
    w.run(3.5)
    w.up = True
    w.run(2.0)
    faults = [e.message for e in w.events if isinstance(e, ReaderFault) and "overflow" in e.message]
    assert faults == ["reader 00001234: event queue overflowed (arg 2)"]
    assert [e.roll_id for e in w.events if isinstance(e, RollSettled)] == [2, 3]
    assert [e.roll_id for e in w.events if isinstance(e, RollStarted)] == [2, 3]  # starts given by the host


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["roll", "lift", "outage", "restore", "lossy", "clean", "wait"]),
                          st.integers(1, 6), st.integers(1, 6)), max_size=30), st.integers(0, 2**16))
def test_any_schedule_of_outages_and_loss_delivers_each_roll_exactly_once(steps: list, seed: int) -> None:
    w = Wire(seed)
    rng = random.Random(seed)
    expected = []
    for action, a, b in steps:
        if action == "roll" and len(w.reader.fifo) <= w.reader.fifo_depth - 2:
            w.reader_out(w.reader.start_roll(w.now))
            w.reader_out(w.reader.settle((Die(a), Die(b)), w.now))
            expected.append(("00001234", w.reader.roll_id, (a, b)))
        elif action == "lift" and len(w.reader.fifo) < w.reader.fifo_depth:
            w.reader_out(w.reader.lift(w.now))
        elif action == "outage":
            w.up = False
        elif action == "restore":
            w.up = True
        elif action == "lossy":
            w.to_host_filter = lambda f: rng.random() > 0.3
            w.to_reader_filter = lambda f: rng.random() > 0.3
        elif action == "clean":
            w.to_host_filter = w.to_reader_filter = None
        else:
            w.run(0.05 * a * b)
    w.up = True
    w.to_host_filter = w.to_reader_filter = None
    w.run(8.0)
    assert w.rolls() == expected
    assert not w.reader.fifo and w.host.online
    lifted = [e.roll_id for e in w.events if isinstance(e, DiceLifted)]
    assert lifted == sorted(set(lifted))


# ---------------------------------------------------------------- a filter that cannot be poisoned

def _roll(w: Wire, a: int, b: int, lift: bool = True) -> None:
    w.reader_out(w.reader.start_roll(w.now))
    w.reader_out(w.reader.settle((Die(a), Die(b)), w.now))
    if lift:
        w.reader_out(w.reader.lift(w.now))


def test_a_reader_restarted_with_its_old_boot_id_starts_a_new_epoch() -> None:
    w = Wire(seed=3)
    for v in (1, 2, 3):
        _roll(w, v, v)
    w.reader = ReaderCore(0x1234, w.now)  # same boot id (no EEPROM, same seed): rolls count from 1 again
    w.run(2.0)                            # its INFO (nonce 0) tells the host: handshake again
    _roll(w, 6, 6)
    w.run(1.0)
    assert w.rolls() == [("00001234", 1, (1, 1)), ("00001234", 2, (2, 2)), ("00001234", 3, (3, 3)),
                         ("00001234~2", 1, (6, 6))]
    assert w.host.stats.new_epochs == 1 and w.host.source == "00001234~2"


def test_a_reader_restarted_with_its_old_boot_id_while_unplugged_starts_a_new_epoch() -> None:
    w = Wire(seed=4)
    _roll(w, 2, 5)
    w.up = False
    w.run(3.5)
    w.reader = ReaderCore(0x1234, w.now)
    _roll(w, 4, 1)  # queued until its first HELLO
    w.up = True
    w.run(3.0)
    assert w.rolls() == [("00001234", 1, (2, 5)), ("00001234~2", 1, (4, 1))]


def test_a_handshake_snapshot_whose_roll_id_went_backwards_starts_a_new_epoch() -> None:
    w = Wire(seed=5)
    for v in (1, 2, 3):
        _roll(w, v, v)
    nonce = w.reader.session_nonce
    # a reader that lost its state yet echoes the old nonce (say, a buggy firmware keeping it in EEPROM)
    w.reader = ReaderCore(0x1234, w.now)
    w.reader.session, w.reader.session_nonce = True, nonce
    w.host.close("test")
    w.reopen()
    _roll(w, 5, 4)
    w.run(1.0)
    assert w.rolls()[-1] == ("00001234~2", 1, (5, 4))
    assert w.host.stats.new_epochs == 1


def test_a_wild_roll_id_that_passed_the_crc_is_held_and_cannot_poison_the_filter() -> None:
    w = Wire(seed=6)
    _roll(w, 1, 2)
    w.run(0.5)
    wild = encode_frame(RollSettledMsg(60000, DICE), 77)  # as if a corruption had passed the CRC
    out, ev = w.host.feed(wild, w.now)
    assert ev == [] and [f.message for f in Decoder().feed(out)] == [RequestSnapshot()]  # no ACK
    w._to_reader(out)  # the reader answers with its SNAPSHOT: roll 1, so 60000 stays unbelieved
    out, ev = w.host.feed(encode_frame(RollSettledMsg(60001, DICE), 78), w.now + 0.3)
    assert ev == [] and not [f for f in Decoder().feed(out) if isinstance(f.message, Ack)]
    _roll(w, 4, 6)
    w.run(1.0)
    assert w.rolls() == [("00001234", 1, (1, 2)), ("00001234", 2, (4, 6))]
    assert w.host.stats.held == 2


def test_a_true_roll_id_jump_is_confirmed_by_the_snapshot_and_delivered() -> None:
    w = Wire(seed=7)
    _roll(w, 1, 2)
    w.reader.roll_id = 1 + MAX_ROLL_JUMP + 40  # say, rolls the FIFO could not keep
    _roll(w, 3, 3)
    w.run(1.0)
    assert w.rolls() == [("00001234", 1, (1, 2)), ("00001234", 2 + MAX_ROLL_JUMP + 40, (3, 3))]
    assert w.host.stats.held == 1
    assert not w.reader.fifo


def test_the_same_frame_twice_confirms_a_jump_without_a_snapshot() -> None:
    h = HostSession(rng=random.Random(1))
    hello = Decoder().feed(h.open(0.0))[0].message
    assert isinstance(hello, Hello)
    h.feed(encode_frame(Info(boot_id=9, session_nonce=hello.nonce), 0), 0.01)
    h.feed(encode_frame(Snapshot(), 1), 0.02)
    far = encode_frame(RollStartedMsg(1 + MAX_ROLL_JUMP), 2)
    assert h.feed(far, 0.03)[1] == []
    assert h.feed(far, 0.3)[1] == [RollStarted(roll_id=1 + MAX_ROLL_JUMP)]


def test_a_version_1_reader_is_named_once_and_never_believed() -> None:
    h = HostSession()
    h.open(0.0)
    v1_info = _raw_v1(bytes((1, 0x20, 0, 1, 1, 0, 0, 0x3F, 0, 4, 3, 2, 1, 2)))
    events = h.feed(v1_info, 0.1)[1] + h.feed(v1_info, 1.1)[1]
    assert len(events) == 1 and "protocol version 1" in events[0].message and "firmware" in events[0].message
    assert h.stats.old_version == 2 and h.info is None


def test_fast_rolls_over_a_lossy_line_are_coalesced_and_none_is_lost() -> None:
    """Roll, settle and lift within 0.2 s, the next roll 0.2 s later, 20 % of frames lost each way."""
    w = Wire(seed=8)
    rng = random.Random(8)
    w.to_host_filter = lambda f: rng.random() > 0.2
    w.to_reader_filter = lambda f: rng.random() > 0.2
    expected = []
    for i in range(60):
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        w.reader_out(w.reader.start_roll(w.now))
        w.run(0.1, step=0.01)
        w.reader_out(w.reader.settle((Die(a), Die(b)), w.now))
        w.run(0.1, step=0.01)
        w.reader_out(w.reader.lift(w.now))
        w.run(0.2, step=0.01)
        expected.append(("00001234", i + 1, (a, b)))
    w.to_host_filter = w.to_reader_filter = None
    w.run(5.0)
    assert w.rolls() == expected
    assert not [e for e in w.events if isinstance(e, ReaderFault) and "overflow" in e.message]
    stages = [(type(e).__name__, e.roll_id) for e in w.events if not isinstance(e, ReaderFault)]
    assert stages == [(k, r) for r in range(1, 61) for k in ("RollStarted", "RollSettled", "DiceLifted")]
    assert w.reader.snapshot().state != STATE_SETTLED and not w.reader.fifo
