"""The dice finder's CPU per ``read --batch`` line, this tree's against a base commit's, and the same dice.

Run: python3 bench/dice_speed.py [--base COMMIT] [--lines N] [--cameras K] [--passes P] [--rounds R].
The lines are those of ``bench/vision_speed.py``'s ``read --batch`` loop (JPEG pictures of one camera, each
an unrelated random board; K cameras, N lines each), their dice found as ``read --batch``'s child process
finds them (:class:`vision.dice_carry.DiceCarry`, OpenCV on one thread).  The base commit is checked out
into a temporary worktree (``git worktree add --detach``, removed after) and each tree runs in its own
process, the two in turn R times (the machine may be shared): per tree the best of its runs, each the best
of P passes of CPU per line after each camera's first.  Every line's dice and close looks (their ``repr``:
every float in full) must be the same in both trees, else the run fails.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def write_lines(folder: Path, cameras: int, lines: int) -> list[list[tuple[str, str]]]:
    """``lines`` rendered pictures per camera (render seeds 77, 78, ...; random boards) written to ``folder``
    as JPEG files (quality 90, as ``bench/vision_speed.py`` writes them), each with its corners."""
    sys.path.insert(0, str(ROOT))
    import cv2
    import numpy as np

    from vision import layout as L
    from vision.render import render_scene
    out = []
    for cam in range(cameras):
        jobs = []
        for k in range(lines):
            sc = render_scene(L.random_position(np.random.default_rng(k)), seed=77 + cam)
            path = folder / f"{cam}_{k}.jpg"
            cv2.imwrite(str(path), sc.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
            jobs.append((str(path), " ".join(f"{x:.1f},{y:.1f}" for x, y in sc.corners)))
        out.append(jobs)
    return out


def measure(jobs: list[list[tuple[str, str]]], passes: int) -> dict:
    """In a tree's own process (this file run with ``--measure``): CPU ms per line after each camera's first
    (the best of ``passes``), and every timed line's dice and close looks as text, and their digest."""
    import cv2
    import numpy as np

    from vision.dice_carry import DiceCarry
    cv2.setNumThreads(1)
    cams = [[(cv2.imread(p, cv2.IMREAD_COLOR), np.array([[float(v) for v in xy.split(",")] for xy in c.split()]))
             for p, c in cam] for cam in jobs]
    best = float("inf")
    text: list[str] = []
    for k in range(passes):
        spent = lines = 0.0
        for cam in cams:
            carry = DiceCarry()
            carry.find(*cam[0])
            t = time.process_time()
            for img, corners in cam[1:]:
                found = carry.find(img, corners)
                if not k:
                    text.append(repr(found) + repr(sorted(carry.looks.items())))
            spent += time.process_time() - t
            lines += len(cam) - 1
        best = min(best, spent / lines * 1000)
    return {"cpu": best, "digest": hashlib.sha256("\n".join(text).encode()).hexdigest(), "lines": text}


def run_tree(tree: Path, jobs_file: Path, passes: int) -> dict:
    """:func:`measure` in a fresh process importing the package from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    got = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--measure", str(jobs_file),
                          "--passes", str(passes)], cwd=tree, env=env, capture_output=True, text=True)
    if got.returncode:
        sys.exit(f"{tree}: {got.stderr}")
    return json.loads(got.stdout)


def main() -> None:
    """Both trees measured in turn; their CPU per line, the ratio and whether every line's dice are the same."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="main", help="the commit to compare with (default main)")
    ap.add_argument("--lines", type=int, default=9, help="lines per camera, the first not timed (default 9)")
    ap.add_argument("--cameras", type=int, default=3, help="cameras (default 3)")
    ap.add_argument("--passes", type=int, default=5, help="passes per run, the best counting (default 5)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each tree, in turn (default 3)")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        # (the package from PYTHONPATH's tree alone: this folder's scripts, bench/referee.py among them, not first)
        sys.path[:] = [q for q in sys.path if Path(q or ".").resolve() != Path(__file__).resolve().parent]
        print(json.dumps(measure(json.loads(Path(args.measure).read_text()), args.passes)))
        return
    if args.lines < 2 or args.cameras < 1 or args.passes < 1 or args.rounds < 1:
        ap.error("at least 2 lines, 1 camera, 1 pass and 1 round")
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        jobs_file = folder / "jobs.json"
        jobs_file.write_text(json.dumps(write_lines(folder, args.cameras, args.lines)))
        base = folder / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT, check=True,
                       capture_output=True)
        try:
            runs: dict[str, list[dict]] = {"base": [], "new": []}
            for _ in range(args.rounds):
                runs["base"].append(run_tree(base, jobs_file, args.passes))
                runs["new"].append(run_tree(ROOT, jobs_file, args.passes))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=True)
    lines = args.cameras * (args.lines - 1)
    cpu = {k: min(r["cpu"] for r in v) for k, v in runs.items()}
    print(f"dice finder (DiceCarry.find), CPU per line after each camera's first ({lines} lines, best of "
          f"{args.rounds} runs x {args.passes} passes; load {os.getloadavg()[0]:.1f}):")
    each = {k: ", ".join(f"{r['cpu']:.2f}" for r in v) for k, v in runs.items()}
    print(f"  base {args.base}: {cpu['base']:.2f} ms ({each['base']})")
    print(f"  this tree: {cpu['new']:.2f} ms ({each['new']}); ratio {cpu['new'] / cpu['base']:.3f}")
    digests = {r["digest"] for v in runs.values() for r in v}
    if len(digests) != 1:
        a, b = runs["base"][0]["lines"], runs["new"][0]["lines"]
        k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        sys.exit(f"the dice differ: first on timed line {k}")
    print(f"  the same dice and close looks on all {lines} lines, every run (sha256 {digests.pop()[:16]})")


if __name__ == "__main__":
    main()
