"""Checkers inside a run show fainter rims (vision.stacks): a contact of one colour shows little
edge, and a first checker against the board's frame shows only its far and side rim (its cap).
Such a run is counted, unsure; a lone faint rim still makes no run.  And a point read empty whose
first slot shows a checker's cap above the threshold is not surely empty (vision.looks)."""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import looks as K
from vision.params import DEFAULT
from vision.rims import Axis, Profiles, axes
from vision.stacks import PointCount, count_point

P = replace(DEFAULT, checker=1.0, threshold=0.3)
DIST = np.arange(0.25, 5.0, 1 / 16, dtype=np.float32)
A = Axis("top6", 7.5, 0.0, 1)


def _rims(levels: list[float]) -> np.ndarray:
    """A profile with a rim peak of each level (in thresholds) at slots 0, 1, 2... (0: none)."""
    out = np.full(len(DIST), 0.05 * P.threshold, np.float32)
    for k, s in enumerate(levels):
        if s:
            out = np.maximum(out, s * P.threshold * np.exp(-((DIST - (k + 0.5)) / 0.06) ** 2))
    return out


def _count(full: list[float], cap: list[float]) -> PointCount:
    f, c = _rims(full), _rims(cap)
    return count_point(A, f, np.maximum(f, c), np.zeros_like(f), DIST, P)


def test_a_run_whose_first_checker_shows_only_its_cap_is_counted_unsure() -> None:
    # aludesk's three dark checkers: the first against the dark frame (cap 1.15, no whole rim)
    got = _count([0.0, 1.6, 2.0], [1.15, 1.9, 2.0])
    assert got.count == 3 and got.confidence < P.point_knee
    # a checker inside the run whose whole rim shows at the faint pass's strength (0.8 of the threshold)
    got = _count([1.7, 0.8, 1.4], [1.8, 0.9, 1.5])
    assert got.count == 3 and got.confidence < P.point_knee
    # every rim whole and clear: as before, sure
    got = _count([1.7, 1.6, 1.4], [1.8, 1.7, 1.5])
    assert got.count == 3 and got.confidence >= P.point_knee


def test_the_runs_last_checker_and_a_gap_still_need_their_own_rims() -> None:
    # the last checker's whole rim faint: the run ends before it (its cap alone is no checker)
    assert _count([1.7, 1.6, 0.8], [1.8, 1.7, 1.5]).count == 2
    # nothing at all where the first checker would lie: no run of two (a shadow's edge, a die)
    assert _count([0.0, 1.6], [0.0, 1.7]).count == 0


def test_an_empty_point_whose_first_slot_shows_a_cap_above_the_threshold_is_unsure() -> None:
    names = [a.name for a in axes(P)]
    full = np.tile(_rims([0.6]), (24, 1))
    cap = full.copy()
    cap[names.index("top3")] = _rims([1.4])        # a lone checker's far rim, its base side unseen
    cap[names.index("top4")] = _rims([0.0, 1.4])   # a rim further out: the board's or a die's, not the base's
    prof = Profiles(full, cap, np.zeros_like(full), DIST, np.zeros(1, np.float32), np.zeros(1, np.float32), 1.0)
    per = {n: PointCount(0, (), 0.8) for n in names}
    out = K.doubt_empty_rims(prof, per, P)
    assert out["top3"].count == 0 and out["top3"].confidence < P.point_knee
    assert out["top4"].confidence == out["top0"].confidence > P.point_knee   # the whole rim's 0.6 alone
    assert per["top3"].confidence == 0.8
