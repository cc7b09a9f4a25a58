"""The still-board filter's thumbnail: the board small, rectified, in grey (:mod:`vision.stability`).

Its quiet check compares each frame's thumbnail (:data:`THUMB_PX` pixels a point width, a
:data:`THUMB_MARGIN` of frame around the playing area) with the last frame's and the last
still board's, in grey levels (:func:`grey_levels`), their medians from histograms (:func:`small_median`).
"""
from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from . import layout as L
from .rectify import View

THUMB_PX = 10               # thumbnail pixels a point width
THUMB_MARGIN = 0.6          # pw of frame around the playing area in the thumbnail
THUMB_SIZE = (int(round((L.WIDTH + 2 * THUMB_MARGIN) * THUMB_PX)), int(round((L.HEIGHT + 2 * THUMB_MARGIN) * THUMB_PX)))
CACHE_LINE = 64                # bytes: the frame is read ahead of the warp one byte per line


def grey_levels(thumb: View) -> np.ndarray:
    """A thumbnail's grey levels, as the quiet check compares them (int16: differences are signed)."""
    return cv2.cvtColor(thumb.image, cv2.COLOR_BGR2GRAY).astype(np.int16)


def touched_part(H: np.ndarray, frame_shape: tuple[int, ...]) -> Optional[tuple[int, int, int, int]]:
    """The rows ``y0:y1`` and the bytes ``b0:b1`` of each row of a uint8 frame that the thumbnail's
    warp by ``H`` reads (its pixels' source points and their right and lower neighbours, clamped to the
    frame as the replicated border is); None when the frame is no image of rows or ``H`` maps
    no pixel to a finite point."""
    if len(frame_shape) not in (2, 3):
        return None
    h, w = frame_shape[:2]
    ch = frame_shape[2] if len(frame_shape) == 3 else 1
    ys, xs = np.mgrid[0:THUMB_SIZE[1], 0:THUMB_SIZE[0]].astype(np.float64)
    try:
        q = np.linalg.inv(H) @ np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    except np.linalg.LinAlgError:
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        sx, sy = q[0] / q[2], q[1] / q[2]
    if not (np.isfinite(sx).all() and np.isfinite(sy).all()):
        return None
    x0, x1 = int(np.clip(np.floor(sx.min()) - 1, 0, w - 1)), int(np.clip(np.floor(sx.max()) + 2, 1, w))
    y0, y1 = int(np.clip(np.floor(sy.min()) - 1, 0, h - 1)), int(np.clip(np.floor(sy.max()) + 2, 1, h))
    return y0, y1, x0 * ch, min(w * ch, x1 * ch + CACHE_LINE)


def small_median(a: np.ndarray, lo: int) -> float:
    """``np.median`` of an integer array whose values lie in ``lo .. lo + 510`` (a thumbnail's
    grey levels or their differences), the same value from a histogram: no sort, no copy."""
    return hist_median(np.bincount((a.ravel() - lo).astype(np.intp), minlength=511).cumsum(), lo)


def hist_median(counts: np.ndarray, lo: int) -> float:
    """The median of the values ``lo + i`` counted ``counts[i]`` times, from the running counts
    (``np.median``'s value: the mean of the two middle ones when their number is even)."""
    n = int(counts[-1])
    upper = int(np.searchsorted(counts, n // 2 + 1)) + lo      # order statistic n // 2 (0-based)
    if n % 2:
        return float(upper)
    lower = int(np.searchsorted(counts, n // 2)) + lo           # ... and n // 2 - 1
    return (lower + upper) / 2
