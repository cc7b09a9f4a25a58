"""Vision: the ring scores' fast paths give the plain computation's values, bit for bit."""
from __future__ import annotations

import numpy as np
import pytest

from vision import rims
from vision.params import DEFAULT
from vision.rectify import View, rectify
from vision.render import render_scene
from vision import layout as L


def _plain_ring_best(g: np.ndarray, rings: "rims._Rings") -> np.ndarray:
    """:func:`vision.rims._ring_best` written plainly: every sample gathered from the map, turned
    by its angle, |radial| minus half |tangential|, the best over the radii."""
    flat = g.ravel()
    if rings.starts is not None:
        steps = np.arange(rings.length)
        cols = rims._column_map(g)
        gather = [cols[s[..., None] + steps] for s in rings.starts]
    else:
        assert rings.index is not None
        gather = [np.take(flat, i, mode="wrap") for i in rings.index]
    rot = rims._ROT_BY_Q
    scores = []
    for z in gather:
        z = z * rot
        scores.append(np.abs(z.real) - np.abs(z.imag) * np.float32(0.5))
    best = scores[0]
    for s in scores[1:]:
        best = np.maximum(best, s)
    return best


def test_the_ring_scores_are_the_plain_ones() -> None:
    """The ring scores worked one angle of each quadrant at a time, every buffer reused, are the
    plain computation's on rendered boards and on noise."""
    views = []
    for seed in (5, 6):
        sc = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed)
        views.append(rectify(sc.image, sc.corners, 32))
    rng = np.random.default_rng(7)
    views.append(View(rng.integers(0, 256, views[0].image.shape, dtype=np.uint8), 32, 0.6))
    for view in views:
        g = rims._gradients(view)
        plan = rims._plan(view, DEFAULT)
        for rings in (plan.ring, plan.bar_ring):
            got = rims._ring_best(g, rims._column_map(g), rings)
            want = _plain_ring_best(g, rings)
            assert got.dtype == want.dtype == np.float32 and np.array_equal(got, want)


def _plain_gradient_maps(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`vision.rims._gradient_maps` written plainly, on the whole view at once: float Sobels of
    the lightness and of red-minus-green, the latter where its |gx| + |gy| passes twice the
    lightness's (then at half weight), and that larger sum."""
    import cv2
    light = cv2.LUT(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), rims._LIGHTNESS).astype(np.float32)
    rg = img[..., 2].astype(np.float32) - img[..., 1].astype(np.float32)
    lx, ly = cv2.Sobel(light, cv2.CV_32F, 1, 0), cv2.Sobel(light, cv2.CV_32F, 0, 1)
    rx, ry = cv2.Sobel(rg, cv2.CV_32F, 1, 0), cv2.Sobel(rg, cv2.CV_32F, 0, 1)
    a, b = np.abs(rx) + np.abs(ry), 2 * (np.abs(lx) + np.abs(ly))
    use = a > b
    g = np.where(use, 0.5 * rx + 0.5j * ry, lx + 1j * ly).astype(np.complex64)
    return g, np.maximum(a, b)


@pytest.mark.parametrize("rows", [1, 2, 7, 1000])
def test_the_gradient_maps_made_in_strips_are_the_whole_views(rows: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """However many rows a strip holds (one, a few, the whole view), the gradient maps are the plain
    whole-view computation's, bit for bit: each strip's Sobels see the rows beside it."""
    sc = render_scene(L.random_position(np.random.default_rng(8)), seed=8)
    rng = np.random.default_rng(9)
    images = [rectify(sc.image, sc.corners, 32).image, rng.integers(0, 256, (37, 53, 3), dtype=np.uint8)]
    for img in images:
        monkeypatch.setattr(rims, "STRIP", rows * img.shape[1])
        g, mag2 = rims._gradient_maps(View(img, 32, 0.6))
        want_g, want_mag2 = _plain_gradient_maps(img)
        assert g.dtype == np.complex64 and mag2.dtype == np.int16
        assert np.array_equal(g, want_g) and np.array_equal(mag2, want_mag2)
