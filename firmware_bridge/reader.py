"""The reader's side of the protocol as a pure state machine (the simulator's brain).

:class:`ReaderCore` is what the firmware does, minus the sensors: it answers HELLO
(remembering the boot's first HELLO nonce), queues reliable events in a FIFO sent one
at a time until ACKed, coalescing the queued ones that a later event makes redundant
(PROTOCOL.md 5.4), retransmits every 250 ms, sends heartbeats, and applies SET_LEDS /
SET_ZONE.  It takes time as an
argument and returns the frames to send, so tests drive it without threads.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Optional, Sequence

from firmware_bridge.codec import Decoder, encode_frame
from firmware_bridge.messages import (
    CAP_COCKED, CAP_CONFIDENCE, CAP_LEDS, CAP_ON_CHECKER, CAP_POSITION, CAP_ZONES, FAULT_QUEUE_OVERFLOW,
    STATE_IDLE, STATE_LIFTED, STATE_ROLLING, STATE_SETTLED, Ack, DiceLiftedMsg, Die, Fault, Heartbeat,
    PROTOCOL_VERSION, Hello, Info, Message, Ping, Pong, RequestSnapshot, RollDoneMsg, RollSettledMsg,
    RollStartedMsg, SetLeds, SetZone, Snapshot,
)

RETRANSMIT_S = 0.25
HEARTBEAT_S = 1.0
FIFO_DEPTH = 16
FW_VERSION = (0, 1, 0)
CAPABILITIES = CAP_POSITION | CAP_COCKED | CAP_ON_CHECKER | CAP_LEDS | CAP_ZONES | CAP_CONFIDENCE

# default zone rectangles (x0, y0, x1, y1) in mm, as PROTOCOL.md section 6.4
DEFAULT_ZONES: dict[int, tuple[int, int, int, int]] = {
    0: (-250, -200, 0, 200), 1: (0, -200, 250, 200), 3: (0, 0, 0, 0)}


@dataclass
class _Pending:
    seq: int
    message: Message
    sent_at: Optional[float] = None


class ReaderCore:
    """A dice reader's protocol engine: feed it bytes and time, it returns bytes to send."""

    def __init__(self, boot_id: int, now: float = 0.0, fifo_depth: int = FIFO_DEPTH) -> None:
        self.boot_id = boot_id
        self.boot_time = now
        self.decoder = Decoder()
        self.fifo: deque[_Pending] = deque()
        self.fifo_depth = fifo_depth
        self.session = False  # a HELLO arrived since boot
        self.session_nonce = 0  # the nonce of the first HELLO of this boot
        self.seq = 0
        self.roll_id = 0
        self.fault_id = 0
        self.state = STATE_IDLE
        self.dice: tuple[Die, ...] = ()
        self.leds = 0
        self.blink = 0
        self.active_faults: set[int] = set()
        self.zones = dict(DEFAULT_ZONES)
        self.dropped = 0
        self.last_heartbeat = -1e9
        self.received: list[Message] = []  # every valid message from the host, for tests
        self.acks_received = 0

    # ------------------------------------------------------------- framing helpers
    def _frame(self, msg: Message, seq: Optional[int] = None) -> bytes:
        if seq is None:
            seq = self.seq
            self.seq = (self.seq + 1) & 0xFF
        return encode_frame(msg, seq)

    def _uptime_ms(self, now: float) -> int:
        return int((now - self.boot_time) * 1000) & 0xFFFFFFFF

    def info(self) -> Info:
        """The INFO this reader answers with: protocol and firmware versions, capabilities, boot id, nonce."""
        return Info(PROTOCOL_VERSION, *FW_VERSION, CAPABILITIES, self.boot_id, 2, self.session_nonce)

    def snapshot(self) -> Snapshot:
        """The reader's state now: roll state and id, LEDs, active faults, queued events, the dice."""
        return Snapshot(self.state, self.roll_id, self.leds | self.blink, len(self.active_faults),
                        min(len(self.fifo), 255), self.dice)

    # ------------------------------------------------------------- the event FIFO
    def _enqueue(self, msg: Message, now: float) -> list[bytes]:
        if self._coalesce(msg):
            return self._send_head(now)
        if len(self.fifo) >= self.fifo_depth:
            self.fifo.popleft()
            self.dropped += 1
        self.fifo.append(_Pending(-1, msg))
        return self._send_head(now)

    def _coalesce(self, msg: Message) -> bool:
        """Merge ``msg`` into the events queued behind the head; True when it was absorbed.

        A queued ROLL_STARTED is dropped once anything later happens to a roll (the host
        delivers the start with the next event of the roll); a DICE_LIFTED whose roll's
        ROLL_SETTLED is still queued turns that entry into one ROLL_DONE.
        """
        first = 1  # the head (in flight, or the next to go) is never changed
        if isinstance(msg, (RollStartedMsg, RollSettledMsg, DiceLiftedMsg)):
            def implied(p: _Pending) -> bool:
                m = p.message
                return isinstance(m, RollStartedMsg) and (
                    m.roll_id < msg.roll_id or (m.roll_id == msg.roll_id and not isinstance(msg, RollStartedMsg)))
            keep = [p for i, p in enumerate(self.fifo) if i < first or not implied(p)]
            if len(keep) != len(self.fifo):
                self.fifo = deque(keep)
        if isinstance(msg, DiceLiftedMsg):
            for i in range(first, len(self.fifo)):
                p = self.fifo[i]
                if type(p.message) is RollSettledMsg and p.message.roll_id == msg.roll_id:
                    p.message = RollDoneMsg(msg.roll_id, p.message.dice)
                    return True
        return False

    def _send_head(self, now: float, force: bool = False) -> list[bytes]:
        if not self.session or not self.fifo:
            return []
        head = self.fifo[0]
        if head.seq < 0:
            head.seq = self.seq
            self.seq = (self.seq + 1) & 0xFF
        elif not force and head.sent_at is not None and now - head.sent_at < RETRANSMIT_S:
            return []
        head.sent_at = now
        return [encode_frame(head.message, head.seq)]

    # ------------------------------------------------------------- host input
    def feed(self, data: bytes, now: float) -> list[bytes]:
        """Bytes from the host; returns the frames to send in answer."""
        out: list[bytes] = []
        for frame in self.decoder.feed(data):
            out += self._handle(frame.seq, frame.message, now)
        return out

    def _handle(self, seq: int, msg: Message, now: float) -> list[bytes]:
        self.received.append(msg)
        if isinstance(msg, Hello):
            self.session = True
            if not self.session_nonce:
                self.session_nonce = msg.nonce
            out = [self._frame(self.info()), self._frame(self.snapshot())]
            return out + self._send_head(now, force=True)
        if isinstance(msg, Ack):
            self.acks_received += 1
            if self.fifo and self.fifo[0].seq == msg.acked_seq and self.fifo[0].message.TYPE == msg.acked_type:
                self.fifo.popleft()
                out = []
                if self.dropped:
                    n, self.dropped = self.dropped, 0
                    out += self._fault(FAULT_QUEUE_OVERFLOW, min(n, 255), now)
                return out + self._send_head(now)
            return []
        if isinstance(msg, RequestSnapshot):
            return [self._frame(self.snapshot())]
        if isinstance(msg, Ping):
            return [self._frame(Pong(msg.token))]
        if isinstance(msg, SetLeds):
            self.leds, self.blink = msg.on, msg.blink
            return [self._frame(Ack(seq, msg.TYPE))]
        if isinstance(msg, SetZone):
            self.zones[msg.zone] = (msg.x0, msg.y0, msg.x1, msg.y1)
            return [self._frame(Ack(seq, msg.TYPE))]
        return []  # HEARTBEAT and anything else: a sign of life only

    # ------------------------------------------------------------- time
    def next_due(self, now: float) -> float:
        """Seconds until :meth:`tick` has something to send (a heartbeat or a retransmission)."""
        due = self.last_heartbeat + HEARTBEAT_S - now
        if self.session and self.fifo:
            head = self.fifo[0]
            due = 0.0 if head.seq < 0 or head.sent_at is None else min(due, head.sent_at + RETRANSMIT_S - now)
        return max(0.0, due)

    def tick(self, now: float) -> list[bytes]:
        """Heartbeats (INFO before the first HELLO) and retransmissions due at ``now``."""
        out: list[bytes] = []
        if now - self.last_heartbeat >= HEARTBEAT_S:
            self.last_heartbeat = now
            out.append(self._frame(Heartbeat(self._uptime_ms(now)) if self.session else self.info()))
        return out + self._send_head(now)

    # ------------------------------------------------------------- the dice (what sensors would report)
    def zone_of(self, x: int, y: int) -> str:
        """The zone of a point by the configured rectangles (PROTOCOL.md 6.4)."""
        for code, name in ((3, "tray"), (0, "left"), (1, "right")):
            x0, y0, x1, y1 = self.zones.get(code, (0, 0, 0, 0))
            if (x0, y0, x1, y1) == (0, 0, 0, 0):
                continue
            if min(x0, x1) <= x <= max(x0, x1) and min(y0, y1) <= y <= max(y0, y1):
                return name
        return "outside"

    def start_roll(self, now: float) -> list[bytes]:
        """The dice start rolling: a new roll id and its ROLL_STARTED event; the frames to send."""
        if self.roll_id >= 0xFFFF:
            raise OverflowError("roll ids exhausted in this boot; reboot the reader")
        self.roll_id += 1
        self.state = STATE_ROLLING
        self.dice = ()
        return self._enqueue(RollStartedMsg(self.roll_id), now)

    def settle(self, dice: Sequence[Die], now: float) -> list[bytes]:
        """The dice come to rest showing ``dice`` (started first if need be): ROLL_SETTLED; the frames to send."""
        if self.state != STATE_ROLLING:
            out = self.start_roll(now)
        else:
            out = []
        self.state = STATE_SETTLED
        self.dice = tuple(dice)
        return out + self._enqueue(RollSettledMsg(self.roll_id, self.dice), now)

    def lift(self, now: float) -> list[bytes]:
        """The player picks up settled dice: DICE_LIFTED (nothing if not settled); the frames to send."""
        if self.state != STATE_SETTLED:
            return []
        self.state = STATE_LIFTED
        return self._enqueue(DiceLiftedMsg(self.roll_id), now)

    def _fault(self, code: int, arg: int, now: float) -> list[bytes]:
        self.fault_id = self.fault_id % 0xFFFF + 1
        return self._enqueue(Fault(self.fault_id, code, arg), now)

    def fault(self, code: int, arg: int, now: float, active: Optional[bool] = None) -> list[bytes]:
        """Report a fault; ``active`` True/False marks sensor ``arg`` failed/recovered."""
        if active is True:
            self.active_faults.add(arg)
        elif active is False:
            self.active_faults.discard(arg)
        return self._fault(code, arg, now)
