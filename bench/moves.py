"""Benchmark: all legal plays for a fixed seeded set of positions, against gnubg's C generator.

    python3 bench/moves.py [--n 6000] [--seed 20261129]

Prints positions/s, p50/p99 time per position+roll, the slowest case, and the
time ratio against ``gnubg_nn.moves`` on the same set in the same run.  Our
timings are cold: the per-process cache is bypassed.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.moves import _cached  # noqa: E402
from tests.positions import sample  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=20261129)
    args = ap.parse_args()
    cases = sample(args.seed, args.n)
    generate = _cached.__wrapped__  # bypass the cache: every case is computed
    gc.collect()
    times = []
    total_plays = 0
    t0 = time.perf_counter()
    for pos, d1, d2 in cases:
        a, b = (d1, d2) if d1 >= d2 else (d2, d1)
        t = time.perf_counter()
        total_plays += len(generate(pos.me, pos.opp, a, b))
        times.append((time.perf_counter() - t, pos.position_id(), f"{d1}{d2}"))
    ours = time.perf_counter() - t0
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
    theirs = None
    if gnubg_nn is not None:
        boards = [((list(p.opp), list(p.me)), d1, d2) for p, d1, d2 in cases]
        t0 = time.perf_counter()
        for board, d1, d2 in boards:
            gnubg_nn.moves(board, d1, d2, 0)
        theirs = time.perf_counter() - t0
    times.sort()
    n = len(times)
    print(f"cases: {n} positions+rolls, {total_plays} legal plays in all")
    print(f"bgtable: {n / ours:,.0f} positions/s, total {ours * 1e3:.1f} ms")
    print(f"  per position: p50 {times[n // 2][0] * 1e6:.0f} us, p99 {times[int(n * 0.99)][0] * 1e6:.0f} us, "
          f"max {times[-1][0] * 1e3:.2f} ms ({times[-1][1]} {times[-1][2]})")
    if theirs is not None:
        print(f"gnubg_nn.moves: {n / theirs:,.0f} positions/s, total {theirs * 1e3:.1f} ms")
        print(f"ratio bgtable/gnubg: {ours / theirs:.1f}x (target 5x)")


if __name__ == "__main__":
    main()
