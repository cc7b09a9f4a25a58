"""Where each quarter's checkers lie sideways: the slots laid on the points' own axes.

The corners a table is given (clicked by hand, markers a little off, a lens that bows the board's
edges) put the points' axes a fraction of a point width off where the board shows them, and not by
the same amount in each quarter: on greyfelt (a labelled real photo) the left half's slots lay a
third of a point width left of its triangles and stacks.  A slot laid off its point holds part of
the next point, and a look borrowed from another point (:mod:`vision.self_reference`) then does
not fit it.  A triangle and a stack of checkers are both symmetric about their point's axis, bare
or taken, whatever the board: so each quarter's slots are shifted sideways to where its points'
first slots look most alike mirrored left to right (:func:`quarter_lateral`).

Measured with ``bench/vision_real.py --cases 5 --modes self`` (the frame teaching itself, which
borrows every look from other points; 2026-12-04): true plays on unseen3a 17 -> 38 of 40, unseen4
13 -> 16, unseen2 31 -> 28 (mahogany's top left taken 0.1 pw over: 30 -> 28), the tuned sets
314 -> 317 of 360, none wrong.  Pure: a rectified view in, shifts out.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from .rectify import View
from .slots import SlotGeometry, _core, patches, slot_geometry

SHIFTS = (-0.4, -0.3, -0.2, -0.1, 0.1, 0.2, 0.3, 0.4)  # sideways shifts tried (pw) besides none
GAIN = 0.85     # ... one taken only when its quarter's slots look this much more symmetric than at none
SLOTS = 3       # the slots from each point's base compared (a triangle's widest part, a stack's first checkers)
_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)   # Lab, lightness weighted half (as slots._dist)
_QUARTER = np.array([(p // 12) * 2 + int(p % 12 >= 6) for p in range(24)])  # top left, top right, bottom ...


def _asymmetry(view: View, geo: SlotGeometry, shift: float, slots: int) -> np.ndarray:
    """Per quarter, how far its points' first ``slots`` slots differ from themselves mirrored left
    to right (mean Lab difference), with every slot shifted ``shift`` pw sideways."""
    at = slot_geometry(geo.side, geo.height, geo.pitch, geo.start, (shift,) * 4)
    per = at.per_point
    core = _core(patches(view, at))[:24 * per]
    a = ((np.abs(core - core[:, :, ::-1, :]) * _WEIGHTS).sum(axis=3).mean(axis=(1, 2))).reshape(24, per)
    by_point = a[:, :min(slots, per)].mean(axis=1)
    return np.array([by_point[_QUARTER == q].mean() for q in range(4)])


def quarter_lateral(view: View, geo: SlotGeometry, shifts: Sequence[float] = SHIFTS, gain: float = GAIN,
                    slots: int = SLOTS) -> tuple[float, float, float, float]:
    """Per quarter (top left, top right, bottom left, bottom right as the view shows them), the
    sideways shift (pw, positive to the right) of ``shifts`` at which its points' first ``slots``
    slots look most symmetric, when that is ``gain`` times their asymmetry unshifted or less;
    else 0."""
    plain = _asymmetry(view, geo, 0.0, slots)
    best = plain.copy()
    out = [0.0, 0.0, 0.0, 0.0]
    for shift in shifts:
        a = _asymmetry(view, geo, shift, slots)
        for q in range(4):
            if a[q] < best[q] and a[q] <= gain * plain[q]:
                best[q], out[q] = a[q], float(shift)
    return (out[0], out[1], out[2], out[3])


__all__ = ["GAIN", "SHIFTS", "SLOTS", "quarter_lateral"]
