"""Milliseconds of CPU per 1280x720 frame, each against its target (issue 19) and a peer in the same run.

Run: python3 bench/vision_speed.py [N=60] [PASSES=3].  The machine may be shared: every figure
is CPU time (``time.process_time``: the whole process, so BLAS or OpenCV threads count too),
the best of PASSES passes.  The full read is, per board, the best of PASSES reads after two
warm-up reads (the table reads one camera's frames one after another), averaged over the N
boards.  Peers, measured in the same run: a still board is timed with the stability filter
skipping reads (the table's case) and with a full read every frame (``reread_every=1``: what
it did before); ``read --batch`` lines (JPEG files of one camera) with one kept reader and with
a new reader per line (what it did before), both ``--no-dice``, and with the dice finder
(:mod:`vision.dice`, another part's) against ``--no-dice``, both CPU of one line after another, and
the whole ``--batch`` loop's wall time (the next line's picture decoded in the read-ahead thread
while a line is read: :mod:`vision.batch`) with and without the dice.
``x3`` is the Raspberry Pi 5 estimate (about three times slower than this machine), against the
33 ms of a 30 fps camera frame.  ``--table-malloc``: the C library's memory set as ``bgtable run``
sets it (:func:`referee.table.run.steady_malloc`: a fixed 256 KiB mmap threshold, which keeps the
table's peak memory under its target); every array of 256 KiB or more a read makes afresh is then
mapped and zeroed anew, and a full read costs over twice the default's here.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.cli import read_image  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.markers import find_marker_corners  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import render_scene  # noqa: E402
from vision.stability import StabilityFilter  # noqa: E402


PASSES = 3
FRAME_MS = 1000 / 30


def ms(f: Callable[[Any], Any], frames: list) -> float:
    """Best-of-PASSES mean CPU milliseconds per call over ``frames``."""
    best = float("inf")
    for _ in range(PASSES):
        t = time.process_time()
        for fr in frames:
            f(fr)
        best = min(best, (time.process_time() - t) / len(frames) * 1000)
    return best


def line(label: str, value: float, target: float | None = None, peer: tuple[str, float] | None = None) -> None:
    """One figure, with its target, its peer and the ratio, and the Pi estimate."""
    s = f"{label}: {value:.2f} ms"
    if target is not None:
        s += f" (target <= {target:g} ms: {'met' if value <= target else 'NOT met'})"
    if peer is not None:
        s += f"; {peer[0]}: {peer[1]:.2f} ms, ratio {value / peer[1]:.2f}"
    s += f"; x3 {value * 3:.1f} ms = {value * 3 / FRAME_MS * 100:.0f} % of a 30 fps frame"
    print(s, flush=True)


def still_frames(n: int, seed: int = 5) -> tuple[np.ndarray, list[np.ndarray]]:
    """A still board: the corners and ``n`` frames with fresh sensor noise each."""
    pos = L.random_position(np.random.default_rng(seed))
    sc = render_scene(pos, seed=seed)
    return sc.corners, [render_scene(pos, seed=seed, frame=k + 1).image for k in range(n)]


def still_ms(corners: np.ndarray, frames: list[np.ndarray], **kw: int) -> float:
    """CPU ms per frame fed to a stability filter STABLE on this board for a while (a player
    thinking: the first re-reads of an unsure reading are over), over 4 seconds of frames at
    30 fps, the best of PASSES."""
    best = float("inf")
    seq = [frames[k % len(frames)] for k in range(120)]
    for _ in range(PASSES):
        sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners), **kw)
        for k, f in enumerate(seq[:60]):   # settle: quiet frames, two equal readings, the first re-reads
            sf.feed(f, t=k)
        assert sf.state.value == "stable", sf.state
        t = time.process_time()
        for k, f in enumerate(seq):
            sf.feed(f, t=k)
        best = min(best, (time.process_time() - t) / len(seq) * 1000)
    return best


def batch_jobs(n: int, folder: str) -> list[tuple[str, str]]:
    """``n`` rendered frames of one camera written to ``folder`` as JPEG files, each with its
    corners as ``read --batch`` takes them."""
    jobs = []
    for k in range(n):
        sc = render_scene(L.random_position(np.random.default_rng(k)), seed=77)
        path = str(Path(folder) / f"{k}.jpg")
        cv2.imwrite(path, sc.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        jobs.append((path, " ".join(f"{x:.1f},{y:.1f}" for x, y in sc.corners)))
    return jobs


def batch_ms(n: int, kept: bool, dice: bool = True) -> tuple[float, float]:
    """``read --batch`` CPU ms per line after the first (JPEG files of one camera, corners given),
    and of it the image decoding; ``dice``: with the dice looked for (``--no-dice`` leaves them out)."""
    with tempfile.TemporaryDirectory() as d:
        jobs = batch_jobs(n + 1, d)
        best = dec = float("inf")
        for _ in range(PASSES):
            readers: dict[tuple, Any] | None = {} if kept else None
            read_image(*jobs[0], readers=readers, dice=dice)
            t = time.process_time()
            for p, c in jobs[1:]:
                read_image(p, c, readers=readers, dice=dice)
            best = min(best, (time.process_time() - t) / n * 1000)
            t = time.process_time()
            for p, _ in jobs[1:]:
                cv2.imread(p, cv2.IMREAD_COLOR)
            dec = min(dec, (time.process_time() - t) / n * 1000)
    return best, dec


def loop_ms(n: int, dice: bool = True) -> tuple[float, float, float]:
    """The whole ``read --batch`` loop (:func:`vision.cli._batch`, stdin and stdout swapped for
    strings) over ``n`` + 1 lines: CPU of the process, CPU of the reading (main) thread and wall
    milliseconds per line after the first (a run of the first line alone taken off), the best of
    PASSES each.  The wall time is what a user waits; on a shared machine it is the noisiest."""
    import json

    from vision import cli
    from vision_batch import timed_batch   # bench/, beside this script
    with tempfile.TemporaryDirectory() as d:
        text = "".join(json.dumps({"image": p, "corners": c}) + "\n" for p, c in batch_jobs(n + 1, d))
        first = text.splitlines(keepends=True)[0]
        best = {key: [float("inf")] * 3 for key in ("all", "one")}
        for k in range(PASSES + 1):   # the first run makes the warps' maps
            for key, lines_in in (("all", text), ("one", first)):
                spent, _ = timed_batch(cli, lines_in, dice)
                if k:
                    best[key] = [min(a, b) for a, b in zip(best[key], spent)]
    cpu, main_cpu, wall = ((a - b) / n * 1000 for a, b in zip(best["all"], best["one"]))
    return cpu, main_cpu, wall


def main() -> None:
    from referee.turn.matching import evidence_position, match_reading
    from referee.rules.moves import legal_plays
    global PASSES
    cv2.setNumThreads(1)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=60, help="rendered boards (default 60)")
    ap.add_argument("passes", nargs="?", type=int, default=PASSES, help=f"passes, the best counting (default {PASSES})")
    ap.add_argument("--table-malloc", action="store_true",
                    help="the C library's memory set as `bgtable run` sets it (a fixed 256 KiB mmap threshold)")
    args = ap.parse_args()
    if args.table_malloc:
        from referee.table.run import steady_malloc
        steady_malloc()
    if args.n < 1 or args.passes < 1:
        ap.error(f"N {args.n} and PASSES {args.passes} must be at least 1")
    n, PASSES = args.n, args.passes
    scenes = [render_scene(L.random_position(np.random.default_rng(s)), seed=s) for s in range(n)]
    frames = [s.image for s in scenes]
    line("marker search", ms(find_marker_corners, frames))
    # the table's case: one camera, frame after frame; each board is read twice first (the
    # reader learns colours and set-up, the rectifier keeps its pixel maps), then timed
    # PASSES times, the best pass counting (the machine may be shared)
    for label, cfg in (("", VisionConfig()), (", trays not read", VisionConfig(trays=False))):
        times = []
        for sc in scenes:
            r = BoardReader(cfg, corners=sc.corners)
            r.read(sc.image)
            r.read(sc.image)
            best = float("inf")
            for _ in range(PASSES):
                t = time.process_time()
                r.read(sc.image)
                best = min(best, time.process_time() - t)
            times.append(best)
        line(f"full read (corners known{label}; median {np.median(times) * 1000:.1f}, {n} boards)", float(np.mean(times)) * 1000,
             10.0 if not label else None)
        if not label:
            plain = times
    # the same read once the table has learned its board (vision.memory: the learned look and
    # the odds), and the likelihood verdict over a roll's legal successors, same boards, same run
    learned, verdict = [], []
    for sc in scenes:
        r = BoardReader(VisionConfig(), corners=sc.corners)
        r.read(sc.image)
        r.learn(sc.truth)
        r.read(sc.image)
        best = float("inf")
        for _ in range(PASSES):
            t = time.process_time()
            ev = r.read(sc.image)
            best = min(best, time.process_time() - t)
        learned.append(best)
        if ev is not None:
            pos = evidence_position(sc.truth)
            cands = [lp.result.swap() for lp in legal_plays(pos, 6, 5)] or [pos]
            t = time.process_time()
            match_reading(ev, pos, cands, "dark")
            verdict.append(time.process_time() - t)
    line(f"full read with the board learned (odds from its look; median {np.median(learned) * 1000:.1f})",
         float(np.mean(learned)) * 1000, 15.0, ("the plain read above, same boards", float(np.mean(plain)) * 1000))
    if verdict:
        line("likelihood verdict over a 6-5's legal successors (median)", float(np.median(verdict)) * 1000)
    cold = []
    for sc in scenes[:20]:
        t = time.process_time()
        BoardReader(VisionConfig(), corners=sc.corners).read(sc.image)
        cold.append(time.process_time() - t)
    line("one-off read (a new reader and camera each time, median)", float(np.median(cold)) * 1000)
    corners, still = still_frames(30)
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=corners))
    sf.is_quiet(still[0])
    line("stability check, before the first stable board (band test)", ms(sf.is_quiet, still[1:]), 1.0)
    for k, f in enumerate(still[:6]):
        sf.feed(f, t=k)
    line(f"stability check, against the last stable board (state {sf.state.value})", ms(sf.is_quiet, still), 1.0)
    line("a still board, per frame (stable state, nothing moving)", still_ms(corners, still), 1.5,
         ("a full read every frame (reread_every=1)", still_ms(corners, still, reread_every=1, unsure_every=1)))
    # the dice finder (vision.dice) is timed apart: --no-dice reads the checkers only
    kept, dec = batch_ms(max(8, n // 4), kept=True, dice=False)
    fresh, _ = batch_ms(max(8, n // 4), kept=False, dice=False)
    line(f"read --batch --no-dice, per line after the first (one camera, JPEG; decoding {dec:.1f} of it)", kept, 12.0,
         ("a new reader per line", fresh))
    with_dice, _ = batch_ms(max(8, n // 4), kept=True)
    line("read --batch with the dice, per line after the first (one camera, JPEG; CPU, one line after another)",
         with_dice, 12.0, ("--no-dice, the same lines", kept))
    cpu, main_cpu, wall = loop_ms(max(8, n // 4))
    line(f"the whole read --batch loop with the dice, per line after the first: wall (CPU {cpu:.1f} ms, {main_cpu:.1f} of it in the reading thread; "
         f"load {os.getloadavg()[0]:.1f})", wall, 12.0,
         ("--no-dice, the same loop's wall", loop_ms(max(8, n // 4), False)[2]))


if __name__ == "__main__":
    main()
