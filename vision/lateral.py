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
314 -> 317 of 360, none wrong.

The absolute reading (:func:`column_shift`) lays a quarter's points' axes beside the layout's
columns only where both its triangles' and stacks' symmetry and the rims of the stacks it found
unshifted say so, by 0.2 pw or more (its sideways search reaches 0.1 pw either way), by the smaller
of the two.  Symmetry alone misleads it (unseen2's print3d: -0.4 pw where its stacks lie +0.4) and
shifts under 0.2 pw change its colour samples more than its rims (``bench/vision_real.py --cases 0
--modes plain``: symmetry alone, 1085 -> 1074 of 1213 points, unseen2 159 -> 147; so: 1085 -> 1087,
unseen3 136 -> 137, unseen6 dev 205 -> 206, no set lower).  Only while no look of the board is learned
(:meth:`vision.reader.BoardReader._on_axes`): under a learned look it only moved the absolute reading's
tilts, and the table's games on real boards lost true plays.

Pure: a rectified view (and the reading's thresholds) in, shifts out.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

import numpy as np

from .checkers import pick_checkers
from .params import ReadParams
from .rectify import View
from .rims import Profiles, axes, ring_profiles, rims_across
from .slots import SlotGeometry, _core, patches, slot_geometry

SHIFTS = (-0.4, -0.3, -0.2, -0.1, 0.1, 0.2, 0.3, 0.4)  # sideways shifts tried (pw) besides none
GAIN = 0.85     # ... one taken only when its quarter's slots look this much more symmetric than at none
SLOTS = 3       # the slots from each point's base compared (a triangle's widest part, a stack's first checkers)
_WEIGHTS = np.array([0.5, 1.0, 1.0], np.float32)   # Lab, lightness weighted half (as slots._dist)
COLUMN_LEAST = 0.2  # pw: the least shift the absolute reading's columns take (its search reaches 0.1 either way)
ACROSS = tuple(round(0.1 * i, 1) for i in range(-4, 5))   # pw: the offsets a found stack's rims are scored at
STACK_SLOTS = 5     # a found stack's first checkers whose rims are scored
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


def stack_lateral(view: View, params: ReadParams, prof: Optional[Profiles] = None) -> tuple[float, ...]:
    """Per quarter, the sideways offset of :data:`ACROSS` (pw) at which the stacks the absolute
    reading finds on the layout's columns (``prof``: the view's profiles with ``params``, when made)
    show their first :data:`STACK_SLOTS` checkers' whole rims best on average; 0 where it finds none."""
    found = pick_checkers(prof or ring_profiles(view, params), params).per_axis
    full, dist = rims_across(view, replace(params, lateral=ACROSS))
    near = int(round(0.2 / params.step))   # each checker's rim looked for this many steps either way
    per: list[list[np.ndarray]] = [[], [], [], []]
    for k, a in enumerate(axes(params)):
        n = min(found[a.name].count, STACK_SLOTS)
        col, bottom = divmod(k, 2)   # (the axes run top0, bottom0, top1, ...)
        q = 2 * bottom + int(col >= 6)
        at = [int(np.argmin(np.abs(dist - params.checker * (h + 0.5)))) for h in range(n)]
        if at:
            per[q].append(np.mean([full[k, max(0, j - near):j + near + 1].max(axis=0) for j in at], axis=0))
    return tuple(ACROSS[int(np.argmax(np.mean(v, axis=0)))] if v else 0.0 for v in per)


def column_shift(view: View, params: ReadParams, height: float,
                 prof: Optional[Profiles] = None) -> tuple[float, float, float, float]:
    """Per quarter, how far sideways (pw) the absolute reading lays its points' axes: where
    :func:`quarter_lateral` shifts the quarter's slots by :data:`COLUMN_LEAST` or more and
    :func:`stack_lateral` finds its stacks' rims best the same way, the smaller of the two (when that
    is :data:`COLUMN_LEAST` or more); else 0."""
    sym = quarter_lateral(view, slot_geometry(params.checker, height))
    if not any(abs(s) >= COLUMN_LEAST - 1e-6 for s in sym):
        return (0.0, 0.0, 0.0, 0.0)
    rim = stack_lateral(view, params, prof)
    both = [min(abs(s), abs(r)) if s * r > 0 else 0.0 for s, r in zip(sym, rim)]   # the same way: the smaller
    out = [float(np.sign(s)) * m if m >= COLUMN_LEAST - 1e-6 else 0.0 for s, m in zip(sym, both)]
    return (out[0], out[1], out[2], out[3])


__all__ = ["ACROSS", "COLUMN_LEAST", "GAIN", "SHIFTS", "SLOTS", "STACK_SLOTS", "column_shift", "quarter_lateral",
           "stack_lateral"]
