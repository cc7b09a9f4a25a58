"""Moving checkers in a real photo: another position's frame made from a real one.

For benches and tests only (``bench/vision_real.py``): the real images of
``../shared/vision/overhead`` show one position each, and verdicts with a reference frame need
a frame of the position before the move.  :func:`doctored_reference` makes it from the real
frame: every point whose contents differ is rebuilt from pieces of the same photo, base to
tip, only where it changes: each checker place that gains a checker from a point that holds
one there (the same row when one does), each place a checker leaves from a point of the same
triangle colour that is empty there.  Each piece is warped from its place to the new one
through the board's own geometry (corners and shape), and the whole frame then gets fresh
sensor noise and a small change of light, as a second frame of a real camera would.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Union

import cv2
import numpy as np

from . import layout as L
from .config import VisionConfig
from .rectify import FrameMap, rectify
from .slots import EMPTY, _core, patches, slot_geometry
from .triangles import Flips, find_flips, triangle_mates


@dataclass(frozen=True)
class CheckerPlaces:
    """Where a photo's checkers lie along its points, per row (top, bottom): ``spacing``, pw on the
    board itself between neighbours, and ``start``, how far from the point's base (pw on the board)
    the first one's place begins.  Seen obliquely a checker's face stands off the board: the camera
    sees it shifted toward or away from the frame (unseen6's image045: its top row's stacks begin a
    third of a checker before the base), and a made frame must cut and lay its pieces where the
    photo's checkers lie, not a third of one off."""

    spacing: tuple[float, float] = (L.CHECKER, L.CHECKER)
    start: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def of(cls, checker: Union[float, tuple[float, float], "CheckerPlaces"]) -> "CheckerPlaces":
        """The places for one spacing, one per row, or these places themselves (starting at the base)."""
        if isinstance(checker, CheckerPlaces):
            return checker
        if isinstance(checker, (int, float)):
            return cls((float(checker), float(checker)))
        return cls((float(checker[0]), float(checker[1])))


def layout_to_image(pts: np.ndarray, corners: np.ndarray, shape: L.BoardShape) -> np.ndarray:
    """Layout coordinates (pw) to image pixels for a board of ``shape`` with these corners
    (:meth:`vision.rectify.FrameMap.to_picture`)."""
    u, v, _ = FrameMap(np.asarray(corners, np.float32), shape, (0, 0)).to_picture(pts[:, 0], pts[:, 1])
    return np.stack([u, v], axis=1).astype(np.float32)


def _segment(row: str, col: int, d0: float, d1: float, wide: tuple[float, float] = (0.5, 0.5)) -> np.ndarray:
    """The quad (layout pw) of a point's stretch from ``d0`` to ``d1`` pw from its base:
    base-left, base-right, far-right, far-left (so pieces of the other row turn round);
    ``wide``: how far it reaches either side of the point's middle (pw), on the left and the right as
    the point is seen from its base (the top row's left is the image's left, the bottom row's its right)."""
    x = L.column_x(col)
    a, b = wide
    if row == "top":
        return np.array([[x - a, d0], [x + b, d0], [x + b, d1], [x - a, d1]], np.float32)
    return np.array([[x + a, L.HEIGHT - d0], [x - b, L.HEIGHT - d0], [x - b, L.HEIGHT - d1],
                     [x + a, L.HEIGHT - d1]], np.float32)


def _beside(row: str, col: int) -> tuple[Union[int, str], Union[int, str]]:
    """What lies beside a point in its row, on its left and its right as seen from its base: the
    column of a point, or ``"frame"`` or ``"bar"``."""
    def one(c: int) -> Union[int, str]:
        return "frame" if not 0 <= c < 12 else ("bar" if (c < 6) != (col < 6) else c)
    return (one(col - 1), one(col + 1)) if row == "top" else (one(col + 1), one(col - 1))


def _along(shape: L.BoardShape, d: float) -> float:
    """How far from a point's base (layout pw) a place ``d`` pw from it on the board itself lies."""
    return float(shape.to_layout(np.zeros(1), np.array([d]))[1][0])


def _paste(out: np.ndarray, src: np.ndarray, src_quad: np.ndarray, dst_quad: np.ndarray, disc: bool = False) -> None:
    """Warp ``src``'s quad onto ``out``'s (soft-edged); ``disc``: only the round piece inscribed in it
    (a checker, without the point's cloth round it)."""
    H = cv2.getPerspectiveTransform(src_quad.astype(np.float32), dst_quad.astype(np.float32))
    x0, y0 = np.floor(dst_quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(dst_quad.max(axis=0)).astype(int) + 2
    h, w = out.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    T = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ H
    piece = cv2.warpPerspective(src, T, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    shape = dst_quad
    if disc:   # the unit square's inscribed circle, through the square-to-quad map
        t = np.linspace(0, 2 * np.pi, 32, endpoint=False)
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        to_dst = cv2.getPerspectiveTransform(unit, dst_quad.astype(np.float32))
        ring = np.stack([0.5 + 0.5 * np.cos(t), 0.5 + 0.5 * np.sin(t)], axis=1).astype(np.float32)
        shape = cv2.perspectiveTransform(ring[None], to_dst)[0]
    cv2.fillConvexPoly(mask, np.round(shape - [x0, y0]).astype(np.int32), 1.0)
    mask = cv2.GaussianBlur(mask, (5, 5), 1.0)[..., None]
    region = out[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = (region * (1 - mask) + piece.astype(np.float32) * mask).astype(np.uint8)


def _cells(rows: dict[str, Any]) -> dict[tuple[str, int], tuple[int, Optional[str]]]:
    return {(r, i): (int(p[0]), p[1] if p[0] else None) for r in ("top", "bottom") for i, p in enumerate(rows[r])}


def photo_flips(img: np.ndarray, labels: dict[str, Any], config: VisionConfig) -> Flips:
    """The photo's triangle colours (:func:`vision.triangles.find_flips`) from its empty slots, as
    ``labels`` (its rows, corners) say they are."""
    view = rectify(img, np.asarray(labels["corners"], np.float32), config.px, shape=config.shape)
    geo = slot_geometry(L.CHECKER, config.shape.height)
    per = geo.per_point
    core = _core(patches(view, geo))[:24 * per]
    now = _cells(labels)
    st = np.array([EMPTY if now[(r, c)][0] <= k else EMPTY + 1 for r in ("top", "bottom") for c in range(12)
                   for k in range(per)])
    return find_flips(core, st == EMPTY, per, geo.fits)


def doctored_reference(img: np.ndarray, labels: dict[str, Any], before_rows: dict[str, Any], dark_home: str,
                       config: VisionConfig, seed: int = 0,
                       checker: Union[float, tuple[float, float], CheckerPlaces] = L.CHECKER) -> np.ndarray:
    """A frame of ``before_rows`` (the ``read --json`` rows form) made from the real frame
    ``img`` that shows ``labels`` (its rows, corners and shape); ``checker``: the spacing (pw)
    of the checkers along a point, or one per row (top, bottom: a foreshortened row's is less), or
    where they lie (:class:`CheckerPlaces`: their spacing and where the first begins)."""
    rng = np.random.default_rng(seed)
    places = CheckerPlaces.of(checker)
    pitch = places.spacing
    corners = np.asarray(labels["corners"], np.float32)
    shape = config.shape
    now, want = _cells(labels), _cells(before_rows)
    flips: Optional[Flips] = None
    out = img.copy()

    def quad(row: str, col: int, k0: float, k1: float, wide: tuple[float, float] = (0.5, 0.5)) -> np.ndarray:
        """The stretch of checker places ``k0`` to ``k1`` of a point, in the image (the places lie
        ``checker`` apart on the board itself: beyond a point's tip, in the layout's squeezed band, a
        sixth checker is as long as the others, as :func:`vision.slots.slot_geometry` lays out its slot)."""
        r = 0 if row == "top" else 1
        cd, d0 = pitch[r], places.start[r]
        return layout_to_image(_segment(row, col, _along(shape, d0 + k0 * cd), _along(shape, d0 + k1 * cd), wide),
                               corners, shape)

    def empty_place(row: str, col: int, k: int) -> None:
        """Checker place ``k`` of a point as the photo shows it empty on a point of the same triangle
        colour (:mod:`vision.triangles`), this row's nearest first: the same piece for that place in
        every frame made from the photo, as a real board's empty place looks the same from frame to
        frame.  Checkers wider than a point (spaced more than a point's width apart) reach beyond it:
        the piece is as wide as they are on a side where the photo shows the neighbouring point empty
        there, here and beside the piece's source (or the frame on both: not the bar, whose fittings are
        its own)."""
        nonlocal flips
        if flips is None:
            flips = photo_flips(img, labels, config)
        own, other = triangle_mates((0 if row == "top" else 1) * 12 + col, flips)   # this row's first
        mates = [("top" if p < 12 else "bottom", p % 12) for p in own + other]
        # empty there and at the place before (a checker below reaches into the place above it), else there
        empties = [q for q in mates if now[q][0] <= k - 1] or [q for q in mates if now[q][0] <= k]
        if not empties:
            return
        er, ec = empties[0]
        mine, theirs = _beside(row, col), _beside(er, ec)

        def clear(here: Union[int, str], there: Union[int, str]) -> bool:
            if isinstance(here, int) and isinstance(there, int):
                return now[(row, here)][0] <= k and now[(er, there)][0] <= k
            return here == there == "frame"

        half = max(0.5, max(pitch) / 2)
        wide = (half if clear(mine[0], theirs[0]) else 0.5, half if clear(mine[1], theirs[1]) else 0.5)
        _paste(out, img, quad(er, ec, k, k + 1, wide), quad(row, col, k, k + 1, wide))

    # only the stretch that changes: from the lower count (from the base when the colour changes) up
    changed = [(q, now[q][0], v, min(now[q][0], v[0]) if (now[q][1] == v[1] or not now[q][0] or not v[0]) else 0)
               for q, v in want.items() if now[q] != v]
    # first the places checkers leave, then those they come to (a checker laid beside a place emptied
    # keeps its whole round)
    for (row, col), m, (n, _), lo in changed:
        for k in range(max(n, lo), m):
            empty_place(row, col, k)
    for (row, col), _, (n, colour), lo in changed:
        # the checker places lo..n: from points showing that many of the colour, same row first
        for k in range(lo, n):
            ds = [q for q, v in now.items() if v[1] == colour and q != (row, col)]
            if not ds:
                break
            # a point holding more than k, else the outermost checker of the tallest row
            dr, dc = min(ds, key=lambda q: (now[q][0] <= k, q[0] != row, abs(q[1] - col)))
            j = min(k, now[(dr, dc)][0] - 1)
            _paste(out, img, quad(dr, dc, j, j + 1), quad(row, col, k, k + 1))
    _bar(out, img, labels, before_rows, corners, shape, now, places)
    gain = 1.0 + rng.uniform(-0.02, 0.02)
    noisy = out.astype(np.float32) * gain + rng.normal(0.0, 2.5, out.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


def _bar(out: np.ndarray, img: np.ndarray, labels: dict[str, Any], before_rows: dict[str, Any], corners: np.ndarray,
         shape: L.BoardShape, now: dict[tuple[str, int], tuple[int, Optional[str]]], places: CheckerPlaces) -> None:
    """The checkers ``before_rows`` puts on the bar, on a photo whose bar is empty: each a round piece
    of a checker of its colour from a point (its second from the base, clear of the frame's lip),
    laid along the bar's middle, Dark's from the board's middle up, Light's down, ``places``' mean spacing apart (on a
    bar narrower than a checker it lies over the points' edges beside, as a real one does).
    ValueError when the photo's own bar holds checkers and the frame wants others (nothing here
    takes a checker off the bar)."""
    have = {c: int((labels.get("bar") or {}).get(c, 0)) for c in ("dark", "light")}
    want = {c: int((before_rows.get("bar") or {}).get(c, 0)) for c in ("dark", "light")}
    if want == have:
        return
    if any(have.values()):
        raise ValueError(f"the photo's bar holds checkers ({have['dark']} dark, {have['light']} light): "
                         f"a frame with {want['dark']} dark and {want['light']} light there cannot be made from it")
    own = FrameMap(corners, shape, (0, 0), own=True)   # the board's own pw to the picture
    cd = float(np.mean(places.spacing))
    x = L.BAR_LEFT + shape.bar / 2            # the bar's middle, in the board's own pw
    for colour, way in (("dark", -1.0), ("light", 1.0)):
        held = [(n, q) for q, (n, c) in now.items() if c == colour]
        if not want[colour] or not held:
            continue
        n, (row, col) = max(held)
        j = 1 if n >= 2 else 0
        s0 = places.start[0 if row == "top" else 1] + j * cd
        d0, d1 = _along(shape, s0), _along(shape, s0 + cd)
        cx = L.column_x(col)
        ys = (d0, d1) if row == "top" else (L.HEIGHT - d0, L.HEIGHT - d1)
        src = layout_to_image(np.array([[cx - cd / 2, ys[0]], [cx + cd / 2, ys[0]], [cx + cd / 2, ys[1]],
                                        [cx - cd / 2, ys[1]]], np.float32), corners, shape)
        for k in range(want[colour]):
            y = shape.height / 2 + way * (k + 0.5) * cd
            u, v, _ = own.to_picture(np.array([x - cd / 2, x + cd / 2, x + cd / 2, x - cd / 2]),
                                     np.array([y - cd / 2, y - cd / 2, y + cd / 2, y + cd / 2]))
            _paste(out, img, src, np.stack([u, v], axis=1).astype(np.float32), disc=True)


# ---------------------------------------------------------------- a real table's drift

def _board_uv(shape_hw: tuple[int, int], corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's place on the board as shares of its width and height (0..1 inside the
    playing area, beyond it outside), through the corners' perspective."""
    h, w = shape_hw
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    H = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), unit)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    uv = cv2.perspectiveTransform(np.stack([xs, ys], axis=-1).reshape(-1, 1, 2), H).reshape(h, w, 2)
    return uv[..., 0], uv[..., 1]


def _lit(img: np.ndarray, mul: Union[float, np.ndarray]) -> np.ndarray:
    out = img.astype(np.float32) * (mul[..., None] if isinstance(mul, np.ndarray) and mul.ndim == 2 else mul)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def gained(img: np.ndarray, gain: float) -> np.ndarray:
    """The frame ``gain`` times as bright (a webcam's auto-exposure, a cloud, a lamp on)."""
    return _lit(img, gain)


def gamma(img: np.ndarray, g: float) -> np.ndarray:
    """The frame's tone curve bent by ``g`` (levels ``255 * (v / 255) ** g``: the camera's contrast)."""
    lut = np.clip(255.0 * (np.arange(256) / 255.0) ** g + 0.5, 0, 255).astype(np.uint8)
    return cv2.LUT(img, lut)


WARM = (0.80, 1.0, 1.12)   # B, G, R gains of a warm lamp (about 3,000 K against daylight)
COOL = (1.15, 1.0, 0.88)   # ... of cool daylight through a window (about 7,500 K)


def tinted(img: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    """The frame under light of another colour (or the camera's white balance shifted): each
    channel times its gain."""
    return _lit(img, np.asarray(bgr, np.float32))


def graded(img: np.ndarray, corners: np.ndarray, darker: float = 0.3, side: str = "right") -> np.ndarray:
    """The light falling off linearly across the board: full at one side, ``darker`` less at
    ``side`` (left, right, top, bottom: the low sun, a lamp by the table)."""
    u, v = _board_uv(img.shape[:2], corners)
    t = {"right": u, "left": 1 - u, "bottom": v, "top": 1 - v}[side]
    return _lit(img, 1.0 - darker * np.clip(t, 0.0, 1.0))


def shadowed(img: np.ndarray, corners: np.ndarray, quarter: int = 0, depth: float = 0.45,
             soft: float = 0.06) -> np.ndarray:
    """A soft shadow (a standing spectator's) over one quarter of the board: quarter 0..3 =
    top-left, top-right, bottom-right, bottom-left, ``depth`` of the light taken, its edge
    blurred over ``soft`` of the board's size."""
    u, v = _board_uv(img.shape[:2], corners)
    cu, cv = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))[quarter]   # the quarter's corner of the board
    # inside the quarter: within half the board of its corner along both axes
    du, dv = np.abs(u - cu) - 0.5, np.abs(v - cv) - 0.5
    edge = np.maximum(du, dv)            # < 0 inside the quarter
    inside = 1.0 / (1.0 + np.exp(np.clip(edge / max(soft / 4, 1e-3), -50.0, 50.0)))
    return _lit(img, 1.0 - depth * inside.astype(np.float32))


def moved(img: np.ndarray, corners: np.ndarray, dx: float = 0.0, dy: float = 0.0, degrees: float = 0.0) -> np.ndarray:
    """The camera knocked: the frame shifted by (``dx``, ``dy``) px and turned ``degrees`` about
    the board's centre (the corners stay as configured)."""
    c = np.asarray(corners, np.float64).mean(axis=0)
    M = cv2.getRotationMatrix2D((float(c[0]), float(c[1])), degrees, 1.0).astype(np.float64)
    M[:, 2] += np.array([dx, dy], np.float64)
    h, w = img.shape[:2]
    return cv2.warpAffine(img, M, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def recompressed(img: np.ndarray, seed: int = 0, noise: float = 3.0, quality: int = 35) -> np.ndarray:
    """Sensor noise (``noise`` grey levels, Gaussian) and a JPEG re-compression at ``quality``
    (a webcam's stream at a low bit rate)."""
    rng = np.random.default_rng(seed)
    noisy = np.clip(img.astype(np.float32) + rng.normal(0.0, noise, img.shape), 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", noisy, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    if out is None:
        raise ValueError("the frame could not be re-compressed as JPEG")
    return np.asarray(out)
