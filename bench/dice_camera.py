"""How well the camera reads the dice: rendered frames with dice, and the real overhead images.

    python3 -m bench.dice_camera [--frames 300] [--seed 0] [--labels tests/data/vision_real/labels.json]
                                 [--images /work/shared/vision/overhead] [--speed 20] [--px 64] [--no-before]
    python3 -m bench.dice_camera --sequence GAMES [--turns 8] [--same-noise]   (read --batch's dice, below)
    python3 -m bench.dice_camera --frames 0 --speed 0 --unseen vision_unseen=DIR --unseen vision_unseen3=DIR ...
    python3 -m bench.dice_camera --frames 100 --speed 0 --dice-size 0.6 0.75   (larger dice than the renderer's)

Rendered: ``RenderParams.real_table`` frames with two dice thrown on every frame (values, halves,
on a checker, over the board's edge (any part: its ``overhang``) as the renderer's :class:`vision.render_props.DieSeen` says).
``--dice-size LO HI``: the same throws with each die's side drawn between LO and HI pw (the renderer's
0.32-0.45 are the small end of club dice, which run to 0.8 of a checker's width: 0.6-0.75 pw).
A found die is matched to a drawn one within 0.3 pw of its centre.  Printed: dice found, values
right, values WRONG while the finder was sure (the figure that must be 0), values withheld
(unsure), halves, on-checker and off-board right, false dice (nothing drawn there).  Real: the
labelled dice (image px) of test1 and test6 (tuned on) and test2, template3, dices6 (held out),
each reported apart.  Speed: CPU time of :func:`vision.dice.find_dice` on the view (``--px``, default 64), best of N,
and of :func:`vision.dice.find_dice_in_frame` on a whole 1280 x 720 frame: alone, and given the frame
before the throw (``before=``: only the places that changed are looked at, as the table's camera thread
does, :mod:`vision.dice_watch`).

The rendered frames are read as the table reads them: given the same board drawn without the dice
(``--no-before``: the whole board searched).  Rolls: a frame's two dice are the roll only when the
camera is sure of both values (:attr:`referee.events.DiceSeen.sure`, as the referee of a camera-only
table takes them); printed are the rolls so accepted, those with a wrong value, and those accepted
wrong while the camera was unsure of a die (the figure that must be 0: an unsure view is never a roll).

``--unseen SET=DIR`` (repeatable): the dice labelled on the photos of ``tests/data/SET`` (its images in DIR:
the set's README says where to fetch them), boards no one tuned the finder on.  Their dice were first
measured on 2026-12-05 (session 31), after their checkers; the split was chosen then, before any change
to the finder: ``vision_unseen`` and ``vision_unseen4`` to look at (dev), ``vision_unseen3`` and
``vision_unseen5`` held out.  Every labelled die counts, also those off the playing area (a pile on the
frame, one on the table beside the board, two in players' hands): the per-photo lines say which.
``vision_unseen6`` (its photos in ``tests/data/vision/photos-yolo``) is scored by its own split: dev, held
out and the three renderings apart (first measured 2026-12-07, session 41).

``--sequence``: rendered games of one camera each (:func:`game_frames`), line by line as ``read --batch``
reads them, the whole search against :class:`vision.dice_carry.DiceCarry` (:func:`sequence`).
"""
from __future__ import annotations

import argparse
import json
from dataclasses import replace
import time
from pathlib import Path
from typing import Any

import sys

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project, not bench/referee.py

from referee.events import DiceSeen  # noqa: E402
from vision import dice as D  # noqa: E402
from vision import layout as L  # noqa: E402
from vision import render as R  # noqa: E402
from vision.rectify import rectify  # noqa: E402
from vision.render_dice import Die, random_dice  # noqa: E402

TUNED = ("test1", "test6")
HELD_OUT = ("test2", "template3", "dices6")
#: the unseen photo sets' dice: looked at (dev) or held out, chosen before the finder was changed for them
UNSEEN_SPLIT = {"vision_unseen": "dev", "vision_unseen4": "dev", "vision_unseen3": "held out",
                "vision_unseen5": "held out", "vision_unseen6": "its own split"}
DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def _pw_px(corners: np.ndarray, shape: L.BoardShape) -> float:
    c = np.asarray(corners, np.float64)
    return float((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2 / shape.width)


def _match(truth: list[tuple[float, float]], got: list[D.DieSeen], tol: float) -> dict[int, int]:
    """Drawn (or labelled) die -> found die, the closest pairs first, each within ``tol`` px."""
    pairs = sorted((float(np.hypot(g.image[0] - x, g.image[1] - y)), i, k) for i, (x, y) in enumerate(truth)
                   for k, g in enumerate(got) if g.image is not None)
    out: dict[int, int] = {}
    for d, i, k in pairs:
        if d < tol and i not in out and k not in out.values():
            out[i] = k
    return out


def rendered(frames: int, seed: int, px: int = 64, verbose: bool = True, before: bool = True,
             sizes: "tuple[float, float] | None" = None) -> dict[str, int]:
    """Score the finder on ``frames`` rendered frames with two dice each (``before``: given the same
    board drawn without the dice, as the table's camera thread gives it; ``sizes``: the dice's side drawn
    between these (pw) instead of the renderer's 0.32-0.45, :func:`sized_dice`)."""
    c = dict(drawn=0, found=0, right=0, wrong_sure=0, wrong_unsure=0, withheld=0, none=0, half=0, on=0,
             on_drawn=0, on_found=0, off=0, off_drawn=0, off_found=0, false=0, false_sure=0,
             where_sure=0, half_where_sure=0, throws=0, accepted=0, accepted_wrong=0, accepted_wrong_unsure=0)
    rng = np.random.default_rng(seed)
    for i in range(frames):
        shape, params, pos = draw_board(rng)
        s = seed * 100_000 + i
        bare = R.render_scene(pos, params, seed=s, dice=[]) if before or sizes is not None else None
        if sizes is None:
            r = R.render_scene(pos, params, seed=s)
        else:
            assert bare is not None
            r = R.render_scene(pos, params, seed=s, dice=sized_dice(s, bare.props.checkers, shape, sizes))
        then = bare.image if before and bare is not None else None
        got = D.find_dice_in_frame(r.image, r.corners, shape, px=px, before=then)
        _roll(c, [t.value for t in r.dice], got)
        tol = 0.3 * _pw_px(r.corners, shape)
        match = _match([t.centre for t in r.dice], got, tol)
        used = set(match.values())
        for j, t in enumerate(r.dice):
            c["drawn"] += 1
            c["on_drawn"] += t.on_checker
            c["off_drawn"] += t.overhang
            if j not in match:
                continue
            g = got[match[j]]
            c["found"] += 1
            want_half = "off" if t.off_board else t.half
            t_off = t.overhang  # any of it over the edge
            c["half"] += g.half == want_half
            c["where_sure"] += g.where == 1.0
            c["half_where_sure"] += g.where == 1.0 and g.half == want_half
            c["on"] += g.on_checker == t.on_checker
            c["on_found"] += g.on_checker and t.on_checker
            c["off"] += g.off_board == t_off
            c["off_found"] += g.off_board and t_off
            if g.value is None:
                c["none"] += 1
            elif g.value == t.value:
                c["right"] += g.sure()
                c["withheld"] += not g.sure()
            else:
                c["wrong_sure" if g.sure() else "wrong_unsure"] += 1
                if g.sure() and verbose:
                    print(f"  frame {i}: a {t.value} read as a sure {g}")
        for k, g in enumerate(got):
            if k not in used:
                c["false"] += 1
                c["false_sure"] += g.sure()
                if g.sure() and verbose:
                    print(f"  frame {i}: a sure false die {g}")
    return c


def draw_board(rng: np.random.Generator) -> tuple[L.BoardShape, R.RenderParams, L.BoardEvidence]:
    """One rendered throw's board, drawn from ``rng`` (:func:`rendered`'s stream): its shape (a bar of
    1 or 0.75 pw), the real-table render settings with the dice always thrown, and a random position."""
    shape = L.BoardShape(bar=float(rng.choice([1.0, 0.75])))
    return shape, R.RenderParams.real_table(bar=shape.bar, dice_prob=1.0), L.random_position(rng)


def sized_dice(seed: int, checkers: Any, shape: L.BoardShape, sizes: tuple[float, float]) -> list[Die]:
    """The throw :func:`vision.render.render_scene` draws for ``seed`` (:func:`vision.render_dice.random_dice`
    from the same stream), each die's side drawn anew between ``sizes`` (pw): larger or smaller dice."""
    dr = np.random.default_rng([seed, 29])
    dr.random()   # (render_scene's draw of whether to throw)
    lo, hi = sizes
    side = np.random.default_rng([seed, 41]).uniform(lo, hi, 2)
    return [replace(d, size=float(s)) for d, s in zip(random_dice(dr, checkers, shape), side)]


def _roll(c: dict[str, int], values: list[int], got: list[D.DieSeen]) -> None:
    """One throw as a camera-only table's referee takes it: the roll only when sure of both dice."""
    c["throws"] += 1
    seen = DiceSeen(D.to_readings(got))
    unsure = len(got) != len(values) or not all(g.sure() for g in got)
    if len(seen.dice) == 2 and seen.sure:
        c["accepted"] += 1
        wrong = sorted(v for v in seen.values if v is not None) != sorted(values)
        c["accepted_wrong"] += wrong
        c["accepted_wrong_unsure"] += wrong and unsure


def real(labels: Path, images: Path, names: tuple[str, ...], px: int = 64) -> dict[str, int]:
    """Score the finder on the labelled real images ``names``."""
    data = json.loads(labels.read_text())["images"]
    c = dict(drawn=0, found=0, right=0, wrong_sure=0, wrong_unsure=0, withheld=0, none=0, false=0, false_sure=0)
    for name in names:
        lab = data[name]
        frame = cv2.imread(str(images / lab["image"]))
        if frame is None:
            raise SystemExit(f"cannot read {images / lab['image']}")
        shape = L.BoardShape(bar=lab["bar_width"], height=lab["board_height"])
        corners = np.array(lab["corners"], np.float32)
        got = D.find_dice_in_frame(frame, corners, shape, px=px)
        tol = 0.3 * _pw_px(corners, shape)
        match = _match([(t["x"], t["y"]) for t in lab["dice"]], got, tol)
        used = set(match.values())
        line = []
        for j, t in enumerate(lab["dice"]):
            c["drawn"] += 1
            if j not in match:
                line.append(f"{t['value']}:missed")
                continue
            g = got[match[j]]
            c["found"] += 1
            line.append(f"{t['value']}:{g.value}@{g.confidence:.2f}")
            if g.value is None:
                c["none"] += 1
            elif g.value == t["value"]:
                c["right"] += g.sure()
                c["withheld"] += not g.sure()
            else:
                c["wrong_sure" if g.sure() else "wrong_unsure"] += 1
        extra = [g for k, g in enumerate(got) if k not in used]
        c["false"] += len(extra)
        c["false_sure"] += sum(g.sure() for g in extra)
        print(f"  {name}: {' '.join(line)}" + (f"  false: {[(g.value, round(g.confidence, 2), g.image) for g in extra]}"
                                                  if extra else ""))
    return c


def unseen(sets: list[str], px: int = 64) -> None:
    """Score the finder on the unseen photo sets ``SET=DIR`` (:data:`UNSEEN_SPLIT`), each set and each
    half of the split apart."""
    halves: dict[str, dict[str, int]] = {}
    for item in sets:
        name, sep, folder = item.partition("=")
        labels = DATA / name / "labels.json"
        if not sep or name not in UNSEEN_SPLIT:
            raise SystemExit(f"--unseen {item!r}: expected SET=DIR with SET one of {', '.join(UNSEEN_SPLIT)}")
        if not labels.exists() or not Path(folder).is_dir():
            raise SystemExit(f"--unseen {item!r}: {labels} or the folder {folder!r} does not exist")
        whole = json.loads(labels.read_text())
        data = whole["images"]
        names = tuple(n for n, v in data.items() if v.get("dice") and v.get("corners"))
        # a set split in halves of its own (unseen6: dev, held out, renderings) is scored by them
        split = whole.get("split", {})
        parts = ({UNSEEN_SPLIT[name]: names} if len(split) < 2 else
                 {f"{name.removeprefix('vision_')} {h.replace('_', ' ')}": tuple(n for n in names if n in split[h])
                  for h in split})
        for part, part_names in parts.items():
            print(f"real, unseen ({name}, {part}):")
            c = real(labels, Path(folder), part_names, px)
            _show(f"  {name}", c)
            half = halves.setdefault(part, {k: 0 for k in c})
            for k, v in c.items():
                half[k] += v
    for half_name, c in halves.items():
        _show(f"real unseen, {half_name}", c)


def speed(n: int, seed: int, px: int = 64) -> tuple[float, float, float]:
    """Best CPU times (ms) on rendered 1280 x 720 frames with dice (three boards): find_dice on a
    rectified ``px`` view, find_dice_in_frame on the frame, and on the frame given the one before the throw."""
    params = R.RenderParams.real_table(dice_prob=1.0)
    out = []
    for k in range(3):
        pos = L.random_position(np.random.default_rng(seed + k))
        r = R.render_scene(pos, params, seed=seed + k)
        then = R.render_scene(pos, params, seed=seed + k, dice=[]).image
        view = rectify(r.image, r.corners, px)
        runs = (lambda: D.find_dice(view), lambda: D.find_dice_in_frame(r.image, r.corners, px=px),
                lambda: D.find_dice_in_frame(r.image, r.corners, px=px, before=then))
        best = []
        for f in runs:
            b = 1e9
            for _ in range(n):
                t = time.process_time()
                f()
                b = min(b, time.process_time() - t)
            best.append(b * 1000)
        out.append(best)
    worst = np.max(np.asarray(out), axis=0)  # the slowest board's best
    return float(worst[0]), float(worst[1]), float(worst[2])


def _moved(pos: L.BoardEvidence, rng: np.random.Generator, mover: str, pips: list[int]) -> L.BoardEvidence:
    """``pos`` with one of ``mover``'s checkers moved by each of ``pips`` (dark down the table's numbers,
    light up them) onto an empty point or its own (no hits, no bearing off: a game's look, not its rules)."""
    pts = list(pos.points)
    for d in pips:
        for _ in range(30):
            src = int(rng.integers(24))
            dst = src - d if mover == "dark" else src + d
            if pts[src].colour != mover or not pts[src].count or not 0 <= dst < 24:
                continue
            if pts[dst].count and pts[dst].colour != mover:
                continue
            pts[src] = L.PointReading(pts[src].count - 1, mover if pts[src].count > 1 else None)
            pts[dst] = L.PointReading(pts[dst].count + 1, mover)
            break
    return L.BoardEvidence(points=tuple(pts), bar=pos.bar, off=pos.off)


def game_frames(turns: int, seed: int, noise: bool = True) -> list[R.Rendered]:
    """A game's frames from one camera (``seed``), as ``read --batch`` may be given them: per turn the
    dice thrown, the checkers moved with the dice still lying, the dice lifted (each frame its own
    sensor noise)."""
    from vision.render_dice import random_dice
    rng = np.random.default_rng(seed)
    params = R.RenderParams.real_table(dice_prob=0.0)
    pos, out = L.start_position(), list[R.Rendered]()
    for t in range(turns):
        mover = ("dark", "light")[t % 2]
        dice = random_dice(rng, [], L.BoardShape())
        out.append(R.render_scene(pos, params, seed=seed, frame=(len(out) + 1) * noise, dice=dice))
        pos = _moved(pos, rng, mover, [d.value for d in dice])
        out.append(R.render_scene(pos, params, seed=seed, frame=(len(out) + 1) * noise, dice=dice))
        out.append(R.render_scene(pos, params, seed=seed, frame=(len(out) + 1) * noise, dice=[]))
    return out


def sequence(games: int, turns: int, seed: int, px: int = 64, noise: bool = True) -> None:
    """Rendered games read line by line as ``read --batch`` reads one camera: the whole board searched on
    every frame, and searched again with the close looks where nothing changed since the frame before
    kept (:class:`vision.dice_carry.DiceCarry`).  Printed per game: the lines whose dice are identical
    (every field), those that differ (each shown), the looks kept and made, each side's CPU ms a line
    after the first (both timed on the same frame, in turn) and found / right and sure / wrong sure /
    false against the dice drawn."""
    from vision.dice_carry import DiceCarry
    tot = {"same": 0, "lines": 0}
    for g in range(games):
        frames = game_frames(turns, seed * 1000 + g, noise)
        carry = DiceCarry(px=px)
        looked = {"whole": 0, "carry": 0, "": 0}   # close looks made on the lines after the first
        now = [""]
        look = D._look

        def counted(*a: Any, **k: Any) -> Any:
            looked[now[0]] += 1
            return look(*a, **k)

        D._look = counted
        for _ in range(2):   # the whole view's warp map made first (the first sight of a geometry warps it plainly)
            D.find_dice_in_frame(frames[0].image, frames[0].corners, px=px)
        cpu = {"whole": 0.0, "carry": 0.0}
        score = {k: dict(drawn=0, found=0, right=0, wrong_sure=0, false=0, false_sure=0) for k in cpu}
        same = 0
        for i, r in enumerate(frames):
            got: dict[str, list[D.DieSeen]] = {}
            for side in (("whole", "carry") if i % 2 else ("carry", "whole")):
                now[0] = side if i else ""
                t = time.process_time()
                got[side] = (D.find_dice_in_frame(r.image, r.corners, px=px) if side == "whole"
                             else carry.find(r.image, r.corners))
                if i:
                    cpu[side] += time.process_time() - t
            same += got["whole"] == got["carry"]
            if got["whole"] != got["carry"]:
                print(f"  game {g} line {i}: whole {[(d.board, d.value, d.confidence) for d in got['whole']]}"
                      f" carry {[(d.board, d.value, d.confidence) for d in got['carry']]}")
            tol = 0.3 * _pw_px(r.corners, L.BoardShape())
            for side, found in got.items():
                c = score[side]
                match = _match([t.centre for t in r.dice], found, tol)
                c["drawn"] += len(r.dice)
                c["found"] += len(match)
                c["right"] += sum(found[k].value == r.dice[j].value and found[k].sure() for j, k in match.items())
                c["wrong_sure"] += sum(found[k].value != r.dice[j].value and found[k].sure() for j, k in match.items())
                c["false"] += len(found) - len(match)
                c["false_sure"] += sum(d.sure() for k, d in enumerate(found) if k not in match.values())
        D._look = look
        n = max(len(frames) - 1, 1)
        tot["same"] += same
        tot["lines"] += len(frames)
        print(f"game {g} ({len(frames)} lines): dice identical on {same}, differ on {len(frames) - same}; "
              f"close looks made {looked['carry']} (whole searches: {looked['whole']}); CPU a line after the first: "
              f"whole board {cpu['whole'] / n * 1000:.1f} ms, what changed {cpu['carry'] / n * 1000:.1f} ms; "
              + "; ".join(f"{k}: drawn {c['drawn']} found {c['found']} right-sure {c['right']} wrong-sure "
                          f"{c['wrong_sure']} false {c['false']} ({c['false_sure']} sure)" for k, c in score.items()))
    print(f"sequences: dice identical on {tot['same']} of {tot['lines']} lines")


def _show(title: str, c: dict[str, int]) -> None:
    d = max(c["drawn"], 1)
    f = max(c["found"], 1)
    print(f"{title}: {c['drawn']} dice, found {c['found']} ({100 * c['found'] / d:.1f} %), value right and sure "
          f"{c['right']} ({100 * c['right'] / d:.1f} % of dice), WRONG while sure {c['wrong_sure']}, wrong unsure "
          f"{c['wrong_unsure']}, right but unsure {c['withheld']}, unreadable {c['none']}; false dice {c['false']}"
          f" ({c['false_sure']} sure)")
    if "half" in c:
        print(f"  half right {100 * c['half'] / f:.1f} %, on-checker right {100 * c['on'] / f:.1f} % "
              f"(found {c['on_found']} of {c['on_drawn']} drawn on checkers), off-board right "
              f"{100 * c['off'] / f:.1f} % (found {c['off_found']} of {c['off_drawn']} drawn off the board); "
              f"place sure (where 1.0) {c['where_sure']}, of them half right {c['half_where_sure']}")
    if "throws" in c:
        print(f"  rolls (camera only, both dice sure): {c['accepted']} of {c['throws']} throws accepted, "
              f"{c['accepted_wrong']} with a wrong value; accepted with a wrong value while the camera was "
              f"unsure: {c['accepted_wrong_unsure']}")


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--labels", type=Path, default=Path(__file__).resolve().parents[1] / "tests" / "data" / "vision_real" / "labels.json")
    ap.add_argument("--images", type=Path, default=Path("/work/shared/vision/overhead"))
    ap.add_argument("--speed", type=int, default=20)
    ap.add_argument("--px", type=int, default=64, help="pixels per point width of the rectified view")
    ap.add_argument("--dice-size", type=float, nargs=2, metavar=("LO", "HI"),
                    help="rendered dice of a side between LO and HI pw (the renderer's: 0.32-0.45)")
    ap.add_argument("--no-before", action="store_true", help="search the whole board (no frame before the throw)")
    ap.add_argument("--sequence", type=int, default=0, metavar="GAMES",
                    help="only rendered games read line by line: whole board vs what changed (DiceCarry)")
    ap.add_argument("--same-noise", action="store_true",
                    help="--sequence's frames with the same sensor noise: what nothing touched is unchanged")
    ap.add_argument("--turns", type=int, default=8, help="turns a game (--sequence), three frames each")
    ap.add_argument("--unseen", action="append", default=[], metavar="SET=DIR",
                    help="the dice of tests/data/SET/labels.json, its photos in DIR (repeatable)")
    a = ap.parse_args(argv)
    if a.sequence:
        sequence(a.sequence, a.turns, a.seed, a.px, not a.same_noise)
        return
    if a.frames:
        how = "whole board" if a.no_before else "where it changed since the board without dice"
        sized = "" if a.dice_size is None else f", dice {a.dice_size[0]:g}-{a.dice_size[1]:g} pw"
        _show(f"rendered (seed {a.seed}, {a.px} px/pw, {how}{sized})",
              rendered(a.frames, a.seed, a.px, before=not a.no_before,
                       sizes=None if a.dice_size is None else tuple(a.dice_size)))
    if a.labels.exists() and a.images.exists():
        print("real, tuned on:")
        _show("real tuned (test1, test6)", real(a.labels, a.images, TUNED, a.px))
        print("real, held out:")
        _show("real held out (test2, template3, dices6)", real(a.labels, a.images, HELD_OUT, a.px))
    if a.unseen:
        unseen(a.unseen, a.px)
    if a.speed:
        view, frame, changed = speed(a.speed, a.seed, a.px)
        print(f"CPU (best of {a.speed}, slowest of 3 boards): find_dice on a {a.px} px view {view:.1f} ms; "
              f"find_dice_in_frame on a 1280 x 720 frame {frame:.1f} ms, given the frame before the throw "
              f"{changed:.1f} ms")


if __name__ == "__main__":
    main()
