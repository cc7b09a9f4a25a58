"""Checker detection and board finding on the 49 labelled real photos.

Run: python3 bench/vision_photos.py [FOLDER] [--per-photo] [--folds] [--no-board].  Part 1:
checker detection precision and recall per colour with the default
:class:`vision.photos.PhotoParams`; chance level is the share of image area covered by that
colour's boxes (what a detection placed at random would hit); why the labelled checkers
were missed (:func:`vision.photos.account_misses`); ``--per-photo``: TP/FP/FN per photo.  ``--folds``: a guard against tuning to the set: the settings
in ``GRID`` are chosen (best mean F1 of dark and light) on the photos with even index
(sorted by name) and scored on the odd ones, and vice versa; the two held-out halves are
summed.  Part 2: the playing area found without markers or corners
(:func:`vision.locate.find_board`) against the labelled board and bar boxes: IoU of its
bounding box with the board box (which includes the frame), and whether its bar's centre
line lies in the bar box; for every best fit and for those reported as a board.
(``bench/vision_find.py`` has the rendered boards and board-free images too.)
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.photos import (DARK, LIGHT, MISSES, PhotoParams, Score, account_misses,  # noqa: E402
                           detect_checkers, empty_score, f1, labelled_photos, load_boxes, score,
                           score_board_finding)

# the settings the two-fold check may choose from (the defaults are one of them)
GRID: dict[str, tuple[Any, ...]] = {
    "likeness": (3.0, 6.0),
    "recover_votes": (14, 16),
    "recover_gap": (6.0, 9.0, 13.0),
    "recover_texture": (0.3, 0.4, 0.5),
}


def chance(folder: Path) -> dict[str, float]:
    area = {DARK: 0.0, LIGHT: 0.0}
    total = 0.0
    for p in sorted(folder.glob("*.jpg")):
        img = cv2.imread(str(p))
        if img is None:
            continue
        h, w = img.shape[:2]
        total += w * h
        for c, x0, y0, x1, y1 in load_boxes(p.with_suffix(".txt"), w, h):
            if c in area:
                area[c] += (x1 - x0) * (y1 - y0)
    return {"dark": area[DARK] / total, "light": area[LIGHT] / total, "any": (area[DARK] + area[LIGHT]) / total}


def table(sc: Score, ch: dict[str, float] | None = None) -> None:
    print(f"  {'colour':6} {'TP':>5} {'FP':>5} {'FN':>5} {'precision':>9} {'recall':>7}" + (f" {'chance prec.':>12}" if ch else ""))
    for k in ("dark", "light", "any"):
        print(f"  {k:6} {sc.tp[k]:5d} {sc.fp[k]:5d} {sc.fn[k]:5d} {sc.precision(k):9.3f} {sc.recall(k):7.3f}"
              + (f" {ch[k]:12.3f}" if ch else ""))


def two_fold(photos: list) -> None:
    """Choose settings from GRID on one half, score on the other; both ways."""
    names = list(GRID)
    combos: list[dict[str, Any]] = [dict(zip(names, v)) for v in itertools.product(*GRID.values())]
    t = time.perf_counter()
    per = [[score(detect_checkers(img, replace(PhotoParams(), **c)), boxes) for _, img, boxes in photos] for c in combos]
    print(f"two-fold check: {len(combos)} settings x {len(photos)} photos in {time.perf_counter() - t:.0f} s")
    held = empty_score()
    for fold in (0, 1):
        train = [i for i in range(len(photos)) if i % 2 == fold]
        test = [i for i in range(len(photos)) if i % 2 != fold]

        def total(ci: int, idx: list[int]) -> Score:
            s = empty_score()
            for i in idx:
                s.add(per[ci][i])
            return s

        best = max(range(len(combos)), key=lambda ci: (f1(total(ci, train), "dark") + f1(total(ci, train), "light")) / 2)
        sc = total(best, test)
        held.add(sc)
        which = "even" if fold == 0 else "odd"
        print(f" chosen on the {which} photos: {combos[best]}; scored on the others:")
        table(sc)
    print(" both held-out halves together:")
    table(held)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", type=Path, default=ROOT / "tests" / "data" / "vision" / "photos-yolo")
    ap.add_argument("--per-photo", action="store_true", help="TP/FP/FN of every photo")
    ap.add_argument("--folds", action="store_true", help="also the two-fold check of the settings (about 6 min)")
    ap.add_argument("--no-board", action="store_true", help="skip part 2 (board finding)")
    args = ap.parse_args()
    photos = labelled_photos(args.folder)
    best_ms = float("inf")
    for _ in range(3):
        sc = empty_score()
        t = time.perf_counter()
        for _, img, boxes in photos:
            sc.add(score(detect_checkers(img), boxes))
        best_ms = min(best_ms, (time.perf_counter() - t) / max(len(photos), 1) * 1000)
    print(f"{len(photos)} photos, {best_ms:.0f} ms each (best of 3 runs)")
    table(sc, chance(args.folder))
    misses = {m: 0 for m in MISSES}
    for name, img, boxes in photos:
        for k, v in account_misses(img, boxes).items():
            misses[k] += v
        if args.per_photo:
            s = score(detect_checkers(img), boxes)
            print(f"  {name:22} " + "  ".join(f"{k} {s.tp[k]:2d}/{s.fp[k]:2d}/{s.fn[k]:2d}" for k in ("dark", "light", "any"))
                  + "  (TP/FP/FN)")
    print("  labelled checkers missed: " + ", ".join(f"{k} {v}" for k, v in misses.items()))
    if args.folds:
        two_fold(photos)
    if args.no_board:
        return
    t = time.perf_counter()
    rows = score_board_finding(args.folder)
    dt = time.perf_counter() - t
    print(f"board finding without markers ({dt / max(len(rows), 1) * 1000:.0f} ms each):")
    for label, sel in (("best fit", rows), ("reported as a board", [r for r in rows if r.reported])):
        print(f"  {label:20}: {len(sel):2d} of {len(rows)}; IoU with the board box >= 0.7: {sum(r.iou >= 0.7 for r in sel)},"
              f" bar inside the bar box: {sum(r.bar_inside for r in sel)},"
              f" both: {sum(1 for r in sel if r.iou >= 0.7 and r.bar_inside)}, IoU < 0.5: {sum(r.iou < 0.5 for r in sel)}")


if __name__ == "__main__":
    main()
