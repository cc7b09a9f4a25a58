"""Benchmark: ``bgtable replay`` of the real match files as a whole command, before and after.

Runs ``python3 -m referee.cli replay FILE...`` (every file of the directory at once,
as a user would) in fresh processes, for this tree and for a base commit unpacked with
``git archive`` (each side imports its own ``referee``), alternating the two, and
prints plays per second of CPU time (user + sys of the child), best of N.  It then
checks that both sides print the same bytes: ``replay`` text and ``--json``, and every
``bgtable convert`` output (.mat, .sgf, .json, with its exit code and stderr).

    python3 bench/replay_cli.py [--base REV] [--repeat N] [--dir DIR]
    python3 bench/replay_cli.py --manifest OUT   # record the base's output digests (tests use them)

Issue 19, "replay: walk each game once" (2026-12-01, the shared 2-core machine at load 12-30,
so the CPU figures move by +-20 % between runs; both sides in the same run):

* before (be8ecc2), cProfile of ``main_replay`` on the 114 files, 4.58 M calls, top by own time:
  ``matfile.cells`` 0.46 s, ``matfile.action`` 0.40, ``fastcheck._walk`` 0.37 (55,310 calls,
  the recursion), ``fastcheck.fast_play`` 0.31, ``fastcheck._one_die_each`` 0.30,
  ``notation.parse_play`` 0.28 (10,223 texts), ``replay._on_move`` 0.20.  The reader already
  handed its replays to the validator (each game walked once): the time was the walk itself.
* after: 2.71 M calls (warm); ``_on_move`` (the play's bookkeeping, inline), ``matfile.cells``,
  ``fastcheck._one_die_each`` and ``_search`` (no recursion) lead; the cyclic collector's young
  passes were a tenth of the command (now run rarely).
* whole command, instructions (valgrind callgrind, the machine's load does not move them):
  8.31 G before, 5.49 G after (1.51x; Python's start and the imports are 0.65 G of each).
  CPU time of the whole command, best of 9: 2.50 -> 1.76 s = 18,058 -> 25,625 plays/s (1.42x;
  earlier runs, best of 7: 3.06 -> 2.21 s, 2.94 -> 2.35 s: the load); in one process, the files
  read and replayed once: 3.39 -> 1.88 s.  Every output identical.  The target, 30,000 plays/s,
  is not reached: about 0.2-0.3 s of the command is Python's start and the imports.

Issue 19, the second pass (2026-12-01, replay5; same machine, load 2-13).  Instructions of the
whole command (``valgrind --tool=callgrind .../bin/python3.11 -m referee.cli replay FILE...``:
the interpreter binary itself, not pyenv's shim, which callgrind does not follow): 5.80 G at
a970f71 (the merges since the first pass added about 0.3 G).
Split by phase (in process, the same files): Python's start and the imports 0.63 G (half of
it compiling our sources: the environment sets PYTHONDONTWRITEBYTECODE, so no .pyc is kept),
the readers 4.79 G, the validator's walk of the record 0.29 G.  A deterministic profile
(bytecodes per function, ``sys.settrace`` with ``f_trace_opcodes``), the top before:
``_one_die_each`` 11 %, ``_on_move`` 11 %, ``_search`` 8 %, ``matfile.cells`` 6 %,
``record.score_after`` 5 % (+ 3 % in replay_match's generators), ``matfile.action`` 5 %.
Cut, each with the same outputs (the 114 files and 550 fuzzed variants of them, digests of
every reader result, replay and writer output compared with the base tree):

* the .mat move line of two rolls split with ``str.find`` (the action pattern's look-ahead
  made ``finditer`` try a match at every column: a fifth of the instructions); in process
  5.71 -> 5.20 G;
* SGF: the whitespace after a property matched in place (``re.match`` on ``text[i:]`` copied
  the rest of the file at every property, quadratic) and a value's pattern as runs between
  escapes; 5.20 -> 4.67 G;
* replay_match: the score sequence folded once, from the actions' kinds for a game without
  score notes; ``KnownReplay.copy`` without ``dataclasses.replace``; 4.67 -> 4.44 G;
* the game-over check with ``any()`` (it summed 2 x 25 counts per play); fastcheck's plan keeps
  each segment's two steps.

Whole command: 5.80 G -> 4.32 G instructions (1.34x; 45.7 M bytecodes, 49.8 M before).  CPU
time moved far less and the runs scatter widely (the same command 2.2-3.1 s within a minute:
neighbours on the host): best of 7, same run, 2.29 -> 1.97 s = 19,700 -> 22,903 plays/s; best
of 9 in a later run 2.28 -> 2.28 s; alternating by hand, best of 6, 2.27 -> 2.11 s.  Callgrind
overstates two of the cuts: it counts each byte of a ``rep movsb`` memcpy as an instruction (the
SGF copies), and the regular expression engine's tight loops likely run more instructions a
cycle than the interpreter, whose own work is what is left.  The target, 30,000 plays/s, is
not reached.  With .pyc files kept (PYTHONDONTWRITEBYTECODE unset, as in an installed bgtable)
the imports take 0.33 G instead of 0.62 G.
Top after, by bytecodes: ``_on_move`` 11.7 %, ``_one_die_each`` 11.1 %, ``_search`` 8.7 %,
``matfile.cells`` 6.6 %, ``matfile.action`` 5.2 %, ``_step`` 4.9 %, ``fast_play`` 4.6 %.

Issue 19, the third pass (2026-12-01, replay6; the machine at load 1-12).  Instructions of the
whole command (callgrind, as above): 4.32 G at f4d0224 -> 3.61 G (0.84x; the in-process
replay's bytecodes 47.3 M -> 35.5 M).  Python's bare start is 0.14 G of it and the imports
0.58 G (0.32 G of that compiling our sources: PYTHONDONTWRITEBYTECODE), so the replay itself
went about 3.6 G -> 2.9 G.  Cut, each with every output the same (the reader results, known
replays, resolved plays, problems and check_file reports of the 114 files and 600 fuzzed
variants compared with f4d0224's by digest; fastcheck against the old fastcheck on 450,790
real and fuzzed plays):

* fastcheck: one route player for every fast play -- a play whose segments are not one die
  each (24/13, 13/7(2) with 3-3, 6/off with a 4) keeps per play and roll the steps the search
  tries first that the dice alone fix, played straight, the search running only when the board
  stops one; the play without hits kept with its route; a written move's segments kept per move;
* matfile: the common move line (two rolls, ASCII, no s or =) read by one pattern and one loop
  without the per-line calls, a new cell's play added by ``new_move`` (its Move built by
  ``actions.move_unchecked``), the Crawford flag per game without re-reading every earlier game;
* SGF: the move numbers laid out once (``problems.MoveNumbers``; the layout of the whole game at
  every node was quadratic), a value without a backslash not run through ``re.sub``;
* replay: the position kept as the last play left it (no side swapped per play); the cyclic
  collector off during the replay (still 3-4 % of the instructions at the raised threshold);
* imports: neither writer is compiled for a replay (matfile and sgf re-export them on first use);
  a cheaper character class for the two-rolls pattern (the first one took 25 ms to compile).
Tried and dropped: a per-Move route cache (no fewer bytecodes once the route came first).

The largest cut is not in those instructions: the collections at the process's exit walked
every object the readers' caches keep (170,000; 114,000 at f4d0224), 0.4-0.8 s of CPU (with
``os._exit`` after ``main``: 1.91-2.01 s -> 1.67-1.71 s; the normal exit 2.3-2.7 s).
``gc.freeze()`` when the replay ends moves them to the permanent generation (the base tree
with the same freeze: 1.75-1.92 s).  Whole command, best of 7, same run: 2.08 s -> 1.45 s =
21,686 -> 30,997 plays/s against f4d0224 (1.43x); against a970f71, with a callgrind run beside
it, 2.84 -> 1.83 s (1.55x).  Before the freeze the same trees gave 2.07 -> 2.11 s: 16 % fewer
instructions, no less CPU time (the machine scatters +-20 %).  Top after, by bytecodes:
``_play_route`` 17.6 %, ``_on_move`` 13.8 %, ``matfile._lines`` 8.8 %, ``fast_play`` 6.8 %,
``feed`` 5.0 %, ``new_move`` 4.5 %; cProfile by own time: ``_on_move`` 0.29 s, ``_lines``
0.22, ``_play_route`` 0.22, ``fast_play`` 0.19, ``new_move`` 0.11, ``feed`` 0.10 (1.42 M calls,
2.18 M before).  With the freeze the whole command is 3.34 G instructions (0.77x f4d0224's).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the commit before issue 19's replay work (the reader replayed each game, then the validator again)
BASE = "46db290"
EXTS = (".mat", ".sgf", ".json")

#: run with the working directory at a source root, so that it imports that root's ``referee``
CONVERT_ALL = r"""
import contextlib, io, json, sys
from pathlib import Path
try:
    from referee.cli.records import main_convert
except ImportError:  # before the command line became a package (46db290)
    from referee.cli_records import main_convert
files, out = json.loads(sys.argv[1]), Path(sys.argv[2])
for f in files:
    for ext in %r:
        dst = out / (Path(f).name + ext)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = main_convert([f, str(dst)])
        (out / (dst.name + ".rc")).write_text(f"{rc}\n" + err.getvalue(), encoding="utf-8")
""" % (EXTS,)


def match_files(directory: Path) -> list[Path]:
    """The match files of a directory (the same selection as bench/replay.py)."""
    return sorted(p for p in directory.iterdir()
                  if p.suffix in (".txt", ".sgf", ".mat") and p.name != "SOURCES.txt")


def unpack(rev: str, dest: Path) -> None:
    """The tree of commit ``rev`` under ``dest`` (``git archive``: no worktree, nothing registered)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def run_cli(root: Path, args: list[str]) -> tuple[bytes, float]:
    """Run ``python3 -m referee.cli ARGS`` from ``root``: its stdout and the CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=root, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"{root}: replay failed ({proc.returncode}): {proc.stderr.decode()[-500:]}")
    return proc.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def convert_all(root: Path, files: list[str], out: Path) -> dict[str, bytes]:
    """Every convert output of ``files`` made by ``root``'s code: name -> bytes."""
    out.mkdir()
    subprocess.run([sys.executable, "-c", CONVERT_ALL, json.dumps(files), str(out)], cwd=root, check=True)
    return {p.name: p.read_bytes() for p in sorted(out.iterdir())}


def plays_of(json_out: bytes) -> int:
    return sum(f["plays"] for f in json.loads(json_out)["files"])


def manifest(root: Path, files: list[str]) -> dict[str, dict[str, str]]:
    """SHA-256 of every output ``root``'s code gives per file: replay text and --json, converts."""
    out: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        conv = convert_all(root, files, Path(tmp) / "conv")
        for f in files:
            name = Path(f).name
            d = {"replay": run_cli(root, ["replay", f])[0], "replay_json": run_cli(root, ["replay", "--json", f])[0]}
            for ext in EXTS:
                d[ext] = conv[name + ext]
                d[ext + ".rc"] = conv[name + ext + ".rc"]
            out[name] = {k: hashlib.sha256(v).hexdigest() for k, v in d.items()}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BASE, help="the commit to compare with (default: before the replay work)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per side (the best is reported)")
    ap.add_argument("--dir", default="tests/data/matches", help="the match files (relative to the roots)")
    ap.add_argument("--manifest", metavar="OUT", help="write the base's output digests to OUT and stop")
    args = ap.parse_args()
    files = [str(p.relative_to(ROOT)) for p in match_files(ROOT / args.dir)]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        unpack(args.base, base)
        if args.manifest:
            Path(args.manifest).write_text(json.dumps({"base": args.base, "files": manifest(base, files)},
                                                      indent=1, sort_keys=True) + "\n")
            return 0
        best = {"base": float("inf"), "this": float("inf")}
        outs: dict[str, bytes] = {}
        for _ in range(args.repeat):
            for side, root in (("base", base), ("this", ROOT)):
                out, cpu = run_cli(root, ["replay", *files])
                best[side] = min(best[side], cpu)
                outs.setdefault(side, out)
                if outs[side] != out:
                    raise RuntimeError(f"{side}: two runs printed different output")
        json_b, json_t = run_cli(base, ["replay", "--json", *files])[0], run_cli(ROOT, ["replay", "--json", *files])[0]
        plays = plays_of(json_t)
        conv_b = convert_all(base, files, Path(tmp) / "conv_base")
        conv_t = convert_all(ROOT, files, Path(tmp) / "conv_this")
    same_text, same_json = outs["base"] == outs["this"], json_b == json_t
    diff = sorted(k for k in conv_b.keys() | conv_t.keys() if conv_b.get(k) != conv_t.get(k))
    print(f"files: {len(files)}  plays: {plays}  (base {args.base}; CPU time of the whole command, "
          f"best of {args.repeat})")
    for side in ("base", "this"):
        print(f"{side:5s}: {best[side]:.2f} s  = {plays / best[side]:,.0f} plays/s")
    print(f"speed-up: {best['base'] / best['this']:.2f}x")
    print(f"replay text identical: {same_text}; --json identical: {same_json}; "
          f"convert outputs identical: {not diff} ({len(conv_t)} files compared)" + (f"; differ: {diff[:5]}" if diff else ""))
    return 0 if same_text and same_json and not diff else 1


if __name__ == "__main__":
    os.environ.pop("PYTHONPATH", None)
    sys.exit(main())
