"""The host's side of the protocol as a pure state machine (no port, no threads, no clock).

:class:`HostSession` is fed received bytes and the current time; it returns the
bytes to send and the ``referee.events`` values to deliver.  It owns the
handshake, ACKs, the duplicate filter keyed by (boot id, roll id, stage), the
resynchronisation from SNAPSHOT and the retransmission of reliable commands.
The I/O around it is :mod:`firmware_bridge.link`.

Phases: ``closed`` -> ``handshake`` (HELLO sent, awaiting INFO) -> ``syncing``
(awaiting SNAPSHOT) -> ``online``; any phase -> ``closed`` when the link is lost.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from referee.events import DiceLifted, DieReading, ReaderFault, RollSettled, RollStarted

from firmware_bridge.codec import Decoder, encode_frame
from firmware_bridge.messages import (
    STATE_IDLE, STATE_LIFTED, STATE_ROLLING, STATE_SETTLED, Ack, DiceLiftedMsg, Die, Fault, Heartbeat,
    Hello, Info, Message, Pong, RequestSnapshot, RollSettledMsg, RollStartedMsg, Snapshot,
)

HELLO_EVERY_S = 0.25
HANDSHAKE_S = 2.0
HEARTBEAT_S = 1.0
SILENCE_S = 3.0
RETRANSMIT_S = 0.25

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
    boots: list[str] = field(default_factory=list)


class HostSession:
    """The host's protocol engine; see the module docstring for its phases."""

    def __init__(self, handshake_s: float = HANDSHAKE_S, silence_s: float = SILENCE_S,
                 heartbeat_s: float = HEARTBEAT_S) -> None:
        self.handshake_s = handshake_s
        self.silence_s = silence_s
        self.heartbeat_s = heartbeat_s
        self.phase = "closed"
        self.decoder = Decoder()
        self.seq = 0
        self.info: Optional[Info] = None
        self.snapshot: Optional[Snapshot] = None
        self.snapshots = 0  # count of SNAPSHOTs received (for waiters)
        self.pongs: dict[int, float] = {}
        self.commands: dict[int, PendingCommand] = {}
        self.stats = SessionStats()
        self.lost_reason: Optional[str] = None
        self._last_delivered: dict[int, tuple[int, int]] = {}  # boot -> (roll id, stage)
        self._last_fault: dict[int, int] = {}
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
        return self.phase == "online"

    @property
    def source(self) -> str:
        return self.info.source if self.info else ""

    # ------------------------------------------------------------- opening and closing
    def open(self, now: float) -> bytes:
        """The port was (re)opened: start the handshake; returns the bytes to send."""
        self.phase = "handshake"
        self.decoder.reset()
        self.info = None
        self.lost_reason = None
        self._opened_at = now
        self._last_rx = now
        self._last_hello = now
        return b"\x00" + self._frame(Hello())

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
            if self.info is None:
                return b"", []  # no boot id yet: do not ACK, the reader will send it again
            ack = self._frame(Ack(seq, msg.TYPE))
            return ack, self._event(msg)
        return b"", []  # HEARTBEAT: a sign of life

    def _on_info(self, msg: Info, now: float) -> tuple[bytes, list[Any]]:
        if self.phase == "handshake":
            self.info = msg
            self.phase = "syncing"
            if msg.source not in self.stats.boots:
                self.stats.boots.append(msg.source)
            self._last_snapreq = now
            return b"", []
        if self.info is not None and msg.boot_id == self.info.boot_id:
            return b"", []  # the answer to a repeated HELLO
        # unsolicited, or a new boot: the reader restarted; handshake again
        self.stats.unsolicited_info += 1
        self.phase = "handshake"
        self.info = None
        self._last_hello = now
        self._opened_at = now
        return self._frame(Hello()), []

    # ------------------------------------------------------------- delivery
    def _accept(self, roll_id: int, stage: int) -> bool:
        assert self.info is not None
        boot = self.info.boot_id
        last = self._last_delivered.get(boot, (0, -1))
        if (roll_id, stage) <= last:
            self.stats.duplicates += 1
            return False
        self._last_delivered[boot] = (roll_id, stage)
        self.stats.delivered += 1
        return True

    def _event(self, msg: Message) -> list[Any]:
        assert self.info is not None
        src = self.info.source
        if isinstance(msg, RollStartedMsg):
            return [RollStarted(roll_id=msg.roll_id)] if self._accept(msg.roll_id, STAGE_STARTED) else []
        if isinstance(msg, RollSettledMsg):
            if not self._accept(msg.roll_id, STAGE_SETTLED):
                return []
            return [RollSettled(dice=tuple(die_reading(d) for d in msg.dice), roll_id=msg.roll_id, source=src)]
        if isinstance(msg, DiceLiftedMsg):
            return [DiceLifted(roll_id=msg.roll_id)] if self._accept(msg.roll_id, STAGE_LIFTED) else []
        if isinstance(msg, Fault):
            boot = self.info.boot_id
            if msg.fault_id <= self._last_fault.get(boot, 0):
                self.stats.duplicates += 1
                return []
            self._last_fault[boot] = msg.fault_id
            self.stats.delivered += 1
            return [ReaderFault(f"reader {src}: {msg.text}")]
        return []

    def _resync(self, snap: Snapshot) -> list[Any]:
        """After a handshake: deliver what the snapshot shows and no event will bring (PROTOCOL.md 7.2)."""
        if snap.pending or snap.state == STATE_IDLE or snap.roll_id == 0:
            return []
        events: list[Any] = []
        stage_now = {STATE_ROLLING: STAGE_STARTED, STATE_SETTLED: STAGE_SETTLED, STATE_LIFTED: STAGE_LIFTED}[snap.state]
        assert self.info is not None
        last = self._last_delivered.get(self.info.boot_id, (0, -1))
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
                out += self._frame(Hello())
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
