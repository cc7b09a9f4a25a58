"""Checker detection on the 49 labelled real photos: precision and recall per colour.

Run: python3 bench/vision_photos.py [FOLDER].  Chance level is the share of image area
covered by that colour's boxes (what a detection placed at random would hit).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision.photos import DARK, LIGHT, load_boxes, score_folder  # noqa: E402


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


if __name__ == "__main__":
    main()
