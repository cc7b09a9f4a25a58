"""Tall stacks (10..15 on a point, stacked as a pyramid) and per-frame variation of the renderer."""
from __future__ import annotations

import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision.read import read_view
from vision.rectify import rectify
from vision.render import RenderParams, render, render_scene, stack_offsets


def test_stack_slots_form_a_pyramid_of_fifteen() -> None:
    full = L.stack_slots(15)
    assert [sum(1 for _, layer in full if layer == k) for k in range(5)] == [5, 4, 3, 2, 1]
    for n in range(16):
        slots = L.stack_slots(n)
        assert len(slots) == n == len(stack_offsets(n))
        for h, layer in slots:  # every checker above the first layer rests on two below it
            assert layer == 0 or {(h - 1, layer - 1), (h + 1, layer - 1)} <= set(slots)
    assert L.visible_rims(15) == {5} and L.visible_rims(9) == {2, 4, 6, 8}
    with pytest.raises(ValueError, match="16"):
        L.stack_slots(16)


def _tall_board(seed: int) -> BoardEvidence:
    """Two tall stacks (10..15) and a few small ones, 15 checkers a side at most."""
    rng = np.random.default_rng(seed)
    pts = [PointReading(0)] * 24
    a, b = rng.choice(24, 2, replace=False)
    na, nb = 10 + seed % 6, 10 + (seed * 7 + 3) % 6
    pts[a] = PointReading(int(na), "dark")
    pts[b] = PointReading(int(nb), "light")
    free = [i for i in range(24) if i not in (a, b)]
    for i, colour, n in ((free[seed % len(free)], "dark", 15 - na), (free[(seed * 5 + 2) % len(free)], "light", 15 - nb)):
        if n:
            pts[i] = PointReading(int(min(n, 3)), colour)
    return BoardEvidence(points=tuple(pts), bar=(0, 0), off=(0, 0))


@pytest.mark.parametrize("seed", range(12))
def test_tall_stacks_are_counted_or_flagged(seed: int) -> None:
    pos = _tall_board(seed)
    r = render_scene(pos, seed=300 + seed)
    a, _ = read_view(rectify(r.image, r.corners))
    ev = r.setup.to_evidence(a.rows)
    for got, want in zip(ev.points, pos.points):
        if want.count >= 10:  # exact, or unsure and said so
            assert got.count == want.count or got.confidence < 0.6, (got, want)


def test_most_tall_stacks_are_exact() -> None:
    right = total = 0
    for seed in range(24):
        pos = _tall_board(seed)
        r = render_scene(pos, seed=400 + seed)
        a, _ = read_view(rectify(r.image, r.corners))
        ev = r.setup.to_evidence(a.rows)
        for got, want in zip(ev.points, pos.points):
            if want.count >= 10:
                total += 1
                right += got.count == want.count and got.colour == want.colour
    assert right >= 0.9 * total


def test_frames_differ_in_noise_only() -> None:
    pos = L.start_position()
    p = RenderParams(noise_max=6.0)
    seed = 5
    f0 = render(pos, p, seed=seed).astype(np.int16)
    assert np.array_equal(f0, render(pos, p, seed=seed, frame=0))  # the old frame, unchanged
    f1, f2 = (render(pos, p, seed=seed, frame=k).astype(np.int16) for k in (1, 2))
    assert not np.array_equal(f1, f2)
    assert np.abs(f1 - f2).mean() < 4.0  # same camera, light and board: only noise differs
    s1, s2 = (render_scene(pos, p, seed=seed, frame=k) for k in (1, 2))
    assert np.array_equal(s1.corners, s2.corners)


def test_confidence_calibration_maps_the_knee_to_the_gate() -> None:
    from vision.read import CERTAIN, POINT_KNEE, UNSURE_POINTS, board_confidence, calibrate
    xs = np.linspace(0, 1, 101)
    ys = [calibrate(x) for x in xs]
    assert all(a <= b for a, b in zip(ys, ys[1:])) and ys[0] == 0.0 and ys[-1] == 1.0
    assert calibrate(POINT_KNEE * 0.99) < CERTAIN <= calibrate(POINT_KNEE)
    sure = [0.9] * 24
    assert board_confidence(sure, plausible=False) == 0.0
    assert board_confidence(sure, True) >= CERTAIN
    few = [0.3] * UNSURE_POINTS + [0.9] * (24 - UNSURE_POINTS)
    assert board_confidence(few, True) >= CERTAIN  # a few unsure points: the referee's tolerance
    assert board_confidence(few + [0.3], True) < CERTAIN  # too many: the whole reading is unsure
    assert board_confidence(sure, True, bar=0.4) < CERTAIN  # the bar has no confidence of its own


def test_exact_rendered_readings_are_mostly_sure() -> None:
    sure = total = 0
    for seed in range(8):
        pos = L.random_position(np.random.default_rng(seed), tall=0.5)
        r = render_scene(pos, seed=500 + seed)
        a, _ = read_view(rectify(r.image, r.corners))
        ev = r.setup.to_evidence(a.rows)
        if L.same_board(ev, pos):
            total += 1
            sure += ev.confidence >= 0.6
    assert total >= 6 and sure >= total - 1
