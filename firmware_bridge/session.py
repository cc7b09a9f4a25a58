"""The host's side of the protocol as a pure state machine (no port, no threads, no clock).

:class:`HostSession` is fed received bytes and the current time; it returns the
bytes to send and the ``referee.events`` values to deliver.  It owns the
handshake (with a random nonce per handshake), ACKs, the duplicate filter keyed by
(boot id, epoch, roll id, stage), the resynchronisation from SNAPSHOT and the
retransmission of reliable commands.

The filter cannot be poisoned (PROTOCOL.md 5.5): an event whose id jumps further
ahead than :data:`MAX_ROLL_JUMP` (or :data:`MAX_FAULT_JUMP`) is held, not ACKed, until
a SNAPSHOT confirms the reader got that far or the same frame comes again; a reader
whose session nonce changed under the same boot id (it restarted and reused the id),
or whose handshake SNAPSHOT shows a roll id behind what was delivered, starts a new
*epoch* of that boot id with a fresh filter and the source ``<boot id>~<epoch>``.
The I/O around it is :mod:`firmware_bridge.link`.

Phases: ``closed`` -> ``handshake`` (HELLO sent, awaiting INFO) -> ``syncing``
(awaiting SNAPSHOT) -> ``online``; any phase -> ``closed`` when the link is lost.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Optional

from referee.events import DiceLifted, DieReading, ReaderFault, RollSettled, RollStarted

from firmware_bridge.codec import Decoder, encode_frame
from firmware_bridge.messages import (
    PROTOCOL_VERSION, STATE_IDLE, STATE_LIFTED, STATE_ROLLING, STATE_SETTLED, Ack, DiceLiftedMsg, Die, Fault,
    Heartbeat, Hello, Info, Message, Pong, RequestSnapshot, RollDoneMsg, RollSettledMsg, RollStartedMsg, Snapshot,
)

HELLO_EVERY_S = 0.25
HANDSHAKE_S = 2.0
HEARTBEAT_S = 1.0
SILENCE_S = 3.0
RETRANSMIT_S = 0.25
MAX_ROLL_JUMP = 4    # roll ids believed ahead of the last delivered one without confirmation
MAX_FAULT_JUMP = 16  # likewise for fault ids

STAGE_STARTED, STAGE_SETTLED, STAGE_LIFTED = 0, 1, 2
PHASES = ("closed", "handshake", "syncing", "online")


def die_reading(d: Die) -> DieReading:
    """A protocol die record as the referee's :class:`DieReading`."""
    return DieReading(value=d.value or None, flat=not d.cocked, zone=d.zone, on_checker=d.on_checker,
                      x=float(d.x), y=float(d.y), confidence=round(d.confidence / 255, 4))


@dataclass
class PendingCommand:
    """A reliable command awaiting its ACK (retransmitted until then or until abandoned)."""

    name: str
    seq: int
    frame: bytes
    type: int
    sent_at: float
    done: bool = False


@dataclass
class SessionStats:
    """What happened on the link, for diagnosis (``bgtable dice`` prints it)."""

    connects: int = 0
    losses: int = 0
    delivered: int = 0
    duplicates: int = 0
    resynced: int = 0
    unsolicited_info: int = 0
    retransmits: int = 0
    held: int = 0            # events held back for an unconfirmed id jump
    new_epochs: int = 0      # reused boot ids detected (new nonce or roll ids going backwards)
    old_version: int = 0     # version-1 frames seen (the reader needs new firmware)
    boots: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Epoch:
    """One run of a reader under a boot id: the session nonce it echoes and the epoch's number."""

    boot_id: int
    nonce: int
    number: int = 1

    @property
    def source(self) -> str:
        """``RollSettled.source``: the boot id as 8 hex digits, ``~N`` added from the 2nd epoch on."""
        return f"{self.boot_id:08x}" + (f"~{self.number}" if self.number > 1 else "")


class HostSession:
    """The host's protocol engine; see the module docstring for its phases."""

    def __init__(self, handshake_s: float = HANDSHAKE_S, silence_s: float = SILENCE_S,
                 heartbeat_s: float = HEARTBEAT_S, rng: Optional[random.Random] = None) -> None:
        self.handshake_s = handshake_s
        self.silence_s = silence_s
        self.heartbeat_s = heartbeat_s
        self.rng = rng if rng is not None else random.SystemRandom()
        self.phase = "closed"
        self.decoder = Decoder()
        self.seq = 0
        self.nonce = 0
        self.info: Optional[Info] = None
        self.epoch: Optional[Epoch] = None
        self.snapshot: Optional[Snapshot] = None
        self.snapshots = 0  # count of SNAPSHOTs received (for waiters)
        self.heartbeats = 0  # count of HEARTBEATs received (for waiters)
        self.pongs: dict[int, float] = {}
        self.commands: dict[int, PendingCommand] = {}
        self.stats = SessionStats()
        self.lost_reason: Optional[str] = None
        self._epochs: dict[int, Epoch] = {}  # boot id -> its latest epoch
        self._last_delivered: dict[Epoch, tuple[int, int]] = {}  # epoch -> (roll id, stage)
        self._last_fault: dict[Epoch, int] = {}
        self._confirmed_roll = 0  # the roll id of the latest SNAPSHOT of this session
        self._held: Optional[tuple[int, Message]] = None  # an event waiting for its id jump to be confirmed
        self._told_old_version = False
        self._opened_at = 0.0
        self._last_rx = 0.0
        self._last_tx_hb = -1e9
        self._last_hello = -1e9
        self._last_snapreq = -1e9

    # ------------------------------------------------------------- helpers
    def _frame(self, msg: Message) -> bytes:
        seq = self.seq
        self.seq = (self.seq + 1) & 0xFF
        return encode_frame(msg, seq)

    @property
    def online(self) -> bool:
        """Whether the handshake is done and rolls are being accepted."""
        return self.phase == "online"

    @property
    def source(self) -> str:
        """The current epoch's ``RollSettled.source`` (empty before the first handshake)."""
        return self.epoch.source if self.epoch else ""

    def _new_handshake(self, now: float) -> bytes:
        self.phase = "handshake"
        self.info = None
        self.epoch = None
        self.nonce = self.rng.randrange(1, 1 << 32)
        self._held = None
        self._last_hello = now
        self._opened_at = now
        return self._frame(Hello(self.nonce))

    # ------------------------------------------------------------- opening and closing
    def open(self, now: float) -> bytes:
        """The port was (re)opened: start the handshake; returns the bytes to send."""
        self.decoder.reset()
        self.lost_reason = None
        self._last_rx = now
        return b"\x00" + self._new_handshake(now)

    def close(self, reason: str) -> list[Any]:
        """The link is gone: back to ``closed``; returns the ReaderFault to deliver (once per loss)."""
        was = self.phase
        self.phase = "closed"
        self.lost_reason = reason
        for cmd in self.commands.values():
            cmd.sent_at = -1e9  # resend at once after reconnecting
        if was == "online":
            self.stats.losses += 1
            return [ReaderFault(f"link lost: {reason}")]
        return []

    # ------------------------------------------------------------- input
    def feed(self, data: bytes, now: float) -> tuple[bytes, list[Any]]:
        """Received bytes: returns (bytes to send, events to deliver in order)."""
        out = bytearray()
        events: list[Any] = []
        for frame in self.decoder.feed(data):
            self._last_rx = now
            o, ev = self._handle(frame.seq, frame.message, now)
            out += o
            events += ev
        if self.decoder.stats.old_version != self.stats.old_version:
            self.stats.old_version = self.decoder.stats.old_version
            if not self._told_old_version:
                self._told_old_version = True
                events.append(ReaderFault(
                    f"the dice reader speaks protocol version 1 (CRC-16 frames); this host needs version "
                    f"{PROTOCOL_VERSION}: flash the reader's firmware again (hardware/README.md, 'make flash')"))
        return bytes(out), events

    def _handle(self, seq: int, msg: Message, now: float) -> tuple[bytes, list[Any]]:
        if isinstance(msg, Info):
            return self._on_info(msg, now)
        if isinstance(msg, Snapshot):
            self.snapshot = msg
            self.snapshots += 1
            if self.phase == "syncing":
                self.phase = "online"
                self.stats.connects += 1
                return b"", self._resync(msg)
            if self.phase == "online":
                self._confirmed_roll = max(self._confirmed_roll, msg.roll_id)
            return b"", []
        if isinstance(msg, Ack):
            cmd = self.commands.get(msg.acked_seq)
            if cmd is not None and cmd.type == msg.acked_type:
                cmd.done = True
                del self.commands[msg.acked_seq]
            return b"", []
        if isinstance(msg, Pong):
            self.pongs[msg.token] = now
            return b"", []
        if msg.RELIABLE and 0x30 <= msg.TYPE <= 0x3F:  # reader events (host commands echoed back are ignored)
            if self.epoch is None or self.phase == "syncing":
                return b"", []  # no boot id (or no SNAPSHOT) yet: do not ACK, the reader will send it again
            if self._jumps(seq, msg):
                self.stats.held += 1
                if now - self._last_snapreq >= HELLO_EVERY_S:
                    self._last_snapreq = now
                    return self._frame(RequestSnapshot()), []
                return b"", []
            ack = self._frame(Ack(seq, msg.TYPE))
            return ack, self._event(msg)
        if isinstance(msg, Heartbeat):
            self.heartbeats += 1
        return b"", []  # HEARTBEAT: a sign of life

    def _on_info(self, msg: Info, now: float) -> tuple[bytes, list[Any]]:
        if self.phase == "handshake":
            if msg.session_nonce == 0:
                return b"", []  # sent before the reader saw our HELLO; the HELLO is repeated
            self.info = msg
            self.epoch = self._epoch_of(msg)
            self.phase = "syncing"
            if msg.source not in self.stats.boots:
                self.stats.boots.append(msg.source)
            self._last_snapreq = now
            return b"", []
        if self.info is not None and msg.boot_id == self.info.boot_id and msg.session_nonce == self.info.session_nonce:
            return b"", []  # the answer to a repeated HELLO
        # unsolicited, a new boot id, or the same boot id not greeted since it restarted: handshake again
        self.stats.unsolicited_info += 1
        return self._new_handshake(now), []

    def _epoch_of(self, info: Info) -> Epoch:
        """The epoch this INFO belongs to: the known one if the nonce matches, else a new one."""
        known = self._epochs.get(info.boot_id)
        if known is not None and known.nonce == info.session_nonce:
            return known
        if known is not None:
            self.stats.new_epochs += 1
        epoch = Epoch(info.boot_id, info.session_nonce, known.number + 1 if known else 1)
        self._epochs[info.boot_id] = epoch
        return epoch

    # ------------------------------------------------------------- delivery
    def _jumps(self, seq: int, msg: Message) -> bool:
        """True when ``msg``'s id is further ahead than can be believed yet (and it is held)."""
        assert self.epoch is not None
        if isinstance(msg, Fault):
            ok = msg.fault_id <= self._last_fault.get(self.epoch, 0) + MAX_FAULT_JUMP
        else:
            rid = getattr(msg, "roll_id", 0)
            last = self._last_delivered.get(self.epoch, (0, -1))[0]
            ok = rid <= max(last + MAX_ROLL_JUMP, self._confirmed_roll)
        if ok or self._held == (seq, msg):
            self._held = None
            return False
        self._held = (seq, msg)
        return True

    def _accept(self, roll_id: int, stage: int) -> bool:
        assert self.epoch is not None
        last = self._last_delivered.get(self.epoch, (0, -1))
        if (roll_id, stage) <= last:
            self.stats.duplicates += 1
            return False
        self._last_delivered[self.epoch] = (roll_id, stage)
        self.stats.delivered += 1
        return True

    def _started_first(self, roll_id: int) -> list[Any]:
        """RollStarted for a roll whose start the reader coalesced away (never delivered yet)."""
        assert self.epoch is not None
        last = self._last_delivered.get(self.epoch, (0, -1))
        if roll_id > last[0] and self._accept(roll_id, STAGE_STARTED):
            return [RollStarted(roll_id=roll_id)]
        return []

    def _event(self, msg: Message) -> list[Any]:
        assert self.epoch is not None
        src = self.epoch.source
        if isinstance(msg, RollStartedMsg):
            return [RollStarted(roll_id=msg.roll_id)] if self._accept(msg.roll_id, STAGE_STARTED) else []
        if isinstance(msg, RollSettledMsg):
            out = self._started_first(msg.roll_id)
            if self._accept(msg.roll_id, STAGE_SETTLED):
                out.append(RollSettled(dice=tuple(die_reading(d) for d in msg.dice), roll_id=msg.roll_id, source=src))
            if isinstance(msg, RollDoneMsg) and self._accept(msg.roll_id, STAGE_LIFTED):
                out.append(DiceLifted(roll_id=msg.roll_id))
            return out
        if isinstance(msg, DiceLiftedMsg):
            return [DiceLifted(roll_id=msg.roll_id)] if self._accept(msg.roll_id, STAGE_LIFTED) else []
        if isinstance(msg, Fault):
            if msg.fault_id <= self._last_fault.get(self.epoch, 0):
                self.stats.duplicates += 1
                return []
            self._last_fault[self.epoch] = msg.fault_id
            self.stats.delivered += 1
            return [ReaderFault(f"reader {src}: {msg.text}")]
        return []

    def _resync(self, snap: Snapshot) -> list[Any]:
        """After a handshake: deliver what the snapshot shows and no event will bring (PROTOCOL.md 7.2)."""
        assert self.epoch is not None and self.info is not None
        last = self._last_delivered.get(self.epoch, (0, -1))
        if snap.roll_id < last[0]:
            # roll ids went backwards under a known boot id and nonce: the reader restarted and reused both
            self.stats.new_epochs += 1
            self.epoch = Epoch(self.epoch.boot_id, self.epoch.nonce, self.epoch.number + 1)
            self._epochs[self.epoch.boot_id] = self.epoch
            last = (0, -1)
        self._confirmed_roll = snap.roll_id
        if snap.pending or snap.state == STATE_IDLE or snap.roll_id == 0:
            return []
        events: list[Any] = []
        stage_now = {STATE_ROLLING: STAGE_STARTED, STATE_SETTLED: STAGE_SETTLED, STATE_LIFTED: STAGE_LIFTED}[snap.state]
        if (snap.roll_id, stage_now) <= last:
            return []
        first = STAGE_STARTED if snap.roll_id > last[0] else last[1] + 1
        for stage in range(first, stage_now + 1):
            if stage == STAGE_STARTED:
                msg: Message = RollStartedMsg(snap.roll_id)
            elif stage == STAGE_SETTLED:
                if not snap.dice:
                    continue
                msg = RollSettledMsg(snap.roll_id, snap.dice)
            else:
                msg = DiceLiftedMsg(snap.roll_id)
            events += self._event(msg)
        self.stats.resynced += len(events)
        return events

    # ------------------------------------------------------------- time
    def tick(self, now: float) -> bytes:
        """Heartbeats, repeated HELLO / REQUEST_SNAPSHOT and command retransmissions due at ``now``.

        Sets :attr:`lost_reason` (and the caller closes the port) when the reader is silent
        too long or the handshake does not finish in time.
        """
        out = bytearray()
        if self.phase == "closed":
            return b""
        if self.phase in ("handshake", "syncing"):
            if now - self._opened_at > self.handshake_s:
                self.lost_reason = (f"no {'INFO' if self.phase == 'handshake' else 'SNAPSHOT'} "
                                    f"within {self.handshake_s:g} s of HELLO")
                return b""
            if self.phase == "handshake" and now - self._last_hello >= HELLO_EVERY_S:
                self._last_hello = now
                out += self._frame(Hello(self.nonce))
            if self.phase == "syncing" and now - self._last_snapreq >= HELLO_EVERY_S:
                self._last_snapreq = now
                out += self._frame(RequestSnapshot())
        elif now - self._last_rx > self.silence_s:
            self.lost_reason = f"no frame from the reader for {self.silence_s:g} s"
            return b""
        if now - self._last_tx_hb >= self.heartbeat_s:
            self._last_tx_hb = now
            out += self._frame(Heartbeat(int(now * 1000) & 0xFFFFFFFF))
        if self.phase == "online":
            for cmd in self.commands.values():
                if now - cmd.sent_at >= RETRANSMIT_S:
                    cmd.sent_at = now
                    self.stats.retransmits += 1
                    out += cmd.frame
        return bytes(out)

    # ------------------------------------------------------------- commands
    def command(self, msg: Message, now: float) -> tuple[Optional[PendingCommand], bytes]:
        """Frame a command; a reliable one is tracked until ACKed.  Returns (pending, bytes to send)."""
        frame_seq = self.seq
        frame = self._frame(msg)
        if not msg.RELIABLE:
            return None, frame
        cmd = PendingCommand(msg.NAME, frame_seq, frame, msg.TYPE, now if self.online else -1e9)
        self.commands[frame_seq] = cmd
        return cmd, (frame if self.online else b"")

    def abandon(self, cmd: PendingCommand) -> None:
        """Stop retransmitting a command whose caller gave up waiting."""
        self.commands.pop(cmd.seq, None)
