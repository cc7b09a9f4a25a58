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


def poly(img: np.ndarray, pts_pw: list[tuple[float, float]], colour: BGR) -> None:
    """Fill a polygon given in pw, anti-aliased."""
    pts = np.array([px(x, y) for x, y in pts_pw], np.int32)
    cv2.fillPoly(img, [pts], colour, cv2.LINE_AA, shift=4)
