"""Checker detection on arbitrary photos (no corners, no markers): circles, then two colours.

The measurement path for real photos of boards nobody here designed: Hough circles on a
median-filtered grey image at checker-like radii (a share of the image size), then the
circles' centre colours split in two by lightness (Otsu), the darker being ``dark``.
Also reads YOLO label files (boxes or polygons) and scores detections against them.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .read import learn_colours

DARK, LIGHT = 2, 4  # YOLO classes in tests/data/vision/photos-yolo


@dataclass(frozen=True)
class Detection:
    x: float
    y: float
    r: float
    colour: str


def detect_checkers(image: np.ndarray, r_min: float = 0.012, r_max: float = 0.055) -> list[Detection]:
    """Checkers in a photo: circles with radius ``r_min..r_max`` of the image's larger side."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    side = max(grey.shape)
    grey = cv2.medianBlur(grey, 5)
    lo, hi = max(4, int(r_min * side)), int(r_max * side)
    circles = cv2.HoughCircles(grey, cv2.HOUGH_GRADIENT, dp=1.2, minDist=lo * 1.6, param1=140, param2=30,
                               minRadius=lo, maxRadius=hi)
    if circles is None:
        return []
    cs = circles[0]
    # keep the dominant size: checkers on one board share a radius
    med = float(np.median(cs[:, 2]))
    cs = cs[(cs[:, 2] > med * 0.7) & (cs[:, 2] < med * 1.4)]
    lab = cv2.cvtColor(image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), cv2.COLOR_BGR2Lab).astype(np.float32)
    samples = []
    for x, y, r in cs:
        k = max(1, int(r * 0.45))
        xi, yi = int(x), int(y)
        patch = lab[max(yi - k, 0):yi + k + 1, max(xi - k, 0):xi + k + 1].reshape(-1, 3)
        samples.append(np.median(patch, axis=0))
    s = np.array(samples, np.float32).reshape(-1, 3)
    model = learn_colours(s)
    if model is None:
        labels = (s[:, 0] > 128).astype(int) if len(s) else np.zeros(0, int)
    else:
        labels, _ = model.classify(s)
    return [Detection(float(x), float(y), float(r), "light" if l else "dark") for (x, y, r), l in zip(cs, labels)]


def load_boxes(label_file: Path, width: int, height: int) -> list[tuple[int, float, float, float, float]]:
    """YOLO labels as (class, x0, y0, x1, y1) in pixels; polygon lines become their bounding box."""
    out = []
    for line in Path(label_file).read_text().splitlines():
        v = line.split()
        if len(v) < 5:
            continue
        c = int(float(v[0]))
        nums = [float(t) for t in v[1:]]
        if len(nums) == 4:
            cx, cy, w, h = nums
            x0, y0, x1, y1 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
        else:
            xs, ys = nums[0::2], nums[1::2]
            x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
        out.append((c, x0 * width, y0 * height, x1 * width, y1 * height))
    return out


@dataclass
class Score:
    """Matches of detections to labelled boxes, per colour, and colour-blind."""

    tp: dict[str, int]
    fp: dict[str, int]
    fn: dict[str, int]

    def precision(self, k: str) -> float:
        return self.tp[k] / max(1, self.tp[k] + self.fp[k])

    def recall(self, k: str) -> float:
        return self.tp[k] / max(1, self.tp[k] + self.fn[k])

    def add(self, other: "Score") -> None:
        for d in (("tp", self.tp, other.tp), ("fp", self.fp, other.fp), ("fn", self.fn, other.fn)):
            for k in d[1]:
                d[1][k] += d[2][k]


def score(dets: list[Detection], boxes: list[tuple[int, float, float, float, float]]) -> Score:
    """A detection matches an unmatched box when its centre lies inside it (colour-aware and -blind)."""
    keys = ("dark", "light", "any")
    sc = Score({k: 0 for k in keys}, {k: 0 for k in keys}, {k: 0 for k in keys})
    want = {"dark": [b for b in boxes if b[0] == DARK], "light": [b for b in boxes if b[0] == LIGHT]}
    want["any"] = want["dark"] + want["light"]
    for k in keys:
        mine = [d for d in dets if k == "any" or d.colour == k]
        used = [False] * len(want[k])
        for d in mine:
            hit = -1
            best = 1e9
            for i, (_, x0, y0, x1, y1) in enumerate(want[k]):
                if not used[i] and x0 <= d.x <= x1 and y0 <= d.y <= y1:
                    dist = (d.x - (x0 + x1) / 2) ** 2 + (d.y - (y0 + y1) / 2) ** 2
                    if dist < best:
                        best, hit = dist, i
            if hit >= 0:
                used[hit] = True
                sc.tp[k] += 1
            else:
                sc.fp[k] += 1
        sc.fn[k] += used.count(False)
    return sc


def score_folder(folder: Path) -> tuple[Score, int]:
    """Detect on every ``*.jpg`` with a ``.txt`` beside it; the summed score and the photo count."""
    total = Score({k: 0 for k in ("dark", "light", "any")}, {k: 0 for k in ("dark", "light", "any")},
                  {k: 0 for k in ("dark", "light", "any")})
    n = 0
    for img_path in sorted(Path(folder).glob("*.jpg")):
        lab = img_path.with_suffix(".txt")
        img = cv2.imread(str(img_path))
        if img is None or not lab.exists():
            continue
        h, w = img.shape[:2]
        total.add(score(detect_checkers(img), load_boxes(lab, w, h)))
        n += 1
    return total, n
