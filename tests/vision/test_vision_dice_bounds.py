"""A grown face turned away by its box alone (the speed path of ``vision.dice_face._blob``): only faces whose
outline could never pass the shape tests, so the finder's looks are the same with and without it."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import dice_face as F
from vision.dice_params import DiceParams
from tests.vision.dice_views import dice_views, search


def _passes(rect: tuple, p: DiceParams, P: int) -> bool:
    """:func:`_blob`'s tests on a face's minimum-area rectangle (its sides and size)."""
    (_x, _y), (rw, rh), _a = rect
    lo, hi = p.side
    return (lo * P <= min(rw, rh) and max(rw, rh) <= p.max_extent * P and max(rw, rh) <= p.aspect * min(rw, rh)
            and float(np.sqrt(rw * rh)) <= hi * P)


@pytest.mark.parametrize("P", [48, 64, 80])
def test_a_box_turned_away_never_holds_a_face_that_passes(P: int) -> None:
    """Random pixel sets (blobs, thin rotated stripes, rectangles near the limits): whenever the box test
    says too wide or too thin, the set's minimum-area rectangle (of its outline's hull, as the finder takes
    it) fails the shape tests; and the bounds themselves hold (span <= diagonal, shorter side <= sqrt 2 span)."""
    p = DiceParams()
    widest = F._widest(p, P)
    rng = np.random.default_rng(P)
    turned = passed = 0
    for _ in range(4000):
        kind = rng.integers(3)
        if kind == 0:
            n = int(rng.integers(3, 60))
            pts = (rng.random((n, 2)) * rng.integers(3, 70, 2)).astype(np.int32)
        else:
            ang = rng.random() * np.pi
            a = rng.uniform(0.1, 1.0) * P if kind == 1 else rng.uniform(0.2, 0.5) * P
            b = rng.uniform(0.3, 1.2) * P
            u, v = rng.random(200) * b, rng.random(200) * a
            pts = np.stack([u * np.cos(ang) - v * np.sin(ang), u * np.sin(ang) + v * np.cos(ang)], 1)
            pts = np.clip(np.round(pts + 100), 0, 219).astype(np.int32)
        mask = np.zeros((220, 220), np.uint8)
        mask[pts[:, 1], pts[:, 0]] = 1
        cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(cnts[0] if len(cnts) == 1 else np.vstack(cnts))
        rect = cv2.minAreaRect(hull)
        x, y, w, h = cv2.boundingRect(mask)
        box = (x, y, x + w, y + h)
        (_c, (rw, rh), _a) = rect
        assert max(w, h) - 1 <= np.hypot(rw, rh) + 1e-3
        assert min(rw, rh) <= np.sqrt(2) * (min(w, h) - 1) + 1e-3
        if F._too_wide(box, widest) or F._too_thin(box, p.side[0] * P):
            turned += 1
            assert not _passes(rect, p, P)
        passed += _passes(rect, p, P)
    assert turned > 500 and passed > 50


def test_the_widest_face_is_the_longest_rectangle_that_passes() -> None:
    """:func:`_widest` is the greatest diagonal over rectangles that pass (searched on a fine grid)."""
    p = DiceParams()
    for P in (48, 64):
        best = 0.0
        for a in np.linspace(p.side[0] * P, p.side[1] * P, 3001):
            for b in np.linspace(a, p.max_extent * P, 400):
                if _passes(((0, 0), (a, b), 0), p, P):
                    best = max(best, float(np.hypot(a, b)))
        assert best <= F._widest(p, P) + 1e-9 and best > F._widest(p, P) - 0.1


@pytest.mark.parametrize("seed", [2, 3])
def test_the_finder_with_the_box_tests_is_the_one_without(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A whole view's search makes the same close looks and finds the same dice with the box tests as
    with every grown face's outline looked at."""
    views = dice_views(seed)
    fast = search(views)
    monkeypatch.setattr(F, "_too_wide", lambda box, widest: False)
    monkeypatch.setattr(F, "_too_thin", lambda box, least: False)
    assert search(views) == fast
    assert sum(len(looks) for _dice, looks in fast) > 150


def test_the_reach_bound_holds_every_seeds_reach() -> None:
    """:func:`vision.dice_face._reach_bound` (every piece's box, out to the edge where a step would reach it)
    holds :func:`vision.dice_face._reach` of any seed: turning a seed away by it never turns away one whose
    reach would pass, on random pieces (specks, blobs, pieces near the window's edge)."""
    rng = np.random.default_rng(7)
    side = 59
    checked = 0
    for _ in range(600):
        pieces = np.zeros((side, side), np.uint8)
        for _k in range(int(rng.integers(1, 8))):
            x, y = rng.integers(0, side, 2)
            w, h = rng.integers(1, 12, 2)
            pieces[y:y + h, x:x + w] = 1
        ys, xs = np.nonzero(pieces)
        for rx, ry in ((7, 7), (3, 5), (11, 11)):
            most = F._reach_bound(pieces, rx, ry)
            for j in rng.integers(0, len(xs), 3):
                reach = F._reach(pieces.copy(), (int(xs[j]), int(ys[j])), rx, ry)
                assert most[0] <= reach[0] and most[1] <= reach[1] and reach[2] <= most[2] and reach[3] <= most[3]
                checked += 1
    assert checked > 1000


def test_the_seed_regions_are_those_filled_on_the_window() -> None:
    """:func:`vision.dice_face._seed_regions`: per likeness whose region stays inside the window, the pixels
    that near (1) with the seed's region (2) and its box, as thresholding the distances and filling the
    seed's region on them gives; none for a likeness whose region runs out (nor any looser one)."""
    p = DiceParams()
    fixed = F._fixed(p, 64)
    rng = np.random.default_rng(3)
    side, inside = 59, 0
    for _ in range(400):
        # a patch near its colour about the seed (its edge as rough as the blur leaves it), the rest further
        dist = rng.integers(0, 70, (side, side)).astype(np.uint8)
        seed = (int(rng.integers(5, side - 5)), int(rng.integers(5, side - 5)))
        x0, y0 = seed[0] - int(rng.integers(0, 15)), seed[1] - int(rng.integers(0, 15))
        dist[max(y0, 0): seed[1] + int(rng.integers(1, 15)), max(x0, 0): seed[0] + int(rng.integers(1, 15))] //= 6
        dist = cv2.GaussianBlur(dist, (0, 0), float(rng.uniform(0.3, 1.5)))
        at_seed = int(dist[seed[1], seed[0]])
        got = F._seed_regions(dist, seed, fixed.tight_first, at_seed, 255)
        out = False
        for like_at, below in fixed.tight_first:
            if at_seed >= like_at:
                assert like_at not in got
                continue
            like = cv2.threshold(dist, below, 1, cv2.THRESH_BINARY_INV)[1]
            _n, _i, _m, (bx, by, bw, bh) = cv2.floodFill(like, None, seed, 2, 0, 0, 4)
            out = out or bx == 0 or by == 0 or bx + bw >= side or by + bh >= side
            if out:
                assert like_at not in got
                continue
            assert np.array_equal(got[like_at][0], like) and got[like_at][1] == (bx, by, bw, bh)
            inside += 1
    assert inside > 150
