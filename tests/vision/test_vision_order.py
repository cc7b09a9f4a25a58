"""vision.order gives numpy's order statistics bit for bit, and the renderer's banded light is
the whole-frame arithmetic (the speed and memory work of issue 19 changes no value)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.order import _percentile, median_axis
from vision.render_camera import apply_light


@pytest.mark.parametrize("n", [1, 2, 3, 4, 7, 8, 30, 121])
def test_median_axis_is_numpys_median(n: int) -> None:
    rng = np.random.default_rng(n)
    for axis in (0, 1):
        a = rng.normal(100, 40, (n, 5) if axis == 0 else (5, n)).astype(np.float32)
        a[0, 0] = a[-1, -1]  # a tie
        want, got = np.median(a, axis=axis), median_axis(a, axis)
        assert got.dtype == want.dtype and np.array_equal(got, want)


@pytest.mark.parametrize("q", [50, 67, 90, 97, 99.9, 100])
def test_percentile_is_numpys_on_small_and_large_arrays(q: float) -> None:
    rng = np.random.default_rng(int(q * 10))
    for n in (5, 11, 9000, 44000):
        a = rng.gamma(2.0, 20.0, n).astype(np.float32)
        assert _percentile(a, q) == float(np.percentile(a, q))
        assert _percentile(np.round(a), q) == float(np.percentile(np.round(a), q))  # many ties


def test_apply_light_in_bands_is_the_whole_frame_arithmetic() -> None:
    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (150, 200, 3), dtype=np.uint8)
    mul = rng.uniform(0.6, 1.4, (150, 200)).astype(np.float32)
    add = rng.uniform(-20, 60, (150, 200)).astype(np.float32)
    tile = rng.normal(0, 1, (150, 264, 3)).astype(np.float32)[:, ::-1]  # a flipped window: negative strides
    noise = tile[:, 10:210]
    whole = cv2.scaleAdd(np.ascontiguousarray(noise), 4.0, cv2.merge([add] * 3))
    f = cv2.add(cv2.multiply(img, cv2.merge([mul] * 3), dtype=cv2.CV_32F), whole)
    want = cv2.convertScaleAbs(cv2.max(f, 0.0))
    assert np.array_equal(apply_light(img, mul, add, noise, 4.0, band=32), want)
    assert not np.array_equal(apply_light(img, mul, add, None, 0.0), want)  # the noise counts
