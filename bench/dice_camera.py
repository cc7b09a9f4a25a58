"""How well the camera reads the dice: rendered frames with dice, and the real overhead images.

    python3 -m bench.dice_camera [--frames 300] [--seed 0] [--labels tests/data/vision_real/labels.json]
                                 [--images /work/shared/vision/overhead] [--speed 20] [--px 64]

Rendered: ``RenderParams.real_table`` frames with two dice thrown on every frame (values, halves,
on a checker, over the board's edge (any part: its ``overhang``) as the renderer's :class:`vision.render_props.DieSeen` says).
A found die is matched to a drawn one within 0.3 pw of its centre.  Printed: dice found, values
right, values WRONG while the finder was sure (the figure that must be 0), values withheld
(unsure), halves, on-checker and off-board right, false dice (nothing drawn there).  Real: the
labelled dice (image px) of test1 and test6 (tuned on) and test2, template3, dices6 (held out),
each reported apart.  Speed: CPU time of :func:`vision.dice.find_dice` on the view (``--px``, default 64), best of N.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import sys

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the project, not bench/referee.py

from vision import dice as D  # noqa: E402
from vision import layout as L  # noqa: E402
from vision import render as R  # noqa: E402
from vision.rectify import rectify  # noqa: E402

TUNED = ("test1", "test6")
HELD_OUT = ("test2", "template3", "dices6")


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


def rendered(frames: int, seed: int, px: int = 64, verbose: bool = True) -> dict[str, int]:
    """Score the finder on ``frames`` rendered frames with two dice each."""
    c = dict(drawn=0, found=0, right=0, wrong_sure=0, wrong_unsure=0, withheld=0, none=0, half=0, on=0,
             on_drawn=0, on_found=0, off=0, off_drawn=0, off_found=0, false=0, false_sure=0,
             where_sure=0, half_where_sure=0)
    rng = np.random.default_rng(seed)
    for i in range(frames):
        shape = L.BoardShape(bar=float(rng.choice([1.0, 0.75])))
        params = R.RenderParams.real_table(bar=shape.bar, dice_prob=1.0)
        pos = L.random_position(rng)
        r = R.render_scene(pos, params, seed=seed * 100_000 + i)
        got = D.find_dice(rectify(r.image, r.corners, px, shape=shape), corners=r.corners, shape=shape)
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


def speed(n: int, seed: int, px: int = 64) -> float:
    """Best CPU time (ms) of find_dice on a rectified 64 px view of a rendered frame with dice."""
    params = R.RenderParams.real_table(dice_prob=1.0)
    r = R.render_scene(L.random_position(np.random.default_rng(seed)), params, seed=seed)
    view = rectify(r.image, r.corners, px)
    best = 1e9
    for _ in range(n):
        t = time.process_time()
        D.find_dice(view)
        best = min(best, time.process_time() - t)
    return best * 1000


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


def main(argv: list[str] | None = None) -> None:
    """Run the bench and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--labels", type=Path, default=Path(__file__).resolve().parents[1] / "tests" / "data" / "vision_real" / "labels.json")
    ap.add_argument("--images", type=Path, default=Path("/work/shared/vision/overhead"))
    ap.add_argument("--speed", type=int, default=20)
    ap.add_argument("--px", type=int, default=64, help="pixels per point width of the rectified view")
    a = ap.parse_args(argv)
    if a.frames:
        _show(f"rendered (seed {a.seed}, {a.px} px/pw)", rendered(a.frames, a.seed, a.px))
    if a.labels.exists() and a.images.exists():
        print("real, tuned on:")
        _show("real tuned (test1, test6)", real(a.labels, a.images, TUNED, a.px))
        print("real, held out:")
        _show("real held out (test2, template3, dices6)", real(a.labels, a.images, HELD_OUT, a.px))
    if a.speed:
        print(f"find_dice on a {a.px} px view: {speed(a.speed, a.seed, a.px):.2f} ms CPU (best of {a.speed})")


if __name__ == "__main__":
    main()
