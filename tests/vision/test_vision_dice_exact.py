"""The dice finder's speed paths against the plain ways they stand for: the same values on random input."""
from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from vision.dice_face import _median, _median_colour, _middle, _places, _rims, _unit, read_face
from vision.dice_params import ON, ON_VALUES, DiceParams


def _read_face_plain(face: np.ndarray, p: DiceParams = DiceParams()) -> tuple[Optional[int], float]:
    """:func:`read_face` as it was written before its histogram: sorts and partitions of the floats."""
    n = face.shape[0]
    _rim, band, _inside = _rims(n)
    colour = _median(face[band].reshape(-1, 3)).astype(np.uint8)
    d3 = cv2.absdiff(face, (int(colour[0]), int(colour[1]), int(colour[2]), 0))
    dist = d3.max(axis=2).astype(np.float32)
    e = max(1, n // 12)
    dist[:e] = 0
    dist[n - e:] = 0
    dist[:, :e] = 0
    dist[:, n - e:] = 0
    k98 = dist.size * 49 // 50
    contrast = float(np.partition(dist.ravel(), k98)[k98])
    if contrast < 35.0:
        return None, 0.0
    d = np.minimum(dist, contrast) / contrast
    odd = float((dist[band] > p.rim_levels).mean())
    ii = cv2.integral(d)
    corners, w = _places(n, tuple(p.offsets), tuple(p.spreads), p.pip_radius)
    a, b, c, e_ = (ii.take(k) for k in corners)
    box = (a - b - c + e_) / float((2 * w + 1) ** 2)
    on_min = np.where(ON[None], box[:, None, :], np.inf).min(axis=2)
    off_max = np.where(~ON[None], box[:, None, :], -np.inf).max(axis=2)
    margin = (on_min - off_max).max(axis=0)
    scores: dict[int, float] = {}
    for v, m_ in zip(ON_VALUES, margin):
        scores[int(v)] = max(scores.get(int(v), -1.0), float(m_))
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (value, best), (_, second) = ranked[0], ranked[1]
    light = d[d < 0.5]
    plain = 1.0 - float(_middle(light)) * 2 if light.size else 0.0
    ink = float((d > 0.5).mean())
    plain *= _unit(1.0 - (ink - (p.ink[0] + p.ink[1] * value)) / 0.05)
    conf = _unit(best / p.margin) * _unit((best - second) / 0.3) * _unit((contrast - 30) / 50) \
        * _unit((plain - 0.3) / 0.25)
    conf *= _unit((p.rim_odd - odd) / 0.1)
    return value, round(min(conf, 1.0), 3)


def _faces(rng: np.random.Generator, n: int = 40) -> list[np.ndarray]:
    """Random faces cut out square: noise, a plain face with dark or light pips (each layout), flat ones."""
    out = [rng.integers(0, 256, (n, n, 3), dtype=np.uint8), np.full((n, n, 3), 200, np.uint8)]
    h = (n - 1) / 2
    for value in range(1, 7):
        for dark in (True, False):
            base = rng.integers(0, 256, 3)
            face = np.clip(base + rng.normal(0, rng.choice([1, 6, 20]), (n, n, 3)), 0, 255).astype(np.uint8)
            pip = (20, 20, 20) if dark else (240, 240, 240)
            for gx, gy in [(0, 0), (-1, -1), (1, 1), (1, -1), (-1, 1), (-1, 0), (1, 0)][:value]:
                cv2.circle(face, (int(h + gx * 0.54 * h), int(h + gy * 0.54 * h)), int(0.17 * h),
                           tuple(int(c) for c in pip), -1)
            out.append(cv2.GaussianBlur(face, (0, 0), float(rng.uniform(0.3, 1.5))))
    return out


def test_read_face_is_its_plain_way_on_random_faces() -> None:
    """Its histogram's percentiles, median and shares give the sorts' and partitions' values exactly."""
    rng = np.random.default_rng(27)
    faces = [f for _ in range(12) for f in _faces(rng)]
    faces += [rng.integers(0, 256, (n, n, 3), dtype=np.uint8) for n in (12, 25, 33, 41) for _ in range(5)]
    faces += [f for n in (24, 37) for f in _faces(rng, n)]
    sure = 0
    for face in faces:
        got = read_face(face)
        assert got == _read_face_plain(face)
        sure += got[1] >= 0.7
    assert sure > 10   # pips read, not only unreadable faces compared


def test_median_colour_is_numpys_median_made_whole() -> None:
    """Each channel's median (the middle one, or the two middle ones' mean rounded down) of uint8 rows."""
    rng = np.random.default_rng(3)
    for m in (1, 2, 3, 8, 81, 120, 457):
        for _ in range(20):
            a = rng.integers(0, 256, (m, 3), dtype=np.uint8)
            if rng.random() < 0.3:
                a[:] = rng.integers(0, 4, (m, 3), dtype=np.uint8) + 100
            want = tuple(int(v) for v in np.median(a, axis=0))
            assert _median_colour(a) == want

