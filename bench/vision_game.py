"""A table's whole game on a real board: learned from the start, judged move by move.

``bench/vision_real.py --modes made`` judges each case with a board learned from one frame (the
position before that move): every case is a first lesson.  A table learns its board once, from
the starting position, and then from every position it accepts, and keeps what it learned for
the whole match (a file beside the journal).  This plays that life on each labelled real board
(every quadrant as Dark's home): frames made from the real photo (:func:`vision.photo_edit.
doctored_reference`, as the made mode makes its reference frames; checkers on the bar laid on it,
so a board whose photo shows checkers on the bar is left out), the first showing the
starting position, then one per move of a random game (random rolls, random legal plays).
Each move's frame is judged with what the table has learned so far (``bgtable run``'s reader:
one :class:`~vision.reader.BoardReader` for the whole game), and then, as the referee does
once the move is settled (accepted, or confirmed by the players when asked), taught to the
table at its true position.  Each frame is also judged as an illegal move under every other
roll whose legal plays cannot leave it, where accepting a play is a wrong verdict.

Prints per board and in all: true plays, questions, WRONG verdicts, illegal boards accepted,
and the rows' checker spacing the table laid its slots at first and at the end
(:mod:`vision.row_pitch`).

``python3 bench/vision_game.py [--moves 20] [--seed 1] [--split dev] [--images A,B]
[--labels FILE --image-dir DIR] [--verbose]``
"""
from __future__ import annotations

import argparse
import functools
import os
import random
import sys
import time
from typing import Any, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, ROOT)

import vision_real as VR  # noqa: E402

from referee.cli.judge import position_rows, rows_evidence  # noqa: E402
from referee.rules.moves import legal_plays  # noqa: E402
from referee.rules.position import Position  # noqa: E402
from referee.turn.matching import match_reading  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.photo_edit import doctored_reference  # noqa: E402
from vision.reader import BoardReader  # noqa: E402


def _tally() -> dict[str, Any]:
    return {"cases": 0, "right": 0, "asked": 0, "wrong": 0, "illegal": 0, "illegal_called": 0,
            "illegal_wrong": 0, "ms": []}


def _misread(ev: Any, after: Position) -> str:
    """The places (points 1-24 from Dark's home, the bars) where ``ev``'s likeliest reading is not
    ``after``, each with its reading's odds and the truth's."""
    from referee.turn.likelihood import cells_of
    truth = cells_of(after)
    out = []
    for i, alts in enumerate(ev.odds or ()):
        if i >= len(truth):
            break
        best = alts[0]
        got = (best[0], best[1] if best[0] else None) if i < 24 else (best[0], truth[i][1])
        if got != truth[i]:
            p_true = next((pr for n, c, pr in alts if (n, c if n else None) == truth[i]
                           or (i >= 24 and n == truth[i][0])), 0.0)
            where = f"point {i + 1}" if i < 24 else ("dark bar" if i == 24 else "light bar")
            out.append(f"{where} {got[0]}{(got[1] or '')[:1]} {best[2]:.3f} (truth {truth[i][0]}"
                       f"{(truth[i][1] or '')[:1]} {p_true:.3f})")
    return "; ".join(out)


@functools.lru_cache(maxsize=4)
def _photo(labels: str, name: str) -> tuple[Any, Any]:
    """A labelled board's photo and where its checkers lie along the points (the rows' spacing and
    first place, :func:`vision_real.checker_places`), read once for its four games (``labels``: the
    labels file, which names the photo)."""
    img = VR.load_image(name)
    lab = VR.load_labels()["images"][name]
    return img, VR.checker_places(img, lab, VR.checker_size(img, lab))


def play_game(name: str, lab: dict[str, Any], home: str, moves: int, rng: random.Random,
              tally: dict[str, Any], detail: list[str]) -> tuple[tuple[float, float], tuple[float, float]]:
    """One game on ``name``'s photo with Dark's home at ``home``: the table learns the starting
    position's frame, then judges and learns each move's.  Adds to ``tally`` and ``detail``; returns
    the rows' checker spacing after the first lesson and at the end."""
    img, spacing = _photo(VR.LABELS, name)
    lying = VR.dice_seen(name, lab)
    cfg = VR.config_for(lab, home)
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    pos = Position.start()              # Dark on roll, as every position here
    rows = position_rows(pos, home)
    reader.inspect(doctored_reference(img, lab, rows, home, cfg, seed=rng.randrange(1 << 30), checker=spacing),
                   read_occluded=True)
    reader.learn(rows_evidence(rows, home))
    assert reader.memory is not None
    first = reader.memory.geo.pitch
    mover = "dark"
    for k in range(moves):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        before_m = pos if mover == "dark" else pos.swap()
        plays = legal_plays(before_m, *dice)
        cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays]
        if not plays or all(c == pos for c in cands):   # no move possible: the turn passes
            mover = "light" if mover == "dark" else "dark"
            continue
        after = cands[rng.randrange(len(cands))]
        if not sum(after.me) or not sum(after.opp):
            break                                       # a game played out: nothing more to judge
        rows = position_rows(after, home)
        frame = doctored_reference(img, lab, rows, home, cfg, seed=rng.randrange(1 << 30), checker=spacing)
        reader.memory.dice_lying(lying)
        t0 = time.process_time()
        ev = reader.inspect(frame).evidence
        v = match_reading(ev, pos, cands, mover) if ev is not None else None
        tally["ms"].append(1000 * (time.process_time() - t0))
        case = f"{name} {home} move {k + 1} {mover} {dice}"
        wrong = tally["wrong"] + tally["illegal_wrong"]
        VR.tally_verdict(tally, detail, case, v, cands, plays, after)
        if ev is not None:
            VR.tally_illegal(tally, detail, case, ev, pos, mover, dice, after)
            misread = _misread(ev, after) if tally["wrong"] + tally["illegal_wrong"] > wrong else ""
            if misread:
                detail.append(f"{case}: the reading there: {misread}")
        # the move settled (accepted, or the players asked and confirmed it): the table learns it
        reader.learn(rows_evidence(rows, home))
        pos, mover = after, ("light" if mover == "dark" else "dark")
    return first, reader.memory.geo.pitch


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--moves", type=int, default=20, help="moves a game (default 20)")
    p.add_argument("--seed", type=int, default=1, help="the games' draw (default 1)")
    p.add_argument("--split", default="dev", help="a split of the labels (dev, held_out, fresh) or all")
    p.add_argument("--images", default="", help="only these images of the split(s), comma-separated")
    p.add_argument("--labels", default=VR.LABELS, help="a labels file (default: the repository's real images)")
    p.add_argument("--image-dir", default="", help="the labelled images' folder (default: images/ beside the labels)")
    p.add_argument("--verbose", action="store_true", help="list every question and wrong verdict")
    a = p.parse_args(argv)
    if a.moves < 1:
        p.error(f"--moves {a.moves}: at least 1")
    VR.set_labels(a.labels, a.image_dir or os.path.join(os.path.dirname(os.path.abspath(a.labels)), "images"))
    data = VR.load_labels()
    labels = data["images"]
    halves = list(data["split"]) if a.split == "all" else [a.split]
    if any(h not in data["split"] for h in halves):
        p.error(f"--split {a.split!r}: the labels have {', '.join(data['split'])} (or all)")
    total, detail = _tally(), []
    for half in halves:
        names = [n for n in data["split"][half] if not a.images or n in a.images.split(",")]
        for name in names:
            lab = labels[name]
            if not lab["board"] or lab["totals"] != {"dark": 15, "light": 15} or lab.get("hidden"):
                continue
            if any((lab.get("bar") or {}).values()):   # (vision.photo_edit takes no checker off a photo's bar)
                print(f"  {half} {name:20s} left out: its photo's bar holds checkers")
                continue
            t = _tally()
            spacings = []
            for home in VR.HOMES:   # each game its own draw: one board's games are the same whatever else is run
                rng = random.Random(f"{a.seed}:{name}:{home}")
                spacings.append(play_game(name, lab, home, a.moves, rng, t, detail))
                print(f"  {name} {home}: {t['cases']} moves so far", file=sys.stderr, flush=True)
            for key in total:
                total[key] += t[key]
            print(f"  {half} {name:20s} moves {t['cases']}: true {t['right']} asked {t['asked']} WRONG {t['wrong']}; "
                  f"illegal boards {t['illegal']}, called illegal {t['illegal_called']}, "
                  f"WRONG (accepted) {t['illegal_wrong']}; spacing first -> last: "
                  + ", ".join(f"{f[0]:g}/{f[1]:g} -> {e[0]:g}/{e[1]:g}" for f, e in spacings))
    n = max(1, total["cases"])
    ms = sorted(total["ms"])[len(total["ms"]) // 2] if total["ms"] else 0.0
    print(f"games ({a.moves} moves a game, seed {a.seed}): {total['cases']} moves, true play {total['right']} "
          f"({100 * total['right'] / n:.1f} %), asked {total['asked']} ({100 * total['asked'] / n:.1f} %), "
          f"WRONG {total['wrong']}; the same boards as illegal moves: {total['illegal']}, called illegal "
          f"{total['illegal_called']}, WRONG (a legal play accepted) {total['illegal_wrong']}   "
          f"(CPU {ms:.0f} ms a move, median)")
    if a.verbose:
        for line in detail:
            print("   ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
