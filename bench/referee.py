"""Referee throughput: every game of the real match files driven through the turn protocol.

    python3 bench/referee.py [--files N]

Prints the events handled, games, events per second and microseconds per move
(throw + board reading + lift), and the time to rebuild a referee by replaying its inputs.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.turn.referee import Referee  # noqa: E402
from referee.settings import Settings  # noqa: E402
from referee.table.streams import real_match_streams  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=0, help="only the first N files (0 = all)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    streams = real_match_streams(ROOT / "tests" / "data" / "matches" / "plays.jsonl.gz")
    if args.files:
        streams = dict(list(streams.items())[: args.files])
    t_load = time.perf_counter() - t0
    events = games = moves = 0
    refs = []
    t0 = time.perf_counter()
    for games_ in streams.values():
        ref = Referee(Settings(match_to=games_[0].match_length), score=games_[0].score_before)
        for g in games_:
            for ev in g.events:
                ref.handle(ev)
            events += len(g.events)
            moves += len(g.checks)
            games += 1
        refs.append(ref)
    t_run = time.perf_counter() - t0
    t0 = time.perf_counter()
    for ref in refs[:10]:
        Referee.replay(ref.settings, ref.inputs)
    t_replay = time.perf_counter() - t0
    replayed = sum(len(r.inputs) for r in refs[:10])
    print(f"files {len(streams)}  games {games}  moves {moves}  events {events}")
    print(f"load+convert {t_load:.2f} s; referee {t_run:.2f} s = {events / t_run:,.0f} events/s, "
          f"{1e6 * t_run / max(1, moves):.0f} us per move (throw, reading, lift)")
    print(f"rebuild by replay: {replayed} events in {t_replay:.2f} s ({replayed / max(t_replay, 1e-9):,.0f} events/s)")


if __name__ == "__main__":
    main()
