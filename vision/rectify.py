"""From playing-area corners to a rectified top-down view, in point widths.

A rectified view is ``px`` pixels per point width with a ``margin`` (pw) of frame
around the playing area, so pixel ``(x, y)`` shows board point ``(x/px - margin,
y/px - margin)`` in the coordinates of :mod:`vision.layout`.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import layout as L


@dataclass(frozen=True)
class View:
    """A rectified image with its scale and margin."""

    image: np.ndarray
    px: int
    margin: float

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        return (x + self.margin) * self.px, (y + self.margin) * self.px


def homography(corners: np.ndarray, px: int, margin: float) -> np.ndarray:
    """The image-to-rectified homography for playing-area corners TL, TR, BR, BL."""
    dst = (L.playing_corners_pw() + margin) * px
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst.astype(np.float32))


def rectify(frame: np.ndarray, corners: np.ndarray, px: int = 32, margin: float = 0.6) -> View:
    """Warp ``frame`` so the playing area is upright, ``px`` pixels per point width."""
    Hm = homography(corners, px, margin)
    size = (int(round((L.WIDTH + 2 * margin) * px)), int(round((L.HEIGHT + 2 * margin) * px)))
    img = cv2.warpPerspective(frame, Hm, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return View(img, px, margin)
