"""Dice for the synthetic camera: two thrown at random on the board (clear of the checkers,
or leaning on one), drawn on the board texture in point widths, and where each lies as the
camera sees it (:class:`DieSeen`), for tests and benches of the dice finder.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import cv2
import numpy as np

from . import layout as L
from .render_tex import BGR, TEX, drop_shadow, poly, px, shade

Checker = tuple[float, float, float]  # centre x, y and radius (pw) of a checker drawn on the board
Box = tuple[float, float, float, float]  # x0, y0, x1, y1

PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}
PIP_STEP = 0.27   # pip offset from the face's centre, share of the edge
PIP_RADIUS = 0.09  # share of the edge


# --------------------------------------------------------------------------- dice


@dataclass(frozen=True)
class Die:
    """A die to draw: the face up, where it lies (pw on the board as drawn, origin at the
    playing area's top-left corner; None: at random), its turn about the vertical and its
    tilt off flat (degrees: a cocked die shows a side face).  ``on_checker``: it rests on
    the checker nearest (x, y) (a random one when no position is given); ``off_board``: it
    lies across the playing area's edge, half on the frame."""

    value: int
    x: Optional[float] = None
    y: Optional[float] = None
    angle: Optional[float] = None
    tilt: float = 0.0
    on_checker: bool = False
    off_board: bool = False
    size: float = 0.4
    colour: BGR = (235, 235, 238)
    pips: BGR = (25, 25, 30)

    def __post_init__(self) -> None:
        if self.value not in PIPS:
            raise ValueError(f"die value {self.value!r}: a die shows 1..6")
        if not 0.2 <= self.size <= 0.8:
            raise ValueError(f"die size {self.size} pw: expected 0.2..0.8 (a die is about 0.4 of a point's width)")
        if not 0.0 <= self.tilt <= 45.0:
            raise ValueError(f"die tilt {self.tilt} degrees: expected 0..45")
        if (self.x is None) != (self.y is None):
            raise ValueError(f"die at x={self.x}, y={self.y}: give both coordinates or neither")


@dataclass(frozen=True)
class DieSeen:
    """Where a drawn die lies, for scoring a dice finder: its value, centre on the board (pw)
    and in the image (px), the image box around its top and any side face, the half of the
    board its centre lies in (``"left"``, ``"right"`` or ``"bar"`` as the playing area's
    corners are ordered; None off the playing area), and whether it rests on a checker, lies
    off the playing area (centre outside) or overhangs its edge (part outside)."""

    value: int
    board: tuple[float, float]
    centre: tuple[float, float]
    box: Box
    half: Optional[str]
    on_checker: bool
    off_board: bool
    overhang: bool
    tilt: float
    angle: float


def random_dice(rng: np.random.Generator, checkers: Sequence[Checker], shape: L.BoardShape, n: int = 2) -> list[Die]:
    """``n`` dice as a throw leaves them: mostly in one half, some against or on a checker,
    now and then cocked or across the edge."""
    out = []
    left = bool(rng.random() < 0.5)
    for _ in range(n):
        value = int(rng.integers(1, 7))
        angle = float(rng.uniform(0, 90))
        tilt = float(rng.uniform(8, 25)) if rng.random() < 0.1 else 0.0
        size = float(rng.uniform(0.32, 0.45))
        colour: BGR = (235, 235, 238)
        pips: BGR = (25, 25, 30)
        if rng.random() < 0.3:  # coloured tournament dice: red, green or black with white pips
            colour, pips = [((40, 40, 190), (240, 240, 240)), ((60, 130, 40), (240, 240, 240)),
                            ((30, 30, 30), (235, 235, 235))][int(rng.integers(3))]
        mode = rng.choice(["field", "point", "against", "on", "edge"], p=[0.35, 0.2, 0.25, 0.12, 0.08])
        x0 = 0.3 if left else L.BAR_LEFT + shape.bar + 0.3
        x1 = L.BAR_LEFT - 0.3 if left else shape.width - 0.3
        x, y = float(rng.uniform(x0, x1)), float(rng.uniform(0.4, shape.height - 0.4))
        if mode == "point":
            col = int(rng.integers(6)) + (0 if left else 6)
            x = float(L.column_x(col) + (shape.bar - L.BAR_WIDTH) * (col >= 6) + rng.uniform(-0.2, 0.2))
        elif mode == "against" and checkers:
            cx, cy, r = checkers[int(rng.integers(len(checkers)))]
            a = rng.uniform(0, 2 * np.pi)
            x, y = cx + np.cos(a) * (r + size * 0.62), cy + np.sin(a) * (r + size * 0.62)
        out.append(Die(value, x, y, angle, tilt, on_checker=bool(mode == "on" and checkers),
                       off_board=bool(mode == "edge"), size=size, colour=colour, pips=pips))
    return out


def place(die: Die, rng: np.random.Generator, checkers: Sequence[Checker], shape: L.BoardShape) -> Die:
    """``die`` with its position and turn settled: on a checker, across an edge, or at random in the field."""
    x, y = die.x, die.y
    angle = die.angle if die.angle is not None else float(rng.uniform(0, 90))
    if x is None or y is None:
        x, y = float(rng.uniform(0.4, shape.width - 0.4)), float(rng.uniform(0.4, shape.height - 0.4))
        if not die.on_checker and not die.off_board and L.BAR_LEFT - 0.3 < x < L.BAR_LEFT + shape.bar + 0.3:
            x = L.BAR_LEFT - 0.6
    if die.on_checker and checkers:
        cx, cy, r = min(checkers, key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)  # type: ignore[operator]
        a = rng.uniform(0, 2 * np.pi)
        off = rng.uniform(0, max(r - die.size * 0.6, 0.0))
        x, y = cx + np.cos(a) * off, cy + np.sin(a) * off
    if die.off_board:
        edges = [(x, 0.0), (x, shape.height), (0.0, y), (shape.width, y)]
        x, y = min(edges, key=lambda e: (e[0] - x) ** 2 + (e[1] - y) ** 2)  # type: ignore[operator]
    return Die(die.value, float(x), float(y), float(angle), die.tilt, die.on_checker, die.off_board, die.size,
               die.colour, die.pips)


def die_outline(die: Die) -> tuple[np.ndarray, np.ndarray]:
    """The die's top face and its whole outline (top face and any side face showing), pw, 4 points each."""
    assert die.x is not None and die.y is not None and die.angle is not None  # placed
    a, t = np.radians(die.angle), np.radians(die.tilt)
    ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    s = die.size
    c = np.array([die.x, die.y])
    top = np.array([c + (u * ex * s + v * ey * s * np.cos(t)) / 2 for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    side = s * np.sin(t)
    whole = top.copy()
    whole[2:] += ey * side  # the side face shows below the top face's far edge
    return top, whole


#: a camera over the board: where its foot lies (pw, the board as drawn) and how high it is (pw)
Camera = tuple[float, float, float]

CHECKER_HIGH = 0.08   # pw: a checker's thickness, under a die resting on it
SIDE_LIGHT = 0.8      # a side face's light, share of the top face's (lit from above)


def parallax(die: Die, camera: Optional[Camera], raised: bool = False) -> Optional[np.ndarray]:
    """Where the camera sees the die's top face (4 points, pw on the board as drawn): its own square
    pushed away from the camera's foot and grown, as a thing ``size`` high is by a camera ``height``
    above the board (a pinhole over a plane); None when no camera is given or the die is cocked."""
    if camera is None or die.tilt > 0:
        return None
    fx, fy, high = camera
    up = die.size + (CHECKER_HIGH if raised else 0.0)
    k = up / max(high - up, 1e-6)
    top, _ = die_outline(die)
    return top + (top - np.array([fx, fy])) * k


def draw_die(img: np.ndarray, die: Die, raised: bool, camera: Optional[Camera] = None) -> None:
    """Draw a placed die on the texture: its shadow (longer when it rests on a checker), any side face,
    the top face and pips.  ``camera``: a camera over the board (:data:`Camera`): the top face is drawn
    where it sees it, and the side faces turned towards it, with their pips, between the die's foot and
    its top face (a die away from the camera's foot shows them; a cocked die is drawn as before)."""
    top, whole = die_outline(die)
    seen_top = parallax(die, camera, raised)
    so = np.array([0.1, 0.13]) if raised else np.array([0.05, 0.07])
    drop_shadow(img, whole + so, 3, 0.5)
    if die.tilt > 0:
        poly(img, [tuple(p) for p in whole], shade(die.colour, 0.62))
    assert die.x is not None and die.y is not None and die.angle is not None
    rad = int(round(PIP_RADIUS * die.size * TEX * 16))
    if seen_top is not None and camera is not None:
        _side_faces(img, die, top, seen_top, camera[:2])
        face = seen_top
        c = seen_top.mean(axis=0)
        ex, ey = (face[1] - face[0]) / die.size, (face[3] - face[0]) / die.size   # grown with the face
        rad = int(round(rad * float(np.linalg.norm(ex))))
    else:
        face = top
        a, t = np.radians(die.angle), np.radians(die.tilt)
        c = np.array([die.x, die.y])
        ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)]) * np.cos(t)
    poly(img, [tuple(p) for p in face], die.colour)
    edge = np.array([px(*p) for p in face], np.int32)
    cv2.polylines(img, [edge], True, shade(die.colour, 0.8), 1, cv2.LINE_AA, shift=4)
    for u, v in PIPS[die.value]:
        p = c + (u * ex + v * ey) * PIP_STEP * die.size
        cv2.circle(img, px(*p), rad, die.pips, -1, cv2.LINE_AA, shift=4)


def _side_faces(img: np.ndarray, die: Die, foot: np.ndarray, top: np.ndarray, camera_foot: tuple[float, float]) -> None:
    """The side faces a camera over ``camera_foot`` sees: each turned towards it, from the die's foot square
    ``foot`` up to its top face as seen ``top`` (4 points each, the same order), shaded, with the pips of
    a face beside the top one (never the top's or its opposite)."""
    centre = foot.mean(axis=0)
    sides = [v for v in range(1, 7) if v not in (die.value, 7 - die.value)]
    colour = shade(die.colour, SIDE_LIGHT)
    for i in range(4):
        a, b = foot[i], foot[(i + 1) % 4]
        mid = (a + b) / 2
        out = mid - centre
        if float(np.dot(out, np.asarray(camera_foot) - mid)) <= 0:
            continue   # turned away from the camera: hidden behind the die
        ta, tb = top[i], top[(i + 1) % 4]
        quad = np.array([a, b, tb, ta])
        e, h = b - a, ta - a
        if abs(float(e[0] * h[1] - e[1] * h[0])) < 1e-4:
            continue   # seen edge-on: no face
        poly(img, [tuple(p) for p in quad], colour)
        value = sides[i]
        for u, v in PIPS[value]:   # u along the edge, v from the foot up to the top
            ring = []
            for ang in np.linspace(0, 2 * np.pi, 12, endpoint=False):
                s_ = 0.5 + u * PIP_STEP + PIP_RADIUS * np.cos(ang)
                h_ = 0.5 + v * PIP_STEP + PIP_RADIUS * np.sin(ang)
                lo, hi = a + (b - a) * s_, ta + (tb - ta) * s_
                ring.append(tuple(lo + (hi - lo) * h_))
            poly(img, ring, die.pips)


def seen(die: Die, checkers: Sequence[Checker], shape: L.BoardShape,
         to_image: Callable[[np.ndarray], np.ndarray], camera: Optional[Camera] = None) -> DieSeen:
    """What a dice finder should report for a placed ``die`` (``to_image``: board pw to image px; ``camera``:
    the camera over the board it was drawn as seen by: its image centre is then its top face's, as seen,
    and its box holds that face too)."""
    assert die.x is not None and die.y is not None and die.angle is not None
    _, whole = die_outline(die)
    on = any((die.x - cx) ** 2 + (die.y - cy) ** 2 < r * r for cx, cy, r in checkers)
    top = parallax(die, camera, on)
    drawn = whole if top is None else np.vstack([whole, top])
    centre = [[die.x, die.y]] if top is None else [top.mean(axis=0)]
    img_pts = to_image(np.vstack([drawn, centre]))
    inside = (0 <= whole[:, 0]) & (whole[:, 0] <= shape.width) & (0 <= whole[:, 1]) & (whole[:, 1] <= shape.height)
    off = not (0 <= die.x <= shape.width and 0 <= die.y <= shape.height)
    half = None if off else "left" if die.x < L.BAR_LEFT else "right" if die.x > L.BAR_LEFT + shape.bar else "bar"
    lo, hi = img_pts[:-1].min(axis=0), img_pts[:-1].max(axis=0)
    return DieSeen(die.value, (die.x, die.y), (float(img_pts[-1, 0]), float(img_pts[-1, 1])),
                   (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])), half, on, off, not bool(inside.all()),
                   die.tilt, die.angle)
