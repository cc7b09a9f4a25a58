"""Reading a rectified board: checkers found as circles, counted per point, coloured.

A chain of pure stages on a :class:`vision.rectify.View`, each its own module, every
threshold in :class:`vision.params.ReadParams`:

1. :mod:`vision.rims` (:func:`ring_profiles`) - for every point (and the bar) a score along
   its axis for "a checker's rim is centred here": the mean radial gradient on a ring of a
   checker's radius.
2. :mod:`vision.checkers` (:func:`pick_checkers`) - peaks of those profiles above a threshold
   that adapts to the frame's contrast, one per visible checker: per point
   :mod:`vision.stacks` (a stack's extent, second layers, faint stacks, the tall-stack
   patterns :func:`tall_stack`), second looks in :mod:`vision.looks` (empty bases,
   washed-out checkers), the bar in :mod:`vision.bar`.
3. :mod:`vision.colours` (:func:`colour_samples`, :class:`ColourModel`) - each checker's
   centre colour (Lab), split in two clusters; the darker is ``dark``.
4. :mod:`vision.assemble` (:func:`assemble`) - counts and colours per point, the bar, a
   confidence; :func:`settle_with_off` (the reader calls it with the trays).  A reading with
   impossible totals carries its reason (:mod:`vision.reasons`).

This module is the chain's entry point (:func:`read_view`) and keeps the names the other
modules import from it.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from .assemble import Assembled, assemble, board_confidence, calibrate, colour_raw, flip_one_colour, settle_tall
from .assemble import settle_with_off
from .bar import _faint_bar_runs, _gap_between, _lone_bar_rims, read_bar
from .checkers import Found, pick_checkers
from .colours import (ColourModel, _compatible, axis_split, colour_samples, fallback_model, hue_outliers,
                      learn_colours, split_by_lightness)
from .looks import drop_empty_bases, outline_score, outlined_checkers
from .params import DEFAULT, ReadParams
from .rectify import View
from .rims import N_RING, Axis, Profiles, _gradients, _percentile, axes, ring_profiles
from .stacks import (TALL_PATTERNS, TWIN, Checker, PointCount, _median, _peaks, count_point, count_point_low,
                     tall_stack)

# the defaults of ReadParams under their former names (other modules and tests use these)
CERTAIN = DEFAULT.certain
POINT_KNEE = DEFAULT.point_knee
UNSURE_POINTS = DEFAULT.unsure_points
COLOUR_KNEE = DEFAULT.colour_knee
L_WEIGHT = DEFAULT.l_weight
BAR_LONE = DEFAULT.bar_lone
OUTLINE = DEFAULT.outline
OUTLINE_FACE = DEFAULT.outline_face
OUTLINE_LINE = DEFAULT.outline_line

__all__ = [
    "Assembled", "Axis", "BAR_LONE", "CERTAIN", "COLOUR_KNEE", "Checker", "ColourModel", "Found", "L_WEIGHT",
    "N_RING", "OUTLINE", "OUTLINE_FACE", "OUTLINE_LINE", "POINT_KNEE", "PointCount", "Profiles", "ReadParams",
    "TALL_PATTERNS", "TWIN", "UNSURE_POINTS", "assemble", "axes", "axis_split", "board_confidence", "calibrate",
    "colour_raw", "colour_samples", "count_point", "count_point_low", "drop_empty_bases", "fallback_model",
    "flip_one_colour", "learn_colours", "outline_score", "outlined_checkers", "pick_checkers", "read_bar",
    "read_view", "ring_profiles", "settle_tall", "settle_with_off", "tall_stack",
    "_compatible", "_faint_bar_runs", "_gap_between", "_gradients", "_lone_bar_rims", "_median", "_peaks",
    "_percentile",
]


def read_view(view: View, model: Optional[ColourModel] = None, params: ReadParams = DEFAULT,
              prof: Optional[Profiles] = None) -> tuple[Assembled, Optional[ColourModel]]:
    """All four stages on a rectified view; returns the reading and the colour model it used.
    ``prof``: the view's :func:`ring_profiles` with ``params`` when already computed."""
    prof = prof or ring_profiles(view, params)
    found = pick_checkers(prof, params)
    # each checker and the point it lies on (0..23; the bar's: -1)
    placed = ([(c, 12 * k + i) for k, r in enumerate(("top", "bottom")) for i in range(12)
               for c in found.per_axis[f"{r}{i}"].samples] + [(c, -1) for c in found.bar])
    samples = colour_samples(view, [c for c, _ in placed])
    learned = learn_colours(samples, params)
    if learned is None:   # one colour by hue: two by lightness alone? (grey and cream pearl)
        learned = split_by_lightness(samples, [p for _, p in placed])
    use = (learned if learned is not None and (model is None or _compatible(learned, model))
           else (model or fallback_model()))
    labels, cm = use.classify(samples, params)
    odd = hue_outliers(samples, labels, params)
    return replace(assemble(found, labels, cm, params, odd), model=use), learned or model
