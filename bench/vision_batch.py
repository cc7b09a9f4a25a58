"""The edges' figures of issue 19, before and after, in one run: the stability check, a still
board per frame, and ``bgtable read --batch`` per line (with and without the dice).

Run: python3 bench/vision_batch.py [--base REV] [--rounds 3] [--lines 15] [--only stab|batch].
``--base`` (default ``main``): the commit measured as "before", exported with ``git archive``
into a temporary folder; "after" is this working tree.  Each round measures both, in turn
(the order alternates), each in a fresh child process (``--child ROOT``) that imports that
tree's ``vision``; a figure is the best of the rounds (the machine may be shared: every figure is
CPU time, ``time.process_time``, OpenCV on one thread), printed with its target, the other side
and the ratio after / before.  The frames and lines are :mod:`bench.vision_speed`'s: a still board
of 30 rendered frames with fresh sensor noise each (the stability check), and JPEG files of one
camera, corners given (``read --batch``), the first line not counted.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent

#: figure -> (label, target ms or None)
FIGURES = {
    "band": ("stability check, before the first stable board (band test)", 1.0),
    "ref": ("stability check, against the last stable board", 1.0),
    "still": ("a still board, per frame (stable state, nothing moving)", 1.5),
    "nodice": ("read --batch --no-dice, per line after the first (one camera, JPEG)", 12.0),
    "decode": ("... of it the JPEG decoding", None),
    "dice": ("read --batch with the dice, per line after the first", None),
}


def _best(f: Callable[[], None], n: int, passes: int) -> float:
    """Best-of-``passes`` CPU milliseconds per item of ``f()`` (which handles ``n`` items)."""
    best = float("inf")
    for _ in range(passes):
        t = time.process_time()
        f()
        best = min(best, (time.process_time() - t) / n * 1000)
    return best


def child(root: str, lines: int, only: str, passes: int) -> dict[str, float]:
    """The figures of the tree at ``root`` (its ``vision`` imported), as JSON-ready floats."""
    sys.path.insert(0, root)
    import cv2
    import numpy as np
    from vision import layout as L
    from vision.cli import read_image
    from vision.config import VisionConfig
    from vision.reader import BoardReader
    from vision.render import render_scene
    from vision.stability import StabilityFilter
    cv2.setNumThreads(1)
    out: dict[str, float] = {}
    if only in ("", "stab"):
        pos = L.random_position(np.random.default_rng(5))
        corners = render_scene(pos, seed=5).corners
        still = [render_scene(pos, seed=5, frame=k + 1).image for k in range(30)]
        sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
        sf.is_quiet(still[0])
        out["band"] = _best(lambda: [sf.is_quiet(f) for f in still[1:]], len(still) - 1, passes)
        for k, f in enumerate(still[:6]):
            sf.feed(f, t=k)
        assert sf.state.value == "stable", sf.state
        out["ref"] = _best(lambda: [sf.is_quiet(f) for f in still], len(still), passes)
        seq = [still[k % len(still)] for k in range(120)]
        best = float("inf")
        for _ in range(passes):
            sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
            for k, f in enumerate(seq[:60]):
                sf.feed(f, t=k)
            t = time.process_time()
            for k, f in enumerate(seq):
                sf.feed(f, t=k)
            best = min(best, (time.process_time() - t) / len(seq) * 1000)
        out["still"] = best
    if only in ("", "batch"):
        with tempfile.TemporaryDirectory() as d:
            jobs = []
            for k in range(lines + 1):
                sc = render_scene(L.random_position(np.random.default_rng(k)), seed=77)
                path = str(Path(d) / f"{k}.jpg")
                cv2.imwrite(path, sc.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
                jobs.append((path, " ".join(f"{x:.1f},{y:.1f}" for x, y in sc.corners)))
            for key, dice in (("nodice", False), ("dice", True)):
                readers: dict[tuple, Any] = {}
                read_image(*jobs[0], readers=readers, dice=dice)
                out[key] = _best(lambda: [json.dumps(read_image(p, c, readers=readers, dice=dice))
                                          for p, c in jobs[1:]], lines, passes)
            out["decode"] = _best(lambda: [cv2.imread(p, cv2.IMREAD_COLOR) for p, _ in jobs[1:]], lines, passes)
    return out


def main(argv: list[str]) -> int:
    """Measure the base commit and this tree in turn; print each figure against its target and peer."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="the commit measured as before (default main)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lines", type=int, default=15, help="read --batch lines after the first")
    ap.add_argument("--passes", type=int, default=2, help="passes per child, the best counting")
    ap.add_argument("--only", choices=("stab", "batch"), default="")
    ap.add_argument("--child", metavar="ROOT", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(child(a.child, a.lines, a.only, a.passes)))
        return 0
    if a.rounds < 1 or a.lines < 1:
        ap.error(f"--rounds {a.rounds} and --lines {a.lines} must be at least 1")
    with tempfile.TemporaryDirectory() as base:
        try:
            tar = subprocess.run(["git", "-C", str(ROOT), "archive", a.base], check=True, capture_output=True).stdout
        except subprocess.CalledProcessError as exc:
            ap.error(f"--base {a.base!r}: git archive failed ({exc.stderr.decode().strip()}); name a commit or branch")
        subprocess.run(["tar", "-x", "-C", base], input=tar, check=True)
        sides = {"before": base, "after": str(ROOT)}
        best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
        load = os.getloadavg()[0]
        for r in range(a.rounds):
            for side in (("before", "after") if r % 2 == 0 else ("after", "before")):
                cmd = [sys.executable, __file__, "--child", sides[side], "--lines", str(a.lines),
                       "--passes", str(a.passes)] + (["--only", a.only] if a.only else [])
                got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, cwd="/").stdout)
                for k, v in got.items():
                    best[side][k] = min(v, best[side].get(k, float("inf")))
        print(f"base {a.base}; {a.rounds} rounds, interleaved; load average {load:.1f} at the start, "
              f"{os.getloadavg()[0]:.1f} at the end")
        for k, (label, target) in FIGURES.items():
            if k not in best["after"]:
                continue
            now, was = best["after"][k], best["before"][k]
            s = f"{label}: {now:.2f} ms"
            if target is not None:
                s += f" (target <= {target:g} ms: {'met' if now <= target else 'NOT met'})"
            print(s + f"; before {was:.2f} ms, ratio {now / was:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
