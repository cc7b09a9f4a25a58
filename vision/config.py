"""The vision settings: one immutable value, built from the ``[vision]`` table of the config."""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Optional

import numpy as np

from .errors import ConfigError
from .layout import BAR_WIDTH, CHECKER_RANGE, HEIGHT, BoardShape, SetUp, parse_corners
from .occlusion import OcclusionParams
from .read import ReadParams


@dataclass(frozen=True)
class VisionConfig:
    """How to find and read the board.

    ``corners``: fixed playing-area corners "x,y x,y x,y x,y" (TL, TR, BR, BL) used when
    the markers are not seen; ``markers``: look for the ArUco corner markers first;
    ``auto``: fall back to finding the board by itself; ``dark_home``: the corner holding
    Dark's home board as the camera sees it, or ``"auto"`` to learn it from the starting
    position; ``stable_frames``: quiet frames before reading, ``repeat``: identical
    readings needed for a stable one; ``min_confidence``: below it a reading is withheld;
    ``trays``: read the bear-off trays beside the playing area when the camera sees them;
    ``checker``: the checkers' diameter as a share of a point's width at its base (sets
    differ from about 0.8 to 0.95; the reader counts stacks by it); None (the default):
    measured on the board (:mod:`vision.size`); ``bar_width`` and ``board_height``: the
    playing area's bar width and height (edge to edge) in widths of a point at its base,
    for boards built otherwise than the layout's 1 and 11 (:class:`vision.layout.BoardShape`).
    """

    corners: Optional[str] = None
    markers: bool = True
    auto: bool = True
    dark_home: str = "bottom-right"
    px: int = 32
    stable_frames: int = 2
    repeat: int = 2
    motion: float = 6.0           # mean grey change between frames that counts as movement
    min_confidence: float = 0.0
    relocate_every: int = 0       # frames between marker searches (0: once, then on failure)
    auto_every: int = 30          # frames between automatic searches while no board is found (~0.3 s each)
    trays: bool = True            # read the bear-off trays when they are in view (BoardEvidence.off)
    checker: Optional[float] = None  # checker diameter / point width; None: measured on the board
    bar_width: float = BAR_WIDTH  # the bar's width / a point's width at its base
    board_height: float = HEIGHT  # the playing area's height (edge to edge) / a point's width
    read: ReadParams = field(default_factory=ReadParams)
    occlusion: OcclusionParams = field(default_factory=OcclusionParams)

    def __post_init__(self) -> None:
        if self.corners is not None:
            parse_corners(self.corners)
        if self.dark_home != "auto":
            SetUp(self.dark_home)
        if self.auto_every < 1:
            raise ConfigError(f"auto_every {self.auto_every} must be at least 1 (frames between automatic searches)")
        if self.checker is not None and not CHECKER_RANGE[0] <= self.checker <= CHECKER_RANGE[1]:
            raise ConfigError(f"checker {self.checker} is not a checker's diameter as a share of a point's width;"
                              f" measure both and give their ratio, between {CHECKER_RANGE[0]} and {CHECKER_RANGE[1]}"
                              f" (most sets: 0.85-0.95)")
        if self.checker is not None and self.checker != self.read.checker:
            object.__setattr__(self, "read", replace(self.read, checker=self.checker))
        self.shape  # checks bar_width and board_height
        if self.stable_frames < 1 or self.repeat < 1:
            raise ConfigError(f"stable_frames {self.stable_frames} and repeat {self.repeat} must be at least 1")

    @property
    def shape(self) -> BoardShape:
        """The playing area's proportions."""
        return BoardShape(self.bar_width, self.board_height)

    @property
    def corner_array(self) -> Optional[np.ndarray]:
        return parse_corners(self.corners) if self.corners else None

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "VisionConfig":
        """From the ``[vision]`` table; unknown keys are an error naming them."""
        names = {f.name for f in fields(cls)} - {"read", "occlusion"}
        unknown = set(d) - names
        if unknown:
            raise ConfigError(f"unknown vision setting(s) {', '.join(sorted(unknown))}; expected some of {', '.join(sorted(names))}")
        return replace(cls(), **d)
