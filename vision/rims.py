"""Stage 1, rims: for every point (and the bar) a score along its axis for "a checker's rim
is centred here", the mean radial gradient on a ring of a checker's radius.

Rims are found whatever the board and checker colours; a checker half hidden under a
second-layer one still shows its sides.  :func:`ring_profiles` takes a rectified
:class:`~vision.rectify.View` and returns a new :class:`Profiles` (nothing is changed in place;
the ring sample indices are kept per view geometry, a cache of pure values).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .buffers import scratch as _scratch
from .params import DEFAULT, ReadParams
from .order import _percentile, median_axis
from .rectify import View

N_RING = 32   # samples around a ring (a sampling density, not a threshold)


@dataclass(frozen=True)
class Axis:
    """One line of candidate checker centres: a point's axis or the bar's."""

    name: str           # "top3", "bottom11", "bar"
    x: float            # pw
    y0: float           # pw, first candidate
    direction: int      # +1 down, -1 up


def axes(params: ReadParams) -> list[Axis]:
    """The 24 points' axes, top0, bottom0, top1... (a view is in the layout's coordinates; each
    quarter's shifted sideways by ``params.columns``)."""
    return list(_axes(params.columns))


@functools.lru_cache(maxsize=8)
def _axes(columns: tuple[float, float, float, float]) -> tuple[Axis, ...]:
    out = []
    for i in range(12):
        x = L.column_x(i)
        q = int(i >= 6)
        out.append(Axis(f"top{i}", x + columns[q], 0.0, +1))
        out.append(Axis(f"bottom{i}", x + columns[2 + q], L.HEIGHT, -1))
    return tuple(out)


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
_LIGHTNESS = np.clip(np.array([(116 * ((v / 255) ** (1 / 3) if v / 255 > 0.008856 else 7.787 * v / 255 + 16 / 116)
                                - 16) * 2.55
                               for v in range(256)]), 0, 255).astype(np.uint8)


def _gradients(view: View) -> np.ndarray:
    """Image gradients of lightness, or of red-minus-green where that is stronger (red on black),
    as one complex map ``gx + i gy`` (one gather per ring sample later)."""
    return _gradient_maps(view)[0]


STRIP = 24 << 10   # pixels: the gradient maps are made this many pixels' rows at a time (their planes then kept)


def _gradient_maps(view: View) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_gradients`' map and, in 16 bits, twice its ``|gx| + |gy|`` (whole numbers).

    Sobel sums of 8-bit levels are whole numbers, so they are taken in 16 bits (the lightness's
    doubled, red-minus-green's as they are: the latter's half-scale weight then needs no
    fraction) and halved into floats once, at the end: the same values as float Sobels.

    Made a strip of rows at a time (:data:`STRIP` pixels), each with the row above and below it
    (a 3x3 Sobel's reach: the same values as the whole view's, its edges reflected alike), so the
    ten working planes are small and kept (:func:`vision.buffers.scratch`), not made afresh each
    read: only the two maps returned are.  Under the table's fixed mmap threshold
    (:func:`referee.table.run.steady_malloc`) every fresh plane was mapped and paged in anew."""
    img = view.image
    h, w = img.shape[:2]
    halves = np.empty((h, w, 2), np.float32)   # (kept by the caller: made afresh)
    mag2 = np.empty((h, w), np.int16)
    step = max(1, STRIP // max(w, 1))
    for r0 in range(0, h, step):
        r1 = min(h, r0 + step)
        s0, s1 = max(0, r0 - 1), min(h, r1 + 1)
        _gradient_rows(img[s0:s1], r0 - s0, halves[r0:r1], mag2[r0:r1])
    g = halves.view(np.complex64)[..., 0]
    return g, mag2


def _gradient_rows(img: np.ndarray, top: int, halves: np.ndarray, mag2: np.ndarray) -> None:
    """:func:`_gradient_maps` of ``img``'s rows ``top`` to ``top + len(mag2)`` into ``halves`` and
    ``mag2`` (``img`` holds a row more each side where the view has one)."""
    hw = img.shape[:2]
    n = mag2.shape[0]
    inner = slice(top, top + n)
    g0, g1, g2 = (_scratch(f"grad8_{i}", hw, np.uint8) for i in range(3))
    grey = cv2.LUT(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY, dst=g0), _LIGHTNESS, dst=g1)
    # both of the lightness's 3x3 Sobels in one pass (the same values, border reflected alike): |.| <= 1020
    gx, gy = cv2.spatialGradient(grey, _scratch("gx", hw, np.int16), _scratch("gy", hw, np.int16))
    _, green, red = cv2.split(img, [g0, g1, g2])
    # red-minus-green's Sobels as red's less green's (a Sobel is linear: the same whole numbers, border
    # reflected alike, as the Sobels of the 16-bit difference, in two passes of 8-bit planes): |.| <= 2040
    ax, ay = cv2.spatialGradient(red, _scratch("ax", hw, np.int16), _scratch("ay", hw, np.int16))
    sx, sy = cv2.spatialGradient(green, _scratch("sx", hw, np.int16), _scratch("sy", hw, np.int16))
    gx, gy, ax, ay, sx, sy = (p[inner] for p in (gx, gy, ax, ay, sx, sy))   # (the strip's own rows)
    ax = cv2.subtract(ax, sx, dst=ax)
    ay = cv2.subtract(ay, sy, dst=ay)
    zero = _zeros(mag2.shape)
    # |.| + |.| of each pair (green's Sobel planes, spent, take them)
    a = cv2.add(cv2.absdiff(ax, zero, dst=sx), cv2.absdiff(ay, zero, dst=sy), dst=sx)
    b = cv2.add(cv2.absdiff(gx, zero, dst=sy), cv2.absdiff(gy, zero, dst=_scratch("t", mag2.shape, np.int16)),
                dst=sy)
    b = cv2.add(b, b, dst=b)
    # where red-minus-green's (half-weighted) sum is the larger
    mask = cv2.compare(a, b, cv2.CMP_GT, dst=g0[:n])
    gx = cv2.add(gx, gx, dst=gx)
    gy = cv2.add(gy, gy, dst=gy)
    cv2.copyTo(ax, mask, gx)
    cv2.copyTo(ay, mask, gy)
    cv2.max(a, b, dst=mag2)   # the chosen pair's |.| + |.|, doubled
    both = cv2.merge([gx, gy], dst=_scratch("both", mag2.shape + (2,), np.int16))
    np.multiply(both, np.float32(0.5), out=halves)   # (whole numbers halved: exact)


def _strength(mag2: np.ndarray, q: float = 97) -> float:
    """``_percentile(|gx| + |gy|, q)`` of the gradient map at every second pixel both ways, from
    the doubled whole-number magnitudes (:func:`_gradient_maps`) by counting: the same value."""
    sub = mag2[::2, ::2].ravel()
    n = sub.size
    vi = (n - 1) * np.true_divide(q, 100)
    prev = int(np.floor(vi))
    t = float(vi - prev)
    if prev + 1 >= n:
        return _percentile(sub.astype(np.float32) * np.float32(0.5), q)
    cum = np.cumsum(np.bincount(sub))
    lo2, hi2 = np.searchsorted(cum, (prev + 1, prev + 2))   # sorted positions prev and prev + 1
    lo, hi = np.float32(lo2 * 0.5), np.float32(hi2 * 0.5)   # (halves of whole numbers: exact)
    diff = hi - lo
    return float(hi - diff * (1 - t)) if t >= 0.5 else float(lo + diff * t)


@functools.lru_cache(maxsize=4)
def _zeros(shape: tuple[int, ...]) -> np.ndarray:
    """A zero 16-bit plane of ``shape`` (read only: cv2.absdiff's other operand)."""
    z = np.zeros(shape, np.int16)
    z.flags.writeable = False
    return z


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
        out.append(idx)   # int32: half the bytes of numpy's own index type (np.take casts a run's at a time)
    if full_key is not None:
        if len(_RING_INDEX) > 8:
            _RING_INDEX.clear()
        _RING_INDEX[full_key] = out
    return out


_QUARTER = N_RING // 4   # ring samples per quadrant


@dataclass(frozen=True)
class _Rings:
    """The ring samples of one set of lines (the points' axes, or the bar), laid out for
    :func:`_ring_best`: ``(angle in quadrant, quadrant, line, place along the line)``, so every
    step runs over whole contiguous rows and the quadrant sums too.

    Along a line the candidate centres lie two pixel rows apart, so at each radius and angle a
    line's samples are every second pixel of one column: in :func:`_column_map` (the gradient
    map by columns, even and odd rows apart) one contiguous run, gathered whole.  ``starts``
    (per radius) are those runs' first entries, ``flip`` the lines whose run goes against
    their order (the bottom row's axes run up); without that shape (a view too small, say)
    ``index`` holds every sample's flat pixel index instead."""

    lines: tuple[int, ...]           # the lines' shape, e.g. (axis, lat) ...
    to_places: tuple[int, ...]       # ... (quadrant, lines..., place) to the profiles' (quadrant, axis, dist, lat)
    starts: Optional[list[np.ndarray]]   # per radius (angle in quadrant, quadrant, line): run starts
    flip: Optional[np.ndarray]       # (line,): the run is reversed
    index: Optional[list[np.ndarray]]    # per radius (angle in quadrant, quadrant, line, place): flat indices
    length: int                      # centres per line


def _rings(h: int, w: int, index: list[np.ndarray], along: int) -> _Rings:
    """:class:`_Rings` of ring indices ``index`` (per radius, ``(places..., angle)``, flat
    pixel indices of an ``h`` x ``w`` view) whose lines run along places axis ``along``."""
    places = index[0].shape[:-1]
    n = len(places)
    order = [a for a in range(n) if a != along] + [along]
    lines = tuple(places[a] for a in order[:-1])
    length = places[along]
    laid = []
    for idx in index:   # (places..., angle) -> (angle in quadrant, quadrant, line, place)
        by = np.transpose(idx, (n,) + tuple(order)).reshape((4, _QUARTER, -1, length))
        laid.append(np.ascontiguousarray(by.transpose(1, 0, 2, 3), np.intp))
    back = [0] + [1 + order.index(a) for a in range(n)]   # (quadrant, lines..., place) -> (quadrant, places...)
    starts, flip = _runs(h, w, laid)
    return _Rings(lines, tuple(back), starts, flip, None if starts is not None else laid, length)


def _runs(h: int, w: int, laid: list[np.ndarray]) -> tuple[Optional[list[np.ndarray]], Optional[np.ndarray]]:
    """Each line's run start in :func:`_column_map` per radius, angle and quadrant, and which
    lines run reversed; (None, None) unless every line's samples are one column's pixels two
    rows apart, the same way for every radius and angle."""
    n_even = (h + 1) // 2
    starts, flip = [], None
    for idx in laid:
        y, x = np.divmod(idx, w)
        dy = np.diff(y, axis=-1)
        if idx.shape[-1] < 2 or (x != x[..., :1]).any() or not ((dy == 2) | (dy == -2)).all():
            return None, None
        down = dy[..., 0] == -2
        if (down != down[:1, :1]).any() or (dy != dy[..., :1]).any():
            return None, None
        rev = down[0, 0]
        if flip is None:
            flip = rev
        elif (flip != rev).any():
            return None, None
        top = y.min(axis=-1)
        odd = top % 2
        starts.append(np.where(odd == 1, w * n_even + x[..., 0] * (h // 2), x[..., 0] * n_even) + top // 2)
    return starts, flip


def _column_map(g: np.ndarray) -> np.ndarray:
    """The gradient map ``g`` by columns, its even rows then its odd ones: every second pixel
    of a column is one contiguous run (what :class:`_Rings` gathers)."""
    h, w = g.shape
    n_even = (h + 1) // 2
    out = np.empty(h * w, g.dtype)
    pairs = g.view(np.float32).reshape(h, w, 2)   # (OpenCV transposes x, y pairs in half numpy's time)
    cv2.transpose(pairs[0::2], dst=out[:w * n_even].view(np.float32).reshape(w, n_even, 2))
    cv2.transpose(pairs[1::2], dst=out[w * n_even:].view(np.float32).reshape(w, h // 2, 2))
    return out


# per quadrant, the rotation of its samples at each angle in it: (angle in quadrant, quadrant, 1, 1)
_ROT_BY_Q = np.ascontiguousarray(_RING_ROT.reshape(4, _QUARTER).T[:, :, None, None])


def _ring_best(g: np.ndarray, columns: np.ndarray, rings: _Rings) -> np.ndarray:
    """Per ring sample the best over the radii of |radial gradient| minus half the tangential
    one, laid out as ``rings``; ``g``: the gradient map, ``columns``: :func:`_column_map` of it.
    Worked one angle of each quadrant and one radius at a time (the same values: each sample's own
    arithmetic, the radii's maximum taken in their order), the working arrays reused: at 32 px per
    point width a radius's gathered samples are 170 kB, below the table's fixed mmap threshold
    (:func:`referee.table.run.steady_malloc`, 256 kB), reused from the heap step after step, not mapped
    afresh and page-faulted in as an angle's samples of all radii (520 kB) were; the two working
    planes share the result's block (mapped: nothing of them stays in the heap)."""
    if rings.starts is not None:
        runs = np.lib.stride_tricks.as_strided(columns, (columns.size - rings.length + 1, rings.length),
                                               (columns.itemsize, columns.itemsize), writeable=False)
        at = np.stack(rings.starts, axis=1)   # (angle in quadrant, radius, quadrant, line)
    else:
        assert rings.index is not None
        flat, at = g.ravel(), np.stack(rings.index, axis=1)
    n_ang, n_rad = at.shape[:2]
    shape = at.shape[2:4] + (rings.length,)
    block = np.empty((n_ang + 2,) + shape, np.float32)
    best_all, rad, tan = block[:n_ang], block[n_ang], block[n_ang + 1]   # (the result, then working planes)
    for j in range(n_ang):
        rot = _ROT_BY_Q[j]
        best = best_all[j]
        for k in range(n_rad):
            # one run per line gathered whole; else every sample (indices clipped already)
            z = runs[at[j, k]] if rings.starts is not None else np.take(flat, at[j, k], mode="wrap")
            z *= rot
            r = best if k == 0 else rad   # (the first radius's scores are the best so far)
            np.abs(z.real, out=r)
            np.abs(z.imag, out=tan)
            del z
            tan *= 0.5
            r -= tan
            if k:
                np.maximum(best, rad, out=best)
    return best_all


def _quadrant_sums(best: np.ndarray, rings: _Rings, strength: float) -> np.ndarray:
    """Each quadrant's mean of ``best`` (:func:`_ring_best`'s) in units of ``strength``,
    ``(quadrant, places...)``: right, down, left, up."""
    # each quadrant's mean summed in angle order (as a BLAS product with 1/8 weights summed it: the same
    # bits, without waking BLAS threads); the weight, a power of two, taken once on the sum: each sample's
    # share and each partial sum are then the same floats scaled by it exactly (no sample is near a
    # subnormal float: zero, or a product of a half-integer gradient and a ring angle's sine or cosine)
    acc = best[0].copy()
    for j in range(1, _QUARTER):
        acc += best[j]
    acc *= np.float32(4.0 / N_RING)
    acc /= strength
    if rings.flip is not None and rings.flip.any():
        acc[:, rings.flip] = acc[:, rings.flip, ::-1]   # (the right side copied first)
    return acc.reshape((4,) + rings.lines + (rings.length,)).transpose(rings.to_places)


@dataclass(frozen=True)
class _Plan:
    """Where a view of one geometry is sampled (the same every frame: kept per geometry)."""

    dist: np.ndarray          # pw from each axis's base, the candidate centres
    lat: np.ndarray           # pw, the sideways offsets
    ring: _Rings              # the axes' ring samples (centres (axis, dist, lat))
    bar_y: np.ndarray         # pw, the bar's candidate centres
    bar_ring: _Rings          # the bar's ring samples (centres (y, lat))
    far_down: np.ndarray      # (axis, 1, 1): the axis's far side is down (the top row)
    colour_at: np.ndarray     # flat pixel indices of the axes' candidate centres (axis, dist)
    gap_at: np.ndarray        # flat pixel indices of :func:`_gap_fill`'s samples


_PLANS: "dict[tuple[object, ...], _Plan]" = {}
_last_plan: "tuple[Optional[ReadParams], tuple[object, ...], Optional[_Plan]]" = (None, (), None)


def _plan(view: View, params: ReadParams) -> _Plan:
    """The sample places of ``view``'s geometry under ``params`` (kept: the last by identity,
    as every frame asks with the same objects; hashing the params costs more than a lookup)."""
    global _last_plan
    h, w = view.image.shape[:2]
    key: tuple[object, ...] = (h, w, view.px, view.margin, view.x0, view.y0)
    last = _last_plan   # one read of a tuple: safe with two threads reading boards
    if last[0] is params and last[1] == key and last[2] is not None:
        return last[2]
    full = (params.ring_radii, params.lateral, params.axis_start, params.axis_end, params.step, params.checker,
            params.gap_halves, params.gap_lateral, params.columns) + key
    plan = _PLANS.get(full)
    if plan is None:
        plan = _make_plan(view, params)
        if len(_PLANS) > 16:
            _PLANS.clear()
        _PLANS[full] = plan
    _last_plan = (params, key, plan)
    return plan


def _make_plan(view: View, params: ReadParams) -> _Plan:
    """Build :func:`_plan`'s sample places (the profiles' arithmetic on them, unchanged)."""
    h, w = view.image.shape[:2]
    px = view.px
    dist = np.arange(params.axis_start, params.axis_end, params.step, dtype=np.float32)
    ax = axes(params)
    lat = np.array(params.lateral, np.float32)
    dirs = np.array([a.direction for a in ax], np.float32)[:, None, None]
    X = np.array([a.x for a in ax], np.float32)[:, None, None] + lat[None, None, :]
    Y = np.array([a.y0 for a in ax], np.float32)[:, None, None] + dirs * dist[None, :, None]
    X = np.broadcast_to(X, (len(ax), len(dist), len(lat)))
    Y = np.broadcast_to(Y, X.shape)
    radii = np.array(params.ring_radii, np.float32) * (params.checker / L.CHECKER) * px
    ring = _ring_index(h, w, (X + view.margin) * px, (Y + view.margin) * px, radii, None)
    bar_y = np.arange(0.3, L.HEIGHT - 0.3, params.step, dtype=np.float32)
    bx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    BX = np.broadcast_to(bx + lat[None, :], (len(bar_y), len(lat)))
    BY = np.broadcast_to(bar_y[:, None], BX.shape)
    bar_ring = _ring_index(h, w, (BX + view.margin) * px, (BY + view.margin) * px, radii, None)
    cxs = np.rint((np.array([a.x for a in ax], np.float32)[:, None] + view.margin) * px).astype(np.int32)
    cys = np.rint((Y[:, :, 0] + view.margin) * px).astype(np.int32)
    colour_at = np.clip(cys, 0, h - 1) * w + np.clip(np.broadcast_to(cxs, cys.shape), 0, w - 1)
    colour_at.flags.writeable = False   # (the ring indices stay writeable: np.take copies read-only ones first)
    return _Plan(dist, lat, _rings(h, w, ring, 1), bar_y, _rings(h, w, bar_ring, 0),
                 np.broadcast_to(dirs, dirs.shape) > 0, colour_at, _gap_index(view, ax, h, w, params))



def rim_maps(view: View) -> tuple[np.ndarray, float, np.ndarray]:
    """What :func:`ring_profiles` makes of ``view`` whatever the rings' size: its gradient map, the frame's
    rim strength and the map by columns (for :func:`rim_rows`, which tries several sizes on one view)."""
    g, mag2 = _gradient_maps(view)
    strength = _strength(mag2) * 0.8 + 8.0
    del mag2   # (spent before the map by columns is made)
    return g, strength, _column_map(g)


def rim_rows(view: View, params: ReadParams = DEFAULT,
             maps: Optional[tuple[np.ndarray, float, np.ndarray]] = None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ring_profiles`' whole-rim scores and their distances alone (``full`` and ``dist``, the same
    values): what the checkers' size is measured from (:mod:`vision.size`).  ``maps``: the view's
    :func:`rim_maps`, made once for the sizes a look tries (a third of a profile's cost)."""
    full_l, dist = rims_across(view, params, maps)
    return full_l.max(axis=2), dist


def rims_across(view: View, params: ReadParams = DEFAULT,
                maps: Optional[tuple[np.ndarray, float, np.ndarray]] = None) -> tuple[np.ndarray, np.ndarray]:
    """The whole-rim scores along every point's axis at each of ``params.lateral``'s sideways offsets
    (axis, distance, offset), and the distances: how a point's rims fare off its axis."""
    g, strength, columns = maps if maps is not None else rim_maps(view)
    plan = _plan(view, params)
    right, down, left, up = _quadrant_sums(_ring_best(g, columns, plan.ring), plan.ring, strength)
    return np.minimum(np.minimum(down, up), np.minimum(left, right)), plan.dist


def ring_profiles(view: View, params: ReadParams = DEFAULT) -> Profiles:
    """Stage 1: rim scores along every point's axis and along the bar."""
    g, strength, columns = rim_maps(view)
    plan = _plan(view, params)
    right, down, left, up = _quadrant_sums(_ring_best(g, columns, plan.ring), plan.ring, strength)
    # "far" faces away from the axis's base: down on the top row, up on the bottom one; a
    # whole rim scores its weakest quadrant, a cap its weakest but the base's
    far = np.where(plan.far_down, down, up)
    cap_l = np.minimum(np.minimum(far, left), right)
    full_l = np.minimum(np.minimum(down, up), np.minimum(left, right))
    li = full_l.argmax(axis=2)
    bq = _quadrant_sums(_ring_best(g, columns, plan.bar_ring), plan.bar_ring, strength)
    del columns   # (spent: not kept beside the blurred image)
    bar_full = np.minimum(np.minimum(bq[0], bq[1]), np.minimum(bq[2], bq[3]))
    blur = cv2.blur(view.image, (5, 5))
    pixels = blur.reshape(-1, 3)
    colour = pixels[plan.colour_at]
    return Profiles(full_l.max(axis=2), cap_l.max(axis=2), plan.lat[li], plan.dist, bar_full.max(axis=1), plan.bar_y,
                    strength, colour, _gap_fill_at(pixels, plan.gap_at, len(plan.far_down), params), g, view.px,
                    view.margin, view.image)


def _gap_fill(view: View, ax: list[Axis], blur: np.ndarray, params: ReadParams = DEFAULT) -> np.ndarray:
    """Per axis, in -1..1: whether the gaps beside halves 4 and 6 look like the stack's checkers
    (+1: a layer below shows there) or like the board beyond the point (-1); 0 when the two
    look alike.  Tells a row of 5 from a 12-pyramid, whose whole rims lie at the same places
    (``params.gap_halves``, ``gap_lateral``; ``checker``: the diameter, pw)."""
    h, w = blur.shape[:2]
    return _gap_fill_at(blur.reshape(-1, 3), _gap_index(view, ax, h, w, params), len(ax), params)


def _gap_index(view: View, ax: list[Axis], h: int, w: int, params: ReadParams) -> np.ndarray:
    """Flat pixel indices of :func:`_gap_fill`'s samples in a ``h`` x ``w`` view: per axis the
    gaps beside each of ``params.gap_halves`` (two sides), three checker centres, the board beyond."""
    cd = params.checker
    halves = params.gap_halves
    xs, ys = [], []
    for a in ax:
        for hv in halves:
            for side in (-1, 1):
                xs.append(a.x + side * params.gap_lateral * cd / L.CHECKER)
                ys.append(a.y0 + a.direction * hv * cd / 2)
        for hv in (3, 5, 7):
            xs.append(a.x)
            ys.append(a.y0 + a.direction * hv * cd / 2)
        xs.append(a.x)
        ys.append(a.y0 + a.direction * (L.POINT_LEN + L.GAP * 0.3))
    X = np.clip(np.rint((np.array(xs) + view.margin) * view.px).astype(int), 0, w - 1)
    Y = np.clip(np.rint((np.array(ys) + view.margin) * view.px).astype(int), 0, h - 1)
    idx = Y * w + X
    idx.flags.writeable = False
    return idx


def _gap_fill_at(pixels: np.ndarray, at: np.ndarray, n_axes: int, params: ReadParams) -> np.ndarray:
    """:func:`_gap_fill` from the blurred view's pixels (rows of BGR) at :func:`_gap_index`'s places."""
    halves = params.gap_halves
    c = pixels[at].astype(np.float32).reshape(n_axes, 2 * len(halves) + 4, 3)
    gap = c[:, :2 * len(halves)]
    checker = median_axis(c[:, -4:-1], 1)[:, None]
    board = c[:, -1:]
    dc, db, sep = (_lengths(gap - checker), _lengths(gap - board), _lengths(checker - board))
    f = median_axis((db - dc) / (sep + 20.0), 1)
    return np.clip(f, -1.0, 1.0)


def _lengths(v: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(v, axis=-1)`` of a float array (the same values: its square root of the
    summed squares), without its argument checks."""
    return np.sqrt(np.add.reduce(v * v, axis=-1))


def peaks_rows(profiles: np.ndarray, thr: float, nms_steps: int, lead: bool = False) -> list[list[int]]:
    """:func:`vision.stacks._peaks` of every row of ``profiles`` (e.g. :attr:`Profiles.cap`, one
    row an axis) at one threshold: the same indices, the candidates of all rows found in one
    pass (the rows with two or more then suppressed one by one, as there)."""
    p = profiles
    rows, n = p.shape
    if n < 3:   # (too short for a middle: the plain function)
        from .stacks import _peaks
        return [_peaks(p[i], thr, nms_steps, lead) for i in range(rows)]
    mid = p[:, 1:-1]
    m = mid > thr
    m &= mid >= p[:, :-2]
    m &= mid >= p[:, 2:]
    m_all = np.zeros((rows, n), bool)
    m_all[:, 1:-1] = m
    if lead:
        m_all[:, 0] = (p[:, 0] > p[:, 1]) & (p[:, 0] > thr)
    r_idx, c_idx = m_all.nonzero()   # row-major: each row's candidates ascending
    cands, vals = c_idx.tolist(), p[r_idx, c_idx].tolist()
    bounds = np.searchsorted(r_idx, np.arange(rows + 1)).tolist()   # each row's run of candidates
    return [_suppressed(p[r], cands[lo:hi], vals[lo:hi], nms_steps) if hi - lo >= 2 else cands[lo:hi]
            for r, lo, hi in zip(range(rows), bounds, bounds[1:])]


def _suppressed(row: np.ndarray, cand: list[int], vals: list[float], nms_steps: int) -> list[int]:
    """The candidates ``cand`` (ascending, scores ``vals``) of one profile ``row`` that no stronger
    one within ``nms_steps`` suppresses, strongest first as :func:`vision.stacks._peaks` takes them
    (ties in numpy's order); whether one lies within reach of a kept one is read off a mask of the
    places the kept ones cover (the same answer as asking each kept one)."""
    if len(set(vals)) < len(vals):   # a tie: in numpy's order, as the plain function has it
        at = np.array(cand)
        order = at[np.argsort(-row[at])].tolist()
    else:                            # no tie: every sort gives the one order
        order = [j for _, j in sorted(zip(vals, cand), reverse=True)]
    reach = 2 * nms_steps + 1
    covered = bytearray(len(row) + reach)   # place j + nms_steps: j is within reach of a kept one
    cover = b"\x01" * reach
    keep: list[int] = []
    for j in order:   # the strongest first; none within nms_steps of a kept one
        if not covered[j + nms_steps]:
            keep.append(j)
            covered[j:j + reach] = cover
    keep.sort()
    return keep
