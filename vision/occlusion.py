"""Is something over the board?  A check on the frame band around the playing area.

Anything that reaches over the board - a hand, an arm, a checker carried across - must
cross the board's outer frame, which is otherwise one even material.  The band just
outside the playing area is cut into segments; a segment far from the smooth trend of
its band (light gradients are allowed) means something lies across it.  Works on a
rectified view of any scale; cheap enough to run on every frame.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import layout as L
from .rectify import View
from .rims import _percentile


_ONES3 = np.ones((1, 3), np.float32)   # cv2.transform's weights: B + G + R


@dataclass(frozen=True)
class OcclusionParams:
    """Thresholds of the frame band check: where the band lies, corners left out, how even it must be."""

    band: tuple[float, float] = (0.12, 0.45)   # pw outside the playing area
    corner_skip: float = 1.0                    # pw left out at each corner (markers live there)
    max_residual: float = 28.0                  # grey levels off the band's trend
    max_spread: float = 22.0                    # grey-level std inside one segment


def band_segments(view: View, params: OcclusionParams = OcclusionParams()) -> list[np.ndarray]:
    """Per band (top, bottom, left, right): mean BGR and grey std of each 1-pw segment, ``(n, 4)``."""
    img = view.image
    px, m = view.px, view.margin
    b0, b1 = params.band
    k0 = int(round((params.corner_skip + m) * px))
    t0, t1 = int((m - b1) * px), max(int((m - b1) * px) + 1, int((m - b0) * px))
    out = []
    for horizontal, a0, a1, length in ((True, t0, t1, L.WIDTH), (True, int((m + L.HEIGHT + b0) * px), 0, L.WIDTH),
                                       (False, t0, t1, L.HEIGHT), (False, int((m + L.WIDTH + b0) * px), 0, L.HEIGHT)):
        a1 = a1 or a0 + (t1 - t0)
        n = int(length - 2 * params.corner_skip)
        if n < 1:
            out.append(np.zeros((0, 4), np.float32))
            continue
        strip = img[a0:a1, k0:k0 + n * px] if horizontal else img[k0:k0 + n * px, a0:a1]
        across = 0 if horizontal else 1            # the axis across the band, summed over
        cnt = strip.shape[across] * px
        # sums across the band, then per 1-pw segment: the channels (exact integers), the grey
        # level (B + G + R, exact in float32) and its square (in float64)
        grey3 = cv2.transform(strip.astype(np.float32), _ONES3)
        means = cv2.reduce(strip, across, cv2.REDUCE_SUM, dtype=cv2.CV_32S).reshape(n, px, 3).sum(axis=1) \
            .astype(np.float32) / cnt
        g1 = cv2.reduce(grey3, across, cv2.REDUCE_SUM, dtype=cv2.CV_64F).reshape(n, px).sum(axis=1) / (3 * cnt)
        g2 = cv2.reduce(grey3 * grey3, across, cv2.REDUCE_SUM, dtype=cv2.CV_64F).reshape(n, px).sum(axis=1) / (9 * cnt)
        std = np.sqrt(np.maximum(g2 - g1 * g1, 0.0)).astype(np.float32)
        out.append(np.concatenate([means, std[:, None]], axis=1))
    return out


def occluded(view: View, params: OcclusionParams = OcclusionParams()) -> bool:
    """True when something lies across the frame band (see the module docstring)."""
    return occlusion_score(view, params) > 1.0


EDGES = ("top", "bottom", "left", "right")   # the bands of :func:`band_segments`, in order (the view's sides)


def occlusion_score(view: View, params: OcclusionParams = OcclusionParams()) -> float:
    """Worst segment's deviation as a share of the allowed one (above 1: occluded)."""
    return max([0.0] + band_scores(view, params))


def occluded_edges(view: View, params: OcclusionParams = OcclusionParams(), limit: float = 1.0) -> list[str]:
    """The frame's edges (:data:`EDGES`: the view's top, bottom, left, right) that something
    lies across: those whose band scores above ``limit`` (:func:`occlusion_score`'s unit)."""
    return [e for e, sc in zip(EDGES, band_scores(view, params)) if sc > limit]


def band_scores(view: View, params: OcclusionParams = OcclusionParams()) -> list[float]:
    """Per band (:data:`EDGES` order) its worst segment's deviation as a share of the allowed
    one; 0 for a band too short to judge."""
    out = []
    for segs in band_segments(view, params):
        n = len(segs)
        if n < 3:
            out.append(0.0)
            continue
        t = np.arange(n, dtype=np.float64)
        col = segs[:, :3].astype(np.float64)
        tk, ck = t, col
        for last in (False, True):  # a line per channel, refitted without the worst third
            k = len(tk)
            tm, cm = tk.sum() / k, ck.sum(axis=0) / k   # (the means, as ndarray.mean computes them)
            d = tk - tm
            var = float((d * d).sum())
            slope = (d @ (ck - cm)) / var if var > 0 else np.zeros(3)
            res = np.abs(col - (cm + (t - tm)[:, None] * slope)).max(axis=1)
            if not last:
                keep = res <= _percentile(res, 67)
                tk, ck = t[keep], col[keep]
        out.append(max(0.0, float(res.max()) / params.max_residual, float(segs[:, 3].max()) / params.max_spread))
    return out
