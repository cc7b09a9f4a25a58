"""Checker detection on arbitrary photos (no corners, no markers): circles, then two colours.

The measurement path for real photos of boards nobody here designed (see
:func:`detect_checkers`); it also reads YOLO label files (boxes or polygons) and scores
detections against them, and scores the playing area :func:`vision.locate.find_board`
finds against the labelled board and bar boxes (:func:`score_board_finding`).  Its settings
(:class:`PhotoParams`) were chosen once for the whole photo set, never per photo;
``bench/vision_photos.py --folds`` checks that choosing them on half the photos holds on
the other half.  :func:`account_misses` says why each labelled checker was missed.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .photo_colour import split_colours

DARK, LIGHT = 2, 4  # YOLO classes in tests/data/vision/photos-yolo


@dataclass(frozen=True)
class Detection:
    """One checker found in a photo: centre and radius in pixels, colour ``dark`` or ``light``."""

    x: float
    y: float
    r: float
    colour: str


REJECTIONS = ("texture", "spacing", "colour")  # why a circle looked at was not taken (see ``trace``)


@dataclass(frozen=True)
class PhotoParams:
    """The detector's settings, chosen once for the whole photo set (never per photo).

    ``r_min``/``r_max`` bound the checker radius search (shares of the image's larger side);
    every circle must then be within ``r_spread`` (a share) of the radius found, since one
    board's checkers share one size.  ``sensitivity`` (Hough votes) and ``max_texture`` (the
    face's gradient along circles about the centre against the rim's, :func:`_swirl`) gate
    the strong circles; the ``recover_*`` settings gate the second look: a weaker circle
    (``recover_votes`` Hough votes, in the grey image or in a map of either learned colour,
    :meth:`~vision.photo_colour.FaceColours.likeness` falling by ``likeness`` per Lab unit;
    0 turns the maps off) is a checker when its face is plain (``recover_texture``), its
    colour lies within ``recover_gap`` (weighted Lab) of a colour the strong circles
    learned, and its centre is at least ``recover_spacing`` radii from every checker
    already found (stacked checkers overlap).
    """

    r_min: float = 0.012
    r_max: float = 0.055
    sensitivity: int = 20
    max_texture: float = 0.5
    recover: bool = True
    r_spread: float = 0.1
    recover_votes: int = 16
    recover_texture: float = 0.4
    recover_gap: float = 13.0
    recover_spacing: float = 1.2
    likeness: float = 6.0


def _face_lab(lab: np.ndarray, x: float, y: float, r: float) -> np.ndarray:
    """Median Lab of a checker's central square (0.45 r each side): its face, not its rim."""
    k = max(1, int(r * 0.45))
    patch = lab[max(int(y) - k, 0):int(y) + k + 1, max(int(x) - k, 0):int(x) + k + 1].reshape(-1, 3)
    return np.median(patch, axis=0)


_TH = np.linspace(0, 2 * np.pi, 32, endpoint=False)
_COS, _SIN = np.cos(_TH), np.sin(_TH)
_FACE = np.array([0.2, 0.35, 0.5, 0.65])  # face rings sampled by _swirl (shares of the radius)


def _swirl(gx: np.ndarray, gy: np.ndarray, x: float, y: float, r: float) -> float:
    """Mean gradient across the face's radii (along circles about the centre) against the mean
    across the rim: concentric carvings score 0, wood grain, pips and inlays do not."""
    h, w = gx.shape
    fr = (_FACE[:, None] * r)
    xs = np.clip((x + fr * _COS[None, :]).round().astype(int), 0, w - 1)
    ys = np.clip((y + fr * _SIN[None, :]).round().astype(int), 0, h - 1)
    tan = np.abs(-gx[ys, xs] * _SIN[None, :] + gy[ys, xs] * _COS[None, :]).mean()
    rim = 0.0
    for f in (0.95, 1.0, 1.05):
        xs = np.clip((x + f * r * _COS).round().astype(int), 0, w - 1)
        ys = np.clip((y + f * r * _SIN).round().astype(int), 0, h - 1)
        rim = max(rim, float(np.abs(gx[ys, xs] * _COS + gy[ys, xs] * _SIN).mean()))
    return float(tan) / max(rim, 1e-6)


def _plain_radii(smooth: np.ndarray, gx: np.ndarray, gy: np.ndarray, a: float, b: float, votes: int,
                 max_texture: float, min_dist: float) -> list[float]:
    """Radii of the plain-faced Hough circles with radius in [a, b], centres ``min_dist`` apart."""
    c = cv2.HoughCircles(smooth, cv2.HOUGH_GRADIENT, dp=1.2, minDist=min_dist, param1=140, param2=votes,
                         minRadius=int(a), maxRadius=int(b) + 1)
    return [float(r) for x, y, r in (c[0] if c is not None else []) if _swirl(gx, gy, x, y, r) <= max_texture]


def _checker_radius(smooth: np.ndarray, gx: np.ndarray, gy: np.ndarray, lo: float, hi: float, votes: int,
                    max_texture: float, step: float = 1.25) -> float:
    """The board's checker radius: the radius band (each ``step`` times the last) in which the
    most plain-faced circles are found; the median radius of the plain circles in a band of
    the same width centred on theirs (a band's median leans towards its middle).

    One band at a time, so a carved checker's inner rings (which win a wide search at the
    same centre: one circle per centre) cannot hide its rim.
    """
    best: list[float] = []
    a = lo
    while a < hi:
        b = min(a * step, hi)
        radii = _plain_radii(smooth, gx, gy, a, b, votes, max_texture, 1.5 * a)
        if len(radii) > len(best):
            best = radii
        a = b
    if not best:
        return 0.0
    radius = float(np.median(best))
    again = _plain_radii(smooth, gx, gy, radius / step, radius * step, votes, max_texture, 1.5 * radius)
    return float(np.median(again)) if again else radius


def detect_checkers(image: np.ndarray, params: PhotoParams = PhotoParams(),
                    trace: list[tuple[float, float, float, str]] | None = None) -> list[Detection]:
    """Checkers in a photo: circles of the board's one checker size with plain faces, in two colours.

    Hough circles, one radius band at a time over checker-like radii (a share of the
    image's larger side), give the board's checker radius; a second pass looks only within
    ``r_spread`` of it.  Circles whose face is busy across its radii (wood grain, inlays,
    dice; concentric carvings are allowed: :func:`_swirl`) are dropped, as are circles
    mostly covering a stronger one.  The faces' two colours are learned from these strong
    circles (:func:`vision.photo_colour.split_colours`); then weaker circles (partial rims
    of stacked checkers, dark checkers on dark points, circles Hough's minimum distance
    hid), looked for in the grey image and in a map of each learned colour, are taken when
    their face has one of those colours.  Each checker's colour is the nearer of the two;
    the darker is ``dark``.

    ``trace``, when given, receives every circle looked at and not taken, as (x, y, r,
    reason), reason one of ``REJECTIONS`` (for the bench's account of the misses).
    """
    p = params
    dropped = trace if trace is not None else []
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    bgr = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    side = max(grey.shape)
    smooth = cv2.medianBlur(grey, 5)
    lo, hi = max(4, int(p.r_min * side)), int(p.r_max * side)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1)
    R = _checker_radius(smooth, gx, gy, lo, hi, p.sensitivity, p.max_texture)
    if R <= 0:
        return []
    r_lo, r_hi = max(3, int(R * (1 - p.r_spread))), int(R * (1 + p.r_spread)) + 1
    second = cv2.HoughCircles(smooth, cv2.HOUGH_GRADIENT, dp=1.2, minDist=R * 1.5, param1=140,
                              param2=p.sensitivity, minRadius=r_lo, maxRadius=r_hi)
    if second is None:
        return []
    cs = second[0]
    keep: list[tuple[float, float, float]] = []
    for x, y, r in cs:
        if _swirl(gx, gy, x, y, r) > p.max_texture:
            dropped.append((float(x), float(y), float(r), "texture"))
            continue
        if any((x - a) ** 2 + (y - b) ** 2 < (1.2 * r) ** 2 for a, b, _ in keep):
            dropped.append((float(x), float(y), float(r), "spacing"))
            continue
        keep.append((float(x), float(y), float(r)))
    if not keep:
        return []
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    faces = [_face_lab(lab, x, y, r) for x, y, r in keep]
    model = split_colours(np.array(faces, np.float32))
    if model is not None and p.recover:
        weak = cv2.HoughCircles(smooth, cv2.HOUGH_GRADIENT, dp=1.2, minDist=R * 0.3, param1=140,
                                param2=p.recover_votes, minRadius=r_lo, maxRadius=r_hi)
        cands = list(weak[0]) if weak is not None else []
        if p.likeness > 0:  # the same search on a map of each learned colour
            for light in (False, True):
                like = cv2.medianBlur(model.likeness(lab, light, p.likeness), 5)
                more = cv2.HoughCircles(like, cv2.HOUGH_GRADIENT, dp=1.2, minDist=R * 0.3, param1=140,
                                        param2=p.recover_votes, minRadius=r_lo, maxRadius=r_hi)
                cands.extend(list(more[0]) if more is not None else [])
        for x, y, r in cands:
            if any((x - a) ** 2 + (y - b) ** 2 < (p.recover_spacing * max(r, rb)) ** 2 for a, b, rb in keep):
                dropped.append((float(x), float(y), float(r), "spacing"))
                continue
            if _swirl(gx, gy, x, y, r) > p.recover_texture:
                dropped.append((float(x), float(y), float(r), "texture"))
                continue
            face = _face_lab(lab, x, y, r)
            if float(model.distance(face)[0]) > p.recover_gap:
                dropped.append((float(x), float(y), float(r), "colour"))
                continue
            keep.append((float(x), float(y), float(r)))
            faces.append(face)
    if model is None:
        labels = [int(f[0] > 128) for f in faces]
    else:
        labels = list(model.classify(np.array(faces, np.float32)))
    return [Detection(x, y, r, "light" if lit else "dark") for (x, y, r), lit in zip(keep, labels)]


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
        """Of the checkers detected as ``k``, the share that match a labelled checker."""
        return self.tp[k] / max(1, self.tp[k] + self.fp[k])

    def recall(self, k: str) -> float:
        """Of the labelled checkers of ``k``, the share that were detected."""
        return self.tp[k] / max(1, self.tp[k] + self.fn[k])

    def add(self, other: "Score") -> None:
        """Add ``other``'s matches to these (to total over several photos)."""
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


MISSES = ("colour swapped", "no circle") + tuple(f"circle dropped: {r}" for r in ("spacing", "texture", "colour"))


def account_misses(image: np.ndarray, boxes: list[tuple[int, float, float, float, float]],
                   params: PhotoParams = PhotoParams()) -> dict[str, int]:
    """Why each labelled checker was missed, counted by ``MISSES``: found but given the other
    colour; a circle centred in its box was looked at and dropped (spacing: too near a
    checker already found; texture: a face busy across its radii; colour: not a colour the strong circles
    learned); or no circle looked at had its centre in the box."""
    trace: list[tuple[float, float, float, str]] = []
    dets = detect_checkers(image, params, trace)
    out = {m: 0 for m in MISSES}
    for c, x0, y0, x1, y1 in boxes:
        if c not in (DARK, LIGHT):
            continue

        def inside(x: float, y: float) -> bool:
            return x0 <= x <= x1 and y0 <= y <= y1

        found = [d for d in dets if inside(d.x, d.y)]
        if found:
            if all(d.colour != ("dark" if c == DARK else "light") for d in found):
                out["colour swapped"] += 1
            continue
        why = [reason for x, y, _, reason in trace if inside(x, y)]
        hit = next((r for r in ("spacing", "texture", "colour") if r in why), None)
        out[f"circle dropped: {hit}" if hit else "no circle"] += 1
    return out


def empty_score() -> Score:
    """A score with nothing counted yet."""
    keys = ("dark", "light", "any")
    return Score({k: 0 for k in keys}, {k: 0 for k in keys}, {k: 0 for k in keys})


def f1(sc: Score, k: str) -> float:
    """Harmonic mean of precision and recall for ``k`` (dark, light or any)."""
    p, r = sc.precision(k), sc.recall(k)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def labelled_photos(folder: Path) -> list[tuple[str, np.ndarray, list[tuple[int, float, float, float, float]]]]:
    """Every readable ``*.jpg`` in ``folder`` with a ``.txt`` beside it, sorted by name: (stem, image, boxes)."""
    out = []
    for img_path in sorted(Path(folder).glob("*.jpg")):
        lab = img_path.with_suffix(".txt")
        img = cv2.imread(str(img_path))
        if img is None or not lab.exists():
            continue
        h, w = img.shape[:2]
        out.append((img_path.stem, img, load_boxes(lab, w, h)))
    return out


def score_folder(folder: Path, params: PhotoParams = PhotoParams()) -> tuple[Score, int]:
    """Detect on every ``*.jpg`` with a ``.txt`` beside it; the summed score and the photo count."""
    total = empty_score()
    photos = labelled_photos(folder)
    for _, img, boxes in photos:
        total.add(score(detect_checkers(img, params), boxes))
    return total, len(photos)


# --------------------------------------------------------------------------- board finding


BOARD, BAR = 1, 0  # YOLO classes of the board (frame included) and the bar


def box_iou(corners: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """IoU of the corners' bounding box with a box (x0, y0, x1, y1)."""
    c = np.asarray(corners, np.float32).reshape(4, 2)
    x0, y0 = c.min(axis=0)
    x1, y1 = c.max(axis=0)
    bx0, by0, bx1, by1 = box
    inter = max(0.0, min(x1, bx1) - max(x0, bx0)) * max(0.0, min(y1, by1) - max(y0, by0))
    union = (x1 - x0) * (y1 - y0) + (bx1 - bx0) * (by1 - by0) - inter
    return float(inter / union) if union > 0 else 0.0


def bar_inside(corners: np.ndarray, bars: list[tuple[float, float, float, float]], slack: float) -> bool:
    """Whether the bar's centre line of a playing area (corners with the rows along the first
    edge) lies, from 10 to 90 % of its length, inside one of the bar boxes (plus ``slack`` px)."""
    c = np.asarray(corners, np.float32).reshape(4, 2)
    top, bottom = (c[0] + c[1]) / 2, (c[3] + c[2]) / 2
    pts = [top + s * (bottom - top) for s in np.linspace(0.1, 0.9, 9)]
    return any(all(x0 - slack <= x <= x1 + slack and y0 - slack <= y <= y1 + slack for x, y in pts)
               for x0, y0, x1, y1 in bars)


@dataclass(frozen=True)
class AreaScore:
    """The playing area found in one labelled photo against its board and bar boxes."""

    name: str
    iou: float          # with the board box (which includes the frame: a perfect area scores 0.75..0.95)
    bar_inside: bool
    reported: bool      # evidence enough for :func:`vision.locate.auto_corners` to call it a board
    evidence: float


def score_board_finding(folder: Path) -> list[AreaScore]:
    """:func:`vision.locate.find_board` on every labelled ``*.jpg`` in ``folder``."""
    from .locate import MIN_EVIDENCE, find_board
    out = []
    for p in sorted(Path(folder).glob("*.jpg")):
        img = cv2.imread(str(p))
        lab = p.with_suffix(".txt")
        if img is None or not lab.exists():
            continue
        h, w = img.shape[:2]
        boxes = load_boxes(lab, w, h)
        board = [b[1:] for b in boxes if b[0] == BOARD]
        bars = [b[1:] for b in boxes if b[0] == BAR]
        fit = find_board(img)
        if fit is None or not board:
            out.append(AreaScore(p.stem, 0.0, False, False, float("-inf")))
            continue
        c = fit.as_seen()
        out.append(AreaScore(p.stem, box_iou(c, board[0]), bar_inside(c, bars, 0.01 * max(w, h)),
                             fit.evidence >= MIN_EVIDENCE, fit.evidence))
    return out
