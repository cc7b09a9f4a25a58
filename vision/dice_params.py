"""The dice finder's thresholds and the faces' pip layouts (:mod:`vision.dice`)."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# pip centres of each face in units of the half side (the face spans -1..1), one orientation;
# the other is the same turned a quarter, (x, y) -> (-y, x)
_S = 0.54
LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-_S, -_S), (_S, _S)),
    3: ((-_S, -_S), (0, 0), (_S, _S)),
    4: ((-_S, -_S), (_S, -_S), (-_S, _S), (_S, _S)),
    5: ((-_S, -_S), (_S, -_S), (0, 0), (-_S, _S), (_S, _S)),
    6: ((-_S, -_S), (-_S, 0), (-_S, _S), (_S, -_S), (_S, 0), (_S, _S)),
}
GRID = np.array([(gx, gy) for gy in (-1, 0, 1) for gx in (-1, 0, 1)], np.float64)  # the 3 x 3 places
_ON_ROWS, ON_VALUES = [], []
for _v, _lay in LAYOUTS.items():
    for _quarter in (False, True):
        _on = {(int(np.sign(-y)), int(np.sign(x))) if _quarter else (int(np.sign(x)), int(np.sign(y))) for x, y in _lay}
        _ON_ROWS.append([(int(gx), int(gy)) in _on for gx, gy in GRID])
        ON_VALUES.append(_v)
ON = np.array(_ON_ROWS, bool)  # (12, 9): which places hold a pip, per face and way round


@dataclass(frozen=True)
class DiceParams:
    """The finder's thresholds (sizes in point widths)."""

    detect_px: int = 32            # px per pw of the coarse search
    pip_weight: float = 4.0        # how much pip-like spots near a peak raise its rank
    max_candidates: int = 32       # strongest peaks looked at closely
    max_looks: int = 96            # candidates looked at closely in all (peaks first, then pip groups)
    ring: float = 0.42             # the surround a die stands out from: this far from its centre
    contrast: float = 42.0         # grey levels a die must stand out from its surround (any channel)
    far_contrast: float = 25.0     # ... and this much a little further out (not a pattern on a larger thing)
    likeness: tuple[float, ...] = (30.0, 20.0, 12.0)  # a face's colour: this close to its centre's, loosest first
    side: tuple[float, float] = (0.26, 0.47)  # a die's side (its face's rectangle)
    max_extent: float = 0.72       # a die's box, longest side (a cocked die shows a side face too)
    fill: float = 0.55             # blob area / its minimum-area rectangle
    aspect: float = 1.9            # longest / shortest side of that rectangle
    face_px: int = 40              # the face cut out square at this size to read its pips
    spreads: tuple[float, ...] = (0.5, 0.6)  # pips' offset from the face's centre, share of its half side
    # the pips' centre off the cut's, share of its half side (tried each way)
    offsets: tuple[float, ...] = (-0.15, 0.0, 0.15)
    pip_radius: float = 0.17       # a pip's radius (blurred), share of the face's half side
    # the most of a face pip-coloured: a + b * value (blurred pips; a letter has more)
    ink: tuple[float, float] = (0.08, 0.06)
    spot_px: int = 64              # px per pw at which pip-like spots are looked for (at most the view's)
    pip_sigma: float = 0.025      # a pip's blur scale (pw) for finding pip-like spots
    pip_contrast: float = 30.0     # grey levels a pip-like spot stands out from its surround
    pip_links: tuple[float, ...] = (0.17, 0.32)  # pips of one face lie this close (pw): the rows, the diagonal of a 2
    pip_stand_out: float = 12.0    # a pip group is looked at closely only where something stands out this much
    kept_within: float = 0.06      # a frame's empty close look taken for the next frame's candidate this near (pw)
    changed: float = 25.0          # grey levels a place must change by since the board was seen without dice
    max_spots: int = 4000          # more pip-like spots than this: a texture, no pips are looked for
    rim_levels: float = 20.0       # grey levels a face's rim may differ from its colour ...
    rim_odd: float = 0.5           # ... at most on this share of it (a disc's corners, a checker's emblem: more)
    pip_depths: tuple[float, ...] = (0.5, 0.7, 0.85)  # shares of the pips' depth at which they are counted
    square: float = 0.82           # a sure die's face fills this much of its rectangle (straight edges)
    uncounted: float = 0.5         # the most a value is sure of when its pips, counted one by one, are another number
    strict_side: float = 0.42      # a face wider than this (pw) is sure only when its pips count alike at every depth
    margin: float = 0.3            # how much more pip-like a face's pips are than its empty places, to be sure
    keep: float = 0.25             # a blob is a die only when its pips fit a face this well
    edge: float = 0.04             # how far a face may reach over the playing area's edge and be on it
    bar_confidence: float = 0.5    # the most a die on the bar is sure of (hinge screws look like pips)
    sure: float = 0.7              # confidence at which a value counts as read
    checker_radius: tuple[float, float] = (0.33, 0.52)  # a checker's radius (on_checker)

    def __post_init__(self) -> None:
        if not 8 <= self.detect_px <= 64:
            raise ValueError(f"detect_px {self.detect_px}: expected 8..64 px per point width")
        if not 0.0 < self.sure <= 1.0:
            raise ValueError(f"sure {self.sure}: a confidence threshold is in 0..1")


