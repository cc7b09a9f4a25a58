"""OpenCV's Gaussian blur of an 8-bit grey image, the same pixels, worked out faster on small images.

:func:`cv2.GaussianBlur` of an 8-bit image is bit-exact fixed-point arithmetic: a kernel of whole
numbers summing to 256 run along the rows (sums kept whole, 8 fraction bits), then down the columns (16
fraction bits), each result rounded half up to a whole grey level.  On the crops the dice search blurs
(a hundred px a side) it spends most of its time at the edges, several times what
:func:`cv2.sepFilter2D` takes for the same kernel in floats: whole numbers over 256 and 65536, every
product and sum exact in a float's 24 bits (at most 255 x 256 x 256 / 65536), so its floats, a half
added and cut to whole levels, are the same pixels.  The kernel is read off OpenCV's own blur of a line
(its taps at most 128: a line of 255 blurs to the taps themselves), and the two ways are compared on a
few images of every size class before the fast one is used; should they differ in any pixel (another
OpenCV, another kernel), :func:`cv2.GaussianBlur` is called as before.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Optional

import cv2
import numpy as np

__all__ = ["gaussian_u8"]


def gaussian_u8(grey: np.ndarray, sigma: float) -> np.ndarray:
    """``cv2.GaussianBlur(grey, (0, 0), sigma)`` of a 2-d uint8 image, the same pixels (the default
    border, reflected about the edge pixel)."""
    k = _kernel(float(sigma)) if grey.dtype == np.uint8 and grey.ndim == 2 else None
    if k is None:
        return cv2.GaussianBlur(grey, (0, 0), sigma)
    return _fast(grey, k)


def _fast(grey: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The blur in floats: the taps over 256 along the rows and the columns, a half added, cut to
    whole levels (every value exact: the fixed-point blur's sums, rounded half up)."""
    return cv2.sepFilter2D(grey, cv2.CV_32F, k, k, delta=0.5).astype(np.uint8)


@lru_cache(maxsize=8)
def _kernel(sigma: float) -> Optional[np.ndarray]:
    """The taps over 256 (a float32 column) of OpenCV's 8-bit blur at ``sigma``, when :func:`_fast`
    gives its pixels on the check images; else None (:func:`cv2.GaussianBlur` itself)."""
    n = int(round(sigma * 3 * 2 + 1)) | 1      # OpenCV's kernel size for 8-bit images
    if n < 3 or n > 99:
        return None
    line = np.zeros((2 * n + 1, 2 * n + 1), np.uint8)
    line[:, n] = 255                            # a column of 255: each row blurs to 255 x tap / 256, rounded
    taps = cv2.GaussianBlur(line, (0, 0), sigma)[n, n - n // 2: n + n // 2 + 1].astype(np.int64)
    if len(taps) != n or int(taps.sum()) != 256 or int(taps.max()) > 128:
        return None
    k = (taps / 256.0).astype(np.float32).reshape(-1, 1)
    k.setflags(write=False)
    for salt, (h, w) in enumerate(((1, 1), (2, 7), (5, 3), (n // 2, n + 3), (n + 1, n // 2 + 1), (37, 61),
                                   (108, 108), (130, 211))):
        noise = _scrambled(h * w, salt).reshape(h, w)
        for img in (noise, np.full((h, w), 255, np.uint8), (noise >> 7) * np.uint8(255)):
            if not np.array_equal(_fast(img, k), cv2.GaussianBlur(img, (0, 0), sigma)):
                return None
    return k


def _scrambled(n: int, salt: int) -> np.ndarray:
    """``n`` bytes that look random (a hash of each one's index and ``salt``: splitmix64's mixing), the
    same on every run: :func:`_kernel`'s check images, made without ``numpy.random`` (whose first use
    imports it, some 9 ms: the dice's child process paid it on its first line)."""
    x = (np.arange(n, dtype=np.uint64) + np.uint64(salt << 32)) * np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return (x >> np.uint64(56)).astype(np.uint8)
