"""The learned board under a real club's light and knocks: verdicts on drifted real frames.

``bench/vision_real.py --modes real`` judges the fresh split's real frames (one real game of
``wtc2022-video``, three frames of ``fm-gold-pearl``) with the table having learned its board
from the earlier frames of the same game.  Those frames were taken minutes apart under steady
tournament light, the camera never moved.  Here the *judged* frame (not the frames learned
from) is changed the way a club table changes between two moves (:mod:`vision.photo_edit`):

* the light: global gain 0.7 / 0.85 / 1.2 / 1.4 (a webcam's auto-exposure, a cloud, a lamp),
  gamma 0.8 / 1.25, a warm lamp and cool daylight (the white balance shifted), a linear
  gradient across the board (one side 30 % darker), a soft shadow over a quarter of the board
  (each frame a different quarter);
* the camera knocked: shifted 2 / 4 / 8 px, turned 0.5 / 1 degree about the board's centre
  (each frame another direction), the corners kept as configured;
* the stream: sensor noise and a JPEG re-compression.

Each condition judges the same cases (the same seed) and counts true / asked / wrong, as
``vision_real.py`` does.  ``--sequence`` plays the slow drift of a real afternoon instead: the
table learns each frame of the game in order, each one drifted a step further than the last
(the memory relearns from each accepted position, as ``bgtable run`` does) and judges each
frame a step further still; with ``--no-relearn`` it learns only the first frame.  ``--table``
plays each condition through the table's own path instead (:class:`vision.stability.StabilityFilter`
over the learned reader, as ``bgtable run``'s camera thread): the frame still for a moment as it
was, then the drifted frame still for ``TABLE_FRAMES`` frames, each with its own sensor noise; it
counts the frames that settle on a reading again, right or wrong, and how many frames that took.

``python3 bench/vision_drift.py [--cases N] [--conditions a,b] [--sequence | --table] [--verbose]``
"""
from __future__ import annotations

import argparse
import copy
import random
import sys
import time
from typing import Any, Callable, Optional

import numpy as np

import vision_real as VR

from referee.cli.judge import rows_evidence
from referee.rules.moves import legal_plays
from referee.turn.matching import evidence_position, match_reading
from vision import layout as L
from vision import photo_edit as P
from vision.dice import find_dice_in_frame
from vision.reader import BoardReader
from vision.stability import State, StabilityFilter

Drift = Callable[[np.ndarray, np.ndarray, int], np.ndarray]   # (frame, corners, the frame's index) -> frame
_TURNS = ((1, 0), (0, 1), (-1, 0), (0, -1))                       # a knock's direction, frame by frame


def _shift(d: float) -> Drift:
    return lambda img, c, i: P.moved(img, c, d * _TURNS[i % 4][0], d * _TURNS[i % 4][1])


def _turn(deg: float) -> Drift:
    return lambda img, c, i: P.moved(img, c, degrees=deg if i % 2 == 0 else -deg)


CONDITIONS: dict[str, Drift] = {
    "none": lambda img, c, i: img,
    "gain 0.7": lambda img, c, i: P.gained(img, 0.7),
    "gain 0.85": lambda img, c, i: P.gained(img, 0.85),
    "gain 1.2": lambda img, c, i: P.gained(img, 1.2),
    "gain 1.4": lambda img, c, i: P.gained(img, 1.4),
    "gamma 0.8": lambda img, c, i: P.gamma(img, 0.8),
    "gamma 1.25": lambda img, c, i: P.gamma(img, 1.25),
    "warm lamp": lambda img, c, i: P.tinted(img, P.WARM),
    "cool daylight": lambda img, c, i: P.tinted(img, P.COOL),
    "gradient 30 %": lambda img, c, i: P.graded(img, c, 0.3, ("right", "left", "bottom", "top")[i % 4]),
    "shadow a quarter": lambda img, c, i: P.shadowed(img, c, i % 4),
    "shift 2 px": _shift(2),
    "shift 4 px": _shift(4),
    "shift 8 px": _shift(8),
    "shift 16 px": _shift(16),
    "knocked 40 px": _shift(40),
    "knocked 80 px": _shift(80),
    "knocked 40 px + 3 deg": lambda img, c, i: P.moved(img, c, 40 * _TURNS[i % 4][0], 40 * _TURNS[i % 4][1],
                                                       degrees=3.0 if i % 2 == 0 else -3.0),
    "turn 0.5 deg": _turn(0.5),
    "turn 1 deg": _turn(1.0),
    "noise + jpeg": lambda img, c, i: P.recompressed(img, seed=i),
}

_LEARNED: dict[tuple[str, str], BoardReader] = {}


def learned(name: str, labels: dict[str, Any], tables: dict[str, list[str]], home: str) -> BoardReader:
    """:func:`vision_real.learned_reader`, kept per frame and home (the conditions judge the same cases)."""
    key = (name, home)
    if key not in _LEARNED:
        _LEARNED[key] = VR.learned_reader(name, labels, tables, home)
    return _LEARNED[key]


def judged_frames(names: list[str], labels: dict[str, Any], tables: dict[str, list[str]]) -> list[str]:
    """The frames ``vision_real.py --modes real`` judges: a whole board in view, 15 a side, an
    earlier frame to learn from."""
    return [n for n in names if labels[n]["board"] and labels[n]["totals"] == {"dark": 15, "light": 15}
            and not labels[n].get("hidden") and VR.real_references(n, labels, tables)]


def _table_reader(cfg: Any, learned_reader: BoardReader) -> BoardReader:
    """A reader at ``cfg``'s corners with what ``learned_reader`` learned of the board."""
    r = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    r.memory, r.colours, r.checker = learned_reader.memory, learned_reader.colours, learned_reader.checker
    return r


def judge(reader: BoardReader, lab: dict[str, Any], img: np.ndarray, home: str, rng: random.Random, per: int,
          tally: dict[str, Any], detail: list[str], tag: str, lying: tuple[Any, ...]) -> None:
    """Judge every case of the frame ``img`` (showing ``lab``'s position, Dark's home ``home``)
    with the table ``reader`` as it learned its board; count into ``tally``."""
    after = evidence_position(rows_evidence(lab, home))
    cfg = VR.config_for(lab, home)
    for mover in ("dark", "light"):
        for before, dice in VR.cases_for(after, mover, rng, per):
            t0 = time.process_time()
            r = _table_reader(cfg, reader)
            assert r.memory is not None
            r.memory.dice_lying(lying)
            reading = r.inspect(img)
            ev = reading.evidence
            before_m = before if mover == "dark" else before.swap()
            plays = legal_plays(before_m, *dice)
            cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays]
            v = match_reading(ev, before, cands, mover) if ev is not None else None
            tally["ms"].append(1000 * (time.process_time() - t0))
            VR.tally_verdict(tally, detail, f"{tag} {home} {mover} {dice}", v, cands, plays, after,
                             reading.reason.text if reading.reason else "no reading")


def _tally() -> dict[str, Any]:
    return {"cases": 0, "right": 0, "asked": 0, "wrong": 0, "ms": []}


def _lying(img: np.ndarray, lab: dict[str, Any]) -> tuple[Any, ...]:
    """The dice the table's dice finder sees on this (drifted) frame, only the sure ones."""
    cfg = VR.config_for(lab)
    return tuple(d for d in find_dice_in_frame(img, np.asarray(lab["corners"], np.float32), cfg.shape) if d.sure())


def condition(drift: Drift, names: list[str], labels: dict[str, Any], tables: dict[str, list[str]],
              per: int, seed: int = 1) -> tuple[dict[str, Any], list[str]]:
    """Every case of the judged frames, each frame drifted by ``drift`` (the frames learned from as they are)."""
    rng = random.Random(seed)
    tally, detail = _tally(), []
    for i, name in enumerate(judged_frames(names, labels, tables)):
        lab = dict(labels[name], corners=VR.table_corners(name, labels, tables))
        img = drift(VR.load_image(name), np.asarray(lab["corners"], np.float32), i)
        lying = _lying(img, lab)
        for home in VR.HOMES:
            judge(learned(name, labels, tables, home), lab, img, home, rng, per, tally, detail, name, lying)
    return tally, detail


def arms(drift: Drift, names: list[str], labels: dict[str, Any], tables: dict[str, list[str]]) -> list[str]:
    """The frames with an arm or a hand over the board (hidden points) that the table, having
    learned its board from the earlier frames, reads as a board once drifted by ``drift``
    (each must give no reading)."""
    out = []
    for i, name in enumerate(n for n in names if labels[n]["board"] and labels[n].get("hidden")
                             and VR.real_references(n, labels, tables)):
        lab = dict(labels[name], corners=VR.table_corners(name, labels, tables))
        img = drift(VR.load_image(name), np.asarray(lab["corners"], np.float32), i)
        reader = learned(name, labels, tables, "bottom-right")
        assert reader.memory is not None
        reader.memory.dice_lying(_lying(img, lab))
        cfg = VR.config_for(lab)
        r = _table_reader(cfg, reader)
        if r.inspect(img).evidence is not None:
            out.append(name)
    return out


TABLE_FRAMES = 240  # frames the drifted board stays still (8 s at 30 fps)
FPS = 30.0


def _noisy(img: np.ndarray, k: int) -> np.ndarray:
    """The frame with sensor noise of its own (each frame of a still board differs a little)."""
    noise = np.random.default_rng(k).integers(0, 3, img.shape, dtype=np.uint8)
    return np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8)


def table(drift: Drift, names: list[str], labels: dict[str, Any], tables: dict[str, list[str]],
          per: int, seed: int = 1) -> tuple[dict[str, Any], list[str]]:
    """Each judged frame through the table's path: a stability filter over a copy of the learned
    reader, fed the frame as it was until it is still, then the drifted frame ``TABLE_FRAMES``
    times.  Counts the frames whose board settled again (and the frames that took), and judges
    the settled reading (the one the table would hand the referee) on the same cases as
    :func:`condition`: true / asked / wrong."""
    rng = random.Random(seed)
    tally: dict[str, Any] = dict(_tally(), frames=0, settled=0, took=[])
    detail: list[str] = []
    for i, name in enumerate(judged_frames(names, labels, tables)):
        lab = dict(labels[name], corners=VR.table_corners(name, labels, tables))
        raw = VR.load_image(name)
        img = drift(raw, np.asarray(lab["corners"], np.float32), i)
        learned_reader = learned(name, labels, tables, "bottom-right")
        cfg = VR.config_for(lab, "bottom-right")
        r = _table_reader(cfg, learned_reader)
        r.memory = copy.deepcopy(learned_reader.memory)   # the filter's reader may find the board again
        assert r.memory is not None
        r.memory.dice_lying(_lying(img, lab))
        sf = StabilityFilter(r)
        for k in range(6):
            sf.feed(_noisy(raw, k), t=(1 + k) / FPS)
        tally["frames"] += 1
        settled = None
        for k in range(TABLE_FRAMES):
            sf.feed(_noisy(img, 100 + k), t=(7 + k) / FPS)
            if sf.state in (State.MOVING, State.SETTLING):   # the board lost again (a re-read is no loss)
                settled = None
            elif sf.state == State.STABLE and settled is None:
                settled = k
        if settled is None or sf.last is None:
            detail.append(f"{name}: not settled in {TABLE_FRAMES} frames ({sf.state.name}, corners {r.corner_source})")
            continue
        tally["settled"] += 1
        tally["took"].append(settled + 1)
        after = evidence_position(rows_evidence(lab, "bottom-right"))
        for mover in ("dark", "light"):
            for before, dice in VR.cases_for(after, mover, rng, per):
                before_m = before if mover == "dark" else before.swap()
                plays = legal_plays(before_m, *dice)
                cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays]
                VR.tally_verdict(tally, detail, f"{name} {mover} {dice}", match_reading(sf.last, before, cands, mover),
                                 cands, plays, after)
    return tally, detail


def sequence(step: Callable[[np.ndarray, np.ndarray, int], np.ndarray], labels: dict[str, Any],
             tables: dict[str, list[str]], per: int, relearn: bool = True,
             seed: int = 1) -> tuple[dict[str, Any], list[str]]:
    """A real afternoon: each table's usable frames in the game's order, the ``k``-th drifted
    ``k`` steps (``step(frame, corners, k)``); the table learns frame ``k`` (drifted ``k`` steps,
    its label the accepted position) and judges frame ``k + 1`` drifted ``k + 1`` steps, learning
    each judged frame afterwards (``relearn``) or only the first."""
    rng = random.Random(seed)
    tally, detail = _tally(), []
    for frames in tables.values():
        usable = [f for f in frames if labels[f]["board"] and not labels[f].get("hidden")
                  and labels[f]["totals"] == {"dark": 15, "light": 15}]
        corners = VR.table_corners(usable[0], labels, tables)
        for home in VR.HOMES:
            reader: Optional[BoardReader] = None
            for k, name in enumerate(usable):
                lab = dict(labels[name], corners=corners)
                img = step(VR.load_image(name), np.asarray(corners, np.float32), k)
                if reader is not None:
                    judge(reader, lab, img, home, rng, per, tally, detail, f"{name} (step {k})", _lying(img, lab))
                if reader is None or relearn:
                    if reader is None:
                        cfg = VR.config_for(lab, home)
                        reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
                    reader.inspect(img, read_occluded=True)
                    reader.learn(rows_evidence(labels[name], home))
    return tally, detail


STEPS: dict[str, Callable[[np.ndarray, np.ndarray, int], np.ndarray]] = {
    "darker 10 % a move": lambda img, c, k: P.gained(img, 0.9 ** k),
    "warmer a move": lambda img, c, k: P.tinted(img, tuple(1 + (w - 1) * k / 3 for w in P.WARM)),  # type: ignore[misc]
    "gradient growing 10 % a move": lambda img, c, k: P.graded(img, c, 0.1 * k),
    "camera creeping 2 px a move": lambda img, c, k: P.moved(img, c, 2.0 * k, 0.0),
}


def rendered(drift: Drift, moves: int, seed_base: int = 930000) -> dict[str, Any]:
    """``bench/verdicts.py``'s rendered real-looking tables, every frame after the starting
    position's drifted (the lamp switched on, the camera knocked once the game began: the
    table learns the start as it was, then judges and relearns each move under the drift);
    its tally (right, asked, wrong)."""
    import verdicts as V
    from dataclasses import replace
    plain = V.render_scene

    def drifted(position: Any, params: Any, seed: int = 0, frame: int = 0, **kw: Any) -> Any:
        r = plain(position, params, seed=seed, frame=frame, **kw)
        return r if not frame else replace(r, image=drift(r.image, np.asarray(r.corners, np.float32), seed))

    tally: dict[str, Any] = V.new_tally()
    detail: list[str] = []
    V.render_scene = drifted
    try:
        seed = seed_base
        while tally["moves"] < moves:
            V.play_board(seed, min(V.MOVES_PER_BOARD, moves - tally["moves"]), 0.05, False, tally, detail)
            seed += 1
    finally:
        V.render_scene = plain
    tally["detail"] = detail
    return tally


def _line(label: str, t: dict[str, Any]) -> str:
    n = max(1, t["cases"])
    ms = float(np.median(t["ms"])) if t["ms"] else 0.0
    return (f"  {label:32s} {t['cases']:4d} cases: true {t['right']:4d} ({100 * t['right'] / n:5.1f} %), "
            f"asked {t['asked']:4d}, WRONG {t['wrong']}   (CPU {ms:.0f} ms a case)")


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=5, help="cases per image, quadrant and mover (default 5)")
    p.add_argument("--split", default="fresh",
                   help="the labels' split judged (default fresh: the one with real references)")
    p.add_argument("--conditions", default="", help="only these conditions, comma-separated: " + ", ".join(CONDITIONS).replace("%", "%%"))
    p.add_argument("--sequence", action="store_true", help="the slow drift over a game's moves instead")
    p.add_argument("--no-relearn", action="store_true", help="with --sequence: learn the first frame only")
    p.add_argument("--table", action="store_true",
                   help="each condition through the table's stability filter (frames settled again, right, wrong)")
    p.add_argument("--rendered", type=int, default=0, metavar="MOVES",
                   help="bench/verdicts.py's rendered tables instead (MOVES moves a condition from seed 930000)")
    p.add_argument("--verbose", action="store_true", help="list every question and wrong verdict")
    a = p.parse_args(argv)
    if a.rendered:
        for label in [c for c in CONDITIONS if not a.conditions or c in a.conditions.split(",")]:
            t = rendered(CONDITIONS[label], a.rendered)
            n = max(1, t["moves"])
            print(f"  {label:32s} {t['moves']:4d} moves: right {t['right']:4d} ({100 * t['right'] / n:5.1f} %), "
                  f"asked {t['asked']:4d}, WRONG {t['wrong']}", flush=True)
            if a.verbose:
                for line in t["detail"]:
                    print("     ", line)
        return 0
    data = VR.load_labels()
    labels, tables = data["images"], data.get("tables", {})
    names = data["split"][a.split]
    if a.sequence:
        for label, step in STEPS.items():
            if a.conditions and label not in a.conditions.split(","):
                continue
            t, detail = sequence(step, labels, tables, a.cases, relearn=not a.no_relearn)
            print(_line(label + (" (no relearn)" if a.no_relearn else ""), t), flush=True)
            if a.verbose:
                for line in detail:
                    print("     ", line)
        return 0
    chosen = [c for c in CONDITIONS if not a.conditions or c in a.conditions.split(",")]
    if not chosen:
        p.error(f"--conditions {a.conditions!r}: none of " + ", ".join(CONDITIONS))
    if a.table:
        for label in chosen:
            tt, detail = table(CONDITIONS[label], names, labels, tables, a.cases)
            took = sorted(tt["took"])
            median, most = (took[len(took) // 2], took[-1]) if took else ("-", "-")
            print(f"  {label:24s} settled {tt['settled']:2d} of {tt['frames']:2d} frames (frames it took: median "
                  f"{median}, most {most}); cases {tt['cases']:4d}: "
                  f"true {tt['right']:4d}, asked {tt['asked']:4d}, WRONG {tt['wrong']}", flush=True)
            if a.verbose:
                for line in detail:
                    print("     ", line)
        return 0
    total = _tally()
    for label in chosen:
        t, detail = condition(CONDITIONS[label], names, labels, tables, a.cases)
        arm = arms(CONDITIONS[label], names, labels, tables)
        print(_line(label, t) + f"; arm frames read as a board: {', '.join(arm) or 'none'}", flush=True)
        for k in ("cases", "right", "asked", "wrong"):
            total[k] += t[k]
        total["ms"] += t["ms"]
        if a.verbose:
            for line in detail:
                print("     ", line)
    print(_line("all conditions", total))
    return 0


if __name__ == "__main__":
    sys.exit(main())
