"""Stage 2 for one point, stacks: how many checkers stand on a point, from its rim profiles.

A stack's extent from its last rim, second-layer checkers from whole rims half a checker off
a full first row, a faint pass for checkers that barely stand out from their point, and for
a full first row the measured rim patterns of 5..15 (:func:`tall_stack`).  Every function
takes values and returns new ones.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import NamedTuple, Optional

import numpy as np

from . import layout as L
from .params import DEFAULT, ReadParams, low_params
from .rims import Axis, peaks_rows


def _median(xs: list[float]) -> float:
    """The median of a short list of floats, as ``np.median`` gives it (the mean of the middle
    two when the count is even), without numpy's overhead on a handful of values."""
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def _peaks(profile: np.ndarray, thr: float, nms_steps: int, lead: bool = False) -> list[int]:
    """Indices of local maxima above ``thr``, none within ``nms_steps`` of a stronger one;
    with ``lead`` the first sample counts as a maximum too when it is the highest there (a
    checker pushed against a point's base has its centre before the profile starts)."""
    p = profile
    mid = p[1:-1]
    m = mid > thr
    m &= mid >= p[:-2]
    m &= mid >= p[2:]
    cand = m.nonzero()[0] + 1
    if lead and len(p) > 1 and p[0] > p[1] and p[0] > thr:
        cand = np.concatenate([[0], cand])
    if len(cand) < 2:
        return cand.tolist()
    keep: list[int] = []
    for j in cand[np.argsort(-p[cand])].tolist():  # the strongest first; none within nms_steps of a kept one
        for k in keep:
            if abs(j - k) <= nms_steps:
                break
        else:
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
    row: Optional[int] = None   # a tall stack judged: the rims' own count along the point (a row)


class Ahead(NamedTuple):
    """What :func:`count_point` looks up in a point's profiles, found beforehand for every point
    of a board at once (:func:`vision.checkers.count_points`): the same values, fewer calls."""

    peaks: dict[float, tuple[list[int], list[int]]]   # per threshold: the cap's and the full rims' :func:`_peaks`
    faint: bool      # cap rims above the faint pass's threshold and not above the board's
    far_rim: bool    # a cap rim above the board's threshold where a full first row ends


def count_point(a: Axis, full: np.ndarray, cap: np.ndarray, lateral: np.ndarray, dist: np.ndarray,
                params: ReadParams = DEFAULT, colour: Optional[np.ndarray] = None,
                fill: float = 0.0, ahead: Optional[Ahead] = None) -> PointCount:
    """:func:`count_point_low` and then, for a full first row, the pyramid pass for 10..15
    (:func:`tall_stack`).  ``ahead``: what was found beforehand (:class:`Ahead`), if anything."""
    pc = count_point_low(a, full, cap, lateral, dist, params, colour, ahead)
    if colour is not None and 0 < pc.count < L.PYRAMID[0]:
        pc = continued_run(a, full, dist, colour, pc, params)
    if not params.tall_stacks:
        return pc
    cd = params.checker
    if pc.count < 5 and not (far_rim(cap, dist, params) if ahead is None else ahead.far_rim):
        return pc  # no checker where a full row ends: not a tall stack
    n, margin, alt, fit = tall_fit(full, dist, params.threshold, fill, cd, params)
    if fit < TALL_FIT:
        # no stack's rim pattern fits (a patterned, grained or dotted point, a hand, shows rims
        # everywhere): the rims' own count stands, unsure (its far end showed a rim it does not explain)
        conf = min(pc.confidence, params.point_knee / 2)
        if pc.count < 5:
            return replace(pc, confidence=conf)
        return PointCount(pc.count, pc.samples, conf, n, pc.faint)
    if n < 10 and pc.count >= 5 and n != pc.count:
        # the rim pattern disagrees with the rim count: measured on rendered 5..9 stacks, a
        # clear pattern was right every time; an unclear one leaves the count, unsure
        if margin >= params.tall_overrule:
            return PointCount(n, pc.samples, min(pc.confidence, margin / 4), pc.count, row=pc.count)
        return PointCount(pc.count, pc.samples, min(pc.confidence, params.point_knee / 2), n)
    if n < 10:
        if pc.count == n == L.PYRAMID[0]:
            return replace(pc, alt=TWIN)  # a row of 5 shows a 12-pyramid's whole rims: the trays may tell
        return pc

    samples = [Checker(a.name, a.x + float(lateral[int(np.argmin(np.abs(dist - h * cd / 2)))]),
                       a.y0 + a.direction * h * cd / 2, 0.0) for h in sorted(L.visible_rims(n))]
    return PointCount(n, tuple(samples), float(min(1.0, margin / 2)), pc.count if alt < 10 else alt,
                      row=pc.count)


# whole-rim patterns (halves 1..9) of stacks of 5..15 as the ring filter sees them: a rim
# partly under a checker one layer up often still scores, so these are measured, not derived
TALL_PATTERNS = {
    5: "HLHLHLHLH", 6: "LHLLHLHLH", 7: "LHLHLLHLH", 8: "LHLHLHLLH", 9: "LHLHLHLHL",
    10: "HLHLLHLHL", 11: "HLHLHLLHL", 12: "HLHLHLHLH", 13: "HHLHLLHLH", 14: "HHLHLHLHH", 15: "HHHLHLHHH",
}
TWIN = 12          # the pyramid whose whole rims lie where a row of 5's do
TALL_FIT = 4.0     # the least fit (of 9 halves, each -1..1) of a stack's rim pattern that is taken for one


def tall_stack(full: np.ndarray, dist: np.ndarray, thr: float, fill: float,
               cd: float = L.CHECKER, params: ReadParams = DEFAULT) -> tuple[int, float, int]:
    """:func:`tall_fit` without the fit: the stack size, its margin and the next best."""
    n, margin, alt, _ = tall_fit(full, dist, thr, fill, cd, params)
    return n, margin, alt


def tall_fit(full: np.ndarray, dist: np.ndarray, thr: float, fill: float,
             cd: float = L.CHECKER, params: ReadParams = DEFAULT) -> tuple[int, float, int, float]:
    """The stack size 5..15 whose rim pattern fits the profile best, the margin over the
    next best (in halves fully believed; 2 = one clear half told them apart) and that next.

    A row of 5 and a 12-pyramid show the same pattern; the end rims' strength against the
    middle ones and ``fill`` (the gaps beside the checkers: board or a lower layer, see
    :func:`vision.rims._gap_fill`) tell them apart.  ``cd``: the checkers' diameter, pw; the
    pattern fit's levels from ``params`` (``tall_*``).
    """
    a = np.empty(9)
    for h, at in enumerate(_halves_at(dist, cd)):
        a[h] = float(full[at].max()) / thr if at is not None else 0.0
    # a stack that stands out little from its point (red on a red point) scores all its rims
    # low: "a whole rim" is then judged against the stack's own clear rims, not the board's
    level = min(params.tall_level, params.tall_rel * float(np.sort(a)[-3]))  # the median of the 5 strongest
    agree = np.clip((a - level) / params.tall_soft, -1.0, 1.0)
    # a 12-pyramid's end checkers lie half under the second layer: their rims score less
    # than the row's middle ones (a row of 5: about the same); measured on rendered boards
    z = (0.875 - (a[0] + a[8]) / max(1e-6, a[2] + a[4] + a[6]) * 1.5) + 0.08 * fill
    scores = {}
    pats = tuple(TALL_PATTERNS.items())
    for (n, _), sc in zip(pats, (_signs(pats) * agree).sum(axis=1).tolist()):   # (each row summed as alone)
        if n in (5, 12):  # same pattern: the end rims' share and the gaps tell them apart
            sc -= max(0.0, (-1 if n == 12 else 1) * float(np.clip(params.tall_twelve * z, -4.0, 4.0)))
        scores[n] = sc
    order = sorted(scores, key=scores.get, reverse=True)  # type: ignore[arg-type]
    return order[0], scores[order[0]] - scores[order[1]], order[1], scores[order[0]]
    return order[0], scores[order[0]] - scores[order[1]], order[1]


_HALVES: dict[tuple[bytes, float], list[Optional[np.ndarray]]] = {}


def _halves_at(dist: np.ndarray, cd: float) -> list[Optional[np.ndarray]]:
    """:func:`tall_fit`'s profile steps near each half 1..9 of a checker out (None where none is), kept per
    ``dist`` and ``cd`` (every frame asks with the same ones)."""
    key = (dist.tobytes(), cd)
    got = _HALVES.get(key)
    if got is None:
        got = []
        for h in range(1, 10):
            m = np.abs(dist - h * cd / 2) <= 0.13 * cd / L.CHECKER
            got.append(np.flatnonzero(m) if m.any() else None)
        if len(_HALVES) > 16:
            _HALVES.clear()
        _HALVES[key] = got
    return got


@functools.lru_cache(maxsize=4)
def _signs(pats: tuple[tuple[int, str], ...]) -> np.ndarray:
    """The rim patterns ``pats`` (:data:`TALL_PATTERNS`' items) as rows of +1 (H) and -1 (L)."""
    return np.array([[1.0 if ch == "H" else -1.0 for ch in pat] for _, pat in pats])


def count_point_low(a: Axis, full: np.ndarray, cap: np.ndarray, lateral: np.ndarray, dist: np.ndarray,
                    params: ReadParams = DEFAULT, colour: Optional[np.ndarray] = None,
                    ahead: Optional[Ahead] = None) -> PointCount:
    """Stage 2 for one point: the stack's extent from its last cap, plus second-layer rims.

    Checkers in the first layer touch each other from the base outwards, so the farthest
    cap tells how many there are; a second-layer checker rests across two of them, its
    whole rim visible half a checker off the first layer's positions.  ``colour[j]`` (BGR
    at each candidate centre, optional) must match the first checker's along the stack.

    Checkers that barely stand out from their point (dark on a dark red point) fall below
    the board's threshold; they are counted at a lower one when their rims are as even as
    one stack's are (and as strong as the rims already found on the point).  ``ahead``: what was
    found beforehand in the point's profiles (:class:`Ahead`), if anything.
    """
    strong, s_rims = _count_at(a, full, cap, lateral, dist, params, colour, ahead, relax=True)
    low = low_params(params)
    if not (bool(_faint_rims(cap, params).any()) if ahead is None else ahead.faint):
        return strong  # nothing faint here
    weak, w_rims = _count_at(a, full, cap, lateral, dist, low, colour, ahead)
    if weak.count > strong.count and w_rims and _even_stack(w_rims, s_rims, params):
        return PointCount(weak.count, weak.samples, weak.confidence * 0.5, faint=strong.count == 0)
    return strong


def _even_stack(w_rims: list[float], s_rims: list[float], params: ReadParams) -> bool:
    """The faint pass's rims look like one stack's: the weakest near the strongest, or the
    rims (base outwards) fading smoothly, as a light gradient or shadow along the point does."""
    if min(w_rims) >= params.even * max(w_rims + s_rims):
        return True
    smooth = all(b >= params.fade * a for a, b in zip(w_rims, w_rims[1:]))
    return smooth and min(w_rims) >= params.even * _median(w_rims)


def _faint_rims(cap: np.ndarray, params: ReadParams) -> np.ndarray:
    """Where cap rims lie above the faint pass's threshold and not above the board's (one point's
    profile, or every point's, one a row)."""
    return (cap > low_params(params).threshold) & (cap <= params.threshold)


def _row_end(dist: np.ndarray, params: ReadParams) -> np.ndarray:
    """The profile steps where a full first row ends (4.5 checkers out)."""
    return np.abs(dist - 4.5 * params.checker) < 0.3


def far_rim(cap: np.ndarray, dist: np.ndarray, params: ReadParams) -> bool:
    """A cap rim above the board's threshold where a full first row ends."""
    far = _row_end(dist, params)
    return bool(far.any() and float(cap[far].max()) > params.threshold)


def look_ahead(cap: np.ndarray, full: np.ndarray, dist: np.ndarray, params: ReadParams) -> list[Ahead]:
    """What :func:`count_point` looks up for every point of a board (``cap`` and ``full``: one
    point's profile a row), found at once: the rim peaks at the board's threshold and the faint
    pass's (:func:`vision.rims.peaks_rows`: the indices :func:`_peaks` gives row by row; the faint
    pass's only for the points it looks at), which points show faint rims, which a rim where a
    full row ends."""
    n = len(cap)
    faint: list[bool] = np.any(_faint_rims(cap, params), axis=1).tolist()
    far = _row_end(dist, params)
    ends: list[bool] = [False] * n
    if far.any():
        ends = (cap[:, far].max(axis=1) > params.threshold).tolist()
    peaks: list[dict[float, tuple[list[int], list[int]]]] = [{} for _ in range(n)]
    for p, at in ((low_params(params), [i for i in range(n) if faint[i]]), (params, list(range(n)))):
        if at:   # the cap's and the full rims' rows in one pass (each row's peaks its own)
            both = peaks_rows(np.concatenate((cap[at], full[at])), p.threshold * 0.5, peak_steps(p), lead=True)
            for i, c, f in zip(at, both[:len(at)], both[len(at):]):
                peaks[i][p.threshold] = (c, f)
    return [Ahead(peaks[i], faint[i], ends[i]) for i in range(n)]


def peak_steps(params: ReadParams) -> int:
    """The rim peaks' suppression window, in profile steps (:func:`_peaks`'s ``nms_steps``)."""
    return max(1, int(round(params.nms / params.step)))


def _count_at(a: Axis, full: np.ndarray, cap: np.ndarray, lateral: np.ndarray, dist: np.ndarray,
              params: ReadParams, colour: Optional[np.ndarray],
              ahead: Optional[Ahead] = None, relax: bool = False) -> tuple[PointCount, list[float]]:
    """:func:`count_point` at one threshold; also the rim scores the count rests on.  ``relax``:
    the checkers below a run's last may show fainter rims (:func:`_run_explained`'s ``inner``)."""
    thr = params.threshold
    nms = peak_steps(params)
    cd = params.checker
    found = None if ahead is None else ahead.peaks.get(thr)
    caps = _peaks(cap, thr * 0.5, nms, lead=True) if found is None else found[0]
    strong = [j for j in caps if cap[j] > thr]
    margin = min([abs(cap[j] - thr) / thr for j in caps] + [1.0])
    if not strong:
        return PointCount(0, (), min(1.0, margin * 2)), []
    fulls = _peaks(full, thr * 0.5, nms, lead=True) if found is None else found[1]
    strong_full = [(float(dist[j]), float(full[j])) for j in fulls if full[j] > thr]
    shown = [d for d, _ in strong_full]
    inner: Optional[list[float]] = None
    last = -1
    for j in sorted(strong, reverse=True):  # the farthest cap whose whole run is accounted for
        n_run = max(1, int(round((float(dist[j]) - cd / 2) / cd)) + 1)
        explained = _run_explained(n_run, shown, cd, params.slot_tolerance)
        if not explained and relax:
            # inside a run, checkers touch: a contact of one colour shows little edge, so a checker
            # below the run's last may show its whole rim only at the faint pass's strength, or only
            # its far and side quadrants (its base side against the board's frame, or one of its colour)
            if inner is None:
                inner = [float(dist[i]) for i in fulls if full[i] > params.weak * thr] + \
                    [float(dist[i]) for i in caps if cap[i] > thr]
            explained = _run_explained(n_run, shown, cd, params.slot_tolerance, inner)
        if explained and \
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
    if inner is not None and not _run_explained(n1, shown, cd, params.slot_tolerance):
        conf = min(conf, params.point_knee * FAINT_RUN)   # a run shown in part by fainter rims: unsure
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


def continued_run(a: Axis, full: np.ndarray, dist: np.ndarray, colour: np.ndarray, pc: PointCount,
                  params: ReadParams = DEFAULT) -> PointCount:
    """A first row's run with the checkers that continue it though their rims barely show
    (light checkers whose sides lie against a light board where the point narrows).

    The next slot, one diameter past the last checker, holds one more when its centre shows
    the run's colour (as near the first checker's as ``params.stranger_colour`` allows, and
    :data:`RUN_COLOUR` times nearer it than to the point one slot further, so that colour is
    not the point's own), and a whole rim peaks at the slot :data:`RUN_PEAK` times above the
    contacts on either side.  Repeated up to a full row; each checker so added makes the
    count unsure."""
    cd = params.checker
    n, conf = pc.count, pc.confidence
    last = (n - 1 + 0.5) * cd
    d0, step, size = float(dist[0]), float(dist[1] - dist[0]), len(dist)
    at = lambda d: min(size - 1, max(0, int(round((d - d0) / step))))  # noqa: E731  (dist is evenly spaced)
    half = int(params.slot_tolerance * cd / 2 / step)
    first: Optional[np.ndarray] = None
    while n < L.PYRAMID[0] and last + 2 * cd <= float(dist[-1]):
        c = at(last + cd)
        lo, hi = max(0, c - half), min(size, c + half + 1)
        j = lo + int(np.argmax(full[lo:hi]))
        peak = float(full[j])
        if peak <= params.floor / RUN_PEAK:
            break   # no ring there at all (the usual case): nothing more to look at
        d = float(dist[j])
        if peak <= RUN_PEAK * max(float(full[at(d - cd / 2)]), float(full[at(d + cd / 2)])):
            break
        if first is None:
            first = colour[at(cd / 2)].astype(np.float32)
        here = colour[j].astype(np.float32)
        d_run = float(np.linalg.norm(here - first))
        d_point = float(np.linalg.norm(colour[at(d + cd)].astype(np.float32) - here))
        scale = max(40.0, float(np.linalg.norm(first)))
        if not (d_run <= params.stranger_colour * scale and d_point > RUN_COLOUR * d_run
                and d_point > params.stranger_colour * scale):
            break
        n += 1
        conf = min(conf, params.point_knee * 4 * (1 - RUN_COLOUR * d_run / d_point))
        last = d
    if n == pc.count:
        return pc
    samples = pc.samples + tuple(Checker(a.name, a.x, a.y0 + a.direction * (k + 0.5) * cd, 0.0)
                                 for k in range(pc.count, n))
    return PointCount(n, samples, float(conf), pc.count, pc.faint)


FAINT_RUN = 0.8    # a run explained only with its inner checkers' fainter rims: this share of the knee at most
RUN_PEAK = 4.0     # a continuing checker's whole rim against the contacts beside it (a ring of its size centred there)
RUN_COLOUR = 4.0   # its colour this many times nearer the run's than the point's beyond it


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


def _run_explained(n_run: int, rims: list[float], cd: float, tol: float,
                   inner: Optional[list[float]] = None) -> bool:
    """Every first-layer checker of a run shows its whole rim near its place, or lies under
    a second-layer checker (whose whole rim shows half a checker further or nearer); one
    may be missed in a long run.  ``inner``: rims (fainter ones too) that also show the
    checkers below the run's last."""
    missed = 0
    for k in range(n_run):
        c = cd * (k + 0.5)
        seen = rims if inner is None or k == n_run - 1 else inner + rims
        missed += not any(abs(d - c) <= tol * cd for d in seen)
    return missed <= (1 if n_run >= 4 else 0)


def _same_colour(colour: np.ndarray, dist: np.ndarray, j: int, cd: float, tol: float) -> bool:
    """The colour at candidate ``j`` matches the first checker's (relative BGR distance)."""
    if tol >= 1e6:
        return True  # the check is off (the default: glare and shadows move colours along a stack)
    i0 = int(np.argmin(np.abs(dist - cd / 2)))
    a, b = colour[i0].astype(np.float32), colour[j].astype(np.float32)
    return float(np.linalg.norm(a - b)) <= tol * max(40.0, float(np.linalg.norm(a)), float(np.linalg.norm(b)))

