"""Dice-link fault injection: prints lost / duplicated / wrong values (target 0 / 0 / 0).

    python3 bench/dicelink_faults.py [--frames 1000000] [--human 150] [--fast 1000]
                                     [--simavr 40] [--seed 1] [--no-simavr]

1. Frames: random byte strings and real frames with 1..16 bits flipped on the wire, through
   the host's decoder (COBS, CRC-32, layout checks): frames accepted with values never sent.
   Beside it, the same k-bit errors in the decoded frame under version 1's CRC-16 and
   version 2's CRC-32: how many each check lets through.
2. Rolls through the real DiceLink and the reader's protocol core on a virtual clock: 20 %
   of frames lost each way, 1 % corrupted, the cable pulled at random (0.3-2 s), the reader
   restarted with its old boot id, and frames forged as a CRC miss would give them (wild
   roll ids), at a human pace and at a fast one (roll and lift within 0.2 s, the next roll
   0.2 s later).  Every settled roll is checked on arrival by (source, roll id, values).
3. The real firmware (dice_reader.elf in simavr, 4x real time) behind a proxy that loses 20 %
   of the frames each way and twice cuts the line for 3.5 s, with one reset of the reader;
   the dice are set through the simulated sensors.

The default run takes about two minutes on one core (measured: 2 min 7 s, 0 / 0 / 0 in every part).
"""
from __future__ import annotations

import argparse
import os
import queue
import random
import select
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any, Optional

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import serial  # noqa: E402

from referee.events import DiceLifted, ReaderFault, RollSettled  # noqa: E402

from firmware_bridge.faults import BIT_BUCKETS, frame_trials, run_rolls  # noqa: E402
from firmware_bridge.link import DiceLink  # noqa: E402


def part_frames(n: int, seed: int) -> int:
    t0 = time.perf_counter()
    r = frame_trials(n, seed)
    print(f"1. frames: {r.trials:,} in {time.perf_counter() - t0:.0f} s "
          f"({r.random_frames:,} random, {sum(r.corrupted.values()):,} corrupted on the wire)")
    print(f"   accepted with values never sent: random {r.random_accepted}, corrupted "
          f"{sum(r.corrupted_wrong.values())}  -> wrong values {r.wrong}")
    print("   the same bit errors in the decoded frame, let through by the check:")
    for name, _, _ in BIT_BUCKETS:
        print(f"     {name:>9}: {r.corrupted[name]:>7,} frames   v1 CRC-16 {r.v1_missed[name]:>3}   "
              f"v2 CRC-32 {r.v2_missed[name]:>3}")
    return r.wrong


def part_rolls(n: int, pace: str, seed: int, unplug_every_s: float) -> int:
    t0 = time.perf_counter()
    r = run_rolls(n, pace, seed=seed, loss=0.2, corrupt=0.01, unplug_every_s=unplug_every_s,
                  restarts=3, forged=50)
    print(f"2. {pace} pace: {r.rolls} rolls in {r.seconds:.0f} s of virtual time ({time.perf_counter() - t0:.0f} s): "
          f"lost {r.lost} / duplicated {r.duplicated} / wrong {r.wrong}; lifts lost {r.lifts_lost}, "
          f"duplicated {r.lifts_duplicated}")
    print(f"   faults: {r.frames_lost} frames lost, {r.frames_corrupted} corrupted (both ways; {r.bad_frames} dropped by the host's "
          f"decoder), {r.unplugs} unplugs, {r.restarts} restarts with the same boot id ({r.new_epochs} new epochs "
          f"seen), {r.forged} forged frames ({r.held} events held for an id jump), {r.overflow_faults} FIFO overflows")
    return r.lost + r.duplicated + r.wrong + r.lifts_lost + r.lifts_duplicated


class LossyProxy:
    """Frames between the firmware's pty and a new pty for the host, 20 % dropped each way."""

    def __init__(self, device: str, loss: float, seed: int) -> None:
        self.dev = serial.Serial(device, 115200, timeout=0)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.loss = loss
        self.rng = random.Random(seed)
        self.cut = False
        self.dropped = 0
        self._bufs = {"up": bytearray(), "down": bytearray()}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _pass(self, way: str, data: bytes) -> bytes:
        buf = self._bufs[way]
        buf += data
        out = bytearray()
        while (i := buf.find(0)) >= 0:
            frame = bytes(buf[:i + 1])
            del buf[:i + 1]
            if self.cut or (len(frame) > 1 and self.rng.random() < self.loss):
                self.dropped += 1
                continue
            out += frame
        return bytes(out)

    def _run(self) -> None:
        dev_fd = self.dev.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([dev_fd, self.master], [], [], 0.05)
            if dev_fd in ready:
                data = self.dev.read(4096)
                if data:
                    out = self._pass("down", data)
                    if out:
                        try:
                            os.write(self.master, out)
                        except OSError:
                            pass
            if self.master in ready:
                try:
                    data = os.read(self.master, 4096)
                except OSError:
                    data = b""
                if data:
                    out = self._pass("up", data)
                    if out:
                        self.dev.write(out)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.dev.close()
        os.close(self.master)
        os.close(self.slave)


def part_simavr(n: int, seed: int) -> int:
    from hardware.firmware.tools import SimavrReader, build  # noqa: PLC0415
    rng = random.Random(seed)
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="bgtable-faults-") as tmp:
        fw = build(Path(tmp) / "build", targets=("firmware", "sim"))
        with SimavrReader(fw, eeprom=Path(tmp) / "eeprom.bin", seed=seed, speed=4.0) as sim:
            proxy = LossyProxy(sim.port, 0.2, seed)
            events: "queue.Queue[Any]" = queue.Queue()
            link = DiceLink(proxy.path, events).start()
            try:
                if not link.wait_connected(30.0):
                    print("3. simavr: no handshake through the proxy within 30 s")
                    return 1
                expected: list[tuple[str, int, tuple[int, ...]]] = []
                got: list[Any] = []

                def collect(timeout: float) -> None:
                    """Take events until every expected roll has settled and been lifted."""
                    deadline = time.monotonic() + timeout
                    while (sum(isinstance(e, RollSettled) for e in got) < len(expected)
                           or sum(isinstance(e, DiceLifted) for e in got) < len(expected)):
                        try:
                            got.append(events.get(timeout=max(0.01, deadline - time.monotonic())))
                        except queue.Empty:
                            return

                roll_id = 0
                source = link.session.source
                cuts = {n // 3, 2 * n // 3}
                reset_at = n // 2
                for i in range(n):
                    if i == reset_at:
                        collect(60.0)
                        first = link.session.info.boot_id if link.session.info else 0
                        sim.command("reset")
                        link.wait_for(lambda s: s.online and s.info is not None and s.info.boot_id != first, 60.0)
                        source, roll_id = link.session.source, 0
                    if i in cuts:
                        proxy.cut = True
                    a, b = rng.randint(1, 6), rng.randint(1, 6)
                    ms = sim.command(f"tumble 150; die 0 top {a}; die 1 top {b}")
                    roll_id += 1
                    expected.append((source, roll_id, (a, b)))
                    while sim.time_ms() < ms + 150 + 400:  # settled (300 ms quiet) in simulated time
                        time.sleep(0.02)
                    ms = sim.command("tumble 40; die 0 empty; die 1 empty")
                    while sim.time_ms() < ms + 40 + 400:
                        time.sleep(0.02)
                    if proxy.cut:
                        time.sleep(3.5)  # longer than the host's 3 s silence limit: it re-handshakes
                        proxy.cut = False
                collect(60.0)
                while not events.empty():
                    got.append(events.get_nowait())
            finally:
                link.stop()
                proxy.close()
    settled = [(e.source, e.roll_id, e.values) for e in got if isinstance(e, RollSettled)]
    lifts = [e.roll_id for e in got if isinstance(e, DiceLifted)]
    lost = len([k for k in expected if k not in settled])
    dup = len(settled) - len(set(settled))
    wrong = len([k for k in settled if k not in expected])
    losses = len([e for e in got if isinstance(e, ReaderFault) and "link lost" in e.message])
    if os.environ.get("DICELINK_FAULTS_VERBOSE"):
        print("   expected:", expected, "\n   settled: ", settled, "\n   lifted:  ", lifts,
              "\n   faults:  ", [e.message for e in got if isinstance(e, ReaderFault)])
    print(f"3. simavr firmware behind a 20 % lossy proxy: {len(expected)} rolls ({time.perf_counter() - t0:.0f} s): "
          f"lost {lost} / duplicated {dup} / wrong {wrong}; lifts {len(lifts)} of {len(expected)}")
    print(f"   {proxy.dropped} frames dropped by the proxy, 2 line cuts of 3.5 s, 1 reset; "
          f"the link reported {losses} losses; bad frames {link.session.decoder.stats.errors}")
    return lost + dup + wrong + abs(len(lifts) - len(expected))


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--frames", type=int, default=1_000_000)
    p.add_argument("--human", type=int, default=150, help="rolls at a human pace")
    p.add_argument("--fast", type=int, default=1000, help="rolls at the fast pace")
    p.add_argument("--simavr", type=int, default=60, help="rolls through the firmware in simavr")
    p.add_argument("--no-simavr", action="store_true")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    bad = part_frames(args.frames, args.seed) if args.frames else 0
    bad += part_rolls(args.human, "human", args.seed, unplug_every_s=30.0) if args.human else 0
    bad += part_rolls(args.fast, "fast", args.seed, unplug_every_s=10.0) if args.fast else 0
    if not args.no_simavr and args.simavr:
        bad += part_simavr(args.simavr, args.seed)
    print(f"total lost + duplicated + wrong: {bad}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
