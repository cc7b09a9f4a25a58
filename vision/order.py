"""Order statistics as numpy computes them, with less overhead: the same values, bit for bit.

The reader takes a percentile of every frame's gradients and medians of a few rows at a time;
numpy's general functions spend more time checking their arguments than computing such small
ones, and partition the whole of a large array for one high percentile.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["_order_pair", "_percentile", "median_axis"]


def _percentile(a: np.ndarray, q: float) -> float:
    """``float(np.percentile(a, q))`` (linear interpolation), the same value from one partition
    at the two order statistics it interpolates (numpy's also sorts out both ends)."""
    flat = a.ravel()
    n = flat.size
    vi = (n - 1) * np.true_divide(q, 100)
    prev = int(np.floor(vi))
    t = float(vi - prev)
    if prev + 1 >= n:
        return float(np.partition(flat, n - 1)[n - 1])
    lo, hi = _order_pair(flat, prev)
    diff = hi - lo
    return float(hi - diff * (1 - t)) if t >= 0.5 else float(lo + diff * t)


def _order_pair(flat: np.ndarray, k: int) -> tuple[Any, Any]:  # numpy scalars of the array's dtype
    """The values at sorted positions ``k`` and ``k + 1`` of ``flat`` (as one partition gives
    them).  For a high position in a large array, only the values above a threshold from a
    sample are partitioned (those below it are counted: the sorted positions stay exact); when
    the sample misjudged, the whole array is."""
    n = flat.size
    if n > 8192 and k > n // 2:
        sample = flat[::16]
        m = len(sample)
        at = max(0, int(m * k / n) - 4 * int(np.sqrt(m)) - 8)   # well below position k's share
        thr = np.partition(sample, at)[at]
        above = flat[flat > thr]
        below = n - len(above)                                    # values <= thr: sorted before every one above
        if below <= k:
            part = np.partition(above, (k - below, k + 1 - below))
            return part[k - below], part[k + 1 - below]
    part = np.partition(flat, (k, k + 1))
    return part[k], part[k + 1]


def median_axis(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.median(a, axis=axis)`` of a float array (the same values: the middle of the sorted
    values, or the mean of the middle two in the array's own precision)."""
    s = np.sort(a, axis=axis)
    n = s.shape[axis]
    m = n // 2
    mid = np.take(s, m, axis=axis)
    return mid if n % 2 else (np.take(s, m - 1, axis=axis) + mid) / 2
