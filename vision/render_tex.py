"""The renderer's texture space: the board drawn top-down at :data:`TEX` pixels per point width.

Shared by :mod:`vision.render` (board, checkers, camera) and the props it draws
(:mod:`vision.render_props`, :mod:`vision.render_faces`).  Coordinates are point widths
(pw) with the origin at the playing area's top-left corner, as in :mod:`vision.layout`.
"""
from __future__ import annotations

import numpy as np
import cv2

from . import layout as L

BGR = tuple[int, int, int]

FRAME = 1.15  # frame width around the playing area, pw
TRAY = 1.5    # bear-off tray width (right side), pw
TEX = 40      # texture pixels per pw


def px(x: float, y: float) -> tuple[int, int]:
    """pw (playing-area origin) to texture pixel, 4 bits of sub-pixel precision."""
    return int(round((x + FRAME) * TEX * 16)), int(round((y + FRAME) * TEX * 16))


def tex_size(shape: L.BoardShape) -> tuple[int, int]:
    """The texture's width and height (pixels) for a board of ``shape``: frame, playing area, tray."""
    return int(round((shape.width + 3 * FRAME + TRAY) * TEX)), int(round((shape.height + 2 * FRAME) * TEX))


def real(shape: L.BoardShape, x: float, y: float) -> tuple[float, float]:
    """A layout point (pw) on a board of ``shape``."""
    xr, yr = shape.to_real(np.array(x), np.array(y))
    return float(xr), float(yr)


def shade(c: BGR, f: float) -> BGR:
    """``c`` scaled by ``f``, clipped to 0..255."""
    return tuple(int(max(0, min(255, v * f))) for v in c)  # type: ignore[return-value]


def drop_shadow(img: np.ndarray, outline_pw: np.ndarray, blur: int, depth: float) -> None:
    """A soft shadow: ``img`` darkened by ``depth`` inside the polygon ``outline_pw`` (pw), its
    edge blurred over ``blur`` pixels (a die's or the cube's shadow on the board)."""
    pts = np.array([px(*p) for p in outline_pw], np.int32)
    x0, y0 = (pts.min(axis=0) >> 4) - 3
    x1, y1 = (pts.max(axis=0) >> 4) + 4
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    if x1 > x0 and y1 > y0:
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(mask, [pts - np.array([x0 * 16, y0 * 16])], 255, cv2.LINE_AA, shift=4)
        mask = cv2.blur(mask, (blur, blur))
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1.0 - depth * (mask[..., None] / 255.0))).astype(np.uint8)


def poly(img: np.ndarray, pts_pw: list[tuple[float, float]], colour: BGR) -> None:
    """Fill a polygon given in pw, anti-aliased."""
    pts = np.array([px(x, y) for x, y in pts_pw], np.int32)
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, shift=4)
