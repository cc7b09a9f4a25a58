"""Benchmark: the peak memory of ``bgtable run`` with every part, on simulated devices.

    python3 bench/run_memory.py [--seconds 20] [--rolls 4] [--camera render|replay] [--tracemalloc 15]

The real ``bgtable run`` process (``python3 -m referee.cli run``) with every part
configured: the camera on the synthetic renderer at 1280x720 (``[camera] source =
"render"``) read by the real vision pipeline, the simulated dice reader on a pty (it rolls
and lifts a few times), the buttons and an LED cube display on gpiozero's mock pins, the
pygame screen on SDL's dummy driver.  ``--camera replay`` gives the same camera's frames as
recorded JPEG pictures instead (``--frames`` of them, made before the run, decoded by OpenCV as a
USB camera's MJPG frames are): the parts a real table runs, without the renderer, which only
stands in for the camera.  Prints the child's peak memory (its ``VmHWM`` at exit; ``wait4``'s
max RSS would keep the forked bench's own size), target <= 120 MB.  ``--tracemalloc N`` runs the
same command under ``tracemalloc`` and prints its top N allocation sites at the peak (Python's own
allocations only: NumPy and OpenCV buffers count, the libraries' code does not).

Figures (VmHWM, 2 runs each, interleaved, load 5-14): main e7ea35a replay 125/125, render 132/131 MB;
with lean4b's vision changes (fresh large working arrays, a warp's maps built in strips, int32 ring
indices, one frame copy in the dice watch) replay 113/113, render 119/119 MB.  On 34f47b6 the peak came with the
dice watch's first whole-board search (its pip-like spots' planes at 64 px per point width).  On b2ceb72 (3
runs each, interleaved, load 5): render 120.6/120.6/120.6 MB (VmHWM kB / 1024), the peak in the reader's rim
maps (vision.rims) some 2-6 s in; with the render camera's empty board no longer kept (render_board's
``_empty_board`` cache, 1.1 MB, when ``cache=False``) 119.6/119.6/119.6 MB.

The camera shows the starting position throughout: what a whole match adds (the screen's labels
for pips, plays and messages, the learned board) is not in this figure; ``bgtable demo`` with its
screen on SDL's dummy driver plays one.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from firmware_bridge.sim import SimulatedReader  # noqa: E402

CONFIG = """
[players]
dark = "Ann"
light = "Bob"
[camera]
{camera}
resolution = [1280, 720]
fps = 15
[dice]
port = "{port}"
[rules]
match_to = 3
[cube_display]
type = "leds"
owner_pins = [16, 20, 21]
value_pins = [4, 7, 8, 9, 10, 11]
[journal]
directory = "{journal}"
"""

HWM = """
import atexit, sys
def hwm():
    with open("/proc/self/status") as f:
        kb = next(int(l.split()[1]) for l in f if l.startswith("VmHWM"))
    print(f"BENCH-PEAK {kb}", file=sys.stderr, flush=True)
atexit.register(hwm)
from referee.cli import main
sys.exit(main(sys.argv[1:]))
"""

TRACED = """
import os, sys, threading, time, tracemalloc
tracemalloc.start(1)
best = {"rss": 0, "snap": None, "traced": 0}

def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) // 1024 for l in f if l.startswith("VmRSS"))

def watch():  # a snapshot whenever the resident size reaches a new high
    while True:
        r = rss()
        if r > best["rss"] + 2:
            best.update(rss=r, snap=tracemalloc.take_snapshot(), traced=tracemalloc.get_traced_memory()[0])
        time.sleep(0.25)

threading.Thread(target=watch, daemon=True).start()
from referee.cli import main
try:
    code = main(sys.argv[1:])
finally:
    print(f"tracemalloc at the highest RSS ({best['rss']} MB): {best['traced'] / 2**20:.1f} MB traced", file=sys.stderr)
    for s in best["snap"].statistics("lineno")[:int(os.environ["BENCH_TOP"])]:
        print(f"  {s.size / 2**20:7.2f} MB {s.count:7d}x {s.traceback[0]}", file=sys.stderr)
sys.exit(code)
"""

def record(folder: Path, frames: int, distinct: int = 30) -> Path:
    """``frames`` JPEG pictures of the render camera (``[camera] source = "render"``, device 3: the
    start position, each frame with its own sensor noise) in ``folder``, in name order: ``distinct``
    of them written, the rest links to them.  Read one by one they are decoded by OpenCV's libjpeg,
    as a USB camera's MJPG frames are; a single picture would be read once and the camera would
    then give nothing (no stable board, no dice search)."""
    import cv2  # noqa: PLC0415
    from vision.sources import RenderSource  # noqa: PLC0415
    folder.mkdir()
    source = RenderSource(seed=3)
    for i in range(frames):
        path = folder / f"{i:05d}.jpg"
        if i < distinct:
            cv2.imwrite(str(path), source.read())
        else:
            path.symlink_to(folder / f"{i % distinct:05d}.jpg")
    return folder


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=20.0, help="how long the table runs")
    ap.add_argument("--camera", choices=("render", "replay"), default="render",
                    help="render: the synthetic renderer in the process; replay: its frames recorded as 1280x720 JPEGs")
    ap.add_argument("--frames", type=int, default=900, help="replay: how many frames the camera gives")
    ap.add_argument("--rolls", type=int, default=4, help="dice rolls (and lifts) during the run")
    ap.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                    help="an environment variable for the run (e.g. MALLOC_ARENA_MAX=2), again for more")
    ap.add_argument("--tracemalloc", type=int, default=0, metavar="N", help="print the top N allocation sites")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bgtable-mem-"))
    sim = SimulatedReader(seed=5).start()
    try:
        cfg = tmp / "table.toml"
        if args.camera == "replay":  # recorded frames: the renderer stays out of the process
            camera = f'source = "replay"\npath = "{record(tmp / "frames", args.frames)}"'
        else:
            camera = 'source = "render"\ndevice = 3'
        cfg.write_text(CONFIG.format(port=sim.port_path, journal=tmp / "journal", camera=camera))
        (tmp / "journal").mkdir()
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "GPIOZERO_PIN_FACTORY": "mock", "PYTHONPATH": str(ROOT), "BENCH_TOP": str(args.tracemalloc),
               **dict(kv.split("=", 1) for kv in args.env)}
        run = ["run", "--config", str(cfg), "--max-seconds", str(args.seconds)]
        cmd = [sys.executable, "-c", TRACED if args.tracemalloc else HWM, *run]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines: list[str] = []
        errors: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout or ()), daemon=True)
        reader.start()
        err_reader = threading.Thread(target=lambda: errors.extend(proc.stderr or ()), daemon=True)
        err_reader.start()
        high: dict[str, int] = {}

        def sample() -> None:  # the resident kinds at the highest RSS seen (VmHWM is the peak)
            try:
                with open(f"/proc/{proc.pid}/status") as f:
                    st = {line.split(":")[0]: int(line.split()[1]) // 1024 for line in f
                          if line.startswith(("VmRSS", "Rss", "VmHWM"))}
            except (OSError, ValueError):
                return
            if st.get("VmHWM", 0) > high.get("VmHWM", 0) and os.environ.get("BENCH_TIMELINE"):
                print(f"  {time.perf_counter() - t0:5.2f} s: {st}", flush=True)
            if st.get("VmRSS", 0) > high.get("VmRSS", 0):
                high.update(st)
            high["VmHWM"] = max(high.get("VmHWM", 0), st.get("VmHWM", 0))

        for i in range(args.rolls):  # a few throws while the table runs
            end = time.monotonic() + args.seconds / (args.rolls + 2)
            while time.monotonic() < end:
                sample()
                time.sleep(0.05)
            sim.roll([(i % 6) + 1, ((i + 2) % 6) + 1], zone="right")
            time.sleep(0.5)
            sim.lift()
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            sample()
            time.sleep(0.05)
        reader.join()
        err_reader.join()
        out = "".join(lines)
        peak = [int(e.split()[1]) for e in errors if e.startswith("BENCH-PEAK")]
        sys.stderr.write("".join(e for e in errors if not e.startswith("BENCH-PEAK")))
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        sim.stop()
        shutil.rmtree(tmp, ignore_errors=True)  # the config, the journal and the recorded frames
    wall = time.perf_counter() - t0
    decided = sum(1 for line in out.splitlines() if not line.startswith(("INFO", "WARNING", "ERROR")))
    print(f"bgtable run, every part ({args.camera} camera 1280x720, pty dice, mock GPIO buttons and cube, screen on "
          f"SDL dummy): {wall:.1f} s, exit {proc.returncode}, {decided} decision lines; CPU "
          f"{usage.ru_utime + usage.ru_stime:.1f} s")
    # the process's own high-water mark (VmHWM at its exit): wait4's ru_maxrss is no good here, it keeps
    # the high-water mark of the forked bench process from before the exec
    own = f"{peak[0] / 1024:.0f} MB" if peak else "unknown (the process did not reach its exit)"
    print(f"peak memory of the bgtable run process (VmHWM): {own} (target <= 120 MB); wait4 ru_maxrss "
          f"{usage.ru_maxrss / 1024:.0f} MB; at the highest RSS sample: "
          + ", ".join(f"{k} {v} MB" for k, v in high.items()))
    if proc.returncode != 0:
        print(out[-2000:])


if __name__ == "__main__":
    main()
