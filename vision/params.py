"""The reader's settings: every threshold of the reading stages in one value.

Units: ``pw`` is a point's width at its base (the rectified view's unit); a rim score is
"in strengths" (the frame's rim strength, :func:`vision.rims.ring_profiles`) or "in
thresholds" (multiples of ``threshold``); BGR and grey levels are 0..255; Lab distances
weigh lightness by ``l_weight``.  The calibration knees map raw margins to confidences
(:mod:`vision.assemble`); they were measured on rendered boards (``bench/vision_accuracy.py``).
"""
from __future__ import annotations

import functools
from typing import Optional
from dataclasses import dataclass, replace

from . import layout as L


@dataclass(frozen=True)
class ReadParams:
    """The reader's thresholds (all in one place), each field's unit in its docstring."""

    # --- rims (stage 1: vision.rims) ---
    ring_radii: tuple[float, ...] = (0.42, 0.45, 0.48)
    """pw: the ring radii tried around a layout checker's radius (scaled by ``checker``)."""
    lateral: tuple[float, ...] = (-0.1, 0.0, 0.1)
    """pw: sideways offsets searched for checkers pushed off a point's axis."""
    columns: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """pw, per quarter (top left, top right, bottom left, bottom right as the view shows them): how far
    sideways (to the right) its points' axes lie off the layout's (:func:`vision.lateral.quarter_lateral`)."""
    axis_start: float = 0.25
    """pw from a point's base: the first candidate checker centre."""
    axis_end: float = 5.0
    """pw from a point's base: candidate centres stop before this."""
    step: float = 1.0 / 16
    """pw between candidate centres along an axis (and along the bar)."""
    nms: float = 0.3
    """pw: rim peaks closer than this are one."""
    threshold: float = 0.15
    """rim score in strengths from which a rim is a checker (raised per board by ``relative``)."""
    colour_min_gap: float = 40.0
    """weighted Lab distance below which the two learned colour clusters are one colour."""
    second_layer: float = 1.25
    """thresholds: a second-layer checker's whole rim must score this many."""
    stack_colour: float = 1e9
    """relative BGR change allowed along one stack (1e6 or more: the check is off)."""
    slot_tolerance: float = 0.6
    """checker diameters between a slot and a rim that explains it."""
    floor: float = 0.15
    """rim score in strengths below which no rim counts, even in the faint passes."""
    weak: float = 0.75
    """share of ``threshold``: the lower threshold of the faint-stack and faint-bar passes."""
    even: float = 0.5
    """share: how even a faint stack's rims must be (weakest against strongest)."""
    relative_q: float = 0.5
    """quantile of the points' best rim scores that ``relative`` is taken of."""
    relative: float = 0.4
    """share of that quantile: the board's own threshold when higher than ``threshold``."""
    cap_ratio: float = 0.35
    """share: a stack's last rim is at least this share of its strongest (not used by the current stages)."""
    min_cluster: float = 0.1
    """share: the smallest share of checker samples one colour may have (not used by the current stages)."""
    tall_stacks: bool = True
    """read 10..15 as pyramids (needs the layout's point length)."""
    faint_last: float = 0.6
    """share: a last rim fainter than this share of the stack's median rim ..."""
    stranger_colour: float = 0.25
    """relative BGR distance: ... and this far from the first checker's colour is a point's tip."""
    checker: float = L.CHECKER
    """pw: the checkers' diameter (the set's own: ``VisionConfig.checker``)."""
    shape: L.BoardShape = L.BoardShape()
    """the playing area's own proportions (``VisionConfig.shape``): where a row's checkers past a point's
    tip and the bar's checkers lie in the view, squeezed or stretched (:mod:`vision.board_rings`)."""

    # --- colours (stage 3: vision.colours) ---
    hue_sep: float = 12.0
    """Lab a/b distance from which the two checker colours differ in hue too."""
    hue_clear: float = 0.25
    """share past the hue midpoint (0 dark, 1 light) from which a sample's hue points to one colour."""
    l_weight: float = 0.5
    """weight of Lab lightness against the two colour axes when telling checker colours apart."""
    colour_outlier: float = 6.0
    """robust standard deviations: a checker whose hue (Lab a, b) lies this far from every checker given its
    colour in the frame is a colour neither set shows (glare washing a red checker pink): its colour unsure."""
    colour_spread: float = 3.0
    """Lab a/b units: the least spread a colour's hue is taken to have (its checkers alike, or few of them)."""
    colour_spread_min: int = 3
    """checkers: a colour given to fewer in the frame has no spread measured, and none of them is judged so."""
    foreign_stack: int = 3
    """samples: this many on one point whose hue neither colour shows are no checkers (a dice cup, a sleeve
    lying there; a die covers one or two): something lies over the board."""

    # --- the 5-row against 12-pyramid gap look (vision.rims) ---
    gap_halves: tuple[int, ...] = (4, 6)
    """half-diameters from the base where a row of 5 leaves board showing beside it, a pyramid not."""
    gap_lateral: float = 0.33
    """pw (for a layout checker) sideways from the axis where those gaps are sampled."""

    # --- tall stacks (vision.stacks) ---
    tall_level: float = 0.85
    """thresholds: rim score between "no whole rim" and "a whole rim" in the pattern fit."""
    tall_soft: float = 0.6
    """thresholds: how far from that level a score is fully believed."""
    tall_rel: float = 0.5
    """share of the stack's typical whole rim (its 5 strongest's median), when lower than the level."""
    tall_twelve: float = 20.0
    """pattern score per unit of the end-rim cue that tells a row of 5 from a 12-pyramid."""
    tall_overrule: float = 2.0
    """pattern margin (halves) from which the pattern overrules a 5..9 stack's rim count."""

    # --- faint stacks (vision.stacks) ---
    fade: float = 0.55
    """share: along a stack fading in a light gradient, each rim is at least this share of the one before."""

    # --- the bar (vision.bar) ---
    bar_gap_ratio: float = 0.6
    """share: a bar rim between two checkers fainter than this share of both may be the gap between them."""
    bar_lone: float = 4.5
    """times the bar's median rim score: a lone bar rim this strong is a checker."""

    # --- empty bases (vision.looks) ---
    base_zone: tuple[float, float] = (0.25, 0.65)
    """pw from a point's base: where a lone first checker's rim scores."""
    base_colour: float = 40.0
    """BGR distance within which two points count as the same colour."""
    base_ratio: float = 2.3
    """times the empty same-colour points' median base score: a lone faint rim below it is the point."""
    base_mid: float = 3.0
    """pw from the base: where a point's own colour is sampled (no lone checker reaches it)."""

    # --- washed-out checkers (vision.looks) ---
    clipped: int = 245
    """BGR value at or above which a channel is clipped (washed out by glare)."""
    outline_find: float = 0.04
    """rim score in strengths from which a washed-out point's peak is looked at again."""
    outline: float = 0.04
    """rim score in strengths a closed outline scores all round (10th percentile over angles)."""
    outline_face: float = 200.0
    """grey level a washed-out face shows at least, all round inside the outline."""
    outline_line: float = 6.0
    """grey levels the outline is darker than the face, all round."""
    outline_face_radii: tuple[float, ...] = (0.2, 0.32)
    """pw from the centre (layout checker): where the face is sampled."""
    outline_line_radii: tuple[float, ...] = (0.38, 0.42, 0.45, 0.48, 0.52)
    """pw from the centre (layout checker): where the outline may lie."""

    # --- confidences (vision.assemble) ---
    certain: float = 0.6
    """confidence from which a reading is sure (the referee's default ``min_confidence``)."""
    point_knee: float = 0.05
    """raw point margin that maps to ``certain``: below it most readings are wrong."""
    unsure_points: int = 3
    """points (and bar): a board with more unsure ones than this is unsure as a whole."""
    doubted_points: int = 4
    """points: a board with more unsure ones than this is one the reader does not read well."""
    firm: float = 0.8
    """confidence: a point of such a board (``doubted_points``) is sure only from this one."""
    rare_stack: int = 7
    """checkers: a point read with this many or more is never sure (a full row and one more are common, more rare)."""
    doubted: float = 0.55
    """confidence: the most a stack of ``rare_stack`` or more is given, or a doubted board's point below ``firm``."""
    colour_knee: float = 0.1
    """colour margin (0..1) below which a point's colour is unsure."""
    flip_clear: float = 0.5
    """share: a colour flipped to make the totals possible has at most this share of the next one's margin."""


DEFAULT = ReadParams()


@functools.lru_cache(maxsize=64)
def _low_params(params: ReadParams) -> ReadParams:
    return replace(params, threshold=max(params.floor, params.threshold * params.weak))


_last_low: tuple[Optional[ReadParams], Optional[ReadParams]] = (None, None)


def low_params(params: ReadParams) -> ReadParams:
    """The parameters of the faint-stack pass (kept: built once per threshold, not per point;
    the last one by identity, as every point of a frame asks with the same object: hashing
    the ~60 fields per point cost more than the pass itself)."""
    global _last_low
    last = _last_low   # one read of a tuple: safe with two threads reading boards
    if last[0] is params and last[1] is not None:
        return last[1]
    low = _low_params(params)
    _last_low = (params, low)
    return low
