"""The counts found with every point's look-ups made at once (:class:`vision.stacks.Ahead`) are
the counts each point finds on its own, bit for bit (issue 19)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.checkers import board_params, count_points  # noqa: E402
from vision.params import DEFAULT, low_params  # noqa: E402
from vision.rectify import rectify  # noqa: E402
from vision.render import render_scene  # noqa: E402
from vision.rims import Profiles, axes, ring_profiles  # noqa: E402
from vision.stacks import PointCount, count_point, far_rim  # noqa: E402


def one_by_one(prof: Profiles, params: object) -> dict[str, PointCount]:
    """Each point counted on its own, as before the look-ups were made at once."""
    assert params.__class__ is DEFAULT.__class__
    return {a.name: count_point(a, prof.full[i], prof.cap[i], prof.lateral[i], prof.dist, params,
                                None if prof.colour is None else prof.colour[i],
                                0.0 if prof.fill is None else float(prof.fill[i]))
            for i, a in enumerate(axes(params))}


def test_counts_found_at_once_are_each_points_own() -> None:
    seen_faint = seen_tall = 0
    for seed in range(6):
        pos = L.start_position() if seed == 0 else L.random_position(np.random.default_rng(seed), tall=0.5)
        sc = render_scene(pos, seed=seed)
        prof = ring_profiles(rectify(sc.image, sc.corners))
        params = board_params(prof)
        low = low_params(params)
        seen_faint += int(((prof.cap > low.threshold) & (prof.cap <= params.threshold)).any())
        assert count_points(prof, params) == one_by_one(prof, params)
        # scaled profiles: other peaks above and below the thresholds
        for gain in (0.6, 1.7):
            scaled = Profiles(prof.full * gain, prof.cap * gain, prof.lateral, prof.dist, prof.bar_full,
                              prof.bar_y, prof.strength, prof.colour, prof.fill)
            assert count_points(scaled, params) == one_by_one(scaled, params)
            seen_tall += sum(far_rim(row, prof.dist, params) for row in scaled.cap)
    assert seen_faint and seen_tall   # the faint pass and the tall stacks' look-up both exercised
