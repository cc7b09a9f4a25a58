"""Milliseconds per 1280x720 frame: a full read and the per-frame stability check (one core).

Run: python3 bench/vision_speed.py [N=60] [PASSES=3].  The machine may be shared: every figure is
the best of PASSES passes (each pass's mean over N frames), and the full read's median is shown too.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.markers import find_marker_corners  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import render_scene  # noqa: E402
from vision.stability import StabilityFilter  # noqa: E402


PASSES = 3


def ms(f, frames) -> float:
    """Best-of-PASSES mean milliseconds per call over ``frames``."""
    best = float("inf")
    for _ in range(PASSES):
        t = time.perf_counter()
        for fr in frames:
            f(fr)
        best = min(best, (time.perf_counter() - t) / len(frames) * 1000)
    return best


def main() -> None:
    global PASSES
    cv2.setNumThreads(1)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    PASSES = int(sys.argv[2]) if len(sys.argv) > 2 else PASSES
    scenes = [render_scene(L.random_position(np.random.default_rng(s)), seed=s) for s in range(n)]
    frames = [s.image for s in scenes]
    t = time.perf_counter()
    for s in range(n):
        render_scene(L.random_position(np.random.default_rng(s)), seed=s)
    print(f"render: {(time.perf_counter() - t) / n * 1000:.1f} ms per frame")
    print(f"marker search: {ms(find_marker_corners, frames):.1f} ms per frame")
    readers = [BoardReader(VisionConfig(), corners=sc.corners) for sc in scenes]
    for r, sc in zip(readers, scenes):
        r.read(sc.image)  # the first read learns the colours and the set-up
    passes = []
    for _ in range(PASSES):
        times = []
        for r, sc in zip(readers, scenes):
            t = time.perf_counter()
            r.read(sc.image)
            times.append(time.perf_counter() - t)
        passes.append(times)
    best = min(passes, key=np.mean)
    print(f"full read (corners known): {np.mean(best) * 1000:.1f} ms per frame (median {np.median(best) * 1000:.1f};"
          f" best of {PASSES} passes over {n} frames)")
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=scenes[0].corners))
    sf.is_quiet(frames[0])
    same = [frames[0]] * n
    print(f"stability check, before the first stable board (band test): {ms(sf.is_quiet, same):.2f} ms per frame")
    for k in range(4):
        sf.feed(frames[0], t=k)
    print(f"stability check, against the last stable board: {ms(sf.is_quiet, same):.2f} ms per frame (state {sf.state.value})")


if __name__ == "__main__":
    main()
