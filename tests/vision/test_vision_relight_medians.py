"""The light fit's quick medians (vision.relight) give what numpy's own median gives, exactly:
the fit's results must not move when its medians are made cheaper."""
from __future__ import annotations

import numpy as np

from vision.relight import _median, near_lists, _near_median, neighbours


def test_median_is_numpys_on_odd_and_even_lengths() -> None:
    rng = np.random.default_rng(5)
    for n in (1, 2, 3, 4, 7, 50, 51):
        v = rng.normal(0.0, 1.0, n).astype(np.float32)
        assert _median(v) == float(np.median(v))
    assert _median(np.array([1.0, 2.0], np.float32)) == 1.5


def test_near_median_is_each_rows_lower_median_of_its_used_neighbours() -> None:
    rng = np.random.default_rng(6)
    at = rng.uniform(0.0, 6.0, (40, 2))
    near = neighbours(at, at)
    values = rng.normal(0.0, 1.0, 40).astype(np.float32)
    use = rng.random(40) > 0.3
    got = _near_median(values, near_lists(near), use)
    for i in range(40):
        vals = np.sort(values[near[i] & use])
        want = vals[(len(vals) - 1) // 2] if len(vals) else 0.0
        assert got[i] == np.float32(want)
    assert (got != 0).sum() > 20   # most rows have used neighbours: the check above bit
