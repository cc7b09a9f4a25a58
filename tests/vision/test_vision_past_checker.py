"""The slot just past a stack's last checker, judged empty on its far part (vision.past_checker)."""
from __future__ import annotations

import numpy as np

from vision.past_checker import FAR, far_distances
from vision.slots import PATCH, SHIFT, _dist


def test_the_far_part_is_the_half_away_from_the_points_base_and_the_distance_the_plain_one() -> None:
    # a top-row slot's base lies at its patch's first rows, a bottom-row slot's at its last: the far part
    # is the other end's rows, compared shift by shift as vision.slots compares whole patches
    rng = np.random.default_rng(7)
    n, m = 12, 3
    wide = rng.uniform(0, 255, (n, PATCH + 2 * SHIFT, PATCH + 2 * SHIFT, 3)).astype(np.float32)
    looks = rng.uniform(0, 255, (n, m, PATCH, PATCH, 3)).astype(np.float32)
    top = np.arange(n) % 2 == 0
    keep = int(round(FAR * PATCH))
    got = far_distances(wide, looks, top)
    assert got.shape == (n, m)
    for i in range(n):
        rows = slice(PATCH - keep, PATCH) if top[i] else slice(0, keep)
        for j in range(m):
            best = min(float(_dist(wide[i, dy:dy + PATCH, dx:dx + PATCH][rows], looks[i, j][rows]))
                       for dy in range(2 * SHIFT + 1) for dx in range(2 * SHIFT + 1))
            assert abs(float(got[i, j]) - best) < 1e-3 * max(1.0, best)


def test_a_sliver_at_the_base_side_leaves_the_far_part_alike() -> None:
    # a slot's empty look, and the same with its base side's rows darkened (a checker's side and shadow
    # reaching in from below): whole, the patch is far from the look; on its far part, alike
    look = np.full((1, 1, PATCH, PATCH, 3), 180.0, np.float32)
    for top in (True, False):
        wide = np.full((1, PATCH + 2 * SHIFT, PATCH + 2 * SHIFT, 3), 180.0, np.float32)
        near = slice(0, SHIFT + 2) if top else slice(PATCH + SHIFT - 2, PATCH + 2 * SHIFT)
        wide[0, near] = 40.0
        whole = min(float(_dist(wide[0, dy:dy + PATCH, dx:dx + PATCH], look[0, 0]))
                    for dy in range(2 * SHIFT + 1) for dx in range(2 * SHIFT + 1))
        assert whole > 20
        assert float(far_distances(wide, look, np.array([top]))[0, 0]) == 0.0
        # ... but a sliver on the far side is seen there (the slot's own next checker, not the one below)
        assert float(far_distances(wide, look, np.array([not top]))[0, 0]) > 20
