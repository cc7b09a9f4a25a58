"""The other-roll rule's cost on real positions: building the boards, weighing them, judging.

Takes the positions before the moves of the real matches (``tests/data/matches``: each written
play's position, the mover on roll; every other one given with Light moving, so both movers'
byte layouts are timed), a seeded sample of them, and for each a reading of the played move's board
with seeded noise (each place read at a confidence drawn from sure to even odds, the rest on
neighbouring counts).  Prints CPU ms a judged move (median, p90, max) for:

* **build**: the boards of a position (once a move), today's arrays against ``--old-rev``'s loop;
* **weigh**: :func:`referee.turn.other_rolls.another_roll` with the boards ready, the arrays against
  ``--old-rev``'s loop (and the same loop over today's boards), with the ratio, and how many results
  differ (nats by more than 1e-9, or the board, roll or places);
* **judge**: :func:`referee.turn.likelihood.judge` on the reading, the boards built beforehand
  (warm: :func:`~referee.turn.other_rolls.prepare` while the player thinks) and not (cold).

``python3 bench/other_rolls.py [--positions 200] [--seed 1] [--old-rev main]``.  CPU time
(``time.process_time``), so a loaded machine slows it less than the wall clock; say the load beside it.
"""
from __future__ import annotations

import argparse
import gc
import importlib.util
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.cli.records import load_record  # noqa: E402
from referee.colour import DARK, LIGHT  # noqa: E402
from referee.events import BoardEvidence  # noqa: E402
from referee.records import replayer  # noqa: E402
from referee.records.replay import replay_match  # noqa: E402
from referee.rules import moves  # noqa: E402
from referee.rules.moves import legal_plays  # noqa: E402
from referee.rules.position import Position  # noqa: E402
from referee.table.streams import reading  # noqa: E402
from referee.turn import other_rolls  # noqa: E402
from referee.turn.likelihood import cells_of, judge, odds_table  # noqa: E402

CONFIDENCE = (0.99, 0.99, 0.98, 0.97, 0.95, 0.9, 0.8, 0.6, 0.5)  # a place's odds of its true cell


def real_positions(directory: Path) -> list[tuple[Position, tuple[int, int], str]]:
    """Each written play's position (the mover on roll, as the mover's own side) and dice, in order."""
    seen: list[tuple[Position, tuple[int, int], str]] = []
    real = replayer.fast_play

    def noting(pos: Position, d1: int, d2: int, written: Any) -> Any:
        seen.append((pos, (d1, d2), ""))
        return real(pos, d1, d2, written)

    replayer.fast_play = noting  # type: ignore[assignment]
    try:
        for path in sorted(directory.iterdir()):
            if path.suffix in (".txt", ".sgf", ".mat") and path.name != "SOURCES.txt":
                replay_match(load_record(path)[0])
    finally:
        replayer.fast_play = real  # type: ignore[assignment]
    return seen


def noisy(rng: random.Random, board: Position) -> BoardEvidence:
    """A reading of ``board`` (Dark on roll) with seeded noise."""
    out = []
    for k, (n, c) in enumerate(cells_of(board)):
        colour = c if k < 24 else (DARK if k == 24 else LIGHT)
        colour = colour or rng.choice((DARK, LIGHT))
        sure = rng.choice(CONFIDENCE)
        near = [m for m in (n - 1, n + 1) if m >= 0]
        alts = [(n, c, sure)] + [(m, colour if m or k >= 24 else None, (1 - sure) / len(near)) for m in near]
        out.append(tuple(alts))
    return replace(reading(board), odds=tuple(out))


def old_module(rev: str) -> Any:
    """``referee/turn/other_rolls.py`` as it was at ``rev``, loaded beside today's."""
    text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:referee/turn/other_rolls.py"],
                          check=True, capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "other_rolls_old.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("other_rolls_old", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def cpu_ms(work: Callable[[], Any]) -> tuple[float, Any]:
    """CPU ms of one call, and its result."""
    t = time.process_time_ns()
    got = work()
    return (time.process_time_ns() - t) / 1e6, got


def figures(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"{name:<34} median {statistics.median(ms):6.2f}  p90 {ms[int(0.9 * (len(ms) - 1))]:6.2f}  "
            f"max {ms[-1]:6.2f} ms CPU")


def same(a: Any, b: Any) -> bool:
    """Two results of another_roll alike: both None, or the same board, roll and places, nats to 1e-9."""
    if a is None or b is None:
        return a is None and b is None
    return abs(a[0] - b[0]) <= 1e-9 and a[1:] == b[1:]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=200, help="real positions sampled (seeded)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--old-rev", default="main", help="the revision whose other_rolls.py is 'old'")
    ap.add_argument("--dir", default=str(ROOT / "tests" / "data" / "matches"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    allpos = real_positions(Path(args.dir))
    sample = rng.sample(range(len(allpos)), min(args.positions, len(allpos)))
    old = old_module(args.old_rev)
    rows: dict[str, list[float]] = {k: [] for k in (
        "build old", "build new", "weigh old", "weigh new", "weigh loop, new boards", "judge cold", "judge warm")}
    boards, differ, found, judged = [], 0, 0, 0
    other_rolls._prepared(Position.start(), DARK)   # numpy's first calls (imports, caches) outside the figures
    other_rolls._READY.clear()
    gc.collect()
    for n, i in enumerate(sorted(sample)):
        pos_m, dice, _ = allpos[i]
        mover = DARK if n % 2 == 0 else LIGHT
        before = pos_m if mover == DARK else pos_m.swap()   # Dark on roll
        legal = [lp.result.swap() if mover == DARK else lp.result for lp in legal_plays(pos_m, *dice)]
        if not legal:
            continue
        ev = noisy(rng, rng.choice(legal))
        table, cells = odds_table(ev), cells_of(legal[0])
        best = max(legal, key=lambda b: sum(table[k].get(c, 0.0) for k, c in enumerate(cells_of(b))))
        cells = cells_of(best)
        old._boards.cache_clear()
        other_rolls._READY.clear()
        moves._cached.cache_clear()   # the generator's own cache: each build generates its 21 rolls afresh
        ms, _ = cpu_ms(lambda: old._boards(before, mover))
        rows["build old"].append(ms)
        moves._cached.cache_clear()
        ms, ready = cpu_ms(lambda: other_rolls._prepared(before, mover))
        rows["build new"].append(ms)
        boards.append(len(ready))
        ms, was = cpu_ms(lambda: old.another_roll(table, cells, before, mover, set(legal)))
        rows["weigh old"].append(ms)
        ms, now = cpu_ms(lambda: other_rolls.another_roll(table, cells, before, mover, set(legal)))
        rows["weigh new"].append(ms)
        ready.boards   # the loop's tuples made before its clock starts: the row times its weighing only
        ms, loop = cpu_ms(lambda: other_rolls._closest_one_by_one(table, cells, before, mover, set(legal)))
        rows["weigh loop, new boards"].append(ms)
        differ += not same(was, now) or loop != now
        found += now is not None
        other_rolls._READY.clear()
        moves._cached.cache_clear()
        ms, cold = cpu_ms(lambda: judge(ev, before, legal, mover))
        rows["judge cold"].append(ms)
        other_rolls._READY.clear()
        other_rolls.prepare(before, mover)
        ms, warm = cpu_ms(lambda: judge(ev, before, legal, mover))
        rows["judge warm"].append(ms)
        assert (cold.kind, cold.indices, cold.reason) == (warm.kind, warm.indices, warm.reason)
        judged += cold.kind == "match" or "another roll" in cold.reason
    print(f"real positions: {len(allpos)} written plays, {len(boards)} sampled (seed {args.seed}); boards a position: "
          f"median {statistics.median(boards):.0f}, max {max(boards)}; another roll within reach: {found}; "
          f"verdicts through the rule: {judged}")
    for name, ms in rows.items():
        print(figures(name, ms))
    many = sorted(range(len(boards)), key=lambda j: -boards[j])[:max(1, len(boards) // 10)]
    print(f"the tenth with the most boards ({len(many)} positions, {min(boards[j] for j in many)}+ boards):")
    for name, ms in rows.items():
        print(figures("  " + name, [ms[j] for j in many]))
    med = {k: statistics.median(v) for k, v in rows.items()}
    print(f"build old/new: {med['build old'] / med['build new']:.1f}x   weigh old/new: "
          f"{med['weigh old'] / med['weigh new']:.1f}x   judge cold/warm: {med['judge cold'] / med['judge warm']:.1f}x")
    print(f"results differing from {args.old_rev}'s (or from the loop over today's boards): {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
