"""Would a table learn its board from a real frame of the position it is told?

A table learns the look of its own board from still frames of positions it knows: the first
from a frame whose plain reading is within ``[vision] first_misfits`` places of the position
told (:meth:`vision.lessons.Lessons._first_lesson`, 8 by default), the later ones when
the reading's odds show it (:func:`vision.compare_readings.shows`).  On a board the camera reads
poorly the first lesson never comes, and every move is asked.  Per labelled real image (its
labelled position told, Dark's home at the bottom right), printed:

* the plain reading's places off the position told (24 points and the bar), and whether the first
  lesson (``first``) or the odds (``shows``) would learn the board from the frame;
* whether ``dark_home = "auto"`` would tell the set-up from it, were it the starting position (the
  same reading errors: :data:`vision.layout.SETUP_MISFITS` points at most);
* frames of the position one move on told as the position before it (up to 6 cases, as
  :mod:`bench.vision_real` makes them): how many the first lesson and the odds would wrongly learn;
* the table itself (:class:`vision.stability.StabilityFilter`, the frame shown still): whether it
  learns the board unasked when told the position, and whether the director's order to learn
  the board as it stands (:meth:`~vision.lessons.Lessons.learn_as_it_stands`) has it
  learned; and whether it learns the board unasked, wrongly, when told a position the frame does
  not show: the position one move before it (the cases above), or the frame's own position with
  one checker set up a point or two off or missing (:func:`misset_positions`, 4 a board): the
  plain reading's rule alone lets most through, the set-up check (:mod:`vision.setup_check`) few.
  The dice the table's dice finder sees are told to the filter as the camera thread tells them.

``python3 bench/first_lesson.py [--labels FILE --image-dir DIR] [--odds]`` (default: the repository's
labelled real images; ``--odds``: also the set-up check's own odds per case, :func:`vision.setup_check.doubts`,
and over the boards read within ``first_misfits`` the largest against a board's own position and what each
threshold of two points together would let through: how :data:`~vision.setup_check.SETUP_PAIR_ODDS` was
chosen); ``--rendered N [--seed-base S]``: instead N rendered real-looking tables
(from seed S, 930000 by default), each told the starting position while it shows the start, the
start with a checker mis-set, or a first move played (the table's dice finder running beside).
A later game's start, at a table whose board is learned: :mod:`bench.later_starts`.
"""
from __future__ import annotations

import argparse
import math
from dataclasses import replace
import os
import random
import sys
from typing import Any, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vision_real as VR  # noqa: E402

from referee.cli.judge import position_rows, rows_evidence  # noqa: E402
from referee.events import PointReading  # noqa: E402
from referee.turn.matching import evidence_position  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.compare_readings import FIRST_MISFITS, shows  # noqa: E402
from vision.setup_check import SETUP_ODDS, SETUP_PAIR_ODDS, doubts  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.stability import StabilityFilter  # noqa: E402

HOME = "bottom-right"


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--labels", default=VR.LABELS, help="a labels file (default: the repository's real images)")
    p.add_argument("--image-dir", default="", help="the labelled images' folder (default: images/ beside the labels)")
    p.add_argument("--rendered", type=int, default=0, metavar="N",
                   help="instead: N rendered real-looking tables (the starting position set up, set up with a "
                        "checker off, or one move played), each told the starting position")
    p.add_argument("--seed-base", type=int, default=930000, help="with --rendered: the first board's seed")
    p.add_argument("--odds", action="store_true",
                   help="also the set-up check's own odds per case (vision.setup_check.doubts: the largest one point, "
                        "the two largest together) and what other thresholds would let through")
    a = p.parse_args(argv)
    if a.rendered:
        return rendered(a.rendered, a.seed_base)
    VR.set_labels(a.labels, a.image_dir or os.path.join(os.path.dirname(os.path.abspath(a.labels)), "images"))
    labels = VR.load_labels()["images"]
    rng = random.Random(5)
    odds: dict[str, list[tuple[str, Optional[tuple[float, float]]]]] = {"own": [], "move": [], "misset": []}
    tot = {"boards": 0, "first": 0, "shows": 0, "either": 0, "auto": 0, "cases": 0, "wrong_first": 0, "wrong_shows": 0,
           "table": 0, "ordered": 0, "table_move": 0, "table_misset": 0, "misset": 0}
    for name, lab in labels.items():
        if not lab["board"] or lab.get("hidden") or lab["totals"] != {"dark": 15, "light": 15}:
            continue
        cfg = VR.config_for(lab, HOME)
        reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
        img = VR.load_image(name)
        reading = reader.inspect(img, read_occluded=True)
        if reading.rows is None or reader.setup is None:
            print(f"  {name:12s} no reading")
            continue
        rows, setup = reading.rows, reader.setup

        def off(ev) -> int:
            top, bottom = setup.to_rows(ev)
            return len(L.points_differ(list(rows.top) + list(rows.bottom), top + bottom)) + (rows.bar != ev.bar)

        def shown(ev) -> bool:
            return reading.evidence is not None and shows(reading.evidence, ev)

        told = rows_evidence(lab, HOME)
        n = off(told)
        first, by_odds = n <= FIRST_MISFITS, shown(told)
        points_off = n - (rows.bar != told.bar)
        after = evidence_position(told)
        befores = [rows_evidence(position_rows(b, HOME), HOME)
                   for mover in ("dark", "light") for b, _ in VR.cases_for(after, mover, rng, 3)]
        wrong_first = sum(off(b) <= FIRST_MISFITS for b in befores)
        wrong_shows = sum(shown(b) for b in befores)
        dice = VR.dice_seen(name, lab)
        unasked, ordered = (table_learns(cfg, img, told, order, dice=dice) for order in (False, True))
        # the table itself, told a position the frame does not show: one move before it, or the
        # frame's own position with one checker set up a point or two off (or missing)
        table_move = sum(table_learns(cfg, img, b, False, dice=dice) for b in befores)
        misset = misset_positions(told, random.Random(f"{name} mis-set"), 4)
        table_misset = sum(table_learns(cfg, img, m, False, dice=dice) for m in misset)
        print(f"  {name:12s} {n:2d} places off: first lesson {'yes' if first else 'NO '}, "
              f"odds {'yes' if by_odds else 'no '}"
              f"; auto set-up {'yes' if points_off <= L.SETUP_MISFITS else 'no '}"
              f"; a frame one move on, learned as the position before it: {wrong_first}/{len(befores)} first, "
              f"{wrong_shows}/{len(befores)} odds; the table learns it unasked {'yes' if unasked else 'NO '}, "
              f"on the director's order {'yes' if ordered else 'NO'}; "
              f"learned unasked though it shows another position: "
              f"one move on {table_move}/{len(befores)}, a checker mis-set {table_misset}/{len(misset)}", flush=True)
        if a.odds:
            got = {"own": [check_odds(reader, img, told, dice)],
                   "move": [check_odds(reader, img, b, dice) for b in befores],
                   "misset": [check_odds(reader, img, m, dice) for m in misset]}
            print("    the set-up check's odds (one point, two together; -: cannot tell): "
                  + "; ".join(f"{k} " + " ".join(_odds_text(o) for o in v) for k, v in got.items()), flush=True)
            if n <= FIRST_MISFITS:   # the check is asked only within first_misfits
                for k, v in got.items():
                    odds[k] += [(name, o) for o in v]
        tot["table_move"] += table_move
        tot["table_misset"] += table_misset
        tot["misset"] += len(misset)
        tot["table"] += unasked
        tot["ordered"] += ordered
        tot["boards"] += 1
        tot["first"] += first
        tot["shows"] += by_odds
        tot["either"] += first or by_odds
        tot["auto"] += points_off <= L.SETUP_MISFITS
        tot["cases"] += len(befores)
        tot["wrong_first"] += wrong_first
        tot["wrong_shows"] += wrong_shows
    print(f"boards learned: {tot['either']} of {tot['boards']} (first lesson {tot['first']}, odds {tot['shows']}); "
          f"auto set-up {tot['auto']} of {tot['boards']}; frames one move on learned as the position before: "
          f"{tot['wrong_first']} of {tot['cases']} by the first lesson, {tot['wrong_shows']} by the odds; "
          f"the table learns {tot['table']} of {tot['boards']} unasked, {tot['ordered']} on the director's order; "
          f"the table learns unasked a frame of another position: one move on {tot['table_move']} of {tot['cases']}, "
          f"a checker mis-set {tot['table_misset']} of {tot['misset']}")
    if a.odds:
        odds_summary(odds)
    return 0


def check_odds(reader: BoardReader, img: Any, told: Any, dice: tuple[Any, ...]) -> Optional[tuple[float, float]]:
    """The set-up check's odds against ``told`` on ``img`` (:func:`vision.setup_check.doubts`): the largest
    one point's, and the two largest together (1 when fewer than two points are doubted); None when it
    cannot tell."""
    found = doubts(reader, img, told, dice)
    if found is None:
        return None
    return (found[0][0] if found else 1.0), (found[0][0] * found[1][0] if len(found) >= 2 else 1.0)


def _odds_text(o: Optional[tuple[float, float]]) -> str:
    return "-" if o is None else f"{o[0]:.3g}/{o[1]:.3g}"


def odds_summary(odds: dict[str, list[tuple[str, Optional[tuple[float, float]]]]]) -> None:
    """What the check's odds say over the boards read within ``first_misfits`` (where it is asked): the
    largest against a board's own position, and how many frames of another position each pair threshold
    (one point at SETUP_ODDS alone, or two together) would let through."""
    own = [(o, name) for name, o in odds["own"] if o is not None]
    if own:
        one, by = max((o[0], name) for o, name in own)
        two, by2 = max((o[1], name) for o, name in own)
        print(f"told their own position ({len(own)} boards with a reading): one point at most {one:.3g}:1 ({by}), "
              f"two together at most {two:.3g}:1 ({by2}); asked: one point {SETUP_ODDS:g}:1, "
              f"two together {SETUP_PAIR_ODDS:g}:1")
    for k, what in (("move", "one move on"), ("misset", "a checker mis-set")):
        cases = [o for _, o in odds[k]]
        through = {pair: sum(o is None or (o[0] < SETUP_ODDS and o[1] < pair) for o in cases)
                   for pair in (math.inf, 200.0, SETUP_PAIR_ODDS, 500.0, 1000.0)}
        print(f"frames {what} let through, of {len(cases)}: " + ", ".join(
            f"{'no pair rule' if pair == math.inf else f'two together at {pair:g}:1'} {n}"
            for pair, n in through.items()))


def misset_positions(told: Any, rng: random.Random, n: int) -> list[Any]:
    """Up to ``n`` positions one set-up error off ``told`` (table numbering): one checker of a point
    holding two or more moved a point or two along the board (onto an empty point or its own
    colour's), or missing from it (the tray left holding it)."""
    pts = list(told.points)
    out: list[Any] = []
    froms = [i for i, p in enumerate(pts) if p.count >= 2]
    rng.shuffle(froms)
    for i in froms:
        if len(out) >= n:
            break
        c = pts[i].colour
        targets = [j for j in (i - 2, i - 1, i + 1, i + 2)
                   if 0 <= j < 24 and (pts[j].count == 0 or pts[j].colour == c)]
        new = list(pts)
        new[i] = PointReading(pts[i].count - 1, c)
        if targets and rng.random() < 0.8:
            j = rng.choice(targets)
            new[j] = PointReading(pts[j].count + 1, c)
            out.append(replace(told, points=tuple(new)))
        else:
            off = list(told.off or (0, 0))
            off[c == "light"] += 1
            out.append(replace(told, points=tuple(new), off=tuple(off)))
    return out


def rendered(n: int, seed_base: int) -> int:
    """The table's first lesson on ``n`` rendered real-looking tables, each told the starting
    position: the frame of the starting position (learned unasked: right), of it set up with one
    checker a point or two off or missing, and of a first move played (learned unasked: wrong)."""
    from referee.rules.moves import legal_plays
    from referee.rules.position import Position
    from referee.turn.matching import layout_of, layout_to_evidence
    from vision.render import RenderParams
    start = Position.start()
    told = layout_to_evidence(layout_of(start))
    tot = {"start": 0, "misset": 0, "moved": 0}
    rng = random.Random(seed_base)
    for seed in range(seed_base, seed_base + n):
        params = RenderParams.real_table(bar=0.75 if seed % 2 else 1.0)
        misset = misset_positions(told, rng, 1)[0]
        moved = rng.choice(legal_plays(start, rng.randint(1, 6), rng.randint(1, 6))).result.swap()
        shown = {"start": told, "misset": misset, "moved": layout_to_evidence(layout_of(moved))}
        got = {}
        for what, ev in shown.items():
            got[what] = rendered_learns(seed, params, ev, told)
            tot[what] += got[what]
        print(f"  board {seed}: learned unasked, told the starting position: the start shown "
              f"{'yes' if got['start'] else 'NO '}, a checker mis-set {'YES' if got['misset'] else 'no '}, "
              f"a first move played {'YES' if got['moved'] else 'no '}", flush=True)
    print(f"rendered tables told the starting position, learned unasked: the start {tot['start']} of {n}; "
          f"wrongly, a checker mis-set {tot['misset']} of {n}, a first move played {tot['moved']} of {n}")
    return 0


def rendered_learns(seed: int, params: Any, shown: Any, told: Any, frames: int = 8) -> bool:
    """Whether a table on rendered board ``seed`` (its fixed camera, the set-up as a club gives it),
    shown ``shown`` still for ``frames`` frames and told the board shows ``told``, learns the board
    unasked, its dice finder running beside as the camera thread runs it."""
    from vision.config import VisionConfig
    from vision.render import render_scene
    scenes = [render_scene(shown, params, seed=seed, frame=k) for k in range(frames)]
    reader = BoardReader(VisionConfig(markers=False, bar_width=params.shape.bar, board_height=params.shape.height),
                         corners=scenes[0].corners)
    reader.setup = scenes[0].setup
    return fed(reader, told, [sc.image for sc in scenes], dice=None).learned > 0


def fed(reader: BoardReader, told: Any, pictures: list[Any], order: bool = False,
        dice: Optional[tuple[Any, ...]] = (), dt: float = 0.1) -> StabilityFilter:
    """The table's stability filter on ``reader``, told the board shows ``told`` (with ``order``: the
    director's order to learn it as it stands given too) and shown ``pictures`` ``dt`` seconds apart.
    ``dice``: the dice its dice finder sees lying there, told after the third picture
    (:class:`vision.dice_watch.DiceWatch` looks once the board has been still for three); None: a
    dice finder run beside on every picture, as the camera thread runs it."""
    from vision.dice_watch import DiceWatch
    f = StabilityFilter(reader)
    f.known(told)
    if order:
        f.learn_as_it_stands(told)
    watch = DiceWatch() if dice is None else None
    for k, picture in enumerate(pictures):
        f.feed(picture, dt * k)
        if watch is not None:
            seen = watch.feed(picture, reader.corners, reader.config.shape, reader.setup or L.SetUp())
            if seen is not None:
                f.dice_seen(seen)
        elif k == 2 and dice:
            f.dice_seen(dice)
    return f


def table_learns(cfg: Any, img: Any, told: Any, order: bool, frames: int = 8, dice: tuple[Any, ...] = ()) -> bool:
    """Whether the table's stability filter, shown ``img`` still for ``frames`` frames and told
    the board shows ``told``, learns the board (with ``order``: the director's order to learn it
    as it stands given too); ``dice``: the dice the table's dice finder sees lying there (:func:`fed`)."""
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    return fed(reader, told, [img] * frames, order, dice).learned > 0


if __name__ == "__main__":
    raise SystemExit(main())
