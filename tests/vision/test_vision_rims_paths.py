"""Vision: the ring scores' fast paths give the plain computation's values, bit for bit."""
from __future__ import annotations

import numpy as np

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
