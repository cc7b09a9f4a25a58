"""Where dice may lie on a rectified view (:mod:`vision.dice`, step 1): die-sized blobs standing out
all round from their surround at a coarse scale, and groups of 1..6 pip-like spots no wider than a die."""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from . import layout as L
from .dice_blur import gaussian_u8
from .dice_params import DiceParams
from .dice_pips import apart, close_pairs, group_centres
from .rectify import View



def chan_max(a: np.ndarray) -> np.ndarray:
    """The largest of a 3-channel image's channels, per pixel."""
    b, g, r = cv2.split(a)
    return cv2.max(cv2.max(b, g), r)


def _ring(img: np.ndarray, r: int, c: int, inner: int) -> np.ndarray:
    """Per pixel, how much its neighbourhood (``c`` px box) stands out, in the channel that differs most,
    from the points ``r`` px away in 8 directions (the second least of the 8: a die stands out all round,
    a point has its own colour up and down it), less how much it differs ``inner`` px away
    (a die is uniform at its centre; a tip, a line or a letter is not).  Worked on the three channels
    apart (split and padded once, edges replicated), which spares a split per direction, and each
    direction with its opposite from one difference (half the differences)."""
    f = cv2.blur(img, (c, c))
    H, W = f.shape[:2]
    planes = cv2.split(f)
    R = 2 * max(r, inner)   # the widest shift, both ways (differ_both)
    pads = [cv2.copyMakeBorder(q, R, R, R, R, cv2.BORDER_REPLICATE) for q in planes]

    def differ_both(dx: int, dy: int) -> tuple[np.ndarray, np.ndarray]:
        """The most any channel differs from the point (dx, dy) px away, and from the point as far the
        other way: both read off one difference of the padded planes taken over the view widened by
        the shift (the pixel p's other way is the pixel p - (dx, dy)'s this way: |a - b| = |b - a|)."""
        ax, ay = abs(dx), abs(dy)
        out: "np.ndarray | None" = None
        for pad in pads:
            a = cv2.absdiff(pad[R - ay + dy: R + ay + dy + H, R - ax + dx: R + ax + dx + W],
                            pad[R - ay: R + ay + H, R - ax: R + ax + W])
            out = a if out is None else cv2.max(out, a, dst=out)
        assert out is not None
        return (out[ay: ay + H, ax: ax + W],
                out[ay - dy: ay - dy + H, ax - dx: ax - dx + W])

    far: list[np.ndarray] = []
    for dx, dy in _directions(r, 8)[::2]:   # each shift's opposite is the next one (_directions)
        far += differ_both(dx, dy)
    m1 = far[0]
    m2 = np.full_like(m1, 255)
    for d in far[1:]:
        m2 = cv2.min(m2, cv2.max(m1, d))
        m1 = cv2.min(m1, d)
    near = None
    for dx, dy in _directions(inner, 4)[::2]:
        for d in differ_both(dx, dy):
            near = d if near is None else cv2.max(near, d)
    assert near is not None
    return cv2.subtract(cv2.addWeighted(m1, 0.5, m2, 0.5, 0.0), near // 2)


def _directions(r: int, n: int) -> tuple[tuple[int, int], ...]:
    """The first ``n`` of 8 shifts ``r`` px long (x, y): the four axes, then the diagonals, each
    shift followed by its opposite."""
    d = int(round(r * 0.7071))
    return ((r, 0), (-r, 0), (0, r), (0, -r), (d, d), (-d, -d), (-d, d), (d, -d))[:n]


def stand_out(view: View, p: DiceParams) -> tuple[np.ndarray, np.ndarray]:
    """The view at the coarse search's scale (``p.detect_px``) and, per pixel, how much its
    neighbourhood stands out all round from its surround (:func:`_ring`)."""
    img = coarse_image(view, p)
    return img, _stand_out_map(img, p)


def coarse_image(view: View, p: DiceParams) -> np.ndarray:
    """The view at the coarse search's scale (``p.detect_px``)."""
    s = p.detect_px / view.px
    return view.image if abs(s - 1) < 1e-6 else cv2.resize(view.image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)


def _stand_out_map(img: np.ndarray, p: DiceParams) -> np.ndarray:
    """:func:`stand_out`'s measure on the view at the coarse scale, ``img``."""
    dp = float(p.detect_px)
    return _ring(img, int(round(p.ring * dp)), max(3, int(round(0.15 * dp)) | 1), max(1, int(round(0.06 * dp))))


def near_pips(img: np.ndarray, p: DiceParams) -> np.ndarray:
    """Per pixel of the view at the coarse scale (``img``), the most pip-like spot (small, of another
    shade: a difference of Gaussians) within a die's half side: what raises a peak's rank."""
    dp = float(p.detect_px)
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    # (cv2.GaussianBlur's pixels, several times faster on a crop: vision.dice_blur)
    dog = cv2.absdiff(gaussian_u8(g, 0.03 * dp), gaussian_u8(g, 0.09 * dp))
    kp = int(round(0.3 * dp)) | 1
    return cv2.dilate(dog, np.ones((kp, kp), np.uint8))


def coarse_reach(p: DiceParams) -> int:
    """How far (px at the coarse scale) :func:`_stand_out_map` and :func:`near_pips` read from a pixel,
    at most: the box filter's half width and the longest shift (the ring's; the inner one is shorter, the
    diagonals shorter on each axis), the wider Gaussian's half width (3 sigmas, OpenCV's 8-bit kernel)
    and the dilation's."""
    dp = float(p.detect_px)
    ring = max(int(round(p.ring * dp)), max(1, int(round(0.06 * dp)))) + max(3, int(round(0.15 * dp)) | 1) // 2
    pips = (int(round(0.09 * dp * 6 + 1)) | 1) // 2 + (int(round(0.3 * dp)) | 1) // 2
    return max(ring, pips)


CoarseMaps = tuple[np.ndarray, np.ndarray, np.ndarray]   # the coarse view, stand_out's measure, near_pips
_CROP_PX = 15_000    # what a crop's own calls cost, as pixels of the maps' work (about 0.15 ms)


def coarse_maps(view: View, p: DiceParams) -> CoarseMaps:
    """The coarse search's maps of the whole view: the view at the coarse scale, :func:`stand_out`'s
    measure and :func:`near_pips`."""
    img = coarse_image(view, p)
    return img, _stand_out_map(img, p), near_pips(img, p)


def coarse_maps_again(maps: CoarseMaps, view: View, p: DiceParams,
                      boxes: "list[tuple[int, int, int, int]]",
                      rewritten: "list[tuple[int, int, int, int]] | None" = None) -> CoarseMaps:
    """:func:`coarse_maps` of ``view`` given those of the view before (``maps``, overwritten) that differs
    from it only in ``boxes`` (x0, y0, x1, y1, view px, ends excluded): the coarse view made whole again
    (one resize), the measures worked out again only within their reach of the boxes (each on a crop
    their reach wider again, so the pixels kept are those the whole view's would be; crops merged, or the
    whole view's maps made, where that costs less).  ``rewritten``: given the rectangles of the measures
    worked out again (u0, v0, u1, v1, coarse px, ends excluded; the whole map's when made whole)."""
    img, m, near = maps
    img = _coarse_again(img, view, p, boxes)
    if img.shape != m.shape[:2] + img.shape[2:]:
        whole = coarse_maps(view, p)
        if rewritten is not None:
            rewritten.append((0, 0, whole[1].shape[1], whole[1].shape[0]))
        return whole
    H, W = img.shape[:2]
    sy, sx = view.image.shape[0] / H, view.image.shape[1] / W   # view px per coarse px (an area resize)
    reach = coarse_reach(p)
    parts: list[list[int]] = []   # per box: the pixels whose measures may change (u0, v0, u1, v1)
    for x0, y0, x1, y1 in boxes:
        # the coarse pixels reading the box's (one more each side: the area resize's fractional weights),
        # those whose measures read them, and the crop those read
        a0, b0 = int(np.floor(x0 / sx)) - 1, int(np.floor(y0 / sy)) - 1
        a1, b1 = int(np.ceil(x1 / sx)) + 1, int(np.ceil(y1 / sy)) + 1
        u0, v0, u1, v1 = max(a0 - reach, 0), max(b0 - reach, 0), min(a1 + reach, W), min(b1 + reach, H)
        if u0 < u1 and v0 < v1:
            parts.append([u0, v0, u1, v1])
    grown = merged_crops([(max(u0 - reach, 0), max(v0 - reach, 0), min(u1 + reach, W), min(v1 + reach, H))
                          for u0, v0, u1, v1 in parts], _CROP_PX)
    parts = [[c0 + reach if c0 > 0 else 0, r0 + reach if r0 > 0 else 0, c1 - reach if c1 < W else W,
              r1 - reach if r1 < H else H] for c0, r0, c1, r1 in grown]
    crops = [(max(u0 - reach, 0), max(v0 - reach, 0), min(u1 + reach, W), min(v1 + reach, H))
             for u0, v0, u1, v1 in parts]
    if sum((c1 - c0) * (r1 - r0) + _CROP_PX for c0, r0, c1, r1 in crops) > H * W:
        if rewritten is not None:
            rewritten.append((0, 0, W, H))
        return img, _stand_out_map(img, p), near_pips(img, p)   # the whole view costs less
    if rewritten is not None:
        rewritten += [(u0, v0, u1, v1) for u0, v0, u1, v1 in parts]
    for (u0, v0, u1, v1), (c0, r0, c1, r1) in zip(parts, crops):
        crop = img[r0:r1, c0:c1]
        m[v0:v1, u0:u1] = _stand_out_map(crop, p)[v0 - r0:v1 - r0, u0 - c0:u1 - c0]
        near[v0:v1, u0:u1] = near_pips(crop, p)[v0 - r0:v1 - r0, u0 - c0:u1 - c0]
    return img, m, near


def _coarse_again(img: np.ndarray, view: View, p: DiceParams, boxes: "list[tuple[int, int, int, int]]") -> np.ndarray:
    """:func:`coarse_image` of ``view`` given that of the view before (``img``, overwritten) that differs
    from it only in ``boxes`` (x0, y0, x1, y1, view px, ends excluded).  At half the view's scale (its
    64 px per pw to the coarse search's 32) the area resize is OpenCV's whole-number one: each coarse
    pixel the rounded mean of its own 2 x 2 view pixels, so the coarse pixels over the boxes are made
    again from their blocks alone (the same pixels as the whole view's resize, a fraction of its work);
    at any other scale, or a view of another size, the whole view is resized."""
    H, W = img.shape[:2]
    h, w = view.image.shape[:2]
    # (a coarse pixel past the whole blocks, of a view an odd number of px across, is resized otherwise)
    if p.detect_px * 2 != view.px or img.shape != (h // 2, w // 2) + view.image.shape[2:] or img.dtype != np.uint8:
        return coarse_image(view, p)
    for x0, y0, x1, y1 in boxes:
        a0, b0, a1, b1 = x0 // 2, y0 // 2, min((x1 + 1) // 2, W), min((y1 + 1) // 2, H)
        if a0 < a1 and b0 < b1:
            part = view.image[2 * b0: 2 * b1, 2 * a0: 2 * a1]
            img[b0:b1, a0:a1] = cv2.resize(part, (a1 - a0, b1 - b0), interpolation=cv2.INTER_AREA)
    return img


def merged_crops(crops: "list[tuple[int, int, int, int]]", call_px: int) -> "list[tuple[int, int, int, int]]":
    """``crops`` (x0, y0, x1, y1, px, ends excluded), two of them taken as one (the box of both) while that
    costs less: a crop's own calls counted as ``call_px`` pixels of work."""
    out = [tuple(c) for c in crops]

    def area(q: "tuple[int, ...]") -> int:
        return (q[2] - q[0]) * (q[3] - q[1])

    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                both = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                if area(both) <= area(a) + area(b) + call_px:
                    out[i] = both
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out  # type: ignore[return-value]


def ring_candidates(view: View, p: DiceParams,
                    coarse: "tuple[np.ndarray, np.ndarray] | None" = None,
                    pips: "np.ndarray | None" = None, peaks: "np.ndarray | None" = None,
                    shape: L.BoardShape = L.BoardShape()) -> list[tuple[float, float]]:
    """Centres (pw, the view's coordinates: the board's own, a board of ``shape``) of die-sized blobs
    standing out all round from their surround (``coarse``: :func:`stand_out` of the view, ``pips``:
    :func:`near_pips` of its coarse view, ``peaks``: the measure's peaks (:func:`ring_peaks`), when
    already computed)."""
    img, m = coarse if coarse is not None else stand_out(view, p)
    dp = float(p.detect_px)
    xs, ys = _points(ring_peaks(m, p) if peaks is None else peaks)
    bx, by = xs / dp + view.x0, ys / dp + view.y0
    score = m[ys, xs].astype(np.float64)
    # pips: small spots of another shade within a die's half side of the peak
    score += p.pip_weight * (near_pips(img, p) if pips is None else pips)[ys, xs]
    # a point's tip stands out all round but one side: looked at later
    along = np.where(bx > L.BAR_LEFT + shape.bar, bx - shape.bar, bx) - 0.5   # the bar left out: columns 0..11
    col = np.clip(np.round(along), 0, 11)
    tip = (np.abs(along - col) < 0.25) & \
        (((by > L.POINT_LEN - 0.8) & (by < L.POINT_LEN + 0.1))
         | ((by > shape.height - L.POINT_LEN - 0.1) & (by < shape.height - L.POINT_LEN + 0.8)))
    score[tip] *= 0.6
    order = np.argsort(-score)[: p.max_candidates]
    return [(float(bx[i]), float(by[i])) for i in order]


def _ring_box(p: DiceParams) -> int:
    """The side (coarse px) of the box a ring candidate is the most of (:func:`ring_peaks`)."""
    return int(round(0.45 * float(p.detect_px))) | 1


def ring_peaks(m: np.ndarray, p: DiceParams) -> np.ndarray:
    """Where the stand-out measure ``m`` (:func:`stand_out`'s) peaks: at least ``p.contrast`` and the
    most within a box of :func:`_ring_box` px (8 bits, nonzero there): :func:`ring_candidates`' peaks."""
    return _peak_mask(m, p.contrast, _ring_box(p))


def ring_peaks_again(peaks: np.ndarray, m: np.ndarray, p: DiceParams,
                     parts: "list[tuple[int, int, int, int]]") -> np.ndarray:
    """:func:`ring_peaks` of ``m`` given those of the measure before (``peaks``, overwritten) where ``m``
    differs from it only in ``parts`` (u0, v0, u1, v1, px, ends excluded): worked out again within the
    box's half width of them, each on a crop that half width wider again (the box's maximum at every
    pixel kept is the whole map's; at the map's edges the crop's edges are the map's)."""
    if peaks.shape != m.shape:
        return ring_peaks(m, p)
    H, W = m.shape[:2]
    h = _ring_box(p) // 2
    for u0, v0, u1, v1 in parts:
        a0, b0, a1, b1 = max(u0 - h, 0), max(v0 - h, 0), min(u1 + h, W), min(v1 + h, H)
        c0, r0, c1, r1 = max(a0 - h, 0), max(b0 - h, 0), min(a1 + h, W), min(b1 + h, H)
        if a0 < a1 and b0 < b1:
            got = _peak_mask(m[r0:r1, c0:c1], p.contrast, _ring_box(p))
            peaks[b0:b1, a0:a1] = got[b0 - r0:b1 - r0, a0 - c0:a1 - c0]
    return peaks


def _pip_spots(view: View, p: DiceParams) -> tuple[np.ndarray, np.ndarray]:
    """Pip-like spots on the view (layout pw, shape (n, 2) each): small round spots much darker, and
    much lighter, than what lies around them, a pip's size."""
    return spots_at(view, p, spot_pixels(view, p))


def spots_at(view: View, p: DiceParams, pixels: "tuple[tuple[np.ndarray, np.ndarray], ...]"
             ) -> tuple[np.ndarray, np.ndarray]:
    """The dark and the light spots of :func:`spot_pixels` (x, y pixels at the spot scale) in layout pw."""
    P = float(view.px) * min(1.0, p.spot_px / view.px)
    dark, light = (np.stack([xs / P + view.x0, ys / P + view.y0], axis=1) for xs, ys in pixels)
    return dark, light


def spot_pixels(view: View, p: DiceParams, inside: "tuple[int, int, int, int] | None" = None,
                grey: "np.ndarray | None" = None) -> "tuple[tuple[np.ndarray, np.ndarray], ...]":
    """The pixels (x, y, row by row; at ``p.spot_px`` per pw when the view is finer) of the pip-like
    spots, dark ones then light ones.  Each is found from the pixels within ``SPOT_REACH`` pw of it.
    ``inside``: only those in this rectangle (x0, y0, x1, y1, px at the spot scale, ends excluded), the
    peaks looked for there alone (a crop's spots are wanted only well inside it: the blurs need the
    crop, the peaks only their box's reach about the rectangle).  ``grey``: the view in grey levels, when
    already made (a view at the spot scale)."""
    scale = min(1.0, p.spot_px / view.px)  # found at a coarser scale: a pip is still some px wide
    img = view.image if scale == 1.0 else cv2.resize(view.image, None, fx=scale, fy=scale,
                                                      interpolation=cv2.INTER_LINEAR)
    P = float(view.px) * scale
    g = grey if grey is not None and scale == 1.0 else cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    s1 = p.pip_sigma * P
    k = max(3, int(round(0.07 * P)) | 1)
    x0 = y0 = 0
    if inside is None:
        dog = _blurred(g, s1, _TAIL)   # the difference written into the first blur: one float array less at the peak
        wide = _blurred_wide(g, 2.5 * s1)
        dog = cv2.subtract(dog, wide, dst=dog)
    else:
        # the peaks' box about each pixel of the rectangle reads no further than its half width: the
        # difference worked out only there (the box's extremes there are the whole crop's: a maximum is
        # exact), the narrow blur on the crop's pixels within its kernel's reach of that (those the whole
        # crop's blur reads there), the wide one on the whole crop (its reach is the crop's margin)
        H, W = g.shape[:2]
        h, r = k // 2, len(_gaussian_kernel(s1, _TAIL)) // 2
        x0, y0 = max(inside[0] - h, 0), max(inside[1] - h, 0)
        x1, y1 = min(inside[2] + h, W), min(inside[3] + h, H)
        a0, b0, a1, b1 = max(x0 - r, 0), max(y0 - r, 0), min(x1 + r, W), min(y1 + r, H)
        dog = _blurred(g[b0:b1, a0:a1], s1, _TAIL)[y0 - b0:y1 - b0, x0 - a0:x1 - a0]
        wide = _blurred_wide(g, 2.5 * s1, (x0, y0, x1, y1))
        dog = cv2.subtract(dog, wide)
        wide = np.empty_like(dog)   # (the peaks' box extremes)
    del g, img
    out = []
    for dark in (True, False):  # dark spots: the light ones' test on -dog, worked out on dog
        # (the wide blur's array, no longer needed, takes the peaks' box extremes: no fresh full-size
        # floats, whose pages the allocator may have handed back and must fault in again)
        xs, ys = _peaks(dog, p.pip_contrast, k, low=dark, work=wide)
        if inside is not None:
            xs, ys = xs + x0, ys + y0
            own = (xs >= inside[0]) & (xs < inside[2]) & (ys >= inside[1]) & (ys < inside[3])
            xs, ys = xs[own], ys[own]
        out.append((xs, ys))
    return out[0], out[1]


_TAIL = 3   # sigmas each side of the spots' blurs' kernels

#: how far (pw) a spot's finding reads: the wide blur's reach and the peaks' box (0.04 pw).  The wide blur
#: (:func:`_blurred_wide`, 2.5 pip_sigma: 4 px at 64 px a pw) reads 16 px each way: the step up 1 half-scale
#: px, the half-scale kernel's 3 sigmas 6, the step down 2 px; this bound, 4 of its sigmas, holds that
SPOT_REACH = 4 * 2.5 * DiceParams().pip_sigma + 0.04


def _blurred(grey: np.ndarray, sigma: float, sigmas: int = 4) -> np.ndarray:
    """``grey`` (8 bits) blurred by a Gaussian of ``sigma`` px into floats: the kernel
    :func:`cv2.GaussianBlur` takes for a float image (4 sigmas each side), run straight on the 8-bit
    levels (two to three times faster than on the levels made floats first; the sums taken in
    another order, so values may differ in the last bits, about 1e-5 of a grey level)."""
    k = _gaussian_kernel(sigma, sigmas)
    return cv2.sepFilter2D(grey, cv2.CV_32F, k, k)


def _blurred_wide(grey: np.ndarray, sigma: float, part: "tuple[int, int, int, int] | None" = None) -> np.ndarray:
    """``grey`` (8 bits) blurred by a Gaussian of about ``sigma`` px into floats, worked out at half scale:
    a pyramid step down (:func:`cv2.pyrDown`, its 5-tap kernel a variance of 1 px), a Gaussian on a
    quarter of the pixels and a step up (:func:`cv2.pyrUp`, 1 px again), the half-scale Gaussian's
    sigma making up the rest.  Within 0.2 grey levels of :func:`_blurred` (the spots' wide blur, 4 px:
    the pip-like spots' threshold is 30 levels), a third of its CPU.  The half-scale grid starts at the
    picture's first pixel: a crop starting at an even pixel of a view blurs as the whole view does.  ``part``:
    only this rectangle of it (x0, y0, x1, y1, ends excluded), the same values, worked out only about it."""
    if min(grey.shape[:2]) < 8 or sigma * sigma <= 4.0:
        out = _blurred(grey, sigma)
        return out if part is None else out[part[1]:part[3], part[0]:part[2]]
    half = cv2.pyrDown(grey)
    k = _gaussian_kernel(math.sqrt(sigma * sigma - 2.0) / 2, _TAIL)
    H, W = grey.shape[:2]
    if part is None:
        return cv2.pyrUp(cv2.sepFilter2D(half, cv2.CV_32F, k, k), dstsize=(W, H))
    # the half-scale px the step up reads for the part (2 more each side: its border rows are the whole
    # picture's), and those the Gaussian reads for them (its kernel's half width more)
    x0, y0, x1, y1 = part
    h, w = half.shape[:2]
    p0, q0, p1, q1 = max(x0 // 2 - 2, 0), max(y0 // 2 - 2, 0), min((x1 + 1) // 2 + 2, w), min((y1 + 1) // 2 + 2, h)
    r = len(k) // 2
    a0, b0, a1, b1 = max(p0 - r, 0), max(q0 - r, 0), min(p1 + r, w), min(q1 + r, h)
    blurred = cv2.sepFilter2D(half[b0:b1, a0:a1], cv2.CV_32F, k, k)[q0 - b0:q1 - b0, p0 - a0:p1 - a0]
    # (at the picture's end, its own size: the step up's last rows are the whole picture's)
    size = (W - 2 * p0 if p1 == w else 2 * (p1 - p0), H - 2 * q0 if q1 == h else 2 * (q1 - q0))
    up = cv2.pyrUp(blurred, dstsize=size)
    return up[y0 - 2 * q0:y1 - 2 * q0, x0 - 2 * p0:x1 - 2 * p0]


@lru_cache(maxsize=8)
def _gaussian_kernel(sigma: float, sigmas: int = 4) -> np.ndarray:
    """:func:`cv2.GaussianBlur`'s kernel for a float image and ``sigma`` (``sigmas`` each side: its 4)."""
    k = cv2.getGaussianKernel(int(round(sigma * sigmas * 2 + 1)) | 1, sigma, cv2.CV_32F)
    k.setflags(write=False)
    return k


def _peaks(f: np.ndarray, least: float, k: int, low: bool = False,
           work: "np.ndarray | None" = None) -> tuple[np.ndarray, np.ndarray]:
    """The pixels (x, y, row by row) of ``f`` at least ``least`` and the most within a ``k`` px box
    (``low``: of ``-f``, that is ``f`` at most ``-least`` and the least in the box); ``work``: an
    array of ``f``'s shape and type to overwrite with the box extremes (else a fresh one)."""
    return _points(_peak_mask(f, least, k, low, work))


def _peak_mask(f: np.ndarray, least: float, k: int, low: bool = False,
               work: "np.ndarray | None" = None) -> np.ndarray:
    """:func:`_peaks`' pixels as an 8-bit mask (255 there).  The box's extremes are worked out only about
    the rows with a pixel past ``least`` (a third of a crop's rows, in bands: each row's extremes read
    the rows within the box's half height, so a band that reach wider gives the whole image's there)."""
    if f.dtype.kind in "ui":  # at least 42.5 grey levels on whole ones: 43
        least = float(np.ceil(least))
    box = np.ones((k, k), np.uint8)
    if low:
        m = cv2.compare(f, -float(least), cv2.CMP_LE)  # type: ignore[call-overload]
    else:
        m = cv2.compare(f, float(least), cv2.CMP_GE)  # type: ignore[call-overload]
    H, h = f.shape[0], k // 2
    for r0, r1 in _bands(np.flatnonzero(cv2.reduce(m, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S)), h):
        a, b = max(r0 - h, 0), min(r1 + h, H)
        ext = (cv2.erode if low else cv2.dilate)(f[a:b], box, dst=None if work is None else work[a:b])
        cv2.bitwise_and(m[r0:r1], cv2.compare(f[r0:r1], ext[r0 - a:r1 - a], cv2.CMP_LE if low else cv2.CMP_GE),
                        dst=m[r0:r1])
    return m


_BAND_GAP = 8   # rows: two bands of rows this near (besides their reach) are one (a call costs as much)


def _bands(rows: np.ndarray, reach: int) -> list[tuple[int, int]]:
    """The runs (r0, r1, ends excluded) of the sorted row numbers ``rows``, runs fewer than twice
    ``reach`` and :data:`_BAND_GAP` rows apart taken as one."""
    out: list[tuple[int, int]] = []
    gap = 2 * reach + _BAND_GAP
    if len(rows) > 40:   # (many rows: where a run ends read off at once, the same runs)
        ends = np.flatnonzero(np.diff(rows) > gap) + 1
        return list(zip(rows[np.r_[0, ends]].tolist(), (rows[np.r_[ends - 1, len(rows) - 1]] + 1).tolist()))
    for r in rows.tolist():   # (a few dozen rows: plain Python beats numpy's calls)
        if out and r - out[-1][1] < gap:
            out[-1] = (out[-1][0], r + 1)
        else:
            out.append((r, r + 1))
    return out


def _points(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The nonzero pixels (x, y, row by row) of an 8-bit mask: cv2.findNonZero's, looked for only in
    the rows that have any (a row's sum, vectorised, is ten times quicker than its pixel-by-pixel scan)."""
    rows = np.flatnonzero(cv2.reduce(mask, 1, cv2.REDUCE_SUM, dtype=cv2.CV_32S))
    if not len(rows):
        return np.zeros(0, np.intp), np.zeros(0, np.intp)
    pts = cv2.findNonZero(mask[rows]).reshape(-1, 2).astype(np.intp)
    return pts[:, 0], rows[pts[:, 1]].astype(np.intp)


def pip_candidates(view: View, p: DiceParams,
                   spots: "tuple[np.ndarray, np.ndarray] | None" = None) -> list[tuple[float, float]]:
    """Centres (layout pw) of groups of 1..6 pip-like spots no wider than a die: a face's pips lie
    symmetrically about its centre, so their mean is the face's centre.  ``spots``: the view's
    (:func:`spots_at`), when already found."""
    out: list[np.ndarray] = []
    for spots_ in (_pip_spots(view, p) if spots is None else spots):  # dark pips, then light ones: never mixed
        if len(spots_) > p.max_spots or len(spots_) == 0 or not p.pip_links:
            continue
        # the pairs within the longest link measured once: each link's are those of them below it
        i, j, d = close_pairs(spots_, max(p.pip_links), strict=True, dist=True)
        for k, link in enumerate(p.pip_links):
            near = d < link
            # a lone spot at a longer link is one at every shorter one too, already listed: as a later
            # point at no distance from an earlier one, apart() drops it and it drops nothing (left out)
            out.append(group_centres(spots_, link, p.side[1] * 0.8, (i[near], j[near]),
                                     ones=k == 0 or link < min(p.pip_links[:k])))
    return apart(np.concatenate(out) if out else [], 0.06)   # (the groups' centres as arrays: no tuples made twice)


def standing_out(points: list[tuple[float, float]], view: View, m: np.ndarray,
                 p: DiceParams) -> list[tuple[float, float]]:
    """``points`` (layout pw) near which something stands out from its surround (``m``: the
    :func:`stand_out` measure) at least ``p.pip_stand_out``, most standing out first: a pip group on a
    plain surface, a texture's specks, need no closer look."""
    if not points:
        return points
    dp = float(p.detect_px)
    k = max(3, int(round(0.15 * dp)) | 1)
    a = np.asarray(points, np.float64)
    H, W = m.shape[:2]
    xs = np.clip(np.round((a[:, 0] - view.x0) * dp).astype(int), 0, W - 1)
    ys = np.clip(np.round((a[:, 1] - view.y0) * dp).astype(int), 0, H - 1)
    # the most within a pip row's reach (a k px box, cut at the map's edge): the whole map's dilation
    # read at the points, worked out at the points alone (a few hundred boxes, not the map)
    off = np.arange(-(k // 2), k // 2 + 1)
    rows, cols = np.clip(ys[:, None] + off, 0, H - 1), np.clip(xs[:, None] + off, 0, W - 1)
    score = m[rows[:, :, None], cols[:, None, :]].reshape(len(a), -1).max(axis=1)
    order = np.argsort(-score, kind="stable")
    # (the test on the whole array, not point by point on numpy's scalars: the same points, in the same order)
    return [points[i] for i in order[score[order] >= p.pip_stand_out].tolist()]
