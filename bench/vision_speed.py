"""Milliseconds per 1280x720 frame: a full read and the per-frame stability check (one core).

Run: python3 bench/vision_speed.py [N=60].
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


def ms(f, frames) -> float:
    t = time.perf_counter()
    for fr in frames:
        f(fr)
    return (time.perf_counter() - t) / len(frames) * 1000


def main() -> None:
    cv2.setNumThreads(1)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    scenes = [render_scene(L.random_position(np.random.default_rng(s)), seed=s) for s in range(n)]
    frames = [s.image for s in scenes]
    t = time.perf_counter()
    for s in range(n):
        render_scene(L.random_position(np.random.default_rng(s)), seed=s)
    print(f"render: {(time.perf_counter() - t) / n * 1000:.1f} ms per frame")
    print(f"marker search: {ms(find_marker_corners, frames):.1f} ms per frame")
    times = []
    for sc in scenes:
        r = BoardReader(VisionConfig(), corners=sc.corners)
        r.read(sc.image)
        t = time.perf_counter()
        r.read(sc.image)
        times.append(time.perf_counter() - t)
    print(f"full read (corners known): {np.mean(times) * 1000:.1f} ms per frame (median {np.median(times) * 1000:.1f})")
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=scenes[0].corners))
    sf.is_quiet(frames[0])
    same = [frames[0]] * n
    print(f"stability check, before the first stable board (band test): {ms(sf.is_quiet, same):.2f} ms per frame")
    for k in range(4):
        sf.feed(frames[0], t=k)
    print(f"stability check, against the last stable board: {ms(sf.is_quiet, same):.2f} ms per frame (state {sf.state.value})")

if __name__ == "__main__":
    main()
