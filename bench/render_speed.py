"""Milliseconds to render one 1280x720 frame, with the default options and a real table's.

Run: python3 bench/render_speed.py [N=60] [PASSES=3].  Each figure is the best of PASSES passes
(the mean over N frames, a hand in every fourth) after one warm-up pass: the machine may be
shared, and the renderer caches lens maps and checker faces.  Wall time and the process's CPU
time (one thread: the time a frame costs when the machine is not busy with others) are both given.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402


def main() -> None:
    cv2.setNumThreads(1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=60, help="frames a pass (default 60)")
    ap.add_argument("passes", nargs="?", type=int, default=3, help="passes, the best counting (default 3)")
    args = ap.parse_args()
    if args.n < 1 or args.passes < 1:
        ap.error(f"N {args.n} and PASSES {args.passes} must be at least 1")
    n, passes = args.n, args.passes
    positions = [L.random_position(np.random.default_rng(s), tall=0.3) for s in range(n)]
    for name, params in (("defaults", RenderParams()), ("real table", RenderParams.real_table()),
                         ("real table, narrow bar", RenderParams.real_table(bar=0.75))):
        wall, cpu = [], []
        for _ in range(passes + 1):
            t, c = time.perf_counter(), time.process_time()
            for s, pos in enumerate(positions):
                render_scene(pos, params, seed=s, hand=s % 4 == 0)
            wall.append((time.perf_counter() - t) / n * 1000)
            cpu.append((time.process_time() - c) / n * 1000)
        print(f"render ({name}): {min(wall[1:]):.1f} ms per frame wall, {min(cpu[1:]):.1f} ms CPU"
              f" (best of {passes} passes over {n} frames)")


if __name__ == "__main__":
    main()
