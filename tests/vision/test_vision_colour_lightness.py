"""Vision: two checker colours of one hue told apart by lightness alone (vision.colours.split_by_lightness):
grey and cream mother-of-pearl, which the weighted Lab split takes for one colour."""
from __future__ import annotations

import json
import os

import cv2
import numpy as np

from vision import layout as L
from vision.colours import fallback_model, learn_colours, split_by_lightness
from vision.config import VisionConfig
from vision.reader import BoardReader

REAL = os.path.join(os.path.dirname(__file__), "..", "data", "vision_real")

# the points' mean Lab lightness as measured on the real board ``template3`` (grey and cream pearl, hue
# a 128-134, b 128-140 for both): (point, lightness of each of its checkers)
PEARL = [(0, [225.1, 226.1, 229.1, 237.3, 235.2]), (3, [179.9, 182.9, 187.9]), (6, [180.0, 184.9, 184.9, 199.8, 164.9]),
         (11, [222.0, 223.0, 223.0]), (12, [182.8, 178.0, 173.9, 172.9, 190.2]), (14, [228.8, 232.9]),
         (18, [230.4, 234.4, 226.0, 223.1, 230.9]), (23, [176.1, 171.4])]


def _samples(points: list[tuple[int, list[float]]], hue: tuple[float, float] = (130.0, 133.0)
             ) -> tuple[np.ndarray, list[int]]:
    rows, ids = [], []
    for p, ls in points:
        for v in ls:
            rows.append((v, *hue))
            ids.append(p)
    return np.array(rows, np.float32), ids


def test_pearl_sets_are_one_colour_to_the_weighted_split_but_two_by_lightness() -> None:
    samples, points = _samples(PEARL)
    assert learn_colours(samples) is None                 # 24 apart when lightness is weighed half: "one colour"
    model = split_by_lightness(samples, points)
    assert model is not None
    labels, margin = model.classify(samples)
    truth = [int(v > 210) for _, ls in PEARL for v in ls]
    assert list(labels) == truth
    assert margin.min() > 0.1 and float(np.median(margin)) > 0.5
    # what the reader did before: every checker one colour
    assert len(set(fallback_model().classify(samples)[0])) == 1


def test_fifteen_checkers_or_fewer_may_be_one_colour() -> None:
    """A game's end leaves one colour on the board; its lit and shaded points split as clearly (a
    rendered board: black checkers at 33 and, under glare, 67-77)."""
    glare = [(6, [33.1]), (7, [33.1]), (8, [33.1]), (17, [34.0]), (4, [36.2]), (1, [66.6]), (2, [76.6])]
    samples, points = _samples(glare)
    assert split_by_lightness(samples, points) is None
    samples, points = _samples(PEARL[:4])                 # 16 checkers: two colours for certain
    assert len(samples) == 16 and split_by_lightness(samples, points) is not None
    samples, points = _samples(PEARL[:3] + [(11, [222.0, 223.0])])   # 15
    assert split_by_lightness(samples, points) is None


def test_light_spread_evenly_over_points_is_not_two_colours() -> None:
    """More than 15 checkers whose points' lightness runs evenly from dim to bright: no gap, one colour
    (the totals then say more than 15, and the reading doubts it) rather than a split by the light."""
    even = [(p, [150.0 + 4 * p] * 2) for p in range(12)]
    samples, points = _samples(even)
    assert split_by_lightness(samples, points) is None
    # the same gap as the pearl's, but the groups spread as wide as the gap: not clear
    wide = [(0, [150.0] * 3), (1, [175.0] * 3), (2, [200.0] * 3), (3, [235.0] * 3), (4, [260.0] * 3), (5, [230.0] * 3)]
    samples, points = _samples(wide)
    assert split_by_lightness(samples, points) is None


def test_a_group_needs_two_points() -> None:
    one = [(0, [120.0] * 5)] + [(p, [220.0 + p] * 3) for p in range(1, 6)]
    samples, points = _samples(one)
    assert split_by_lightness(samples, points) is None


def test_the_real_pearl_board_is_read_right() -> None:
    """``template3`` (a held-out tuned board): the cream 5-stack was read grey and two grey stacks cream."""
    with open(os.path.join(REAL, "labels.json")) as f:
        lab = json.load(f)["images"]["template3"]
    img = cv2.imread(os.path.join(REAL, "images", lab["image"]))
    assert img is not None
    cfg = VisionConfig(markers=False, corners=L.format_corners(lab["corners"]),
                       bar_width=lab["bar_width"], board_height=lab["board_height"])
    r = BoardReader(cfg, corners=L.parse_corners(cfg.corners or "")).inspect(img, read_occluded=True)
    assert r.rows is not None
    for row in ("top", "bottom"):
        read = [(p.count, p.colour) for p in getattr(r.rows, row)]
        assert read == [(n, c) for n, c in lab[row]], row
