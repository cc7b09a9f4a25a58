"""Would a table learn its board from a real frame of the position it is told?

A table learns the look of its own board from still frames of positions it knows: the first
from a frame whose plain reading is within ``[vision] first_misfits`` places of the position
told (:meth:`vision.stability.StabilityFilter._first_lesson`, 8 by default), the later ones when
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
  the board as it stands (:meth:`~vision.stability.StabilityFilter.learn_as_it_stands`) has it
  learned.

``python3 bench/first_lesson.py [--labels FILE --image-dir DIR]`` (default: the repository's
labelled real images).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import vision_real as VR  # noqa: E402

from referee.cli.judge import position_rows, rows_evidence  # noqa: E402
from referee.turn.matching import evidence_position  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.compare_readings import FIRST_MISFITS, shows  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.stability import StabilityFilter  # noqa: E402

HOME = "bottom-right"


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--labels", default=VR.LABELS, help="a labels file (default: the repository's real images)")
    p.add_argument("--image-dir", default="", help="the labelled images' folder (default: images/ beside the labels)")
    a = p.parse_args(argv)
    VR.set_labels(a.labels, a.image_dir or os.path.join(os.path.dirname(os.path.abspath(a.labels)), "images"))
    labels = VR.load_labels()["images"]
    rng = random.Random(5)
    tot = {"boards": 0, "first": 0, "shows": 0, "either": 0, "auto": 0, "cases": 0, "wrong_first": 0, "wrong_shows": 0,
           "table": 0, "ordered": 0}
    for name, lab in labels.items():
        if not lab["board"] or lab.get("hidden") or lab["totals"] != {"dark": 15, "light": 15}:
            continue
        cfg = VR.config_for(lab, HOME)
        reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
        reading = reader.inspect(VR.load_image(name), read_occluded=True)
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
        befores = [b for mover in ("dark", "light") for b, _ in VR.cases_for(after, mover, rng, 3)]
        wrong_first = sum(off(rows_evidence(position_rows(b, HOME), HOME)) <= FIRST_MISFITS for b in befores)
        wrong_shows = sum(shown(rows_evidence(position_rows(b, HOME), HOME)) for b in befores)
        unasked, ordered = (table_learns(cfg, VR.load_image(name), told, order) for order in (False, True))
        print(f"  {name:12s} {n:2d} places off: first lesson {'yes' if first else 'NO '}, "
              f"odds {'yes' if by_odds else 'no '}"
              f"; auto set-up {'yes' if points_off <= L.SETUP_MISFITS else 'no '}"
              f"; a frame one move on, learned as the position before it: {wrong_first}/{len(befores)} first, "
              f"{wrong_shows}/{len(befores)} odds; the table learns it unasked {'yes' if unasked else 'NO '}, "
              f"on the director's order {'yes' if ordered else 'NO'}", flush=True)
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
          f"the table learns {tot['table']} of {tot['boards']} unasked, {tot['ordered']} on the director's order")
    return 0


def table_learns(cfg: Any, img: Any, told: Any, order: bool, frames: int = 8) -> bool:
    """Whether the table's stability filter, shown ``img`` still for ``frames`` frames and told
    the board shows ``told``, learns the board (with ``order``: the director's order to learn it
    as it stands given too)."""
    f = StabilityFilter(BoardReader(cfg, corners=L.parse_corners(cfg.corners or "")))
    f.known(told)
    if order:
        f.learn_as_it_stands(told)
    for k in range(frames):
        f.feed(img, 0.1 * k)
    return f.learned > 0


if __name__ == "__main__":
    raise SystemExit(main())
