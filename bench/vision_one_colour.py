"""Boards with one colour on them (a game's end): how often a checker of the other colour is read.

A game ends with the winner's last checker borne off: the board then shows the loser's colour alone,
and the reader has only one colour to learn (:func:`vision.colours.learn_colours` finds one, or a lit
corner and glare split it).  Renders ``N`` such boards (2 to 15 checkers of one colour, on the home
board or anywhere; every third a real-looking table), reads each with a fresh reader and counts the
frames, and the points, read as holding the other colour (and how many of those points are sure,
0.6 or more).  ``python3 bench/vision_one_colour.py [N=300] [SEED_BASE=700000]``.
"""
from __future__ import annotations

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from referee.events import BoardEvidence, PointReading  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import BoardNotFound  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402

SURE = 0.6


def one_colour(s: int) -> tuple[str, BoardEvidence]:
    """Board ``s``: its colour and position (the other colour all off)."""
    rng = np.random.default_rng(5000 + s)
    colour = ("dark", "light")[s % 2]
    k = int(rng.integers(2, 16))
    counts = [0] * 24
    home = list(range(0, 6)) if colour == "dark" else list(range(18, 24))
    spots = home if s % 4 < 2 else list(range(24))
    for _ in range(k):
        counts[int(rng.choice(spots))] += 1
    pts = tuple(PointReading(c, colour if c else None) for c in counts)
    off = (15 - k, 15) if colour == "dark" else (15, 15 - k)
    return colour, BoardEvidence(points=pts, bar=(0, 0), off=off)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    base = int(sys.argv[2]) if len(sys.argv) > 2 else 700000
    frames = unread = bad = points = sure = 0
    for s in range(n):
        colour, pos = one_colour(s)
        params = RenderParams.real_table() if s % 3 == 0 else RenderParams()
        r = render_scene(pos, params, seed=base + s)
        try:
            rd = BoardReader(VisionConfig(markers=True, bar_width=params.shape.bar)).inspect(r.image)
        except BoardNotFound:
            rd = None
        frames += 1
        if rd is None or rd.rows is None:
            unread += 1
            continue
        other = [p for p in list(rd.rows.top) + list(rd.rows.bottom) if p.count and p.colour != colour]
        bad += bool(other)
        points += len(other)
        sure += sum(p.confidence >= SURE for p in other)
        if (s + 1) % 50 == 0:
            print(f"{s + 1}/{n} boards", file=sys.stderr)
    print(f"{frames} one-colour boards (seeds {base}..): no reading {unread}; a checker of the other colour "
          f"read on {bad} ({points} points, {sure} of them sure)")


if __name__ == "__main__":
    main()
