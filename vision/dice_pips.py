"""Pip groups (:func:`vision.dice_candidates.pip_candidates`): pip-like spots linked into groups
no wider than a die, and points kept apart; the pairs of near points found without measuring all
n x n."""
from __future__ import annotations

import numpy as np


def close_pairs(points: np.ndarray, d: float, strict: bool,
                 dist: bool = False) -> "tuple[np.ndarray, ...]":
    """The pairs (i < j) of ``points`` (shape (n, 2), pw) whose distance (:func:`numpy.hypot`) is below
    ``d`` (``strict``) or at most ``d`` (``dist``: their distances too): only the pairs near in x are
    measured (sorted by x, each point against the next ones while they lie within ``d``), not all n x n;
    all of them laid out at once (each point repeated as often as it has points within reach)."""
    n = len(points)
    if n < 2:
        return (np.zeros(0, np.intp), np.zeros(0, np.intp)) + ((np.zeros(0),) if dist else ())
    order = np.argsort(points[:, 0], kind="stable")
    xs = points[order, 0]
    # |dx| <= hypot(dx, dy): a pair further apart in x is further apart (a hair's slack for rounding)
    reach = np.searchsorted(xs, xs + d * (1 + 1e-9) + 1e-12, side="right") - np.arange(n) - 1
    total = int(reach.sum())
    first = np.repeat(np.arange(n), reach)                              # each point, once per point in reach
    step = np.arange(1, total + 1) - np.repeat(np.cumsum(reach) - reach, reach)   # 1, 2, ... its reach
    a, b = order[first], order[first + step]
    i, j = np.minimum(a, b), np.maximum(a, b)
    far = np.hypot(points[i, 0] - points[j, 0], points[i, 1] - points[j, 1])
    near = far < d if strict else far <= d
    return (i[near], j[near]) + ((far[near],) if dist else ())


def group_labels(n: int, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Per point of ``n``, the least index of its group (single linkage over the pairs ``i``-``j``)."""
    label = np.arange(n)
    if len(i) == 0:
        return label
    while True:  # each pass takes the lesser label across every pair, then follows labels to their roots
        low = np.minimum(label[i], label[j])
        new = label.copy()
        np.minimum.at(new, i, low)
        np.minimum.at(new, j, low)
        new = new[new]
        if np.array_equal(new, label):
            return label
        label = new


def pip_groups(spots: np.ndarray, link: float) -> list[np.ndarray]:
    """The spots linked into groups (single linkage at ``link`` pw), in the order of their first spot,
    each group's spots in their order."""
    n = len(spots)
    if n == 0:
        return []
    label = group_labels(n, *close_pairs(spots, link, strict=True))
    order = np.argsort(label, kind="stable")
    cuts = np.nonzero(np.diff(label[order]))[0] + 1
    return [spots[g] for g in np.split(order, cuts)]


def small_groups(spots: np.ndarray, link: float, widest: float,
                  pairs: "tuple[np.ndarray, np.ndarray] | None" = None) -> list[tuple[float, float]]:
    """The centres (their spots' mean) of the groups of :func:`pip_groups` with at most 6 spots and
    spanning at most ``widest`` pw on either axis, in the groups' order (worked out for all groups at once);
    ``pairs``: the spots' pairs below ``link`` apart (:func:`close_pairs`), when already found."""
    n = len(spots)
    label = group_labels(n, *(close_pairs(spots, link, strict=True) if pairs is None else pairs))
    order = np.argsort(label, kind="stable")
    lab = label[order]
    starts = np.r_[0, np.nonzero(np.diff(lab))[0] + 1]
    size = np.diff(np.r_[starts, n])
    s = spots[order]
    span = np.maximum(np.maximum.reduceat(s[:, 0], starts) - np.minimum.reduceat(s[:, 0], starts),
                      np.maximum.reduceat(s[:, 1], starts) - np.minimum.reduceat(s[:, 1], starts))
    span[size == 1] = 0.0
    ok = np.nonzero((size <= 6) & (span <= widest))[0]
    if len(ok) == 0:
        return []
    # each kept group's mean, summed spot by spot in their order as numpy's mean of <= 6 rows does
    total = s[starts[ok]].copy()
    for k in range(1, 6):
        more = size[ok] > k
        total[more] += s[starts[ok][more] + k]
    centre = total / size[ok][:, None]
    return [(float(x), float(y)) for x, y in centre.tolist()]


def apart(points: list[tuple[float, float]], d: float) -> list[tuple[float, float]]:
    """``points`` in order, less any within ``d`` pw of an earlier one kept."""
    if not points:
        return []
    a = np.asarray(points, np.float64)
    i, j = close_pairs(a, d, strict=False)
    later: dict[int, list[int]] = {}
    for p_, q_ in zip(i.tolist(), j.tolist()):
        later.setdefault(p_, []).append(q_)
    # only a point with a later one near can drop any: those in order (a point is dropped by earlier ones
    # alone, so whether each drops its later ones is settled by the time it comes)
    taken: set[int] = set()
    for k in sorted(later):
        if k not in taken:
            taken.update(later[k])
    return [q for k, q in enumerate(points) if k not in taken]
