"""Benchmark: ``bgtable moves --batch`` as a whole command, against a gnubg-backed script with the
same output contract, in the same run.

    python3 bench/moves_cli.py [--n 5000] [--seed 20261129] [--repeat 3] [--base COMMIT]

Writes ``--n`` seeded positions and rolls (:func:`tests.positions.sample`) as JSON lines, then
runs, each as its own process, ``--repeat`` times in turn (the machine may be shared: each
keeps its least CPU time, user + system, of the child process):

* ``bgtable moves --batch`` from this tree;
* the peer: this file with ``--peer``, the same contract (one JSON line per request,
  ``{"position", "dice", "plays": [{"play", "result"}]}``) from GNU Backgammon's C move
  generator and Position ID codec (``gnubg_nn``); its notation is written by
  :func:`referee.rules.notation.format_steps` from gnubg's steps, with the hits found by replaying
  them (gnubg gives none);
* with ``--base COMMIT``: ``bgtable moves --batch`` of that commit (``git archive`` into a
  temporary folder), whose output must be the same bytes as this tree's (checked with cmp).

Prints each side's CPU seconds, the ratio to the peer (target <= 2x, issue 19), and checks
that every line names the same results as the peer's (gnubg's play order and its choice of
steps for a result may differ: the lines whose play texts are all the same are counted).
"""
from __future__ import annotations

import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def peer() -> int:
    """The gnubg-backed ``moves --batch``: JSON lines in, one answer per line out."""
    import gnubg_nn
    sys.path.insert(0, str(ROOT))
    from referee.rules.notation import Step, path_text

    moves, from_id, from_key, to_id = (gnubg_nn.moves, gnubg_nn.board_from_position_id,
                                       gnubg_nn.boardfromkey, gnubg_nn.position_id)
    out = sys.stdout
    step = Step.__new__
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        pid = req["position"]
        d1, d2 = req["dice"]
        board = from_id(pid)
        opp = board[0]   # the opponent's side, its own numbering: my point p is its index 24 - p
        plays = []
        for key, steps in moves(board, d1, d2, 1):
            hit_at: list[int] = []
            path = []
            for a, b in steps:
                hit = 0 < b < 25 and opp[24 - b] == 1 and b not in hit_at
                if hit:
                    hit_at.append(b)
                path.append(step(Step, a, b, hit))
            after = from_key(key)   # (opponent, mover) after the play; the result has the opponent on roll
            plays.append(f'{{"play": "{path_text(tuple(path))}", "result": "{to_id([list(after[1]), list(after[0])])}"}}')
        out.write(f'{{"position": {json.dumps(pid)}, "dice": [{d1}, {d2}], "plays": [{", ".join(plays)}]}}\n')
    out.flush()
    return 0


def cpu_run(cmd: list[str], stdin: Path, stdout: Path, cwd: Path) -> float:
    """Run ``cmd`` with files for stdin and stdout; its CPU seconds (user + system)."""
    with open(stdin, "rb") as fi, open(stdout, "wb") as fo:
        proc = subprocess.Popen(cmd, stdin=fi, stdout=fo, stderr=subprocess.PIPE, cwd=cwd,
                                env={**os.environ, "PYTHONPATH": str(cwd)})
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()[-300:]}")
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--base", help="a commit whose moves --batch must write the same bytes")
    ap.add_argument("--peer", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer:
        return peer()
    sys.path.insert(0, str(ROOT))
    from tests.positions import sample

    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        inp = d / "in.jsonl"
        inp.write_text("".join(json.dumps({"position": p.position_id(), "dice": [a, b]}) + "\n"
                               for p, a, b in sample(args.seed, args.n)))
        runs = {"bgtable": ([sys.executable, "-m", "referee.cli", "moves", "--batch"], ROOT),
                "gnubg peer": ([sys.executable, str(Path(__file__).resolve()), "--peer"], ROOT)}
        if args.base:
            base = d / "base"
            base.mkdir()
            tar = subprocess.run(["git", "archive", args.base], cwd=ROOT, capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=tar, check=True)
            runs[f"bgtable at {args.base}"] = ([sys.executable, "-m", "referee.cli", "moves", "--batch"], base)
        best = {name: float("inf") for name in runs}
        for _ in range(max(1, args.repeat)):
            for name, (cmd, cwd) in runs.items():
                best[name] = min(best[name], cpu_run(cmd, inp, d / f"{name}.out", cwd))
        ours = best["bgtable"]
        print(f"{args.n} positions+rolls, each command a whole process, least CPU time of {args.repeat} runs:")
        for name, t in best.items():
            print(f"  {name}: {t:.3f} s CPU ({args.n / t:,.0f} lines/s)")
        print(f"ratio bgtable / gnubg peer: {ours / best['gnubg peer']:.2f}x (target <= 2x)")
        if args.base:
            same = filecmp.cmp(d / "bgtable.out", d / f"bgtable at {args.base}.out", shallow=False)
            print(f"ratio bgtable / bgtable at {args.base}: {ours / best[f'bgtable at {args.base}']:.2f}x; "
                  f"output {'the same bytes (cmp)' if same else 'DIFFERENT'}")
            if not same:
                return 1
        a = (d / "bgtable.out").read_text().splitlines()
        b = (d / "gnubg peer.out").read_text().splitlines()
        results = texts = 0
        for x, y in zip(a, b):
            px, py = json.loads(x)["plays"], json.loads(y)["plays"]
            results += {p["result"] for p in px} == {p["result"] for p in py}
            texts += sorted((p["result"], p["play"]) for p in px) == sorted((p["result"], p["play"]) for p in py)
        print(f"the same results as the peer on {results}/{len(a)} lines; the same play texts too on {texts}")
        return 0 if results == len(a) == len(b) else 1


if __name__ == "__main__":
    sys.exit(main())
