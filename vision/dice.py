"""The dice on the board: found as small cubes with pips, never as checkers.

A pure stage on a rectified view (:mod:`vision.rectify`): dice are squares of about 0.25-0.45
point widths whose colour stands out from what lies around them (a checker is twice as wide and
round), with 1..6 pips of another colour in a die's layout.  :func:`find_dice` returns one
:class:`DieSeen` per die: where it lies (layout pw and, given the corners, image px), which half
of the playing area it rests in, whether it lies on a checker or off the playing area, and its
value with a confidence.  :func:`to_readings` gives the referee's
:class:`referee.events.DieReading` (zones as seen from Dark's seat).

How: (1) candidates from two sources.  At a coarse scale (``DiceParams.detect_px``) each pixel's
neighbourhood is compared with 8 points a die's half diagonal and more away: a die stands out from
(nearly) all of them and is uniform at its centre; a point's tip, a stripe or a letter is not.  And,
as dice counters usually do (threshold the pips as blobs, group them by distance), pip-like spots (a
difference of Gaussians at a pip's size, dark and light apart) are linked into groups of 1..6 no
wider than a die: a face's pips lie symmetrically about its centre, so a group's mean is one.
(2) At the view's own scale the face is the candidate's region of its colour (with the pieces of
that colour a pip away: rows of pips cut a face into bands), grown at a loose likeness first, then
tighter ones, none of it running out of a window a little larger than a die; it must be die-sized
and square and stand out from the band just around it.  Its minimum-area rectangle is cut out
square and the 3 x 3 places a pip can be are scored: the value is the face whose pips are all
clearly more pip-coloured than its empty places (either way round), its confidence from that
margin, the next face's, the contrast and how plain the rest of the face is.  The value is sure
only when the pips counted one by one (:func:`count_pips`) agree and the face has a square's
straight edges (a letter's loop or a checker's emblem does not).  A blob whose pips fit no face is
dropped.  (3) A die on a checker lies inside a checker-sized circle (a Hough transform around it);
a die whose face reaches over the playing area's edge is off the board; ``where`` says how sure
the half and off-board call are (:func:`where_confidence`).  (4) :func:`covered_slots` gives the
checker slots a die covers, for the board's learned look to count as telling nothing.

Measured (``bench/dice_camera.py``, 64 px per point width): rendered seed 1, 80 dice: 58.8 % found,
47.5 % read right and sure, 0 wrong while sure, 0 false dice sure; real tuned (test1, test6) 4 of 4
found, 3 sure right; held out (test2, template3, dices6) 5 of 10 found, 4 sure right, 0 wrong sure.
About 120-170 ms CPU a view (it was 16-22 ms with the coarse search alone).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import cv2
import numpy as np

from referee.events import DieReading

from . import layout as L
from .rectify import View, rectify

HALVES = ("left", "right", "bar", "off")

# pip centres of each face in units of the half side (the face spans -1..1), one orientation;
# the other is the same turned a quarter, (x, y) -> (-y, x)
_S = 0.54
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_S, -_S), (_S, _S)),
    3: ((-_S, -_S), (0, 0), (_S, _S)),
    4: ((-_S, -_S), (_S, -_S), (-_S, _S), (_S, _S)),
    5: ((-_S, -_S), (_S, -_S), (0, 0), (-_S, _S), (_S, _S)),
    6: ((-_S, -_S), (-_S, 0), (-_S, _S), (_S, -_S), (_S, 0), (_S, _S)),
}
_GRID = np.array([(gx, gy) for gy in (-1, 0, 1) for gx in (-1, 0, 1)], np.float64)  # the 3 x 3 places
_ON_ROWS, _ON_VALUES = [], []
for _v, _lay in LAYOUTS.items():
    for _quarter in (False, True):
        _on = {(int(np.sign(-y)), int(np.sign(x))) if _quarter else (int(np.sign(x)), int(np.sign(y))) for x, y in _lay}
        _ON_ROWS.append([(int(gx), int(gy)) in _on for gx, gy in _GRID])
        _ON_VALUES.append(_v)
_ON = np.array(_ON_ROWS, bool)  # (12, 9): which places hold a pip, per face and way round


@dataclass(frozen=True)
class DiceParams:
    """The finder's thresholds (sizes in point widths)."""

    detect_px: int = 32            # px per pw of the coarse search
    pip_weight: float = 4.0        # how much pip-like spots near a peak raise its rank
    max_candidates: int = 32       # strongest peaks looked at closely
    ring: float = 0.42             # the surround a die stands out from: this far from its centre
    contrast: float = 42.0         # grey levels a die must stand out from its surround (any channel)
    far_contrast: float = 25.0     # ... and this much a little further out (not a pattern on a larger thing)
    likeness: tuple[float, ...] = (30.0, 20.0, 12.0)  # a face's colour: this close to its centre's, loosest first
    side: tuple[float, float] = (0.26, 0.47)  # a die's side (its face's rectangle)
    max_extent: float = 0.72       # a die's box, longest side (a cocked die shows a side face too)
    fill: float = 0.55             # blob area / its minimum-area rectangle
    aspect: float = 1.9            # longest / shortest side of that rectangle
    face_px: int = 40              # the face cut out square at this size to read its pips
    spreads: tuple[float, ...] = (0.5, 0.6)  # pips' offset from the face's centre, share of its half side
    # the pips' centre off the cut's, share of its half side (tried each way)
    offsets: tuple[float, ...] = (-0.15, 0.0, 0.15)
    pip_radius: float = 0.17       # a pip's radius (blurred), share of the face's half side
    # the most of a face pip-coloured: a + b * value (blurred pips; a letter has more)
    ink: tuple[float, float] = (0.08, 0.06)
    pip_sigma: float = 0.025      # a pip's blur scale (pw) for finding pip-like spots
    pip_contrast: float = 30.0     # grey levels a pip-like spot stands out from its surround
    pip_links: tuple[float, ...] = (0.17, 0.32)  # pips of one face lie this close (pw): the rows, the diagonal of a 2
    max_spots: int = 4000          # more pip-like spots than this: a texture, no pips are looked for
    rim_levels: float = 20.0       # grey levels a face's rim may differ from its colour ...
    rim_odd: float = 0.5           # ... at most on this share of it (a disc's corners, a checker's emblem: more)
    pip_depths: tuple[float, ...] = (0.5, 0.7, 0.85)  # shares of the pips' depth at which they are counted
    square: float = 0.82           # a sure die's face fills this much of its rectangle (straight edges)
    uncounted: float = 0.5         # the most a value is sure of when its pips, counted one by one, are another number
    margin: float = 0.3            # how much more pip-like a face's pips are than its empty places, to be sure
    keep: float = 0.25             # a blob is a die only when its pips fit a face this well
    edge: float = 0.04             # how far a face may reach over the playing area's edge and be on it
    bar_confidence: float = 0.5    # the most a die on the bar is sure of (hinge screws look like pips)
    sure: float = 0.7              # confidence at which a value counts as read
    checker_radius: tuple[float, float] = (0.33, 0.52)  # a checker's radius (on_checker)

    def __post_init__(self) -> None:
        if not 8 <= self.detect_px <= 64:
            raise ValueError(f"detect_px {self.detect_px}: expected 8..64 px per point width")
        if not 0.0 < self.sure <= 1.0:
            raise ValueError(f"sure {self.sure}: a confidence threshold is in 0..1")


@dataclass(frozen=True)
class DieSeen:
    """One die as the camera sees it: centre in layout pw (``board``) and in image px (``image``,
    None when the finder was given no corners), the half its centre lies in (``"left"``/``"right"``
    of the playing area as seen, ``"bar"``, or ``"off"`` off the playing area), whether it rests on a
    checker, whether it lies off the board (any of its face over the playing area's edge: across it
    or beyond), its value 1..6 (None: unreadable) and the value's confidence."""

    board: tuple[float, float]
    image: Optional[tuple[float, float]]
    half: str
    on_checker: bool
    off_board: bool
    value: Optional[int]
    confidence: float
    side: float = 0.0  # the die's side, pw (as measured)
    where: float = 1.0  # how sure the half and off-board are: 1 when the whole die lies clear of every edge and the bar


    def __post_init__(self) -> None:
        if self.half not in HALVES:
            raise ValueError(f"die half {self.half!r} is not one of {', '.join(HALVES)}")
        if self.value is not None and self.value not in LAYOUTS:
            raise ValueError(f"die value {self.value!r} is not 1..6 or None")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"die confidence {self.confidence} is not in 0..1")
        if not 0.0 <= self.where <= 1.0:
            raise ValueError(f"die place confidence {self.where} is not in 0..1")

    def sure(self, params: DiceParams = DiceParams()) -> bool:
        """True when the value is read with at least ``params.sure`` confidence."""
        return self.value is not None and self.confidence >= params.sure


def where_confidence(x: float, y: float, side: float) -> float:
    """How sure the half and the off-board call of a die at (x, y) (pw) of ``side`` pw are: 1 when
    all of it lies clear of the playing area's edges and the bar's, falling to 0.5 with its centre
    on one (the call is then a coin's toss)."""
    gap = min(abs(x), abs(x - L.WIDTH), abs(y), abs(y - L.HEIGHT), abs(x - L.BAR_LEFT), abs(x - L.BAR_RIGHT))
    reach = max(side, 0.1) * 0.7072  # half the die's diagonal
    return round(float(np.clip(0.5 + 0.5 * gap / reach, 0.5, 1.0)), 3)


def half_of(x: float, y: float) -> str:
    """The half of the playing area holding layout point (x, y) (pw): left, right, bar or off."""
    if not (0.0 <= x <= L.WIDTH and 0.0 <= y <= L.HEIGHT):
        return "off"
    return "left" if x < L.BAR_LEFT else "right" if x > L.BAR_RIGHT else "bar"


# --------------------------------------------------------------------------- candidates


def _shifts(f: np.ndarray, r: int, n: int) -> list[np.ndarray]:
    """``f`` shifted by ``r`` px in 4 or 8 directions, edges replicated."""
    H, W = f.shape[:2]
    pad = cv2.copyMakeBorder(f, r, r, r, r, cv2.BORDER_REPLICATE)
    d = int(round(r * 0.7071))
    dirs = ((r, 0), (-r, 0), (0, r), (0, -r), (d, d), (-d, d), (d, -d), (-d, -d))[:n]
    return [pad[r + dy: r + dy + H, r + dx: r + dx + W] for dx, dy in dirs]


def _chan_max(a: np.ndarray) -> np.ndarray:
    """The largest of a 3-channel image's channels, per pixel."""
    b, g, r = cv2.split(a)
    return cv2.max(cv2.max(b, g), r)


def _ring(img: np.ndarray, r: int, c: int, inner: int) -> np.ndarray:
    """Per pixel, how much its neighbourhood (``c`` px box) stands out, in the channel that differs most,
    from the points ``r`` px away in 8 directions (the second least of the 8: a die stands out all round,
    a point has its own colour up and down it), less how much it differs ``inner`` px away
    (a die is uniform at its centre; a tip, a line or a letter is not)."""
    f = cv2.blur(img, (c, c))
    shifted = _shifts(f, r, 8)
    m1 = _chan_max(cv2.absdiff(shifted[0], f))
    m2 = np.full_like(m1, 255)
    for sh in shifted[1:]:
        d = _chan_max(cv2.absdiff(sh, f))
        m2 = cv2.min(m2, cv2.max(m1, d))
        m1 = cv2.min(m1, d)
    near = None
    for sh in _shifts(f, inner, 4):
        d = _chan_max(cv2.absdiff(sh, f))
        near = d if near is None else cv2.max(near, d)
    assert near is not None
    return cv2.subtract(cv2.addWeighted(m1, 0.5, m2, 0.5, 0.0), near // 2)


def _candidates(view: View, p: DiceParams) -> list[tuple[float, float]]:
    """Centres (layout pw) of die-sized blobs standing out all round from their surround."""
    s = p.detect_px / view.px
    img = view.image if abs(s - 1) < 1e-6 else cv2.resize(view.image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    dp = float(p.detect_px)
    m = _ring(img, int(round(p.ring * dp)), max(3, int(round(0.15 * dp)) | 1), max(1, int(round(0.06 * dp))))
    k = int(round(0.45 * dp)) | 1
    peaks = (m >= p.contrast) & (m >= cv2.dilate(m, np.ones((k, k), np.uint8)))
    ys, xs = np.nonzero(peaks)
    bx, by = xs / dp + view.x0, ys / dp + view.y0
    score = m[ys, xs].astype(np.float64)
    # pips: small spots of another shade within a die's half side of the peak
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    dog = cv2.absdiff(cv2.GaussianBlur(g, (0, 0), 0.03 * dp), cv2.GaussianBlur(g, (0, 0), 0.09 * dp))
    kp = int(round(0.3 * dp)) | 1
    score += p.pip_weight * cv2.dilate(dog, np.ones((kp, kp), np.uint8))[ys, xs]
    # a point's tip stands out all round but one side: looked at later
    col = np.clip(np.round(np.where(bx > L.BAR_RIGHT, bx - L.BAR_WIDTH, bx) - 0.5), 0, 11)
    tip = (np.abs(np.where(bx > L.BAR_RIGHT, bx - L.BAR_WIDTH, bx) - 0.5 - col) < 0.25) & \
        (((by > L.POINT_LEN - 0.8) & (by < L.POINT_LEN + 0.1))
         | ((by > L.HEIGHT - L.POINT_LEN - 0.1) & (by < L.HEIGHT - L.POINT_LEN + 0.8)))
    score[tip] *= 0.6
    order = np.argsort(-score)[: p.max_candidates]
    return [(float(bx[i]), float(by[i])) for i in order]


def _pip_spots(view: View, p: DiceParams) -> tuple[np.ndarray, np.ndarray]:
    """Pip-like spots on the view (layout pw, shape (n, 2) each): small round spots much darker, and
    much lighter, than what lies around them, a pip's size."""
    P = float(view.px)
    g = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    s1 = p.pip_sigma * P
    dog = cv2.GaussianBlur(g, (0, 0), s1) - cv2.GaussianBlur(g, (0, 0), 2.5 * s1)
    k = max(3, int(round(0.07 * P)) | 1)
    out = []
    for f in (-dog, dog):
        peaks = (f >= p.pip_contrast) & (f >= cv2.dilate(f, np.ones((k, k), np.uint8)))
        ys, xs = np.nonzero(peaks)
        out.append(np.stack([xs / P + view.x0, ys / P + view.y0], axis=1))
    return out[0], out[1]


def _pip_groups(spots: np.ndarray, link: float) -> list[np.ndarray]:
    """The spots linked into groups (single linkage at ``link`` pw)."""
    n = len(spots)
    if n == 0:
        return []
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i
    d = np.hypot(spots[:, None, 0] - spots[None, :, 0], spots[:, None, 1] - spots[None, :, 1])
    for i, j in zip(*np.nonzero(np.triu(d < link, 1))):
        parent[root(int(i))] = root(int(j))
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return [spots[g] for g in groups.values()]


def _pip_candidates(view: View, p: DiceParams) -> list[tuple[float, float]]:
    """Centres (layout pw) of groups of 1..6 pip-like spots no wider than a die: a face's pips lie
    symmetrically about its centre, so their mean is the face's centre."""
    out: list[tuple[float, float]] = []
    for spots in _pip_spots(view, p):  # dark pips, then light ones: never mixed in one face
        if len(spots) > p.max_spots:
            continue
        for link in p.pip_links:
            for grp in _pip_groups(spots, link):
                span = float(np.ptp(grp, axis=0).max()) if len(grp) > 1 else 0.0
                if len(grp) <= 6 and span <= p.side[1] * 0.8:
                    c = grp.mean(axis=0)
                    out.append((float(c[0]), float(c[1])))
    return _apart(out, 0.06)


def _apart(points: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """``points`` in order, less any within ``d`` pw of an earlier one kept."""
    kept: list[tuple[float, float]] = []
    if not points:
        return kept
    a = np.asarray(points, np.float64)
    taken = np.zeros(len(a), bool)
    for i in range(len(a)):
        if taken[i]:
            continue
        kept.append(points[i])
        taken |= np.hypot(a[:, 0] - a[i, 0], a[:, 1] - a[i, 1]) <= d
    return kept


def count_pips(face: np.ndarray, p: DiceParams = DiceParams()) -> tuple[int, ...]:
    """The pips on a die's face cut out square (BGR), counted as separate spots of the pips' shade
    (darker than the face, or lighter on a dark die) inside its rim, at a few depths (blurred pips
    close together part only near their centres): a check of :func:`read_face` that does not rely on
    the pips' layout.  Empty when the face has no spots."""
    n = face.shape[0]
    g = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    yy, xx = np.mgrid[0:n, 0:n]
    h0 = (n - 1) / 2
    rim = np.maximum(np.abs(xx - h0), np.abs(yy - h0)) / h0
    base = float(np.median(g[(rim > 0.8) & (rim < 0.93)]))
    inner = g[rim < 0.8]
    lo, hi = float(np.percentile(inner, 2)), float(np.percentile(inner, 98))
    dark = base - lo > hi - base
    ink = (base - g) if dark else (g - base)
    depth = max(base - lo, hi - base)
    if depth < 30.0:
        return ()
    counts = []
    for at in p.pip_depths:
        mask = ((ink > depth * at) & (rim < 0.85)).astype(np.uint8)
        _k, _lab, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8)
        area = stats[1:, cv2.CC_STAT_AREA]
        big = float(area.max()) if len(area) else 0.0
        counts.append(int((area >= max(2.0, big * 0.25)).sum()))
    return tuple(counts)


# --------------------------------------------------------------------------- one die


def _blob(crop: np.ndarray, r: int, seed: tuple[int, int], P: int,
          p: DiceParams) -> "tuple[tuple, float, float] | str | None":
    """The die-shaped region of ``seed``'s colour in ``crop`` (its rectangle, px) and its contrast with
    what lies just around it; ``"pip"`` when the seed is not of the colour around it; None when there is
    none (a region that runs out of the window is a point, a checker or the frame).  The region is grown
    at a loose likeness first, then tighter ones (a white die on a cream point is told from it by its
    edge and shadow only)."""
    sx, sy = seed
    c0 = max(2, int(round(0.06 * P)))
    colour = np.median(crop[sy - c0: sy + c0 + 1, sx - c0: sx + c0 + 1].reshape(-1, 3), axis=0)
    dist = _chan_max(cv2.absdiff(crop, np.full_like(crop, colour.astype(np.uint8))))
    k = max(3, int(round(0.24 * P)) | 1)
    se = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    kb = max(3, int(round(0.16 * P)) | 1)
    band_out = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kb, kb))
    band_in = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    kf = max(5, int(round(0.36 * P)) | 1)
    far_out = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kf, kf))
    got: "tuple[tuple, float, float] | str | None" = None
    for like_at in p.likeness:
        like = (dist < like_at).astype(np.uint8)
        n, lab, stats, _c = cv2.connectedComponentsWithStats(like, connectivity=4)
        seed_label = int(lab[sy, sx])
        if seed_label == 0:
            if got is None:
                got = "pip"
            continue
        out = (stats[:, 0] == 0) | (stats[:, 1] == 0) | (stats[:, 0] + stats[:, 2] >= 2 * r + 1) \
            | (stats[:, 1] + stats[:, 3] >= 2 * r + 1)
        if out[seed_label]:
            continue
        # the face: the seed's region of its colour and the pieces of that colour a pip's width from it
        # (rows of pips cut a face into bands); none may run out of the window
        blob = (lab == seed_label).astype(np.uint8)
        for _ in range(2):
            near = np.unique(lab[cv2.dilate(blob, se) > 0])
            near = near[(near > 0) & ~out[near]]
            blob = np.isin(lab, near).astype(np.uint8)
        cnts, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(np.vstack(cnts))
        rect = cv2.minAreaRect(hull)
        (rx, ry), (rw, rh), ang = rect
        lo, hi = p.side
        if not (lo * P <= min(rw, rh) and max(rw, rh) <= p.max_extent * P and max(rw, rh) <= p.aspect * min(rw, rh)):
            continue
        area = float(cv2.contourArea(hull))
        if area < p.fill * rw * rh or np.sqrt(rw * rh) > hi * P:
            continue
        solid = np.zeros_like(blob)
        cv2.fillConvexPoly(solid, hull, 1)
        band = (cv2.dilate(solid, band_out) > 0) & (cv2.dilate(solid, band_in) == 0)
        if not band.any():
            continue
        ring = dist[band]
        q = len(ring) * 3 // 10
        contrast = float(np.partition(ring, q)[q])  # its 30th percentile: a die stands out nearly all round
        if contrast < p.contrast:
            continue
        # a little further out it must still differ (an emblem's square on a checker is ringed by a
        # thin line, then the checker's colour again)
        far = (cv2.dilate(solid, far_out) > 0) & (cv2.dilate(solid, band_out) == 0)
        if far.any():
            ring = dist[far]
            q = len(ring) * 3 // 10
            if float(np.partition(ring, q)[q]) < p.far_contrast:
                continue
        return rect, contrast, area / max(rw * rh, 1e-6)
    return got


def _face(view: View, cx: float, cy: float, p: DiceParams) -> Optional[tuple[np.ndarray, tuple, float, float]]:
    """The die around (cx, cy) at the view's scale: its face cut out square, its rectangle (px) and its
    contrast with the surround; None when no die-shaped blob is there.  The face's colour is taken at
    the centre, else a little to each side (the centre may be a pip)."""
    P = view.px
    r = int(round(p.max_extent * 0.62 * P))
    u, v = view.to_px(cx, cy)
    u, v = int(round(u)), int(round(v))
    H, W = view.image.shape[:2]
    x0, y0, x1, y1 = u - r, v - r, u + r + 1, v + r + 1
    if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
        return None
    crop = view.image[y0:y1, x0:x1]
    o = max(2, int(round(0.08 * P)))
    got: "tuple[tuple, float, float] | str | None" = "pip"
    for sx, sy in ((r, r), (r + o, r), (r - o, r), (r, r + o), (r, r - o)):
        got = _blob(crop, r, (sx, sy), P, p)
        if got != "pip":
            break
    if got is None or isinstance(got, str):
        return None
    ((rx, ry), (rw, rh), ang), contrast, fill = got
    box = cv2.boxPoints(((rx, ry), (rw * 0.96, rh * 0.96), ang)).astype(np.float32)
    n_ = p.face_px
    dst = np.array([[0, n_ - 1], [0, 0], [n_ - 1, 0], [n_ - 1, n_ - 1]], np.float32)
    M = cv2.getPerspectiveTransform(box, dst)
    face = cv2.warpPerspective(crop, M, (n_, n_), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return face, ((rx + x0, ry + y0), (rw, rh), ang), contrast, fill


def read_face(face: np.ndarray, p: DiceParams = DiceParams()) -> tuple[Optional[int], float]:
    """The value on a die's face cut out square (BGR), and the confidence of it: how pip-like (unlike the
    face's colour) each of the 3 x 3 places a pip can be is, and the face whose pips are all darker
    than its empty places by the widest margin (either way round)."""
    n = face.shape[0]
    # the face's colour: from the band between the pips and the face's edge, never a pip's place
    yy, xx = np.mgrid[0:n, 0:n]
    h0 = (n - 1) / 2
    rim = np.maximum(np.abs(xx - h0), np.abs(yy - h0)) / h0
    colour = np.median(face[(rim > 0.8) & (rim < 0.93)].reshape(-1, 3), axis=0)
    dist = _chan_max(cv2.absdiff(face, np.full_like(face, colour.astype(np.uint8)))).astype(np.float32)
    e = max(1, n // 12)
    dist[:e] = 0
    dist[n - e:] = 0
    dist[:, :e] = 0
    dist[:, n - e:] = 0
    k98 = dist.size * 49 // 50
    contrast = float(np.partition(dist.ravel(), k98)[k98])  # its 98th percentile
    if contrast < 35.0:
        return None, 0.0
    d = np.minimum(dist, contrast) / contrast
    # a die's face is square: its rim is all of the face's colour (a disc cut out square, a checker's
    # emblem, has other colours in its corners)
    odd = float((dist[(rim > 0.8) & (rim < 0.93)] > p.rim_levels).mean())
    h = (n - 1) / 2
    w = max(1, int(round(p.pip_radius * h * 0.7)))
    # the pips' grid may sit off the cut's centre (a side face seen beside the top one)
    ii = cv2.integral(d)
    offs = np.array([(ox, oy) for ox in p.offsets for oy in p.offsets], np.float64) * h
    sp = np.asarray(p.spreads, np.float64)
    # centres of the 3 x 3 places for every (spread, offset): shape (spreads * offsets, 9)
    cx = h + offs[None, :, 0, None] + _GRID[None, None, :, 0] * sp[:, None, None] * h
    cy = h + offs[None, :, 1, None] + _GRID[None, None, :, 1] * sp[:, None, None] * h
    cx = np.clip(np.round(cx), w, n - 1 - w).astype(np.intp).reshape(-1, 9)
    cy = np.clip(np.round(cy), w, n - 1 - w).astype(np.intp).reshape(-1, 9)
    box = (ii[cy + w + 1, cx + w + 1] - ii[cy - w, cx + w + 1] - ii[cy + w + 1, cx - w] + ii[cy - w, cx - w]) \
        / float((2 * w + 1) ** 2)  # how pip-like each place is (0: the face's colour, 1: the pips')
    on_min = np.where(_ON[None], box[:, None, :], np.inf).min(axis=2)     # (grids, faces)
    off_max = np.where(~_ON[None], box[:, None, :], -np.inf).max(axis=2)
    margin = (on_min - off_max).max(axis=0)
    scores: dict[int, float] = {}
    for v, m_ in zip(_ON_VALUES, margin):
        scores[int(v)] = max(scores.get(int(v), -1.0), float(m_))
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (value, best), (_, second) = ranked[0], ranked[1]
    plain = 1.0 - float(np.median(d[d < 0.5])) * 2 if (d < 0.5).any() else 0.0
    # no more of the face pip-coloured than the value's pips cover (a letter's hole is no pip)
    ink = float((d > 0.5).mean())
    plain *= float(np.clip(1.0 - (ink - (p.ink[0] + p.ink[1] * value)) / 0.05, 0, 1))
    conf = float(np.clip(best / p.margin, 0, 1)) * float(np.clip((best - second) / 0.3, 0, 1)) \
        * float(np.clip((contrast - 30) / 50, 0, 1)) * float(np.clip((plain - 0.3) / 0.25, 0, 1))
    conf *= float(np.clip((p.rim_odd - odd) / 0.1, 0, 1))
    return value, round(min(conf, 1.0), 3)


# --------------------------------------------------------------------------- on a checker


def _on_checker(view: View, cx: float, cy: float, side: float, p: DiceParams) -> bool:
    """True when a checker's rim circles the die (its centre within a checker's radius of the die's)."""
    dp = p.detect_px
    s = dp / view.px
    R = p.checker_radius[1] + 0.15
    u, v = view.to_px(cx, cy)
    r = int(round(R * view.px))
    H, W = view.image.shape[:2]
    x0, y0, x1, y1 = max(int(u) - r, 0), max(int(v) - r, 0), min(int(u) + r + 1, W), min(int(v) + r + 1, H)
    crop = view.image[y0:y1, x0:x1]
    if crop.size == 0:
        return False
    g = cv2.cvtColor(cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    g = cv2.GaussianBlur(g, (3, 3), 0)
    circles = cv2.HoughCircles(g, cv2.HOUGH_GRADIENT, dp=1, minDist=2, param1=80, param2=14,
                               minRadius=int(p.checker_radius[0] * dp), maxRadius=int(round(p.checker_radius[1] * dp)))
    if circles is None:
        return False
    du, dv = (u - x0) * s, (v - y0) * s
    for x, y, rad in circles[0][:6]:
        if np.hypot(x - du, y - dv) + side * dp * 0.45 < rad:
            return True
    return False


# --------------------------------------------------------------------------- the finder


def _to_image(corners: np.ndarray, shape: L.BoardShape) -> "cv2.typing.MatLike":
    return cv2.getPerspectiveTransform(shape.corners_pw(), np.asarray(corners, np.float32))


def find_dice(view: View, params: DiceParams = DiceParams(), corners: Optional[np.ndarray] = None,
              shape: L.BoardShape = L.BoardShape(), max_dice: int = 6) -> list[DieSeen]:
    """The dice on a rectified view (image centres too when the playing area's ``corners`` and
    ``shape`` are given), most confident first, at most ``max_dice``."""
    found: list[DieSeen] = []
    to_img = _to_image(corners, shape) if corners is not None else None
    ring = _candidates(view, params)
    pips = _pip_candidates(view, params)
    if ring and pips:  # a pip group where the coarse search already looks adds nothing
        a, b = np.asarray(ring), np.asarray(pips)
        far = np.hypot(b[:, None, 0] - a[None, :, 0], b[:, None, 1] - a[None, :, 1]).min(axis=1) > 0.1
        pips = [c for c, f in zip(pips, far) if f]
    cands = ring + pips
    for cx, cy in cands:
        got = _face(view, cx, cy, params)
        if got is None:
            continue
        face, rect, contrast, fill = got
        (rx, ry), (rw, rh), _ang = rect
        value, conf = read_face(face, params)
        if value is not None and value not in count_pips(face, params):
            conf = min(conf, params.uncounted)  # the pips counted one by one disagree: never sure
        if fill < params.square:
            conf = min(conf, params.uncounted)  # rounded, not a square's straight edges: a letter's loop, a disc
        side = float(np.sqrt(rw * rh)) / view.px
        # a cocked die's top face is foreshortened a little; a longer blob is no die's face
        conf = round(conf * float(np.clip((1.4 - max(rw, rh) / min(rw, rh)) / 0.2, 0, 1)), 3)
        if conf < params.keep:
            continue  # no die's pips: a letter, a screw, a checker's emblem
        bx, by = rx / view.px + view.x0, ry / view.px + view.y0
        if any(np.hypot(bx - d.board[0], by - d.board[1]) < 0.2 for d in found):
            continue
        img: Optional[tuple[float, float]] = None
        if to_img is not None:
            rxr, ryr = shape.to_real(np.array([bx]), np.array([by]))
            q = cv2.perspectiveTransform(np.array([[[float(rxr[0]), float(ryr[0])]]], np.float32), to_img)[0][0]
            img = (float(q[0]), float(q[1]))
        half = half_of(bx, by)
        if half == "bar":  # hinges and fittings there show screws like pips: never sure
            conf = min(conf, params.bar_confidence)
        # off the board: any of the face over the playing area's edge (a die across it, or beyond)
        pts = cv2.boxPoints(rect) / view.px + np.array([view.x0, view.y0])
        t = params.edge
        off = bool((pts[:, 0] < -t).any() or (pts[:, 0] > L.WIDTH + t).any() or (pts[:, 1] < -t).any()
                   or (pts[:, 1] > L.HEIGHT + t).any())
        found.append(DieSeen((round(bx, 3), round(by, 3)), img, half, _on_checker(view, bx, by, side, params),
                             off, value, conf, round(side, 3), where_confidence(bx, by, side)))
    found.sort(key=lambda d: (d.value is None, -d.confidence))
    return found[:max_dice]


def find_dice_in_frame(frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape = L.BoardShape(),
                       params: DiceParams = DiceParams(), px: int = 64) -> list[DieSeen]:
    """:func:`find_dice` on a camera frame: rectified at ``px`` per point width (values need 48 or more)."""
    return find_dice(rectify(frame, corners, px, shape=shape), params, corners, shape)


def covered_slots(dice: Sequence[DieSeen], centres: np.ndarray, side: float, margin: float = 0.05) -> np.ndarray:
    """Which checker slots the dice cover (bool per row of ``centres``, layout pw, slots ``side`` pw
    a side: :class:`vision.memory.SlotGeometry`): a slot whose square meets a die's face, turned any
    way (its circumscribed circle) and ``margin`` more.  The board's learned look should count those
    slots as telling nothing, so a die on a point is never read as a checker."""
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    out = np.zeros(len(c), bool)
    for d in dice:
        s = d.side if d.side > 0 else 0.4
        reach = side / 2 + s * 0.7072 + margin
        out |= (np.abs(c[:, 0] - d.board[0]) < reach) & (np.abs(c[:, 1] - d.board[1]) < reach) & \
            (np.hypot(c[:, 0] - d.board[0], c[:, 1] - d.board[1]) < reach * 1.2)
    return out


def covered_points(dice: Sequence[DieSeen], per_point: int, centres: np.ndarray, side: float) -> frozenset[int]:
    """The points (image rows: top 0..11 then bottom 0..11, as :class:`vision.memory.SlotGeometry`
    orders them) with a slot under a die."""
    mask = covered_slots(dice, centres, side)[: 24 * per_point]
    return frozenset(int(i) // per_point for i in np.nonzero(mask)[0])


def zone(die: DieSeen, setup: L.SetUp = L.SetUp()) -> str:
    """The referee's landing zone of a die: ``"left"``/``"right"`` as seen from Dark's seat, else (on the
    bar, over the edge or beyond it) ``"outside"``."""
    if die.half not in ("left", "right") or die.off_board:
        return "outside"
    if setup.dark_home.startswith("bottom"):  # Dark sits at the image's bottom edge: its right is the image's
        return die.half
    return "left" if die.half == "right" else "right"


def to_readings(dice: Sequence[DieSeen], setup: L.SetUp = L.SetUp(), params: DiceParams = DiceParams(),
                pw_mm: float = 40.0) -> tuple[DieReading, ...]:
    """The referee's :class:`DieReading` per die: zone from Dark's seat, value only when sure (else None),
    position in mm from the board's centre (x to Dark's right, y away from Dark; ``pw_mm``: a point's width)."""
    out = []
    for d in dice:
        x, y = (d.board[0] - L.WIDTH / 2) * pw_mm, (L.HEIGHT / 2 - d.board[1]) * pw_mm
        if not setup.dark_home.startswith("bottom"):
            x, y = -x, -y
        out.append(DieReading(d.value if d.sure(params) else None, True, zone(d, setup), d.on_checker,
                              round(x, 1), round(y, 1), d.confidence))
    return tuple(out)
