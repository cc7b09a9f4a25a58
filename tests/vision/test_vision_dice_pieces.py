"""vision.dice_carry.grown_pieces: the pieces of a union of rectangles, as an image's labelling boxes them."""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.dice_carry import grown_pieces  # noqa: E402


def test_the_boxes_of_the_unions_pieces_as_connected_components_give_them() -> None:
    """Random rectangles (touching at edges and corners, chains, nested, at the image's edges): the same
    boxes as the union drawn on an image and labelled 8-connected."""
    rng = np.random.default_rng(11)
    for _ in range(3000):
        H, W = (int(v) for v in rng.integers(4, 40, 2))
        n = int(rng.integers(1, 7))
        rects = []
        for _k in range(n):
            x0, y0 = int(rng.integers(0, W)), int(rng.integers(0, H))
            rects.append((x0, y0, int(rng.integers(x0 + 1, W + 1)), int(rng.integers(y0 + 1, H + 1))))
        img = np.zeros((H, W), np.uint8)
        for x0, y0, x1, y1 in rects:
            img[y0:y1, x0:x1] = 1
        _n, _lab, stats, _c = cv2.connectedComponentsWithStats(img, connectivity=8)
        want = sorted((int(x), int(y), int(x + w), int(y + h)) for x, y, w, h, _a in stats[1:])
        assert sorted(grown_pieces(rects)) == want, rects
        assert sorted(grown_pieces(np.asarray(rects, np.int64))) == want


def test_a_corners_touch_joins_and_a_gap_parts() -> None:
    """Rectangles meeting only at a corner's pixels are one piece; one pixel apart, two."""
    assert grown_pieces([(0, 0, 2, 2), (2, 2, 4, 4)]) == [(0, 0, 4, 4)]
    assert sorted(grown_pieces([(0, 0, 2, 2), (3, 0, 5, 2)])) == [(0, 0, 2, 2), (3, 0, 5, 2)]
    # an L of two joined, a third beside the L's empty corner but touching neither: apart
    # (the box of the L holds the third: not the union itself)
    assert sorted(grown_pieces([(0, 0, 2, 6), (0, 4, 6, 6), (3, 0, 6, 3)])) == [(0, 0, 6, 6), (3, 0, 6, 3)]
