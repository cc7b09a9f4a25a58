"""Stage 2, a second look across the board: checkers whose faces look like their bare point.

A board's points of one colour are printed (inlaid, etched) alike: every bare point of a row's
colour shows, slot by slot from its base, the same colour.  A checker covers that with a round
face of one of the two checker colours.  A stack whose faces show just its own point's colour
(the colour its row's bare points of that colour show at the same slots) rests on its rims
alone: a pattern, a grain or a dot at the tip may make those, so its count is unsure unless
the rims were clear.  How near "just" is, is measured on the board itself: against the
difference between its two point colours at the same slot.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .params import ReadParams
from .rims import Profiles, axes
from .stacks import PointCount

LIKE = 0.25       # a face this near its bare point's colour (a share of the two point colours' difference) looks bare
CLEAR = 0.5       # the raw rim margin a stack of such faces needs to be sure (the reader's knee for others)

DEBUG: Optional[list[tuple[str, int, list[float]]]] = None   # (point, count, nearness per slot)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """BGR rows (n x 3, uint8) in Lab, float32."""
    return cv2.cvtColor(np.ascontiguousarray(bgr, np.uint8)[None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)


def face_nearness(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> dict[str, list[float]]:
    """Per point read with checkers (and a row's bare points of both colours to compare with):
    for each first-row slot, how near its centre's colour lies to the bare points' of its own
    colour at that slot, as a share of the difference between the row's two point colours there
    (0: just the bare point's colour; 1 or more: as far as the other point colour)."""
    out: dict[str, list[float]] = {}
    if prof.colour is None:
        return out
    cd = params.checker
    idx = {a.name: i for i, a in enumerate(axes(params))}
    for row in ("top", "bottom"):
        bare = {par: [f"{row}{i}" for i in range(par, 12, 2) if per_axis[f"{row}{i}"].count == 0] for par in (0, 1)}
        if not bare[0] or not bare[1]:
            continue
        for i in range(12):
            name = f"{row}{i}"
            pc = per_axis[name]
            if pc.count == 0:
                continue
            near = []
            for k in range(min(pc.count, L.PYRAMID[0])):
                j = int(np.argmin(np.abs(prof.dist - (k + 0.5) * cd)))
                own = np.median(_lab(np.array([prof.colour[idx[b], j] for b in bare[i % 2]])), axis=0)
                other = np.median(_lab(np.array([prof.colour[idx[b], j] for b in bare[1 - i % 2]])), axis=0)
                here = _lab(prof.colour[idx[name], j][None])[0]
                contrast = max(10.0, float(np.linalg.norm(own - other)))
                near.append(float(np.linalg.norm(here - own)) / contrast)
            out[name] = near
    return out


def bare_points(prof: Profiles, per_axis: dict[str, PointCount], params: ReadParams) -> dict[str, PointCount]:
    """``per_axis`` with the stacks whose faces all look like their own bare point's colour
    unsure unless their rims were clear (a raw margin of ``CLEAR``, not the usual knee)."""
    near = face_nearness(prof, per_axis, params)
    if DEBUG is not None:
        for n, v in near.items():
            DEBUG.append((n, per_axis[n].count, [round(x, 2) for x in v]))
    out = dict(per_axis)
    for name, v in near.items():
        if max(v) < LIKE:
            pc = per_axis[name]
            out[name] = replace(pc, confidence=pc.confidence * params.point_knee / CLEAR)
    return out
