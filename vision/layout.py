"""The board's geometry and the camera-to-table mapping.

Everything is measured in *point widths* (pw) with the origin at the top-left corner
of the playing area (the 24 points and the bar; trays and outer frame excluded), x to
the right and y down as seen in the rectified image.  The playing area is
``12 points + bar`` wide and two rows of points plus a middle gap high:

    x: 0..6 left half, 6..BAR_RIGHT bar, BAR_RIGHT..WIDTH right half
    y: 0..POINT_LEN top row, HEIGHT-POINT_LEN..HEIGHT bottom row

Image rows: ``top`` runs from the first corner to the second (left to right),
``bottom`` from the fourth corner to the third.  :class:`SetUp` maps these rows to
table numbering (Dark's points, see :mod:`referee.events`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

from referee.events import BoardEvidence, PointReading

from .errors import ConfigError

BAR_WIDTH = 1.0
WIDTH = 12.0 + BAR_WIDTH
POINT_LEN = 5.0
GAP = 1.0
HEIGHT = 2 * POINT_LEN + GAP
CHECKER = 0.9  # checker diameter in point widths (the default; VisionConfig.checker for other sets)
CHECKER_RANGE = (0.7, 1.0)  # diameters the reader accepts
BAR_LEFT = 6.0
BAR_RIGHT = BAR_LEFT + BAR_WIDTH

CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")

# Bear-off trays lie outside the playing area, beside its left or right edge, one half-tray
# per colour (top and bottom half).  Borne-off checkers lie on their sides, one against the
# next; the reader measures their spacing from the ladder of lines they make
# (vision.trays.ladder_pitch) and uses TRAY_PITCH (a checker 0.3 pw thick and a 0.03 gap)
# only where one checker shows no spacing; it looks for them TRAY_SEARCH pw beyond either edge.
TRAY_PITCH = 0.33
TRAY_SEARCH = (0.2, 4.0)


MAX_STACK = 15
PER_SIDE = 15  # checkers a side
PYRAMID = (5, 4, 3, 2, 1)  # checkers per layer of a full stack


def stack_slots(n: int) -> list[tuple[int, int]]:
    """Where ``n`` (0..15) checkers lie on a point, as players stack them: (half, layer) each.

    ``half`` is the centre's distance from the point's base in half checkers (1, 3, ... 9
    for the first layer); a row of 5 from the edge, then each further layer from the base
    outwards, every checker resting across two of the layer below (offset half a checker):
    5 + 4 + 3 + 2 + 1 = 15, a pyramid.
    """
    if not 0 <= n <= MAX_STACK:
        raise ValueError(f"stack of {n} checkers: a point holds 0..{MAX_STACK}")
    out: list[tuple[int, int]] = []
    for layer, size in enumerate(PYRAMID):
        for k in range(size):
            if len(out) == n:
                return out
            out.append((1 + layer + 2 * k, layer))
    return out


def visible_rims(n: int) -> frozenset[int]:
    """The halves at which a stack of ``n`` shows whole checker rims from above: checkers with
    nothing resting on them (a checker half a checker off one layer up hides part of one)."""
    slots = set(stack_slots(n))
    return frozenset(h for h, layer in slots
                     if (h - 1, layer + 1) not in slots and (h + 1, layer + 1) not in slots)


#: the 24 points by image rows as ``bgtable read`` names them (row and place from the first corner)
POINT_NAMES = tuple(f"{row} {i + 1}" for row in ("top", "bottom") for i in range(12))


def column_x(i: int) -> float:
    """Centre x (pw) of column ``i`` (0..11, left to right as seen) of either row."""
    return i + 0.5 + (BAR_WIDTH if i >= 6 else 0.0)


def playing_corners_pw() -> np.ndarray:
    """The playing area's corners TL, TR, BR, BL in pw."""
    return np.array([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]], np.float32)


SHAPE_RANGE = {"bar": (0.5, 3.0), "height": (10.2, 14.0)}  # point widths


@dataclass(frozen=True)
class BoardShape:
    """A playing area's proportions, in widths of a point at its base: the bar's width and
    the area's height (edge to edge across both rows).  The reader works on the layout's
    shape (bar 1, height 11: :data:`BAR_WIDTH`, :data:`HEIGHT`); :mod:`vision.rectify` maps
    a board of another shape onto it keeping the points and the edges they stand on
    (:meth:`to_real`).  Text form:
    ``"bar 1.5 height 12"`` (:meth:`parse` reads it back)."""

    bar: float = BAR_WIDTH
    height: float = HEIGHT

    def __post_init__(self) -> None:
        for name, (lo, hi) in SHAPE_RANGE.items():
            v = getattr(self, name)
            if not lo <= v <= hi:
                raise ConfigError(f"board {name} {v:g} point widths is outside {lo:g}..{hi:g}: measure it with a ruler"
                                  f" and divide by the width of one point at its base")

    def __str__(self) -> str:
        return f"bar {self.bar:g} height {self.height:g}"

    @classmethod
    def parse(cls, text: str) -> "BoardShape":
        """The shape in ``text`` such as ``"bar 1.5 height 12"``; ConfigError quoting the text when malformed."""
        words = text.split()
        if len(words) % 2 or any(k not in SHAPE_RANGE for k in words[::2]):
            raise ConfigError(f"board shape {text!r}: expected e.g. 'bar 1.5 height 12' (point widths)")
        try:
            return cls(**{k: float(v) for k, v in zip(words[::2], words[1::2])})
        except ValueError:
            raise ConfigError(f"board shape {text!r}: the numbers must be point widths, "
                              "e.g. 'bar 1.5 height 12'") from None

    @property
    def width(self) -> float:
        """The playing area's width in point widths: twelve points and the bar."""
        return 12.0 + self.bar

    @property
    def default(self) -> bool:
        """True for the layout's own shape (bar 1, height 11), which needs no remapping."""
        return self == BoardShape()

    def corners_pw(self) -> np.ndarray:
        """The playing area's corners TL, TR, BR, BL, in this board's own pw."""
        return np.array([[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]], np.float32)

    def to_real(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Layout coordinates (pw) to this board's own: the left half and the edges' bands
        as they are; the layout's bar (x 6..7) shows the middle of a wider bar, or all of a
        narrower one squeezed; the band between the rows' tips (layout y 5..6) is stretched
        to this board's; the rest shifted.  Works outside the area too."""
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        # a wider bar: its middle, unscaled (checkers on the bar stay round); a narrower one: squeezed
        scale, skip = min(1.0, self.bar / BAR_WIDTH), max(0.0, (self.bar - BAR_WIDTH) / 2)
        xr = np.where(x <= BAR_LEFT, x, np.where(x >= BAR_RIGHT, x - BAR_WIDTH + self.bar,
                                                 BAR_LEFT + skip + (x - BAR_LEFT) * scale))
        lo, hi = POINT_LEN, HEIGHT - POINT_LEN
        mid = self.height - 2 * POINT_LEN
        yr = np.where(y <= lo, y, np.where(y >= hi, y - HEIGHT + self.height, lo + (y - lo) * mid / GAP))
        return xr, yr

    def to_layout(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """This board's own coordinates (pw) to the layout's: :meth:`to_real` undone.  A wider bar's
        sides, which the layout's bar does not show, go to its nearer edge."""
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        scale, skip = min(1.0, self.bar / BAR_WIDTH), max(0.0, (self.bar - BAR_WIDTH) / 2)
        right = BAR_LEFT + self.bar
        on_bar = np.clip(BAR_LEFT + (x - BAR_LEFT - skip) / scale, BAR_LEFT, BAR_RIGHT)
        xl = np.where(x <= BAR_LEFT, x, np.where(x >= right, x - self.bar + BAR_WIDTH, on_bar))
        lo, hi = POINT_LEN, self.height - POINT_LEN
        mid = self.height - 2 * POINT_LEN
        yl = np.where(y <= lo, y, np.where(y >= hi, y - self.height + HEIGHT, lo + (y - lo) * GAP / mid))
        return xl, yl


@dataclass(frozen=True)
class RowReading:
    """A reading by image rows: 12 (count, colour) per row and the bar, before table mapping."""

    top: tuple[PointReading, ...]
    bottom: tuple[PointReading, ...]
    bar: tuple[int, int] = (0, 0)
    confidence: float = 1.0
    # layout y of each square thing lying on the bar (the doubling cube, a die): not a checker,
    # but the players want to know it is there; no part of the reading (left out of ==)
    on_bar: tuple[float, ...] = field(default=(), compare=False)

    def things_on_bar(self) -> list[dict]:
        """The ``"on_bar"`` key of ``bgtable read --json``: what lies on the bar besides checkers."""
        return [{"what": "cube or die", "y": round(float(y), 2)} for y in self.on_bar]

    def to_json_dict(self) -> dict:
        """The ``bgtable read --json`` form."""
        row = lambda ps: [[p.count, p.colour] for p in ps]  # noqa: E731
        return {"board_found": True, "top": row(self.top), "bottom": row(self.bottom),
                "bar": {"dark": self.bar[0], "light": self.bar[1]},
                "confidence": round(float(self.confidence), 3)}


HOME_CORNERS = ("bottom-right", "bottom-left", "top-right", "top-left")


@dataclass(frozen=True)
class SetUp:
    """Where Dark's home board is, as seen in the rectified image.

    ``dark_home`` names the corner of the playing area holding Dark's points 1..6;
    point 1 is the point in that corner.  Default: bottom-right (Dark sits at the
    bottom edge, bears off to the right).
    """

    dark_home: str = "bottom-right"

    def __post_init__(self) -> None:
        if self.dark_home not in HOME_CORNERS:
            raise ConfigError(f"dark_home {self.dark_home!r} is not one of {', '.join(HOME_CORNERS)}")

    def slot(self, point: int) -> tuple[str, int]:
        """The (row, column) of table point 1..24, column 0..11 left to right."""
        row, side = self.dark_home.split("-")
        other = "top" if row == "bottom" else "bottom"
        k = point - 1 if point <= 12 else point - 13  # 0..11 along its run
        if point <= 12:  # runs from the home corner away from it
            col = 11 - k if side == "right" else k
            return row, col
        col = k if side == "right" else 11 - k  # 13 sits opposite 12, 24 opposite 1
        return other, col

    def index(self, point: int) -> int:
        """Table point 1..24's place in image-row order (top 0..11, then bottom 12..23): the order of
        per-point arrays read from the picture."""
        row, col = self.slot(point)
        return col if row == "top" else 12 + col

    def to_evidence(self, rows: RowReading, t: float = 0.0, off: Optional[tuple[int, int]] = None) -> BoardEvidence:
        """Map a row reading to table numbering (``off``: the trays' counts, when read)."""
        pts = []
        for p in range(1, 25):
            row, col = self.slot(p)
            pts.append((rows.top if row == "top" else rows.bottom)[col])
        return BoardEvidence(points=tuple(pts), bar=rows.bar, off=off, confidence=rows.confidence, t=t)

    def to_rows(self, ev: BoardEvidence) -> tuple[list[PointReading], list[PointReading]]:
        """The inverse: a board evidence laid out as (top, bottom) rows as seen."""
        top: list[PointReading] = [PointReading(0)] * 12
        bottom: list[PointReading] = [PointReading(0)] * 12
        for p in range(1, 25):
            row, col = self.slot(p)
            (top if row == "top" else bottom)[col] = ev.points[p - 1]
        return top, bottom


def start_position() -> BoardEvidence:
    """The backgammon starting position in table numbering."""
    pts = [PointReading(0)] * 24
    for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
        pts[p - 1] = PointReading(n, "dark")
    for p, n in ((1, 2), (12, 5), (17, 3), (19, 5)):
        pts[p - 1] = PointReading(n, "light")
    return BoardEvidence(points=tuple(pts), bar=(0, 0), off=(0, 0))


SETUP_MISFITS = 2   # points a reading of the starting position may get wrong when the set-up is told from it


def infer_setup(rows: RowReading, most: int = SETUP_MISFITS) -> Optional[SetUp]:
    """The set-up under which a row reading is the starting position, or None.

    A real board's reading errs on a point or two (a faint stack counted one short), so the
    reading need not be the starting position exactly: it may differ from it at ``most`` points
    under one set-up, when it differs at ``most`` + 4 or more under every other (the starting
    position differs from itself under another set-up at 8 points or 12: a reading ``most`` off
    under the right one is at least 8 - ``most`` off under the others)."""
    want = start_position()
    off = sorted((len(points_differ(SetUp(home).to_evidence(rows).points, want.points)), home) for home in HOME_CORNERS)
    (best, home), (second, _) = off[0], off[1]
    return SetUp(home) if best <= most and second >= best + 4 else None


def points_differ(a: Sequence[PointReading], b: Sequence[PointReading]) -> list[int]:
    """The indices where two lists of points differ in count, or in colour where there are checkers."""
    return [k for k, (x, y) in enumerate(zip(a, b)) if x.count != y.count or (x.count and x.colour != y.colour)]


def same_board(a: BoardEvidence, b: BoardEvidence) -> bool:
    """True when two readings agree on every count and colour (confidence and time ignored)."""
    return a.bar == b.bar and all(x.count == y.count and x.colour == y.colour for x, y in zip(a.points, b.points))


def random_position(rng: np.random.Generator, max_per_point: int = 9, tall: float = 0.0) -> BoardEvidence:
    """A random plausible position: 15 checkers a side over points, bar and off.

    With probability ``tall`` one side first puts 10..15 checkers on one of its points
    (bear-in and ace-point games); the default draws exactly as before.
    """
    owner: list[Optional[str]] = [None] * 24
    counts = [0] * 24
    bar = [0, 0]
    off = [0, 0]
    if tall and rng.random() < tall:
        ci = int(rng.integers(2))
        p = int(rng.integers(24))
        owner[p] = ("dark", "light")[ci]
        counts[p] = int(rng.integers(10, 16))
    for ci, colour in enumerate(("dark", "light")):
        n_off = int(rng.choice([0] * 6 + list(range(1, 15))))
        n_bar = int(rng.choice([0] * 8 + [1, 1, 2, 3]))
        on_points = sum(c for c, o in zip(counts, owner) if o == colour)
        n_off = min(n_off, 15 - on_points)
        off[ci] = n_off
        bar[ci] = min(n_bar, 15 - n_off - on_points)
        left = 15 - off[ci] - bar[ci] - on_points
        tries = 0
        while left and tries < 1000:
            tries += 1
            p = int(rng.integers(24))
            if owner[p] not in (None, colour) or (max_per_point <= counts[p] < 10) or counts[p] >= MAX_STACK:
                continue
            owner[p] = colour
            counts[p] += 1
            left -= 1
        off[ci] += left
    pts = tuple(PointReading(c, o) for c, o in zip(counts, owner))
    return BoardEvidence(points=pts, bar=(bar[0], bar[1]), off=(off[0], off[1]))


def parse_corners(text: str) -> np.ndarray:
    """Parse ``"x,y x,y x,y x,y"`` (TL, TR, BR, BL of the playing area) into a 4x2 array."""
    parts = text.replace(";", " ").split()
    try:
        pts = [tuple(float(v) for v in p.split(",")) for p in parts]
    except ValueError:
        raise ConfigError(f"corners {text!r}: expected four 'x,y' pairs like \"10,20 600,22 610,400 8,398\"") from None
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise ConfigError(f"corners {text!r}: expected four 'x,y' pairs "
                          "(top-left, top-right, bottom-right, bottom-left)")
    return np.array(pts, np.float32)


def format_corners(c: Sequence[Sequence[float]]) -> str:
    """The four board corners as text, ``x,y`` pixels each (``"12.0,30.5 ..."``)."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in c)
