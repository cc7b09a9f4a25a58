"""The dice carry's work again in a view's changed places reaches just far enough: the coarse maps
(vision.dice_candidates.coarse_reach, coarse_maps_again) worked out again about random boxes on views of
noise (where any pixel read from too far off would show) are the whole view's, at several scales."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.dice_candidates import coarse_maps, coarse_maps_again  # noqa: E402
from vision.dice_params import DiceParams  # noqa: E402
from vision.rectify import View  # noqa: E402


def test_coarse_maps_again_on_noise_are_the_whole_views() -> None:
    rng = np.random.default_rng(21)
    for detect, px in ((32, 64), (16, 32), (24, 48), (32, 48)):
        p = DiceParams(detect_px=detect)
        for _ in range(6):
            H, W = (int(v) for v in rng.integers(5 * px, 9 * px, 2))
            a = View(rng.integers(0, 256, (H, W, 3), dtype=np.uint8), px, 0.6)
            img = a.image.copy()
            boxes = []
            for _k in range(int(rng.integers(1, 4))):
                x0, y0 = int(rng.integers(0, W - 8)), int(rng.integers(0, H - 8))
                x1, y1 = min(W, x0 + int(rng.integers(4, px))), min(H, y0 + int(rng.integers(4, px)))
                img[y0:y1, x0:x1] = rng.integers(0, 256, (y1 - y0, x1 - x0, 3), dtype=np.uint8)
                boxes.append((x0, y0, x1, y1))
            b = View(img, px, 0.6)
            again = coarse_maps_again(tuple(m.copy() for m in coarse_maps(a, p)), b, p, boxes)  # type: ignore[arg-type]
            for kept, made in zip(again, coarse_maps(b, p)):
                assert np.array_equal(kept, made), (detect, px, boxes)


def test_the_carrys_spots_found_again_about_random_boxes_are_the_whole_views() -> None:
    """:meth:`vision.dice_carry.DiceCarry._spots` on views strewn with pip-like dots, changed in random coarse
    boxes (near each other, touching, at the edges): the whole view's pip-like spots (hundreds a view)."""
    import cv2

    from vision.dice_candidates import spot_pixels
    from vision.dice_carry import DiceCarry

    rng = np.random.default_rng(22)
    p = DiceParams()

    def dots(h: int, w: int) -> np.ndarray:
        """A plain ground strewn with small discs of any colour, blurred a little: pip-like spots, dark and light."""
        img = np.full((h, w, 3), int(rng.integers(60, 200)), np.uint8)
        for _k in range(h * w // 120):
            colour = tuple(int(v) for v in rng.integers(0, 256, 3))
            cv2.circle(img, (int(rng.integers(0, w)), int(rng.integers(0, h))), int(rng.integers(2, 5)), colour, -1)
        return cv2.GaussianBlur(img, (0, 0), 1.0)

    for _ in range(40):
        ch, cw = (int(v) for v in rng.integers(30, 70, 2))
        H, W = ch * 4 + int(rng.integers(0, 4)), cw * 4 + int(rng.integers(0, 4))
        a = View(dots(H, W), 64, 0.6)
        boxes = []
        img = a.image.copy()
        fresh = dots(H, W)
        for _k in range(int(rng.integers(1, 5))):
            x0, y0 = int(rng.integers(0, cw - 2)), int(rng.integers(0, ch - 2))
            x1, y1 = min(cw, x0 + int(rng.integers(1, 12))), min(ch, y0 + int(rng.integers(1, 12)))
            boxes.append((x0, y0, x1, y1))
            c1, r1 = (W if x1 >= cw else x1 * 4), (H if y1 >= ch else y1 * 4)
            img[y0 * 4:r1, x0 * 4:c1] = fresh[y0 * 4:r1, x0 * 4:c1]
        carry = DiceCarry(p)
        carry.spots = spot_pixels(a, p)
        b = View(img, 64, 0.6)
        coarse = View(np.zeros((ch, cw, 3), np.uint8), 16, 0.6)
        got = carry._spots(b, coarse, boxes)
        assert got is not None and len(got[0][0]) + len(got[1][0]) > 20
        for (gx, gy), (wx, wy) in zip(got, spot_pixels(b, p)):
            assert np.array_equal(gx, wx) and np.array_equal(gy, wy), boxes


def test_ring_peaks_worked_out_again_in_parts_are_the_whole_maps() -> None:
    """:func:`vision.dice_candidates.ring_peaks_again` on random measures changed in random parts (at the
    edges too): the whole measure's peaks."""
    import cv2

    from vision.dice_candidates import ring_peaks, ring_peaks_again

    rng = np.random.default_rng(23)
    p = DiceParams()
    for _ in range(60):
        H, W = (int(v) for v in rng.integers(20, 120, 2))
        m = cv2.blur(rng.integers(0, 120, (H, W)).astype(np.uint8), (5, 5)) * 2
        peaks = ring_peaks(m, p)
        m2 = m.copy()
        parts = []
        for _k in range(int(rng.integers(1, 4))):
            u0, v0 = int(rng.integers(0, W - 1)), int(rng.integers(0, H - 1))
            u1, v1 = min(W, u0 + int(rng.integers(1, 30))), min(H, v0 + int(rng.integers(1, 30)))
            m2[v0:v1, u0:u1] = cv2.blur(rng.integers(0, 120, (v1 - v0, u1 - u0)).astype(np.uint8), (3, 3)) * 2
            parts.append((u0, v0, u1, v1))
        assert np.array_equal(ring_peaks_again(peaks, m2, p, parts), ring_peaks(m2, p)), parts
