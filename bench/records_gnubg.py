"""Benchmark: do bgtable's records open in GNU Backgammon exactly as the games were played?

Three sweeps, each judged by gnubg itself (``gnubg -t -q``, tests/gnubg_check.py):

1. real files (``--dir``, default /work/shared/matches): round trips .mat -> SGF -> .mat and
   SGF -> .mat -> SGF (byte-equal output, and the same plays, step order, cube actions,
   results and header tags), then our .mat and SGF of each loaded into gnubg: warnings,
   positions that differ from the replay, and plays whose steps gnubg holds in another
   order from the SGF than from the .mat (issue 16.7 found 148 of 806);
2. simulated matches (``--seeds`` per rate set) through the real table core at several
   rates of illegal moves, accepted illegal moves, early rolls and corrections: their
   .mat and SGF loaded into gnubg, every position compared with the table's.

Prints one line per sweep with its counts; exit 1 if anything differs.

    python3 bench/records_gnubg.py [--dir DIR] [--seeds N] [--match-to N]
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.cli.records import read_file  # noqa: E402
from referee.records.matfile import read_mat, writable_actions, write_mat  # noqa: E402
from referee.records.actions import Correction, IllegalAccepted, Move  # noqa: E402
from referee.records.replay import replay_match  # noqa: E402
from referee.records.sgf import read_sgf, write_sgf  # noqa: E402
from referee.table.simtable import Rates  # noqa: E402
from tests.gnubg_check import compare, run_gnubg  # noqa: E402
from tests.referee.records.test_records_trust import _signature  # noqa: E402

RATE_SETS = {
    "illegal": Rates(illegal=0.25, accept_illegal=0.5, early_roll=0.02),
    "accepted": Rates(illegal=0.2, accept_illegal=0.9, early_roll=0.05),
    "early": Rates(illegal=0.1, accept_illegal=0.5, early_roll=0.3),
    "faulty": Rates(double=0.15, take=0.6, illegal=0.15, accept_illegal=0.5, cocked=0.05, outside=0.05,
                    on_checker=0.05, early_roll=0.1),
}


def _warnings(output: str) -> int:
    return sum(1 for ln in output.splitlines() if "WARNING" in ln or "garbage" in ln)


def real_files(folder: Path, tmp: Path) -> bool:
    files = sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".sgf", ".mat") and p.name != "SOURCES.txt")
    t0 = time.perf_counter()
    bad_trip, records, jobs = [], {}, []
    for i, path in enumerate(files):
        rec, problems, _ = read_file(path)
        mat, sgf = write_mat(rec), write_sgf(rec)
        a, b = read_sgf(sgf), read_mat(mat)
        held = replace(rec, games=tuple(g.with_actions(writable_actions(g)) for g in rec.games))  # what .mat holds
        same = (not problems and not a.problems and not b.problems and write_mat(a.record) == mat
                and write_sgf(b.record) == write_sgf(held) and _signature(a.record) == _signature(rec)
                and _signature(b.record) == _signature(held))
        if not same:
            bad_trip.append(path.name)
        records[i] = rec
        (tmp / f"r{i}.mat").write_text(mat, encoding="utf-8")
        (tmp / f"r{i}.sgf").write_text(sgf, encoding="utf-8")
        jobs += [(f"mat:{i}", "import mat", tmp / f"r{i}.mat"), (f"sgf:{i}", "load match", tmp / f"r{i}.sgf")]
    t_trip = time.perf_counter() - t0
    result, output = run_gnubg(tmp, jobs, timeout=3600)
    diffs = {f"{fmt}:{files[i].name}": compare(rec, result[f"{fmt}:{i}"], fmt)
             for i, rec in records.items() for fmt in ("mat", "sgf")}
    wrong = [k for k, v in diffs.items() if v]
    plays = order = 0
    for i in records:
        m = [a["move"] for g in result[f"mat:{i}"]["games"] for a in g["game"] if a["action"] == "move"]
        s = [a["move"] for g in result[f"sgf:{i}"]["games"] for a in g["game"] if a["action"] == "move"]
        plays += len(m)
        order += sum(1 for x, y in zip(m, s) if x != y) + abs(len(m) - len(s))
    print(f"real files: {len(files)} files, {plays} plays; round trips differing: {len(bad_trip)}; "
          f"gnubg warnings: {_warnings(output)}; files whose gnubg positions differ: {len(wrong)}; "
          f"plays in another step order SGF vs .mat: {order} of {plays} "
          f"({t_trip:.1f} s round trips, {time.perf_counter() - t0:.1f} s total)")
    for name in bad_trip[:5]:
        print(f"  round trip differs: {name}")
    for k in wrong[:5]:
        print(f"  {k}: {diffs[k][0]}")
    return not bad_trip and not wrong and not order and not _warnings(output)


def simulated(seeds: int, match_to: int, tmp: Path) -> bool:
    from tests.referee.table.test_table_demo import play
    ok = True
    for name, rates in RATE_SETS.items():
        t0 = time.perf_counter()
        records, jobs = {}, []
        problems = 0
        for seed in range(1, seeds + 1):
            d = tmp / f"{name}{seed}"
            d.mkdir()
            core, _, _ = play(d, seed, rates, match_to=match_to)
            rec = core.record()
            core.close()
            problems += len(replay_match(rec).problems)
            records[seed] = rec
            (d / "m.mat").write_text(write_mat(rec), encoding="utf-8")
            (d / "m.sgf").write_text(write_sgf(rec), encoding="utf-8")
            jobs += [(f"mat:{seed}", "import mat", d / "m.mat"), (f"sgf:{seed}", "load match", d / "m.sgf")]
        g = tmp / f"gnubg-{name}"
        g.mkdir()
        result, output = run_gnubg(g, jobs, timeout=3600)
        wrong = [(s, fmt, compare(r, result[f"{fmt}:{s}"], fmt)) for s, r in records.items() for fmt in ("mat", "sgf")]
        wrong = [w for w in wrong if w[2]]
        acts = [a for r in records.values() for g in r.games for a in g.actions]
        print(f"simulated '{name}': {seeds} matches to {match_to}, {sum(isinstance(a, Move) for a in acts)} plays, "
              f"{sum(isinstance(a, IllegalAccepted) for a in acts)} accepted illegal, "
              f"{sum(isinstance(a, Correction) for a in acts)} corrections; replay problems: {problems}; "
              f"gnubg warnings: {_warnings(output)}; records whose gnubg positions differ: {len(wrong)} "
              f"({time.perf_counter() - t0:.1f} s)")
        for s, fmt, diff in wrong[:3]:
            print(f"  seed {s} {fmt}: {diff[0]}")
        ok = ok and not wrong and not problems and not _warnings(output)
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", default="/work/shared/matches", help="the real match files")
    ap.add_argument("--seeds", type=int, default=10, help="simulated matches per rate set")
    ap.add_argument("--match-to", type=int, default=3)
    ap.add_argument("--skip-real", action="store_true")
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if not args.skip_real:
            (tmp / "real").mkdir()
            ok = real_files(Path(args.dir), tmp / "real") and ok
        if args.seeds:
            (tmp / "sim").mkdir()
            ok = simulated(args.seeds, args.match_to, tmp / "sim") and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
