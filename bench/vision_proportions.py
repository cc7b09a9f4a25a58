"""Reading boards whose checkers are another size than the layout's.

Run: python3 bench/vision_proportions.py [N=200] [SEED_BASE=8100000] [SIZES=0.8,0.85,0.9,0.95]

Part 2: boards of other shapes (bar width, playing-area height in point widths), read with
the layout's shape and told theirs (``VisionConfig(bar_width=..., board_height=...)``).

Real sets differ: checkers from about 0.8 to 0.95 of a point's width.  The reader's stack
model (:func:`vision.layout.stack_slots`, the tall-stack patterns) is built for
``VisionConfig(checker=...)``, else measured on the board (:mod:`vision.size`).  For each
size this renders N boards (the accuracy bench's mix: random positions, half with a chance
of a tall stack, every colour scheme and camera variation) with checkers of that size and
reads them with the corners from the markers: with the layout's size (0.9, the reader
before it measured), measured on one frame, measured by a reader that saw the same board
in the starting position first (as the table does when a game starts), and told the size.
It prints the share of boards read exactly, and of wrong boards reported sure (evidence
confidence >= 0.6, what the referee would take).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.errors import BoardNotFound  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402


WAYS = ("layout's 0.9", "one frame", "start seen first", "told the size")


def tally(n: int, base: int, params: RenderParams, cfg: VisionConfig, start_first: bool = False) -> tuple[int, int, int]:
    """(exact, wrong but sure, no evidence) over n boards drawn with ``params``, each read by a
    new reader with ``cfg`` (which first sees the same board in the starting position when
    ``start_first``)."""
    exact = sure_wrong = none = 0
    for s in range(n):
        pos = L.random_position(np.random.default_rng(base + s), tall=0.6 if s % 2 else 0.0)
        r = render_scene(pos, params, seed=base + s)
        reader = BoardReader(cfg)
        try:
            if start_first:
                reader.read(render_scene(L.start_position(), params, seed=base + s).image)
            ev = reader.read(r.image)
        except BoardNotFound:
            ev = None
        if ev is None:
            none += 1
        elif ev.bar == pos.bar and all(a.count == b.count and a.colour == b.colour for a, b in zip(ev.points, pos.points)):
            exact += 1
        elif ev.confidence >= 0.6:
            sure_wrong += 1
    return exact, sure_wrong, none


def score(n: int, base: int, size: float, way: str) -> tuple[int, int, int]:
    """:func:`tally` for boards with checkers ``size`` pw across, read one of the :data:`WAYS`."""
    cfg = VisionConfig(checker=size if way == WAYS[3] else L.CHECKER if way == WAYS[0] else None)
    return tally(n, base, RenderParams(checker=(size, size)), cfg, start_first=way == WAYS[2])


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("n", nargs="?", type=int, default=200, help="boards a size (default 200)")
    ap.add_argument("base", nargs="?", type=int, default=8100000, help="the first board's seed (default 8100000)")
    ap.add_argument("sizes", nargs="?", default="0.8,0.85,0.9,0.95",
                    help="checker diameters in point widths, comma-separated (default 0.8,0.85,0.9,0.95)")
    args = ap.parse_args()
    try:
        sizes = [float(x) for x in args.sizes.split(",")]
    except ValueError:
        ap.error(f"SIZES {args.sizes!r}: point widths separated by commas, such as 0.8,0.9")
    if args.n < 1:
        ap.error(f"N {args.n} must be at least 1")
    n, base = args.n, args.base
    print(f"{n} boards per size, seeds {base}..{base + n - 1}, corners from the markers")
    for size in sizes:
        for way in WAYS:
            t = time.perf_counter()
            exact, sure_wrong, none = score(n, base, size, way)
            dt = time.perf_counter() - t
            print(f"  checkers {size:.2f} pw, {way:16}: exact {exact / n:7.2%}, wrong but sure {sure_wrong / n:6.2%},"
                  f" no reading {none / n:6.2%}  ({dt / n * 1000:.0f} ms a board)", flush=True)
    main_shapes(n, base)


SHAPES = (L.BoardShape(1.5, 11.0), L.BoardShape(2.0, 12.0), L.BoardShape(1.0, 12.5), L.BoardShape(0.8, 10.5))


def score_shape(n: int, base: int, shape: L.BoardShape, told: bool) -> tuple[int, int, int]:
    """:func:`tally` for boards of ``shape``, read with the layout's shape or told theirs."""
    cfg = VisionConfig(bar_width=shape.bar, board_height=shape.height) if told else VisionConfig()
    return tally(n, base, RenderParams(shape=shape), cfg)


def main_shapes(n: int, base: int) -> None:
    print(f"board shapes, {n} boards each, corners from the markers")
    for shape in SHAPES:
        for told in (False, True):
            exact, sure_wrong, none = score_shape(n, base, shape, told)
            label = "told its shape" if told else "layout's shape"
            print(f"  {str(shape):20} {label:15}: exact {exact / n:7.2%}, wrong but sure {sure_wrong / n:6.2%},"
                  f" no reading {none / n:6.2%}", flush=True)


if __name__ == "__main__":
    main()
