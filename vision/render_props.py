"""Props of a real table for the synthetic camera: hinges and fittings on the bar, the
doubling cube (on the bar or beside the board), logos on the playing surface, a raised frame
lip, a game clock and a score board beside the board, and motion blur on a moving arm; the
dice are :mod:`vision.render_dice` (their names are importable from here too).

Texture-space props (dice, the cube, hinges, logos, lip) are drawn in point widths on the board
texture (:mod:`vision.render_tex`); the clock and the score board are drawn in the camera
image beside the board, never over it.  Every function takes its own random generator, so
a prop looks the same whichever other props are drawn.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import layout as L
from .render_dice import PIP_RADIUS, PIP_STEP, PIPS, Box, Camera, Checker, Die, DieSeen, die_outline, draw_die, place
from .render_dice import random_dice, seen
from .render_tex import BGR, FRAME, TEX, drop_shadow, poly, px, shade

__all__ = ["CUBE_FACES", "CUBE_PLACES", "METALS", "LOGOS", "PIPS", "PIP_RADIUS", "PIP_STEP", "Box", "Camera", "Checker",
           "Cube", "Die", "DieSeen", "cube_outline", "cube_place", "die_outline", "draw_clock", "draw_cube", "draw_die",
           "draw_hinges", "draw_lip", "draw_logos", "draw_scoreboard", "motion_blur", "place", "random_dice", "seen"]


# --------------------------------------------------------------------------- bar and surface

# silver, brass, chrome, bronze
METALS: tuple[BGR, ...] = ((190, 192, 198), (70, 165, 205), (222, 222, 228), (90, 120, 150))


def draw_hinges(img: np.ndarray, rng: np.random.Generator, shape: L.BoardShape) -> list[Box]:
    """Two hinges across the bar (and now and then a clasp in its middle): metal plates with a
    knuckle and screws.  Returns each plate's box (pw)."""
    metal = METALS[int(rng.integers(len(METALS)))]
    bc = L.BAR_LEFT + shape.bar / 2
    w = shape.bar * float(rng.uniform(0.55, 1.35))
    h = float(rng.uniform(0.7, 1.3))
    yc = float(rng.uniform(0.12, 0.3)) * shape.height
    centres = [yc, shape.height - yc + float(rng.uniform(-0.3, 0.3))]
    boxes: list[Box] = []
    for y in centres:
        boxes.append((bc - w / 2, y - h / 2, bc + w / 2, y + h / 2))
    if rng.random() < 0.4:
        cw, ch = w * float(rng.uniform(0.5, 0.9)), float(rng.uniform(0.3, 0.6))
        boxes.append((bc - cw / 2, shape.height / 2 - ch / 2, bc + cw / 2, shape.height / 2 + ch / 2))
    for k, (x0, y0, x1, y1) in enumerate(boxes):
        poly(img, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], shade(metal, 0.8))
        poly(img, [(x0, y0), ((x0 + x1) / 2, y0), ((x0 + x1) / 2, y1), (x0, y1)], shade(metal, 1.05))
        cv2.rectangle(img, px(x0, y0), px(x1, y1), shade(metal, 0.5), 1, cv2.LINE_AA, shift=4)
        if k < 2:  # a hinge: the knuckle along the bar's middle, two screws a leaf
            kw = min(0.12, (x1 - x0) / 5)
            poly(img, [(bc - kw, y0), (bc + kw, y0), (bc + kw, y1), (bc - kw, y1)], shade(metal, 1.2))
            cv2.line(img, px(bc, y0), px(bc, y1), shade(metal, 0.55), 1, cv2.LINE_AA, shift=4)
            for sx in (x0 + (bc - kw - x0) / 2, x1 - (x1 - bc - kw) / 2):
                for sy in (y0 + (y1 - y0) * 0.22, y1 - (y1 - y0) * 0.22):
                    r = int(min(0.06, (x1 - x0) / 9) * TEX * 16)
                    cv2.circle(img, px(sx, sy), r, shade(metal, 0.45), -1, cv2.LINE_AA, shift=4)
    return boxes


CUBE_FACES = (2, 4, 8, 16, 32, 64)
CUBE_PLACES = ("middle", "top", "bottom", "side")   # on the bar (its middle or near an end), or beside the board
# ivory with black numbers; black, green, red with white or gold ones (tournament cubes)
CUBE_COLOURS: tuple[tuple[BGR, BGR], ...] = (((225, 235, 238), (25, 25, 25)), ((30, 30, 30), (235, 235, 235)),
                                             ((50, 110, 30), (235, 235, 235)), ((35, 35, 150), (70, 190, 225)))


@dataclass(frozen=True)
class Cube:
    """The doubling cube as drawn: the face up (64 at the start of a game), its centre and
    edge (pw on the board as drawn) and its turn about the vertical (degrees)."""

    value: int
    x: float
    y: float
    size: float
    angle: float

    def __post_init__(self) -> None:
        if self.value not in CUBE_FACES:
            raise ValueError(f"cube face {self.value!r}: a doubling cube shows one of {CUBE_FACES}")


def cube_place(rng: np.random.Generator, shape: L.BoardShape, checker: float, bar: tuple[int, int]) -> Cube:
    """Where the cube lies at random: in the bar's middle (at the start of a game, 64 up), near
    the end of the bar on one player's side (owned: 2..64), or beside the board on the frame.
    Its edge is 0.65..0.9 of a checker's diameter.  ``bar``: the checkers on the bar (dark's
    lie in its upper half, light's in the lower), so that the cube lies clear of them."""
    size = checker * float(rng.uniform(0.65, 0.9))
    angle = float(rng.uniform(-12, 12))
    where = str(rng.choice(CUBE_PLACES, p=[0.45, 0.2, 0.2, 0.15]))
    value = 64 if where == "middle" and rng.random() < 0.6 else int(rng.choice(CUBE_FACES))
    bx = L.BAR_LEFT + shape.bar / 2
    end = size / 2 + float(rng.uniform(0.08, 0.3))
    room = (bar[0] < 4, bar[1] < 4)   # an end of the bar free of that side's checkers
    if where == "top" and room[0]:
        return Cube(value, bx, end, size, angle)
    if where == "bottom" and room[1]:
        return Cube(value, bx, shape.height - end, size, angle)
    if where == "side":
        return Cube(value, float(rng.choice([-FRAME / 2, shape.width + FRAME / 2])), shape.height / 2, min(size, 0.9),
                    angle)
    return Cube(value, bx, shape.height / 2 + float(rng.uniform(-0.05, 0.05)), size, angle)


def cube_outline(cube: Cube) -> np.ndarray:
    """The cube's top face: 4 corners (pw)."""
    a = np.radians(cube.angle)
    ex, ey = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c = np.array([cube.x, cube.y])
    return np.array([c + (u * ex + v * ey) * cube.size / 2 for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def draw_cube(img: np.ndarray, cube: Cube, rng: np.random.Generator) -> None:
    """Draw the doubling cube seen from above: its shadow, the face with rounded, darker edges and
    its number printed in the middle (upright, or turned to either player)."""
    face, ink = CUBE_COLOURS[int(rng.integers(len(CUBE_COLOURS)))]
    top = cube_outline(cube)
    drop_shadow(img, top + np.array([0.06, 0.08]), 5, 0.45)
    poly(img, [tuple(p) for p in top], shade(face, 0.7))     # the bevelled edges
    inner = np.array([cube.x, cube.y]) + (top - np.array([cube.x, cube.y])) * 0.86
    poly(img, [tuple(p) for p in inner], face)
    text = str(cube.value)
    side = int(round(cube.size * TEX))
    m = _text_sprite(text, max(4, int(side * (0.42 if len(text) > 1 else 0.5))), max(1, side // 14))
    m = cv2.resize(m, (min(m.shape[1], int(side * 0.7)), m.shape[0]))
    turn = cube.angle + 90.0 * int(rng.integers(4))
    big = int(np.ceil(np.hypot(*m.shape))) + 2
    canvas = np.zeros((big, big), np.uint8)
    oy, ox = (big - m.shape[0]) // 2, (big - m.shape[1]) // 2
    canvas[oy:oy + m.shape[0], ox:ox + m.shape[1]] = m
    rot = cv2.getRotationMatrix2D((big / 2, big / 2), -turn, 1.0)
    turned = cv2.warpAffine(canvas, rot, (big, big), flags=cv2.INTER_LINEAR)
    cx, cy = (cube.x + FRAME) * TEX, (cube.y + FRAME) * TEX
    _blend(img, turned, int(round(cx - big / 2)), int(round(cy - big / 2)), ink, 1.0)


LOGOS = ("GAMMON", "BACKGAMMON", "ABT", "USBGF", "CHAMPION", "GAMMON STUFF", "BMAB", "WBIF", "OPEN 2026")


def _text_sprite(text: str, height_px: int, thickness: int) -> np.ndarray:
    """White-on-black text, ``height_px`` tall (uint8 mask)."""
    font = cv2.FONT_HERSHEY_DUPLEX
    scale = height_px / 22.0
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    m = np.zeros((th + base + 4, tw + 4), np.uint8)
    cv2.putText(m, text, (2, th + 2), font, scale, 255, thickness, cv2.LINE_AA)
    return m


def _blend(img: np.ndarray, mask: np.ndarray, x0: int, y0: int, colour: BGR, alpha: float) -> None:
    h, w = img.shape[:2]
    mh, mw = mask.shape
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + mw, w), min(y0 + mh, h)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    a = mask[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0, None].astype(np.float32) * (alpha / 255.0)
    roi = img[ay0:ay1, ax0:ax1].astype(np.float32)
    img[ay0:ay1, ax0:ax1] = (roi * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def draw_logos(img: np.ndarray, rng: np.random.Generator, shape: L.BoardShape, surface: BGR) -> list[Box]:
    """Logos printed on the playing surface (across a half's middle, or at a point's base) and
    now and then along the bar: text, sometimes in an oval.  Returns each logo's box (pw)."""
    lum = sum(surface) / 3
    colours: list[BGR] = [(60, 170, 220), (30, 30, 30) if lum > 110 else (235, 235, 235), (40, 40, 160)]
    boxes: list[Box] = []
    for k in range(int(rng.integers(1, 3))):
        text = LOGOS[int(rng.integers(len(LOGOS)))]
        colour = colours[int(rng.integers(len(colours)))]
        hpw = float(rng.uniform(0.35, 0.7))
        m = _text_sprite(text, int(hpw * TEX), max(1, int(hpw * 3)))
        wpw = m.shape[1] / TEX
        if wpw > 5.0:  # fit in a half
            m = cv2.resize(m, (int(5.0 * TEX), max(4, int(m.shape[0] * 5.0 * TEX / m.shape[1]))))
        if rng.random() < 0.4:  # an oval around it
            pad = m.shape[0] // 2
            o = np.zeros((m.shape[0] + 2 * pad, m.shape[1] + 2 * pad), np.uint8)
            o[pad:pad + m.shape[0], pad:pad + m.shape[1]] = m
            cv2.ellipse(o, (o.shape[1] // 2, o.shape[0] // 2), (o.shape[1] // 2 - 2, o.shape[0] // 2 - 2), 0, 0, 360,
                        255, 2, cv2.LINE_AA)
            m = o
        where = rng.choice(["middle", "base", "bar"], p=[0.6, 0.25, 0.15])
        half = k % 2 if rng.random() < 0.8 else int(rng.integers(2))
        xc = (L.BAR_LEFT / 2) if half == 0 else (L.BAR_LEFT + shape.bar + (shape.width - L.BAR_LEFT - shape.bar) / 2)
        yc = shape.height / 2
        if where == "base":  # printed along the points' bases, inside the playing area
            hm = m.shape[0] / TEX / 2 + 0.05
            yc = float(rng.choice([hm, shape.height - hm]))
        elif where == "bar":
            m = np.ascontiguousarray(np.rot90(m))
            if m.shape[1] > shape.bar * TEX * 0.9:
                s = shape.bar * TEX * 0.9 / m.shape[1]
                m = cv2.resize(m, (max(2, int(m.shape[1] * s)), max(2, int(m.shape[0] * s))))
            xc = L.BAR_LEFT + shape.bar / 2
            yc = float(rng.choice([shape.height * 0.32, shape.height * 0.68]))
        x0 = int(round((xc + FRAME) * TEX - m.shape[1] / 2))
        y0 = int(round((yc + FRAME) * TEX - m.shape[0] / 2))
        _blend(img, m, x0, y0, colour, float(rng.uniform(0.6, 0.95)))
        boxes.append((x0 / TEX - FRAME, y0 / TEX - FRAME,
                      (x0 + m.shape[1]) / TEX - FRAME, (y0 + m.shape[0]) / TEX - FRAME))
    return boxes


def draw_lip(img: np.ndarray, rng: np.random.Generator, shape: L.BoardShape, frame: BGR) -> tuple[str, float]:
    """The inner wall of a raised frame seen in perspective along one edge of the playing
    area: a band ``depth`` pw deep over the surface (and over the base of the checkers
    there).  Returns (edge, depth)."""
    edge = str(rng.choice(["top", "bottom", "left", "right"], p=[0.4, 0.4, 0.1, 0.1]))
    depth = float(rng.uniform(0.15, 0.45))
    W, H = shape.width, shape.height
    steps = 4
    for k in range(steps):  # from the lip's top edge (lit) to the floor (in shadow)
        a, b = depth * k / steps, depth * (k + 1) / steps
        c = shade(frame, 1.25 - 0.12 * k)
        quad = {"top": [(0, a), (W, a), (W, b), (0, b)],
                "bottom": [(0, H - b), (W, H - b), (W, H - a), (0, H - a)],
                "left": [(a, 0), (b, 0), (b, H), (a, H)],
                "right": [(W - b, 0), (W - a, 0), (W - a, H), (W - b, H)]}[edge]
        poly(img, [(float(x), float(y)) for x, y in quad], c)
    return edge, depth


# --------------------------------------------------------------------------- beside the board


def _margin_box(rng: np.random.Generator, size: tuple[float, float], board: Box, image: tuple[int, int],
                taken: list[Box]) -> Box:
    """A box ``size`` (w, h px) in a free margin beside ``board`` (px), the widest first, clear of
    the ``taken`` boxes where it can be; it may run off the image, never onto the board."""
    W, H = image
    bx0, by0, bx1, by1 = board
    w, h = size
    gap = 8.0
    margins = sorted([("left", bx0), ("right", W - bx1), ("top", by0 * 0.6), ("bottom", (H - by1) * 0.6)],
                     key=lambda m: -m[1])

    def at(side: str, t: float) -> Box:
        if side in ("left", "right"):
            y0 = max(by0, 0) + t * max(min(by1, H) - h - max(by0, 0), 0)
            x0 = bx0 - gap - w if side == "left" else bx1 + gap
            return (x0, y0, x0 + w, y0 + h)
        x0 = max(bx0, 0) + t * max(min(bx1, W) - w - max(bx0, 0), 0)
        y0 = by0 - gap - h if side == "top" else by1 + gap
        return (x0, y0, x0 + w, y0 + h)

    def clear(b: Box) -> bool:
        return all(b[2] + gap <= t[0] or t[2] + gap <= b[0] or b[3] + gap <= t[1] or t[3] + gap <= b[1] for t in taken)

    first = None
    for side, _ in margins:
        for t in rng.uniform(0, 1, 8):
            b = at(side, float(t))
            first = first or b
            if clear(b):
                return b
    assert first is not None
    return first


def draw_clock(img: np.ndarray, rng: np.random.Generator, pw_px: float, board: Box,
               taken: list[tuple[str, Box]]) -> Box:
    """A chess-style game clock beside the board: a dark body, two LCD faces with times, two buttons."""
    w, h = 3.2 * pw_px, 1.7 * pw_px
    if rng.random() < 0.5:
        w, h = h, w
    box = _margin_box(rng, (w, h), board, (img.shape[1], img.shape[0]), [b for _, b in taken])
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    body = [(30, 30, 35), (50, 40, 110), (25, 25, 25)][int(rng.integers(3))]
    cv2.rectangle(img, (x0, y0), (x1, y1), body, -1, cv2.LINE_AA)
    cv2.rectangle(img, (x0, y0), (x1, y1), shade(body, 1.8), 2, cv2.LINE_AA)
    horiz = (x1 - x0) >= (y1 - y0)
    lcd = (150, 175, 165)
    for k in range(2):
        if horiz:
            fx0, fx1 = x0 + (x1 - x0) * (0.07 + 0.48 * k), x0 + (x1 - x0) * (0.45 + 0.48 * k)
            fy0, fy1 = y0 + (y1 - y0) * 0.3, y0 + (y1 - y0) * 0.8
        else:
            fx0, fx1 = x0 + (x1 - x0) * 0.15, x1 - (x1 - x0) * 0.15
            fy0, fy1 = y0 + (y1 - y0) * (0.07 + 0.48 * k), y0 + (y1 - y0) * (0.45 + 0.48 * k)
        cv2.rectangle(img, (int(fx0), int(fy0)), (int(fx1), int(fy1)), lcd, -1)
        t = f"{int(rng.integers(0, 3))}:{int(rng.integers(0, 60)):02d}"
        (tw, th), _ = cv2.getTextSize(t, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 2)
        scale = max(0.2, min((fy1 - fy0) * 0.6 / th, (fx1 - fx0 - 6) / tw))  # fit the face
        cv2.putText(img, t, (int(fx0 + 3), int(fy1 - (fy1 - fy0) * 0.25)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (30, 30, 30), max(1, int(scale * 2)), cv2.LINE_AA)
        bx, by = ((fx0 + fx1) / 2, y0 + (y1 - y0) * 0.12) if horiz else (x0 + (x1 - x0) * 0.08, (fy0 + fy1) / 2)
        cv2.circle(img, (int(bx), int(by)), max(2, int(pw_px * 0.18)), shade(body, 2.5), -1, cv2.LINE_AA)
    return box


def draw_scoreboard(img: np.ndarray, rng: np.random.Generator, pw_px: float, board: Box,
                    taken: list[tuple[str, Box]]) -> Box:
    """A flip score board beside the board: three cards (the two scores and the match length)."""
    w, h = 1.8 * pw_px, 4.2 * pw_px
    if rng.random() < 0.4:
        w, h = h, w
    box = _margin_box(rng, (w, h), board, (img.shape[1], img.shape[0]), [b for _, b in taken])
    x0, y0, x1, y1 = (int(round(v)) for v in box)
    cv2.rectangle(img, (x0, y0), (x1, y1), (225, 228, 230), -1, cv2.LINE_AA)
    cv2.rectangle(img, (x0, y0), (x1, y1), (60, 60, 60), 2, cv2.LINE_AA)
    length = int(rng.choice([5, 7, 9, 11, 13, 17]))
    cards = [str(int(rng.integers(0, length))), str(length), str(int(rng.integers(0, length)))]
    vert = (y1 - y0) > (x1 - x0)
    for k, text in enumerate(cards):
        cx0, cy0, cx1, cy1 = ((x0 + 4.0, y0 + (y1 - y0) * k / 3 + 4, x1 - 4.0, y0 + (y1 - y0) * (k + 1) / 3 - 4)
                              if vert else
                              (x0 + (x1 - x0) * k / 3 + 4, y0 + 4.0, x0 + (x1 - x0) * (k + 1) / 3 - 4, y1 - 4.0))
        cv2.rectangle(img, (int(cx0), int(cy0)), (int(cx1), int(cy1)), (245, 245, 245), -1)
        cv2.line(img, (int(cx0), int((cy0 + cy1) / 2)), (int(cx1), int((cy0 + cy1) / 2)), (150, 150, 150), 1)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 1.0, 2)
        scale = max(0.2, min((cy1 - cy0) * 0.7 / th, (cx1 - cx0) * 0.8 / tw))  # fit the card
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, int(scale * 2.5)))
        cv2.putText(img, text, (int((cx0 + cx1 - tw) / 2), int((cy0 + cy1 + th) / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, (20, 20, 20), max(1, int(scale * 2.5)), cv2.LINE_AA)
    return box


def motion_blur(after: np.ndarray, before: np.ndarray, direction: np.ndarray, length: int) -> np.ndarray:
    """``after`` with what was drawn over ``before`` (an arm) smeared ``length`` px along ``direction``."""
    b_, g_, r_ = cv2.split(cv2.absdiff(after, before))
    changed = cv2.max(cv2.max(b_, g_), r_) > 0
    ys, xs = np.nonzero(changed)
    if len(xs) == 0 or length < 2:
        return after
    h, w = after.shape[:2]
    x0, x1 = max(int(xs.min()) - length, 0), min(int(xs.max()) + length + 1, w)
    y0, y1 = max(int(ys.min()) - length, 0), min(int(ys.max()) + length + 1, h)
    k = np.zeros((length | 1, length | 1), np.float32)
    c = (length | 1) // 2
    d = direction / (np.linalg.norm(direction) + 1e-9) * c
    cv2.line(k, (int(round(c - d[0])), int(round(c - d[1]))), (int(round(c + d[0])), int(round(c + d[1]))), 1.0, 1)
    k /= k.sum()
    m = changed[y0:y1, x0:x1].astype(np.float32)
    a = after[y0:y1, x0:x1].astype(np.float32)
    hb = cv2.filter2D(a * m[..., None], -1, k, borderType=cv2.BORDER_CONSTANT)
    mb = cv2.filter2D(m, -1, k, borderType=cv2.BORDER_CONSTANT)
    out = after.copy()
    b = before[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = np.clip(hb + b * (1 - mb[..., None]), 0, 255).astype(np.uint8)
    return out
