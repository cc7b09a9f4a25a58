"""Reading a rectified board: checkers found as circles, counted per point, coloured.

A chain of pure stages on a :class:`vision.rectify.View`:

1. :func:`ring_profiles` - for every point (and the bar) a score along its axis for "a
   checker's rim is centred here": the mean radial gradient on a ring of a checker's
   radius.  Rims are found whatever the board and checker colours; a checker half hidden
   under a second-layer one still shows its sides.
2. :func:`pick_checkers` - peaks of those profiles above a threshold that adapts to the
   frame's contrast: one peak per visible checker.  Look-alikes judged against the board
   itself: a lone faint rim at a point's base against the empty points' bases of its
   colour (:func:`_drop_empty_bases`), a faint bar rim between two checkers (the gap
   between them, :func:`_gap_between`: the bar is then unsure), a tall stack's rim
   pattern against its own strongest rims when it stands out little (:func:`tall_stack`).
   Second looks: a light checker washed out by glare shows only its outline, counted
   when the outline is closed all round a bright face (:func:`_outlined_checkers`); a
   lone bar rim far above the bar's own even profile is a checker (:func:`_lone_bar_rims`).
3. :func:`colour_samples` / :class:`ColourModel` - each checker's centre colour (Lab),
   split in two clusters; the darker is ``dark``.  Shadows and glare move lightness, not
   hue: a checker whose hue points to the other colour is unsure.
4. :func:`assemble` - counts and colours per point, the bar, a confidence.  A row of 5
   keeps the 12-pyramid as its next likeliest count; :func:`settle_with_off` takes it when
   trays read surely leave that colour exactly 7 short of 15 (the reader calls it).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import Optional

import cv2
import numpy as np

from referee.events import PointReading

from . import layout as L
from .rectify import View

N_RING = 32
HUE_SEP = 12.0   # Lab a/b distance from which the two checker colours differ in hue too
HUE_CLEAR = 0.25  # ... and a sample's hue this far past the middle (0 dark, 1 light) points to one
L_WEIGHT = 0.5  # weight of lightness against the two colour axes when telling checker colours apart


@dataclass(frozen=True)
class ReadParams:
    """The reader's thresholds (all in one place)."""

    ring_radii: tuple[float, ...] = (0.42, 0.45, 0.48)  # pw, around the checker radius
    lateral: tuple[float, ...] = (-0.1, 0.0, 0.1)     # pw, sideways search for pushed checkers
    axis_start: float = 0.25
    axis_end: float = 5.0
    step: float = 1.0 / 16                 # pw between candidate centres along the axis
    nms: float = 0.3                       # pw: peaks closer than this are one
    threshold: float = 0.15                # rim score, in units of the frame's rim strength
    colour_min_gap: float = 40.0           # weighted Lab distance below which two clusters are one
    second_layer: float = 1.25             # a second-layer checker's whole rim: this many thresholds
    stack_colour: float = 1e9              # relative colour change allowed along one stack
    slot_tolerance: float = 0.6            # checker diameters between a slot and a rim that explains it
    floor: float = 0.15                    # no rim counts below this score
    weak: float = 0.75                     # the lower threshold for faint but even stacks, as a share
    even: float = 0.5                      # how even a faint stack's rims must be (weakest / strongest)
    relative_q: float = 0.5                # ...of this quantile of the points' best rim scores
    relative: float = 0.4                  # threshold as a share of the board's typical rim score
    cap_ratio: float = 0.35                # a stack's last rim is at least this share of its strongest
    min_cluster: float = 0.1               # smallest share of checker samples one colour may have
    tall_stacks: bool = True               # read 10..15 as pyramids (needs the layout's point length)
    faint_last: float = 0.6                # a last rim fainter than this share of the stack's ...
    stranger_colour: float = 0.25          # ... and this far (relative) from its colour is no checker
    checker: float = L.CHECKER             # checker diameter, pw (the set's own: VisionConfig.checker)


@dataclass(frozen=True)
class Axis:
    """One line of candidate checker centres: a point's axis or the bar's."""

    name: str           # "top3", "bottom11", "bar"
    x: float            # pw
    y0: float           # pw, first candidate
    direction: int      # +1 down, -1 up


def axes(params: ReadParams) -> list[Axis]:
    """The 24 points' axes, top0, bottom0, top1... (the same whatever ``params``: a view is in
    the layout's coordinates)."""
    return list(_axes())


@functools.lru_cache(maxsize=1)
def _axes() -> tuple[Axis, ...]:
    out = []
    for i in range(12):
        x = L.column_x(i)
        out.append(Axis(f"top{i}", x, 0.0, +1))
        out.append(Axis(f"bottom{i}", x, L.HEIGHT, -1))
    return tuple(out)


def _percentile(a: np.ndarray, q: float) -> float:
    """``float(np.percentile(a, q))`` (linear interpolation), the same value from one partition
    at the two order statistics it interpolates (numpy's also sorts out both ends)."""
    flat = a.ravel()
    n = flat.size
    vi = (n - 1) * np.true_divide(q, 100)
    prev = int(np.floor(vi))
    t = float(vi - prev)
    if prev + 1 >= n:
        return float(np.partition(flat, n - 1)[n - 1])
    part = np.partition(flat, (prev, prev + 1))
    lo, hi = part[prev], part[prev + 1]
    diff = hi - lo
    return float(hi - diff * (1 - t)) if t >= 0.5 else float(lo + diff * t)


def _median(xs: list[float]) -> float:
    """The median of a short list of floats, as ``np.median`` gives it (the mean of the middle
    two when the count is even), without numpy's overhead on a handful of values."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


@dataclass
class Profiles:
    """Rim scores along each axis, in units of the frame's rim strength.

    ``full[a, j]``: a whole rim (all four quadrants) centred on axis ``a`` at distance
    ``dist[j]`` (pw) from its base; ``cap[a, j]``: the far and side quadrants only (the
    last checker of a row, whose base side may lie under a second-layer checker).
    ``lateral[a, j]``: the sideways offset (pw) where ``full`` was best.
    """

    full: np.ndarray
    cap: np.ndarray
    lateral: np.ndarray
    dist: np.ndarray
    bar_full: np.ndarray
    bar_y: np.ndarray
    strength: float
    colour: Optional[np.ndarray] = None   # BGR (blurred) at each axis's candidate centres
    fill: Optional[np.ndarray] = None     # per axis: how checker-like the gaps beside halves 4 and 6 are
    grad: Optional[np.ndarray] = None     # the complex gradient map (:func:`_gradients`), for second looks
    px: int = 0                           # the view's pixels per point width ...
    margin: float = 0.0                   # ... and margin (pw), to place second looks
    image: Optional[np.ndarray] = None    # the rectified BGR image, for second looks


# grey level to CIE lightness (0..255): more contrast in the dark, as the eye (and Lab) has it
_LIGHTNESS = np.clip(np.array([(116 * ((v / 255) ** (1 / 3) if v / 255 > 0.008856 else 7.787 * v / 255 + 16 / 116) - 16) * 2.55
                               for v in range(256)]), 0, 255).astype(np.uint8)


def _gradients(view: View) -> np.ndarray:
    """Image gradients of lightness, or of red-minus-green where that is stronger (red on black),
    as one complex map ``gx + i gy`` (one gather per ring sample later)."""
    img = view.image
    grey = cv2.LUT(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), _LIGHTNESS)
    rg = cv2.subtract(img[..., 2], img[..., 1], dtype=cv2.CV_16S)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    ax = cv2.Sobel(rg, cv2.CV_32F, 1, 0, ksize=3, scale=0.5)
    ay = cv2.Sobel(rg, cv2.CV_32F, 0, 1, ksize=3, scale=0.5)
    use = (np.abs(ax) + np.abs(ay)) > (np.abs(gx) + np.abs(gy))
    mask = use.view(np.uint8)
    gx = cv2.copyTo(ax, mask, gx)  # in place, much faster than np.where / np.copyto(where=)
    gy = cv2.copyTo(ay, mask, gy)
    return cv2.merge([gx, gy]).view(np.complex64)[..., 0]


_RING_INDEX: dict = {}
_RING_TH = np.roll(np.linspace(0, 2 * np.pi, N_RING, endpoint=False).astype(np.float32), N_RING // 8)
_RING_C, _RING_S = np.cos(_RING_TH), np.sin(_RING_TH)
_RING_ROT = np.exp(-1j * _RING_TH).astype(np.complex64)  # g * rot: radial + i tangential


def _ring_index(h: int, w: int, cx: np.ndarray, cy: np.ndarray, radii_px: np.ndarray,
                key: Optional[tuple]) -> list[np.ndarray]:
    """Flat pixel indices of every ring sample, per radius; kept per ``key`` (the same view
    geometry gives the same indices every frame)."""
    full_key = None if key is None else (h, w, key)
    if full_key is not None and full_key in _RING_INDEX:
        return _RING_INDEX[full_key]
    cxe, cye = cx[..., None], cy[..., None]
    out = []
    for r in radii_px:
        idx = np.rint(cye + r * _RING_S).astype(np.int32) * w + np.rint(cxe + r * _RING_C).astype(np.int32)
        np.clip(idx, 0, h * w - 1, out=idx)
        out.append(idx)
    if full_key is not None:
        if len(_RING_INDEX) > 8:
            _RING_INDEX.clear()
        _RING_INDEX[full_key] = out
    return out


def _ring_quadrants(g: np.ndarray, cx: np.ndarray, cy: np.ndarray, radii_px: np.ndarray,
                    key: Optional[tuple] = None) -> list[np.ndarray]:
    """Quadrant rim scores for centres (cx, cy): four arrays shaped like ``cx``, the
    quadrants centred on right (+x), down (+y), left and up.

    ``g`` is the complex gradient map of :func:`_gradients`.  Per ring angle the best over
    the radii of |radial gradient| minus half the tangential one (noise scores about zero,
    a rim high), averaged over each quadrant's angles.  Centres must lie at least the
    largest radius inside the image.
    """
    # angle 0 points right (+x), N_RING/4 down (+y); rolled so that each quadrant is a
    # contiguous run of samples
    h, w = g.shape
    flat = g.ravel()
    best: Optional[np.ndarray] = None
    z: Optional[np.ndarray] = None
    for idx in _ring_index(h, w, cx, cy, radii_px, key):
        z = np.take(flat, idx, out=z)
        z *= _RING_ROT
        v = np.abs(z.real)
        v -= 0.5 * np.abs(z.imag)
        best = v if best is None else np.maximum(best, v, out=best)
    assert best is not None
    # each quadrant's mean summed in angle order (as a BLAS product with 1/8 weights summed
    # it: the same bits, without waking BLAS threads)
    k = N_RING // 4
    b = best.reshape(-1, 4, k)
    acc = b[:, :, 0] * np.float32(4.0 / N_RING)
    for j in range(1, k):
        acc += b[:, :, j] * np.float32(4.0 / N_RING)
    return [acc[:, i].reshape(best.shape[:-1]) for i in range(4)]


def ring_profiles(view: View, params: ReadParams = ReadParams()) -> Profiles:
    """Stage 1: rim scores along every point's axis and along the bar."""
    g = _gradients(view)
    px = view.px
    sub = g[::2, ::2]
    mag = np.abs(sub.real) + np.abs(sub.imag)
    strength = _percentile(mag, 97) * 0.8 + 8.0
    dist = np.arange(params.axis_start, params.axis_end, params.step, dtype=np.float32)
    ax = axes(params)
    lat = np.array(params.lateral, np.float32)
    dirs = np.array([a.direction for a in ax], np.float32)[:, None, None]
    X = np.array([a.x for a in ax], np.float32)[:, None, None] + lat[None, None, :]
    Y = np.array([a.y0 for a in ax], np.float32)[:, None, None] + dirs * dist[None, :, None]
    X = np.broadcast_to(X, (len(ax), len(dist), len(lat)))
    Y = np.broadcast_to(Y, X.shape)
    radii = np.array(params.ring_radii, np.float32) * (params.checker / L.CHECKER) * px
    right, down, left, up = (q / strength for q in _ring_quadrants(g, (X + view.margin) * px, (Y + view.margin) * px,
                                                                   radii, ("axes", px, view.margin, params)))
    # "far" faces away from the axis's base: down on the top row, up on the bottom one; a
    # whole rim scores its weakest quadrant, a cap its weakest but the base's
    far = np.where(np.broadcast_to(dirs, down.shape) > 0, down, up)
    cap_l = np.minimum(np.minimum(far, left), right)
    full_l = np.minimum(np.minimum(down, up), np.minimum(left, right))
    li = full_l.argmax(axis=2)
    bar_y = np.arange(0.3, L.HEIGHT - 0.3, params.step, dtype=np.float32)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    BX = np.broadcast_to(bx + lat[None, :], (len(bar_y), len(lat)))
    BY = np.broadcast_to(bar_y[:, None], BX.shape)
    bq = [q / strength for q in _ring_quadrants(g, (BX + view.margin) * px, (BY + view.margin) * px, radii,
                                                ("bar", px, view.margin, params))]
    bar_full = np.minimum(np.minimum(bq[0], bq[1]), np.minimum(bq[2], bq[3]))
    blur = cv2.blur(view.image, (5, 5))
    cxs = np.rint((np.array([a.x for a in ax], np.float32)[:, None] + view.margin) * px).astype(np.int32)
    cys = np.rint((Y[:, :, 0] + view.margin) * px).astype(np.int32)
    colour = blur[np.clip(cys, 0, blur.shape[0] - 1), np.clip(np.broadcast_to(cxs, cys.shape), 0, blur.shape[1] - 1)]
    return Profiles(full_l.max(axis=2), cap_l.max(axis=2), lat[li], dist, bar_full.max(axis=1), bar_y, strength, colour,
                    _gap_fill(view, ax, blur, params.checker), g, px, view.margin, view.image)


GAP_HALVES = (4, 6)      # where a five-row leaves board showing beside its checkers, a pyramid does not
GAP_LATERAL = 0.33


def _gap_fill(view: View, ax: list[Axis], blur: np.ndarray, cd: float = L.CHECKER) -> np.ndarray:
    """Per axis, in -1..1: whether the gaps beside halves 4 and 6 look like the stack's checkers
    (+1: a layer below shows there) or like the board beyond the point (-1); 0 when the two
    look alike.  Tells a row of 5 from a 12-pyramid, whose whole rims lie at the same places."""
    xs, ys = [], []
    for a in ax:
        for h in GAP_HALVES:
            for side in (-1, 1):
                xs.append(a.x + side * GAP_LATERAL * cd / L.CHECKER)
                ys.append(a.y0 + a.direction * h * cd / 2)
        for h in (3, 5, 7):
            xs.append(a.x)
            ys.append(a.y0 + a.direction * h * cd / 2)
        xs.append(a.x)
        ys.append(a.y0 + a.direction * (L.POINT_LEN + L.GAP * 0.3))
    X = np.clip(np.rint((np.array(xs) + view.margin) * view.px).astype(int), 0, blur.shape[1] - 1)
    Y = np.clip(np.rint((np.array(ys) + view.margin) * view.px).astype(int), 0, blur.shape[0] - 1)
    c = blur[Y, X].astype(np.float32).reshape(len(ax), 2 * len(GAP_HALVES) + 4, 3)
    gap = c[:, :2 * len(GAP_HALVES)]
    checker = np.median(c[:, -4:-1], axis=1)[:, None]
    board = c[:, -1:]
    dc = np.linalg.norm(gap - checker, axis=2)
    db = np.linalg.norm(gap - board, axis=2)
    sep = np.linalg.norm(checker - board, axis=2)
    f = np.median((db - dc) / (sep + 20.0), axis=1)
    return np.clip(f, -1.0, 1.0)


def _peaks(profile: np.ndarray, thr: float, nms_steps: int, lead: bool = False) -> list[int]:
    """Indices of local maxima above ``thr``, none within ``nms_steps`` of a stronger one;
    with ``lead`` the first sample counts as a maximum too when it is the highest there (a
    checker pushed against a point's base has its centre before the profile starts)."""
    p = profile
    mid = p[1:-1]
    cand = np.flatnonzero((mid > thr) & (mid >= p[:-2]) & (mid >= p[2:])) + 1
    if lead and len(p) > 1 and p[0] > p[1] and p[0] > thr:
        cand = np.concatenate([[0], cand])
    if len(cand) < 2:
        return cand.tolist()
    keep: list[int] = []
    for j in cand[np.argsort(-p[cand])].tolist():
        if all(abs(j - k) > nms_steps for k in keep):
            keep.append(j)
    return sorted(keep)


@dataclass(frozen=True)
class Checker:
    """A checker's centre (pw, playing-area coordinates) and the score that found it."""

    axis: str
    x: float
    y: float
    score: float


@dataclass(frozen=True)
class PointCount:
    """Stage 2's result for one point: its count, the checkers to sample for colour, a confidence."""

    count: int
    samples: tuple[Checker, ...]
    confidence: float
    alt: Optional[int] = None   # the next likeliest count, when a tall stack was judged
    faint: bool = False         # found only by the faint-stack pass (no rim above the board's threshold)


@dataclass(frozen=True)
class Found:
    per_axis: dict[str, PointCount]
    bar: list[Checker]
    bar_confidence: float
    gap: Optional[int] = None        # the bar checker that may be the gap between two (:func:`_gap_between`)
    bar_open: float = 1.0            # the bar's confidence were that one surely a checker or surely not


def count_point(a: Axis, full: np.ndarray, cap: np.ndarray, lateral: np.ndarray, dist: np.ndarray,
                params: ReadParams = ReadParams(), colour: Optional[np.ndarray] = None,
                fill: float = 0.0) -> PointCount:
    """:func:`count_point_low` and then, for a full first row, the pyramid pass for 10..15
    (:func:`tall_stack`)."""
    pc = count_point_low(a, full, cap, lateral, dist, params, colour)
    if not params.tall_stacks:
        return pc
    cd = params.checker
    far = np.abs(dist - 4.5 * cd) < 0.3
    if pc.count < 5 and not (far.any() and float(cap[far].max()) > params.threshold):
        return pc  # no checker where a full row ends: not a tall stack
    n, margin, alt = tall_stack(full, dist, params.threshold, fill, cd)
    if n < 10 and pc.count >= 5 and n != pc.count:
        # the rim pattern disagrees with the rim count: measured on rendered 5..9 stacks, a
        # clear pattern was right every time; an unclear one leaves the count, unsure
        if margin >= TALL_OVERRULE:
            return PointCount(n, pc.samples, min(pc.confidence, margin / 4), pc.count)
        return PointCount(pc.count, pc.samples, min(pc.confidence, POINT_KNEE / 2), n)
    if n < 10:
        if pc.count == n == L.PYRAMID[0]:
            return replace(pc, alt=TWIN)  # a row of 5 shows a 12-pyramid's whole rims: the trays may tell
        return pc

    samples = [Checker(a.name, a.x + float(lateral[int(np.argmin(np.abs(dist - h * cd / 2)))]),
                       a.y0 + a.direction * h * cd / 2, 0.0) for h in sorted(L.visible_rims(n))]
    return PointCount(n, tuple(samples), float(min(1.0, margin / 2)), pc.count if alt < 10 else alt)


# whole-rim patterns (halves 1..9) of stacks of 5..15 as the ring filter sees them: a rim
# partly under a checker one layer up often still scores, so these are measured, not derived
TALL_PATTERNS = {
    5: "HLHLHLHLH", 6: "LHLLHLHLH", 7: "LHLHLLHLH", 8: "LHLHLHLLH", 9: "LHLHLHLHL",
    10: "HLHLLHLHL", 11: "HLHLHLLHL", 12: "HLHLHLHLH", 13: "HHLHLLHLH", 14: "HHLHLHLHH", 15: "HHHLHLHHH",
}
TWIN = 12          # the pyramid whose whole rims lie where a row of 5's do
TALL_LEVEL = 0.85   # rim score (in thresholds) between "no whole rim" and "a whole rim"
TALL_SOFT = 0.6    # how far from the level a score is fully believed
TALL_REL = 0.5     # ... or this share of the stack's typical whole rim (its 5 strongest), when lower
TALL_TWELVE = 20.0
TALL_OVERRULE = 2.0  # margin from which the pattern overrules the rim count of a 5..9 stack  # 5 against 12: score per unit of the end-rim cue


def tall_stack(full: np.ndarray, dist: np.ndarray, thr: float, fill: float,
               cd: float = L.CHECKER) -> tuple[int, float, int]:
    """The stack size 5..15 whose rim pattern fits the profile best, the margin over the
    next best (in halves fully believed; 2 = one clear half told them apart) and that next.

    A row of 5 and a 12-pyramid show the same pattern; the end rims' strength against the
    middle ones and ``fill`` (the gaps beside the checkers: board or a lower layer, see
    :func:`_gap_fill`) tell them apart.  ``cd``: the checkers' diameter, pw.
    """
    a = np.empty(9)
    for h in range(1, 10):
        m = np.abs(dist - h * cd / 2) <= 0.13 * cd / L.CHECKER
        a[h - 1] = float(full[m].max()) / thr if m.any() else 0.0
    # a stack that stands out little from its point (red on a red point) scores all its rims
    # low: "a whole rim" is then judged against the stack's own clear rims, not the board's
    level = min(TALL_LEVEL, TALL_REL * float(np.sort(a)[-3]))  # the median of the 5 strongest
    agree = np.clip((a - level) / TALL_SOFT, -1.0, 1.0)
    # a 12-pyramid's end checkers lie half under the second layer: their rims score less
    # than the row's middle ones (a row of 5: about the same); measured on rendered boards
    z = (0.875 - (a[0] + a[8]) / max(1e-6, a[2] + a[4] + a[6]) * 1.5) + 0.08 * fill
    scores = {}
    for n, pat in TALL_PATTERNS.items():
        sign = np.array([1.0 if ch == "H" else -1.0 for ch in pat])
        sc = float((sign * agree).sum())
        if n in (5, 12):  # same pattern: the end rims' share and the gaps tell them apart
            sc -= max(0.0, (-1 if n == 12 else 1) * float(np.clip(TALL_TWELVE * z, -4.0, 4.0)))
        scores[n] = sc
    order = sorted(scores, key=scores.get, reverse=True)  # type: ignore[arg-type]
    return order[0], scores[order[0]] - scores[order[1]], order[1]


def count_point_low(a: Axis, full: np.ndarray, cap: np.ndarray, lateral: np.ndarray, dist: np.ndarray,
                    params: ReadParams = ReadParams(), colour: Optional[np.ndarray] = None) -> PointCount:
    """Stage 2 for one point: the stack's extent from its last cap, plus second-layer rims.

    Checkers in the first layer touch each other from the base outwards, so the farthest
    cap tells how many there are; a second-layer checker rests across two of them, its
    whole rim visible half a checker off the first layer's positions.  ``colour[j]`` (BGR
    at each candidate centre, optional) must match the first checker's along the stack.

    Checkers that barely stand out from their point (dark on a dark red point) fall below
    the board's threshold; they are counted at a lower one when their rims are as even as
    one stack's are (and as strong as the rims already found on the point).
    """
    strong, s_rims = _count_at(a, full, cap, lateral, dist, params, colour)
    low = _low_params(params)
    if not np.any((cap > low.threshold) & (cap <= params.threshold)):
        return strong  # nothing faint here
    weak, w_rims = _count_at(a, full, cap, lateral, dist, low, colour)
    if weak.count > strong.count and w_rims and _even_stack(w_rims, s_rims, params):
        return PointCount(weak.count, weak.samples, weak.confidence * 0.5, faint=strong.count == 0)
    return strong


FADE = 0.55   # along a stack fading in a light gradient, each rim is at least this share of the one before


def _even_stack(w_rims: list[float], s_rims: list[float], params: ReadParams) -> bool:
    """The faint pass's rims look like one stack's: the weakest near the strongest, or the
    rims (base outwards) fading smoothly, as a light gradient or shadow along the point does."""
    if min(w_rims) >= params.even * max(w_rims + s_rims):
        return True
    smooth = all(b >= FADE * a for a, b in zip(w_rims, w_rims[1:]))
    return smooth and min(w_rims) >= params.even * _median(w_rims)


@functools.lru_cache(maxsize=64)
def _low_params(params: ReadParams) -> ReadParams:
    """The parameters of the faint-stack pass (kept: built once per threshold, not per point)."""
    return replace(params, threshold=max(params.floor, params.threshold * params.weak))


def _count_at(a: Axis, full: np.ndarray, cap: np.ndarray, lateral: np.ndarray, dist: np.ndarray,
              params: ReadParams, colour: Optional[np.ndarray]) -> tuple[PointCount, list[float]]:
    """:func:`count_point` at one threshold; also the rim scores the count rests on."""
    thr = params.threshold
    nms = max(1, int(round(params.nms / params.step)))
    cd = params.checker
    caps = _peaks(cap, thr * 0.5, nms, lead=True)
    strong = [j for j in caps if cap[j] > thr]
    margin = min([abs(cap[j] - thr) / thr for j in caps] + [1.0])
    if not strong:
        return PointCount(0, (), min(1.0, margin * 2)), []
    fulls = _peaks(full, thr * 0.5, nms, lead=True)
    strong_full = [(float(dist[j]), float(full[j])) for j in fulls if full[j] > thr]
    last = -1
    for j in sorted(strong, reverse=True):  # the farthest cap whose whole run is accounted for
        n_run = max(1, int(round((float(dist[j]) - cd / 2) / cd)) + 1)
        if _run_explained(n_run, [d for d, _ in strong_full], cd, params.slot_tolerance) and \
                (colour is None or _same_colour(colour, dist, j, cd, params.stack_colour)) and \
                not _faint_stranger(j, cap, strong_full, colour, dist, cd, params):
            last = j
            break
    if last < 0:
        return PointCount(0, (), min(1.0, margin * 2) * 0.5), []
    x = lambda j: a.x + float(lateral[j])  # noqa: E731
    y = lambda j: a.y0 + a.direction * float(dist[j])  # noqa: E731
    pos = float(dist[last])
    f1 = (pos - cd / 2) / cd
    n1 = int(round(f1)) + 1
    conf = min(1.0, margin * 2, (0.5 - abs(f1 - round(f1))) * 4)
    samples = [Checker(a.name, x(last), y(last), float(cap[last]))]
    n2 = 0
    for j in (fulls if n1 >= L.PYRAMID[0] else []):  # a second layer rests on a full row (layout.stack_slots)
        if dist[j] >= pos - 0.2 * cd:
            continue
        ph = (float(dist[j]) - cd / 2) / cd
        frac = ph - np.floor(ph)
        if not 0.25 < frac < 0.75:
            continue  # a first-layer checker's own rim
        top_thr = thr * params.second_layer
        conf = min(conf, abs(full[j] - top_thr) / top_thr * 2, (0.25 - abs(frac - 0.5)) * 8)
        if full[j] > top_thr:
            n2 += 1
            samples.append(Checker(a.name, x(j), y(j), float(full[j])))
    n1 = max(1, min(n1, 5))
    for k in range(n1 - 1):  # the first layer's centres, for colour
        d = cd * (k + 0.5)
        samples.append(Checker(a.name, a.x, a.y0 + a.direction * d, 0.0))
    n = n1 + n2
    if n >= 9:
        conf *= 0.5  # a third layer would lie hidden
    rims = [f for d, f in strong_full if d <= pos + 0.2 * cd] + [float(cap[last])]
    return PointCount(n, tuple(samples), float(max(0.0, min(1.0, conf)))), rims


def _faint_stranger(j: int, cap: np.ndarray, rims: list[tuple[float, float]], colour: Optional[np.ndarray],
                    dist: np.ndarray, cd: float, params: ReadParams) -> bool:
    """A stack's last rim that is much fainter than the rims below it and whose centre is not
    the first checker's colour: a point's narrowing tip beside a checker, not a checker."""
    if colour is None or n_below(rims, float(dist[j]), cd) == 0:
        return False
    below = [f for d, f in rims if d < float(dist[j]) - 0.5 * cd]
    if float(cap[j]) >= params.faint_last * _median(below):
        return False
    return not _same_colour(colour, dist, j, cd, params.stranger_colour)


def n_below(rims: list[tuple[float, float]], d: float, cd: float) -> int:
    """Whole rims at least half a checker nearer the base than ``d``."""
    return sum(1 for x, _ in rims if x < d - 0.5 * cd)


def _run_explained(n_run: int, rims: list[float], cd: float, tol: float) -> bool:
    """Every first-layer checker of a run shows its whole rim near its place, or lies under
    a second-layer checker (whose whole rim shows half a checker further or nearer); one
    may be missed in a long run."""
    missed = 0
    for k in range(n_run):
        c = cd * (k + 0.5)
        missed += not any(abs(d - c) <= tol * cd for d in rims)
    return missed <= (1 if n_run >= 4 else 0)


def _same_colour(colour: np.ndarray, dist: np.ndarray, j: int, cd: float, tol: float) -> bool:
    """The colour at candidate ``j`` matches the first checker's (relative BGR distance)."""
    if tol >= 1e6:
        return True  # the check is off (the default: glare and shadows move colours along a stack)
    i0 = int(np.argmin(np.abs(dist - cd / 2)))
    a, b = colour[i0].astype(np.float32), colour[j].astype(np.float32)
    return float(np.linalg.norm(a - b)) <= tol * max(40.0, float(np.linalg.norm(a)), float(np.linalg.norm(b)))


def pick_checkers(prof: Profiles, params: ReadParams = ReadParams()) -> Found:
    """Stage 2: counts per point and the checkers on the bar."""
    tops = prof.full.max(axis=1)
    tops = tops[tops > params.threshold]
    if len(tops):  # rims on one board share their contrast: ignore the much fainter ones
        params = replace(params, threshold=max(params.threshold, params.relative * float(np.quantile(tops, params.relative_q))))
    per_axis = {a.name: count_point(a, prof.full[i], prof.cap[i], prof.lateral[i], prof.dist, params,
                                    None if prof.colour is None else prof.colour[i],
                                    0.0 if prof.fill is None else float(prof.fill[i]))
                for i, a in enumerate(axes(params))}
    _drop_empty_bases(prof, per_axis, params)
    _outlined_checkers(prof, per_axis, params)
    thr = params.threshold
    nms = max(1, int(round(0.7 * params.checker / params.step)))  # bar checkers lie side by side, one layer
    bp = _peaks(prof.bar_full, thr * 0.5, nms)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    strong = [j for j in bp if prof.bar_full[j] > thr]
    faint = _faint_bar_runs(prof, bp, strong, thr, params)
    lone, lone_conf = _lone_bar_rims(prof, bp, strong + faint, params)
    faint = sorted(faint + lone)
    low = max(params.floor, thr * params.weak)
    bar = [Checker("bar", bx, float(prof.bar_y[j]), float(prof.bar_full[j])) for j in sorted(strong + faint)]
    m = [abs(prof.bar_full[j] - thr) / thr for j in bp if j not in faint] + [
        abs(prof.bar_full[j] - low) / low * 0.5 for j in faint]
    conf = min(m + [0.5]) * 2
    if lone:
        conf = min(conf, lone_conf)
    gap = _gap_between(bar, params.checker)
    return Found(per_axis, bar, conf if gap is None else min(conf, POINT_KNEE / 2), gap, conf)


BAR_GAP_RATIO = 0.6   # a bar rim between two checkers, fainter than this share of both ...


def _gap_between(bar: list[Checker], cd: float = L.CHECKER) -> Optional[int]:
    """A bar checker one diameter (``cd``) from a checker on each side and much fainter than both
    (its index, or None): the gap between two checkers a little more than a diameter apart
    makes a ring of about a checker's size too (their facing rims and the bar's edges).
    Then the bar count is unsure (the rim scores cannot tell them apart: measured rendered
    cases overlap), unless the totals decide (:func:`assemble`)."""
    for k, (a, b, c) in enumerate(zip(bar, bar[1:], bar[2:])):
        if abs(b.y - a.y - cd) < 0.2 * cd and abs(c.y - b.y - cd) < 0.2 * cd and \
                b.score < BAR_GAP_RATIO * min(a.score, c.score):
            return k + 1
    return None


BASE_ZONE = (0.25, 0.65)   # pw from a point's base: where a lone first checker's rim scores
BASE_COLOUR = 40.0         # BGR distance within which two points count as the same colour
BASE_RATIO = 2.3           # a lone faint checker's rim against its empty look-alikes' typical base score
BASE_MID = 3.0             # pw from the base: a point's own colour, where a lone checker does not reach


def _drop_empty_bases(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> None:
    """A lone checker found only by the faint pass must stand out from the empty points'
    bases: an empty triangle's wide base and the board edge behind it score a faint
    ring of about a checker's size too.  The reference is the base score of the board's
    empty points of the same colour (points alternate colours); a lone faint rim less than
    :data:`BASE_RATIO` times their typical one is the point itself: read empty (unsure when
    near the ratio)."""
    ax = axes(params)
    lone = [k for k, a in enumerate(ax) if per_axis[a.name].faint and per_axis[a.name].count == 1]
    if not lone or prof.colour is None:
        return
    zone = (prof.dist >= BASE_ZONE[0]) & (prof.dist <= BASE_ZONE[1])
    base = prof.full[:, zone].max(axis=1)
    col = prof.colour[:, int(np.argmin(np.abs(prof.dist - BASE_MID)))].astype(np.float32)
    empty = [k for k, a in enumerate(ax) if per_axis[a.name].count == 0]
    for k in lone:
        refs = [base[m] for m in empty if float(np.linalg.norm(col[m] - col[k])) < BASE_COLOUR]
        if not refs:
            continue
        ratio = float(base[k]) / max(1e-6, float(np.median(refs)))  # median: an "empty" one may hold a missed checker
        if ratio < BASE_RATIO:
            name = ax[k].name
            per_axis[name] = PointCount(0, (), max(0.0, min(1.0, 0.2 * (BASE_RATIO - ratio))))


CLIPPED = 245         # a BGR value at or above which a channel is clipped (washed out by glare)
OUTLINE_FIND = 0.04   # rim score (in strengths) from which a washed-out point's peak is looked at again
OUTLINE = 0.04        # a closed outline: its all-round rim score (10th percentile over angles) above this
OUTLINE_FACE = 200.0  # ... around a washed-out face: grey at least this all round inside the outline
OUTLINE_LINE = 6.0    # ... and the outline darker than the face by this many grey levels all round
OUTLINE_FACE_RADII = (0.2, 0.32)                     # pw out: where the face is sampled ...
OUTLINE_LINE_RADII = (0.38, 0.42, 0.45, 0.48, 0.52)  # ... and where the outline may lie


def outline_score(prof: Profiles, x: float, y: float, params: ReadParams = ReadParams()) -> tuple[float, float, float]:
    """A washed-out checker's look at (x, y) (pw): a bright face closed by a darker outline.

    Returns, each as the 10th percentile over the ring's angles (smoothed over three
    neighbours): the rim score on a ring of a checker's radius (in strengths), the face's
    grey inside it (0.2 and 0.32 pw out, the darker), and how much darker than the face the
    outline is (the darkest of 0.38..0.52 pw out).  A checker's outline is a closed circle
    around a uniform face; its look-alikes (the board's edge, a triangle's sides and tip)
    cover only parts of the ring, or leave board showing inside it."""
    assert prof.grad is not None and prof.image is not None
    g, img = prof.grad, prof.image
    h, w = g.shape
    th = np.linspace(0, 2 * np.pi, N_RING, endpoint=False)
    c, s = np.cos(th), np.sin(th)
    rot = np.exp(-1j * th)
    cx, cy = (x + prof.margin) * prof.px, (y + prof.margin) * prof.px

    k = params.checker / L.CHECKER   # the radii below are for the layout's checkers
    radii = np.array([r * k * prof.px for r in params.ring_radii + OUTLINE_FACE_RADII + OUTLINE_LINE_RADII])[:, None]
    xi = np.clip(np.rint(cx + radii * c).astype(np.int32), 0, w - 1)   # every ring at once: (radius, angle)
    yi = np.clip(np.rint(cy + radii * s).astype(np.int32), 0, h - 1)
    nr, nf = len(params.ring_radii), len(OUTLINE_FACE_RADII)

    def q10(v: np.ndarray) -> np.ndarray:   # per row
        return np.quantile((np.roll(v, 1, axis=-1) + v + np.roll(v, -1, axis=-1)) / 3, 0.1, axis=-1)

    z = g[yi[:nr], xi[:nr]] * rot
    best = (np.abs(z.real) - 0.5 * np.abs(z.imag)).max(axis=0)
    grey = img[yi[nr:], xi[nr:]].astype(np.float32).mean(axis=-1)
    face = np.minimum(grey[0], grey[1])
    line = grey[nf:].min(axis=0)
    qf, ql = q10(np.stack([face, face - line]))
    return float(q10(best)) / prof.strength, float(qf), float(ql)


def _outlined_checkers(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> None:
    """Light checkers washed out by glare (clipped to white, like the point under them) show
    only their outline, too faint for the rim threshold.  The rims beyond each stack read
    are looked at again, from the base outwards, slot by slot: one whose centre is clipped
    and whose outline is closed all round a bright face (:func:`outline_score`) is a checker.  A near miss
    leaves the point unsure.  Points whose next slot is not washed out are passed by at once."""
    if prof.grad is None or prof.colour is None:
        return
    cd = params.checker
    nms = max(1, int(round(params.nms / params.step)))
    slots = np.abs(prof.dist[None, :] - cd * (np.arange(L.PYRAMID[0]) + 0.5)[:, None]).argmin(axis=1)
    clipped = prof.colour[:, slots].min(axis=2) >= CLIPPED - 10  # (axes, slots): a washed-out centre there
    for k, a in enumerate(axes(params)):
        pc = per_axis[a.name]
        if pc.count >= L.PYRAMID[0] or not clipped[k, pc.count]:
            continue  # (checked again at the rim's own centre below)
        full = prof.full[k]
        peaks = _peaks(full, OUTLINE_FIND, nms, lead=True)
        added: list[Checker] = []
        conf = pc.confidence
        n = pc.count
        while n < L.PYRAMID[0]:
            slot = cd * (n + 0.5)
            near = [j for j in peaks if abs(float(prof.dist[j]) - slot) <= params.slot_tolerance * cd / 2]
            if not near:
                break
            j = max(near, key=lambda i: float(full[i]))
            if int(prof.colour[k][j].min()) < CLIPPED:
                break  # its face is not washed out: the rim threshold has judged it
            if n and int(prof.colour[k][int(np.argmin(np.abs(prof.dist - (slot - cd))))].min()) < CLIPPED:
                break  # one point's checkers are one colour: a stack not washed out ends here
            x = a.x + float(prof.lateral[k][j])
            y = a.y0 + a.direction * float(prof.dist[j])
            o, face, line = outline_score(prof, x, y, params)
            if face < OUTLINE_FACE:
                break  # board shows inside the ring: not a washed-out checker's face
            m = min(o / OUTLINE, line / OUTLINE_LINE)
            if m < 1.0:
                if m > 0.5:  # a near miss: the point is unsure
                    conf = min(conf, POINT_KNEE * (1 - m) * 2)
                break
            added.append(Checker(a.name, x, y, float(full[j])))
            conf = min(conf, max(POINT_KNEE / 2, min(1.0, m - 1.0)))
            n += 1
        if added:
            samples = tuple(added) + tuple(pc.samples)
            per_axis[a.name] = PointCount(n, samples, conf, pc.alt, pc.faint)
        elif conf < pc.confidence:
            per_axis[a.name] = replace(pc, confidence=conf)


BAR_LONE = 4.5   # a lone bar rim this many times the bar's own typical score is a checker


def _lone_bar_rims(prof: Profiles, peaks: list[int], taken: list[int], params: ReadParams) -> tuple[list[int], float]:
    """The bar is one even strip without triangles, so its own profile is a clean reference:
    a rim far from every checker found there that stands :data:`BAR_LONE` times above the
    bar's median score (and above the floor) is a checker too (dark on a dark bar), with
    a confidence from how far above; returns the rims and that raw confidence."""
    med = max(1e-3, float(np.median(prof.bar_full)))
    cd = params.checker
    lone = [j for j in peaks if j not in taken and float(prof.bar_full[j]) > max(params.floor, BAR_LONE * med)
            and all(abs(float(prof.bar_y[j] - prof.bar_y[k])) > 1.5 * cd for k in taken)]
    conf = min([float(prof.bar_full[j]) / (BAR_LONE * med) - 1.0 for j in lone] + [1.0])
    return lone, conf


def _faint_bar_runs(prof: Profiles, peaks: list[int], strong: list[int], thr: float, params: ReadParams) -> list[int]:
    """Fainter bar rims that belong to a run: bar checkers lie side by side, one diameter
    apart, so a fainter rim (as strong as half the bar's strongest) one diameter on from a
    checker, or two such rims one diameter apart, are checkers too (dark on a dark bar)."""
    low = max(params.floor, thr * params.weak)
    top = max([float(prof.bar_full[j]) for j in strong] + [thr])
    cand = [j for j in peaks if low < float(prof.bar_full[j]) <= thr and float(prof.bar_full[j]) >= params.even * top]
    if not cand:
        return []

    def next_to(a: int, b: int) -> bool:
        return abs(abs(float(prof.bar_y[a] - prof.bar_y[b])) - params.checker) <= 0.2 * params.checker

    # grow from the sure checkers, then let faint ones vouch for each other in pairs
    accepted: set[int] = set()
    grew = True
    while grew:
        grew = False
        for j in cand:
            if j not in accepted and (any(next_to(j, k) for k in strong) or any(next_to(j, k) for k in accepted)
                                      or any(next_to(j, k) for k in cand if k != j)):
                accepted.add(j)
                grew = True
    return sorted(accepted)


def colour_samples(view: View, checkers: list[Checker], radius: float = 0.18) -> np.ndarray:
    """Stage 3a: each checker's centre colour in Lab (n x 3), its lightness taken relative to
    the neighbourhood so that a light checker in a shadow stays light."""
    if not checkers:
        return np.zeros((0, 3), np.float32)
    img = view.image
    h, w = img.shape[:2]
    # the light falling on the board, roughly: the mean lightness of a few point widths around
    # (from every 4th pixel: a mean over blocks of 3 point widths hardly changes)
    step = max(1, view.px // 8)
    grey = cv2.cvtColor(np.ascontiguousarray(img[::step, ::step]), cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (max(1, w // (3 * view.px)), max(1, h // (3 * view.px))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.0)
    ref = float(np.median(small))
    r = max(1, int(radius * view.px))
    xy = np.array([view.to_px(ch.x, ch.y) for ch in checkers], np.float32)
    xi = np.rint(xy[:, 0]).astype(np.int32)
    yi = np.rint(xy[:, 1]).astype(np.int32)
    off = np.arange(-r, r + 1, dtype=np.int32)
    # each checker's (2r+1)^2 patch, clipped at the image edges (a clipped patch repeats its edge)
    py = np.clip(yi[:, None, None] + off[None, :, None], 0, h - 1)
    px_ = np.clip(xi[:, None, None] + off[None, None, :], 0, w - 1)
    patches = img[py, px_].reshape(len(checkers), -1, 3)
    bgr = np.median(patches, axis=1)
    sx = np.clip((xy[:, 0] / w * small.shape[1]).astype(np.int32), 0, small.shape[1] - 1)
    sy = np.clip((xy[:, 1] / h * small.shape[0]).astype(np.int32), 0, small.shape[0] - 1)
    gain = ref / np.maximum(8.0, small[sy, sx])
    lab = cv2.cvtColor(np.array(bgr, np.uint8)[None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    lab[:, 0] *= np.array(gain, np.float32)
    return lab


@dataclass(frozen=True)
class ColourModel:
    """The two checker colours (Lab centres); ``dark`` is the one with lower lightness."""

    dark: tuple[float, float, float]
    light: tuple[float, float, float]

    def classify(self, samples: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Labels (0 dark, 1 light) and a margin in 0..1 per sample."""
        if len(samples) == 0:
            return np.zeros(0, int), np.zeros(0)
        w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)  # light and shadow move lightness most
        d0 = np.linalg.norm((samples - np.array(self.dark)) * w, axis=1)
        d1 = np.linalg.norm((samples - np.array(self.light)) * w, axis=1)
        lab = (d1 < d0).astype(int)
        margin = np.abs(d0 - d1) / (d0 + d1 + 1e-6)
        # shadows and glare move lightness most: where the two colours differ clearly in hue
        # too, a sample whose hue points to the other colour is unsure
        ab = samples[:, 1:] - np.array(self.dark[1:])
        sep = np.array(self.light[1:]) - np.array(self.dark[1:])
        if float(np.linalg.norm(sep)) >= HUE_SEP:
            t = ab @ sep / float(sep @ sep)   # 0 at dark's hue, 1 at light's
            against = np.where(lab == 1, t < 0.5 - HUE_CLEAR, t > 0.5 + HUE_CLEAR)
            margin = np.where(against, np.minimum(margin, COLOUR_KNEE / 2), margin)
        return lab, margin

    @property
    def separation(self) -> float:
        return float(np.linalg.norm(np.array(self.dark) - np.array(self.light)))


def axis_split(s: np.ndarray) -> np.ndarray:
    """Labels 0/1 for samples (n >= 2, rows) cut in two along their main axis where the two
    sides are most apart for their spread: the cut maximising (mean gap)^2 / (var_a + var_b
    + 25), every cut at once from prefix sums (a lone sample of another colour forms a side)."""
    centred = s - s.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    proj = centred @ axis
    order = np.argsort(proj)
    p = proj[order].astype(np.float64)
    n = len(p)
    k = np.arange(1, n)
    c1, c2 = np.cumsum(p)[:-1], np.cumsum(p * p)[:-1]
    t1, t2 = float(p.sum()), float((p * p).sum())
    ma, mb = c1 / k, (t1 - c1) / (n - k)
    va = np.maximum(c2 / k - ma * ma, 0.0)
    vb = np.maximum((t2 - c2) / (n - k) - mb * mb, 0.0)
    cut = int(k[int(np.argmax((ma - mb) ** 2 / (va + vb + 25.0)))])
    lab = np.zeros(n, int)
    lab[order[cut:]] = 1
    return lab


def learn_colours(samples: np.ndarray, params: ReadParams = ReadParams()) -> Optional[ColourModel]:
    """Stage 3b: two clusters of checker colours, or None when the samples hold only one.

    Lightness is weighed less (light and shadow move it most).  The samples are split
    along their main axis where the two sides are most apart for their spread (a single
    checker of the other colour counts; a glare-lit one of the same colour does not), then
    refined by 2-means; clusters closer than ``colour_min_gap`` are one colour.
    """
    if len(samples) < 2:
        return None
    w = np.array([L_WEIGHT, 1.0, 1.0], np.float32)
    s = samples.astype(np.float32) * w
    lab = axis_split(s)
    c = np.stack([np.median(s[lab == 0], axis=0), np.median(s[lab == 1], axis=0)])
    for _ in range(5):
        lab = (np.linalg.norm(s - c[1], axis=1) < np.linalg.norm(s - c[0], axis=1)).astype(int)
        if lab.min() == lab.max():
            return None
        c = np.stack([np.median(s[lab == 0], axis=0), np.median(s[lab == 1], axis=0)])
    if np.linalg.norm(c[0] - c[1]) < params.colour_min_gap:
        return None
    c = c / w
    if c[0][0] > c[1][0]:
        c = c[::-1]
    return ColourModel(tuple(map(float, c[0])), tuple(map(float, c[1])))  # type: ignore[arg-type]


def fallback_model() -> ColourModel:
    """Used when a frame shows one colour only and nothing was learned: split at mid-grey."""
    return ColourModel((40.0, 128.0, 128.0), (215.0, 128.0, 128.0))


@dataclass(frozen=True)
class Assembled:
    rows: L.RowReading
    checkers: int
    plausible: bool
    totals: tuple[int, int] = (0, 0)          # checkers read per colour (points and bar)
    model: Optional["ColourModel"] = None     # the colour model the reading used
    alts: tuple[tuple[str, int, int], ...] = ()  # (row, index, count): a tall stack's next likeliest count
    bar_confidence: float = 1.0               # the bar count's calibrated confidence


# Calibration (measured on rendered boards, bench/vision_accuracy.py part 3): a point's raw
# score is the smallest of its margins (rim against threshold, stack phase, colour); below
# POINT_KNEE most readings are wrong, above it almost all are right.  The knee maps to
# CERTAIN, the referee's default ``min_confidence``.
CERTAIN = 0.6
POINT_KNEE = 0.05
UNSURE_POINTS = 3   # a board with more unsure points (and bar) than this is unsure as a whole


def calibrate(raw: float) -> float:
    """A raw margin (0..1) to a confidence: below :data:`CERTAIN` exactly when raw < knee."""
    raw = max(0.0, min(1.0, float(raw)))
    if raw < POINT_KNEE:
        return CERTAIN * raw / POINT_KNEE
    return CERTAIN + (1 - CERTAIN) * (raw - POINT_KNEE) / (1 - POINT_KNEE)


COLOUR_KNEE = 0.1   # colour margin below which a point's colour is unsure (measured: 0.03 % of right
                    # points on held-out rendered boards, every wrong colour seen)


def colour_raw(margin: float) -> float:
    """A colour margin (:meth:`ColourModel.classify`) as a raw point score: below
    :data:`POINT_KNEE` exactly when the margin is below :data:`COLOUR_KNEE`."""
    if margin < COLOUR_KNEE:
        return POINT_KNEE * margin / COLOUR_KNEE
    return POINT_KNEE + 3 * (margin - COLOUR_KNEE)


def board_confidence(point_confs: list[float], plausible: bool, bar: float = 1.0) -> float:
    """The reading as a whole: 0 when its totals are impossible; below :data:`CERTAIN` when
    more than :data:`UNSURE_POINTS` points are unsure or the bar is (a bar count has no
    confidence of its own in :class:`referee.events.BoardEvidence`); else 0.6 + 0.4 x the
    weakest point's."""
    if not plausible:
        return 0.0
    weakest = min(point_confs)
    unsure = sum(c < CERTAIN for c in point_confs)
    if bar < CERTAIN:
        return min(bar, CERTAIN * weakest) if unsure > UNSURE_POINTS else bar
    if unsure > UNSURE_POINTS:
        return CERTAIN * weakest
    return CERTAIN + (1 - CERTAIN) * weakest


def assemble(found: Found, labels: np.ndarray, cmargin: np.ndarray) -> Assembled:
    """Stage 4: counts and colours per point and bar, with calibrated confidences."""
    k = 0
    rows: dict[str, list[PointReading]] = {"top": [], "bottom": []}
    total = [0, 0]
    margins: dict[tuple[str, int], float] = {}   # each point's weakest colour margin
    for name in [f"{r}{i}" for r in ("top", "bottom") for i in range(12)]:
        pc = found.per_axis[name]
        m = len(pc.samples)
        lab = labels[k:k + m]
        cm = cmargin[k:k + m]
        k += m
        conf = pc.confidence
        colour = None
        if pc.count:
            light = int(lab.sum())
            colour = "light" if light * 2 > m else "dark"
            conf = min(conf, colour_raw(float(np.min(cm)))) * (0.3 if min(light, m - light) else 1.0)
            total[colour == "light"] += pc.count
        row = "top" if name.startswith("top") else "bottom"
        margins[(row, len(rows[row]))] = float(np.min(cm)) if pc.count else np.inf
        rows[row].append(PointReading(pc.count, colour, max(0.0, min(1.0, conf))))
    _settle_tall(rows, found, total)
    for r in ("top", "bottom"):
        rows[r] = [PointReading(p.count, p.colour, round(calibrate(p.confidence), 3)) for p in rows[r]]
    blab = labels[k:k + len(found.bar)]
    bmargin = cmargin[k:k + len(found.bar)]
    bar_conf = found.bar_confidence
    bar_l = [0, 0]
    for lab_ in blab:
        bar_l[int(lab_)] += 1
    g = found.gap
    bar_marks = [(int(x), float(y)) for x, y in zip(blab, bmargin)]   # each bar checker's colour and margin
    if g is not None and total[int(blab[g])] + bar_l[int(blab[g])] > L.PER_SIDE:
        # a colour over 15 with a rim that may be the gap between two bar checkers: it is the gap
        bar_l[int(blab[g])] -= 1
        bmargin = np.delete(bmargin, g)
        del bar_marks[g]
        bar_conf = min(found.bar_open, 2 * POINT_KNEE)
    flipped = _flip_one_colour(rows, margins, bar_marks, [total[0] + bar_l[0], total[1] + bar_l[1]])
    if flipped == "bar":
        bar_l = [sum(1 for c, _ in bar_marks if c == k) for k in (0, 1)]
        bar_conf = min(bar_conf, POINT_KNEE / 2)
    elif flipped is not None:
        total = [sum(p.count for r in ("top", "bottom") for p in rows[r] if p.colour == c) for c in ("dark", "light")]
    bar = (bar_l[0], bar_l[1])
    total[0] += bar[0]
    total[1] += bar[1]
    plausible = total[0] <= 15 and total[1] <= 15
    bar_raw = min([bar_conf] + [colour_raw(float(x)) for x in bmargin])
    confs = [p.confidence for r in ("top", "bottom") for p in rows[r]]
    conf = board_confidence(confs, plausible, calibrate(bar_raw))
    alts = tuple((r, i, pc.alt) for r in ("top", "bottom") for i in range(12)
                 if (pc := found.per_axis[f"{r}{i}"]).alt is not None and pc.alt != rows[r][i].count)
    return Assembled(L.RowReading(tuple(rows["top"]), tuple(rows["bottom"]), bar, round(conf, 3)), sum(total), plausible,
                     (total[0], total[1]), alts=alts, bar_confidence=calibrate(bar_raw))


FLIP_CLEAR = 0.5   # the culprit's colour margin at most this share of the next likeliest one's


def _flip_one_colour(rows: dict[str, list[PointReading]], margins: dict[tuple[str, int], float],
                     bar_marks: list[tuple[int, float]], totals: list[int]) -> Optional[str]:
    """Each colour has 15 checkers: when one colour's total is over 15 and giving one point
    (or one bar checker) the other colour would make both possible, and that point's colour
    was clearly the least sure of those that would (its margin at most :data:`FLIP_CLEAR` of
    the next), it takes the other colour, unsure (the totals vouch for it, its colour did
    not).  Changes ``rows`` or ``bar_marks`` in place; returns "point", "bar" or None."""
    over = 0 if totals[0] > L.PER_SIDE else 1 if totals[1] > L.PER_SIDE else -1
    if over < 0 or totals[1 - over] > L.PER_SIDE:
        return None
    excess, room = totals[over] - L.PER_SIDE, L.PER_SIDE - totals[1 - over]
    name = ("dark", "light")[over]
    cands: list[tuple[float, str, tuple[str, int]]] = [
        (margins[(r, i)], "point", (r, i)) for r in ("top", "bottom") for i, p in enumerate(rows[r])
        if p.colour == name and excess <= p.count <= room]
    if excess == 1:
        cands += [(m, "bar", ("bar", j)) for j, (c, m) in enumerate(bar_marks) if c == over]
    if not cands:
        return None
    cands.sort()
    if len(cands) > 1 and cands[0][0] > FLIP_CLEAR * cands[1][0]:
        return None  # no clear culprit: the board stays impossible (no reading)
    _, kind, (r, i) = cands[0]
    if kind == "bar":
        bar_marks[i] = (1 - over, bar_marks[i][1])
    else:
        p = rows[r][i]
        rows[r][i] = PointReading(p.count, ("dark", "light")[1 - over], min(p.confidence, 0.3))
    return kind


def settle_with_off(a: Assembled, off: tuple[int, int]) -> Assembled:
    """Each colour has exactly 15 checkers: with the trays read surely (``off``), a colour
    whose board total misses ``15 - off`` by exactly what one of its tall stacks' next
    likeliest count would change, when the two are a row of 5 and a 12-pyramid (whose whole
    rims lie at the same places: the one confusion a miscounted tray is unlikely to mimic),
    takes that count, the least sure such stack first.  The point is then
    sure only just (:data:`CERTAIN`): the trays vouch for it, its rims did not."""
    rows = {"top": list(a.rows.top), "bottom": list(a.rows.bottom)}
    totals = list(a.totals)
    alts = list(a.alts)
    for ci, colour in enumerate(("dark", "light")):
        need = L.PER_SIDE - off[ci] - totals[ci]
        if need == 0:
            continue
        cand = [(rows[r][i].confidence, r, i, n) for r, i, n in alts
                if rows[r][i].colour == colour and n - rows[r][i].count == need
                and {n, rows[r][i].count} == {L.PYRAMID[0], TWIN}]
        if not cand:
            continue
        _, r, i, n = min(cand)
        rows[r][i] = PointReading(n, colour, CERTAIN)
        totals[ci] += need
        alts = [x for x in alts if x[:2] != (r, i)]
    if totals == list(a.totals):
        return a
    plausible = totals[0] <= L.PER_SIDE and totals[1] <= L.PER_SIDE
    confs = [p.confidence for r in ("top", "bottom") for p in rows[r]]
    conf = board_confidence(confs, plausible, a.bar_confidence)
    return replace(a, rows=L.RowReading(tuple(rows["top"]), tuple(rows["bottom"]), a.rows.bar, round(conf, 3)),
                   checkers=sum(totals), plausible=plausible, totals=(totals[0], totals[1]), alts=tuple(alts))


def _settle_tall(rows: dict[str, list[PointReading]], found: Found, total: list[int]) -> None:
    """A colour with more than 15 checkers where a tall stack was judged: take that stack's
    next likeliest count (a row of 5 and a 12-pyramid look much alike), least sure first."""
    for ci, colour in enumerate(("dark", "light")):
        while total[ci] > 15:
            cand = [(p.confidence, r, i) for r in ("top", "bottom") for i, p in enumerate(rows[r])
                    if p.colour == colour and found.per_axis[f"{r}{i}"].alt is not None
                    and found.per_axis[f"{r}{i}"].alt < p.count]  # type: ignore[operator]
            if not cand:
                break
            _, r, i = min(cand)
            p, alt = rows[r][i], found.per_axis[f"{r}{i}"].alt
            assert alt is not None
            total[ci] -= p.count - alt
            rows[r][i] = PointReading(alt, colour, min(p.confidence, POINT_KNEE / 2))
            found.per_axis[f"{r}{i}"] = replace(found.per_axis[f"{r}{i}"], alt=None)


def read_view(view: View, model: Optional[ColourModel] = None, params: ReadParams = ReadParams(),
              prof: Optional[Profiles] = None) -> tuple[Assembled, Optional[ColourModel]]:
    """All four stages on a rectified view; returns the reading and the colour model it used.
    ``prof``: the view's :func:`ring_profiles` with ``params`` when already computed."""
    prof = prof or ring_profiles(view, params)
    found = pick_checkers(prof, params)
    allc = [c for r in ("top", "bottom") for i in range(12) for c in found.per_axis[f"{r}{i}"].samples] + found.bar
    samples = colour_samples(view, allc)
    learned = learn_colours(samples, params)
    use = learned if learned is not None and (model is None or _compatible(learned, model)) else (model or fallback_model())
    labels, cm = use.classify(samples)
    return replace(assemble(found, labels, cm), model=use), learned or model


def _compatible(a: ColourModel, b: ColourModel) -> bool:
    """A freshly learned model agrees with the stored one (same dark/light order)."""
    return bool(np.linalg.norm(np.array(a.dark) - np.array(b.dark)) < np.linalg.norm(np.array(a.dark) - np.array(b.light)))
