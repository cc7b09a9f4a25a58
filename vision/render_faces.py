"""Checker faces for the synthetic camera: mother-of-pearl, carved and marbled.

A face is a sprite laid over a plain checker's body (inside its rim): per pixel a colour
and a weight.  Sprites are cached by style, colour, radius and one of :data:`VARIANTS`
patterns, so a frame pays only for blending.  Real sets: pearl faces shimmer and are
darker at the centre (the reader's point-tip rule trips on that), carved ones show
concentric rings and flutes, marbled ones (red and white tournament sets) carry veins.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

from .render_tex import BGR

STYLES = ("pearl", "carved", "marbled")
VARIANTS = 6  # patterns per style and colour: neighbouring checkers differ


@functools.lru_cache(maxsize=256)
def face_sprite(style: str, colour: BGR, radius: int, variant: int) -> tuple[np.ndarray, np.ndarray]:
    """A face ``radius`` px across its half: (BGR float32 image, weight 0..1), both (2r+1) square."""
    if style not in STYLES:
        raise ValueError(f"checker face {style!r}: expected one of {', '.join(STYLES)}")
    r = max(radius, 2)
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1].astype(np.float32)
    d = np.sqrt(xs * xs + ys * ys) / r
    th = np.arctan2(ys, xs)
    rng = np.random.default_rng([variant, len(style), r])
    base = np.array(colour, np.float32)
    lum = float(base.mean())
    if style == "pearl":
        phase = rng.uniform(0, 2 * np.pi)
        swirl = np.sin(3 * th + 7 * d + phase) * np.cos(2 * th - 4 * d)
        f = 0.72 + 0.3 * d + 0.07 * swirl  # darker centre, shimmering rings
        tint = np.stack([swirl * 14, -swirl * 6, swirl * 10], axis=-1)  # blue-pink iridescence
        img = base * f[..., None] + tint + (25 if lum < 90 else 0) * (swirl[..., None] > 0.4)
    elif style == "carved":
        rings = np.tanh(3 * np.sin(d * np.pi * rng.uniform(3.5, 5.5)))
        flutes = np.where(d > 0.7, np.cos(rng.choice([10, 12, 16]) * th), 0.0)
        f = 1 + 0.16 * rings + 0.12 * flutes
        img = base[None, None, :] * f[..., None] + (18 if lum < 90 else 0) * rings[..., None]
    else:
        k = max(3, r // 3)
        noise = cv2.resize(rng.normal(0, 1, (k, k)).astype(np.float32), (2 * r + 1, 2 * r + 1),
                           interpolation=cv2.INTER_CUBIC)
        a = rng.uniform(0, np.pi)
        v = np.sin((xs * np.cos(a) + ys * np.sin(a)) / r * rng.uniform(2.5, 4.5) + 2.0 * noise)  # bold swirls
        vein = np.clip(1 - np.abs(v) / 0.35, 0, 1)
        other = np.array((235, 235, 240) if lum < 170 else (60, 60, 150), np.float32)
        img = base * (1 - 0.8 * vein[..., None]) + other * (0.8 * vein[..., None])
    weight = np.clip((0.93 - d) * r, 0, 1).astype(np.float32)  # inside the rim, anti-aliased
    return np.clip(img, 0, 255).astype(np.float32), weight


def paint_face(img: np.ndarray, cx: float, cy: float, radius: float, style: str, colour: BGR, variant: int) -> None:
    """Lay the face ``style`` over the checker centred at texture pixel (``cx``, ``cy``)."""
    r = int(round(radius))
    face, w = face_sprite(style, colour, r, variant % VARIANTS)
    x0, y0 = int(round(cx)) - r, int(round(cy)) - r
    h, wd = img.shape[:2]
    ax0, ay0, ax1, ay1 = max(x0, 0), max(y0, 0), min(x0 + 2 * r + 1, wd), min(y0 + 2 * r + 1, h)
    if ax1 <= ax0 or ay1 <= ay0:
        return
    sub = img[ay0:ay1, ax0:ax1].astype(np.float32)
    fw = w[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0, None]
    sub = sub * (1 - fw) + face[ay0 - y0:ay1 - y0, ax0 - x0:ax1 - x0] * fw
    img[ay0:ay1, ax0:ax1] = sub.astype(np.uint8)
