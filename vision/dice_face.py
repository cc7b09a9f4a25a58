"""One die at the view's own scale (:mod:`vision.dice`, steps 2 and 3): its face found as the region of
its colour, cut out square, its pips read and counted, and whether a checker's rim circles it."""
from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple, Optional, Sequence

import cv2
import numpy as np

from .dice_params import GRID, ON, ON_VALUES, DiceParams
from .rectify import View

def count_pips(face: np.ndarray, p: DiceParams = DiceParams()) -> tuple[int, ...]:
    """The pips on a die's face cut out square (BGR), counted as separate spots of the pips' shade
    (darker than the face, or lighter on a dark die) inside its rim, at a few depths (blurred pips
    close together part only near their centres): a check of :func:`read_face` that does not rely on
    the pips' layout.  Empty when the face has no spots."""
    n = face.shape[0]
    g = cv2.cvtColor(face, cv2.COLOR_BGR2GRAY).astype(np.float32)
    rim, band, inside = _rims(n)
    base = float(_median(g[band]))
    inner = g[rim < 0.8]
    lo, hi = _percentile(inner, 2), _percentile(inner, 98)
    dark = base - lo > hi - base
    ink = (base - g) if dark else (g - base)
    depth = max(base - lo, hi - base)
    if depth < 30.0:
        return ()
    counts = []
    for at in p.pip_depths:
        mask = ((ink > depth * at) & inside).view(np.uint8)
        _k, _lab, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8)
        area = stats[1:, cv2.CC_STAT_AREA]
        big = float(area.max()) if len(area) else 0.0
        counts.append(int((area >= max(2.0, big * 0.25)).sum()))
    return tuple(counts)


@lru_cache(maxsize=4)
def _rims(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a face cut out ``n`` px square: each pixel's distance from the centre as a share of the half
    side (the largest of x and y), the band just inside the rim (0.8..0.93), and the inside (< 0.85)."""
    yy, xx = np.mgrid[0:n, 0:n]
    h0 = (n - 1) / 2
    rim = np.maximum(np.abs(xx - h0), np.abs(yy - h0)) / h0
    rim.setflags(write=False)
    band, inside = (rim > 0.8) & (rim < 0.93), rim < 0.85
    band.setflags(write=False)
    inside.setflags(write=False)
    return rim, band, inside


@lru_cache(maxsize=4)
def _places(n: int, offsets: tuple[float, ...], spreads: tuple[float, ...],
            pip_radius: float) -> tuple[tuple[np.ndarray, ...], int]:
    """Where the boxes of the 3 x 3 places a pip can be lie on a face cut out ``n`` px square (one row of
    9 per spread and offset): their four corners as flat indices into the face's integral image
    (bottom right, top right, bottom left, top left), and the half width of a box."""
    h = (n - 1) / 2
    w = max(1, int(round(pip_radius * h * 0.7)))
    # the pips' grid may sit off the cut's centre (a side face seen beside the top one)
    offs = np.array([(ox, oy) for ox in offsets for oy in offsets], np.float64) * h
    sp = np.asarray(spreads, np.float64)
    # centres of the 3 x 3 places for every (spread, offset): shape (spreads * offsets, 9)
    fx = h + offs[None, :, 0, None] + GRID[None, None, :, 0] * sp[:, None, None] * h
    fy = h + offs[None, :, 1, None] + GRID[None, None, :, 1] * sp[:, None, None] * h
    cx = np.clip(np.round(fx), w, n - 1 - w).astype(np.intp).reshape(-1, 9)
    cy = np.clip(np.round(fy), w, n - 1 - w).astype(np.intp).reshape(-1, 9)
    m = n + 1  # the integral image's width
    corners = ((cy + w + 1) * m + cx + w + 1, (cy - w) * m + cx + w + 1,
               (cy + w + 1) * m + cx - w, (cy - w) * m + cx - w)
    for k in corners:
        k.setflags(write=False)
    return corners, w


# --------------------------------------------------------------------------- one die


@lru_cache(maxsize=8)
def _elements(P: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The structuring elements of a face's search at ``P`` px per point width: the reach of a pip's
    width (pieces of one face), the band just around it (inside and out), and a little further out."""
    def disc(k: int) -> np.ndarray:
        return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return (disc(max(3, int(round(0.24 * P)) | 1)), disc(max(3, int(round(0.16 * P)) | 1)), disc(5),
            disc(max(5, int(round(0.36 * P)) | 1)))


def _median(a: np.ndarray) -> np.ndarray:
    """Per column, the median of ``a``'s rows: :func:`numpy.median`'s value and type, without its
    overhead (the mean of the middle one or two)."""
    s = np.sort(a, axis=0)
    k = len(s) // 2
    return np.mean(s[k - 1 + len(s) % 2: k + 1], axis=0)


def _median_colour(a: np.ndarray) -> tuple[int, int, int]:
    """``int`` of each channel of :func:`_median` of ``a``'s uint8 rows (BGR), in integers: the middle
    row's value, or the two middle ones' mean rounded down (what ``int`` makes of the float mean)."""
    if not len(a):
        c = _median(a)
        return int(c[0]), int(c[1]), int(c[2])
    s = np.sort(a.T, axis=1, kind="stable")   # each channel's row sorted (bytes: a radix sort)
    k = s.shape[1] // 2
    if s.shape[1] % 2:
        b, g, r = s[:, k].tolist()
        return b, g, r
    lo, hi = s[:, k - 1].tolist(), s[:, k].tolist()
    return (lo[0] + hi[0]) // 2, (lo[1] + hi[1]) // 2, (lo[2] + hi[2]) // 2


def _percentile(a: np.ndarray, q: float) -> float:
    """:func:`numpy.percentile` of the 1-d ``a`` (its default linear method, the same float) without its
    overhead: the two values about the q-th share, weighted as numpy's interpolation weighs them."""
    n = a.size
    qq = np.true_divide(q, 100)
    vi = n * qq + (1 + qq * (1 - 1 - 1)) - 1  # numpy's virtual index for the linear method
    if vi >= n - 1 or vi < 0:
        i = j = n - 1 if vi >= n - 1 else 0
    else:
        i = int(np.floor(vi))
        j = i + 1
    s = np.partition(a, (i, j)) if i != j else np.partition(a, i)
    g = float(vi - i) if i != j else 0.0
    x, y = s[i], s[j]
    d = y - x
    return float((y - d * (1 - g)) if g >= 0.5 else (x + d * g))


def _dilated(mask: np.ndarray, se: np.ndarray, box: "tuple[int, int, int, int] | cv2.typing.Rect",
             at: "tuple[int, int, int, int] | None" = None) -> tuple[tuple[int, int, int, int], np.ndarray]:
    """``mask`` (nonzero only inside ``box``: x, y, w, h) dilated by ``se``, worked out only where it
    can be nonzero (the box and the element's reach; ``at``: this window instead, rows y0:y1 and
    columns x0:x1): the window and the dilation in it (the same as dilating the whole mask)."""
    if at is None:
        H, W = mask.shape[:2]
        ry, rx = se.shape[0] // 2, se.shape[1] // 2
        x, y, w, h = box
        at = (max(y - ry, 0), min(y + h + ry, H), max(x - rx, 0), min(x + w + rx, W))
    y0, y1, x0, x1 = at
    return at, cv2.dilate(mask[y0:y1, x0:x1], se)


@lru_cache(maxsize=4)
def _box(h: int, w: int) -> np.ndarray:
    """A rectangular structuring element ``h`` x ``w`` px."""
    k = np.ones((h, w), np.uint8)
    k.setflags(write=False)
    return k


def _reach(pieces: np.ndarray, seed: tuple[int, int], rx: int, ry: int) -> tuple[int, int, int, int]:
    """A box (x0, y0, x1, y1, px, ends excluded) holding every piece of ``pieces`` (nonzero; none
    touching the edge) that a chain of steps of at most ``rx`` by ``ry`` px joins to the seed's piece
    (the pixel ``seed``), as :func:`_blob` grows a face (its structuring element no wider, two steps):
    the seed's region of the pieces dilated by a box of half those steps, where such pieces touch, less
    that half again where the dilation stops short of the edge.  One dilation and one fill: cheaper
    than labelling the pieces."""
    hx, hy = rx // 2, ry // 2   # two boxes of 2h + 1 touch when their centres lie r or less apart
    near = cv2.dilate(pieces, _box(2 * hy + 1, 2 * hx + 1))
    # every nonzero level joined, from the seed's (filled in place: the dilation is this call's own)
    _n, _img, _mask, (x, y, w, h) = cv2.floodFill(near, None, seed, 255, int(near[seed[1], seed[0]]) - 1, 0,
                                                  8 | cv2.FLOODFILL_FIXED_RANGE)
    H, W = pieces.shape[:2]
    return (x + hx if x > 0 else 0, y + hy if y > 0 else 0,
            x + w - hx if x + w < W else W, y + h - hy if y + h < H else H)


def _reach_bound(pieces: np.ndarray, rx: int, ry: int) -> tuple[int, int, int, int]:
    """A box holding :func:`_reach`'s of any seed in ``pieces`` (its steps ``rx`` by ``ry``): the box of
    every piece, taken out to the edge on a side where :func:`_reach`'s dilation would reach the edge
    (a piece within half a step of it).  One call, no dilation nor fill."""
    x, y, w, h = cv2.boundingRect(pieces)
    H, W = pieces.shape[:2]
    hx, hy = rx // 2, ry // 2
    return (x if x > hx else 0, y if y > hy else 0, x + w if x + w + hx < W else W, y + h if y + h + hy < H else H)


def _too_small(box: tuple[int, int, int, int], least: float) -> bool:
    """True when a face whose pixels lie in ``box`` (x0, y0, x1, y1, ends excluded) cannot have a
    minimum-area rectangle whose shorter side is ``least`` px or more: that side is at most the square
    root of the rectangle's area, at most the area of the box about the pixels' centres (with a hair's
    slack for the rectangle's rounding)."""
    x0, y0, x1, y1 = box
    return (x1 - x0 - 1) * (y1 - y0 - 1) < least * least * 0.999


def _widest(p: DiceParams, P: int) -> float:
    """The longest diagonal (px) a face's minimum-area rectangle can have and still pass :func:`_blob`'s
    tests at ``P`` px a pw (sides a <= b: a at least ``p.side[0]``, b at most ``p.aspect`` a and
    ``p.max_extent``, a b at most ``p.side[1]`` squared; -1 when none can): a face whose pixels span more
    than that across or down is no die's (a rectangle holding them spans at most its diagonal each way).
    a^2 + b^2 with b as long as it may be is, piece by piece, rising in a or convex (b = h^2 / a): its
    greatest at the pieces' ends."""
    return _widest_of(p.side, p.max_extent, p.aspect, P)


@lru_cache(maxsize=8)
def _widest_of(side: tuple[float, float], max_extent: float, aspect: float, P: int) -> float:
    """:func:`_widest` of those thresholds (a whole DiceParams is slow to hash)."""
    lo, hi, ext, asp = side[0] * P, side[1] * P, max_extent * P, aspect

    def longest(a: float) -> float:
        return min(asp * a, ext, hi * hi / a)

    top = min(ext, hi)   # b >= a: the greatest a
    if lo > top or longest(lo) < lo:
        return -1.0
    ends = [lo, top, ext / asp, hi / np.sqrt(asp), hi * hi / ext]
    return float(max(np.hypot(a, longest(a)) for a in ends if lo <= a <= top and longest(a) >= a))


def _too_wide(box: tuple[int, int, int, int], widest: float) -> bool:
    """True when the pixels in ``box`` (x0, y0, x1, y1, ends excluded) span more than ``widest`` px across
    or down (:func:`_widest`: their minimum-area rectangle is no die's face; a hair's slack for its floats)."""
    x0, y0, x1, y1 = box
    return max(x1 - x0, y1 - y0) - 1 > widest + 1e-3


_SQRT2 = math.sqrt(2.0)


def _too_thin(box: tuple[int, int, int, int], least: float) -> bool:
    """True when pixels in ``box`` (x0, y0, x1, y1, ends excluded) cannot have a minimum-area rectangle whose
    shorter side is ``least`` px or more: that side is at most the square root of 2 times their least width
    (the rectangle along the least width, w by l, holds them, so a b <= w l, and b >= l / sqrt 2 as the
    diagonal spans l), at most sqrt 2 times their span across or down (a hair's slack for the floats)."""
    x0, y0, x1, y1 = box
    return _SQRT2 * (min(x1 - x0, y1 - y0) - 1) < least - 1e-3


def _blob(crop: np.ndarray, r: int, seed: tuple[int, int], P: int, p: DiceParams,
          known: "tuple[tuple[int, int, int], int] | None" = None,
          dists: "tuple[np.ndarray, int] | None" = None) -> "tuple[tuple, float, float] | str | None":
    """The die-shaped region of ``seed``'s colour in ``crop`` (its rectangle, px) and its contrast with
    what lies just around it; ``"pip"`` when the seed is not of the colour around it; None when there is
    none (a region that runs out of the window is a point, a checker or the frame).  The region is grown
    at a loose likeness first, then tighter ones (a white die on a cream point is told from it by its
    edge and shadow only).  ``known``: the seed's colour and its own distance from it
    (:func:`seed_colours`), when already worked out; ``dists``: the window's distances from that colour
    and the least likeness at which a straight run joins the seed to the window's edge
    (:func:`seed_dists`), when already worked out."""
    sx, sy = seed
    if known is None:
        c0 = max(2, int(round(0.06 * P)))
        colour = _median_colour(crop[sy - c0: sy + c0 + 1, sx - c0: sx + c0 + 1].reshape(-1, 3))
        # the seed's own distance from that colour (the channel that differs most), worked out alone: a
        # seed unlike it at every likeness is a pip's, and the window's distances are never needed
        at_seed = max(abs(int(v) - c) for v, c in zip(crop[sy, sx].tolist(), colour))
    else:
        colour, at_seed = known
    fixed = _fixed(p, P)
    if p.likeness and at_seed >= fixed.loosest:
        return "pip"
    if dists is None:
        dist, runs_out = _dist_runs(crop, colour, seed)
    else:
        dist, runs_out = dists
    se, band_out, band_in, far_out = fixed.elements
    side = 2 * r + 1
    lo, hi = p.side
    widest = fixed.widest
    got: "tuple[tuple, float, float] | str | None" = None
    regions = _seed_regions(dist, (sx, sy), fixed.tight_first, at_seed, runs_out)
    for like_at in p.likeness:
        if at_seed >= like_at:  # the seed is not of the colour around it (a pip, a texture)
            if got is None:
                got = "pip"
            continue
        if like_at not in regions:   # its region runs out of the window: no die
            continue
        like, (bx, by, bw, bh) = regions[like_at]
        if _too_wide((bx, by, bx + bw, by + bh), widest):   # the face holds the seed's region: no die's either
            continue
        ry, rx = se.shape[0] // 2, se.shape[1] // 2
        # too small for a die whatever the growing below takes in (most seeds: a rim, a line, a speck);
        # the reach holds the seed's own region, so a region big enough alone needs no reach worked out;
        # a reach too thin for a die's face holds no face that is not (a line, a point's edge)
        small = _too_small((bx, by, bx + bw, by + bh), lo * P)
        # (the box every piece could reach, those running out of the window too, first: it holds the box of
        # the pieces left once those are cleared (fewer pixels, no nearer the edge), so a box too small or
        # too thin turns the seed away as that one would, before the clearing; half the seeds so turned away)
        if small:
            most = _reach_bound(like, rx, ry)
            if _too_small(most, lo * P) or _too_thin(most, lo * P):
                continue
        # the pieces running out of the window are no part of a face: cleared first (one fill from a
        # frame of 1s round the window reaches all of them, the seed's region, 2s, apart), so the pieces
        # left are labelled without their boxes
        framed = cv2.copyMakeBorder(like, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
        cv2.floodFill(framed, None, (0, 0), 0, 0, 0, 4)
        if small:
            # (the box every piece left could reach next: most often the seed's region is alone in the
            # window, and that box, no smaller than the reach, already turns it away)
            pieces = framed[1:-1, 1:-1]
            most = _reach_bound(pieces, rx, ry)
            if _too_small(most, lo * P) or _too_thin(most, lo * P):
                continue
            reach = _reach(pieces, (sx, sy), rx, ry)
            if _too_small(reach, lo * P) or _too_thin(reach, lo * P):
                continue
        inner = framed[1:-1, 1:-1]   # 2: the seed's region, 1: the other pieces, 0: neither
        # the face: the seed's region of its colour and the pieces of that colour a pip's width from it
        # (rows of pips cut a face into bands); none may run out of the window
        # (twice: the pieces reached, then those they reach; the second time only the new pieces'
        # reach is worked out, as the rest's is already known)
        box: Sequence[int] = (bx, by, bw, bh)
        ux0, uy0, ux1, uy1 = bx, by, bx + bw, by + bh  # the face's box so far (the union of the pieces')
        # where the dilation can reach (as _dilated works it out): no piece there but the face's own
        # and the background, nothing to add (the dilation, the costliest step, not needed); the
        # seed's region alone (no other piece near): no pieces labelled
        at = (max(by - ry, 0), min(by + bh + ry, side), max(bx - rx, 0), min(bx + bw + rx, side))
        lab = None
        if cv2.countNonZero(cv2.compare(inner[at[0]:at[1], at[2]:at[3]], 1, cv2.CMP_EQ)):  # type: ignore[call-overload]
            n, lab = cv2.connectedComponents(inner, connectivity=4)
            seed_label = int(lab[sy, sx])
            new = (lab == seed_label).view(np.uint8)
            keep = np.zeros(n, np.uint8)
            keep[seed_label] = 1
            for it in range(2):
                if it:
                    x, y, w, h = box
                    at = (max(y - ry, 0), min(y + h + ry, side), max(x - rx, 0), min(x + w + rx, side))
                    had = keep.copy()
                    had[0] = 1   # (for this test only: the background is nothing to add)
                    if had.take(lab[at[0]:at[1], at[2]:at[3]]).all():  # type: ignore[arg-type]
                        break
                    had[0] = 0
                else:
                    had = keep.copy()
                (y0, y1, x0, x1), grown = _dilated(new, se, box, at)
                keep[lab[y0:y1, x0:x1][grown > 0]] = 1  # the pieces the dilated face reaches ...
                keep[0] = 0                              # ... less the background (and what ran out)
                added = keep & ~had
                if not added.any():
                    break
                new = added.take(lab)  # type: ignore[arg-type]
                box = cv2.boundingRect(new)
                ux0, uy0 = min(ux0, box[0]), min(uy0, box[1])
                ux1, uy1 = max(ux1, box[0] + box[2]), max(uy1, box[1] + box[3])
                if _too_wide((ux0, uy0, ux1, uy1), widest):
                    break   # already wider than any die's face: what more it grows cannot make it one
        # no die's face whatever its outline (a face's rectangle is told from its box, below: no outline needed)
        if _too_small((ux0, uy0, ux1, uy1), lo * P) or _too_wide((ux0, uy0, ux1, uy1), widest) or \
                _too_thin((ux0, uy0, ux1, uy1), lo * P):
            continue
        # the face's outline looked for in its box (a pixel wider: none of it reaches the window's
        # edge): the same contours, in the same order, as in the whole window, on a smaller picture
        ux0, uy0, ux1, uy1 = max(ux0 - 1, 0), max(uy0 - 1, 0), min(ux1 + 1, side), min(uy1 + 1, side)
        face = (cv2.compare(inner[uy0:uy1, ux0:ux1], 2, cv2.CMP_EQ) if lab is None  # type: ignore[call-overload]
                else keep.take(lab[uy0:uy1, ux0:ux1]))  # type: ignore[arg-type]
        cnts, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(ux0, uy0))
        hull = cv2.convexHull(cnts[0] if len(cnts) == 1 else np.vstack(cnts))
        rect = cv2.minAreaRect(hull)
        (rx, ry), (rw, rh), ang = rect
        if not (lo * P <= min(rw, rh) and max(rw, rh) <= p.max_extent * P and max(rw, rh) <= p.aspect * min(rw, rh)):
            continue
        area = float(cv2.contourArea(hull))
        if area < p.fill * rw * rh or np.sqrt(rw * rh) > hi * P:
            continue
        solid = np.zeros((side, side), np.uint8)
        cv2.fillConvexPoly(solid, hull, 1)
        # the bands around the face, worked out only where they can be: the face's box and the widest reach
        box = cv2.boundingRect(hull)
        fy, fx = far_out.shape[0] // 2, far_out.shape[1] // 2
        at = (max(box[1] - fy, 0), min(box[1] + box[3] + fy, side),
              max(box[0] - fx, 0), min(box[0] + box[2] + fx, side))
        y0, y1, x0, x1 = at
        around = dist[y0:y1, x0:x1]
        near = _dilated(solid, band_out, box, at)[1] > 0
        band = near & (_dilated(solid, band_in, box, at)[1] == 0)
        if not band.any():
            continue
        ring = around[band]
        q = len(ring) * 3 // 10
        contrast = float(np.partition(ring, q)[q])  # its 30th percentile: a die stands out nearly all round
        if contrast < p.contrast:
            continue
        # a little further out it must still differ (an emblem's square on a checker is ringed by a
        # thin line, then the checker's colour again; that band dilated only now, in the same window)
        outer = _dilated(solid, far_out, box, at)[1]
        far = (outer > 0) & ~near
        if far.any():
            ring = around[far]
            q = len(ring) * 3 // 10
            if float(np.partition(ring, q)[q]) < p.far_contrast:
                continue
        return rect, contrast, area / max(rw * rh, 1e-6)
    return got


#: a seed's region filled on the distances: 4-connected, every level in a fixed range, 1s in the mask alone
_REGION_FILL = 4 | cv2.FLOODFILL_FIXED_RANGE | cv2.FLOODFILL_MASK_ONLY | (1 << 8)


def _seed_regions(dist: np.ndarray, seed: tuple[int, int], tight_first: "tuple[tuple[float, float], ...]",
                  at_seed: int, runs_out: int) -> "dict[float, tuple[np.ndarray, tuple[int, int, int, int]]]":
    """Per likeness of ``tight_first`` (:class:`_Fixed`'s) above the seed's own distance from its colour
    (``at_seed``) and at most ``runs_out`` (:func:`_dist_runs`) at which the seed's region (the pixels
    nearer than that to its colour, ``dist``, joined to it along rows and columns) does not reach the
    window's edge: the window's pixels that near (1) with that region filled with 2 (the components
    :func:`_blob` labels count any nonzero pixel alike), and the region's box (x, y, w, h).  A region holds
    the region of every tighter likeness, so the tightest are filled first: once one runs out of the
    window, every looser one does too and none of them is filled (a region that runs out is a point, a
    checker or the frame)."""
    side = dist.shape[0]
    out: "dict[float, tuple[np.ndarray, tuple[int, int, int, int]]]" = {}
    at = int(dist[seed[1], seed[0]])
    for like_at, below in tight_first:
        if not at_seed < like_at <= runs_out:
            continue
        # the region filled on the distances themselves, into a mask (those from 0 to the bound: the same
        # pixels as filled on the window's pixels that near, with no such picture made for a region that
        # runs out of the window)
        mask = np.zeros((side + 2, side + 2), np.uint8)
        _n, _img, _mask, (bx, by, bw, bh) = cv2.floodFill(dist, mask, seed, 0, at, below - at, _REGION_FILL)
        if bx == 0 or by == 0 or bx + bw >= side or by + bh >= side:
            break
        like = cv2.threshold(dist, below, 1, cv2.THRESH_BINARY_INV)[1]  # dist < like_at: 1
        out[like_at] = cv2.add(like, mask[1:-1, 1:-1], dst=like), (bx, by, bw, bh)
    return out


class _Fixed(NamedTuple):
    """What :func:`_blob` works out of its thresholds and scale alone, the same on every call."""

    loosest: float                                  # the loosest likeness (0 with none)
    tight_first: "tuple[tuple[float, float], ...]"  # each likeness and its whole distances' bound, tightest first
    elements: "tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]"   # _elements(P)
    widest: float                                   # _widest(p, P)


_FIXED: "list[tuple[DiceParams, int, _Fixed]]" = []


def _fixed(p: DiceParams, P: int) -> _Fixed:
    """:class:`_Fixed` of ``p`` at ``P`` px a pw, kept for the last thresholds asked for (the same object:
    a whole DiceParams is slow to hash, and a search asks with one for all its faces)."""
    kept = _FIXED[0] if _FIXED else None   # (read once: another thread's search may replace it meanwhile)
    if kept is not None and kept[0] is p and kept[1] == P:
        return kept[2]
    tight_first = tuple(sorted(((v, math.ceil(v) - 1.0) for v in set(p.likeness)), key=lambda lb: lb[1]))
    fixed = _Fixed(max(p.likeness) if p.likeness else 0.0, tight_first, _elements(P), _widest(p, P))
    _FIXED[:] = [(p, P, fixed)]
    return fixed


def _dist_runs(crop: np.ndarray, colour: tuple[int, int, int], seed: tuple[int, int]) -> tuple[np.ndarray, int]:
    """Per pixel of ``crop``, how far it lies from ``colour`` (the channel that differs most), and the
    least likeness at which a straight run of pixels nearer than that joins ``seed`` to the window's edge
    (along its row or column, either way): from there on its region runs out of the window (no fill
    needed to tell)."""
    sx, sy = seed
    d3 = cv2.absdiff(crop, colour + (0,))  # type: ignore[call-overload]
    dist = np.maximum(np.maximum(d3[..., 0], d3[..., 1]), d3[..., 2])  # chan_max: on so small a window, faster
    row, col = dist[sy].tolist(), dist[:, sx].tolist()  # (Python's max of a few dozen ints: no numpy call each)
    return dist, min(max(row[:sx + 1]), max(row[sx:]), max(col[:sy + 1]), max(col[sy:]))


#: per point, what :func:`seed_dists` works out for its close look: the first seed grown (its index), that
#: seed's window distances and straight runs, the window, and the same two for each later seed it may grow
SeedDists = tuple[int, np.ndarray, int, "tuple[int, int, int]", "dict[int, tuple[np.ndarray, int]]"]


def seed_dists(view: View, points: Sequence[tuple[float, float]],
               seeds: "Sequence[tuple[tuple[tuple[int, int, int], int], ...] | None]",
               p: DiceParams) -> "list[SeedDists | None]":
    """Per point (layout pw) with its seeds' colours (:func:`seed_colours`; None: its window leaves the
    view), the first seed :func:`face_at` grows a face from (its index: the first of the colour about it
    at the loosest likeness) and what :func:`_blob` works out first for it (:func:`_dist_runs`): the
    window's distances from that seed's colour and the likeness at which a straight run joins the seed
    to the window's edge, and its window (:func:`_window`); then the same for the later seeds it grows when
    no face is found (:func:`_later_seeds`), by index; None when no seed is grown.  Worked out for all
    points at once (one channel split and maximum over all the windows, the runs read off them together),
    the same values."""
    out: "list[SeedDists | None]" = [None] * len(points)
    if not p.likeness:
        return out
    loosest, tightest = max(p.likeness), min(p.likeness)
    offs = _seed_offsets(view.px)
    todo: "list[tuple[int, int, tuple[int, int, int]]]" = []
    for i, (known, win) in enumerate(zip(seeds, _windows(view, points, p))):
        if known is not None and win is not None:
            todo += [(i, k, win) for k in _later_seeds([far for _c, far in known], loosest, tightest)]
    if not todo:
        return out
    n, r = len(todo), todo[0][2][2]
    s = 2 * r + 1
    img = view.image
    d3 = np.empty((n, s, s, 3), np.uint8)
    sx, sy = np.empty(n, np.intp), np.empty(n, np.intp)
    for j, (i, k, (u, v, _r)) in enumerate(todo):
        cv2.absdiff(img[v - r: v + r + 1, u - r: u + r + 1], seeds[i][k][0] + (0,), dst=d3[j])  # type: ignore[index,arg-type]
        sx[j], sy[j] = r + offs[k][0], r + offs[k][1]
    b, g, rr = cv2.split(d3.reshape(n * s, s, 3))
    dist = cv2.max(cv2.max(b, g, dst=b), rr, dst=b).reshape(n, s, s)
    at = np.arange(n)
    rows, cols = dist[at, sy], dist[at, :, sx]          # each seed's row and column, (n, s)
    x = np.arange(s)[None, :]
    runs = np.minimum(np.minimum(np.where(x <= sx[:, None], rows, 0).max(axis=1),
                                 np.where(x >= sx[:, None], rows, 0).max(axis=1)),
                      np.minimum(np.where(x <= sy[:, None], cols, 0).max(axis=1),
                                 np.where(x >= sy[:, None], cols, 0).max(axis=1))).tolist()
    for j, (i, k, win) in enumerate(todo):
        got = out[i]
        if got is None:
            out[i] = (k, dist[j], runs[j], win, {})
        else:
            got[4][k] = (dist[j], runs[j])
    return out


def _later_seeds(far: Sequence[int], loosest: float, tightest: float) -> list[int]:
    """The seeds (indices) :func:`face_at` grows a face from, in turn, while none is found, given each seed's
    own distance from the colour about it (``far``): none unlike it at every likeness (``loosest`` or more:
    a pip's, passed over), and none after the first of it at every likeness (below ``tightest``: no
    likeness finds it a pip's, so its search ends the look)."""
    out = []
    for k, d in enumerate(far):
        if d < loosest:
            out.append(k)
            if d < tightest:
                break
    return out


@lru_cache(maxsize=4)
def _seed_offsets(P: int) -> tuple[tuple[int, int], ...]:
    """Where a face's colour is taken, px from the candidate's centre: the centre, else a little to each
    side (the centre may be a pip)."""
    o = max(2, int(round(0.08 * P)))
    return ((0, 0), (o, 0), (-o, 0), (0, o), (0, -o))


def _window(view: View, cx: float, cy: float, p: DiceParams) -> "tuple[int, int, int] | None":
    """The close look's window about (cx, cy) (pw): its centre pixel (u, v) and half side r; None when
    it runs out of the view."""
    r = int(round(p.max_extent * 0.62 * view.px))
    u, v = view.to_px(cx, cy)
    u, v = int(round(u)), int(round(v))
    H, W = view.image.shape[:2]
    if u - r < 0 or v - r < 0 or u + r + 1 > W or v + r + 1 > H:
        return None
    return u, v, r


def _windows(view: View, points: Sequence[tuple[float, float]], p: DiceParams) -> "list[tuple[int, int, int] | None]":
    """:func:`_window` of every point at once: the same pixels (the same float arithmetic, rounded half to
    even as :func:`round` rounds)."""
    if not len(points):
        return []
    r = int(round(p.max_extent * 0.62 * view.px))
    a = np.asarray(points, np.float64).reshape(-1, 2)
    u = np.round((a[:, 0] - view.x0) * view.px).astype(np.int64)
    v = np.round((a[:, 1] - view.y0) * view.px).astype(np.int64)
    H, W = view.image.shape[:2]
    inside = ((u - r >= 0) & (v - r >= 0) & (u + r + 1 <= W) & (v + r + 1 <= H)).tolist()
    return [(uu, vv, r) if ok else None for uu, vv, ok in zip(u.tolist(), v.tolist(), inside)]


def seed_colours(view: View, points: Sequence[tuple[float, float]],
                 p: DiceParams) -> "list[tuple[tuple[tuple[int, int, int], int], ...] | None]":
    """Per point (layout pw) whose window lies in the view: for its seeds (:func:`_seed_offsets`) in turn,
    the colour about it (the median of a small box, per channel, as :func:`_median_colour`) and the
    seed's own distance from it, up to the first seed nearer its colour than the tightest likeness (no
    likeness finds it a pip's, so :func:`face_at` grows no seed after it: :func:`_later_seeds`); worked out
    for all points at once, a seed at a time (one gather and one sort each, for the points still going)."""
    P = view.px
    c0 = max(2, int(round(0.06 * P)))
    wins = _windows(view, points, p)
    at = [k for k, w in enumerate(wins) if w is not None]
    out: "list[tuple[tuple[tuple[int, int, int], int], ...] | None]" = [None] * len(points)
    if not at:
        return out
    tightest = min(p.likeness) if p.likeness else None
    W = view.image.shape[1]
    pixels = view.image.reshape(-1, 3)
    k = np.arange(-c0, c0 + 1)
    box = (k[:, None] * W + k[None, :]).ravel()                         # a seed's box, flat offsets
    mid = len(box) // 2
    uv = np.asarray([wins[k_][:2] for k_ in at], np.intp)  # type: ignore[index]
    got: "list[list[tuple[tuple[int, int, int], int]]]" = [[] for _ in at]
    going = np.arange(len(at))
    for dx, dy in _seed_offsets(P):
        if not len(going):
            break
        centre = (uv[going, 1] + dy) * W + uv[going, 0] + dx
        # gathered by flat index (a 2-d fancy index is several times slower), each channel's values last
        boxes = pixels.take(centre[:, None] + box[None, :], axis=0).transpose(0, 2, 1)   # (n, 3, m), m odd
        # the middle value, the median: a stable sort of bytes is a radix sort, faster than a partition
        colour = np.sort(boxes, axis=2, kind="stable")[..., mid].astype(np.int64)
        far = np.abs(pixels.take(centre, axis=0).astype(np.int64) - colour).max(axis=1)
        for i, c, f in zip(going.tolist(), colour.tolist(), far.tolist()):   # (Python's ints, made at once)
            got[i].append(((c[0], c[1], c[2]), f))
        if tightest is not None:
            going = going[far >= tightest]
    for i, k_ in enumerate(at):
        out[k_] = tuple(got[i])
    return out


def face_at(view: View, cx: float, cy: float, p: DiceParams,
            seeds: "tuple[tuple[tuple[int, int, int], int], ...] | None" = None,
            first: "SeedDists | None" = None) -> Optional[tuple[np.ndarray, tuple, float, float]]:
    """The die around (cx, cy) at the view's scale: its face cut out square, its rectangle (px) and its
    contrast with the surround; None when no die-shaped blob is there.  The face's colour is taken at
    the centre, else a little to each side (the centre may be a pip); ``seeds``: those colours
    (:func:`seed_colours`), when already worked out, and ``first``: the seeds' distances
    (:func:`seed_dists`)."""
    P = view.px
    win = _window(view, cx, cy, p) if first is None else first[3]
    if win is None:
        return None
    u, v, r = win
    x0, y0 = u - r, v - r
    crop = view.image[y0:v + r + 1, x0:u + r + 1]
    loosest = max(p.likeness) if p.likeness else None
    got: "tuple[tuple, float, float] | str | None" = "pip"
    for k, (dx, dy) in enumerate(_seed_offsets(P)):
        known = None if seeds is None or k >= len(seeds) else seeds[k]
        if known is not None and loosest is not None and known[1] >= loosest:
            continue  # the seed is unlike the colour about it at every likeness: a pip's
        got = _blob(crop, r, (r + dx, r + dy), P, p, known,
                    None if first is None else first[1:3] if first[0] == k else first[4].get(k))
        if got != "pip":
            break
    if got is None or isinstance(got, str):
        return None
    ((rx, ry), (rw, rh), ang), contrast, fill = got
    face = cut_face(crop, cv2.boxPoints(((rx, ry), (rw * 0.96, rh * 0.96), ang)), p.face_px)
    return face, ((rx + x0, ry + y0), (rw, rh), ang), contrast, fill


def cut_face(image: np.ndarray, quad: np.ndarray, n: int) -> np.ndarray:
    """The face inside ``quad`` (4 corners, ``image``'s px, in :func:`cv2.boxPoints`' order; a little
    inside the face's edge: its rim is the board's) cut out ``n`` px square, as :func:`read_face` reads it."""
    dst = np.array([[0, n - 1], [0, 0], [n - 1, 0], [n - 1, n - 1]], np.float32)
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(image, M, (n, n), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def read_face(face: np.ndarray, p: DiceParams = DiceParams()) -> tuple[Optional[int], float]:
    """The value on a die's face cut out square (BGR), and the confidence of it: how pip-like (unlike the
    face's colour) each of the 3 x 3 places a pip can be is, and the face whose pips are all darker
    than its empty places by the widest margin (either way round).  (Worked out on the distances' whole
    grey levels: their percentiles and the light places' median read off one histogram, each place's
    share of a level one table's entry; the same values as sorting the floats.)"""
    n = face.shape[0]
    # the face's colour: from the band between the pips and the face's edge, never a pip's place
    band = _band_at(n)
    colour = _median_colour(face.reshape(-1, 3).take(band, axis=0))
    d3 = cv2.absdiff(face, colour + (0,))  # type: ignore[call-overload]
    dist = np.maximum(np.maximum(d3[..., 0], d3[..., 1]), d3[..., 2])   # chan_max: on so small a face, faster
    e = max(1, n // 12)
    dist[:e] = 0
    dist[n - e:] = 0
    dist[:, :e] = 0
    dist[:, n - e:] = 0
    hist = np.bincount(dist.ravel(), minlength=256)
    k98 = dist.size * 49 // 50
    contrast = float(np.searchsorted(hist.cumsum(), k98, side="right"))  # its 98th percentile
    if contrast < 35.0:
        return None, 0.0
    level = np.minimum(_LEVELS, contrast) / contrast   # each grey level's share of the contrast (float32)
    d = level.take(dist)
    # a die's face is square: its rim is all of the face's colour (a disc cut out square, a checker's
    # emblem, has other colours in its corners)
    odd = np.count_nonzero(dist.ravel().take(band) > p.rim_levels) / len(band)
    ii = cv2.integral(d)
    corners, w = _places(n, tuple(p.offsets), tuple(p.spreads), p.pip_radius)
    a, b, c, e_ = (ii.take(k) for k in corners)  # the integral image at each place's box corners
    # how pip-like each place is (0: the face's colour, 1: the pips')
    box = (a - b - c + e_) / float((2 * w + 1) ** 2)
    on_min = np.minimum.reduceat(box.take(_ON_PLACES, axis=1), _ON_CUTS, axis=1)     # (grids, faces)
    off_max = np.maximum.reduceat(box.take(_OFF_PLACES, axis=1), _OFF_CUTS, axis=1)
    margin = (on_min - off_max).max(axis=0)
    scores: dict[int, float] = {}
    for v, m_ in zip(ON_VALUES, margin.tolist()):
        scores[v] = max(scores.get(v, -1.0), m_)
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (value, best), (_, second) = ranked[0], ranked[1]
    # the median of the light places' shares (those below a half): the middle one or two levels
    light = np.where(level < 0.5, hist, 0)
    k = int(light.sum())
    if k:
        at = np.searchsorted(light.cumsum(), (k // 2 - 1 + k % 2, k // 2), side="right")
        plain = 1.0 - float(_middle(level.take(at)[: 2 - k % 2])) * 2
    else:
        plain = 0.0
    # no more of the face pip-coloured than the value's pips cover (a letter's hole is no pip)
    ink = int(hist[level > 0.5].sum()) / dist.size
    plain *= _unit(1.0 - (ink - (p.ink[0] + p.ink[1] * value)) / 0.05)
    conf = _unit(best / p.margin) * _unit((best - second) / 0.3) * _unit((contrast - 30) / 50) \
        * _unit((plain - 0.3) / 0.25)
    conf *= _unit((p.rim_odd - odd) / 0.1)
    return value, round(min(conf, 1.0), 3)


_LEVELS = np.arange(256, dtype=np.float32)   # the grey levels, as read_face's distances are floats
_LEVELS.setflags(write=False)
# each face's places with a pip, and without, one face after another (ON's rows), and where each face's begin
_ON_PLACES, _OFF_PLACES = np.nonzero(ON)[1], np.nonzero(~ON)[1]
_ON_CUTS = np.concatenate([[0], np.cumsum(ON.sum(axis=1))[:-1]])
_OFF_CUTS = np.concatenate([[0], np.cumsum((~ON).sum(axis=1))[:-1]])


@lru_cache(maxsize=4)
def _band_at(n: int) -> np.ndarray:
    """The flat indices (row by row) of :func:`_rims`' band on a face cut out ``n`` px square."""
    k = np.flatnonzero(_rims(n)[1])
    k.setflags(write=False)
    return k


def _unit(x: float) -> float:
    """``x`` clipped to 0..1 (:func:`numpy.clip`'s value, without its overhead)."""
    return min(max(x, 0.0), 1.0)


def _middle(a: np.ndarray) -> np.ndarray:
    """:func:`_median` of the 1-d ``a`` (not empty) by a partition: the same middle one or two values, in
    the same order, the same mean."""
    k = len(a) // 2
    if len(a) % 2:
        return np.mean(np.partition(a, k)[k:k + 1], axis=0)
    return np.mean(np.partition(a, (k - 1, k))[k - 1:k + 1], axis=0)


# --------------------------------------------------------------------------- on a checker


def on_checker_at(view: View, cx: float, cy: float, side: float, p: DiceParams) -> bool:
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

