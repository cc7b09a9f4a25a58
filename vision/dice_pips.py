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
    spanning at most ``widest`` pw on either axis, in the groups' order; ``pairs``: the spots' pairs
    below ``link`` apart (:func:`close_pairs`), when already found."""
    return list(map(tuple, group_centres(spots, link, widest, pairs).tolist()))


def group_centres(spots: np.ndarray, link: float, widest: float,
                  pairs: "tuple[np.ndarray, np.ndarray] | None" = None, ones: bool = True) -> np.ndarray:
    """:func:`small_groups` as an array (n, 2) (``ones`` False: without the groups of one spot).  Most
    spots are in no pair: each is a group of its own, its centre itself; the few groups of several are
    worked out in plain floats (the same sums, in the same order, as numpy's mean of their rows)."""
    n = len(spots)
    i, j = close_pairs(spots, link, strict=True) if pairs is None else pairs
    if not len(i):
        return np.array(spots if ones else spots[:0], np.float64).reshape(-1, 2)
    label = group_labels(n, i, j)
    paired = np.zeros(n, bool)
    paired[i] = True
    paired[j] = True
    at = np.flatnonzero(paired)
    size = np.bincount(label[at], minlength=n)[label[at]]   # each paired spot's group's size
    keep = ~paired if ones else np.zeros(n, bool)   # the groups of one, and each group kept in its first spot's place
    centres = np.array(spots, np.float64)
    # groups of two (most): their centres at once, the two spots summed in order and halved
    two = at[size == 2]
    firsts, seconds = two[label[two] == two], two[label[two] != two]
    seconds = seconds[np.argsort(label[seconds])]
    a, b = centres[firsts], centres[seconds]
    ok = np.maximum(np.abs(a[:, 0] - b[:, 0]), np.abs(a[:, 1] - b[:, 1])) <= widest   # (max - min of two: |a - b|)
    centres[firsts[ok]] = (a[ok] + b[ok]) / 2
    keep[firsts[ok]] = True
    # groups of three to six: in plain floats
    more = at[(size > 2) & (size <= 6)]
    members: dict[int, list[tuple[float, float]]] = {}   # per group (its first spot), its spots in order
    for k, xy in zip(label[more].tolist(), spots[more].tolist()):
        members.setdefault(k, []).append(xy)
    for first, group in members.items():
        xs, ys = [x for x, _ in group], [y for _, y in group]
        if max(max(xs) - min(xs), max(ys) - min(ys)) > widest:
            continue
        tx, ty = xs[0], ys[0]
        for x, y in zip(xs[1:], ys[1:]):
            tx += x
            ty += y
        centres[first] = (tx / len(group), ty / len(group))
        keep[first] = True
    return centres[keep]


def apart(points: "list[tuple[float, float]] | np.ndarray", d: float) -> list[tuple[float, float]]:
    """``points`` (or an array of them, (n, 2)) in order, less any within ``d`` pw of an earlier one kept."""
    if not len(points):
        return []
    a = np.asarray(points, np.float64)
    i, j = close_pairs(a, d, strict=False)
    out: list[tuple[float, float]] = list(map(tuple, a.tolist())) if isinstance(points, np.ndarray) else list(points)
    if not len(i):
        return out
    later: dict[int, list[int]] = {}
    for p_, q_ in zip(i.tolist(), j.tolist()):
        later.setdefault(p_, []).append(q_)
    # only a point with a later one near can drop any: those in order (a point is dropped by earlier ones
    # alone, so whether each drops its later ones is settled by the time it comes)
    taken: set[int] = set()
    for k in sorted(later):
        if k not in taken:
            taken.update(later[k])
    return [q for k, q in enumerate(out) if k not in taken]
