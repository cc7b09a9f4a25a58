"""Dice-link figures: codec throughput against the 115200-baud line, and pty-to-queue latency.

    python3 bench/dicelink.py [--rolls 300]

1. Decode throughput: a stream of real frames (every vector, weighted towards
   ROLL_SETTLED) with 5% noise bytes, fed in 64-byte chunks; compared with the
   11,520 bytes/s a 115200-baud 8N1 line can carry.
2. Latency: a SimulatedReader on a pty and a DiceLink; for each roll the time from the
   sim's write of the ROLL_SETTLED frame to the pty until the RollSettled event is put
   on the link's queue (the event's ``t``), p50/p99/max.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.events import RollSettled  # noqa: E402

from firmware_bridge.codec import Decoder  # noqa: E402
from firmware_bridge.link import DiceLink  # noqa: E402
from firmware_bridge.messages import RollSettledMsg  # noqa: E402
from firmware_bridge.sim import SimulatedReader  # noqa: E402

LINE_BYTES_PER_S = 115200 / 10


def throughput(seconds: float = 2.0) -> None:
    vecs = json.loads((Path(__file__).resolve().parent.parent / "firmware_bridge" / "vectors.json").read_text())
    frames = [bytes.fromhex(v["frame_hex"]) for v in vecs]
    settled = [f for f, v in zip(frames, vecs) if v["message"]["type"] == "ROLL_SETTLED"]
    rng = random.Random(1)
    parts = []
    for _ in range(4000):
        parts.append(rng.choice(settled) if rng.random() < 0.5 else rng.choice(frames))
        if rng.random() < 0.05:
            parts.append(bytes(rng.randrange(256) for _ in range(rng.randint(1, 20))))
    stream = b"".join(parts)
    chunks = [stream[i:i + 64] for i in range(0, len(stream), 64)]
    total = 0
    nframes = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        d = Decoder()
        for c in chunks:
            nframes += len(d.feed(c))
        total += len(stream)
    dt = time.perf_counter() - t0
    rate = total / dt
    print(f"decode: {rate / 1e6:.2f} MB/s, {nframes / dt:,.0f} frames/s "
          f"= {rate / LINE_BYTES_PER_S:,.0f}x the 115200-baud line ({LINE_BYTES_PER_S:,.0f} B/s); "
          f"noise skipped: {d.stats.errors} bad frames in the last pass")


class _TimedSim(SimulatedReader):
    """Records each write to the pty with the time just before it."""

    def __init__(self, *a: object, **k: object) -> None:
        super().__init__(*a, **k)  # type: ignore[arg-type]
        self.writes: list[tuple[float, bytes]] = []

    def _flush(self, now: float) -> None:
        data = bytes(self._out) if self._master is not None else b""
        if data:
            self.writes.append((time.monotonic(), data))
        super()._flush(now)

    def settled_written_at(self, roll_id: int) -> float:
        """When the first copy of ROLL_SETTLED for ``roll_id`` was written to the pty."""
        for t, data in self.writes:
            for f in Decoder().feed(data):
                if isinstance(f.message, RollSettledMsg) and f.message.roll_id == roll_id:
                    return t
        raise LookupError(f"no ROLL_SETTLED for roll {roll_id} was written")


def latency(rolls: int) -> None:
    sim = _TimedSim(seed=1).start()
    link = DiceLink(sim.port_path).start()
    try:
        if not link.wait_connected(5):
            raise SystemExit("bench: the link did not connect to the simulator")
        lat = []
        for i in range(rolls):
            sim.writes.clear()
            sim.settle([i % 6 + 1, (i * 7) % 6 + 1])
            ev = link.events.get(timeout=5)
            while not isinstance(ev, RollSettled):
                ev = link.events.get(timeout=5)
            lat.append(ev.t - sim.settled_written_at(ev.roll_id))
            sim.lift()
            while not link.events.empty():
                link.events.get()
            time.sleep(0.002)
        lat.sort()
        ms = [x * 1000 for x in lat]
        print(f"latency pty write -> queue over {rolls} rolls: p50 {statistics.median(ms):.3f} ms, "
              f"p99 {ms[int(0.99 * (len(ms) - 1))]:.3f} ms, max {ms[-1]:.3f} ms")
    finally:
        link.stop()
        sim.stop()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rolls", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    throughput(args.seconds)
    latency(args.rolls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
