"""What the dice's child process (:mod:`vision.dice_ahead`) spends beyond the search itself, kept out:
no module imported on its first lines (the ways around them give the same values as the ways they replace)."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Optional

import cv2
import numpy as np

from vision import dice_blur
from vision.dice_carry import sorted_unique

ROOT = Path(__file__).resolve().parents[2]


def test_sorted_unique_is_numpys_unique() -> None:
    """The same values, sorted, of the same type, on keys with and without repeats (and none, and one)."""
    rng = np.random.default_rng(41)
    cases = [np.zeros(0, np.int64), np.array([7], np.int64), np.array([3, 3, 3], np.int64)]
    cases += [rng.integers(0, hi, n).astype(np.int64) for hi in (2, 50, 10**9) for n in (2, 17, 400, 5000)]
    for a in cases:
        got, want = sorted_unique(a.copy()), np.unique(a)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def _kernel_before(sigma: float) -> Optional[np.ndarray]:
    """:func:`vision.dice_blur._kernel` as it was, its check images drawn by ``numpy.random``."""
    n = int(round(sigma * 3 * 2 + 1)) | 1
    if n < 3 or n > 99:
        return None
    line = np.zeros((2 * n + 1, 2 * n + 1), np.uint8)
    line[:, n] = 255
    taps = cv2.GaussianBlur(line, (0, 0), sigma)[n, n - n // 2: n + n // 2 + 1].astype(np.int64)
    if len(taps) != n or int(taps.sum()) != 256 or int(taps.max()) > 128:
        return None
    k = (taps / 256.0).astype(np.float32).reshape(-1, 1)
    rng = np.random.default_rng(19)
    for h, w in ((1, 1), (2, 7), (5, 3), (n // 2, n + 3), (n + 1, n // 2 + 1), (37, 61), (108, 108), (130, 211)):
        for img in (rng.integers(0, 256, (h, w), dtype=np.uint8), np.full((h, w), 255, np.uint8),
                    (rng.integers(0, 2, (h, w), dtype=np.uint8) * 255).astype(np.uint8)):
            if not np.array_equal(dice_blur._fast(img, k), cv2.GaussianBlur(img, (0, 0), sigma)):
                return None
    return k


def test_blur_kernel_is_the_same_as_with_numpys_random_images() -> None:
    """Its check images made without numpy.random: the same kernel (or none) at every sigma, the search's too."""
    sigmas = [0.03 * 32, 0.09 * 32] + [float(s) for s in np.arange(0.2, 9.0, 0.37)]
    for sigma in sigmas:
        got, want = dice_blur._kernel(sigma), _kernel_before(sigma)
        assert (got is None) == (want is None), sigma
        assert got is None or np.array_equal(got, want)
    assert all(dice_blur._kernel(s) is not None for s in sigmas[:2])   # the search's blurs take the fast way
    noise = dice_blur._scrambled(65536, 3)
    assert np.bincount(noise, minlength=256).min() > 150   # every level drawn, about evenly


def test_the_dice_search_imports_nothing_on_its_lines() -> None:
    """A fresh process (as the child is) finding the dice on a camera's lines imports no module doing so,
    from its first line on:
    ``numpy.ma`` (``np.unique``) and ``numpy.random`` each cost the child some 8 ms on its first lines."""
    code = textwrap.dedent("""
        import sys
        import cv2
        import numpy as np
        from vision.dice_carry import DiceCarry
        frame = np.full((720, 1280, 3), 90, np.uint8)
        cv2.rectangle(frame, (300, 150), (980, 600), (40, 120, 200), -1)
        corners = np.array([[300, 150], [980, 150], [980, 600], [300, 600]], np.float64)
        carry = DiceCarry()
        before = set(sys.modules)
        carry.find(frame, corners)
        for k in range(3):
            f = frame.copy()
            cv2.rectangle(f, (420 + 60 * k, 300), (450 + 60 * k, 330), (250, 250, 250), -1)
            cv2.circle(f, (700, 250 + 40 * k), 20, (10, 10, 10), -1)
            carry.find(f, corners)
        print(" ".join(sorted(set(sys.modules) - before)))
    """)
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert got.stdout.split() == []
