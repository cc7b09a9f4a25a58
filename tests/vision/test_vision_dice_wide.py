"""The pip-like spots' blurs (:mod:`vision.dice_candidates`): the wide one worked out at half scale stays
within a fraction of a grey level of the full Gaussian, and a crop starting at an even pixel blurs as the
whole picture does away from its edges (the carry's crops, :mod:`vision.dice_carry`, rely on it); the
spots' peaks, worked out only about the rows and columns past the threshold, are the whole picture's."""
from __future__ import annotations

import cv2
import numpy as np

from vision.dice_candidates import SPOT_REACH, _bands, _blurred, _blurred_wide, _gaussian_kernel, _peak_mask
from vision.dice_params import DiceParams


def _board_like(h: int, w: int, seed: int) -> np.ndarray:
    """A grey picture with pip-sized spots and hard edges on a smooth ground."""
    rng = np.random.default_rng(seed)
    g = cv2.GaussianBlur((rng.random((h, w)) * 255).astype(np.uint8), (0, 0), 6)
    for _ in range(60):
        x, y = int(rng.integers(w)), int(rng.integers(h))
        cv2.circle(g, (x, y), int(rng.integers(2, 6)), int(rng.integers(256)), -1)
        end = (x + int(rng.integers(5, 40)), y + int(rng.integers(5, 40)))
        cv2.rectangle(g, (x, y), end, int(rng.integers(256)), 2)
    return g


def test_the_wide_blur_at_half_scale_is_near_the_full_gaussian() -> None:
    sigma = 2.5 * DiceParams().pip_sigma * 64
    for seed in range(3):
        g = _board_like(181, 243, seed)
        full = cv2.sepFilter2D(g, cv2.CV_32F, _gaussian_kernel(sigma), _gaussian_kernel(sigma))
        got = _blurred_wide(g, sigma)
        assert got.shape == g.shape and got.dtype == np.float32
        inner = np.abs(got - full)[20:-20, 20:-20]
        assert inner.max() < 0.6 and inner.mean() < 0.1


def test_an_even_crop_blurs_as_the_whole_picture_within_the_reach() -> None:
    sigma = 2.5 * DiceParams().pip_sigma * 64
    pad = int(np.ceil(SPOT_REACH * 64))
    g = _board_like(200, 260, 7)
    whole = _blurred_wide(g, sigma)
    narrow = _blurred(g, sigma / 2.5, 3)
    for y0, x0 in ((0, 0), (10, 36), (42, 64)):
        crop = g[y0:y0 + 120, x0:x0 + 150]
        a = _blurred_wide(crop, sigma)[pad:-pad, pad:-pad]
        b = whole[y0 + pad:y0 + 120 - pad, x0 + pad:x0 + 150 - pad]
        assert np.abs(a - b).max() < 1e-3
        n = _blurred(crop, sigma / 2.5, 3)[pad:-pad, pad:-pad]
        assert np.abs(n - narrow[y0 + pad:y0 + 120 - pad, x0 + pad:x0 + 150 - pad]).max() < 1e-3


def test_small_pictures_take_the_full_blur() -> None:
    g = _board_like(7, 30, 1)
    assert np.array_equal(_blurred_wide(g, 4.0), _blurred(g, 4.0))


def test_a_part_of_the_wide_blur_is_the_whole_ones() -> None:
    rng = np.random.default_rng(3)
    for i in range(60):
        h, w = int(rng.integers(8, 160)), int(rng.integers(8, 160))
        g = _board_like(h, w, i)
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        x1, y1 = int(rng.integers(x0 + 1, w + 1)), int(rng.integers(y0 + 1, h + 1))
        whole = _blurred_wide(g, 4.0)[y0:y1, x0:x1]
        part = _blurred_wide(g, 4.0, (x0, y0, x1, y1))
        assert part.shape == whole.shape and np.abs(part - whole).max() < 1e-3


def test_the_peaks_are_the_whole_pictures_morphology() -> None:
    rng = np.random.default_rng(5)
    box = np.ones((5, 5), np.uint8)
    for i in range(300):
        h, w = int(rng.integers(1, 120)), int(rng.integers(1, 160))
        f = cv2.GaussianBlur((rng.random((h, w)) * 120 - 60).astype(np.float32), (0, 0), float(rng.uniform(0.5, 3)))
        if i % 3 == 0:   # plateaus: ties in the box
            f = np.round(f * 0.25) / 0.25
        for low in (False, True):
            past = cv2.compare(f, -10.0, cv2.CMP_LE) if low else cv2.compare(f, 10.0, cv2.CMP_GE)
            ext = (cv2.erode if low else cv2.dilate)(f, box)
            want = past & cv2.compare(f, ext, cv2.CMP_LE if low else cv2.CMP_GE)
            assert np.array_equal(_peak_mask(f, 10.0, 5, low), want)


def test_many_rows_make_the_same_bands_as_few() -> None:
    rng = np.random.default_rng(1)
    for _ in range(500):
        rows = np.unique(rng.integers(0, int(rng.integers(1, 2000)), int(rng.integers(0, 300))))
        reach = int(rng.integers(0, 5))
        want: list[tuple[int, int]] = []
        for r in rows.tolist():
            if want and r - want[-1][1] < 2 * reach + 8:
                want[-1] = (want[-1][0], r + 1)
            else:
                want.append((r, r + 1))
        assert _bands(rows, reach) == want
