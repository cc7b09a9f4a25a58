"""A later game's start at a table whose board is learned: is it learned when set up right, and named when not?

Once the board is learned, a position the referee tells is learned from a still frame whose reading contradicts it
in at most two places (:func:`vision.compare_readings.shows`); a later game's start, set up by the players, only
when no point reads otherwise surely (:func:`vision.compare_readings.unlike_start`), and the table then names the
points to check.

``python3 bench/later_starts.py N [--seed-base S] [--light B,G,R] [--misset K]``: N rendered real-looking tables
(from seed S, 930000 by default) that learned a game's start and its first moves, then told a later game's start
while it is set up right, or with a checker mis-set (``--misset``: K of them, one after the other;
:func:`bench.first_lesson.misset_positions`): learned unasked (right when set up right), said to the players
(right when mis-set), and what the learned look reads afterwards at the mis-set points (the frame's, or the
start's: then the record would go on from a position the board does not show); with ``--light`` the later start
under another light than the first game's (each channel times its gain).

``python3 bench/later_starts.py --learned-misfits [--labels FILE --image-dir DIR]`` (default: the repository's
labelled real images): the labelled boards have no second game, so per board its frame read by a look learned from
a (made) reference frame of the position one move before (:func:`bench.vision_real.taught_reading`), and how many
frames read a point of their own position under 2 % (:func:`vision.compare_readings.misfits`): a later start set
up right is refused, and named, on such a frame (not named when those points only add a sixteenth checker of a
colour, :func:`vision.compare_readings.more_than_fifteen`).
"""
from __future__ import annotations

import argparse
import itertools
import os
import random
import sys
from typing import Any, Optional

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vision_real as VR  # noqa: E402
from first_lesson import misset_positions  # noqa: E402

from referee.cli.judge import rows_evidence  # noqa: E402
from referee.turn.matching import evidence_position  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.stability import StabilityFilter  # noqa: E402


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("n", nargs="?", type=int, default=0, help="rendered tables told a later game's start")
    p.add_argument("--seed-base", type=int, default=930000, help="the first table's seed (default 930000)")
    p.add_argument("--light", default="", metavar="B,G,R",
                   help="the later start's frames under another light, each channel times these (a lamp switched "
                        "on, evening), e.g. 0.55,0.6,0.7")
    p.add_argument("--misset", type=int, default=1, metavar="K",
                   help="the mis-set start has K set-up errors, one after the other (default 1; 1 to 4)")
    p.add_argument("--learned-misfits", action="store_true",
                   help="instead: per labelled board, frames read by a look learned from a made reference of the "
                        "position one move before that read a point of their own position under 2 %%")
    p.add_argument("--labels", default=VR.LABELS, help="with --learned-misfits: a labels file (default: the "
                   "repository's real images)")
    p.add_argument("--image-dir", default="", help="with --learned-misfits: the labelled images' folder (default: "
                   "images/ beside the labels)")
    a = p.parse_args(argv)
    if a.learned_misfits:
        VR.set_labels(a.labels, a.image_dir or os.path.join(os.path.dirname(os.path.abspath(a.labels)), "images"))
        return learned_misfits()
    if a.n < 1:
        p.error(f"N {a.n}: give how many rendered tables (1 or more), or --learned-misfits")
    if not 1 <= a.misset <= 4:
        p.error(f"--misset {a.misset}: give 1 to 4 checkers set up wrong")
    return later_starts(a.n, a.seed_base, light=_light(p, a.light), errors=a.misset)


def learned_misfits(per: int = 1) -> int:
    """Per labelled real board (of 15 checkers a side, nothing over it) and each of the four ways round, ``per``
    cases a mover: the frame read by a look learned from a made reference frame of the position one move before
    (:func:`bench.vision_real.taught_reading`), and whether it reads a point of the frame's own position under 2 %
    (:func:`vision.compare_readings.misfits`): a later game's start set up right would not be learned from such a
    frame, and its points would be named to be checked (:func:`vision.compare_readings.unlike_start`)."""
    from vision.compare_readings import misfits, more_than_fifteen
    labels = VR.load_labels()["images"]
    rng = random.Random(1)
    frames = refused = quiet = 0
    for name, lab in labels.items():
        if not lab["board"] or lab["totals"] != {"dark": 15, "light": 15} or lab.get("hidden"):
            continue
        img = VR.load_image(name)
        size = VR.checker_size(img, lab)
        spacing, lying = VR.checker_places(img, lab, size), VR.dice_seen(name, lab)
        named: list[list[int]] = []
        n = 0
        for home in VR.HOMES:
            truth = rows_evidence(lab, home)
            after, cfg = evidence_position(truth), VR.config_for(lab, home)
            for mover in ("dark", "light"):
                for before, dice in VR.cases_for(after, mover, rng, per):
                    ev = VR.taught_reading("made", img, lab, cfg, home, before, dice, lying, spacing, None,
                                           rng.randrange(1 << 30))
                    if ev is None:
                        continue
                    n += 1
                    off = [k + 1 for k in misfits(ev, truth) if 0 <= k < 24]
                    named += [off] if off else []
                    quiet += bool(off) and more_than_fifteen(ev, truth)
        frames, refused = frames + n, refused + len(named)
        print(f"  {name:20s} frames {n:2d}, reading a point of their own position under 2 %: {len(named)} "
              f"{'(points ' + '; '.join(', '.join(map(str, o)) for o in named) + ')' if named else ''}", flush=True)
    print(f"frames read by a learned look with a point of their own position under 2 %: {refused} of {frames} "
          f"({quiet} of them a checker too many of a colour: not learned, not said)")
    return 0


def later_starts(n: int, seed_base: int, moves: int = 6, light: Optional[tuple[float, float, float]] = None,
                 errors: int = 1) -> int:
    """A later game's start at ``n`` rendered real-looking tables whose board is learned: each learns the
    first game's start and its first ``moves`` positions (told and shown still, as the referee tells
    them), then is told the starting position again, shown set up right, or (a fresh table, the same
    first game) set up with ``errors`` checkers each a point or two off or missing
    (:func:`bench.first_lesson.misset_positions`, one after the other), still
    for 30 seconds.  Printed per table: learned unasked, said to the players (:meth:`StabilityFilter.
    take_report`), and what the learned look then reads at the mis-set points."""
    from referee.rules.moves import legal_plays
    from referee.rules.position import Position
    from referee.turn.matching import layout_of, layout_to_evidence
    from vision.render import RenderParams
    told = layout_to_evidence(layout_of(Position.start()))
    tot = {"right learned": 0, "right said": 0, "mis-set learned": 0, "mis-set said": 0, "reads the start": 0}
    for seed in range(seed_base, seed_base + n):
        rng = random.Random(seed)
        params = RenderParams.real_table(bar=0.75 if seed % 2 else 1.0)
        misset = told
        for _ in range(errors):   # each error made on the set-up as the last left it
            misset = (misset_positions(misset, rng, 1) or [misset])[0]
        board, game = Position.start(), []
        for k in range(moves):   # Dark, then Light, ... (the board kept with Dark on roll, as layout_of wants it)
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            mover = board if k % 2 == 0 else board.swap()
            plays = legal_plays(mover, d1, d2)   # each result with the other side on roll
            if plays:
                played = rng.choice(plays).result
                board = played.swap() if k % 2 == 0 else played
            game.append(layout_to_evidence(layout_of(board)))
        right = _later_start(seed, params, told, game, told, light=light)
        wrong = _later_start(seed, params, told, game, misset, light=light)
        tot["right learned"] += right[0]
        tot["right said"] += bool(right[1])
        tot["mis-set learned"] += wrong[0]
        tot["mis-set said"] += bool(wrong[1])
        tot["reads the start"] += any(r.endswith("the start's") for r in wrong[2])
        print(f"  board {seed}: set up right: learned {'yes' if right[0] else 'NO '}, said "
              f"{'YES' if right[1] else 'nothing'}; mis-set: learned {'YES' if wrong[0] else 'no '}, said "
              f"{wrong[1][0].split('. Check')[0] if wrong[1] else 'NOTHING'}; the learned look then reads there "
              f"{', '.join(wrong[2]) or '-'}", flush=True)
    print(f"rendered tables told a later game's start, their board learned: set up right, learned unasked "
          f"{tot['right learned']} of {n}, something said {tot['right said']}; mis-set, learned unasked "
          f"{tot['mis-set learned']} of {n}, said to the players {tot['mis-set said']}, the learned look reading "
          f"a mis-set point as the start's {tot['reads the start']}")
    return 0


def _light(p: argparse.ArgumentParser, text: str) -> Optional[tuple[float, float, float]]:
    """``--light B,G,R``: three gains, each 0.2..3 (``p.error`` naming the value otherwise); None when not given."""
    if not text:
        return None
    try:
        gains = tuple(float(x) for x in text.split(","))
    except ValueError:
        gains = ()
    if len(gains) != 3 or not all(0.2 <= g <= 3.0 for g in gains):
        p.error(f"--light {text!r}: expected three gains 0.2..3 for blue, green and red, e.g. 0.55,0.6,0.7")
    return (gains[0], gains[1], gains[2])


def _later_start(seed: int, params: Any, told: Any, game: list[Any], shown: Any, still: int = 30,
                 light: Optional[tuple[float, float, float]] = None) -> tuple[bool, list[str], list[str]]:
    """One table of :func:`later_starts`: whether the later start ``shown`` (``still`` frames a second
    apart) is learned, what the table says, and what it reads afterwards where ``shown`` differs from
    ``told`` ("the frame's" or "the start's" per point)."""
    from vision.config import VisionConfig
    from vision.dice_watch import DiceWatch
    from vision.render import render_scene
    frames = itertools.count()
    first = render_scene(told, params, seed=seed, frame=next(frames))
    reader = BoardReader(VisionConfig(markers=False, bar_width=params.shape.bar, board_height=params.shape.height),
                         corners=first.corners)
    reader.setup = first.setup
    f, watch, t = StabilityFilter(reader), DiceWatch(), 0.0

    def lit(picture: Any, later: bool) -> Any:   # the later start's frames under ``light``
        if not later or light is None:
            return picture
        return np.clip(picture.astype(np.float32) * np.float32(light), 0, 255).astype(np.uint8)

    def show(ev: Any, pictures: int, dt: float, later: bool = False) -> list[str]:
        nonlocal t
        said = []
        for _ in range(pictures):
            picture = lit(render_scene(ev, params, seed=seed, frame=next(frames)).image, later)
            f.feed(picture, t)
            seen = watch.feed(picture, reader.corners, reader.config.shape, reader.setup or L.SetUp())
            if seen is not None:
                f.dice_seen(seen)
            report = f.take_report()
            said += [report] if report else []
            t += dt
        return said
    for ev in [told] + game:
        f.known(ev)
        show(ev, 8, 0.1)
    before = f.learned
    f.known(told)
    said = show(shown, still, 1.0, later=True)
    ev = reader.read(lit(render_scene(shown, params, seed=seed, frame=next(frames)).image, True))
    reads = []
    for k in L.points_differ(shown.points, told.points):
        odds = {(m, c if m else None): q for m, c, q in (ev.odds[k] if ev is not None and ev.odds else ())}
        best = max(odds.items(), key=lambda kv: kv[1])[0] if odds else None
        want = (told.points[k].count, told.points[k].colour if told.points[k].count else None)
        reads.append(f"point {k + 1} the start's" if best == want else f"point {k + 1} the frame's")
    return f.learned > before, said, reads


if __name__ == "__main__":
    raise SystemExit(main())
