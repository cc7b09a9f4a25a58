"""The contract every dice reader backend must meet, run against the simulator and,
when ``BGTABLE_DICE_PORT`` names a real reader (or the firmware under simavr on a pty),
against that too.  Only host-driven behaviour is checked here: nothing needs dice thrown.
"""
from __future__ import annotations

import os
from typing import Iterator

import pytest

from firmware_bridge.errors import LinkError
from firmware_bridge.link import DiceLink
from firmware_bridge.messages import LED_READY, LED_REROLL, PROTOCOL_VERSION, STATE_NAMES
from firmware_bridge.sim import SimulatedReader

BACKENDS = ["sim"] + (["device"] if os.environ.get("BGTABLE_DICE_PORT") else [])


@pytest.fixture(params=BACKENDS)
def link(request: pytest.FixtureRequest) -> Iterator[DiceLink]:
    sim = None
    if request.param == "sim":
        sim = SimulatedReader(seed=21).start()
        url = sim.port_path
    else:
        url = os.environ["BGTABLE_DICE_PORT"]
    lk = DiceLink(url).start()
    try:
        assert lk.wait_connected(10.0), f"no handshake with the dice reader on {url}"
        yield lk
    finally:
        lk.stop()
        if sim is not None:
            sim.stop()


def test_info_identifies_the_reader(link: DiceLink) -> None:
    info = link.info
    assert info is not None
    assert info.proto_version == PROTOCOL_VERSION
    assert info.boot_id != 0 and len(info.source) == 8
    assert info.session_nonce != 0  # it answered a HELLO (the first of its boot, ours or an earlier host's)
    assert link.session.source.startswith(info.source)
    assert 1 <= info.max_dice <= 2


def test_snapshot_is_consistent(link: DiceLink) -> None:
    snap = link.request_snapshot()
    assert snap.state in STATE_NAMES
    assert (snap.roll_id == 0) == (snap.state == 0)
    assert len(snap.dice) <= 2


def test_leds_are_acked_and_shown_in_the_snapshot(link: DiceLink) -> None:
    link.set_leds(LED_REROLL | LED_READY)
    assert link.request_snapshot().leds & (LED_REROLL | LED_READY) == LED_REROLL | LED_READY
    link.set_leds(0)
    assert link.request_snapshot().leds & (LED_REROLL | LED_READY) == 0


def test_zones_are_acked(link: DiceLink) -> None:
    tray = link.set_zone("tray", 0, 0, 0, 0)
    right = link.set_zone("right", 0, -200, 250, 200)
    assert (tray.name, tray.done, right.name, right.done) == ("SET_ZONE", True, "SET_ZONE", True)
    assert tray.seq != right.seq and link.session.commands == {}  # nothing left awaiting an ACK
    with pytest.raises(LinkError, match="'middle'"):
        link.set_zone("middle", 0, 0, 1, 1)


def test_ping_and_heartbeats_keep_the_link_up(link: DiceLink) -> None:
    assert link.ping() >= 0.0
    # four heartbeats from the reader with nothing else going on (more than the 3 s silence limit
    # apart from the first to the last): no loss, no reconnection
    beats = link.session.heartbeats
    assert link.wait_for(lambda s: s.heartbeats >= beats + 4, 10.0), "the reader sends no heartbeats"
    assert link.stats.losses == 0 and link.connected
