"""The faster paths of session h33 give what the plain ones gave, bit for bit: the totals' max-product
pass by shifts (:func:`vision.totals._viterbi`) against the whole-matrix pass it replaced, a point's
row worked on lists (:func:`vision.totals._point_row`) against the arrays' way, the tall-stack fit
(:func:`vision.stacks.tall_fit`) against its plain loop, and :func:`vision.rims.peaks_rows` against
:func:`vision.stacks._peaks` row by row; random inputs with many ties."""
from __future__ import annotations

import numpy as np

from referee.events import PointReading
from vision import layout as L
from vision import totals as T
from vision.params import DEFAULT
from vision.rims import peaks_rows
from vision.stacks import TALL_PATTERNS, _peaks, tall_fit

N = T.N


def _whole_matrix_viterbi(shifts: tuple[np.ndarray, np.ndarray, np.ndarray], end: np.ndarray) -> list[tuple[int, int]]:
    """The max-product pass as it was: every (i, k) of both shift matrices, the first argmax over k."""
    t0s, sds, sls = shifts
    with np.errstate(divide="ignore"):
        best = np.log(np.eye(N, 1).reshape(N, 1) * np.eye(1, N))
        log_end = np.log(end)
        l0s = np.log(t0s)
        lds = np.log(np.stack((sds, sls), axis=1))[:, :, :, None, :]
    back = []
    for l0, ld in zip(l0s, lds):
        turned = np.stack((best.T, best))[:, None]
        both = ld + turned
        k = both.argmax(axis=3)
        v = np.take_along_axis(both, k[..., None], axis=3)[..., 0]
        stay = best + l0
        dark = v[0] > stay
        best = np.where(dark, v[0], stay)
        light = v[1].T > best
        best = np.where(light, v[1].T, best)
        back.append((dark, light, k))
    a, b = (int(x) for x in np.unravel_index(int(np.argmax(best + log_end)), best.shape))
    out = []
    for dark, light, k in reversed(back):
        c = 2 if light[a, b] else int(dark[a, b])
        step = (0, 0) if c == 0 else ((a - int(k[0, a, b]), 0) if c == 1 else (0, b - int(k[1, b, a])))
        out.append(step)
        a, b = a - step[0], b - step[1]
    return out[::-1]


def test_the_max_product_pass_by_shifts_chooses_as_the_whole_matrix_pass() -> None:
    rng = np.random.default_rng(33)
    for trial in range(300):
        rows = []
        for i in range(26):
            t = np.zeros((N, N))
            for _ in range(int(rng.integers(1, 6))):
                d, lt = (int(rng.integers(0, N)), 0) if rng.random() < 0.5 else (0, int(rng.integers(0, N)))
                t[d, lt] += float(rng.choice([0.25, 0.5, 1.0])) if trial % 2 else float(rng.random())   # ties
            if trial % 3 == 0 and i % 2:
                t[0, 0] = 0.0
                if t.sum() == 0:
                    t[1, 0] = 1.0
            rows.append(T._as_row(t))
        end = np.ones((N, N)) if trial % 4 == 1 else rng.random((N, N))
        if trial % 4 == 0:
            end = np.zeros((N, N))
            end[int(rng.integers(0, N)), int(rng.integers(0, N))] = 1.0
        shifts = T._shift_mats(np.array(rows))
        assert T._viterbi(shifts, end) == _whole_matrix_viterbi(shifts, end)


def _arrays_point_row(count: int, colour: "str | None", confidence: float, empty: float) -> np.ndarray:
    """A point's row as it was made: on arrays."""
    w = T._likelihoods(PointReading(count, colour, confidence))
    which, rows, cols, prior = T._CELLS_IN_TABLE
    wt = w[which] * prior
    wt[rows == cols] *= empty
    t = np.zeros((N, N))
    t[rows, cols] = wt
    return np.concatenate(([t[0, 0]], t[1:, 0], t[0, 1:])) / t.sum()


def test_a_points_row_on_lists_is_the_row_on_arrays() -> None:
    rng = np.random.default_rng(34)
    for _ in range(2000):
        c = int(rng.integers(0, L.MAX_STACK + 1))
        colour = None if c == 0 else ("dark" if rng.random() < 0.5 else "light")
        conf = float(rng.choice([round(float(rng.random()), 3), float(rng.random()), 0.0, 1.0]))
        empty = float(rng.choice([1.0, T.EMPTY_PRIOR]))
        got, want = T._point_row.__wrapped__(c, colour, conf, empty), _arrays_point_row(c, colour, conf, empty)
        assert got.dtype == want.dtype and np.array_equal(got, want)


def _plain_tall_fit(full: np.ndarray, dist: np.ndarray, thr: float, fill: float, cd: float) -> tuple:
    """:func:`tall_fit` as a plain loop (a mask per half, a product per pattern)."""
    p = DEFAULT
    a = np.empty(9)
    for h in range(1, 10):
        m = np.abs(dist - h * cd / 2) <= 0.13 * cd / L.CHECKER
        a[h - 1] = float(full[m].max()) / thr if m.any() else 0.0
    level = min(p.tall_level, p.tall_rel * float(np.sort(a)[-3]))
    agree = np.clip((a - level) / p.tall_soft, -1.0, 1.0)
    z = (0.875 - (a[0] + a[8]) / max(1e-6, a[2] + a[4] + a[6]) * 1.5) + 0.08 * fill
    scores = {}
    for n, pat in TALL_PATTERNS.items():
        sc = float((np.array([1.0 if ch == "H" else -1.0 for ch in pat]) * agree).sum())
        if n in (5, 12):
            sc -= max(0.0, (-1 if n == 12 else 1) * float(np.clip(p.tall_twelve * z, -4.0, 4.0)))
        scores[n] = sc
    order = sorted(scores, key=scores.get, reverse=True)  # type: ignore[arg-type]
    return order[0], scores[order[0]] - scores[order[1]], order[1], scores[order[0]]


def test_the_tall_fit_is_the_plain_loops() -> None:
    rng = np.random.default_rng(35)
    base = np.arange(0.0, 4.5, 1 / 16, dtype=np.float32)
    for k in range(2000):
        dist = base - np.float32(rng.choice([0.0, 0.2, 0.35])) if k % 3 else base
        full = (rng.random(len(dist)) * 3).astype(np.float32)
        if k % 4 == 0:
            full = np.round(full * 2) / 2   # ties
        thr, fill, cd = float(rng.random() + 0.2), float(rng.random() * 2 - 1), float(rng.choice([0.8, 0.9, 0.95]))
        assert tall_fit(full, dist, thr, fill, cd, DEFAULT) == _plain_tall_fit(full, dist, thr, fill, cd)


def test_peaks_of_all_rows_are_each_rows_peaks() -> None:
    rng = np.random.default_rng(36)
    for k in range(1000):
        rows, n = int(rng.integers(1, 30)), int(rng.integers(3, 80))
        p = (rng.integers(0, 6, (rows, n)) / 4 if k % 3 == 0 else rng.random((rows, n))).astype(np.float32)
        thr, nms, lead = float(rng.random() * 0.5), int(rng.integers(0, 8)), bool(k % 2)
        assert peaks_rows(p, thr, nms, lead) == [_peaks(p[i], thr, nms, lead) for i in range(rows)]
