"""The frame band's learned look: the strip around the playing area that a hand must cross.

A hand or an arm reaching over the board crosses the board's frame on its way, even where over
the points it looks like a checker (a dark sleeve) or an empty point.  The frame band is cut into
1-pw segments (:func:`vision.occlusion.band_segments`: per segment its mean BGR and grey std),
and the table keeps the band as it looked in its last :data:`BAND_KEEP` known frames, hinges,
fittings and a scoreboard lying there included.  A segment now further than :data:`BAND_TOL`
(or :data:`BAND_STD_TOL` less even) from every kept look, in the frame's light, is crossed; a
foreign slot within :data:`REACH` of a crossing is then taken for the arm's
(:meth:`vision.memory.BoardMemory.covered`).

Pure: arrays in, arrays out.  The kept looks live in :class:`vision.memory.BoardMemory`'s
``bands`` (and its file, :mod:`vision.memory_file`); the frame's light is the one it fitted on
its slots (:class:`vision.relight.Light`), carried to each segment by the slot nearest it.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from . import layout as L
from .occlusion import OcclusionParams, _band_segments, band_segments
from .rectify import View
from .relight import Light

__all__ = ["BAND_KEEP", "BAND_STD_TOL", "BAND_TOL", "CLEAR", "REACH", "band_now", "band_places", "carry_bands",
           "crossings", "keep", "nearest_slots", "within_reach"]

BAND_KEEP = 5        # the frame band's looks kept (the last known frames')
BAND_TOL = 24.0      # grey levels a band segment may stray from its learned look (after the light's shift)
BAND_STD_TOL = 14.0  # ... and its evenness (grey std) rise
REACH = 2.5          # pw from where something crosses the band within which an arm lies on a slot (a hand's width)


def band_places(params: OcclusionParams = OcclusionParams()) -> np.ndarray:
    """(segments, 2): where each 1-pw segment of :func:`vision.occlusion.band_segments` lies
    (layout pw, on the playing area's edge), in the same order (top, bottom, left, right)."""
    out = []
    skip = params.corner_skip
    for horizontal, at, length in ((True, 0.0, L.WIDTH), (True, L.HEIGHT, L.WIDTH),
                                   (False, 0.0, L.HEIGHT), (False, L.WIDTH, L.HEIGHT)):
        along = skip + 0.5 + np.arange(max(0, int(length - 2 * skip)))
        out += [(a, at) if horizontal else (at, a) for a in along]
    return np.array(out, np.float64).reshape(-1, 2)


CLEAR = 0.1   # pw: the least width of a row's band moved out beyond its checkers (the view's margin allowing)


def band_now(view: View, begins: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The frame band's segments in ``view`` as one (n, 4) array (mean BGR, grey std), in the
    order of :func:`band_places`.  ``begins``: where each row's (top, bottom) checkers begin, pw from
    the points' base (:attr:`vision.slots.SlotGeometry.start`).  Seen obliquely a checker's face
    stands off the board, and a row whose checkers begin before the base (a third of a checker on
    unseen6's image025, image041, image045) overhangs the band: a checker coming to or leaving a base
    there changed it, and the table, finding a slot it could not place beside it, took it for a hand
    (no reading).  That row's edge is looked at beyond its checkers, as far out as the view reaches
    (at least :data:`CLEAR` wide)."""
    params = OcclusionParams()
    b0, b1 = params.band
    moved = {}   # row -> its band beyond the checkers
    for r, begin in enumerate(begins):
        if begin < 0:
            hi = min(b1 - begin, view.margin - 0.02)
            moved[r] = (min(b0 - 2 * begin, hi - CLEAR), hi)
    if not moved:
        return np.concatenate(band_segments(view, params)).astype(np.float32)
    every = _band_segments(view, (params.band, *moved.values()), params)   # the bands in one pass
    segs = every[0]
    for i, r in enumerate(moved):
        segs[r] = every[1 + i][r]
    return np.concatenate(segs).astype(np.float32)


def keep(kept: list[np.ndarray], band: np.ndarray) -> list[np.ndarray]:
    """The band's looks kept once a known frame showed ``band``: the last :data:`BAND_KEEP`,
    started afresh when the band's segments changed in number."""
    if kept and kept[-1].shape != band.shape:
        kept = []
    return (kept + [band])[-BAND_KEEP:]


_NEAREST: list[tuple[np.ndarray, np.ndarray]] = []   # the last slot centres asked about, and their answer


def nearest_slots(centres: np.ndarray) -> np.ndarray:
    """Per frame band segment (:func:`band_places`), the slot (of ``centres``, pw) nearest it,
    whose light factor it takes; kept for the last ``centres`` array asked about (a table's slot
    geometry lasts, and a frame in a moved light asks again)."""
    if _NEAREST and _NEAREST[0][0] is centres:
        return _NEAREST[0][1]
    at = band_places()
    c = centres.astype(np.float64)
    near = np.argmin(np.hypot(at[:, None, 0] - c[None, :, 0], at[:, None, 1] - c[None, :, 1]), axis=1)
    near.flags.writeable = False
    _NEAREST[:] = [(centres, near)]
    return near


def _carry(band: np.ndarray, light: Light, near: np.ndarray) -> np.ndarray:
    """A kept frame band's segments (n, 4: mean BGR, grey std) as ``light`` shows them: the
    colours carried with the field of the slot nearest each segment (``near``:
    :func:`nearest_slots`), the std with its grey."""
    if len(near) != len(band):
        return band
    out = band.copy()
    out[:, :3] = light.carry(band[:, :3], light.field[near])
    out[:, 3] *= out[:, :3].mean(axis=1) / np.maximum(band[:, :3].mean(axis=1), 1.0)
    return out


def carry_bands(kept: list[np.ndarray], light: Light, centres: np.ndarray) -> list[np.ndarray]:
    """The kept band looks as ``light`` shows them (the light fitted on the slots at ``centres``):
    a lesson in a moved light carries them, as it does the slots' looks."""
    near = nearest_slots(centres)
    return [_carry(band, light, near) for band in kept]


def crossings(now: np.ndarray, kept: list[np.ndarray], light: Optional[Light], centres: np.ndarray) -> np.ndarray:
    """Per 1-pw segment of the board's frame band (:func:`band_places`), whether something
    crosses it, as this table's band looked in its known frames: a hand or an arm reaching
    over the board must cross it, even where over the points it looks like a checker (a dark
    sleeve) or an empty point.  Each segment (``now``, :func:`band_now`) is compared with its
    looks in the last known frames (``kept``: hinges, fittings and a scoreboard lying there are
    learned), carried into the frame's light when it moved (``light``, fitted on the slots at
    ``centres``; None: steady; the tolerances grow with a brighter light, as every difference
    does), after the light's overall shift; one further than :data:`BAND_TOL` (or
    :data:`BAND_STD_TOL` less even) from every kept look is crossed."""
    near = nearest_slots(centres) if light is not None and kept else None
    best = None
    for band in kept:
        if band.shape != now.shape:
            continue
        grow = np.ones(len(band), np.float32)
        if light is not None:   # the band as the frame's light shows it
            assert near is not None
            lit = _carry(band, light, near)
            grow = np.maximum(1.0, lit[:, :3].mean(axis=1) / np.maximum(band[:, :3].mean(axis=1), 1.0))
            band = lit
        diff = now[:, :3] - band[:, :3]
        off = np.abs(diff - np.median(diff, axis=0)).max(axis=1) / (BAND_TOL * grow)
        dist = np.maximum(off, (now[:, 3] - band[:, 3]) / (BAND_STD_TOL * grow))
        best = dist if best is None else np.minimum(best, dist)
    return np.zeros(len(now), bool) if best is None else best > 1.0


def within_reach(crossed: np.ndarray, slots: np.ndarray) -> bool:
    """Whether any of ``slots`` (centres, pw) lies within :data:`REACH` of a segment ``crossed``
    (:func:`crossings`): a hand reaching over the points crosses the band and lies on the slots
    next to it."""
    if not crossed.any() or not len(slots):
        return False
    at = band_places()[crossed]
    slots = slots.astype(np.float64)
    gap = np.hypot(slots[:, None, 0] - at[None, :, 0], slots[:, None, 1] - at[None, :, 1])
    return bool(gap.min() <= REACH)
