"""Level 3 on a virtual clock: the firmware's logic (hardware/firmware/src/*.c minus the AVR HAL)
compiled for the host, driven through simulated sensor readings, with a Python host decoding
its frames with firmware_bridge's codec.  Deterministic: no wall-clock time is involved."""
from __future__ import annotations

import os
from typing import Iterator

import pytest

from firmware_bridge import messages as M
from firmware_bridge.codec import Decoder, Frame, encode_frame
from hardware.firmware.tools import Build, LogicTool, build

SETTLE_MS = 300
RETRANSMIT_MS = 250
POCKETS = ((275, -12), (275, 12))


class Host:
    """A minimal host: decodes the firmware's frames, ACKs its reliable events when asked to."""

    def __init__(self, tool: LogicTool) -> None:
        self.tool = tool
        self.decoder = Decoder()
        self.seq = 0
        self.log: list[tuple[int, Frame]] = []

    def send(self, msg: M.Message) -> int:
        seq = self.seq
        self.tool.rx(encode_frame(msg, seq))
        self.seq = (self.seq + 1) & 0xFF
        return seq

    def run(self, ms: int, ack: bool = True, step: int = 5) -> list[tuple[int, Frame]]:
        got: list[tuple[int, Frame]] = []
        for _ in range(0, ms, step):
            for t, data in self.tool.run(step):
                for f in self.decoder.feed(data):
                    got.append((t, f))
                    if ack and f.message.RELIABLE:
                        self.send(M.Ack(f.seq, f.message.TYPE))
        self.log += got
        return got

    def scene(self, *commands: str) -> list[tuple[int, Frame]]:
        """Scene (or boot) commands; frames sent meanwhile (a boot's INFO) are logged and returned."""
        got = []
        for c in commands:
            for t, data in self.tool.command(c):
                got += [(t, f) for f in self.decoder.feed(data)]
        self.log += got
        return got


def events(frames: list[tuple[int, Frame]]) -> list[M.Message]:
    """Reliable events in order, retransmissions removed."""
    out: list[M.Message] = []
    seen: set[tuple[int, int]] = set()
    for _, f in frames:
        if f.message.RELIABLE and (f.seq, f.message.TYPE) not in seen:
            seen.add((f.seq, f.message.TYPE))
            out.append(f.message)
    return out


def of(frames: list[tuple[int, Frame]], cls: type) -> list[M.Message]:
    return [f.message for _, f in frames if isinstance(f.message, cls)]


@pytest.fixture(scope="module")
def fw(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build(tmp_path_factory.mktemp("fw-logic"), targets=("host",))


GREETING = 0x5EED0001  # the nonce of the fixture host's HELLO


def greet(h: Host) -> None:
    """Boot, then the host's HELLO (a reader sends no event before one)."""
    h.run(20)
    h.send(M.Hello(nonce=GREETING))
    h.run(10)


@pytest.fixture
def host(fw: Build) -> Iterator[Host]:
    with LogicTool(fw) as tool:
        h = Host(tool)
        greet(h)
        yield h


def roll(host: Host, top0: object, top1: object, tumble: int = 200, wait: int = 700) -> list[M.Message]:
    for pocket, what in enumerate((top0, top1)):
        host.scene(f"die {pocket} {what}" if isinstance(what, str) else f"die {pocket} top {what}")
    host.scene(f"tumble {tumble}")
    return events(host.run(tumble + wait))


def lift(host: Host) -> list[M.Message]:
    host.scene("die 0 empty", "die 1 empty", "tumble 60")
    return events(host.run(60 + 700))


# ---------------------------------------------------------------- session

def test_boot_announces_info_and_answers_hello_with_info_then_snapshot(host: Host) -> None:
    boot = [f.message for _, f in host.log]
    assert isinstance(boot[0], M.Info) and isinstance(boot[1], M.Snapshot)
    assert boot[0].session_nonce == 0  # no HELLO yet in this boot
    host.send(M.Hello(nonce=0x5EED0002))
    got = [f.message for _, f in host.run(10)]
    info, snap = got[0], got[1]
    assert isinstance(info, M.Info) and isinstance(snap, M.Snapshot)
    assert info.proto_version == 2 and info.max_dice == 2 and info.boot_id != 0
    assert info.session_nonce == GREETING  # the boot's first HELLO, not this one
    assert info.boot_id == boot[0].boot_id
    assert info.capabilities & M.CAP_COCKED and info.capabilities & M.CAP_CONFIDENCE
    assert not info.capabilities & M.CAP_ON_CHECKER  # the tray cannot tell; the camera does
    assert (snap.state, snap.roll_id, snap.pending, snap.dice) == (M.STATE_IDLE, 0, 0, ())


def test_session_nonce_is_the_first_hello_of_the_boot_and_a_reboot_forgets_it(host: Host) -> None:
    host.send(M.Hello(nonce=11))
    host.send(M.Hello(nonce=22))  # a later handshake (the host restarted, or a repeat)
    assert [i.session_nonce for i in of(host.run(10), M.Info)] == [GREETING, GREETING]  # type: ignore[attr-defined]
    announced = of(host.scene("boot"), M.Info)[0]
    assert announced.session_nonce == 0  # type: ignore[attr-defined]
    roll(host, 2, 2)
    silent = host.run(2000)  # not greeted since the boot: INFO once a second instead of heartbeats, no events
    assert [type(f.message) for _, f in silent] == [M.Info, M.Info]
    host.send(M.Hello(nonce=33))
    assert [i.session_nonce for i in of(host.run(10), M.Info)] == [33]  # type: ignore[attr-defined]


def test_heartbeat_about_once_a_second_with_the_uptime(host: Host) -> None:
    beats = [(t, f.message) for t, f in host.run(5000) if isinstance(f.message, M.Heartbeat)]
    assert len(beats) == 5
    assert all(abs(t - hb.uptime_ms) <= 1 for t, hb in beats)
    assert [b[0] - a[0] for a, b in zip(beats, beats[1:])] == [1000] * 4


def test_ping_pong(host: Host) -> None:
    host.send(M.Ping(0xBEEF))
    assert of(host.run(10), M.Pong) == [M.Pong(0xBEEF)]


def test_request_snapshot(host: Host) -> None:
    host.send(M.RequestSnapshot())
    assert len(of(host.run(10), M.Snapshot)) == 1


# ---------------------------------------------------------------- reading the dice

@pytest.mark.parametrize("rot", [0, 1])
@pytest.mark.parametrize("top", [1, 2, 3, 4, 5, 6])
def test_every_face_in_both_orientations_in_both_pockets(host: Host, top: int, rot: int) -> None:
    other = 7 - top if top != 7 - top else 1
    got = roll(host, f"top {top} {rot}", f"top {other} {1 - rot}")
    assert [type(e) for e in got] == [M.RollStartedMsg, M.RollSettledMsg]
    settled = got[1]
    assert isinstance(settled, M.RollSettledMsg) and settled.roll_id == got[0].roll_id == 1  # type: ignore[attr-defined]
    assert [d.value for d in settled.dice] == [top, other]
    for die, (x, y) in zip(settled.dice, POCKETS):
        assert (die.zone, die.cocked, die.on_checker, die.x, die.y) == ("tray", False, False, x, y)
        assert die.confidence >= 200


def test_settles_only_after_the_readings_stay_still_for_the_settle_time(host: Host) -> None:
    host.scene("die 0 top 3", "die 1 top 4")
    start = host.tool.now
    host.scene("tumble 400")
    frames = host.run(1200)
    started = [t for t, f in frames if isinstance(f.message, M.RollStartedMsg)]
    settled = [t for t, f in frames if isinstance(f.message, M.RollSettledMsg)]
    assert started and started[0] <= start + 20  # motion is seen at the next scan
    assert settled and start + 400 + SETTLE_MS <= settled[0] <= start + 400 + SETTLE_MS + 30


def test_lifting_the_dice_reports_dice_lifted_for_that_roll(host: Host) -> None:
    roll(host, 2, 5)
    got = lift(host)
    assert got == [M.DiceLiftedMsg(1)]
    host.send(M.RequestSnapshot())
    snap = of(host.run(10), M.Snapshot)[0]
    assert snap.state == M.STATE_LIFTED and snap.roll_id == 1 and [d.value for d in snap.dice] == [2, 5]  # type: ignore[attr-defined]


def test_cocked_die_is_unreadable_and_flagged(host: Host) -> None:
    got = roll(host, "cocked", 4)
    settled = got[-1]
    assert isinstance(settled, M.RollSettledMsg)
    cocked, flat = settled.dice
    assert (cocked.value, cocked.cocked, cocked.zone) == (0, True, "tray")
    assert (flat.value, flat.cocked) == (4, False)
    assert cocked.confidence < flat.confidence


def test_die_half_over_the_rim_is_outside_the_area(host: Host) -> None:
    settled = roll(host, 6, "offarea")[-1]
    assert isinstance(settled, M.RollSettledMsg)
    inside, half_out = settled.dice
    assert (inside.value, inside.zone) == (6, "tray")
    assert (half_out.value, half_out.zone, half_out.cocked) == (0, "outside", True)
    assert (half_out.x, half_out.y) == (POCKETS[1][0] + 20, POCKETS[1][1])


def test_die_on_the_apron_beside_an_empty_pocket(host: Host) -> None:
    settled = roll(host, "apron", 2)[-1]
    assert isinstance(settled, M.RollSettledMsg)
    assert [(d.value, d.zone) for d in settled.dice] == [(2, "tray"), (0, "outside")]


def test_one_die_for_an_opening_roll(host: Host) -> None:
    settled = roll(host, "empty", 5)[-1]
    assert isinstance(settled, M.RollSettledMsg) and [d.value for d in settled.dice] == [5]


def test_touching_the_dice_or_lifting_one_first_is_not_a_new_roll(host: Host) -> None:
    roll(host, 1, 3)
    host.scene("tumble 80")  # a hand brushes the dice; they stay as they were
    assert events(host.run(700)) == []
    host.scene("die 0 empty", "tumble 40")  # one die picked up first
    assert events(host.run(700)) == []
    host.scene("die 1 empty", "tumble 40")
    assert events(host.run(700)) == [M.DiceLiftedMsg(1)]


def test_dice_changed_without_a_lift_is_the_next_roll(host: Host) -> None:
    roll(host, 1, 3)
    got = roll(host, 6, 3, tumble=100)
    assert [type(e) for e in got] == [M.RollStartedMsg, M.RollSettledMsg]
    assert got[0].roll_id == 2 and [d.value for d in got[1].dice] == [6, 3]  # type: ignore[attr-defined]


def test_dice_lying_there_at_power_up_belong_to_no_roll(host: Host) -> None:
    booted = host.scene("die 0 top 2", "die 1 top 2", "boot")
    assert [type(f.message) for _, f in booted] == [M.Info, M.Snapshot]
    host.run(500)
    host.send(M.Hello(nonce=5))
    host.send(M.RequestSnapshot())
    snap = of(host.run(10), M.Snapshot)[0]
    assert snap.state == M.STATE_IDLE and snap.roll_id == 0 and [d.value for d in snap.dice] == [2, 2]  # type: ignore[attr-defined]
    assert lift(host) == []
    assert [type(e) for e in roll(host, 4, 4)] == [M.RollStartedMsg, M.RollSettledMsg]


# ---------------------------------------------------------------- reliable delivery

def test_head_is_retransmitted_every_250_ms_with_its_seq_until_acked(host: Host) -> None:
    host.scene("die 0 top 3", "die 1 top 5", "tumble 100")
    frames = host.run(1200, ack=False)
    started = [(t, f.seq) for t, f in frames if isinstance(f.message, M.RollStartedMsg)]
    assert len(started) >= 4 and len({seq for _, seq in started}) == 1
    assert [b[0] - a[0] for a, b in zip(started, started[1:])] == [RETRANSMIT_MS] * (len(started) - 1)
    assert of(frames, M.RollSettledMsg) == []  # in order, one at a time
    host.send(M.RequestSnapshot())
    snap = of(host.run(5, ack=False), M.Snapshot)[0]
    assert snap.pending == 2 and snap.state == M.STATE_SETTLED  # type: ignore[attr-defined]
    # a wrong ACK changes nothing; the right one releases the next event at once
    host.send(M.Ack(started[0][1], M.DiceLiftedMsg.TYPE))
    assert of(host.run(5, ack=False), M.RollSettledMsg) == []
    host.send(M.Ack(started[0][1], M.RollStartedMsg.TYPE))
    assert len(of(host.run(5, ack=False), M.RollSettledMsg)) == 1


def test_hello_resends_the_pending_head_at_once(host: Host) -> None:
    host.scene("die 0 top 3", "die 1 top 5", "tumble 100")
    host.run(130, ack=False)
    host.send(M.Hello())
    got = [f.message for _, f in host.run(5, ack=False)]
    assert [type(m) for m in got] == [M.Info, M.Snapshot, M.RollStartedMsg]
    assert got[1].pending == 1  # type: ignore[attr-defined]


def _rolls_without_acks(host: Host, n: int) -> None:
    for k in range(n):
        host.scene(f"die 0 top {k % 6 + 1}", "die 1 top 6", "tumble 60")
        host.run(500, ack=False, step=50)
        host.scene("die 0 empty", "die 1 empty", "tumble 40")
        host.run(500, ack=False, step=50)


def test_events_behind_an_unacked_head_are_coalesced_one_entry_per_roll(host: Host) -> None:
    _rolls_without_acks(host, 5)  # 15 events while the host ACKs nothing
    host.send(M.RequestSnapshot())
    assert of(host.run(5, ack=False), M.Snapshot)[0].pending == 6  # type: ignore[attr-defined]
    got = events(host.run(1000))
    assert [(type(e).__name__, e.roll_id) for e in got] == (  # type: ignore[attr-defined]
        [("RollStartedMsg", 1)] + [("RollDoneMsg", r) for r in range(1, 6)])
    assert [d.value for d in got[3].dice] == [3, 6]  # type: ignore[attr-defined]


def test_fifo_overflow_drops_the_oldest_and_reports_how_many(host: Host) -> None:
    _rolls_without_acks(host, 18)  # the head and 17 coalesced rolls: 18 entries, the FIFO holds 16
    got = events(host.run(2000, step=10))
    assert isinstance(got[-1], M.Fault) and got[-1].code == M.FAULT_QUEUE_OVERFLOW and got[-1].arg == 3
    assert [(type(e).__name__, e.roll_id) for e in got[:-1]] == [("RollDoneMsg", r) for r in range(3, 19)]  # type: ignore[attr-defined]


# ---------------------------------------------------------------- LEDs and zones

def test_set_leds_is_acked_and_drives_the_panel_with_blinking(host: Host) -> None:
    seq = host.send(M.SetLeds(on=M.LED_READY | M.LED_LINK, blink=M.LED_REROLL))
    assert M.Ack(seq, M.SetLeds.TYPE) in of(host.run(10), M.Ack)
    values = set()
    for _ in range(4):
        host.run(250)
        values.add(host.tool.leds()[0])
    assert values == {M.LED_READY | M.LED_LINK, M.LED_READY | M.LED_LINK | M.LED_REROLL}


def test_link_led_goes_off_after_three_seconds_without_the_host(host: Host) -> None:
    host.send(M.SetLeds(on=M.LED_LINK, blink=0))
    host.run(10)
    host.run(3100, ack=False)
    host.send(M.RequestSnapshot())
    assert of(host.run(5), M.Snapshot)[0].leds == M.LED_LINK  # type: ignore[attr-defined]  # the frame revived the link
    assert host.tool.leds()[0] == M.LED_LINK
    host.run(3100, ack=False)
    assert host.tool.leds()[0] == 0


def test_set_zone_changes_the_zone_dice_are_reported_in(host: Host) -> None:
    seq = host.send(M.SetZone(zone=3, x0=0, y0=0, x1=0, y1=0))  # no tray
    assert M.Ack(seq, M.SetZone.TYPE) in of(host.run(10), M.Ack)
    settled = roll(host, 3, 4)[-1]
    assert [d.zone for d in settled.dice] == ["outside", "outside"]  # type: ignore[attr-defined]
    host.send(M.SetZone(zone=1, x0=300, y0=-200, x1=0, y1=200))  # corners in any order
    host.run(10)
    settled = roll(host, 5, 4)[-1]
    assert [d.zone for d in settled.dice] == ["right", "right"]  # type: ignore[attr-defined]


# ---------------------------------------------------------------- faults and identity

def test_a_shorted_sensor_is_reported_after_a_second_and_its_recovery(host: Host) -> None:
    host.scene("short 3")
    early = events(host.run(900))
    late = events(host.run(300))
    assert early == [] and late == [M.Fault(fault_id=1, code=M.FAULT_SENSOR, arg=3)]
    host.send(M.RequestSnapshot())
    assert of(host.run(5), M.Snapshot)[0].faults == 1  # type: ignore[attr-defined]
    host.scene("unshort 3")
    assert events(host.run(100)) == [M.Fault(fault_id=2, code=M.FAULT_SENSOR_RECOVERED, arg=3)]


def test_dead_ir_leds_are_a_fault(host: Host) -> None:
    host.scene("leds dead")
    got = events(host.run(1200))
    assert got == [M.Fault(fault_id=1, code=M.FAULT_LED, arg=0)]


def test_every_boot_has_a_new_boot_id_and_a_watchdog_reset_is_reported(host: Host) -> None:
    ids = [of(host.log, M.Info)[0].boot_id]  # type: ignore[attr-defined]
    for _ in range(5):
        ids.append(of(host.scene("boot"), M.Info)[0].boot_id)  # type: ignore[attr-defined]
    assert len(set(ids)) == len(ids) and 0 not in ids
    host.scene("boot fault")
    assert events(host.run(50)) == []  # held until a host greets this boot
    host.send(M.Hello(nonce=9))
    assert events(host.run(50)) == [M.Fault(fault_id=1, code=M.FAULT_RESET, arg=0)]


def test_roll_ids_past_65535_start_a_new_boot_id_announced_to_the_host(host: Host) -> None:
    first = of(host.log, M.Info)[0].boot_id  # type: ignore[attr-defined]
    host.scene("rollid 65534")
    assert roll(host, 2, 3)[0] == M.RollStartedMsg(65535)
    assert lift(host) == [M.DiceLiftedMsg(65535)]
    host.scene("die 0 top 6", "die 1 top 1", "tumble 100")
    frames = host.run(900)
    infos = of(frames, M.Info)
    assert infos and infos[0].boot_id not in (0, first) and infos[0].session_nonce == 0  # type: ignore[attr-defined]
    assert events(frames) == []  # the new boot id waits for a HELLO before its events
    host.send(M.Hello(nonce=77))
    frames += host.run(100)
    got = events(frames)
    assert [(type(e), e.roll_id) for e in got] == [(M.RollStartedMsg, 1), (M.RollSettledMsg, 1)]  # type: ignore[attr-defined]
    info_at = next(i for i, (_, f) in enumerate(frames) if isinstance(f.message, M.Info))
    started_at = next(i for i, (_, f) in enumerate(frames) if isinstance(f.message, M.RollStartedMsg))
    assert info_at < started_at  # the host learns the new boot id before roll 1 of it


# ---------------------------------------------------------------- any sequence of scenes

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_pocket = st.one_of(st.just("empty"), st.just("cocked"), st.just("offarea"), st.just("apron"),
                    st.builds(lambda top, rot: f"top {top} {rot}", st.integers(1, 6), st.integers(0, 1)))
_step = st.tuples(_pocket, _pocket, st.integers(0, 300), st.integers(0, 900))


@settings(max_examples=int(os.environ.get('FW_EXAMPLES', '25')), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(_step, min_size=1, max_size=8))
def test_any_sequence_of_scenes_gives_a_well_formed_event_stream(fw: Build, steps: list[tuple[str, str, int, int]]) -> None:
    with LogicTool(fw) as tool:
        host = Host(tool)
        greet(host)
        for die0, die1, tumble, wait in steps:
            host.scene(f"die 0 {die0}", f"die 1 {die1}", f"tumble {tumble}")
            host.run(tumble + wait, step=10)
        host.scene("tumble 50")  # a last touch, then let everything settle
        host.run(1000, step=10)
        got = events(host.log)
        host.send(M.RequestSnapshot())
        snap = of(host.run(10), M.Snapshot)[0]
    assert isinstance(snap, M.Snapshot)
    started = [e.roll_id for e in got if isinstance(e, M.RollStartedMsg)]
    assert started == list(range(1, len(started) + 1))
    stage: dict[int, int] = {}
    latest = 0
    for e in got:
        n = {M.RollStartedMsg: 0, M.RollSettledMsg: 1, M.DiceLiftedMsg: 2, M.RollDoneMsg: 2}[type(e)]
        assert stage.get(e.roll_id, -1) == n - 1, f"{e} out of order in {got}"  # type: ignore[attr-defined]
        stage[e.roll_id] = n  # type: ignore[attr-defined]
        latest = max(latest, e.roll_id)  # type: ignore[attr-defined]
        assert e.roll_id == latest, f"{e} is not about the latest roll in {got}"  # type: ignore[attr-defined]
    # at rest, the dice in the pockets are (a subset of) the dice the snapshot reports
    pockets = [p for p in (steps[-1][0], steps[-1][1]) if p != "empty"]
    expected = sorted(int(p.split()[1]) if p.startswith("top") else 0 for p in pockets)
    if snap.state == M.STATE_SETTLED:
        reported = [d.value for d in snap.dice]
        assert all(expected.count(v) <= reported.count(v) for v in expected), (expected, snap)
    elif snap.state in (M.STATE_LIFTED, M.STATE_ROLLING):
        assert not pockets, snap  # dice at rest for a second are always settled
    else:
        assert snap.state == M.STATE_IDLE and started == []
