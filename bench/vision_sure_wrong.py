"""What lies where the absolute reading is wrong and sure, on rendered real-looking tables.

The frames of ``bench/vision_accuracy.py N SEED_BASE markers --real-table`` (the same positions, props and
seeds), read with the markers' corners; every point read wrong at 0.6 or more is counted by what the
frame shows there: a die in its column half, a logo over it, a stack of six or more (read or true), the
board's frame lip, textured faces; and whether the count or only the colour is wrong.
``python3 bench/vision_sure_wrong.py [N=300] [SEED_BASE=100000] [--list]``.
"""
from __future__ import annotations

import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.vision_accuracy import params_for, position_for  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import BoardNotFound  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import Rendered, render_scene  # noqa: E402

SURE = 0.6


def causes(r: Rendered, row: str, i: int, truth: int, read: int) -> list[str]:
    """What frame ``r`` shows at column ``i`` of ``row`` that may explain a misreading."""
    x, top = L.column_x(i), row == "top"
    why = []
    if any(abs(d.board[0] - x) < 0.6 and (d.board[1] < L.HEIGHT / 2) == top for d in r.dice):
        why.append("die")
    for b in r.props.logos:
        x0, y0, x1, y1 = b
        if x0 - 0.5 <= x <= x1 + 0.5 and ((y0 < L.HEIGHT / 2) == top or (y1 < L.HEIGHT / 2) == top):
            why.append("logo")
            break
    if truth >= 6 or read >= 6:
        why.append("six+")
    if r.props.lip is not None:
        why.append(f"lip {r.props.lip[0]}")
    if r.props.faces != (None, None):
        why.append("textured faces")
    return why or ["-"]


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    n = int(args[0]) if args else 300
    base = int(args[1]) if len(args) > 1 else 100000
    listing = "--list" in sys.argv
    kinds: collections.Counter = collections.Counter()
    by: collections.Counter = collections.Counter()
    wrong = sure = 0
    for s in range(n):
        params = params_for(s, True)
        r = render_scene(position_for(s, base), params, seed=base + s)
        try:
            rd = BoardReader(VisionConfig(markers=True, bar_width=params.shape.bar)).inspect(r.image)
        except BoardNotFound:
            continue
        if rd.rows is None:
            continue
        top, bottom = r.setup.to_rows(r.truth)
        for row, truth, read in (("top", top, rd.rows.top), ("bottom", bottom, rd.rows.bottom)):
            for i in range(12):
                t, g = truth[i], read[i]
                if (t.count, t.colour if t.count else None) == (g.count, g.colour if g.count else None):
                    continue
                wrong += 1
                if g.confidence < SURE:
                    continue
                sure += 1
                why = causes(r, row, i, t.count, g.count)
                kinds["count" if t.count != g.count else "colour only"] += 1
                for w in why:
                    by[w] += 1
                if listing:
                    print(f"  seed {base + s} {row} {i + 1:2d}: {t.count} {t.colour} read {g.count} {g.colour} "
                          f"at {g.confidence:.2f}; {', '.join(why)}")
    print(f"{n} rendered real tables (seeds {base}..): points wrong {wrong}, of them sure {sure} "
          f"({', '.join(f'{k} {v}' for k, v in kinds.most_common())})")
    print("  by what lies there (a point may show several): " + ", ".join(f"{k} {v}" for k, v in by.most_common()))


if __name__ == "__main__":
    main()
