"""vision.dice_blur: OpenCV's 8-bit Gaussian blur, the same pixels by the faster way (or by OpenCV's own)."""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision import dice_blur  # noqa: E402
from vision.dice_blur import gaussian_u8  # noqa: E402
from vision.dice_params import DiceParams  # noqa: E402


def test_the_same_pixels_as_opencv_on_random_images_of_any_size() -> None:
    """Random grey images (noise, flat, two-level, smoothed), 1 px to a whole coarse view, at the dice search's
    sigmas and a few others: every pixel as :func:`cv2.GaussianBlur` makes it."""
    rng = np.random.default_rng(7)
    dp = DiceParams().detect_px
    for sigma in (0.03 * dp, 0.09 * dp, 0.5, 1.0, 2.0, 4.5):
        for _ in range(40):
            h, w = (int(v) for v in rng.integers(1, 160, 2))
            kind = int(rng.integers(0, 4))
            img = [rng.integers(0, 256, (h, w), dtype=np.uint8), np.full((h, w), int(rng.integers(0, 256)), np.uint8),
                   (rng.integers(0, 2, (h, w)) * 255).astype(np.uint8),
                   cv2.blur(rng.integers(0, 256, (h, w), dtype=np.uint8), (5, 5))][kind]
            assert np.array_equal(gaussian_u8(img, sigma), cv2.GaussianBlur(img, (0, 0), sigma)), (sigma, h, w, kind)
        img = rng.integers(0, 256, (390, 454), dtype=np.uint8)
        assert np.array_equal(gaussian_u8(img, sigma), cv2.GaussianBlur(img, (0, 0), sigma))


def test_the_fast_way_is_taken_at_the_dice_searchs_sigmas() -> None:
    """At the dice search's sigmas the kernel is read off and checked (the fast way in use here); a colour
    image or floats go to OpenCV itself, the same pixels."""
    dp = DiceParams().detect_px
    for sigma in (0.03 * dp, 0.09 * dp):
        assert dice_blur._kernel(float(sigma)) is not None
    rng = np.random.default_rng(8)
    colour = rng.integers(0, 256, (30, 40, 3), dtype=np.uint8)
    assert np.array_equal(gaussian_u8(colour, 1.5), cv2.GaussianBlur(colour, (0, 0), 1.5))
    floats = rng.random((30, 40)).astype(np.float32)
    assert np.array_equal(gaussian_u8(floats, 1.5), cv2.GaussianBlur(floats, (0, 0), 1.5))
