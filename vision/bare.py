"""Stage 2, a second look across the board: each point against the bare points of its colour.

A board's points of one colour are printed (inlaid, etched) alike: every bare point of a row's
colour shows, slot by slot from its base, the same colour.  A checker covers that with a round
face of one of the two checker colours.  So, per row, the points read bare give each slot's
bare colour for both point colours (:class:`BareLook`), and:

- a stack whose faces all show just its own point's bare colour rests on its rims alone (a
  pattern, a grain or a dot at the tip makes rims too): it is sure only when its rims were
  clear (:data:`CLEAR`, :func:`doubt_bare_faces`), and it is that pattern, read empty (unsure),
  when its rims do not stand :data:`PATTERN` times above the rims the bare points of its colour
  show themselves (the pattern repeats on every point of a colour; a checker's rim is its own);
- a board none of whose 24 points reads bare is not a backgammon position (real games never
  cover every point; random spreads of 30 checkers 2 times in 3,000): its points' pattern is what
  each row's points of a colour show alike, and a stack whose rims do not stand :data:`PATTERN`
  times above its colour's typical point there is read empty (unsure) too (an etched board's
  busy points show ring-like edges every half checker, two "checkers" on every point);
- a stack grows from the point's base in checker pitch: the next slot of a short row that
  shows the row's own face colour, plainly not the bare point's, and a ring there, holds one
  more checker though its rim is below the board's threshold (light on a light cloth,
  :func:`grow_stacks`);
- and the other way round, a point read empty is a bare point of its colour only as far as its
  rims are that colour's pattern: one whose strongest rim stands :data:`PATTERN` times above the
  pattern (the bare points of its row and colour, itself among them) holds something the count
  missed (a dark checker on a dark point, its rim faint against the board's white checkers) when
  a checker's rim closes its base slot on the far side too (a pattern, a hand's shadow or a
  triangle's edge leaves it open), and is not surely empty (:func:`doubt_bare_points`).

How near "just" and "plainly" are is measured on the board itself: against the difference
between its two point colours at the same slot.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import cv2
import numpy as np

from . import layout as L
from .params import DEFAULT, ReadParams
from .looks import OPEN, far_rims
from .rims import Profiles, axes
from .stacks import Checker, PointCount

LIKE = 0.25       # a face this near its bare point's colour (a share of the two point colours' difference) looks bare
CLEAR = 0.5       # the raw rim margin a stack of such faces needs to be sure (the reader's knee for others)
PLAIN = 0.5       # a slot this far from its bare colour (the same share) plainly shows something else
FACE = 4.0        # ... and this many times nearer the row's first face than the bare colour: the same face
RING = 0.5        # a ring there of this share of the board's threshold at least
PATTERN = 2.0     # a stack's strongest rim under this many times its colour's pattern's (bare points') is that pattern
SLOTS = L.PYRAMID[0]


@dataclass(frozen=True)
class BareLook:
    """One board's colours per slot: ``colour[a, k]`` the centre colour (Lab, its lightness
    weighed by ``l_weight``) of axis ``a``'s
    slot ``k``; ``own[a, k]`` the bare colour of axis ``a``'s row and parity there (the median
    over the row's points of that parity read bare; NaN when there are none) and ``contrast[a, k]``
    the distance between the bare colours of its row's two parities (NaN when one has none)."""

    colour: np.ndarray
    own: np.ndarray
    contrast: np.ndarray
    slot: np.ndarray          # the profile index of each slot's centre
    bare: np.ndarray | None = None     # each axis read bare
    whole_board: bool = False          # no point reads bare: the pattern is its colour's typical point's


@functools.lru_cache(maxsize=1)
def _places() -> tuple[np.ndarray, np.ndarray]:
    """Each axis's row (0 top, 1 bottom) and parity, in :func:`vision.rims.axes` order."""
    names = [a.name for a in axes(DEFAULT)]
    row = np.array([0 if n.startswith("top") else 1 for n in names])
    par = np.array([int(n[3 if r == 0 else 6:]) % 2 for n, r in zip(names, row)])
    return row, par


def bare_look(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> BareLook | None:
    """The board's bare colours per row, parity and slot; None without colour profiles."""
    if prof.colour is None:
        return None
    cd = params.checker
    d0, step = float(prof.dist[0]), float(prof.dist[1] - prof.dist[0])
    slot = np.clip(np.rint(((np.arange(SLOTS) + 0.5) * cd - d0) / step).astype(int), 0, len(prof.dist) - 1)
    bgr = np.ascontiguousarray(prof.colour[:, slot], np.uint8)
    colour = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
    colour[..., 0] *= params.l_weight      # light falling off across the board moves lightness most
    row, par = _places()
    bare = np.array([per_axis[a.name].count == 0 for a in axes(params)])
    med = np.full((2, 2, SLOTS, 3), np.nan, np.float32)
    for r in (0, 1):
        for p in (0, 1):
            m = bare & (row == r) & (par == p)
            k = int(m.sum())
            if k:
                srt = np.sort(colour[m], axis=0)
                med[r, p] = (srt[(k - 1) // 2] + srt[k // 2]) / 2     # the median, as np.median gives it
    contrast = np.maximum(10.0, np.linalg.norm(med[:, 0] - med[:, 1], axis=2))   # NaN stays NaN
    return BareLook(colour, med[row, par], contrast[row], slot, bare, not bool(bare.any()))


def pattern_rims(prof: Profiles, per_axis: dict[str, PointCount], bare: np.ndarray,
                 params: ReadParams) -> tuple[np.ndarray, np.ndarray]:
    """Per axis: its strongest whole rim where its stack stands (up to a fifth of a checker past
    its first row's last slot; the whole profile for a point read bare), and its colour's pattern
    rim in its row: the (lower) median over that row's bare points of that parity of their
    strongest rims (NaN when there are none); on a board with no bare point at all, that over
    all the row's points of that parity (their patterns repeat; so would a checker's, but no
    real position covers every point)."""
    cd = params.checker
    size = len(prof.dist)
    counts = [per_axis[a.name].count for a in axes(params)]
    reach = [(min(n, SLOTS) + 0.2) * cd if n else np.inf for n in counts]
    upto = np.minimum(np.searchsorted(prof.dist, reach, side="right"), size) - 1
    rim = np.maximum.accumulate(prof.full, axis=1)[np.arange(len(upto)), np.maximum(upto, 0)]
    rims, bares = rim.tolist(), bare.tolist()
    pattern = [np.nan] * len(rims)
    covered = not any(bares)
    for grp in _groups():
        ref = sorted(rims[j] for j in grp if covered or bares[j])
        if ref:   # the lower median: a "bare" point may hold a checker missed, or a die
            for j in grp:
                pattern[j] = ref[(len(ref) - 1) // 2]
    return rim, np.array(pattern)


@functools.lru_cache(maxsize=1)
def _groups() -> tuple[list[int], ...]:
    """The axes of each row's points of one parity (colour), in :func:`vision.rims.axes` order."""
    row, par = _places()
    return tuple(np.flatnonzero((row == r) & (par == p)).tolist() for r in (0, 1) for p in (0, 1))


def doubt_bare_faces(prof: Profiles, look: BareLook, per_axis: dict[str, PointCount],
                     params: ReadParams) -> dict[str, PointCount]:
    """``per_axis`` with the stacks whose every face lies near its own point's bare colour
    (:data:`LIKE`) made unsure unless their rims were clear (a raw margin of :data:`CLEAR`,
    not the usual knee), and read empty (unsure) when their rims do not stand :data:`PATTERN`
    times above their colour's pattern (:func:`pattern_rims`); on a board with no bare point,
    every stack whose rims do not (:func:`is_pattern`).  The rims are looked at only when
    some stack is in question (most boards: none)."""
    out = dict(per_axis)
    near = np.linalg.norm(look.colour - look.own, axis=2) / look.contrast     # NaN without both bare colours
    ax = axes(params)
    doubted = [j for j, a in enumerate(ax) if per_axis[a.name].count and (
        look.whole_board or float(near[j, :min(per_axis[a.name].count, SLOTS)].max()) < LIKE)]   # False for NaN
    if not doubted:
        return out
    bare = look.bare if look.bare is not None else np.array([per_axis[a.name].count == 0 for a in ax])
    rim, pattern = pattern_rims(prof, per_axis, bare, params)
    for j in doubted:
        pc = per_axis[ax[j].name]
        stands = is_pattern(float(rim[j]), float(pattern[j]))
        if stands is not None:
            out[ax[j].name] = PointCount(0, (), params.point_knee * min(0.9, 1.0 - stands))
        elif not look.whole_board:
            out[ax[j].name] = replace(pc, confidence=pc.confidence * params.point_knee / CLEAR)
    return out


def is_pattern(rim: float, pattern: float) -> float | None:
    """How far a stack's strongest rim stands above its colour's pattern rim, as a share of
    :data:`PATTERN` (0..1), when it stands less than that (its rims are the pattern's); None
    when it stands out as a checker's or there is no pattern to compare with (NaN)."""
    ratio = rim / max(1e-6, pattern)    # NaN without a pattern
    return ratio / PATTERN if ratio < PATTERN else None


def grow_stacks(prof: Profiles, look: BareLook, per_axis: dict[str, PointCount],
                params: ReadParams) -> dict[str, PointCount]:
    """``per_axis`` with each short first row (1..4) continued while its next slot shows its
    first face's colour (:data:`FACE` times nearer it than the bare colour), plainly not the
    bare point's (:data:`PLAIN`), with a ring there (:data:`RING`); each checker so added
    makes the count unsure."""
    out = dict(per_axis)
    ring_min = RING * params.threshold
    cd = params.checker
    for j, a in enumerate(axes(params)):
        pc = per_axis[a.name]
        if not 0 < pc.count < SLOTS or pc.faint or not look.contrast[j, 0] > 0:
            continue
        n = pc.count
        while n < SLOTS:
            here = look.colour[j, n]
            d_bare = float(np.linalg.norm(here - look.own[j, n]))
            s = int(look.slot[n])
            if not (d_bare >= PLAIN * float(look.contrast[j, n])
                    and FACE * float(np.linalg.norm(here - look.colour[j, 0])) < d_bare
                    and float(prof.full[j, max(0, s - 2):s + 3].max()) >= ring_min):
                break
            n += 1
        if n > pc.count:
            added = tuple(Checker(a.name, a.x, a.y0 + a.direction * (k + 0.5) * cd, 0.0) for k in range(pc.count, n))
            out[a.name] = PointCount(n, pc.samples + added, min(pc.confidence, params.point_knee * 0.8), pc.count)
    return out


def doubt_bare_points(prof: Profiles, bare: np.ndarray, per_axis: dict[str, PointCount],
                      params: ReadParams) -> dict[str, PointCount]:
    """``per_axis`` with each point read empty whose strongest whole rim stands :data:`PATTERN`
    times or more above its colour's pattern rim (the lower median of the strongest rims of its
    row's points of its colour read bare, ``bare``) made unsure, the more so the higher it stands:
    every bare point of a colour shows that colour's pattern alike, a checker's rim is its own.
    (A point's rim beside the board's threshold is :func:`vision.looks.doubt_empty_rims`'.)"""
    rim = prof.full.max(axis=1).tolist()
    bares = bare.tolist()
    ax = axes(params)
    standing: dict[int, float] = {}
    for grp in _groups():
        ref = sorted(rim[j] for j in grp if bares[j])
        if not ref:
            continue
        pattern = max(1e-6, ref[(len(ref) - 1) // 2])
        for j in grp:
            if per_axis[ax[j].name].count == 0 and rim[j] >= PATTERN * pattern:
                standing[j] = rim[j] / pattern
    if not standing or prof.grad is None:
        return per_axis
    # a checker at the base shows its own rim on its far side (the point's bare face shows none)
    which = list(standing)
    cd = params.checker
    closed = far_rims(prof, np.array([[ax[j].x, ax[j].y0 + ax[j].direction * cd / 2] for j in which]),
                      np.array([ax[j].direction for j in which]), params) >= OPEN
    out = dict(per_axis)
    for j in np.array(which)[closed].tolist():
        pc = per_axis[ax[j].name]
        out[ax[j].name] = replace(pc, confidence=min(pc.confidence, params.point_knee * PATTERN / standing[j] / 2))
    return out


def bare_points(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> dict[str, PointCount]:
    """The second look against the bare points: short rows grown, bare-looking stacks doubted,
    empty points standing out from their colour's bare points doubted."""
    look = bare_look(prof, per_axis, params)
    if look is None:
        return per_axis
    out = doubt_bare_faces(prof, look, grow_stacks(prof, look, per_axis, params), params)
    assert look.bare is not None
    return doubt_bare_points(prof, look.bare, out, params)
