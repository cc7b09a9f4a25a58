"""Real boards nobody here made: per-point reading accuracy and verdicts, by split.

The images are ``../shared/vision/overhead`` (11 real overhead frames and photos); their
labels (two independent labellings, merged) are ``tests/data/vision_real/labels.json``,
which also fixes the split chosen before any tuning: ``dev`` (looked at while tuning) and
``held_out`` (never looked at while tuning).  Prints, for each half:

1. **Reading**: points (and the bar) right per image, with the corners and board shape from
   the labels (the hidden points of an image with an arm over it are left out), whole boards
   exact, and how many wrong points were reported sure (p >= 0.6).
2. **Verdicts without a reference**: the labelled board is the position *after* a move.
   Every position *before* it that a roll could have led there from (un-moving two of the
   mover's checkers, each of the four quadrants as Dark's home, either colour the mover) is
   a case: ``bgtable judge``'s own code must return the true play, or ask; a wrong play or a
   false "illegal" is a wrong verdict.
3. **Verdicts with a reference frame**: the same cases, the table having learned the board
   from a frame of the position before the move.  No second real frame of these tables
   exists, so the reference frame is made from the real one: at each slot the move changed,
   the look is copied from the same real image (an empty slot of the same triangle colour,
   a checker of that colour from another point), and the whole frame gets fresh noise and a
   2 % change of light.  This is said in every report of these figures.

``python3 bench/vision_real.py [--cases N] [--split dev|held_out|fresh|all]``; another labelled
set with ``--labels FILE --image-dir DIR`` (``tests/data/vision_unseen``: 8 real boards nobody
here had seen, whose images are fetched from their sources, see its README).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from typing import Any, Optional

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from referee.cli.judge import position_rows, rows_evidence  # noqa: E402
from referee.turn.likelihood import cells_of  # noqa: E402
from referee.turn.matching import evidence_position, match_reading  # noqa: E402
from referee.rules.moves import legal_plays  # noqa: E402
from referee.rules.position import BAR, Position  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.odds import point_odds  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.photo_edit import CheckerPlaces, doctored_reference  # noqa: E402

LABELS = os.path.join(ROOT, "tests", "data", "vision_real", "labels.json")
IMAGES = os.path.join(ROOT, "tests", "data", "vision_real", "images")
HOMES = ("bottom-right", "bottom-left", "top-right", "top-left")


def set_labels(labels: str, images: str) -> None:
    """Read another labelled set: its labels file and its images' folder (e.g. images that may
    not be kept in this repository, fetched from each label's source url)."""
    global LABELS, IMAGES
    if not os.path.isfile(labels):
        raise SystemExit(f"--labels {labels!r}: no such file (a labels.json of tests/data/vision_real's form)")
    if not os.path.isdir(images):
        raise SystemExit(f"--image-dir {images!r}: no such folder (the labelled images, each label's 'image' file)")
    LABELS, IMAGES = labels, images


def load_labels() -> dict[str, Any]:
    with open(LABELS, encoding="utf-8") as f:
        return json.load(f)


_FILES: dict[str, dict[str, str]] = {}   # per labels file: each label's image file


def image_path(name: str) -> str:
    """The image file of label ``name``: its ``image`` field (``moma.png``), else ``NAME.jpg``."""
    if LABELS not in _FILES:
        _FILES[LABELS] = {n: lab.get("image") or f"{n}.jpg" for n, lab in load_labels()["images"].items()}
    return os.path.join(IMAGES, _FILES[LABELS].get(name, f"{name}.jpg"))


def load_image(name: str) -> np.ndarray:
    """The labelled image ``name`` (BGR)."""
    img = cv2.imread(image_path(name))
    if img is None:
        raise FileNotFoundError(f"image {image_path(name)!r} cannot be read")
    return img


def config_for(lab: dict[str, Any], dark_home: str = "bottom-right") -> VisionConfig:
    return VisionConfig(markers=False, corners=L.format_corners(lab["corners"]), dark_home=dark_home,
                        bar_width=lab["bar_width"], board_height=lab["board_height"])


def hidden_cells(lab: dict[str, Any]) -> set[tuple[str, int]]:
    out = set()
    for h in lab.get("hidden", []):
        parts = h.split()
        if len(parts) >= 2 and parts[0] in ("top", "bottom") and parts[1].rstrip(":").isdigit():
            out.add((parts[0], int(parts[1].rstrip(":")) - 1))
    return out


def reading_accuracy(names: list[str], labels: dict[str, Any]) -> dict[str, Any]:
    """Part 1: points and bar right, boards exact, sure-but-wrong points."""
    pts = right = sure_wrong = boards = exact = bars = bar_right = 0
    rows_out = []
    for name in names:
        lab = labels[name]
        if not lab["board"]:
            continue
        reader = BoardReader(config_for(lab), corners=L.parse_corners(L.format_corners(lab["corners"])))
        r = reader.inspect(load_image(name), read_occluded=True)
        assert r.rows is not None
        hid = hidden_cells(lab)
        ok = n = 0
        wrong = []
        for row in ("top", "bottom"):
            got = r.rows.top if row == "top" else r.rows.bottom
            for i, (p, t) in enumerate(zip(got, lab[row])):
                if (row, i) in hid:
                    continue
                n += 1
                good = p.count == t[0] and (p.colour == t[1] or not t[0])
                ok += good
                if not good:
                    wrong.append(f"{row} {i + 1}: {p.count}{(p.colour or ' ')[0]} not {t[0]}{(t[1] or ' ')[0]}")
                    if point_odds(p).get((p.count, p.colour if p.count else None), 0) >= 0.6 and p.confidence >= 0.6:
                        sure_wrong += 1
        bar_ok = "bar" in lab.get("hidden", []) or tuple(r.rows.bar) == (lab["bar"]["dark"], lab["bar"]["light"])
        if "bar" not in lab.get("hidden", []):
            bars += 1
            bar_right += bar_ok
            if not bar_ok:
                wrong.append(f"bar: {r.rows.bar} not {(lab['bar']['dark'], lab['bar']['light'])}")
        pts += n
        right += ok
        boards += 1
        exact += ok == n and bar_ok
        rows_out.append((name, ok, n, bar_ok, r.occluded, wrong))
    return {"points": pts, "right": right, "bars": bars, "bar_right": bar_right, "boards": boards, "exact": exact,
            "sure_wrong": sure_wrong, "rows": rows_out}


def checker_size(img: np.ndarray, lab: dict[str, Any]) -> float:
    """The checkers' diameter (pw) as the reader measures it on this board."""
    from vision.rectify import rectify
    from vision.size import frame_spacings, measure_checker
    cfg = config_for(lab)
    view = rectify(img, np.asarray(lab["corners"], np.float32), cfg.px, shape=cfg.shape)
    return measure_checker(frame_spacings(view, cfg.read)) or L.CHECKER


CHECKER_BOXES = (2, 4)   # the checkers' classes in a photo's YOLO boxes (tests/data/vision/README.md)


def _box_stacks(lab: dict[str, Any], size: tuple[int, int]) -> Optional[list[list[np.ndarray]]]:
    """The photo's checker boxes (a ``NAME.txt`` of YOLO boxes beside the image, as
    ``tests/data/vision/photos-yolo`` has; ``size``: the image's height and width, px) as each row's
    (top, bottom) stacks, point by point: their centres' distances from the point's base (pw, on the
    board itself), nearest first; None without boxes."""
    path = os.path.join(IMAGES, os.path.splitext(lab.get("image") or "")[0] + ".txt")
    if not os.path.isfile(path):
        return None
    h, w = size
    centres = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            v = line.split()
            if len(v) == 5 and int(float(v[0])) in CHECKER_BOXES:
                centres.append((float(v[1]) * w, float(v[2]) * h))
    if not centres:
        return None
    shape = config_for(lab).shape
    H = cv2.getPerspectiveTransform(np.asarray(lab["corners"], np.float32), shape.corners_pw())
    own = cv2.perspectiveTransform(np.asarray(centres, np.float32)[None], H)[0].astype(np.float64)
    lx, _ = shape.to_layout(own[:, 0], own[:, 1])
    col = np.abs(lx[:, None] - np.array([L.column_x(c) for c in range(12)])[None, :]).argmin(axis=1)
    out = []
    for top in (True, False):
        here = (own[:, 1] < shape.height / 2) == top
        out.append([np.sort(own[(col == c) & here, 1] if top else shape.height - own[(col == c) & here, 1])
                    for c in range(12)])
    return out


def box_spacing(lab: dict[str, Any], size: tuple[int, int]) -> tuple[Optional[float], Optional[float]]:
    """The checkers' spacing (pw, on the board itself) along the points of each row (top, bottom) as
    the photo's own checker boxes show it (:func:`_box_stacks`; ``size``: the image's height and
    width, px): the median distance between neighbouring box centres of one point's stack; None for
    a row with fewer than four such distances, or with no boxes."""
    stacks = _box_stacks(lab, size)
    if stacks is None:
        return None, None
    out: list[Optional[float]] = []
    for row in stacks:
        gaps = [g for ys in row for g in np.diff(ys).tolist()]
        out.append(float(np.median(gaps)) if len(gaps) >= 4 else None)
    return out[0], out[1]


def box_start(lab: dict[str, Any], size: tuple[int, int], spacing: tuple[float, float]) -> tuple[float, float]:
    """Where each row's (top, bottom) first checker place begins, pw from the point's base on the
    board itself, as the photo's checker boxes show it: over the row's stacks, the median of the
    first box centre less half the ``spacing``.  Seen obliquely a checker's face stands off the
    board, and the camera sees the stacks shifted: up to half a checker on unseen6's photos (image040's
    top row), a third on image041's and image045's.  0 for a row with fewer than two stacks."""
    stacks = _box_stacks(lab, size)
    if stacks is None:
        return 0.0, 0.0
    out = []
    for row, cd in zip(stacks, spacing):
        firsts = [float(ys[0]) - cd / 2 for ys in row if len(ys)]
        out.append(float(np.median(firsts)) if len(firsts) >= 2 else 0.0)
    return out[0], out[1]


def checker_spacing(img: np.ndarray, lab: dict[str, Any], size: float) -> tuple[float, float]:
    """The checkers' spacing (pw) along the points of each row (top, bottom) of the photo ``img``
    labelled ``lab``, at which a made frame lays the checkers it moves: where the photo's own
    checker boxes show it (:func:`box_spacing`), that; else as the learned table measures it on a
    frame of a known position (:func:`vision.row_pitch.row_pitch`; in a steep oblique view one row's
    stacks are foreshortened, and a made frame must show its moved checkers so too).  The table's
    own measure can be wrong (unseen6's image043, an under-exposed photo whose rims hardly show:
    0.9 where its boxes lie 1.08 apart), and a made frame laid at it cut its pieces across two checkers."""
    boxes = box_spacing(lab, img.shape[:2])
    if boxes[0] is not None and boxes[1] is not None:
        return boxes[0], boxes[1]
    from vision.memory import BoardMemory
    from vision.row_pitch import row_pitch
    from vision.rectify import rectify
    cfg = config_for(lab)
    view = rectify(img, np.asarray(lab["corners"], np.float32), cfg.px, shape=cfg.shape)
    mem = BoardMemory(size, cfg.shape.height)
    rows = L.RowReading(tuple(L.PointReading(n, c, 1.0) for n, c in lab["top"]),
                        tuple(L.PointReading(n, c, 1.0) for n, c in lab["bottom"]), (0, 0), 1.0)
    top, bottom = row_pitch(view, mem.geo, mem.states_of(rows))
    return boxes[0] or size * top, boxes[1] or size * bottom


def checker_places(img: np.ndarray, lab: dict[str, Any], size: float) -> CheckerPlaces:
    """Where a made frame lays the checkers it moves on the photo ``img`` labelled ``lab``: at the
    rows' spacing (:func:`checker_spacing`), the first place where the photo's boxes show the stacks
    begin (:func:`box_start`; at the base without boxes: the table's own measure has no such shift)."""
    spacing = checker_spacing(img, lab, size)
    return CheckerPlaces(spacing, box_start(lab, img.shape[:2], spacing))


def unmoves(after_m: Position, dice: tuple[int, int]) -> list[Position]:
    """Positions (mover on roll) from which ``dice`` can lead to ``after_m`` (mover's view, not
    yet swapped) by two plain steps (no hits undone, no bear-offs undone)."""
    me, opp = list(after_m.me), list(after_m.opp)

    def back(side: list[int], die: int) -> list[list[int]]:
        """The side with one checker taken back ``die`` pips to a point the opponent does not hold."""
        out = []
        for p in range(24 - die):
            if side[p] and not opp[23 - (p + die)]:
                moved = side.copy()
                moved[p] -= 1
                moved[p + die] += 1
                out.append(moved)
        return out

    a, b = dice
    out = [Position(m2, opp) for first, second in ((a, b), (b, a)) for m1 in back(me, first) for m2 in back(m1, second)]
    return list(dict.fromkeys(out))


def cases_for(after: Position, mover: str, rng: random.Random, per: int) -> list[tuple[Position, tuple[int, int]]]:
    """(position before, Dark on roll; dice) pairs whose legal plays include ``after``."""
    after_m = after if mover == "dark" else after.swap()
    found = []
    rolls = [(a, b) for a in range(1, 7) for b in range(a + 1, 7)]
    rng.shuffle(rolls)
    for dice in rolls:
        for before_m in unmoves(after_m, dice):
            if before_m.me[BAR]:
                continue
            results = {lp.result for lp in legal_plays(before_m, *dice)}
            if after_m.swap() in results:
                found.append((before_m if mover == "dark" else before_m.swap(), dice))
        if len(found) >= 4 * per:
            break
    rng.shuffle(found)
    return found[:per]


MODES = {"plain": "the absolute reading alone", "self": "without a reference (the frame teaches itself)",
         "made": "with a (made) reference frame",
         "real": "with real reference frames (earlier frames of the same table, learned)"}


def real_references(name: str, labels: dict[str, Any], tables: dict[str, list[str]]) -> list[str]:
    """The frames the table would have learned from before ``name``: the earlier frames of the
    same table (video order), each fully in view, its totals 15 a side; when there is none, the
    nearest later one (said in the report).  Empty when ``name`` belongs to no listed table."""
    for frames in tables.values():
        if name not in frames:
            continue
        def shown(f: str) -> tuple[Any, ...]:
            return tuple(json.dumps(labels[f][k]) for k in ("top", "bottom", "bar"))
        # a frame showing the very position judged would be the answer, not a lesson
        usable = [f for f in frames if f != name and not labels[f].get("hidden")
                  and labels[f].get("totals") == {"dark": 15, "light": 15} and shown(f) != shown(name)]
        k = frames.index(name)
        past = [f for f in usable if frames.index(f) < k]
        return past or [f for f in usable if frames.index(f) > k][:1]
    return []


def tally_verdict(tally: dict[str, Any], detail: list[str], case: str, v: Any, cands: list, plays: list,
                  after: Position, no_reading: str = "no reading") -> None:
    """Count one case's verdict ``v`` (None: no reading) as right, asked or wrong (a wrong play or a
    false "illegal"), and note the asked and wrong ones in ``detail`` under ``case``."""
    tally["cases"] += 1
    if v is not None and v.kind == "match":
        good = cands[v.indices[0]] == after
        tally["right" if good else "wrong"] += 1
        if not good:
            detail.append(f"{case}: WRONG {plays[v.indices[0]].play}")
    elif v is not None and v.kind == "illegal":
        tally["wrong"] += 1
        detail.append(f"{case}: WRONG illegal ({v.reason})")
    else:
        tally["asked"] += 1
        why = v.kind + ": " + v.reason if v else no_reading
        detail.append(f"{case}: asked ({why})")


def table_corners(name: str, labels: dict[str, Any], tables: dict[str, list[str]]) -> list[list[float]]:
    """One table, one fixed camera: the corners the table found once, here the mean of its
    frames' labelled corners (each frame's own when ``name`` is in no listed table)."""
    for frames in tables.values():
        if name in frames:
            return np.mean([labels[f]["corners"] for f in frames], axis=0).round(1).tolist()
    return labels[name]["corners"]


def learned_reader(name: str, labels: dict[str, Any], tables: dict[str, list[str]],
                   home: str = "bottom-right") -> BoardReader:
    """A reader of ``name``'s table, at the table's corners, that has learned its board from the
    frames :func:`real_references` gives (their labels, ``home`` the quadrant of Dark's home)."""
    cfg = config_for(dict(labels[name], corners=table_corners(name, labels, tables)), home)
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    for ref in real_references(name, labels, tables):
        reader.inspect(load_image(ref), read_occluded=True)
        reader.learn(rows_evidence(labels[ref], home))
    return reader


_DICE: dict[tuple[str, str], tuple[Any, ...]] = {}


def dice_seen(name: str, lab: dict[str, Any]) -> tuple[Any, ...]:
    """The dice the table's dice finder sees on ``name`` (read at ``lab``'s corners): a whole board
    searched, only the dice read surely, as :class:`vision.dice_watch.DiceWatch` takes them on a
    board it has no frame without dice of."""
    from vision.dice import find_dice_in_frame
    key = (name, json.dumps(lab["corners"]))
    if key not in _DICE:
        cfg = config_for(lab)
        found = find_dice_in_frame(load_image(name), np.asarray(lab["corners"], np.float32), cfg.shape)
        _DICE[key] = tuple(d for d in found if d.sure())
    return _DICE[key]


def judge_cases(names: list[str], labels: dict[str, Any], per: int, mode: str, seed: int = 1,
                tables: Optional[dict[str, list[str]]] = None) -> dict[str, Any]:
    """Parts 2 and 3: right plays, questions, wrong verdicts (``mode``: a key of :data:`MODES`)."""
    rng = random.Random(seed)
    tables = tables or {}
    tally: dict[str, Any] = {"cases": 0, "right": 0, "asked": 0, "wrong": 0, "ms": [], "cells": 0, "cells_right": 0,
                             "cells_wrong": {}, "illegal": 0, "illegal_called": 0, "illegal_wrong": 0,
                             "unmoved": 0, "unmoved_called": 0, "unmoved_wrong": 0}
    still = random.Random(seed + 1)   # the unmoved boards' rolls: apart from the cases' draws
    detail = []
    for name in names:
        lab = labels[name]
        if not lab["board"] or lab["totals"] != {"dark": 15, "light": 15}:
            continue
        if lab.get("hidden"):  # an arm over the board: the truth under it is a guess (see arm_frames)
            continue
        refs = real_references(name, labels, tables) if mode == "real" else []
        if mode == "real" and not refs:
            continue
        if mode == "real":  # one camera, fixed: every frame of the table read at the same corners
            lab = dict(lab, corners=table_corners(name, labels, tables))
        img = load_image(name)
        size = checker_size(img, lab)
        spacing = checker_places(img, lab, size) if mode == "made" else (size, size)
        lying = dice_seen(name, lab) if mode != "plain" else ()  # the dice found on the frame
        for home in HOMES:
            after = evidence_position(rows_evidence(lab, home))
            cfg = config_for(lab, home)
            # the table has learned its board from the earlier known frames
            learned = learned_reader(name, labels, tables, home) if mode == "real" else None
            corners = L.parse_corners(cfg.corners or "")
            plain = None
            for mover in ("dark", "light"):
                for before, dice in cases_for(after, mover, rng, per):
                    t0 = time.process_time()
                    if mode == "plain":
                        if plain is None:
                            plain = BoardReader(cfg, corners=corners).inspect(img).evidence
                        ev = plain
                    else:
                        ev = taught_reading(mode, img, lab, cfg, home, before, dice, lying, spacing, learned,
                                            rng.randrange(1 << 30) if mode == "made" else 0)
                    before_m = before if mover == "dark" else before.swap()
                    plays = legal_plays(before_m, *dice)
                    cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays]
                    v = match_reading(ev, before, cands, mover) if ev is not None else None
                    tally["ms"].append(1000 * (time.process_time() - t0))
                    if ev is not None:  # the reading itself, point by point and the bar
                        truth = cells_of(after)
                        got = [(p.count, p.colour if p.count else None) for p in ev.points] + \
                            [(ev.bar[0], "dark"), (ev.bar[1], "light")]
                        tally["cells"] += 26
                        tally["cells_right"] += sum(a == b for a, b in zip(got, truth))
                        for i, (a_, b_) in enumerate(zip(got, truth)):
                            if a_ != b_:  # cell i (points 1-24 from Dark's home, then Dark's and Light's bar)
                                key = (name, home, i, a_, b_)
                                tally["cells_wrong"][key] = tally["cells_wrong"].get(key, 0) + 1
                    tally_verdict(tally, detail, f"{name} {home} {mover} {dice}", v, cands, plays, after)
                    if ev is not None:
                        tally_illegal(tally, detail, f"{name} {home} {mover}", ev, before, mover, dice, after)
                kept: list[Any] = []   # the plain and real modes' reading: the same whatever came before
                for dice in unmoved_rolls(after, mover, still, per if mode in ("self", "made") else 0):
                    if mode == "plain":
                        if plain is None:
                            plain = BoardReader(cfg, corners=corners).inspect(img).evidence
                        ev = plain
                    elif mode == "real" and kept:
                        ev = kept[0]
                    else:   # the table's reading, having learned its board with this very position before
                        ev = taught_reading(mode, img, lab, cfg, home, after, dice, lying, spacing, learned,
                                            still.randrange(1 << 30) if mode == "made" else 0)
                        kept.append(ev)
                    if ev is not None:
                        tally_unmoved(tally, detail, f"{name} {home} {mover}", ev, after, mover, dice)
    tally["detail"] = detail
    return tally


def taught_reading(mode: str, img: Any, lab: dict[str, Any], cfg: VisionConfig, home: str, before: Position,
                   dice: tuple[int, int], lying: tuple[Any, ...], spacing: Any, learned: Optional[BoardReader],
                   seed: int) -> Any:
    """``img``'s evidence as read by a table that knows the position ``before`` the move: ``mode`` "made"
    (its board learned from a reference frame made of ``img`` showing ``before``, :func:`doctored_reference`
    with ``seed`` and ``spacing``), "real" (``learned``'s look of the earlier frames) or "self" (the frame
    teaching itself under ``before`` and ``dice``); the dice found on the frame (``lying``) told to the look."""
    corners = L.parse_corners(cfg.corners or "")
    reader = BoardReader(cfg, corners=corners)
    rows = position_rows(before, home)
    if mode == "made":
        ref_reader = BoardReader(cfg, corners=corners)
        ref_reader.inspect(doctored_reference(img, lab, rows, home, cfg, seed=seed, checker=spacing),
                           read_occluded=True)
        ref_reader.learn(rows_evidence(rows, home))
        reader.memory, reader.colours = ref_reader.memory, ref_reader.colours
    elif mode == "real":
        assert learned is not None
        reader.memory, reader.colours = learned.memory, learned.colours
        reader.checker = learned.checker
    else:
        reader.inspect(img, read_occluded=True)
        reader.assume(rows_evidence(rows, home), dice=dice)
    assert reader.memory is not None
    reader.memory.dice_lying(lying)
    return reader.inspect(img).evidence


def tally_illegal(tally: dict[str, Any], detail: list[str], case: str, ev: Any, before: Position, mover: str,
                  dice: tuple[int, int], after: Position) -> None:
    """The same board judged as an illegal move: under every other roll whose legal plays cannot
    leave it (a player who miscounted, played another roll, moved a checker a pip too far).  The
    board is not among the candidates, so accepting one is a WRONG verdict (a position recorded
    that the board does not show); "illegal" is right, asking allowed."""
    before_m = before if mover == "dark" else before.swap()
    for a in range(1, 7):
        for b in range(a, 7):
            if (a, b) == tuple(sorted(dice)):
                continue
            plays = legal_plays(before_m, a, b)
            cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays]
            if not cands or after in cands:
                continue
            v = match_reading(ev, before, cands, mover)
            tally["illegal"] += 1
            if v.kind == "illegal":
                tally["illegal_called"] += 1
            elif v.kind == "match":
                tally["illegal_wrong"] += 1
                detail.append(f"{case} {(a, b)} (played {dice}): WRONG accepted {plays[v.indices[0]].play}")


def unmoved_rolls(after: Position, mover: str, rng: random.Random, per: int) -> list[tuple[int, int]]:
    """The rolls under which ``after`` is judged as the board before the move, unchanged (the mover
    lifted the dice without moving): every roll with a legal play that changes the board (``per`` 0),
    or ``per`` of them drawn by ``rng`` (the modes whose reading is learned anew for each)."""
    after_m = after if mover == "dark" else after.swap()
    rolls = [(a, b) for a in range(1, 7) for b in range(a, 7)
             if any(lp.result.swap() != after_m for lp in legal_plays(after_m, a, b))]
    return rolls if per <= 0 else rng.sample(rolls, min(per, len(rolls)))


def tally_unmoved(tally: dict[str, Any], detail: list[str], case: str, ev: Any, after: Position, mover: str,
                  dice: tuple[int, int]) -> None:
    """The board judged as the position before the move, unchanged: the mover lifted the dice without
    moving.  No legal play leaves it, so accepting one is a WRONG verdict (a move recorded that
    nobody made); "illegal" is right, asking allowed."""
    before_m = after if mover == "dark" else after.swap()
    plays = legal_plays(before_m, *dice)
    cands = [lp.result.swap() if mover == "dark" else lp.result for lp in plays]
    v = match_reading(ev, after, cands, mover)
    tally["unmoved"] += 1
    if v.kind == "illegal":
        tally["unmoved_called"] += 1
    elif v.kind == "match":
        tally["unmoved_wrong"] += 1
        detail.append(f"{case} {dice} (nothing moved): WRONG accepted {plays[v.indices[0]].play}")


def arm_frames(names: list[str], labels: dict[str, Any],
               tables: dict[str, list[str]]) -> list[tuple[str, bool, Optional[bool], bool]]:
    """Frames with an arm or hand over the board (hidden points, and no ``hidden_why``: points hidden by
    something else, a frame's lip, stacks seen edge-on): (name, read as a board by the
    absolute reading, read as a board by the table that learned its board from the earlier frames,
    None when it has none, read as a board by the frame teaching itself under its labelled
    position, as ``bgtable judge`` without a reference does).  A frame with an arm over it must
    never be read as a board."""
    out = []
    for name in names:
        lab = labels[name]
        if not lab["board"] or not lab.get("hidden") or lab.get("hidden_why"):
            continue
        img = load_image(name)
        plain = BoardReader(config_for(lab), corners=L.parse_corners(L.format_corners(lab["corners"])))
        read_plain = plain.inspect(img).evidence is not None
        read_learned: Optional[bool] = None
        if real_references(name, labels, tables):
            learned = learned_reader(name, labels, tables)
            assert learned.memory is not None
            learned.memory.dice_lying(dice_seen(name, dict(lab, corners=table_corners(name, labels, tables))))
            read_learned = learned.inspect(img).evidence is not None
        taught = BoardReader(config_for(lab), corners=L.parse_corners(L.format_corners(lab["corners"])))
        taught.inspect(img, read_occluded=True)
        read_self = taught.assume(rows_evidence(lab, "bottom-right")) and taught.inspect(img).evidence is not None
        out.append((name, read_plain, read_learned, read_self))
    return out


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cases", type=int, default=3, help="cases per image, quadrant and mover (default 3)")
    p.add_argument("--split", default="all", help="a split of the labels (dev, held_out, fresh) or all")
    p.add_argument("--modes", default="plain,self,made,real", help="verdict modes, comma-separated: " + ", ".join(
        f"{k} ({v})" for k, v in MODES.items()))
    p.add_argument("--images", default="", help="only these images of the split(s), comma-separated")
    p.add_argument("--seed", type=int, default=1, help="the cases' draw (default 1): another seed, other moves and rolls")
    p.add_argument("--verbose", action="store_true", help="list every wrong point and every question")
    p.add_argument("--labels", default=LABELS, help="a labels file of the same form (default: the repository's)")
    p.add_argument("--image-dir", default="", help="the labelled images' folder (default: images/ beside the labels)")
    a = p.parse_args(argv)
    set_labels(a.labels, a.image_dir or os.path.join(os.path.dirname(os.path.abspath(a.labels)), "images"))
    data = load_labels()
    labels = data["images"]
    halves = list(data["split"]) if a.split == "all" else [a.split]
    if any(h not in data["split"] for h in halves):
        p.error(f"--split {a.split!r}: the labels have {', '.join(data['split'])} (or all)")
    tables = data.get("tables", {})
    for half in halves:
        names = [n for n in data["split"][half] if not a.images or n in a.images.split(",")]
        print(f"== {half}: {', '.join(names)}")
        acc = reading_accuracy(names, labels)
        for name, ok, n, bar_ok, occ, wrong in acc["rows"]:
            print(f"  {name:10s} points {ok}/{n}  bar {'right' if bar_ok else 'WRONG'}"
                  + ("  (flagged: something over the board)" if occ else "")
                  + (f"  {'; '.join(wrong)}" if a.verbose and wrong else ""))
        print(f"  reading: points {acc['right']}/{acc['points']} = {100 * acc['right'] / max(1, acc['points']):.1f} %, "
              f"bar {acc['bar_right']}/{acc['bars']}, boards exact {acc['exact']}/{acc['boards']}, "
              f"wrong points reported sure {acc['sure_wrong']}")
        for name, read_plain, read_learned, read_self in arm_frames(names, labels, tables):
            print(f"  {name:10s} an arm over the board: read as a board by the absolute reading "
                  f"{'YES' if read_plain else 'no'}, by the table that learned its board "
                  f"{'-' if read_learned is None else 'YES' if read_learned else 'no'}, "
                  f"by the frame teaching itself {'YES' if read_self else 'no'}")
        for mode in a.modes.split(","):
            t = judge_cases(names, labels, a.cases, mode, seed=a.seed, tables=tables)
            if not t["cases"]:
                print(f"  verdicts {MODES[mode]}: no case (no image of this half has one)")
                continue
            n = max(1, t["cases"])
            ms = np.percentile(t["ms"], 50) if t["ms"] else 0.0
            print(f"  verdicts {MODES[mode]}: "
                  f"{t['cases']} cases, true play {t['right']} ({100 * t['right'] / n:.1f} %), "
                  f"asked {t['asked']} ({100 * t['asked'] / n:.1f} %), WRONG {t['wrong']}   "
                  f"(CPU {ms:.0f} ms a case, median)")
            if t["cells"]:
                print(f"    its readings: points and bar right {t['cells_right']}/{t['cells']} = "
                      f"{100 * t['cells_right'] / t['cells']:.2f} %")
            if t["illegal"]:
                k, called, wrong = t["illegal"], t["illegal_called"], t["illegal_wrong"]
                print(f"    the same boards as illegal moves (judged under every other roll that cannot leave "
                      f"them): {k}, called illegal {called}, asked {k - called - wrong}, "
                      f"WRONG (a legal play accepted) {wrong}")
            if t["unmoved"]:
                k, called, wrong = t["unmoved"], t["unmoved_called"], t["unmoved_wrong"]
                print(f"    the same boards as the position before, nothing moved (the dice lifted): {k}, called illegal "
                      f"{called}, asked {k - called - wrong}, WRONG (a legal play accepted) {wrong}")
            if a.verbose:
                for (name, home, i, got, truth), k in sorted(t["cells_wrong"].items(), key=lambda kv: -kv[1]):
                    cell = f"point {i + 1}" if i < 24 else f"{'dark' if i == 24 else 'light'} bar"
                    print(f"      read wrong {k} times: {name} {home} {cell}: {got} not {truth}")
                for line in t["detail"]:
                    print("     ", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
