"""The synthetic camera's optics and what passes in front of it: radial lens distortion
(its pixel maps kept per frame size and strength), the sensor's noise tile, the light field
applied to a frame, and a hand with its arm over the board.

Memory: a 1280x720 frame in float32 is 11 MB a plane of three channels, so the light is
applied in bands of rows (:func:`apply_light`), the lens grid is kept as one row and one
column (not three full planes), and the noise tile is drawn in bands: the same numbers,
without the transient copies.  A simulator renders every frame and keeps the frame size's
noise tile and lens maps (19 MB at 1280x720); a camera that draws its scene once keeps
neither: :class:`NoiseRows` draws the tile's rows as the light asks for them and
:func:`distort` remaps the frame band by band with each band's maps (the same numbers).
"""
from __future__ import annotations

import functools
import sys
from typing import Callable, Optional, Union

import cv2
import numpy as np

from .render_tex import BGR, shade as _shade


@functools.lru_cache(maxsize=2)
def _lens_grid(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's offset from the centre (shares of the longer side): x as one row ``(1, w)``
    and y as one column ``(h, 1)``, broadcast to the frame where used (the same float32 values
    as full planes, without 11 MB of them kept per frame size)."""
    f = float(max(w, h))
    xs = np.arange(w, dtype=np.float32)[None, :]
    ys = np.arange(h, dtype=np.float32)[:, None]
    return (xs - w / 2) / f, (ys - h / 2) / f


@functools.lru_cache(maxsize=4)
def _distortion_maps(w: int, h: int, k1: float) -> tuple[np.ndarray, np.ndarray]:
    """The remap tables of radial distortion ``k1`` for a ``w`` x ``h`` frame (kept: a camera's are fixed)."""
    return _band_maps(w, h, k1, 0, h)


def _band_maps(w: int, h: int, k1: float, y0: int, y1: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``y0:y1`` of the remap tables of radial distortion ``k1`` (as ``w / 2 + dx * (1 + k1 *
    r2) * f`` in float32, worked in place)."""
    dx, dy = _lens_grid(w, h)
    dy = dy[y0:y1]
    f = float(max(w, h))
    s = dx * dx + dy * dy   # the square distance from the centre, (y1 - y0, w)
    s *= np.float32(k1)
    s += 1
    mx = np.multiply(dx, s)
    mx *= f
    mx += w / 2
    my = np.multiply(dy, s)
    my *= f
    my += h / 2
    return mx, my


def distort(img: np.ndarray, k1: float, cache: bool = True, band: int = 64) -> np.ndarray:
    """``img`` bent by radial lens distortion ``k1``; ``cache``: with the frame size's maps kept
    (:func:`_distortion_maps`), else band by band with each band's maps, nothing kept (each
    pixel is remapped from the same map values: the same image)."""
    h, w = img.shape[:2]
    if cache:
        mx, my = _distortion_maps(w, h, k1)
        return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out = np.empty_like(img)
    for y in range(0, h, band):
        mx, my = _band_maps(w, h, k1, y, min(y + band, h))
        out[y:y + band] = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out


def distort_points(pts: np.ndarray, w: int, h: int, k1: float) -> np.ndarray:
    """Where undistorted image points land after the renderer's lens distortion."""
    f = float(max(w, h))
    c = np.array([w / 2, h / 2])
    p = (np.asarray(pts, float) - c) / f
    u = p.copy()
    for _ in range(20):
        u = p / (1 + k1 * (u ** 2).sum(axis=1, keepdims=True))
    return (u * f + c).astype(np.float32)


@functools.lru_cache(maxsize=2)
def _noise_tile(w: int, h: int) -> np.ndarray:
    """The sensor's noise pattern (unit sigma, float32) for ``w`` x ``h`` frames, 64 px larger
    each way (a frame takes a window of it); drawn in bands of rows: the same numbers as one
    draw, without its float64 copy (25 MB at 1280x720)."""
    rng = np.random.default_rng(12345)
    out = np.empty((h + 64, w + 64, 3), np.float32)
    for y in range(0, h + 64, 64):
        out[y:y + 64] = rng.normal(0, 1, (min(64, h + 64 - y), w + 64, 3))
    return out


class NoiseRows:
    """A ``w`` x ``h`` window at ``ox, oy`` of the noise tile of :func:`_noise_tile` (its columns
    mirrored when ``flip``), drawn band by band as the rows are asked for, top to bottom: the
    same numbers from the same random stream, with two bands of it at a time (2 MB at
    1280x720) instead of the whole tile (12 MB)."""

    def __init__(self, w: int, h: int, ox: int, oy: int, flip: bool = False) -> None:
        self.rng = np.random.default_rng(12345)
        self.tw, self.th = w + 64, h + 64
        self.w, self.ox, self.oy, self.flip = w, int(ox), int(oy), flip
        self.buf = np.empty((0, self.tw, 3), np.float32)
        self.top = 0    # the tile row of buf[0]
        self.drawn = 0  # tile rows drawn so far

    def __call__(self, y0: int, y1: int) -> np.ndarray:
        """The window's rows ``y0:y1`` (a view; ``y0`` never below an earlier call's)."""
        r0, r1 = y0 + self.oy, y1 + self.oy
        if r0 < self.top:
            raise ValueError(f"noise rows from {y0}: rows before {self.top - self.oy} are already let go")
        keep = min(r0, self.drawn)  # the rows above r0 are not asked for again
        parts = [self.buf[keep - self.top:]]
        while self.drawn < r1:
            band = np.empty((min(64, self.th - self.drawn), self.tw, 3), np.float32)
            band[:] = self.rng.normal(0, 1, band.shape)  # as _noise_tile draws it
            parts.append(band)
            self.drawn += len(band)
        if len(parts) > 1:
            self.buf, self.top = np.concatenate(parts), keep
        rows = self.buf[r0 - self.top:r1 - self.top]
        return (rows[:, ::-1] if self.flip else rows)[:, self.ox:self.ox + self.w]


def _uint16_stream(raw: Callable[[int], np.ndarray]) -> Callable[[int, np.ndarray], np.ndarray]:
    """The generator's 16-bit draws in order as NumPy's bounded ``integers`` takes them, ``n`` at a
    time (each 64-bit output is four of them, low half first; ``rest`` the draws left from before)."""
    def take(n: int, rest: np.ndarray) -> np.ndarray:
        x = rest
        while x.size < n:
            more = raw((n - x.size + 3) // 4).view(np.uint16)
            if not more.all():  # a 0 is the one draw Lemire's method rejects for 5 values
                more = more[more != 0]
            x = np.concatenate((x, more)) if x.size else more
        return x
    return take


def add_frame_noise(image: np.ndarray, seed: int, count: int, band: int = 48) -> np.ndarray:
    """``image`` plus the render camera's sensor noise of frame ``count``, saturated to 0..255:
    bit for bit ``cv2.add(image, default_rng([seed, count]).integers(-2, 3, image.shape,
    dtype=np.int16), dtype=cv2.CV_8U)``, but made ``band`` rows at a time (1 MB at 1280x720,
    not the 5.3 MB int16 frame of noise).

    NumPy draws each value from one 16-bit draw ``x`` of the generator's stream (its 64-bit
    outputs cut in four) by Lemire's method: ``(5 * x) >> 16`` less 2, the draw rejected (and
    the next one taken) only when ``5 * x`` is 0 modulo 2**16, which for 5 values is ``x == 0``.
    tests/vision/test_vision_render_memory.py checks it against ``integers`` itself."""
    rng = np.random.default_rng([seed, count])
    if sys.byteorder != "little":  # the views below cut the draws as a little-endian machine does
        return cv2.add(image, rng.integers(-2, 3, image.shape, dtype=np.int16), dtype=cv2.CV_8U)
    h = image.shape[0]
    per_row = int(np.prod(image.shape[1:], dtype=np.int64))
    take = _uint16_stream(rng.bit_generator.random_raw)
    out = np.empty_like(image)
    product = np.empty(band * per_row, np.uint32)
    noise = np.empty(band * per_row, np.int16)
    rest = np.empty(0, np.uint16)
    for y0 in range(0, h, band):
        y1 = min(h, y0 + band)
        n = (y1 - y0) * per_row
        x = take(n, rest)
        rest = x[n:]
        p, v = product[:n], noise[:n]
        np.multiply(x[:n], 5, out=p, dtype=np.uint32)
        np.subtract(p.view(np.uint16)[1::2], 2, out=v, casting="unsafe")  # the high half (little-endian) less 2
        cv2.add(image[y0:y1], v.reshape(image[y0:y1].shape), dst=out[y0:y1], dtype=cv2.CV_8U)
    return out


def apply_light(img: np.ndarray, mul: np.ndarray, add: np.ndarray,
                noise: Union[np.ndarray, Callable[[int, int], np.ndarray], None] = None,
                sigma: float = 0.0, band: int = 64) -> np.ndarray:
    """``img * mul + add (+ sigma * noise)``, clipped to 0..255, as uint8: the light field
    (``mul``, ``add``: float32 planes the size of ``img``, the same for its three channels) and
    the sensor noise (a window of the noise tile, any strides, or a :class:`NoiseRows` giving
    its rows), computed in bands of ``band`` rows so that no full-frame float32 temporary is
    made (each pixel's arithmetic is that of the whole-frame version)."""
    out = np.empty_like(img)
    h = img.shape[0]
    for y in range(0, h, band):
        m, a = cv2.merge([mul[y:y + band]] * 3), cv2.merge([add[y:y + band]] * 3)
        if noise is not None:
            n = noise[y:y + band] if isinstance(noise, np.ndarray) else noise(y, min(y + band, h))
            a = cv2.scaleAdd(n if n.strides[1] > 0 else np.ascontiguousarray(n), float(sigma), a)
        f = cv2.multiply(img[y:y + band], m, dtype=cv2.CV_32F)
        cv2.add(f, a, dst=f)
        cv2.max(f, 0.0, dst=f)  # type: ignore[call-overload]  # a scalar bound: the stubs omit it
        out[y:y + band] = cv2.convertScaleAbs(f)
    return out


def _draw_hand(img: np.ndarray, rng: np.random.Generator, target: np.ndarray, checker: Optional[BGR]) -> np.ndarray:
    """An arm from the nearest frame edge to ``target`` with a palm, fingers and its shadow."""
    h, w = img.shape[:2]
    tx, ty = target
    edges = [(tx, h + 60), (tx, -60), (-60, ty), (w + 60, ty)]
    ex, ey = edges[int(rng.integers(4))]
    ex += rng.uniform(-150, 150)
    ey += rng.uniform(-150, 150)
    sr, sg, sb = (int(v) for v in rng.choice([(110, 150, 205), (90, 130, 190), (60, 90, 140), (150, 180, 225),
                                              (40, 60, 100)]))
    skin = (sr, sg, sb)
    sleeve = tuple(int(v) for v in rng.integers(20, 230, 3))
    d = np.array([tx - ex, ty - ey], float)
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    wid = rng.uniform(45, 70)
    palm = np.array([tx, ty]) - d * 40

    def arm_poly(off: np.ndarray) -> list[np.ndarray]:
        a = np.array([ex, ey]) + off
        b = palm + off
        return [np.array([a + n * wid * 1.3, a - n * wid * 1.3, b - n * wid, b + n * wid], np.int32)]

    shadow = np.zeros(img.shape[:2], np.uint8)
    so = np.array([35.0, 45.0])
    cv2.fillPoly(shadow, arm_poly(so), 255)
    cv2.ellipse(shadow, tuple(int(v) for v in palm + so + d * 30), (int(wid * 1.2), int(wid)), 0, 0, 360, 255, -1)
    soft = cv2.blur(shadow, (41, 41))
    for y in range(0, h, 64):  # in bands of rows: the same float64 arithmetic without a 22 MB frame of it
        band = img[y:y + 64]
        band[:] = (band * (1 - 0.4 * soft[y:y + 64, :, None] / 255.0)).astype(np.uint8)
    cv2.fillPoly(img, arm_poly(np.zeros(2)), sleeve, cv2.LINE_AA)
    ang = float(np.degrees(np.arctan2(d[1], d[0])))
    cv2.ellipse(img, tuple(int(v) for v in palm + d * 30), (int(wid * 1.25), int(wid * 1.05)), ang, 0, 360, skin, -1,
                cv2.LINE_AA)
    for k in (-1.5, -0.5, 0.5, 1.5):
        fp = palm + d * (wid * 1.6 + rng.uniform(-10, 25)) + n * k * wid * 0.42
        cv2.ellipse(img, tuple(int(v) for v in fp), (int(wid * 0.55), int(wid * 0.17)), ang, 0, 360, _shade(skin, 0.92),
                    -1, cv2.LINE_AA)
    if checker is not None:
        cp = palm + d * wid * 1.9
        cv2.circle(img, tuple(int(v) for v in cp), int(wid * 0.8), checker, -1, cv2.LINE_AA)
    return d
