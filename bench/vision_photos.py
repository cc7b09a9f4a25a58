"""Checker detection and board finding on the 49 labelled real photos.

Run: python3 bench/vision_photos.py [FOLDER].  Part 1: checker detection precision and
recall per colour; chance level is the share of image area covered by that colour's boxes
(what a detection placed at random would hit).  Part 2: the playing area found without
markers or corners (:func:`vision.locate.find_board`) against the labelled board and bar
boxes: IoU of its bounding box with the board box (which includes the frame), and whether
its bar's centre line lies in the bar box; for every best fit and for those reported as a
board.  (``bench/vision_find.py`` has the rendered boards and board-free images too.)
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.photos import DARK, LIGHT, load_boxes, score_board_finding, score_folder  # noqa: E402


def chance(folder: Path) -> dict[str, float]:
    area = {DARK: 0.0, LIGHT: 0.0}
    total = 0.0
    for p in sorted(folder.glob("*.jpg")):
        img = cv2.imread(str(p))
        h, w = img.shape[:2]
        total += w * h
        for c, x0, y0, x1, y1 in load_boxes(p.with_suffix(".txt"), w, h):
            if c in area:
                area[c] += (x1 - x0) * (y1 - y0)
    return {"dark": area[DARK] / total, "light": area[LIGHT] / total, "any": (area[DARK] + area[LIGHT]) / total}


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests" / "data" / "vision" / "photos-yolo"
    t = time.perf_counter()
    sc, n = score_folder(folder)
    dt = time.perf_counter() - t
    ch = chance(folder)
    print(f"{n} photos, {dt / max(n, 1) * 1000:.0f} ms each")
    print(f"{'colour':6} {'TP':>5} {'FP':>5} {'FN':>5} {'precision':>9} {'recall':>7} {'chance prec.':>12}")
    for k in ("dark", "light", "any"):
        print(f"{k:6} {sc.tp[k]:5d} {sc.fp[k]:5d} {sc.fn[k]:5d} {sc.precision(k):9.3f} {sc.recall(k):7.3f} {ch[k]:12.3f}")
    t = time.perf_counter()
    rows = score_board_finding(folder)
    dt = time.perf_counter() - t
    print(f"board finding without markers ({dt / max(len(rows), 1) * 1000:.0f} ms each):")
    for label, sel in (("best fit", rows), ("reported as a board", [r for r in rows if r.reported])):
        print(f"  {label:20}: {len(sel):2d} of {len(rows)}; IoU with the board box >= 0.7: {sum(r.iou >= 0.7 for r in sel)},"
              f" bar inside the bar box: {sum(r.bar_inside for r in sel)},"
              f" both: {sum(1 for r in sel if r.iou >= 0.7 and r.bar_inside)}, IoU < 0.5: {sum(r.iou < 0.5 for r in sel)}")


if __name__ == "__main__":
    main()
