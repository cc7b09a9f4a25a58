"""The edges' figures of issue 19, before and after, in one run: the stability check, a still
board per frame, and ``bgtable read --batch`` per line (with and without the dice).

Run: python3 bench/vision_batch.py [--base REV] [--rounds 3] [--lines 15] [--only stab|batch].
``--base`` (default ``main``): the commit measured as "before", exported with ``git archive``
into a temporary folder; "after" is this working tree.  Each round is a fresh child process that
imports both trees' ``vision`` (this tree's as ``vision``, the base's as ``vision_base``: the
package imports itself relatively) and times them in turn, item by item, the order alternating,
so both see the same machine; a figure is the best of the rounds (the machine may be shared: the
figures are CPU time, ``time.process_time``, OpenCV on one thread, but for the loop's wall time below),
printed with its target, the base's
figure and the ratio after / before.  The frames and lines are :mod:`bench.vision_speed`'s: a still
board of 30 rendered frames with fresh sensor noise each (the stability check), and JPEG files of
one camera, corners given (``read --batch``), the first line not counted (the warps' maps made
before: a long batch's first lines make them); with the dice also a rendered game's frames of one camera
(:func:`bench.dice_camera.game_frames`: dice thrown, checkers moved, dice lifted), whose lines, unlike
those random boards, share most of their pixels.  ``read_image`` per line is CPU time of one
thread; the whole ``--batch`` loop (stdin lines to stdout, the next line's picture decoded in a
thread while a line is read, :mod:`vision.batch`) is timed as CPU time of the process (both
threads), as CPU time of the reading (main) thread alone (what a line takes when the decoding
thread has a core of its own) and as wall time, the target being the wall time a user waits per
line (on a shared machine the noisiest figure).
"""
from __future__ import annotations

import argparse
import io
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
    "dice_game": ("read --batch with the dice, a rendered game's lines (thrown, moved, lifted), per line after the "
                  "first", 12.0),
    "loop_cpu": ("the whole read --batch --no-dice loop (stdin lines to stdout), per line after the first, CPU", None),
    "loop_main": ("... of it in the reading thread (a line's wall time with a core to spare)", None),
    "loop_wall": ("... the same, wall time (the next picture decoded while a line is read)", 12.0),
    "game_cpu": ("the whole read --batch loop with the dice, a rendered game's lines, per line after the first, CPU "
                 "(this process and the dice's child process)", None),
    "game_main": ("... of it in the reading thread", None),
    "game_wall": ("... the same, wall time (the dice found in a child process while the checkers are read)", 12.0),
}


def _pair(items: list[Any], run: dict[str, Callable[[Any], Any]]) -> dict[str, float]:
    """CPU milliseconds per item of each side's ``run`` over ``items``, the sides taking turns item
    by item (the first side alternating), so both meet the same load."""
    spent = dict.fromkeys(run, 0.0)
    sides = list(run)
    for i, item in enumerate(items):
        for side in (sides if i % 2 == 0 else sides[::-1]):
            t = time.process_time()
            run[side](item)
            spent[side] += time.process_time() - t
    return {side: v / len(items) * 1000 for side, v in spent.items()}


def child(base_pkgs: str, lines: int, only: str) -> dict[str, dict[str, float]]:
    """Both trees' figures (``base_pkgs`` holds the base's ``vision`` as ``vision_base``)."""
    import importlib
    sys.path.insert(0, str(ROOT))
    sys.path.insert(1, base_pkgs)
    import cv2
    import numpy as np
    from vision import layout as L
    from vision.render import render_scene
    from vision_speed import batch_jobs  # the same rendered JPEG lines as vision_speed's batch figure
    cv2.setNumThreads(1)
    mods = {side: {m: importlib.import_module(f"{pkg}.{m}") for m in ("cli", "config", "reader", "stability")}
            for side, pkg in (("after", "vision"), ("before", "vision_base"))}
    out: dict[str, dict[str, float]] = {"after": {}, "before": {}}

    def keep(key: str, got: dict[str, float]) -> None:
        for side, v in got.items():
            out[side][key] = v

    if only in ("", "stab"):
        pos = L.random_position(np.random.default_rng(5))
        corners = render_scene(pos, seed=5).corners
        still = [render_scene(pos, seed=5, frame=k + 1).image for k in range(30)]
        filters = {side: m["stability"].StabilityFilter(m["reader"].BoardReader(m["config"].VisionConfig(),
                                                                                 corners=corners))
                   for side, m in mods.items()}
        # each side its own copy of the frames: a camera's frame is fresh, in no cache, for each
        own = {side: [f.copy() for f in still] for side in mods}
        for side, sf in filters.items():
            sf.is_quiet(own[side][0])
        items = [k for _ in range(3) for k in range(1, len(still))]
        keep("band", _pair(items, {s: (lambda k, sf=f, fr=own[s]: sf.is_quiet(fr[k])) for s, f in filters.items()}))
        for side, sf in filters.items():
            for k in range(6):
                sf.feed(own[side][k], t=k)
            assert sf.state.value == "stable", sf.state
        items = [k for _ in range(3) for k in range(len(still))]
        keep("ref", _pair(items, {s: (lambda k, sf=f, fr=own[s]: sf.is_quiet(fr[k])) for s, f in filters.items()}))
        # a table's still board: stable for a while (the first re-reads over), then 4 s at 30 fps
        filters = {side: m["stability"].StabilityFilter(m["reader"].BoardReader(m["config"].VisionConfig(),
                                                                                 corners=corners))
                   for side, m in mods.items()}
        for side, sf in filters.items():
            for k in range(60):
                sf.feed(own[side][k % len(still)], t=k)
        keep("still", _pair(list(range(60, 180)), {s: (lambda k, sf=f, fr=own[s]: sf.feed(fr[k % len(fr)], t=k))
                                                   for s, f in filters.items()}))
    if only in ("", "batch"):
        with tempfile.TemporaryDirectory() as d:
            jobs = batch_jobs(lines + 1, d)
            for m in mods.values():   # the warps' maps made first (else line 2 builds them), as the loop's are
                throwaway: dict[tuple, Any] = {}
                for job in jobs[:3]:
                    m["cli"].read_image(*job, readers=throwaway, dice=False)
            for key, dice in (("nodice", False), ("dice", True)):
                readers: dict[str, dict[tuple, Any]] = {side: {} for side in mods}
                for side, m in mods.items():
                    m["cli"].read_image(*jobs[0], readers=readers[side], dice=dice)
                keep(key, _pair(jobs[1:], {side: (lambda job, m=m, r=readers[side], dice=dice: json.dumps(
                    m["cli"].read_image(*job, readers=r, dice=dice))) for side, m in mods.items()}))
            # a game as one camera sees it: the lines share most of their pixels (bench.dice_camera.game_frames)
            from dice_camera import game_frames
            game = []
            for k, r in enumerate(game_frames((lines + 3) // 3, 77)[: lines + 1]):
                path = str(Path(d) / f"game{k}.jpg")
                cv2.imwrite(path, r.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
                game.append((path, " ".join(f"{x:.1f},{y:.1f}" for x, y in r.corners)))
            game_text = "".join(json.dumps({"image": p, "corners": c}) + "\n" for p, c in game)
            loop = _loops({side: m["cli"] for side, m in mods.items()}, game_text, lines, dice=True)
            for side, got in loop.items():
                out[side].update({"game" + k[4:]: v for k, v in got.items() if k != "same"})
                out[side]["game_same"] = got["same"]
            kept: dict[str, dict[tuple, Any]] = {side: {} for side in mods}
            for side, m in mods.items():
                m["cli"].read_image(*game[0], readers=kept[side], dice=True)
            keep("dice_game", _pair(game[1:], {side: (lambda job, m=m, r=kept[side]: json.dumps(
                m["cli"].read_image(*job, readers=r, dice=True))) for side, m in mods.items()}))
            # each tree's own decoding of a line's file (its cli.load_image)
            keep("decode", _pair(jobs[1:], {side: (lambda job, m=m: m["cli"].load_image(job[0]))
                                            for side, m in mods.items()}))
            text = "".join(json.dumps({"image": p, "corners": c}) + "\n" for p, c in jobs)
            loop = _loops({side: m["cli"] for side, m in mods.items()}, text, lines)
            for side, got in loop.items():
                out[side].update(got)
    return out


class _Clocked(io.StringIO):
    """stdout for ``_batch``: the reading thread's CPU and the wall clock when each result line is
    flushed (``_batch`` flushes every line it prints, from the reading thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.flushed: list[tuple[float, float]] = []

    def flush(self) -> None:
        self.flushed.append((time.thread_time(), time.perf_counter()))


def timed_batch(cli: Any, lines_in: str, dice: bool = False) -> tuple[list[float], str]:
    """One whole ``read --batch`` loop of ``cli`` (a tree's :mod:`vision.cli`: its ``_batch``, stdin
    and stdout swapped for strings) over ``lines_in``: [CPU of this process and of the child processes
    it waited for (the dice's), reading-thread CPU, wall] seconds, then [reading-thread CPU, wall]
    seconds from the first line's result flushed to the last's (nan with one line: the lines after
    the first in the same run, no child process's start in them), and what it printed."""
    import resource

    def children() -> float:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        return ru.ru_utime + ru.ru_stime
    stdin, stdout = sys.stdin, sys.stdout
    out = _Clocked()
    sys.stdin, sys.stdout = io.StringIO(lines_in), out
    try:
        t, c, m, w = time.process_time(), children(), time.thread_time(), time.perf_counter()
        cli._batch(dice=dice)
        spent = [time.process_time() - t + children() - c, time.thread_time() - m, time.perf_counter() - w]
        (m0, w0), (m1, w1) = out.flushed[0], out.flushed[-1]
        spent += [m1 - m0, w1 - w0] if len(out.flushed) > 1 else [float("nan")] * 2
        return spent, out.getvalue()
    finally:
        sys.stdin, sys.stdout = stdin, stdout


def _loops(clis: dict[str, Any], text: str, lines: int, reps: int = 3,
           dice: bool = False) -> dict[str, dict[str, float]]:
    """Each side's whole ``read --batch`` loop, without the dice unless ``dice`` (its ``_batch``, stdin
    and stdout swapped for strings) over ``text``: milliseconds per line after the first, the best of
    ``reps`` runs taking turns (a fresh set of readers each run, as a new command has): CPU, the run of
    the first line alone taken off; the reading thread's CPU and the wall time from the first line's
    result to the last's in the same run (a run's own lines: the dice's child process starts before
    the first result, and its start, some 0.3 s that varies by tens of ms from run to run, is not
    taken off from another run); and ``same``, 1.0 when both sides print the same."""
    first = text.splitlines(keepends=True)[0]
    printed = {side: timed_batch(cli, text, dice)[1] for side, cli in clis.items()}   # the warps' maps made
    best = {side: {"all": [float("inf")] * 5, "one": [float("inf")] * 5} for side in clis}
    sides = list(clis)
    for r in range(reps):
        for side in (sides if r % 2 == 0 else sides[::-1]):
            for key, lines_in in (("all", text), ("one", first)):
                spent, _ = timed_batch(clis[side], lines_in, dice)
                best[side][key] = [min(a, b) for a, b in zip(best[side][key], spent)]
    same = float(len(set(printed.values())) == 1)
    return {side: {"loop_cpu": (b["all"][0] - b["one"][0]) / lines * 1000,
                   "loop_main": b["all"][3] / lines * 1000, "loop_wall": b["all"][4] / lines * 1000, "same": same}
            for side, b in best.items()}


def main(argv: list[str]) -> int:
    """Measure the base commit and this tree in turn; print each figure against its target and peer."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="main", help="the commit measured as before (default main)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--lines", type=int, default=15, help="read --batch lines after the first")
    ap.add_argument("--only", choices=("stab", "batch"), default="")
    ap.add_argument("--child", metavar="PKGS", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        print(json.dumps(child(a.child, a.lines, a.only)))
        return 0
    if a.rounds < 1 or a.lines < 1:
        ap.error(f"--rounds {a.rounds} and --lines {a.lines} must be at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        try:
            tar = subprocess.run(["git", "-C", str(ROOT), "archive", a.base], check=True, capture_output=True).stdout
        except subprocess.CalledProcessError as exc:
            ap.error(f"--base {a.base!r}: git archive failed ({exc.stderr.decode().strip()}); name a commit or branch")
        subprocess.run(["tar", "-x", "-C", str(base)], input=tar, check=True)
        pkgs = Path(tmp) / "pkgs"
        pkgs.mkdir()
        (pkgs / "vision_base").symlink_to(base / "vision")
        # the base's dice child (``python -m vision.dice_ahead``, found on the path its DiceAhead puts
        # first: this folder) is the base's too, not this tree's
        (pkgs / "vision").symlink_to(base / "vision")
        # ... and so is the ``referee`` it imports (with a relative PYTHONPATH, such as ``.``, the child,
        # started in /, found none and died: the base's dice were then found in its reading thread)
        (pkgs / "referee").symlink_to(base / "referee")
        best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
        load = os.getloadavg()[0]
        for _ in range(a.rounds):
            cmd = [sys.executable, __file__, "--child", str(pkgs), "--lines", str(a.lines)] + \
                (["--only", a.only] if a.only else [])
            got = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True, cwd="/").stdout)
            for side in best:
                for k, v in got[side].items():
                    best[side][k] = min(v, best[side].get(k, float("inf")))
        print(f"base {a.base}; {a.rounds} rounds, both trees in each, item by item; load average "
              f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
        for k, (label, target) in FIGURES.items():
            if k not in best["after"]:
                continue
            now, was = best["after"][k], best["before"][k]
            s = f"{label}: {now:.2f} ms"
            if target is not None:
                s += f" (target <= {target:g} ms: {'met' if now <= target else 'NOT met'})"
            print(s + f"; before {was:.2f} ms, ratio {now / was:.2f}", flush=True)
        for key, what in (("same", "the whole loop's output"), ("game_same", "the game's whole loop's output (dice)")):
            if key in best["after"]:
                print(f"{what}, after against before: "
                      + ("the same, byte for byte" if best["after"][key] == 1.0 else "DIFFERENT"), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
