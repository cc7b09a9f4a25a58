"""A synthetic camera: draws a board in any position as a camera above the table sees it.

Used by tests, benchmarks and the simulated table.  A board is drawn top-down into a
texture (in point widths, see :mod:`vision.layout`), warped into the camera by a random
homography, bent by lens distortion and then spoiled: light gradients, glare, shadows,
noise, blur, JPEG artefacts, checker jitter and overlap, and optionally a hand with an
arm (and a checker in its fingers) over the board.  Same seed and frame, same image; another ``frame``
changes only the sensor noise.

What real tables show is off by default and switched on per option of :class:`RenderParams`
(or all at once, at realistic rates, by :meth:`RenderParams.real_table`): hinges and logos,
dice (:class:`vision.render_props.Die`; :attr:`Rendered.dice` says where each lies), six or
more checkers in a row, pearl, carved and marbled faces (:mod:`vision.render_faces`),
off-centre checkers on a narrow bar, a raised frame lip, blurred arms, a clock and a score
board.  With the defaults a seed gives the same image as before these options existed.
"""
from __future__ import annotations

import functools
import zlib
from dataclasses import dataclass, field, replace
from typing import Optional, Sequence

import cv2
import numpy as np

from referee.events import BoardEvidence

from . import layout as L
from . import render_props as P
from .markers import MARKER_BORDER, MARKER_IDS, MARKER_SIZE, marker_image
from .render_faces import STYLES, VARIANTS, paint_face
from .render_props import Die, DieSeen
from .render_tex import BGR, FRAME, TEX, TRAY, poly, px, real, shade, tex_size

__all__ = ["BGR", "FRAME", "SCHEMES", "TEX", "TRAY", "Die", "DieSeen", "Props", "RenderParams", "Rendered", "Scheme",
           "distort_points", "draw_board", "render", "render_scene", "stack_offsets"]


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

    def __post_init__(self) -> None:
        if not 5 <= self.row_max <= 8:
            raise ValueError(f"row_max {self.row_max}: checkers lined up along a point before stacking, 5..8")
        for name in ("face_prob", "hinge_prob", "logo_prob", "dice_prob", "lip_prob", "arm_blur_prob", "clock_prob",
                     "scoreboard_prob"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"{name} {getattr(self, name)} is not a probability (0..1)")

    @classmethod
    def real_table(cls, bar: float = L.BAR_WIDTH, **kw: object) -> "RenderParams":
        """What tournament tables show, at realistic rates: hinges, logos, dice, six in a row,
        textured faces, off-centre bar checkers, a frame lip, blurred arms, a clock and a score
        board.  ``bar``: the bar's width (pw; real boards' bars are often narrower than a checker)."""
        base = dict(row_max=6, face_prob=0.5, hinge_prob=0.8, logo_prob=0.5, dice_prob=0.6,
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


# --------------------------------------------------------------------------- texture


_px, _tex_size, _real, _shade, _poly = px, tex_size, real, shade, poly
TEX_W, TEX_H = _tex_size(L.BoardShape())


@functools.lru_cache(maxsize=16)
def _empty_board(scheme: Scheme, markers: bool, shape: L.BoardShape = L.BoardShape()) -> np.ndarray:
    tw, th = _tex_size(shape)
    W, H = shape.width, shape.height
    img = np.zeros((th, tw, 3), np.uint8)
    img[:] = scheme.frame
    rng = np.random.default_rng(zlib.crc32(scheme.name.encode()))  # stable across processes
    grain = cv2.resize(rng.normal(0, 6, (th // 8, tw // 2)).astype(np.float32), (tw, th))
    _poly(img, [(0, 0), (W, 0), (W, H), (0, H)], scheme.surface)
    b0, b1 = L.BAR_LEFT, L.BAR_LEFT + shape.bar
    _poly(img, [(b0, 0), (b1, 0), (b1, H), (b0, H)], scheme.bar)
    tx = W + FRAME
    for y0, y1 in ((0, H / 2 - 0.2), (H / 2 + 0.2, H)):
        _poly(img, [(tx, y0), (tx + TRAY, y0), (tx + TRAY, y1), (tx, y1)], _shade(scheme.surface, 0.8))
    for i in range(12):
        x = _real(shape, L.column_x(i), 0.0)[0]
        for top in (True, False):
            c = scheme.point_a if (i + top) % 2 else scheme.point_b
            if top:
                _poly(img, [(x - 0.5, 0), (x + 0.5, 0), (x, L.POINT_LEN - 0.1)], c)
            else:
                _poly(img, [(x - 0.5, H), (x + 0.5, H), (x, H - L.POINT_LEN + 0.1)], c)
    out = np.clip(img.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
    if markers:
        paper = MARKER_SIZE * (1 + 2 * MARKER_BORDER)
        side = int(round(paper * TEX))
        for mid, (cx, cy), (sx, sy) in zip(MARKER_IDS, shape.corners_pw(), ((-1, -1), (1, -1), (1, 1), (-1, 1))):
            m = marker_image(mid, side)
            x0 = int(round((cx + FRAME) * TEX + (0 if sx > 0 else -side)))
            y0 = int(round((cy + FRAME) * TEX + (0 if sy > 0 else -side)))
            out[y0:y0 + side, x0:x0 + side] = m[..., None]
    return out


def _checker(img: np.ndarray, x: float, y: float, colour: BGR, layer: int, size: float = L.CHECKER,
             face: Optional[str] = None, variant: int = 0) -> None:
    """Draw one checker (``size`` pw across) seen from above: a shadow, the body, a rim, a groove and a sheen."""
    r = size / 2 * (1 + 0.03 * layer)
    cx, cy = _px(x, y)
    R = int(r * TEX * 16)
    lum = sum(colour) / 3
    sx, sy = _px(x + 0.06, y + 0.08)
    roi_r = int(r * TEX) + 6
    px, py = (sx >> 4), (sy >> 4)
    y0, y1 = max(py - roi_r, 0), min(py + roi_r, img.shape[0])
    x0, x1 = max(px - roi_r, 0), min(px + roi_r, img.shape[1])
    if y1 > y0 and x1 > x0:
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(mask, ((sx - x0 * 16), (sy - y0 * 16)), R, 255, -1, cv2.LINE_AA, shift=4)
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1.0 - 0.45 * (mask[..., None] / 255.0))).astype(np.uint8)
    cv2.circle(img, (cx, cy), R, colour, -1, cv2.LINE_AA, shift=4)
    if face is not None:
        paint_face(img, cx / 16, cy / 16, R / 16, face, colour, variant)
    rim = _shade(colour, 0.55) if lum > 90 else tuple(min(255, v + 45) for v in colour)
    cv2.circle(img, (cx, cy), R - 16, rim, 2, cv2.LINE_AA, shift=4)
    groove = _shade(colour, 0.82) if lum > 90 else tuple(min(255, v + 25) for v in colour)
    cv2.circle(img, (cx, cy), int(R * 0.68), groove, 1, cv2.LINE_AA, shift=4)


def stack_offsets(n: int, size: float = L.CHECKER, row_max: int = 5) -> list[tuple[float, int]]:
    """Distance from the point's base (pw) and layer of each of ``n`` (0..15) checkers
    ``size`` pw across on a point, stacked as :func:`vision.layout.stack_slots` says (a pyramid 5-4-3-2-1).

    ``row_max`` above 5: tournament style, up to that many lined up along the point (as many as
    fit in half the board's height) before the next layer, each layer one shorter."""
    if row_max <= 5:
        return [(size * h / 2, layer) for h, layer in L.stack_slots(n)]
    if not 0 <= n <= L.MAX_STACK:
        raise ValueError(f"stack of {n} checkers: a point holds 0..{L.MAX_STACK}")
    row = max(5, min(row_max, int((L.HEIGHT / 2 - 0.05) / size)))
    out: list[tuple[float, int]] = []
    layer = 0
    while len(out) < n:
        for k in range(max(row - layer, 1)):
            if len(out) == n:
                break
            out.append((size * (1 + layer + 2 * k) / 2, layer))
        layer += 1
    return out


def draw_board(position: BoardEvidence, scheme: Scheme, setup: L.SetUp, rng: np.random.Generator,
               jitter: float = 0.05, markers: bool = True, off_pitch: float = L.TRAY_PITCH,
               checker: float = L.CHECKER, shape: L.BoardShape = L.BoardShape()) -> np.ndarray:
    """The board seen exactly from above, as a texture (see :data:`TEX`).  Borne-off
    checkers lie in the right tray, each ``off_pitch`` pw apart (its thickness and a 0.03 gap)."""
    return _draw_board(position, scheme, setup, rng, jitter, markers, off_pitch, checker, shape)[0]


def _draw_board(position: BoardEvidence, scheme: Scheme, setup: L.SetUp, rng: np.random.Generator,
                jitter: float = 0.05, markers: bool = True, off_pitch: float = L.TRAY_PITCH,
                checker: float = L.CHECKER, shape: L.BoardShape = L.BoardShape(), params: Optional[RenderParams] = None,
                pr: Optional[np.random.Generator] = None) -> tuple[np.ndarray, Props]:
    """:func:`draw_board` with the real-table props of ``params`` (drawn from ``pr``), and what was drawn."""
    img = _empty_board(scheme, markers, shape).copy()
    p_ = params or RenderParams()
    pr = pr or np.random.default_rng(0)
    logos: list[P.Box] = []
    hinges: list[P.Box] = []
    faces: list[Optional[str]] = [None, None]
    # one stream a prop: each looks the same whatever else is drawn
    keys = [int(k) for k in pr.integers(2 ** 31, size=4)]
    if p_.hinge_prob or p_.logo_prob or p_.face_prob:
        streams = [np.random.default_rng([keys[k], k]) for k in range(3)]
        if streams[0].random() < p_.logo_prob:
            logos = P.draw_logos(img, streams[0], shape, scheme.surface)
        if streams[1].random() < p_.hinge_prob:
            hinges = P.draw_hinges(img, streams[1], shape)
        for ci in range(2):
            if streams[2].random() < p_.face_prob:
                faces[ci] = STYLES[int(streams[2].integers(len(STYLES)))]
    vr = np.random.default_rng([keys[3], 5])  # face variants and bar offsets
    top, bottom = setup.to_rows(position)
    items = []
    for row, readings in (("top", top), ("bottom", bottom)):
        for i, p in enumerate(readings):
            col = scheme.dark if p.colour == "dark" else scheme.light
            for d, layer in stack_offsets(p.count, checker, p_.row_max):
                jx, jy = np.clip(rng.normal(0, jitter, 2), -2.5 * jitter, 2.5 * jitter)
                y = d + 0.02 if row == "top" else L.HEIGHT - d - 0.02
                items.append((layer, *_real(shape, L.column_x(i) + jx, y + jy * 0.6), col))
    cx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    for ci, colour in enumerate((scheme.dark, scheme.light)):
        for k in range(position.bar[ci]):
            d = 0.55 + checker * (k + 0.5) if k < 5 else 0.55 + checker * (k - 4)
            y = L.HEIGHT / 2 - d if ci == 0 else L.HEIGHT / 2 + d
            jx, jy = np.clip(rng.normal(0, jitter, 2), -2.5 * jitter, 2.5 * jitter)
            if p_.bar_offset > 0:
                jx += float(np.clip(vr.normal(0, p_.bar_offset), -2.5 * p_.bar_offset, 2.5 * p_.bar_offset))
            items.append((0 if k < 5 else 1, *_real(shape, cx + jx, y + jy * 0.6), colour))
    drawn = []
    for layer, x, y, col in sorted(items, key=lambda t: t[0]):
        face = faces[0 if col == scheme.dark else 1] if faces != [None, None] else None
        _checker(img, x, y, col, layer, checker, face, int(vr.integers(VARIANTS)) if face else 0)
        drawn.append((x, y, checker / 2 * (1 + 0.03 * layer)))
    off = position.off or (0, 0)
    tx = shape.width + FRAME + 0.05
    for ci, colour in enumerate((scheme.dark, scheme.light)):
        for k in range(off[ci]):
            y = (0.1 + k * off_pitch) if ci == 0 else (shape.height - 0.1 - (k + 1) * off_pitch)
            t = off_pitch - 0.03
            _poly(img, [(tx, y), (tx + checker, y), (tx + checker, y + t), (tx, y + t)], colour)
            _poly(img, [(tx, y + t - 0.03), (tx + checker, y + t - 0.03), (tx + checker, y + t), (tx, y + t)],
                  _shade(colour, 0.6))
    return img, Props(hinges=tuple(hinges), logos=tuple(logos), faces=(faces[0], faces[1]), checkers=tuple(drawn))


# --------------------------------------------------------------------------- camera


@functools.lru_cache(maxsize=2)
def _lens_grid(w: int, h: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each pixel's offset from the centre (shares of the longer side) and its square distance."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    f = float(max(w, h))
    dx, dy = (xs - w / 2) / f, (ys - h / 2) / f
    return dx, dy, dx * dx + dy * dy


@functools.lru_cache(maxsize=8)
def _distortion_maps(w: int, h: int, k1: float) -> tuple[np.ndarray, np.ndarray]:
    dx, dy, r2 = _lens_grid(w, h)
    f = float(max(w, h))
    s = np.multiply(r2, k1, dtype=np.float32)  # in place, as ``w / 2 + dx * (1 + k1 * r2) * f`` in float32
    s += 1
    mx = np.multiply(dx, s)
    mx *= f
    mx += w / 2
    my = np.multiply(dy, s)
    my *= f
    my += h / 2
    return mx, my


def distort_points(pts: np.ndarray, w: int, h: int, k1: float) -> np.ndarray:
    """Where undistorted image points land after the renderer's lens distortion."""
    f = float(max(w, h))
    c = np.array([w / 2, h / 2])
    p = (np.asarray(pts, float) - c) / f
    u = p.copy()
    for _ in range(20):
        u = p / (1 + k1 * (u ** 2).sum(axis=1, keepdims=True))
    return (u * f + c).astype(np.float32)


@functools.lru_cache(maxsize=4)
def _noise_tile(w: int, h: int) -> np.ndarray:
    rng = np.random.default_rng(12345)
    return rng.normal(0, 1, (h + 64, w + 64, 3)).astype(np.float32)


def _draw_hand(img: np.ndarray, rng: np.random.Generator, target: np.ndarray, checker: Optional[BGR]) -> np.ndarray:
    """An arm from the nearest frame edge to ``target`` with a palm, fingers and its shadow."""
    h, w = img.shape[:2]
    tx, ty = target
    edges = [(tx, h + 60), (tx, -60), (-60, ty), (w + 60, ty)]
    ex, ey = edges[int(rng.integers(4))]
    ex += rng.uniform(-150, 150)
    ey += rng.uniform(-150, 150)
    sr, sg, sb = (int(v) for v in rng.choice([(110, 150, 205), (90, 130, 190), (60, 90, 140), (150, 180, 225),
                                              (40, 60, 100)]))
    skin = (sr, sg, sb)
    sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
    d = np.array([tx - ex, ty - ey], float)
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    wid = rng.uniform(45, 70)
    palm = np.array([tx, ty]) - d * 40

    def arm_poly(off: np.ndarray) -> list[np.ndarray]:
        a = np.array([ex, ey]) + off
        b = palm + off
        return [np.array([a + n * wid * 1.3, a - n * wid * 1.3, b - n * wid, b + n * wid], np.int32)]

    shadow = np.zeros(img.shape[:2], np.uint8)
    so = np.array([35.0, 45.0])
    cv2.fillPoly(shadow, arm_poly(so), 255)
    cv2.ellipse(shadow, tuple(int(v) for v in palm + so + d * 30), (int(wid * 1.2), int(wid)), 0, 0, 360, 255, -1)
    soft = cv2.blur(shadow, (41, 41))
    img[:] = (img * (1 - 0.4 * soft[..., None] / 255.0)).astype(np.uint8)
    cv2.fillPoly(img, arm_poly(np.zeros(2)), sleeve, cv2.LINE_AA)
    ang = float(np.degrees(np.arctan2(d[1], d[0])))
    cv2.ellipse(img, tuple(int(v) for v in palm + d * 30), (int(wid * 1.25), int(wid * 1.05)), ang, 0, 360, skin, -1,
                cv2.LINE_AA)
    for k in (-1.5, -0.5, 0.5, 1.5):
        fp = palm + d * (wid * 1.6 + rng.uniform(-10, 25)) + n * k * wid * 0.42
        cv2.ellipse(img, tuple(int(v) for v in fp), (int(wid * 0.55), int(wid * 0.17)), ang, 0, 360, _shade(skin, 0.92),
                    -1, cv2.LINE_AA)
    if checker is not None:
        cp = palm + d * wid * 1.9
        cv2.circle(img, tuple(int(v) for v in cp), int(wid * 0.8), checker, -1, cv2.LINE_AA)
    return d


def render_scene(position: BoardEvidence, params: RenderParams = RenderParams(), seed: int = 0,
                 hand: bool = False, setup: Optional[L.SetUp] = None, frame: int = 0,
                 dice: Optional[Sequence[Die]] = None) -> Rendered:
    """Render ``position`` (table numbering) as a camera frame, with the truth and corners.

    ``seed`` fixes the camera, board, light and checker placement; ``frame`` (0 = the
    frame a seed always gave) draws fresh per-frame effects only: sensor noise and a
    slight mains flicker of the light, as successive frames of a still board differ.
    ``dice``: dice to draw on the board (``RenderParams.dice_prob`` throws two at random
    when None); :attr:`Rendered.dice` says where each lies.
    """
    rng = np.random.default_rng(seed)
    bg = tuple(int(v) for v in rng.integers(30, 200, 3))
    scheme = next((s for s in SCHEMES if s.name == params.scheme), None) if params.scheme else None
    if scheme is None:
        scheme = SCHEMES[int(rng.integers(len(SCHEMES)))]
    setup = setup or L.SetUp()
    # separate streams, so the camera and the light stay put when the position or the hand changes
    lo, hi = params.off_pitch
    off_pitch = float(np.random.default_rng([seed, 17]).uniform(lo, hi)) if hi > lo else lo
    lo, hi = params.checker
    size = float(np.random.default_rng([seed, 19]).uniform(lo, hi)) if hi > lo else lo
    shape = params.shape
    tex, props = _draw_board(position, scheme, setup, np.random.default_rng([seed, 7]), params.jitter, params.markers,
                             off_pitch, size, shape, params, np.random.default_rng([seed, 23]))
    dr = np.random.default_rng([seed, 29])
    if dice is None and params.dice_prob and dr.random() < params.dice_prob:
        dice = P.random_dice(dr, props.checkers, shape)
    placed = [P.place(d, dr, props.checkers, shape) for d in dice or ()]
    for d in placed:
        P.draw_die(tex, d, any((d.x - cx) ** 2 + (d.y - cy) ** 2 < r * r for cx, cy, r in props.checkers))  # type: ignore[operator]
    lr = np.random.default_rng([seed, 31])
    if params.lip_prob and lr.random() < params.lip_prob:
        props = replace(props, lip=P.draw_lip(tex, lr, shape, scheme.frame))
    TEX_W, TEX_H = _tex_size(shape)
    W, H = params.width, params.height
    # camera: the texture's corners to a rotated, shrunk, perspective-perturbed quad
    fill = rng.uniform(*params.fill)
    sc = fill * min(W / TEX_W, H / TEX_H)
    ang = np.radians(rng.uniform(-params.rotation_max, params.rotation_max))
    flipped = bool(rng.random() < params.flip_prob)
    if flipped:
        ang += np.pi
    src = np.array([[0, 0], [TEX_W, 0], [TEX_W, TEX_H], [0, TEX_H]], np.float32)
    centred = (src - [TEX_W / 2, TEX_H / 2]) * sc
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    dst = centred @ rot.T
    span = dst.max(axis=0) - dst.min(axis=0)
    room = np.maximum(np.array([W, H]) - span, 0) / 2
    dst += np.array([W / 2, H / 2]) + rng.uniform(-1, 1, 2) * room * 0.8
    dst += rng.uniform(-1, 1, (4, 2)) * params.perspective_max * span.max()
    lo, hi = dst.min(axis=0), dst.max(axis=0)  # keep the whole board in view
    shrink = min(1.0, float(np.min((np.array([W, H]) - 24) / (hi - lo))))
    dst = (dst - (lo + hi) / 2) * shrink + (lo + hi) / 2
    lo, hi = dst.min(axis=0), dst.max(axis=0)
    dst += np.maximum(12 - lo, 0) - np.maximum(hi - np.array([W, H]) + 12, 0)
    Hm = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    img = cv2.warpPerspective(tex, Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    corners_tex = (shape.corners_pw() + FRAME) * TEX
    corners = cv2.perspectiveTransform(corners_tex[None].astype(np.float32), Hm)[0]
    if params.clock_prob or params.scoreboard_prob:
        props = replace(props, beside=_beside(img, np.random.default_rng([seed, 37]), params, Hm, TEX_W, TEX_H, sc))
    if hand:
        hr = np.random.default_rng([seed, 11])
        pa = cv2.perspectiveTransform(
            ((np.array([[hr.uniform(1, shape.width - 1), hr.uniform(1, shape.height - 1)]]) + FRAME) * TEX)[None]
            .astype(np.float32), Hm)[0][0]
        col = scheme.dark if hr.random() < 0.5 else scheme.light
        br = np.random.default_rng([seed, 41])
        blur = int(br.uniform(8, 36)) if params.arm_blur_prob and br.random() < params.arm_blur_prob else 0
        before = img.copy() if blur else None
        direction = _draw_hand(img, hr, pa, col if hr.random() < 0.5 else None)
        if before is not None:  # the arm moves along itself, across, or in between
            a = br.uniform(0, np.pi)
            img = P.motion_blur(img, before, np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ direction,
                                blur)
            props = replace(props, arm_blur=blur)
    k1 = rng.uniform(-params.distortion_max, params.distortion_max * 0.5)
    if abs(k1) > 1e-4:
        mx, my = _distortion_maps(W, H, round(float(k1), 3))
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        corners = distort_points(corners, W, H, round(float(k1), 3))

    def to_image(pts_pw: np.ndarray) -> np.ndarray:
        q = cv2.perspectiveTransform(((np.asarray(pts_pw, np.float64) + FRAME) * TEX)[None].astype(np.float32), Hm)[0]
        return distort_points(q, W, H, round(float(k1), 3)) if abs(k1) > 1e-4 else q

    seen = tuple(P.seen(d, props.checkers, shape, to_image) for d in placed)
    # light: a multiplicative field (gradient, shadow) and an additive one (glare), at low resolution
    lw, lh = 64, 36
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float32)
    gdir = rng.uniform(0, 2 * np.pi)
    g = rng.uniform(0, params.gradient_max)
    mul = 1 + g * (((xs / lw - 0.5) * np.cos(gdir) + (ys / lh - 0.5) * np.sin(gdir)))
    mul *= rng.uniform(0.8, 1.15)
    fr = np.random.default_rng([seed, 13, frame]) if frame else None
    if fr is not None:
        mul *= 1 + fr.uniform(-0.01, 0.01)
    if rng.random() < params.shadow_prob:
        sh = np.zeros((lh, lw), np.float32)
        pts = (rng.uniform(0, 1, (4, 2)) * [lw, lh]).astype(np.int32)
        cv2.fillConvexPoly(sh, cv2.convexHull(pts), 1.0)
        soft_sh = cv2.GaussianBlur(sh, (0, 0), 1.5)
        mul *= 1 - rng.uniform(0.2, 0.45) * soft_sh
    add = np.zeros((lh, lw), np.float32)
    if rng.random() < params.glare_prob:
        gx, gy = rng.uniform(0, lw), rng.uniform(0, lh)
        s = rng.uniform(2, 7)
        add += rng.uniform(40, 110) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * s * s))
    mul_f = cv2.resize(cv2.merge([mul.astype(np.float32)] * 3), (W, H), interpolation=cv2.INTER_LINEAR)
    add_f = cv2.resize(cv2.merge([add] * 3), (W, H), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, params.noise_max)
    if sigma > 0.3:
        tile = _noise_tile(W, H)
        ox, oy = rng.integers(0, 64, 2)
        if fr is not None:
            ox, oy = fr.integers(0, 64, 2)
            tile = tile[:, ::-1] if frame % 2 else tile  # more noise patterns than 64 x 64 offsets
        view = tile[oy:oy + H, ox:ox + W]
        add_f = cv2.scaleAdd(view if view.strides[1] > 0 else np.ascontiguousarray(view), float(sigma), add_f)
    f = cv2.add(cv2.multiply(img, mul_f, dtype=cv2.CV_32F), add_f)
    img = cv2.convertScaleAbs(cv2.max(f, 0.0))  # type: ignore[call-overload]  # a scalar bound: the stubs omit it
    b = rng.uniform(0, params.blur_max)
    if b > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), b)
    if params.jpeg[1] > 0:
        q = int(rng.integers(params.jpeg[0], params.jpeg[1] + 1))
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # our own JPEG
        img = decoded
    return Rendered(image=img, corners=corners.astype(np.float32), truth=position, setup=setup,
                    scheme=scheme.name, hand=hand, flipped=flipped, dice=seen, props=props)


def _beside(img: np.ndarray, rng: np.random.Generator, params: RenderParams, Hm: np.ndarray, tw: int, th: int,
            sc: float) -> tuple[tuple[str, P.Box], ...]:
    """A clock and a score board beside the board (as ``params`` has them), drawn in the image."""
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [tw, 0], [tw, th], [0, th]]], np.float32), Hm)[0]
    board = (float(quad[:, 0].min()), float(quad[:, 1].min()), float(quad[:, 0].max()), float(quad[:, 1].max()))
    out: list[tuple[str, P.Box]] = []
    if rng.random() < params.clock_prob:
        out.append(("clock", P.draw_clock(img, rng, sc * TEX, board, out)))
    if rng.random() < params.scoreboard_prob:
        out.append(("scoreboard", P.draw_scoreboard(img, rng, sc * TEX, board, out)))
    return tuple(out)


def render(position: BoardEvidence, params: RenderParams = RenderParams(), seed: int = 0,
           hand: bool = False, setup: Optional[L.SetUp] = None, frame: int = 0,
           dice: Optional[Sequence[Die]] = None) -> np.ndarray:
    """Just the BGR image of :func:`render_scene`."""
    return render_scene(position, params, seed, hand, setup, frame, dice).image
