"""Is something over the board?  A check on the frame band around the playing area.

Anything that reaches over the board - a hand, an arm, a checker carried across - must
cross the board's outer frame, which is otherwise one even material.  The band just
outside the playing area is cut into segments; a segment far from the smooth trend of
its band (light gradients are allowed) means something lies across it.  Works on a
rectified view of any scale; cheap enough to run on every frame.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import layout as L
from .rectify import View


@dataclass(frozen=True)
class OcclusionParams:
    band: tuple[float, float] = (0.12, 0.45)   # pw outside the playing area
    corner_skip: float = 1.0                    # pw left out at each corner (markers live there)
    max_residual: float = 28.0                  # grey levels off the band's trend
    max_spread: float = 22.0                    # grey-level std inside one segment


def band_segments(view: View, params: OcclusionParams = OcclusionParams()) -> list[np.ndarray]:
    """Per band (top, bottom, left, right): mean BGR and grey std of each segment, ``(n, 4)``."""
    img = view.image.astype(np.float32)
    px, m = view.px, view.margin
    b0, b1 = params.band
    out = []
    specs = (("h", -b1, -b0, L.WIDTH), ("h", L.HEIGHT + b0, L.HEIGHT + b1, L.WIDTH),
             ("v", -b1, -b0, L.HEIGHT), ("v", L.WIDTH + b0, L.WIDTH + b1, L.HEIGHT))
    for kind, a0, a1, length in specs:
        edges = np.arange(params.corner_skip, length - params.corner_skip + 1e-6, 1.0)
        segs = []
        for s0, s1 in zip(edges[:-1], edges[1:]):
            if kind == "h":
                y0, y1, x0, x1 = a0, a1, s0, s1
            else:
                x0, x1, y0, y1 = a0, a1, s0, s1
            patch = img[int((y0 + m) * px):max(int((y1 + m) * px), int((y0 + m) * px) + 1),
                        int((x0 + m) * px):max(int((x1 + m) * px), int((x0 + m) * px) + 1)].reshape(-1, 3)
            grey = patch.mean(axis=1)
            segs.append([*patch.mean(axis=0), float(grey.std())])
        out.append(np.array(segs, np.float32))
    return out


def occluded(view: View, params: OcclusionParams = OcclusionParams()) -> bool:
    """True when something lies across the frame band (see the module docstring)."""
    return occlusion_score(view, params) > 1.0


def occlusion_score(view: View, params: OcclusionParams = OcclusionParams()) -> float:
    """Worst segment's deviation as a share of the allowed one (above 1: occluded)."""
    worst = 0.0
    for segs in band_segments(view, params):
        n = len(segs)
        if n < 3:
            continue
        t = np.arange(n, dtype=np.float32)
        col = segs[:, :3]
        keep = np.ones(n, bool)
        for _ in range(2):  # a line per channel, refitted without the worst third
            A = np.stack([t[keep], np.ones(keep.sum())], axis=1)
            coef, *_ = np.linalg.lstsq(A, col[keep], rcond=None)
            fit = np.stack([t, np.ones(n)], axis=1) @ coef
            res = np.abs(col - fit).max(axis=1)
            keep = res <= np.quantile(res, 0.67)
        worst = max(worst, float(res.max()) / params.max_residual, float(segs[:, 3].max()) / params.max_spread)
    return worst
