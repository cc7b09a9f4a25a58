"""The synthetic camera's settings and results: board colour schemes (:data:`SCHEMES`), how a
frame varies (:class:`RenderParams`), the real-table props drawn (:class:`Props`) and a
rendered frame with the truth it shows (:class:`Rendered`).  Values only; the drawing is
in :mod:`vision.render_board` (the board texture), :mod:`vision.render_camera` (lens, noise,
hand) and :mod:`vision.render` (the camera frame).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from referee.events import BoardEvidence

from . import layout as L
from . import render_props as P
from .render_props import DieSeen
from .render_tex import BGR


@dataclass(frozen=True)
class Scheme:
    """A board's colours (BGR)."""

    name: str
    frame: BGR
    surface: BGR
    point_a: BGR
    point_b: BGR
    bar: BGR
    dark: BGR
    light: BGR


SCHEMES: tuple[Scheme, ...] = (
    Scheme("walnut", (40, 70, 110), (120, 170, 215), (30, 40, 60), (200, 225, 240),
           (45, 75, 115), (35, 35, 40), (215, 230, 240)),
    Scheme("felt-green", (30, 50, 70), (60, 120, 40), (40, 40, 150), (225, 225, 225),
           (30, 50, 70), (30, 30, 30), (230, 235, 235)),
    Scheme("tournament-blue", (25, 25, 25), (140, 80, 30), (40, 40, 170), (220, 220, 230),
           (25, 25, 25), (40, 40, 150), (230, 240, 245)),
    Scheme("cream-brown", (50, 60, 80), (190, 215, 230), (60, 80, 120), (90, 140, 60),
           (50, 60, 80), (40, 60, 110), (200, 225, 235)),
    Scheme("black-red", (40, 40, 40), (35, 35, 35), (40, 30, 160), (170, 170, 170),
           (40, 40, 40), (20, 20, 150), (235, 235, 235)),
    Scheme("teal-ivory", (60, 60, 70), (170, 170, 120), (90, 120, 200), (200, 230, 230),
           (60, 60, 70), (60, 40, 20), (190, 230, 240)),
)

@dataclass(frozen=True)
class RenderParams:
    """How a frame varies.  Every ``*_max`` is an upper bound drawn per seed."""

    width: int = 1280
    height: int = 720
    scheme: Optional[str] = None        # name in SCHEMES, or random
    fill: tuple[float, float] = (0.7, 0.9)  # board size as a share of the frame
    rotation_max: float = 7.0           # degrees
    flip_prob: float = 0.25             # chance the camera sees the board upside down
    perspective_max: float = 0.05       # corner displacement as a share of the board size
    distortion_max: float = 0.06        # |k1| of radial lens distortion
    gradient_max: float = 0.35          # light falloff across the frame
    glare_prob: float = 0.6
    shadow_prob: float = 0.5
    noise_max: float = 6.0              # grey levels (sigma)
    blur_max: float = 1.2               # Gaussian sigma, pixels
    jpeg: tuple[int, int] = (55, 95)    # quality range; (0, 0) for none
    jitter: float = 0.05                # checker offset sigma, pw
    markers: bool = True
    off_pitch: tuple[float, float] = (0.2, 0.35)  # borne-off checkers: thickness + gap lying down, pw
    checker: tuple[float, float] = (L.CHECKER, L.CHECKER)  # checker diameter, pw (the reader measures it)
    shape: L.BoardShape = L.BoardShape()  # the playing area's proportions (VisionConfig.bar_width, .board_height)
    # what real tables show (all off by default: the same seed gives the same image as before them)
    row_max: int = 5                    # checkers lined up along a point before the next layer (6-7: tournament style)
    face_prob: float = 0.0              # chance a colour's checkers have pearl, carved or marbled faces
    hinge_prob: float = 0.0             # chance of metal hinges (and a clasp) on the bar
    logo_prob: float = 0.0              # chance of logos printed on the surface (and the bar)
    dice_prob: float = 0.0              # chance of two dice thrown at random when render_scene gets none
    bar_offset: float = 0.0             # sideways offset sigma of bar checkers, pw (off-centre on a narrow bar)
    lip_prob: float = 0.0               # chance of a raised frame lip along one edge, hiding the base checkers there
    arm_blur_prob: float = 0.0          # chance a hand's arm is smeared by motion blur
    clock_prob: float = 0.0             # chance of a game clock beside the board
    scoreboard_prob: float = 0.0        # chance of a score board beside the board
    cube_prob: float = 0.0              # chance of the doubling cube on the bar (its middle or an end) or beside it
    mirror_prob: float = 0.0            # chance the halves' triangles mirror each other about the bar (the two
    #                                     points beside it painted alike: vision.triangles)
    camera_height: tuple[float, float] = (0.0, 0.0)  # pw: a camera this high over the board (0: straight above
    #                                     everywhere, as drawn before): a die away from its foot shows side faces
    still_checkers: bool = False        # a checker lies as it lay while it stays in its place (a move nudges only
    #                                     the checkers it touches; off: every checker drawn after the first place
    #                                     that changed lies and turns afresh, as frames were drawn before)

    def __post_init__(self) -> None:
        if not 5 <= self.row_max <= 8:
            raise ValueError(f"row_max {self.row_max}: checkers lined up along a point before stacking, 5..8")
        lo, hi = self.camera_height
        if not (lo == hi == 0.0 or 8.0 <= lo <= hi):
            raise ValueError(f"camera_height {self.camera_height}: a camera's height over the board in point widths"
                             " (lowest, highest), at least 8; (0, 0) for dice seen from straight above")
        for name in ("face_prob", "hinge_prob", "logo_prob", "dice_prob", "lip_prob", "arm_blur_prob", "clock_prob",
                     "scoreboard_prob", "cube_prob", "mirror_prob"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} {getattr(self, name)} is not a probability (0..1)")

    @classmethod
    def real_table(cls, bar: float = L.BAR_WIDTH, **kw: object) -> "RenderParams":
        """What tournament tables show, at realistic rates: hinges, logos, dice (seen by a camera 20 to 35
        point widths over the board, about a metre: side faces towards the edges), six in a row,
        textured faces, off-centre bar checkers, a frame lip, blurred arms, a clock and a score
        board; the checkers a move does not touch lie still.  ``bar``: the bar's width (pw; real
        boards' bars are often narrower than a checker)."""
        base = dict(row_max=6, face_prob=0.5, hinge_prob=0.8, logo_prob=0.5, dice_prob=0.6, still_checkers=True,
                    camera_height=(20.0, 35.0),
                    bar_offset=0.12 if bar < 0.95 else 0.05, lip_prob=0.3, arm_blur_prob=0.6, clock_prob=0.5,
                    scoreboard_prob=0.4, shape=L.BoardShape(bar=bar))
        base.update(kw)
        return cls(**base)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Props:
    """The real-table props a frame shows (see :class:`RenderParams`), for tests and benches:
    boxes in pw on the board as drawn (``beside``: image px)."""

    hinges: tuple[P.Box, ...] = ()
    logos: tuple[P.Box, ...] = ()
    lip: Optional[tuple[str, float]] = None         # edge and depth (pw)
    faces: tuple[Optional[str], Optional[str]] = (None, None)  # dark's and light's checker faces
    beside: tuple[tuple[str, P.Box], ...] = ()      # ("clock" | "scoreboard", box in image px)
    arm_blur: int = 0                               # motion blur length, px (0: none)
    checkers: tuple[P.Checker, ...] = ()            # every checker drawn on the board: centre and radius (pw)
    cube: Optional[P.Cube] = None                   # the doubling cube, where it lies (on the bar or beside the board)
    mirrored: bool = False                          # the halves' triangles mirror each other about the bar


@dataclass(frozen=True)
class Rendered:
    """A rendered frame and the truth it shows."""

    image: np.ndarray = field(repr=False)
    corners: np.ndarray  # playing-area corners TL, TR, BR, BL in image pixels (as in the texture)
    truth: BoardEvidence
    setup: L.SetUp
    scheme: str
    hand: bool
    flipped: bool
    dice: tuple[DieSeen, ...] = ()  # where each drawn die lies
    props: Props = Props()
