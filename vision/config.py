"""The vision settings: immutable values built from the ``[camera]`` and ``[vision]`` tables of the config.

:class:`CameraConfig` says where frames come from (the frame source: device, resolution,
fps); :class:`VisionConfig` how the board is found and read (its corners, which corner holds
Dark's home, the board's proportions and checkers) and ``sure``, the confidence gate the
referee judges readings by.  :func:`camera_section` and :func:`vision_section` read them
from the table's TOML (:mod:`referee.table.config` reads the file), with errors naming the
dotted key and the bad value.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any, Optional, Union

import numpy as np

from referee.sections import ConfigError as SectionError
from referee.sections import Section, boolean, choice, integer, number, pair, string

from .errors import ConfigError
from .compare_readings import FIRST_MISFITS
from .layout import BAR_WIDTH, CHECKER_RANGE, HEIGHT, BoardShape, SetUp, parse_corners
from .occlusion import OcclusionParams
from .read import ReadParams


SURE = 0.6  # vision's confidences: 0.6 or more means "sure" (vision/__init__.py)
CAMERA_SOURCES = ("opencv", "picamera2", "replay", "render")
HOMES = ("bottom-right", "bottom-left", "top-right", "top-left", "auto")  # where Dark's home board is seen


@dataclass(frozen=True)
class CameraConfig:
    """Where board images come from: the frame source (:func:`vision.sources.open_source`)."""

    source: str = "opencv"
    device: int = 0
    path: str = ""  # replay: a directory or video of frames
    resolution: tuple[int, int] = (1280, 720)
    fps: int = 15
    zoom: float = 1.0  # picamera2: the middle 1/zoom of the sensor's picture fills the frame (more px a point width)

    @property
    def spec(self) -> str:
        """The source's text form for :func:`vision.sources.open_source`."""
        return {"opencv": f"camera:{self.device}", "picamera2": f"picamera2:{self.device}",
                "replay": self.path, "render": f"render:{self.device}"}.get(self.source, self.source)


@dataclass(frozen=True)
class VisionConfig:
    """How to find and read the board.

    ``corners``: fixed playing-area corners, four (x, y) pixel pairs or the text
    "x,y x,y x,y x,y" (TL, TR, BR, BL), used when
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
    for boards built otherwise than the layout's 1 and 11 (:class:`vision.layout.BoardShape`);
    ``sure``: vision's confidence gate: a point read with this confidence or more is sure; the
    referee treats a point below it as uncertain (one checker either way) and a board below it
    as unreadable (``referee.settings.Settings.min_confidence``); ``dice``: the camera watches the
    dice on the board (:mod:`vision.dice_watch`): on a table without a dice reader they are the
    roll, with one a check of it.  ``first_misfits``: how many places (points and the bar) the
    plain reading of a still frame may differ from the first position the table is told (a game's
    start) for the table to learn its board from that frame (:mod:`vision.stability`; 8); 25 learns
    from any still frame: for a board the camera reads poorly, once the director has checked the set-up.
    """

    corners: Union[None, str, tuple[tuple[float, float], ...]] = None
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
    sure: float = SURE
    dice: bool = True             # the camera watches the dice (vision.dice_watch): the throw, or a check of the reader
    first_misfits: int = FIRST_MISFITS  # places a still frame may read off the first position told, and teach the board

    def __post_init__(self) -> None:
        if self.corners is not None:
            self.corner_array
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
        if self.shape != self.read.shape:
            object.__setattr__(self, "read", replace(self.read, shape=self.shape))
        self.shape  # checks bar_width and board_height
        if not 0 <= self.first_misfits <= 25:
            raise ConfigError(f"first_misfits {self.first_misfits} must be 0..25 (places of the 24 points and "
                              f"the bar a frame may read off the first position told; {FIRST_MISFITS} by default, "
                              "25: any still frame)")
        if self.stable_frames < 1 or self.repeat < 1:
            raise ConfigError(f"stable_frames {self.stable_frames} and repeat {self.repeat} must be at least 1")

    @property
    def shape(self) -> BoardShape:
        """The playing area's proportions."""
        return BoardShape(self.bar_width, self.board_height)

    @property
    def corner_array(self) -> Optional[np.ndarray]:
        """The fixed corners as a 4x2 array, or None to find the board."""
        if not self.corners:
            return None
        if isinstance(self.corners, str):
            return parse_corners(self.corners)
        a = np.asarray(self.corners, np.float32)
        if a.shape != (4, 2):
            raise ConfigError(f"corners {self.corners!r}: expected four (x, y) pairs (top-left, top-right, "
                              "bottom-right, bottom-left)")
        return a

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "VisionConfig":
        """From the ``[vision]`` table; unknown keys are an error naming them."""
        names = {f.name for f in fields(cls)} - {"read", "occlusion"}
        unknown = set(d) - names
        if unknown:
            raise ConfigError(f"unknown vision setting(s) {', '.join(sorted(unknown))}; "
                              f"expected some of {', '.join(sorted(names))}")
        return replace(cls(), **d)


# --------------------------------------------------------------------------- the config's sections

# keys that were [camera]'s before the board's reading got its own [vision] section
MOVED_TO_VISION = ("corners", "bar_width", "board_height", "checker", "dark_home")


def camera_section(s: Section) -> CameraConfig:
    """The ``[camera]`` table, checked."""
    for k in MOVED_TO_VISION:
        if k in s.table:
            raise SectionError(s.key(k), s.table[k], f"belongs to the board's reading now: move it to [vision] as {k}")
    d = CameraConfig()
    c = CameraConfig(
        source=s.get("source", d.source, choice(CAMERA_SOURCES)), device=s.get("device", d.device, integer(0, 63)),
        path=s.get("path", d.path, string), resolution=s.get("resolution", d.resolution, pair(16, 8192)),
        fps=s.get("fps", d.fps, integer(1, 240)),
        zoom=s.get("zoom", d.zoom, number(1.0, 4.0, "the Pi camera's digital zoom: the middle 1/zoom of its picture")))
    s.finish(("source", "device", "path", "resolution", "fps", "zoom"))
    if c.source == "replay" and not c.path:
        raise SectionError(s.key("path"), c.path, 'camera.source = "replay" needs a path to the recorded frames')
    if c.zoom != 1.0 and c.source != "picamera2":
        raise SectionError(s.key("zoom"), c.zoom, 'zooms the Raspberry Pi camera only (source = "picamera2"): '
                           "set it to 1, and bring another camera nearer the board or raise its resolution instead")
    return c


def _corners(key: str, v: Any) -> tuple[tuple[float, float], ...]:
    ok = isinstance(v, list) and len(v) in (0, 4) and all(
        isinstance(c, list) and len(c) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in c)
        for c in v)
    if not ok:
        raise SectionError(key, v, "must be [] or four [x, y] pixel positions")
    return tuple((float(c[0]), float(c[1])) for c in v)


def vision_section(s: Section) -> VisionConfig:
    """The ``[vision]`` table, checked: the board's corners, proportions and checkers, and the gate."""
    none: tuple[tuple[float, float], ...] = ()
    corners = s.get("corners", none, _corners)
    bar_width = s.get("bar_width", BAR_WIDTH, number(0.5, 3.0, "point widths: the bar's width / a point's at its base"))
    board_height = s.get("board_height", HEIGHT,
                         number(10.2, 14.0, "point widths: the playing area's height, edge to edge / a point's width"))
    checker = s.get("checker", 0.0, number(0.0, 1.0, "the checkers' diameter / a point's width (0: measured)"))
    dark_home = s.get("dark_home", VisionConfig.dark_home, choice(HOMES))
    sure = s.get("sure", SURE, number(0.0, 1.0, "a point read with this confidence or more is sure"))
    dice = s.get("dice", True, boolean)
    first_misfits = s.get("first_misfits", FIRST_MISFITS, integer(0, 25))
    s.finish(("corners", "bar_width", "board_height", "checker", "dark_home", "sure", "dice", "first_misfits"))
    if checker and checker < CHECKER_RANGE[0]:
        raise SectionError(s.key("checker"), checker, "must be 0 (measured) or 0.7..1.0 (most sets: 0.85-0.95)")
    return VisionConfig(corners=corners or None, bar_width=bar_width, board_height=board_height,
                        checker=checker or None, dark_home=dark_home, sure=sure, dice=dice, first_misfits=first_misfits)
