"""Fault injection for the dice link on a virtual clock (used by bench/dicelink_faults.py and tests).

* :func:`frame_trials` -- random and corrupted frames through the real :class:`~firmware_bridge.codec.Decoder`,
  counting every frame accepted with values that were never sent; and, on the decoded frame,
  how many of the same k-bit errors version 1's CRC-16 and version 2's CRC-32 let through.
* :class:`VirtualLine` -- the real :class:`~firmware_bridge.link.DiceLink` (driven by its
  :meth:`~firmware_bridge.link.DiceLink.step`) and a :class:`~firmware_bridge.reader.ReaderCore`
  joined by a serial line that carries frames at 11,520 bytes/s, loses and corrupts them, can be
  unplugged, and whose reader can restart with its old boot id.
* :func:`run_rolls` -- a seeded session of rolls at a human or a fast pace through such a line,
  counting rolls lost, duplicated and delivered with wrong values.

Nothing here sleeps: time is a number the harness advances.
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import serial

from referee.events import DiceLifted, RollSettled

from firmware_bridge import cobs
from firmware_bridge.codec import Decoder, encode_frame
from firmware_bridge.crc import crc16, crc32
from firmware_bridge.link import DiceLink
from firmware_bridge.messages import (
    ZONE_CODES, Ack, DiceLiftedMsg, Die, Fault, Heartbeat, Info, Message, Ping, RollSettledMsg, RollStartedMsg,
    SetLeds, Snapshot,
)
from firmware_bridge.reader import ReaderCore
from firmware_bridge.session import HostSession

LINE_BYTES_PER_S = 115200 / 10
STEP_S = 0.005


# ----------------------------------------------------------------------------- frames

def random_message(rng: random.Random) -> Message:
    """A message of a random type with random fields (the frames a line carries)."""
    def die() -> Die:
        return Die(rng.randint(0, 6), rng.choice(sorted(ZONE_CODES)), rng.random() < 0.1, rng.random() < 0.1,
                   rng.randint(-400, 400), rng.randint(-300, 300), rng.randint(0, 255))
    kind = rng.randrange(8)
    if kind <= 2:
        return RollSettledMsg(rng.randint(1, 0xFFFF), tuple(die() for _ in range(rng.randint(1, 2))))
    if kind == 3:
        return Snapshot(rng.randint(0, 3), rng.randint(0, 0xFFFF), rng.randrange(256), rng.randrange(4),
                        rng.randrange(17), tuple(die() for _ in range(rng.randint(0, 2))))
    if kind == 4:
        return rng.choice([RollStartedMsg, DiceLiftedMsg])(rng.randint(1, 0xFFFF))
    if kind == 5:
        return Ack(rng.randrange(256), rng.choice([0x30, 0x31, 0x32, 0x33, 0x34, 0x12]))
    if kind == 6:
        return Info(2, 1, 0, 0, 0x3F, rng.randint(1, 0xFFFFFFFF), 2, rng.randint(0, 0xFFFFFFFF))
    return rng.choice([Heartbeat(rng.randint(0, 0xFFFFFFFF)), Fault(rng.randint(1, 0xFFFF), rng.randint(1, 5), 0),
                       Ping(rng.randint(0, 0xFFFF)), SetLeds(rng.randrange(16), rng.randrange(16))])


def flip_bits(data: bytes, k: int, rng: random.Random) -> bytes:
    """``data`` with ``k`` distinct random bits flipped."""
    b = bytearray(data)
    for bit in rng.sample(range(len(b) * 8), min(k, len(b) * 8)):
        b[bit >> 3] ^= 1 << (bit & 7)
    return bytes(b)


BIT_BUCKETS: tuple[tuple[str, int, int], ...] = (("1 bit", 1, 1), ("2 bits", 2, 2), ("3-4 bits", 3, 4),
                                                  ("5-16 bits", 5, 16))


@dataclass
class FrameResult:
    """What :func:`frame_trials` counted."""

    trials: int = 0
    random_frames: int = 0
    random_accepted: int = 0                    # random bytes taken for a frame (all wrong)
    corrupted: Counter[str] = field(default_factory=Counter)
    corrupted_wrong: Counter[str] = field(default_factory=Counter)   # accepted, values never sent
    v1_missed: Counter[str] = field(default_factory=Counter)          # decoded k-bit errors CRC-16 passes
    v2_missed: Counter[str] = field(default_factory=Counter)          # the same errors CRC-32 passes

    @property
    def wrong(self) -> int:
        """The number of wrong frames accepted (random or corrupted ones the codec let through)."""
        return self.random_accepted + sum(self.corrupted_wrong.values())


def frame_trials(n: int, seed: int = 0, pool: int = 4000) -> FrameResult:
    """``n`` frames: a fifth random bytes, the rest real frames with 1..16 bits flipped on the wire."""
    rng = random.Random(seed)
    msgs = [(random_message(rng), rng.randrange(256)) for _ in range(pool)]
    frames = [(m, s, encode_frame(m, s)) for m, s in msgs]
    dec = Decoder()
    res = FrameResult()
    for i in range(n):
        res.trials += 1
        if i % 5 == 0:
            res.random_frames += 1
            noise = rng.randbytes(rng.randint(1, 60))
            res.random_accepted += len(dec.feed(b"\x00" + noise + b"\x00"))
            continue
        msg, seq, wire = frames[rng.randrange(pool)]
        name, lo, hi = BIT_BUCKETS[i % 4]
        k = rng.randint(lo, hi)
        res.corrupted[name] += 1
        for got in dec.feed(b"\x00" + flip_bits(wire[:-1], k, rng) + b"\x00"):
            if (got.seq, got.message) != (seq, msg):
                res.corrupted_wrong[name] += 1
        # the same number of bit errors in the decoded frame, checked by each version's CRC
        payload = msg.pack()
        v1 = bytes((1, msg.TYPE, seq)) + payload
        c16 = crc16(v1)
        bad = flip_bits(v1 + bytes((c16 & 0xFF, c16 >> 8)), k, rng)
        if crc16(bad[:-2]) == bad[-2] | bad[-1] << 8:
            res.v1_missed[name] += 1
        body = cobs.decode(wire[:-1])
        assert body is not None
        bad = flip_bits(body, k, rng)
        if crc32(bad[:-4]) == int.from_bytes(bad[-4:], "little"):
            res.v2_missed[name] += 1
    return res


# ----------------------------------------------------------------------------- the line

class VirtualClock:
    """Time as a number the harness advances."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class VirtualLine:
    """A reader at the end of a lossy serial line; :meth:`open` is the link's port opener."""

    def __init__(self, clock: VirtualClock, rng: random.Random, boot_id: int = 0xB007_0001,
                 loss: float = 0.0, corrupt: float = 0.0) -> None:
        self.clock = clock
        self.rng = rng
        self.boot_id = boot_id
        self.reader = ReaderCore(boot_id, clock())
        self.loss = loss
        self.corrupt = corrupt
        self.plugged = True
        self.port: Optional[LinePort] = None
        self.to_host: list[tuple[float, bytes]] = []
        self.to_reader: list[tuple[float, bytes]] = []
        self._busy_until = {"host": 0.0, "reader": 0.0}
        self.frames_lost = 0
        self.frames_corrupted = 0
        self.forged = 0

    # the port
    def open(self, url: str) -> "LinePort":
        """The link's opener: a port on this line, or FileNotFoundError while unplugged."""
        if not self.plugged:
            raise FileNotFoundError(2, f"could not open port {url}: No such file or directory")
        self.to_host.clear()
        self.port = LinePort(self)
        return self.port

    def _carry(self, frame: bytes, queue: list[tuple[float, bytes]], side: str) -> None:
        if not self.plugged:
            return
        if self.rng.random() < self.loss:
            self.frames_lost += 1
            return
        if self.rng.random() < self.corrupt:
            self.frames_corrupted += 1
            frame = flip_bits(frame[:-1], self.rng.randint(1, 8), self.rng) + b"\x00"
        now = self.clock()
        start = max(now, self._busy_until[side])
        self._busy_until[side] = start + len(frame) / LINE_BYTES_PER_S
        queue.append((self._busy_until[side] + 0.001, frame))

    def reader_out(self, frames: list[bytes]) -> None:
        """Frames the reader sent, onto the line towards the host."""
        for f in frames:
            self._carry(f, self.to_host, "reader")

    def host_out(self, data: bytes) -> None:
        """Bytes the host wrote, frame by frame, onto the line towards the reader."""
        for piece in data.split(b"\x00"):
            if piece:
                self._carry(piece + b"\x00", self.to_reader, "host")

    def forge(self, msg: Message, seq: int) -> None:
        """A frame as a corruption that passed the CRC would give: valid, never sent by the reader."""
        self.forged += 1
        self.to_host.append((self.clock(), encode_frame(msg, seq)))

    def pump(self) -> None:
        """Deliver what reached the reader by now, and let it run (ticks, retransmissions)."""
        now = self.clock()
        due = [f for t, f in self.to_reader if t <= now]
        self.to_reader = [(t, f) for t, f in self.to_reader if t > now]
        for f in due:
            self.reader_out(self.reader.feed(f, now))
        self.reader_out(self.reader.tick(now))

    # faults
    def unplug(self) -> None:
        """Pull the cable: the line goes dead and the bytes in flight are lost."""
        self.plugged = False
        self.to_host.clear()
        self.to_reader.clear()

    def replug(self) -> None:
        """Plug the cable back in."""
        self.plugged = True

    def restart(self, boot_id: Optional[int] = None) -> None:
        """Power-cycle the reader; by default it comes back with the same boot id (no EEPROM)."""
        self.reader = ReaderCore(self.boot_id if boot_id is None else boot_id, self.clock())
        self.to_host.clear()


class LinePort:
    """The host's end of a :class:`VirtualLine` (what :class:`DiceLink` reads and writes)."""

    def __init__(self, line: VirtualLine) -> None:
        self.line = line
        self.closed = False

    def _check(self) -> None:
        if not self.line.plugged or self.line.port is not self:
            raise serial.SerialException("device reports readiness to read but returned no data "
                                         "(device disconnected or multiple access on port?)")

    @property
    def in_waiting(self) -> int:
        """The bytes that have arrived and are waiting to be read (as pyserial's)."""
        now = self.line.clock()
        return sum(len(f) for t, f in self.line.to_host if t <= now)

    def read(self, size: int = 1) -> bytes:
        """Up to ``size`` arrived bytes (as pyserial's ``read``)."""
        self._check()
        self.line.pump()
        now = self.line.clock()
        out = bytearray()
        keep = []
        for t, f in self.line.to_host:
            if t <= now and len(out) < size:
                out += f
            else:
                keep.append((t, f))
        self.line.to_host = keep
        return bytes(out)

    def write(self, data: bytes) -> int:
        """Send ``data`` towards the reader; the number of bytes written."""
        self._check()
        self.line.host_out(data)
        return len(data)

    def close(self) -> None:
        """Close the port (sets ``closed``, as pyserial's)."""
        self.closed = True

    def reset_input_buffer(self) -> None:
        """Drop the bytes waiting to be read (as pyserial's)."""
        self.line.to_host.clear()


# ----------------------------------------------------------------------------- sessions of rolls

PACES = {
    # (start -> settled, settled -> lifted, lifted -> next start), seconds
    "human": ((0.6, 1.5), (2.0, 6.0), (0.5, 3.0)),
    "fast": ((0.1, 0.1), (0.1, 0.1), (0.2, 0.2)),  # roll and lift within 0.2 s, the next 0.2 s later
}


@dataclass
class RollResult:
    """What :func:`run_rolls` counted; ``lost``, ``duplicated`` and ``wrong`` should be 0."""

    pace: str
    rolls: int = 0
    delivered: int = 0
    lost: int = 0
    duplicated: int = 0
    wrong: int = 0
    lifts_lost: int = 0
    lifts_duplicated: int = 0
    unplugs: int = 0
    restarts: int = 0
    forged: int = 0
    frames_lost: int = 0
    frames_corrupted: int = 0
    bad_frames: int = 0
    new_epochs: int = 0
    held: int = 0
    overflow_faults: int = 0
    seconds: float = 0.0


def _expected_source(boot_id: int, incarnation: int) -> str:
    return f"{boot_id:08x}" + (f"~{incarnation + 1}" if incarnation else "")


def run_rolls(n_rolls: int, pace: str = "human", seed: int = 0, loss: float = 0.2, corrupt: float = 0.01,
              unplug_every_s: float = 30.0, unplug_s: tuple[float, float] = (0.3, 2.0),
              restarts: int = 2, forged: int = 20) -> RollResult:
    """``n_rolls`` rolls through a lossy, unplugged, restarted line; every roll checked on arrival."""
    if pace not in PACES:
        raise ValueError(f"pace {pace!r} is not one of {', '.join(PACES)}")
    rng = random.Random(seed)
    clock = VirtualClock()
    line = VirtualLine(clock, random.Random(seed + 1), loss=loss, corrupt=corrupt)
    link = DiceLink("virtual://dice", clock=clock, opener=line.open, session=HostSession(rng=random.Random(seed + 2)))
    res = RollResult(pace)
    expected: list[tuple[str, int, tuple[Optional[int], ...]]] = []
    incarnation = 0
    restart_at = set(rng.sample(range(1, n_rolls), min(restarts, max(0, n_rolls - 1))))
    forge_at = sorted(rng.uniform(1.0, 1.0 + n_rolls * sum(sum(p) / 2 for p in PACES[pace])) for _ in range(forged))
    next_unplug = rng.expovariate(1 / unplug_every_s)
    replug_at = -1.0
    got: list[Any] = []

    def advance(seconds: float, until: Optional[Callable[[], bool]] = None) -> None:
        nonlocal next_unplug, replug_at
        end = clock.t + seconds
        while clock.t < end or (until is not None and not until()):
            if line.plugged and clock.t >= next_unplug:
                line.unplug()
                res.unplugs += 1
                replug_at = clock.t + rng.uniform(*unplug_s)
            elif not line.plugged and clock.t >= replug_at:
                line.replug()
                next_unplug = clock.t + rng.expovariate(1 / unplug_every_s)
            while forge_at and clock.t >= forge_at[0]:
                forge_at.pop(0)
                wild = rng.choice([RollStartedMsg(rng.randint(1, 0xFFFF)), DiceLiftedMsg(rng.randint(1, 0xFFFF)),
                                   RollSettledMsg(rng.randint(1, 0xFFFF), (Die(rng.randint(1, 6)),)),
                                   Fault(rng.randint(1, 0xFFFF), 1, 0)])
                line.forge(wild, rng.randrange(256))
            link.step()
            while not link.events.empty():
                got.append(link.events.get_nowait())
            clock.t = round(clock.t + STEP_S, 6)
            if clock.t > end + 600:
                raise RuntimeError(f"the link did not drain in 10 minutes of virtual time ({res})")

    def drained() -> bool:
        return line.plugged and not line.reader.fifo and link.connected

    advance(0.5)
    (a_lo, a_hi), (b_lo, b_hi), (g_lo, g_hi) = PACES[pace]
    for i in range(n_rolls):
        if i in restart_at:
            advance(0.0, drained)  # a power cycle between rolls, once the reader has sent everything
            line.restart()
            incarnation += 1
            res.restarts += 1
            advance(0.3)
        values = tuple(rng.randint(1, 6) for _ in range(1 if rng.random() < 0.05 else 2))
        line.reader_out(line.reader.start_roll(clock()))
        advance(rng.uniform(a_lo, a_hi))
        line.reader_out(line.reader.settle([Die(v) for v in values], clock()))
        expected.append((_expected_source(line.boot_id, incarnation), line.reader.roll_id, values))
        advance(rng.uniform(b_lo, b_hi))
        line.reader_out(line.reader.lift(clock()))
        advance(rng.uniform(g_lo, g_hi))
    next_unplug = float("inf")
    advance(1.0, drained)
    advance(1.0)

    settled = Counter((e.source, e.roll_id, e.values) for e in got if isinstance(e, RollSettled))
    want = Counter(expected)
    res.rolls = len(expected)
    res.delivered = sum(settled.values())
    res.lost = sum((want - settled).values())
    res.duplicated = sum(n - 1 for k, n in settled.items() if k in want and n > 1)
    res.wrong = sum(n for k, n in settled.items() if k not in want)
    lifts = Counter(e.roll_id for e in got if isinstance(e, DiceLifted))
    # lift ids repeat across restarts (roll ids count from 1 again): compare counts per roll id
    want_lifts = Counter(rid for _, rid, _ in expected)
    res.lifts_lost = sum((want_lifts - lifts).values())
    res.lifts_duplicated = sum((lifts - want_lifts).values())
    res.forged = line.forged
    res.frames_lost, res.frames_corrupted = line.frames_lost, line.frames_corrupted
    res.bad_frames = link.session.decoder.stats.errors
    res.new_epochs, res.held = link.stats.new_epochs, link.stats.held
    res.overflow_faults = sum(1 for e in got if "overflowed" in getattr(e, "message", ""))
    res.seconds = clock.t
    return res
