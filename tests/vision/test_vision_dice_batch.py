"""The close looks' work done for all candidates at once (the speed paths of :mod:`vision.dice`) against
the same work done candidate by candidate: the same values, the same dice and looks."""
from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision import dice as D
from vision import layout as L
from vision import render as R
from vision.dice_face import _dist_runs, _later_seeds, _seed_offsets, _window, _windows, seed_colours, seed_dists
from vision.dice_params import DiceParams
from tests.vision.dice_views import dice_views, search
from vision.rectify import View, rectify


def test_the_first_seeds_distances_of_all_points_are_each_ones_own() -> None:
    """:func:`seed_dists` gives, per point, the first seed :func:`face_at` grows (the first of the colour
    about it at the loosest likeness) and that seed's window distances and straight runs, as worked out
    alone, and the same for the later seeds it grows while no face is found; none where the window leaves
    the view or every seed is a pip's."""
    p = DiceParams()
    rng = np.random.default_rng(23)
    img = rng.integers(0, 256, (220, 280, 3), dtype=np.uint8)
    img[40:130, 60:210] = (30, 140, 200)      # plain patches: long straight runs, seeds of the colour about them
    img[150:200, 20:90] = (200, 200, 190)
    img[60:70, 100:110] = (10, 10, 10)        # a pip on the patch
    spots = [(u, 100) for u in (80, 100, 120, 140, 160)]
    for u, v in spots:                        # faint specks on the patch: a seed there is a pip's at tight likenesses
        img[v - 1: v + 2, u - 1: u + 2] = (50, 140, 200)
    view = View(img, 64, 0.6)
    points = [(float(x), float(y)) for x, y in rng.random((80, 2)) * (4.4, 3.4) - 0.6]
    points += [(u / 64 - 0.6, v / 64 - 0.6) for u, v in spots]
    colours = seed_colours(view, points, p)
    got = seed_dists(view, points, colours, p)
    loosest = max(p.likeness)
    grown = later_seen = 0
    for (x, y), seeds, first in zip(points, colours, got):
        win = _window(view, x, y, p)
        k = None if seeds is None else next((k for k, (_c, far) in enumerate(seeds) if far < loosest), None)
        assert (first is None) == (win is None or k is None)
        if first is None or win is None or seeds is None:
            continue
        u, v, r = win
        dx, dy = _seed_offsets(64)[k]
        dist, runs = _dist_runs(img[v - r: v + r + 1, u - r: u + r + 1], seeds[k][0], (r + dx, r + dy))
        assert first[0] == k and np.array_equal(first[1], dist) and first[2] == runs and first[3] == win
        assert first[1].dtype == dist.dtype and first[1].shape == dist.shape
        grown += 1
        # the later seeds face_at grows while no face is found: each one's own distances and runs too
        later = _later_seeds([far for _c, far in seeds], loosest, min(p.likeness))
        assert later[0] == k and sorted(first[4]) == later[1:]
        for j in later[1:]:
            dx, dy = _seed_offsets(64)[j]
            dist, runs = _dist_runs(img[v - r: v + r + 1, u - r: u + r + 1], seeds[j][0], (r + dx, r + dy))
            assert np.array_equal(first[4][j][0], dist) and first[4][j][1] == runs
            later_seen += 1
    assert grown > 20 and later_seen >= 5


def test_the_later_seeds_are_those_face_at_grows() -> None:
    """:func:`_later_seeds`: the seeds unlike the colour about them at every likeness are passed over, and
    the first of it at every likeness ends the look (no likeness finds it a pip's)."""
    assert _later_seeds([5, 40, 3], 30, 12) == [0]
    assert _later_seeds([40, 20, 35, 25, 8], 30, 12) == [1, 3, 4]
    assert _later_seeds([12, 29, 30, 11.9, 0], 30, 12) == [0, 1, 3]
    assert _later_seeds([30, 31, 255], 30, 12) == []


@pytest.mark.parametrize("seed", [0, 1])
def test_the_finder_with_the_first_seeds_distances_at_once_is_the_one_candidate_by_candidate(
        seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole view's search (rendered dice on a real table) makes the same close looks and finds the same
    dice whether the first seeds' distances are worked out for all candidates at once or in each look."""
    views = dice_views(seed)
    fast = search(views)
    monkeypatch.setattr(D, "seed_dists", lambda view, points, *a, **k: [None] * len(points))
    slow = search(views)
    assert fast == slow
    assert sum(len(looks) for _dice, looks in fast) > 150 and sum(len(dice) for dice, _ in fast) >= 1


def test_the_slow_path_is_taken_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """(The test above compares two paths: the patched finder does work out each look's distances alone.)"""
    calls: list[Any] = []
    import vision.dice_face as F
    real = F._dist_runs

    def counted(*a: Any, **k: Any) -> Any:
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(F, "_dist_runs", counted)
    r = R.render_scene(L.random_position(np.random.default_rng(4)), R.RenderParams.real_table(dice_prob=1.0), seed=4)
    view = rectify(r.image, r.corners, 64)
    D.find_dice(view, DiceParams(), r.corners)
    fast_calls = len(calls)
    monkeypatch.setattr(D, "seed_dists", lambda view, points, *a, **k: [None] * len(points))
    D.find_dice(view, DiceParams(), r.corners)
    assert len(calls) - fast_calls > 3 * max(fast_calls, 1)


def test_the_windows_of_all_points_are_each_ones_own() -> None:
    """:func:`_windows` gives each point's :func:`_window`, at half pixels (rounded half to even) and at the
    view's edges too."""
    p = DiceParams()
    view = View(np.zeros((150, 170, 3), np.uint8), 64, 0.6, origin=(0.25, -0.3))
    rng = np.random.default_rng(5)
    pts = [(float(x), float(y)) for x, y in rng.random((300, 2)) * (3.2, 2.9) + (0.1, -0.45)]
    pts += [(0.25 + (k + 0.5) / 64, -0.3 + (j + 0.5) / 64) for k in range(25, 40) for j in range(25, 40)]
    got = _windows(view, pts, p)
    assert got == [_window(view, x, y, p) for x, y in pts]
    assert any(w is None for w in got) and any(w is not None for w in got)
    assert _windows(view, [], p) == []
