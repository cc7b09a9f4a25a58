"""Benchmark: all legal plays for a fixed seeded set of positions, against gnubg's C generator.

    python3 bench/moves.py [--n 6000] [--seed 20261129] [--repeat 3]

Prints positions/s, p50/p99 time per position+roll, the slowest case, and the
time ratio against ``gnubg_nn.moves`` on the same set in the same run.  Our
timings are cold: the per-process cache is bypassed.  Each case keeps its
fastest time over ``--repeat`` passes (gnubg its fastest pass), which steadies
the figures on a shared machine; ``--repeat 1`` is a single pass.  The total is
the sum of the per-case times (not the loop's bookkeeping); gnubg's is one loop
over prebuilt boards.

What is timed on each side:

* bgtable, the generator as the referee uses it: every legal play as its steps
  and its result key (the resulting position packed in one int) -- the same
  content ``gnubg_nn.moves(board, d1, d2, 1)`` returns (key and steps), which
  gnubg computes internally for ``verbose=0`` too.  The ratio against gnubg's
  fastest call (``verbose=0``, keys only) is the headline figure.
* bgtable, value objects: ``list(legal_plays())`` building a ``LegalPlay(Play,
  Position)`` for every play (what a caller that wants all plays as values pays;
  ``legal_plays()`` itself is a lazy view that builds a play when asked).
* gnubg with ``verbose=1`` (keys and steps as Python tuples) for reference.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.rules.moves import _cached, legal_plays  # noqa: E402
from referee.rules.position import Position  # noqa: E402
from tests.positions import sample  # noqa: E402


def _values(me: tuple, opp: tuple, d1: int, d2: int) -> list:
    _cached.cache_clear()  # cold: every case is computed
    return list(legal_plays(Position._raw(me, opp), d1, d2))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--repeat", type=int, default=3,
                    help="passes over the set; each case keeps its fastest time (1 = a single cold pass)")
    args = ap.parse_args()
    cases = sample(args.seed, args.n)
    generate = _cached.__wrapped__  # bypass the cache: every case is computed
    args_list = [(pos.me, pos.opp, max(d1, d2), min(d1, d2)) for pos, d1, d2 in cases]
    n = len(args_list)
    clock = time.perf_counter
    repeat = max(1, args.repeat)

    def per_case(fn, count=len) -> tuple[list[float], int]:
        best = [float("inf")] * n
        plays = 0
        for _ in range(repeat):
            gc.collect()
            plays = 0
            for i, a in enumerate(args_list):
                t = clock()
                plays += count(fn(*a))
                dt = clock() - t
                if dt < best[i]:
                    best[i] = dt
        return best, plays

    best, total_plays = per_case(generate, count=lambda raw: len(raw[0]))
    ours = sum(best)  # the generator's time only, not the loop's bookkeeping
    values_best, value_plays = per_case(_values)
    assert value_plays == total_plays
    values = sum(values_best)
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
    theirs = theirs_verbose = None
    if gnubg_nn is not None:
        boards = [((list(p.opp), list(p.me)), d1, d2) for p, d1, d2 in cases]

        def gnubg_pass(verbose: int) -> float:
            fastest = float("inf")
            for _ in range(repeat):
                t0 = clock()
                for board, d1, d2 in boards:
                    gnubg_nn.moves(board, d1, d2, verbose)
                fastest = min(fastest, clock() - t0)
            return fastest

        theirs = gnubg_pass(0)
        theirs_verbose = gnubg_pass(1)
    times = sorted((t, i) for i, t in enumerate(best))
    slow_pos, slow_d1, slow_d2 = cases[times[-1][1]]
    slowest = f"{slow_pos.position_id()} {slow_d1}{slow_d2}"
    print(f"cases: {n} positions+rolls, {total_plays} legal plays in all; best of {repeat} passes")
    print(f"bgtable (steps + result key): {n / ours:,.0f} positions/s, total {ours * 1e3:.1f} ms")
    print(f"  per position: p50 {times[n // 2][0] * 1e6:.0f} us, p99 {times[int(n * 0.99)][0] * 1e6:.0f} us, "
          f"max {times[-1][0] * 1e3:.2f} ms ({slowest})")
    vt = sorted(values_best)
    print(f"bgtable list(legal_plays()) (LegalPlay values): {n / values:,.0f} positions/s, total {values * 1e3:.1f} ms, "
          f"p99 {vt[int(n * 0.99)] * 1e6:.0f} us, max {vt[-1] * 1e3:.2f} ms")
    if theirs is not None:
        print(f"gnubg_nn.moves verbose=0 (keys): {n / theirs:,.0f} positions/s, total {theirs * 1e3:.1f} ms")
        print(f"gnubg_nn.moves verbose=1 (keys + steps): {n / theirs_verbose:,.0f} positions/s, "
              f"total {theirs_verbose * 1e3:.1f} ms")
        print(f"ratio bgtable/gnubg: {ours / theirs:.1f}x (target 5x); "
              f"with LegalPlay values {values / theirs:.1f}x; against verbose=1 {ours / theirs_verbose:.1f}x")

if __name__ == "__main__":
    main()
