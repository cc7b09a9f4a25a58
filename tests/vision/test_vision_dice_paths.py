"""The dice finder's speed paths give what the plain ways give: a pip row's best stand-out read at the
points alone, the pip groups' pairs measured once at the longest link, the near pairs laid out at once."""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.dice_candidates import pip_candidates, standing_out  # noqa: E402
from vision.dice_pips import apart, close_pairs, small_groups  # noqa: E402
from vision.dice_params import DiceParams  # noqa: E402
from vision.rectify import View  # noqa: E402


def test_standing_out_is_the_whole_maps_dilation_read_at_the_points() -> None:
    """Each point's score is the whole map's box dilation read at it (edges and corners included), the
    points ranked the same way."""
    rng = np.random.default_rng(4)
    p = DiceParams()
    k = max(3, int(round(0.15 * p.detect_px)) | 1)
    for _ in range(150):
        H, W = (int(v) for v in rng.integers(3, 70, 2))
        m = rng.integers(0, 40, (H, W)).astype(np.uint8)
        view = View(np.zeros((2 * H, 2 * W, 3), np.uint8), 64, 0.6)
        points = [(float(x), float(y)) for x, y in rng.uniform(-1.5, 3.5, (int(rng.integers(1, 60)), 2))]
        best = cv2.dilate(m, np.ones((k, k), np.uint8))
        a = np.asarray(points)
        xs = np.clip(np.round((a[:, 0] - view.x0) * p.detect_px).astype(int), 0, W - 1)
        ys = np.clip(np.round((a[:, 1] - view.y0) * p.detect_px).astype(int), 0, H - 1)
        score = best[ys, xs]
        want = [points[i] for i in np.argsort(-score, kind="stable") if score[i] >= p.pip_stand_out]
        assert standing_out(points, view, m, p) == want


def _pairs_one_by_one(points: np.ndarray, d: float, strict: bool) -> set[tuple[int, int]]:
    n = len(points)
    return {(i, j) for i in range(n) for j in range(i + 1, n)
            if (np.hypot(*(points[i] - points[j])) < d if strict else np.hypot(*(points[i] - points[j])) <= d)}


def test_near_pairs_laid_out_at_once_are_every_pair_measured() -> None:
    """The pairs near in x, laid out at once, are those of every pair measured (on a grid too: ties at
    the distance), with their distances."""
    rng = np.random.default_rng(9)
    for trial in range(80):
        n = int(rng.integers(0, 70))
        pts = rng.random((n, 2)) * float(rng.choice([0.5, 2.0, 8.0]))
        if trial % 3 == 0:
            pts = np.round(pts * 20) / 20
        for d, strict in ((0.17, True), (0.32, True), (0.06, False)):
            i, j, far = close_pairs(pts, d, strict, dist=True)
            assert set(zip(i.tolist(), j.tolist())) == _pairs_one_by_one(pts, d, strict)
            assert np.array_equal(far, np.hypot(pts[i, 0] - pts[j, 0], pts[i, 1] - pts[j, 1]))


def test_pip_candidates_from_the_longest_links_pairs_are_each_links_own() -> None:
    """A link's groups from the pairs of the longest link below it are those from its own pairs."""
    rng = np.random.default_rng(2)
    p = DiceParams()
    view = View(np.zeros((64, 64, 3), np.uint8), 64, 0.6)
    for trial in range(60):
        spots = [rng.random((int(rng.integers(0, 80)), 2)) * 4.0 for _ in range(2)]
        if trial % 2:
            spots = [np.round(s * 25) / 25 for s in spots]
        want: list[tuple[float, float]] = []
        for s in spots:
            if len(s):
                for link in p.pip_links:
                    want += small_groups(s, link, p.side[1] * 0.8)
        assert pip_candidates(view, p, (spots[0], spots[1])) == apart(want, 0.06)
