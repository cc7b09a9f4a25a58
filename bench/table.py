"""Benchmark: from the dice lift to the verdict on the screen, in the simulated table.

    python3 bench/table.py [--match-to 5] [--seed 3] [--camera render|perfect]

A simulated match runs through the whole table: the simulated dice reader on a
pseudo-terminal read by the real dice link, the (rendered) camera read by the real
vision pipeline, the real buttons on mock GPIO, the referee, the journal (fsync'ed)
and the pygame screen (SDL dummy driver, so it draws into memory).  For every lift
it times the moment the simulated reader is told the dice were lifted until the
screen has drawn the verdict (the move accepted, or illegal).  Prints p50/p99/max
of that latency and the peak memory (max RSS) of the whole process.
Targets (issue 19): p99 at most 25 ms, peak memory at most 120 MB (bench/verdict_latency.py and
bench/run_memory.py measure each alone, the latter without the forking parent in the figure).
"""
from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from hardware.config import ScreenConfig  # noqa: E402
from referee.table.config import loads  # noqa: E402
from hardware.runner import ScreenRunner  # noqa: E402
from referee.settings import Settings  # noqa: E402
from referee.table.demo import DEFAULT_BUTTONS  # noqa: E402
from vision.config import SURE as VISION_MIN_CONFIDENCE  # noqa: E402
from referee.table.process import TableCore  # noqa: E402
from referee.table.sinks import LogSink, ScreenSink  # noqa: E402
from referee.table.simdevices import MockButtons, PerfectCamera, PtyDice, RenderedCamera  # noqa: E402
from referee.table.simtable import Rates, SimulatedTable  # noqa: E402

VERDICTS = {"move_accepted", "illegal_move", "illegal_accepted"}


class TimedScreen(ScreenSink):
    """The screen sink, noting when a verdict has been drawn."""

    def __init__(self, runner, marks):
        super().__init__(runner)
        self.marks = marks

    def show(self, view, decisions):
        super().show(view, decisions)
        if self.marks["lift"] is not None and any(d.kind in VERDICTS for d in decisions):
            self.marks["latencies"].append(time.perf_counter() - self.marks["lift"])
            self.marks["lift"] = None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--match-to", type=int, default=5)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--camera", choices=("render", "perfect"), default="render")
    args = ap.parse_args()
    marks = {"lift": None, "latencies": []}
    runner = ScreenRunner(ScreenConfig(size=(1280, 720), driver="dummy"))
    tmp = Path(tempfile.mkdtemp(prefix="bgtable-bench-"))
    core = TableCore.open(tmp / "journal.jsonl", Settings(match_to=args.match_to, min_confidence=VISION_MIN_CONFIDENCE),
                          [LogSink(printer=lambda s: None), TimedScreen(runner, marks)])
    dice = PtyDice(seed=args.seed)
    lift = dice.lift

    def timed_lift():
        marks["lift"] = time.perf_counter()
        return lift()

    dice.lift = timed_lift  # type: ignore[method-assign]
    camera = RenderedCamera(seed=args.seed) if args.camera == "render" else PerfectCamera()
    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    table = SimulatedTable(core, dice, camera, buttons, seed=args.seed, rates=Rates(),
                           director_camera=PerfectCamera() if args.camera == "render" else None)
    t0 = time.perf_counter()
    try:
        stats = table.run()
    finally:
        dice.close()
        buttons.close()
        runner.close()
    total = time.perf_counter() - t0
    lat = sorted(marks["latencies"])
    n = len(lat)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"simulated match to {args.match_to} (camera {args.camera}): {core.referee.score.games} games, "
          f"{stats.steps} steps, {total:.1f} s")
    print(f"lift -> verdict on screen: n={n}, p50 {lat[n // 2] * 1e3:.1f} ms, "
          f"p99 {lat[min(n - 1, int(n * 0.99))] * 1e3:.1f} ms, max {lat[-1] * 1e3:.1f} ms (target p99 <= 25 ms)")
    print(f"director readings (camera could not read the board): {stats.director_readings}")
    print(f"peak memory (max RSS) of the whole process: {peak_mb:.0f} MB (target <= 120 MB; this max RSS includes the bench itself)")


if __name__ == "__main__":
    main()
