"""The bear-off trays: checkers lying on their sides in strips beside the playing area.

:func:`tray_views` rectifies the strips beside the playing area's left and right edges
(only those wholly inside the frame); :func:`read_trays` counts the ladder of lines
between side-on checkers in each half-tray and takes the colour from the board's
:class:`~vision.colours.ColourModel`.  :class:`vision.reader.BoardReader` reports the
counts as ``BoardEvidence.off`` only when sure and adding up to 15 with the board.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from .order import median_axis
from . import layout as L
from .read import L_WEIGHT, POINT_KNEE, ColourModel, _peaks
from .rectify import View

TRAY_PX = 64            # pixels per pw of the tray strips
TRAY_WINDOW = 0.5       # pw: width of the column window the checkers are read in
TRAY_LINE = 2.5         # grey levels: the weakest line between two side-on checkers
TRAY_SHARE = 0.3        # ...and at least this share of the typical strong one
TRAY_SPACING = (0.85, 1.15)  # successive lines, as a share of the pitch
PITCH_RANGE = (0.17, 0.42)   # pw: a checker lying down, thickness and gap (thin tournament to thick wooden)


@dataclass(frozen=True)
class TrayReading:
    """Checkers seen lying in the bear-off trays: a count per colour, and whether every
    half-tray in view was read surely.  ``sides``: the sides ("left", "right") in view."""

    dark: int
    light: int
    sure: bool
    sides: tuple[str, ...]


def tray_views(frame: np.ndarray, corners: np.ndarray, warp: bool = True,
               shape: L.BoardShape = L.BoardShape()) -> list[tuple[str, Optional[View]]]:
    """The strips beside the playing area's left and right edges where trays may lie, each
    only when it lies wholly inside the frame (else that side is not in view).  With
    ``warp=False`` only which sides are in view (the views are None)."""
    from .rectify import rectify_region
    h, w = frame.shape[:2]
    sides = _strips_in_view(np.asarray(corners, np.float32).tobytes(), h, w, shape)
    return [(side, rectify_region(frame, corners, TRAY_PX, x0, 0.0, x1, L.HEIGHT, shape) if warp else None)
            for side, x0, x1 in sides]


@functools.lru_cache(maxsize=64)
def _strips_in_view(corners: bytes, h: int, w: int, shape: L.BoardShape) -> tuple[tuple[str, float, float], ...]:
    """The tray strips (side, x0, x1 in pw) wholly inside an ``h`` x ``w`` frame for these
    corners (float32 bytes): a camera's, worked out once."""
    to_img = cv2.getPerspectiveTransform(shape.corners_pw(), np.frombuffer(corners, np.float32).reshape(4, 2))
    a, b = L.TRAY_SEARCH
    out = []
    for side, x0, x1 in (("left", -b, -a), ("right", L.WIDTH + a, L.WIDTH + b)):
        xr, yr = shape.to_real(np.array([x0, x1, x1, x0]), np.array([0, 0, L.HEIGHT, L.HEIGHT]))
        box = np.stack([xr, yr], axis=-1)[None].astype(np.float32)
        pts = cv2.perspectiveTransform(box, to_img)[0]
        if pts.min() < 1 or (pts[:, 0] > w - 2).any() or (pts[:, 1] > h - 2).any():
            continue
        out.append((side, x0, x1))
    return tuple(out)


def ladder_pitch(prof: np.ndarray, px: int) -> Optional[float]:
    """How far apart (pixels) the side-on checkers in a tray column lie: with three lines or
    more, the lag in :data:`PITCH_RANGE` at which the column's line profile best matches
    itself (the shortest of the near-best lags, so a ladder is not taken at twice its
    pitch); with two, their distance when it is in that range; else None (one checker
    shows no spacing)."""
    lo, hi = int(PITCH_RANGE[0] * px), int(np.ceil(PITCH_RANGE[1] * px))
    peaks = _peaks(prof, TRAY_LINE, max(1, lo // 2))
    if len(peaks) == 2:
        gap = float(peaks[1] - peaks[0])
        return gap if lo <= gap <= hi else None
    if len(peaks) < 2 or len(prof) <= hi + 2:
        return None
    p = np.maximum(prof, 0.0)
    p = p - p.mean()
    lags = np.arange(lo - 1, hi + 2)
    r = np.array([float(np.dot(p[:-k], p[k:])) / (len(p) - k) for k in lags])
    inner = r[1:-1]
    if inner.max() <= 0:
        return None
    k = int(np.flatnonzero(inner >= 0.8 * inner.max())[0]) + 1
    while k + 1 < len(r) - 1 and r[k + 1] > r[k]:   # climb to the local top of that lag
        k += 1
    a, b, c = r[k - 1], r[k], r[k + 1]
    den = a - 2 * b + c
    shift = 0.5 * (a - c) / den if den < 0 else 0.0   # parabola through the top three
    return float(lags[k] + min(max(shift, -0.5), 0.5))   # (np.clip's value: a scalar's, without its overhead)


def _line_chain(prof: np.ndarray, pitch: float) -> tuple[list[int], bool]:
    """The longest run of dark lines (local maxima of ``prof``) spaced ``pitch`` pixels
    apart (one missing line bridged), and whether the profile is clean (no strong line left
    over inside the run).  Returns the line positions, a bridged one filled in."""
    peaks = _peaks(prof, TRAY_LINE, max(1, int(0.6 * pitch)))
    if not peaks:
        return [], True
    heights = np.sort(prof[peaks])[::-1]
    thr = max(TRAY_LINE, TRAY_SHARE * float(median_axis(heights[:5], 0)))   # (np.median's value)
    peaks = [j for j in peaks if prof[j] > thr]
    lo, hi = TRAY_SPACING[0] * pitch, TRAY_SPACING[1] * pitch
    best: list[int] = []
    for i in range(len(peaks)):
        chain = [peaks[i]]
        for j in peaks[i + 1:]:
            gap = j - chain[-1]
            if lo <= gap <= hi:
                chain.append(j)
            elif 2 * lo <= gap <= 2 * hi:
                chain += [(chain[-1] + j) // 2, j]   # one line too faint: bridged
            elif gap > 2 * hi:
                break
        if len(chain) > len(best):
            best = chain
    clean = not best or not any(best[0] < j < best[-1] and min(abs(j - b) for b in best) > 0.25 * pitch for j in peaks)
    return best, clean


def ladder_profile(img: np.ndarray, px: int) -> tuple[np.ndarray, int, int]:
    """A half-tray's line profile: per row, how much darker than the rows a little above and
    below it (a thin line, not a step), in the column window where such lines are strongest.
    Returns (profile, the window's first column, its width)."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    d = max(2, int(round(px / 16)))   # a line is thin: compare with rows this far either side
    win = max(3, int(TRAY_WINDOW * px))
    if grey.shape[0] <= 2 * d or grey.shape[1] < win:
        return _ladder_profile_float(grey, d, win)
    # grey levels are whole numbers, so the ridge and its column sums are too: computed in
    # integers they are the float ones exactly, in a fraction of the time (the ridge's positive
    # part is the saturating uint8 difference; the signed ridge is needed in the window only)
    lo = cv2.min(grey[:-2 * d], grey[2 * d:])
    colsum = cv2.reduce(cv2.subtract(lo, grey[d:-d]), 0, cv2.REDUCE_SUM, dtype=cv2.CV_32S)[0]
    energy = np.convolve(colsum, np.ones(win), mode="valid")
    c0 = int(np.argmax(energy))
    ridge = np.zeros((grey.shape[0], win), np.float32)
    np.subtract(lo[:, c0:c0 + win], grey[d:-d, c0:c0 + win], out=ridge[d:-d], dtype=np.float32)
    return median_axis(ridge, 1), c0, win  # a line runs across the whole window


def _ladder_profile_float(grey: np.ndarray, d: int, win: int) -> tuple[np.ndarray, int, int]:
    """:func:`ladder_profile` in floats, for a strip too small for the integer shortcut."""
    g = grey.astype(np.float32)
    ridge = np.zeros_like(g)
    ridge[d:-d] = np.minimum(g[:-2 * d], g[2 * d:]) - g[d:-d]
    colsum = np.maximum(ridge, 0).sum(axis=0)
    energy = np.convolve(colsum, np.ones(win), mode="valid")
    c0 = int(np.argmax(energy))
    return median_axis(ridge[:, c0:c0 + win], 1), c0, win


def window_colour(img: np.ndarray, c0: int, win: int) -> np.ndarray:
    """Each row's mean colour (float32) in the columns ``c0 .. c0 + win`` of a BGR strip:
    ``img[:, c0:c0 + win].astype(np.float32).mean(axis=1)`` exactly (the sums of whole grey
    levels are exact in any order, the division is NumPy's), in a small part of its time
    (NumPy reduces a middle axis of three channels slowly; OpenCV sums the columns at once)."""
    part = img[:, c0:c0 + win]
    if part.dtype != np.uint8 or part.ndim != 3 or part.shape[1] * 255 >= 1 << 24 or 0 in part.shape:
        return part.astype(np.float32).mean(axis=1)
    sums = cv2.reduce(part, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S).reshape(part.shape[0], part.shape[2])
    out = sums.astype(np.float32)
    return np.true_divide(out, np.intp(part.shape[1]), out=out, casting="unsafe")   # as np.mean divides


def _half_tray(view: View, y0: float, y1: float, model: ColourModel) -> tuple[Optional[str], int, bool]:
    """One half-tray: (colour or None, count, sure).  Side-on checkers show as a ladder of
    dark lines one checker's thickness apart (measured, :func:`ladder_pitch`); the bodies
    between the lines give the colour, and a body beyond either end line counts when it
    looks like the ones between for most of a checker's thickness but does not run on
    like a surface."""
    px = view.px
    img = view.image[int(round(y0 * px)):int(round(y1 * px))]
    prof, c0, win = ladder_profile(img, px)
    measured = ladder_pitch(prof, px)
    pitch = measured or L.TRAY_PITCH * px
    chain, clean = _line_chain(prof, pitch)
    if len(chain) == 0:
        return None, 0, clean
    lone = measured is None and len(chain) == 1
    if lone:
        pitch = PITCH_RANGE[0] * px   # a lone checker's thickness is unknown: look as far as the thinnest
    cols = window_colour(img, c0, win)   # the window's colour, row by row
    inset = max(1, int(round(0.2 * pitch)))

    def body(a: float, b: float, clip: bool = False) -> Optional[np.ndarray]:
        a_, b_ = int(round(a)) + inset, int(round(b)) - inset
        if clip:
            a_, b_ = max(a_, 0), min(b_, len(cols))
        if a_ < 0 or b_ > len(cols) or b_ - a_ < max(2, inset * 2):
            return None
        return cols[a_:b_].mean(axis=0)

    inner = [body(a, b) for a, b in zip(chain[:-1], chain[1:])]
    before = body(chain[0] - pitch, chain[0])
    after = body(chain[-1], chain[-1] + pitch)
    n = len(chain) - 1
    sure = clean
    if inner and all(x is not None for x in inner):
        ref = median_axis(np.array(inner), 0)
    else:
        # one line: its body is the side nearer one of the two checker colours
        cands = [x for x in (before, after) if x is not None]
        if not cands:
            return None, 0, False
        lab = cv2.cvtColor(np.array(cands, np.uint8)[None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)
        wgt = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
        dist = np.minimum(np.linalg.norm((lab - np.array(model.dark)) * wgt, axis=1),
                          np.linalg.norm((lab - np.array(model.light)) * wgt, axis=1))
        ref = cands[int(np.argmin(dist))]
    # beyond each end line the run goes on for one more body when the rows there keep the
    # colour of the body next to them (light may change along the tray) for most of a
    # checker's thickness (the end checker's own line may not show: a light checker's shade
    # against a dark tray)
    outside = np.ones(len(cols), bool)
    outside[max(0, int(chain[0] - 1.5 * pitch)):int(chain[-1] + 1.5 * pitch) + 1] = False
    reach = PITCH_RANGE[1] * px if lone else pitch
    first = inner[0] if n and inner[0] is not None else ref
    last = inner[-1] if n and inner[-1] is not None else ref
    ends = ((chain[0] - inset, -1, first), (chain[-1] + inset, +1, last))
    for start, step, near in ends:
        off = cols - near
        rows = np.sqrt(np.add.reduce(off * off, axis=1))   # np.linalg.norm(off, axis=1), without its checks
        bg = float(median_axis(rows[outside], 0)) if outside.sum() >= pitch / 2 else 60.0
        tau = max(12.0, 0.5 * bg)
        ext = 0
        y = start
        while 0 <= y < len(rows) and ext < 2 * reach and rows[y] < tau:
            ext += 1
            y += step
        if lone and ext >= 1.5 * reach:
            continue  # a lone line beside colour that runs on well past a checker: a surface's edge (frame, tray wall)
        if ext >= 0.65 * (pitch - inset):
            n += 1
        elif ext >= 0.35 * (pitch - inset):
            sure = False  # half a body: neither clearly a checker nor clearly not
    if n == 0:
        return None, 0, sure
    lab = cv2.cvtColor(np.array([ref], np.uint8)[None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    labels, margin = model.classify(lab)
    sure = sure and float(margin[0]) * 3 >= POINT_KNEE * 4 and n <= L.MAX_STACK
    return ("dark", "light")[int(labels[0])], n, sure


def read_trays(views: list[tuple[str, Optional[View]]], model: ColourModel) -> Optional[TrayReading]:
    """Stage 5: borne-off checkers per colour in the trays in view (None when no side is)."""
    if not views:
        return None
    counts = [0, 0]
    sure = True
    for _, view in views:
        assert view is not None, "read_trays needs the warped strips (tray_views(..., warp=True))"
        for y0, y1 in ((0.0, L.HEIGHT / 2), (L.HEIGHT / 2, L.HEIGHT)):
            colour, n, ok = _half_tray(view, y0, y1, model)
            sure = sure and ok
            if colour is not None:
                counts[colour == "light"] += n
    return TrayReading(counts[0], counts[1], sure, tuple(s for s, _ in views))
