"""What the dice's child process (:mod:`vision.dice_ahead`) spends, cut with the same dice: no module imported on
its first lines (the ways around them give the same values as the ways they replace), and a face's growing
(:func:`vision.dice_face._blob`) turning seeds away sooner, against its way before, kept here."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Optional

import cv2
import numpy as np

from vision import dice_blur
from vision import dice_face as F
from vision.dice_carry import sorted_unique
from vision.dice_params import DiceParams
from vision.rectify import View

ROOT = Path(__file__).resolve().parents[2]


def test_sorted_unique_is_numpys_unique() -> None:
    """The same values, sorted, of the same type, on keys with and without repeats (and none, and one)."""
    rng = np.random.default_rng(41)
    cases = [np.zeros(0, np.int64), np.array([7], np.int64), np.array([3, 3, 3], np.int64)]
    cases += [rng.integers(0, hi, n).astype(np.int64) for hi in (2, 50, 10**9) for n in (2, 17, 400, 5000)]
    for a in cases:
        got, want = sorted_unique(a.copy()), np.unique(a)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def _kernel_before(sigma: float) -> Optional[np.ndarray]:
    """:func:`vision.dice_blur._kernel` as it was, its check images drawn by ``numpy.random``."""
    n = int(round(sigma * 3 * 2 + 1)) | 1
    if n < 3 or n > 99:
        return None
    line = np.zeros((2 * n + 1, 2 * n + 1), np.uint8)
    line[:, n] = 255
    taps = cv2.GaussianBlur(line, (0, 0), sigma)[n, n - n // 2: n + n // 2 + 1].astype(np.int64)
    if len(taps) != n or int(taps.sum()) != 256 or int(taps.max()) > 128:
        return None
    k = (taps / 256.0).astype(np.float32).reshape(-1, 1)
    rng = np.random.default_rng(19)
    for h, w in ((1, 1), (2, 7), (5, 3), (n // 2, n + 3), (n + 1, n // 2 + 1), (37, 61), (108, 108), (130, 211)):
        for img in (rng.integers(0, 256, (h, w), dtype=np.uint8), np.full((h, w), 255, np.uint8),
                    (rng.integers(0, 2, (h, w), dtype=np.uint8) * 255).astype(np.uint8)):
            if not np.array_equal(dice_blur._fast(img, k), cv2.GaussianBlur(img, (0, 0), sigma)):
                return None
    return k


def test_blur_kernel_is_the_same_as_with_numpys_random_images() -> None:
    """Its check images made without numpy.random: the same kernel (or none) at every sigma, the search's too."""
    sigmas = [0.03 * 32, 0.09 * 32] + [float(s) for s in np.arange(0.2, 9.0, 0.37)]
    for sigma in sigmas:
        got, want = dice_blur._kernel(sigma), _kernel_before(sigma)
        assert (got is None) == (want is None), sigma
        assert got is None or np.array_equal(got, want)
    assert all(dice_blur._kernel(s) is not None for s in sigmas[:2])   # the search's blurs take the fast way
    noise = dice_blur._scrambled(65536, 3)
    assert np.bincount(noise, minlength=256).min() > 150   # every level drawn, about evenly


def test_the_dice_search_imports_nothing_on_its_lines() -> None:
    """A fresh process (as the child is) finding the dice on a camera's lines imports no module doing so,
    from its first line on:
    ``numpy.ma`` (``np.unique``) and ``numpy.random`` each cost the child some 8 ms on its first lines."""
    code = textwrap.dedent("""
        import sys
        import cv2
        import numpy as np
        from vision.dice_carry import DiceCarry
        frame = np.full((720, 1280, 3), 90, np.uint8)
        cv2.rectangle(frame, (300, 150), (980, 600), (40, 120, 200), -1)
        corners = np.array([[300, 150], [980, 150], [980, 600], [300, 600]], np.float64)
        carry = DiceCarry()
        before = set(sys.modules)
        carry.find(frame, corners)
        for k in range(3):
            f = frame.copy()
            cv2.rectangle(f, (420 + 60 * k, 300), (450 + 60 * k, 330), (250, 250, 250), -1)
            cv2.circle(f, (700, 250 + 40 * k), 20, (10, 10, 10), -1)
            carry.find(f, corners)
        print(" ".join(sorted(set(sys.modules) - before)))
    """)
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert got.stdout.split() == []


# --------------------------------------------------------------------------- a face's growing


def _blob_before(crop: np.ndarray, r: int, seed: tuple[int, int], P: int, p: DiceParams,
          known: "tuple[tuple[int, int, int], int] | None" = None,
          dists: "tuple[np.ndarray, int] | None" = None) -> "tuple[tuple, float, float] | str | None":
    """:func:`vision.dice_face._blob` as it was: the pieces running out of the window cleared before any box
    of them is asked (every helper the module's own)."""
    sx, sy = seed
    if known is None:
        c0 = max(2, int(round(0.06 * P)))
        colour = F._median_colour(crop[sy - c0: sy + c0 + 1, sx - c0: sx + c0 + 1].reshape(-1, 3))
        # the seed's own distance from that colour (the channel that differs most), worked out alone: a
        # seed unlike it at every likeness is a pip's, and the window's distances are never needed
        at_seed = max(abs(int(v) - c) for v, c in zip(crop[sy, sx].tolist(), colour))
    else:
        colour, at_seed = known
    fixed = F._fixed(p, P)
    if p.likeness and at_seed >= fixed.loosest:
        return "pip"
    if dists is None:
        dist, runs_out = F._dist_runs(crop, colour, seed)
    else:
        dist, runs_out = dists
    se, band_out, band_in, far_out = fixed.elements
    side = 2 * r + 1
    lo, hi = p.side
    widest = fixed.widest
    got: "tuple[tuple, float, float] | str | None" = None
    regions = F._seed_regions(dist, (sx, sy), fixed.tight_first, at_seed, runs_out)
    for like_at in p.likeness:
        if at_seed >= like_at:  # the seed is not of the colour around it (a pip, a texture)
            if got is None:
                got = "pip"
            continue
        if like_at not in regions:   # its region runs out of the window: no die
            continue
        like, (bx, by, bw, bh) = regions[like_at]
        if F._too_wide((bx, by, bx + bw, by + bh), widest):   # the face holds the seed's region: no die's either
            continue
        # the pieces running out of the window are no part of a face: cleared first (one fill from a
        # frame of 1s round the window reaches all of them, the seed's region, 2s, apart), so the pieces
        # left are labelled without their boxes
        framed = cv2.copyMakeBorder(like, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
        cv2.floodFill(framed, None, (0, 0), 0, 0, 0, 4)
        ry, rx = se.shape[0] // 2, se.shape[1] // 2
        # too small for a die whatever the growing below takes in (most seeds: a rim, a line, a speck);
        # the reach holds the seed's own region, so a region big enough alone needs no reach worked out;
        # a reach too thin for a die's face holds no face that is not (a line, a point's edge)
        if F._too_small((bx, by, bx + bw, by + bh), lo * P):
            # (the box every piece left could reach first: most often the seed's region is alone in the
            # window, and that box, no smaller than the reach, already turns it away)
            pieces = framed[1:-1, 1:-1]
            most = F._reach_bound(pieces, rx, ry)
            if F._too_small(most, lo * P) or F._too_thin(most, lo * P):
                continue
            reach = F._reach(pieces, (sx, sy), rx, ry)
            if F._too_small(reach, lo * P) or F._too_thin(reach, lo * P):
                continue
        inner = framed[1:-1, 1:-1]   # 2: the seed's region, 1: the other pieces, 0: neither
        # the face: the seed's region of its colour and the pieces of that colour a pip's width from it
        # (rows of pips cut a face into bands); none may run out of the window
        # (twice: the pieces reached, then those they reach; the second time only the new pieces'
        # reach is worked out, as the rest's is already known)
        box: Sequence[int] = (bx, by, bw, bh)
        ux0, uy0, ux1, uy1 = bx, by, bx + bw, by + bh  # the face's box so far (the union of the pieces')
        # where the dilation can reach (as _dilated works it out): no piece there but the face's own
        # and the background, nothing to add (the dilation, the costliest step, not needed); the
        # seed's region alone (no other piece near): no pieces labelled
        at = (max(by - ry, 0), min(by + bh + ry, side), max(bx - rx, 0), min(bx + bw + rx, side))
        lab = None
        if cv2.countNonZero(cv2.compare(inner[at[0]:at[1], at[2]:at[3]], 1, cv2.CMP_EQ)):  # type: ignore[call-overload]
            n, lab = cv2.connectedComponents(inner, connectivity=4)
            seed_label = int(lab[sy, sx])
            new = (lab == seed_label).view(np.uint8)
            keep = np.zeros(n, np.uint8)
            keep[seed_label] = 1
            for it in range(2):
                if it:
                    x, y, w, h = box
                    at = (max(y - ry, 0), min(y + h + ry, side), max(x - rx, 0), min(x + w + rx, side))
                    had = keep.copy()
                    had[0] = 1   # (for this test only: the background is nothing to add)
                    if had.take(lab[at[0]:at[1], at[2]:at[3]]).all():  # type: ignore[arg-type]
                        break
                    had[0] = 0
                else:
                    had = keep.copy()
                (y0, y1, x0, x1), grown = F._dilated(new, se, box, at)
                keep[lab[y0:y1, x0:x1][grown > 0]] = 1  # the pieces the dilated face reaches ...
                keep[0] = 0                              # ... less the background (and what ran out)
                added = keep & ~had
                if not added.any():
                    break
                new = added.take(lab)  # type: ignore[arg-type]
                box = cv2.boundingRect(new)
                ux0, uy0 = min(ux0, box[0]), min(uy0, box[1])
                ux1, uy1 = max(ux1, box[0] + box[2]), max(uy1, box[1] + box[3])
                if F._too_wide((ux0, uy0, ux1, uy1), widest):
                    break   # already wider than any die's face: what more it grows cannot make it one
        # no die's face whatever its outline (a face's rectangle is told from its box, below: no outline needed)
        if F._too_small((ux0, uy0, ux1, uy1), lo * P) or F._too_wide((ux0, uy0, ux1, uy1), widest) or \
                F._too_thin((ux0, uy0, ux1, uy1), lo * P):
            continue
        # the face's outline looked for in its box (a pixel wider: none of it reaches the window's
        # edge): the same contours, in the same order, as in the whole window, on a smaller picture
        ux0, uy0, ux1, uy1 = max(ux0 - 1, 0), max(uy0 - 1, 0), min(ux1 + 1, side), min(uy1 + 1, side)
        face = (cv2.compare(inner[uy0:uy1, ux0:ux1], 2, cv2.CMP_EQ) if lab is None  # type: ignore[call-overload]
                else keep.take(lab[uy0:uy1, ux0:ux1]))  # type: ignore[arg-type]
        cnts, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(ux0, uy0))
        hull = cv2.convexHull(cnts[0] if len(cnts) == 1 else np.vstack(cnts))
        rect = cv2.minAreaRect(hull)
        (rx, ry), (rw, rh), ang = rect
        if not (lo * P <= min(rw, rh) and max(rw, rh) <= p.max_extent * P and max(rw, rh) <= p.aspect * min(rw, rh)):
            continue
        area = float(cv2.contourArea(hull))
        if area < p.fill * rw * rh or np.sqrt(rw * rh) > hi * P:
            continue
        solid = np.zeros((side, side), np.uint8)
        cv2.fillConvexPoly(solid, hull, 1)
        # the bands around the face, worked out only where they can be: the face's box and the widest reach
        box = cv2.boundingRect(hull)
        fy, fx = far_out.shape[0] // 2, far_out.shape[1] // 2
        at = (max(box[1] - fy, 0), min(box[1] + box[3] + fy, side),
              max(box[0] - fx, 0), min(box[0] + box[2] + fx, side))
        y0, y1, x0, x1 = at
        around = dist[y0:y1, x0:x1]
        near = F._dilated(solid, band_out, box, at)[1] > 0
        band = near & (F._dilated(solid, band_in, box, at)[1] == 0)
        if not band.any():
            continue
        ring = around[band]
        q = len(ring) * 3 // 10
        contrast = float(np.partition(ring, q)[q])  # its 30th percentile: a die stands out nearly all round
        if contrast < p.contrast:
            continue
        # a little further out it must still differ (an emblem's square on a checker is ringed by a
        # thin line, then the checker's colour again; that band dilated only now, in the same window)
        outer = F._dilated(solid, far_out, box, at)[1]
        far = (outer > 0) & ~near
        if far.any():
            ring = around[far]
            q = len(ring) * 3 // 10
            if float(np.partition(ring, q)[q]) < p.far_contrast:
                continue
        return rect, contrast, area / max(rw * rh, 1e-6)
    return got


def _views(n: int) -> "list[View]":
    """Rendered frames of a real table with two dice thrown each, rectified as the search sees them."""
    from vision import layout as L
    from vision import render as R
    from vision.rectify import rectify
    from vision.render_dice import random_dice
    rng = np.random.default_rng(23)
    out = []
    for s in range(n):
        sc = R.render_scene(L.random_position(rng), R.RenderParams.real_table(dice_prob=0.0), seed=300 + s,
                            dice=random_dice(rng, [], L.BoardShape()))
        out.append(rectify(sc.image, sc.corners, 64, 0.6, L.BoardShape(), own=True))
    return out


def test_a_faces_growing_is_as_it_was() -> None:
    """:func:`vision.dice_face._blob`, the boxes of the pieces asked before the clearing of those running out
    of the window, gives what it gave (the same rectangle, contrast and fill, or "pip", or None) from every
    seed of the search's candidates on rendered views with dice, and of random places on them."""
    from vision.dice_candidates import pip_candidates, ring_candidates
    p = DiceParams()
    rng = np.random.default_rng(5)
    got: dict[str, int] = {}
    for view in _views(4):
        H, W = view.image.shape[:2]
        places = ring_candidates(view, p) + pip_candidates(view, p)
        places += [(view.x0 + float(rng.uniform(0, W)) / view.px, view.y0 + float(rng.uniform(0, H)) / view.px)
                   for _ in range(60)]
        for cx, cy in places:
            win = F._window(view, cx, cy, p)
            if win is None:
                continue
            u, v, r = win
            crop = view.image[v - r: v + r + 1, u - r: u + r + 1]
            for dx, dy in F._seed_offsets(view.px):
                now = F._blob(crop, r, (r + dx, r + dy), view.px, p)
                assert now == _blob_before(crop, r, (r + dx, r + dy), view.px, p)
                kind = "none" if now is None else now if isinstance(now, str) else "face"
                got[kind] = got.get(kind, 0) + 1
    assert got.get("face", 0) >= 8 and got.get("none", 0) > 200 and got.get("pip", 0) > 50, got


def test_the_pieces_box_holds_the_box_of_those_left() -> None:
    """:func:`vision.dice_face._reach_bound` of a window's pieces holds that of the pieces left once those
    running out of the window are cleared (what lets :func:`vision.dice_face._blob` turn a seed away first):
    random pieces, a seed's region (2) among them."""
    rng = np.random.default_rng(11)
    for _ in range(400):
        side = int(rng.integers(9, 60))
        like = (rng.random((side, side)) < rng.uniform(0.02, 0.5)).astype(np.uint8)
        like = cv2.dilate(like, np.ones((int(rng.integers(1, 4)),) * 2, np.uint8))
        like[side // 2, side // 2] = 2
        framed = cv2.copyMakeBorder(like, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=1)
        cv2.floodFill(framed, None, (0, 0), 0, 0, 0, 4)
        rx, ry = (int(v) for v in rng.integers(1, 9, 2))
        a0, b0, a1, b1 = F._reach_bound(framed[1:-1, 1:-1], rx, ry)
        c0, d0, c1, d1 = F._reach_bound(like, rx, ry)
        assert c0 <= a0 and d0 <= b0 and a1 <= c1 and b1 <= d1
