"""The reader's fast paths give what the plain computations give, bit for bit (issue 19)."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.events import PointReading  # noqa: E402
from vision import layout as L  # noqa: E402
from vision import odds  # noqa: E402
from vision import looks  # noqa: E402
from vision.looks import outline_score  # noqa: E402
from vision.rectify import rectify  # noqa: E402
from vision.render import render_scene  # noqa: E402
from vision.rims import peaks_rows, ring_profiles  # noqa: E402
from vision.stacks import _peaks  # noqa: E402


def test_kept_absolute_odds_are_the_odds_worked_afresh() -> None:
    rnd = random.Random(3)
    odds._absolute_alts.cache_clear()
    for _ in range(300):
        pts = [PointReading(c, rnd.choice(["dark", "light"]) if c else None,
                            rnd.choice([1.0, 0.5, rnd.random(), 0.0, np.float32(rnd.random()), np.float64(0.25)]))
               for c in (rnd.choice([0, 0, 1, 2, 3, 5, 9, 15]) for _ in range(24))]
        rows = L.RowReading(tuple(pts[:12]), tuple(pts[12:]), (rnd.randint(0, 3), rnd.randint(0, 2)), rnd.random())
        for _ in range(2):   # worked, then kept
            got = odds.row_odds(rows)
            for p, alts in zip(pts, got):
                assert alts == odds._alts(odds.combine(odds.point_odds(p), None, 6))
    assert odds._absolute_alts.cache_info().hits > 0


def test_the_outline_quantiles_are_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    sc = render_scene(L.random_position(np.random.default_rng(4)), seed=4)
    prof = ring_profiles(rectify(sc.image, sc.corners))
    rng = np.random.default_rng(0)
    at = [(float(rng.uniform(0.3, 12.7)), float(rng.uniform(0.3, 10.7))) for _ in range(200)]
    fast = [outline_score(prof, x, y) for x, y in at]
    monkeypatch.setattr(looks, "_percentile", lambda row, q: float(np.quantile(row, 0.1)))   # the 10th percentile
    assert [outline_score(prof, x, y) for x, y in at] == fast
    assert all(type(v) is float for o in fast for v in o)


def test_peaks_of_all_rows_are_the_peaks_of_each_row() -> None:
    rng = np.random.default_rng(1)
    sc = render_scene(L.random_position(np.random.default_rng(5)), seed=5)
    prof = ring_profiles(rectify(sc.image, sc.corners))
    cases: list[np.ndarray] = [prof.full, prof.cap]
    # few levels: many ties, which numpy's sort orders its own way
    cases += [rng.integers(0, int(rng.integers(2, 8)), (5, int(rng.integers(1, 80)))).astype(np.float32)
              for _ in range(400)]
    for arr in cases:
        some = (float(rng.uniform(-1, 3)), int(rng.integers(0, 6)), True)
        for thr, nms, lead in ((0.075, 3, True), (0.3, 1, False), some):
            assert peaks_rows(arr, thr, nms, lead) == [_peaks(row, thr, nms, lead) for row in arr]
