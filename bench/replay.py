"""Benchmark: plays per second replaying the real match files through the rules.

Prints the read time (the .mat/SGF parsers, which also replay each game once to
tell bear-offs from resignations), the replay time of ``replay_match`` alone, and
the share of plays the fast path settled without the full move generator.

    python3 bench/replay.py [--repeat N]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.rules import fastcheck  # noqa: E402
from referee.cli.records import load_record  # noqa: E402
from referee.records.replay import replay_match  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="replay passes (best one is reported)")
    ap.add_argument("--dir", default=str(ROOT / "tests" / "data" / "matches"))
    args = ap.parse_args()
    files = sorted(p for p in Path(args.dir).iterdir()
                   if p.suffix in (".txt", ".sgf", ".mat") and p.name != "SOURCES.txt")
    t0 = time.perf_counter()
    records = [load_record(p)[0] for p in files]
    t_read = time.perf_counter() - t0

    calls = {"fast": 0, "fallback": 0}
    orig = fastcheck.fast_play

    def counting(*a):  # type: ignore[no-untyped-def]
        r = orig(*a)
        calls["fast" if r is not None else "fallback"] += 1
        return r

    import referee.records.replay as rp
    rp.fast_play = counting  # type: ignore[assignment]
    plays = sum(replay_match(r).plays for r in records)
    rp.fast_play = orig  # type: ignore[assignment]

    import referee.rules.moves as mv
    for name in dir(mv):  # drop every cache the engine keeps, for an honest cold figure
        f = getattr(mv, name)
        if hasattr(f, "cache_clear"):
            f.cache_clear()
    rp._parse.cache_clear()
    t = time.perf_counter()
    replay_match_all = sum(replay_match(r).plays for r in records)
    cold = time.perf_counter() - t
    assert replay_match_all == plays

    best = float("inf")
    for _ in range(args.repeat):
        t = time.perf_counter()
        n = sum(replay_match(r).plays for r in records)
        best = min(best, time.perf_counter() - t)
    assert n == plays
    total = calls["fast"] + calls["fallback"]
    print(f"files: {len(files)}  games: {sum(len(r.games) for r in records)}  plays: {plays}")
    print(f"read (parse + result inference): {t_read:.2f} s  = {plays / t_read:,.0f} plays/s")
    print(f"replay, cold caches: {cold:.2f} s  = {plays / cold:,.0f} plays/s")
    print(f"replay, warm (best of {args.repeat}): {best:.2f} s  = {plays / best:,.0f} plays/s")
    print(f"fast path settled {calls['fast']} of {total} written plays "
          f"({100 * calls['fast'] / max(1, total):.1f}%); the rest used the full generator")
    return 0


if __name__ == "__main__":
    sys.exit(main())
