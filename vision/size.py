"""The checkers' size, measured on the board: how far apart the rims of a stack lie.

Sets differ (checkers from about 0.8 to 1.07 of a point's width on the labelled real boards),
and the reader counts a stack by where its rims lie (:mod:`vision.stacks`).  Rims are found with
rings of the size the reader assumes; when those find too few spacings, rings of other sizes
look too (:func:`other_sizes`: rings a tenth too small missed nearly every rim of a real felt
board whose checkers fill the point).  Checkers in a point's first row touch
one another from the base outwards, so their whole-rim peaks lie one diameter apart; the
median of those spacings over the board is the diameter (each spacing varies by about 0.07
pw as checkers sit a little apart, so it takes many).  Fewer than :data:`MIN_GAPS` spacings
say nothing; a measurement within :data:`SNAP` of the layout's diameter, or within
:data:`SURE` standard errors of it, is taken as the layout's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import numpy as np

from . import layout as L
from .read import Profiles, ReadParams, _peaks, ring_profiles
from .rims import rim_maps, rim_rows
from .rectify import View

MIN_GAPS = 10                # spacings needed for a measurement (one frame of the start position has 22)
LEARN_GAPS = 60              # spacings, from different boards, after which a reader keeps its measurement
LEARN_EVERY = 10             # frames between looks while learning (a look costs a third of a read)
SPACING = (0.65, 1.1)        # pw: spacings counted as one checker to the next (a second layer's lie at half)
FIRST_ROW = 4.6              # pw from the base: where a first row of 5 ends (second-layer rims lie beyond its 2nd)
SNAP = 0.035                 # a measurement this close to the layout's diameter is taken as it ...
SURE = 3.0                   # ... as is one within this many of its standard errors (few spacings say little)
SEARCH = (0.8, 1.0, 1.1)     # pw: the other diameters looked with when the rings' own find too few spacings
SEARCHES = 3                 # a reader looks with them on its first this many frames that need it (each costs
                             # three reads' rims: a board of the layout's checkers with few stacks needs none)


def rim_spacings(prof: Profiles, params: ReadParams = ReadParams()) -> list[float]:
    """Spacings (pw) between successive whole-rim peaks of the first rows, each peak placed
    between profile samples by a parabola through its top three."""
    return row_spacings(prof.full, prof.dist, params)


def row_spacings(full: np.ndarray, dist: np.ndarray, params: ReadParams = ReadParams()) -> list[float]:
    """:func:`rim_spacings` of the whole-rim scores ``full`` at distances ``dist`` (a profile's, or
    :func:`vision.rims.rim_rows`')."""
    tops = full.max(axis=1)
    tops = tops[tops > params.threshold]
    thr = (max(params.threshold, params.relative * float(np.quantile(tops, params.relative_q))) if len(tops)
           else params.threshold)
    nms = max(1, int(round(0.5 * L.CHECKER / params.step)))
    step = float(dist[1] - dist[0])
    gaps: list[float] = []
    for row in full:
        at = []
        for j in sorted(_peaks(row, thr, nms)):
            if dist[j] > FIRST_ROW or not 0 < j < len(row) - 1:
                continue
            a, b, c = float(row[j - 1]), float(row[j]), float(row[j + 1])
            den = a - 2 * b + c
            at.append(float(dist[j]) + (0.5 * (a - c) / den * step if den < 0 else 0.0))
        gaps += [g for g in np.diff(at).tolist() if SPACING[0] <= g <= SPACING[1]]
    return gaps


def frame_spacings(view: View, params: ReadParams = ReadParams(), prof: Optional[Profiles] = None) -> list[float]:
    """One frame's rim spacings (:func:`rim_spacings`), looked for with rings of ``params.checker``
    (``prof``: ``view``'s profiles with ``params`` when already made); when they are fewer than
    :data:`MIN_GAPS`, looked for with rings of other sizes too (:func:`other_sizes`)."""
    own = rim_spacings(prof or ring_profiles(view, params), params)
    return own if len(own) >= MIN_GAPS else other_sizes(view, params, own)


def other_sizes(view: View, params: ReadParams, own: list[float]) -> list[float]:
    """The rim spacings of ``view`` found with rings of other sizes than ``params.checker``'s,
    whose own found ``own`` (too few to measure with).

    Rings a tenth smaller than the checkers miss most of their rims: on a felt board whose
    checkers fill a point's width, rings of the layout's size found one spacing of a dozen, so
    the size was never measured and nothing was read.  So the rims are looked for with rings of
    each size in :data:`SEARCH`; the size that finds the most is looked with once more, at the
    diameter its spacings measure.  Those spacings are taken when they are enough to measure
    with and at least twice as many as the rings' own found (one or two more are faint rims'
    scatter: on a board of 0.9 checkers, rings of 1.0 found 11 spacings to the layout's 9,
    measuring them a tenth too small); else ``own``."""
    best, at = own, None
    maps = rim_maps(view)   # (the same for every size: made once)
    for size in SEARCH:
        p = replace(params, checker=size)
        gaps = row_spacings(*rim_rows(view, p, maps), p)
        if len(gaps) > len(best):
            best, at = gaps, size
    if at is not None:
        cd = float(np.median(best))
        if abs(cd - at) > SNAP:
            p = replace(params, checker=cd)
            gaps = row_spacings(*rim_rows(view, p, maps), p)
            if len(gaps) > len(best):
                best = gaps
    # a few more spacings with other rings are the scatter of faint rims, not a size told apart
    return best if len(best) >= max(MIN_GAPS, 2 * len(own)) else own


def measure_checker(gaps: list[float]) -> Optional[float]:
    """The checkers' diameter (pw) from rim spacings (:func:`rim_spacings`, from one frame
    or several), or None when there are too few."""
    if len(gaps) < MIN_GAPS:
        return None
    g = np.asarray(gaps)
    cd = float(np.median(g))
    spread = 1.4826 * float(np.median(np.abs(g - cd)))      # one spacing's scatter (robust sigma)
    doubt = SURE * 1.25 * spread / np.sqrt(len(g))          # the median's: 1.25 sigma / sqrt(n)
    return L.CHECKER if abs(cd - L.CHECKER) <= max(SNAP, doubt) else cd
