"""Benchmark: dice lifted -> verdict on the screen, simulated table, split into its parts.

    python3 bench/verdict_latency.py [--games 3] [--seed 3] [--paths old,new] [--profile] [--no-settle]

The same simulated match as ``bench/table.py`` (the simulated dice reader on a pty, read
by the real dice link; the referee; the fsync'ed journal; the pygame screen on the SDL
dummy driver), with the camera perfect so that only the verdict path is timed.  Each lift
is split into

* ``dice``: the simulated reader is told the dice were lifted -> the DiceLifted event is
  out of the link's queue (the reader's thread, the pty, the link's thread);
* ``table``: the event handed to the table core -> the verdict drawn on the screen (the
  journal written and on disk, the referee, the screen).

``--paths`` runs each path in the same process, one after the other, on the same seed:
``old`` is the reader's 5 ms select poll and one fsync per journal line before the next;
``new`` is the reader woken by its actions and one fsync per event on the journal's sync
thread, waited for only before the decisions are shown.  Wall-clock figures: the machine
may be loaded (say so when quoting them); ``--repeat N`` keeps the best of N runs of each.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from hardware.config import ScreenConfig  # noqa: E402
from hardware.runner import ScreenRunner  # noqa: E402
from referee.settings import Settings  # noqa: E402
from referee.table.config import loads  # noqa: E402
from referee.table.demo import DEFAULT_BUTTONS  # noqa: E402
from referee.table.lean import settle_heap  # noqa: E402
from referee.table.process import TableCore  # noqa: E402
from referee.table.sinks import LogSink, ScreenSink  # noqa: E402
from referee.table.simdevices import MockButtons, PerfectCamera, PtyDice  # noqa: E402
from referee.table.simtable import Rates, SimulatedTable  # noqa: E402
from vision.config import SURE  # noqa: E402

VERDICTS = {"move_accepted", "illegal_move", "illegal_accepted"}


class TimedScreen(ScreenSink):
    """The screen sink, noting when a verdict has been drawn after a timed lift."""

    def __init__(self, runner: Any, marks: dict[str, Any]) -> None:
        super().__init__(runner)
        self.marks = marks

    def show(self, view: Any, decisions: Any) -> None:
        super().show(view, decisions)
        m = self.marks
        if m["lift"] is not None and m["event"] is not None and any(d.kind in VERDICTS for d in decisions):
            now = time.perf_counter()
            m["dice"].append(m["event"] - m["lift"])
            m["table"].append(now - m["event"])
            m["total"].append(now - m["lift"])
            m["lift"] = m["event"] = None


def run_once(path: str, games: int, seed: int, settle: bool = True) -> dict[str, list[float]]:
    """One simulated match on ``path`` ("old" or "new"); the latencies of its lifts.  ``settle``:
    the heap set aside once set up, as ``bgtable run`` does (:func:`referee.table.lean.settle_heap`)."""
    marks: dict[str, Any] = {"lift": None, "event": None, "dice": [], "table": [], "total": []}
    runner = ScreenRunner(ScreenConfig(size=(1280, 720), driver="dummy"))
    tmp = Path(tempfile.mkdtemp(prefix="bgtable-bench-"))
    sync = "each" if path == "old" else "thread"
    core = TableCore.open(tmp / "journal.jsonl", Settings(match_to=games, min_confidence=SURE),
                          [LogSink(printer=lambda s: None), TimedScreen(runner, marks)],
                          sync=sync)
    dice = PtyDice(seed=seed)
    dice.reader.poll = 0.005 if path == "old" else None
    lift, collect = dice.lift, dice._collect

    def timed_lift() -> list[Any]:
        marks["lift"], marks["event"] = time.perf_counter(), None
        return lift()

    def timed_collect(until: type) -> list[Any]:
        out = collect(until)
        if marks["lift"] is not None:
            marks["event"] = time.perf_counter()
        return out

    dice.lift = timed_lift  # type: ignore[method-assign]
    dice._collect = timed_collect  # type: ignore[method-assign]
    buttons = MockButtons(loads(DEFAULT_BUTTONS).buttons)
    table = SimulatedTable(core, dice, PerfectCamera(), buttons, seed=seed, rates=Rates())
    if settle:
        settle_heap()  # as bgtable run does once it is set up (referee.table.lean)
    try:
        table.run()
    finally:
        dice.close()
        buttons.close()
        runner.close()
        core.close()
    return {k: marks[k] for k in ("dice", "table", "total")}


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * q))] * 1e3


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3, help="the match length (more points, more lifts)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--paths", default="old,new", help="old, new or both (comma-separated)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each path; the best p99 is kept")
    ap.add_argument("--profile", action="store_true", help="cProfile the new path, print the top lines")
    ap.add_argument("--no-settle", action="store_true",
                    help="leave the heap as set up (bgtable run freezes it before its loop: the before figure)")
    args = ap.parse_args()
    for path in args.paths.split(","):
        best = None
        for _ in range(args.repeat):
            if args.profile:
                prof = cProfile.Profile()
                cpu0 = time.process_time()
                r = prof.runcall(run_once, path, args.games, args.seed, not args.no_settle)
            else:
                cpu0 = time.process_time()
                r = run_once(path, args.games, args.seed, not args.no_settle)
            r["cpu"] = [time.process_time() - cpu0]
            if best is None or pct(r["total"], 0.99) < pct(best["total"], 0.99):
                best = r
        assert best is not None
        n = len(best["total"])
        parts = ", ".join(f"{k} p50 {pct(best[k], 0.5):.1f} / p99 {pct(best[k], 0.99):.1f} ms"
                          for k in ("dice", "table"))
        print(f"{path}: n={n} lifts, lift -> verdict p50 {pct(best['total'], 0.5):.1f} ms, "
              f"p99 {pct(best['total'], 0.99):.1f} ms, max {max(best['total']) * 1e3:.1f} ms "
              f"(target p99 <= 25 ms); {parts}; process CPU {best['cpu'][0]:.2f} s")
        if args.profile:
            pstats.Stats(prof).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
