"""Stage 2's second looks at the points: judged against the board itself.

* A lone faint rim at a point's base against the empty points' bases of its colour
  (:func:`drop_empty_bases`): an empty triangle's wide base scores a faint ring too.
* A light checker washed out by glare shows only its outline, counted when the outline is
  closed all round a bright face (:func:`outlined_checkers`, :func:`outline_score`).
* A point read empty whose profile shows a whole rim as strong as a checker's, or a checker's
  far rim at its base, or a closed ring beside its base (:func:`doubt_off_axis`), is not surely
  empty (:func:`doubt_empty_rims`): a stack leaning off its point, a hand, a checker in shadow, a
  checker pushed aside.
* A stack's last checker whose rim is open on its far side is not surely a checker
  (:func:`doubt_open_rims`): letters of a logo printed along the points' bases.

Each takes the per-point counts and returns new ones (the input is left as it was).
"""
from __future__ import annotations

import functools
from dataclasses import replace

import cv2
import numpy as np

from . import layout as L
from .order import _percentile
from .params import DEFAULT, ReadParams
from .rims import N_RING, Profiles, axes
from .stacks import Checker, PointCount, _peaks


def drop_empty_bases(prof: Profiles, per_axis: dict[str, PointCount],
                     params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """A lone checker found only by the faint pass must stand out from the empty points'
    bases: an empty triangle's wide base and the board edge behind it score a faint
    ring of about a checker's size too.  The reference is the base score of the board's
    empty points of the same colour (points alternate colours); a lone faint rim less than
    ``params.base_ratio`` times their typical one is the point itself: read empty (unsure when
    near the ratio).  Returns the counts, a new dict (``per_axis`` unchanged)."""
    ax = axes(params)
    lone = [k for k, a in enumerate(ax) if per_axis[a.name].faint and per_axis[a.name].count == 1]
    if not lone or prof.colour is None:
        return per_axis
    out = dict(per_axis)
    zone = (prof.dist >= params.base_zone[0]) & (prof.dist <= params.base_zone[1])
    base = prof.full[:, zone].max(axis=1)
    col = prof.colour[:, int(np.argmin(np.abs(prof.dist - params.base_mid)))].astype(np.float32)
    empty = [k for k, a in enumerate(ax) if per_axis[a.name].count == 0]
    for k in lone:
        refs = [base[m] for m in empty if float(np.linalg.norm(col[m] - col[k])) < params.base_colour]
        if not refs:
            continue
        ratio = float(base[k]) / max(1e-6, float(np.median(refs)))  # median: an "empty" one may hold a missed checker
        if ratio < params.base_ratio:
            out[ax[k].name] = PointCount(0, (), max(0.0, min(1.0, 0.2 * (params.base_ratio - ratio))))
    return out


def outline_score(prof: Profiles, x: float, y: float, params: ReadParams = DEFAULT) -> tuple[float, float, float]:
    """A washed-out checker's look at (x, y) (pw): a bright face closed by a darker outline.

    Returns, each as the 10th percentile over the ring's angles (smoothed over three
    neighbours): the rim score on a ring of a checker's radius (in strengths), the face's
    grey inside it (0.2 and 0.32 pw out, the darker), and how much darker than the face the
    outline is (the darkest of 0.38..0.52 pw out).  A checker's outline is a closed circle
    around a uniform face; its look-alikes (the board's edge, a triangle's sides and tip)
    cover only parts of the ring, or leave board showing inside it."""
    assert prof.grad is not None and prof.image is not None
    g, img = prof.grad, prof.image
    h, w = g.shape
    th = np.linspace(0, 2 * np.pi, N_RING, endpoint=False)
    c, s = np.cos(th), np.sin(th)
    rot = np.exp(-1j * th)
    cx, cy = (x + prof.margin) * prof.px, (y + prof.margin) * prof.px

    k = params.checker / L.CHECKER   # the radii below are for the layout's checkers
    radii = np.array([r * k * prof.px
                      for r in params.ring_radii + params.outline_face_radii + params.outline_line_radii])[:, None]
    xi = np.clip(np.rint(cx + radii * c).astype(np.int32), 0, w - 1)   # every ring at once: (radius, angle)
    yi = np.clip(np.rint(cy + radii * s).astype(np.int32), 0, h - 1)
    nr, nf = len(params.ring_radii), len(params.outline_face_radii)

    def q10(v: np.ndarray) -> list[float]:   # per row (np.quantile's values, from one partition each)
        sm = (np.roll(v, 1, axis=-1) + v + np.roll(v, -1, axis=-1)) / 3
        return [_percentile(row, 10) for row in sm.reshape(-1, sm.shape[-1])]

    z = g[yi[:nr], xi[:nr]] * rot
    best = (np.abs(z.real) - 0.5 * np.abs(z.imag)).max(axis=0)
    grey = img[yi[nr:], xi[nr:]].astype(np.float32).mean(axis=-1)
    face = np.minimum(grey[0], grey[1])
    line = grey[nf:].min(axis=0)
    qf, ql = q10(np.stack([face, face - line]))
    return q10(best)[0] / prof.strength, qf, ql


def outlined_checkers(prof: Profiles, per_axis: dict[str, PointCount],
                      params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """Light checkers washed out by glare (clipped to white, like the point under them) show
    only their outline, too faint for the rim threshold.  The rims beyond each stack read
    are looked at again, from the base outwards, slot by slot: one whose centre is clipped
    and whose outline is closed all round a bright face (:func:`outline_score`) is a checker.  A near miss
    leaves the point unsure.  Points whose next slot is not washed out are passed by at once.
    Returns the counts, a new dict (``per_axis`` unchanged)."""
    if prof.grad is None or prof.colour is None:
        return per_axis
    out = dict(per_axis)
    cd = params.checker
    nms = max(1, int(round(params.nms / params.step)))
    slots = np.abs(prof.dist[None, :] - cd * (np.arange(L.PYRAMID[0]) + 0.5)[:, None]).argmin(axis=1)
    clipped = prof.colour[:, slots].min(axis=2) >= params.clipped - 10  # (axes, slots): a washed-out centre there
    for k, a in enumerate(axes(params)):
        pc = per_axis[a.name]
        if pc.count >= L.PYRAMID[0] or not clipped[k, pc.count]:
            continue  # (checked again at the rim's own centre below)
        full = prof.full[k]
        peaks = _peaks(full, params.outline_find, nms, lead=True)
        added: list[Checker] = []
        conf = pc.confidence
        n = pc.count
        while n < L.PYRAMID[0]:
            slot = cd * (n + 0.5)
            near = [j for j in peaks if abs(float(prof.dist[j]) - slot) <= params.slot_tolerance * cd / 2]
            if not near:
                break
            j = max(near, key=lambda i: float(full[i]))
            if int(prof.colour[k][j].min()) < params.clipped:
                break  # its face is not washed out: the rim threshold has judged it
            if n and int(prof.colour[k][int(np.argmin(np.abs(prof.dist - (slot - cd))))].min()) < params.clipped:
                break  # one point's checkers are one colour: a stack not washed out ends here
            x = a.x + float(prof.lateral[k][j])
            y = a.y0 + a.direction * float(prof.dist[j])
            o, face, line = outline_score(prof, x, y, params)
            if face < params.outline_face:
                break  # board shows inside the ring: not a washed-out checker's face
            m = min(o / params.outline, line / params.outline_line)
            if m < 1.0:
                if m > 0.5:  # a near miss: the point is unsure
                    conf = min(conf, params.point_knee * (1 - m) * 2)
                break
            added.append(Checker(a.name, x, y, float(full[j])))
            conf = min(conf, max(params.point_knee / 2, min(1.0, m - 1.0)))
            n += 1
        if added:
            samples = tuple(added) + tuple(pc.samples)
            out[a.name] = PointCount(n, samples, conf, pc.alt, pc.faint)
        elif conf < pc.confidence:
            out[a.name] = replace(pc, confidence=conf)
    return out


def doubt_empty_rims(prof: Profiles, per_axis: dict[str, PointCount],
                     params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """A point read empty is only as sure as its strongest whole rim lies below the board's
    threshold (the margin a stack's own rims are judged by): a rim as strong as a checker's that
    no stack explains is a checker the count missed more often than not (rendered real tables: a
    sure empty point with a whole rim at the threshold or above was wrong 28 times in 34, with
    none above 0.8 of it 5 times in 2,225; the real boards: all 6 empty points with one above 0.9
    of it held checkers).  Nor is one whose first slot shows a checker's far and side rim (its
    cap) above the threshold: a lone checker whose base side the count did not see (rendered real
    tables, seeds never used for the measure: such sure empty points were wrong 11 times in 15,
    with the cap below the threshold 0 times in about 1,000).  Returns the counts, a new dict
    (``per_axis`` unchanged)."""
    thr = params.threshold
    raw = np.maximum(0.0, 2 * (thr - prof.full.max(axis=1).astype(np.float64)) / thr)
    first = prof.dist <= params.checker
    if first.any():
        cap = prof.cap[:, first].max(axis=1).astype(np.float64)
        raw = np.where(cap >= thr, np.minimum(raw, params.point_knee * thr / np.maximum(cap, 1e-9) / 2), raw)
    out = dict(per_axis)
    for a, r in zip(axes(params), raw.tolist()):
        pc = per_axis[a.name]
        if pc.count == 0 and r < pc.confidence:
            out[a.name] = replace(pc, confidence=r)
    return doubt_off_axis(prof, out, params)


OFF_AXIS = (0.2, 0.3)      # pw beside a point's axis where a checker pushed aside is looked for ...
OFF_SLOT = (0.4, 0.5, 0.6)  # ... at these shares of a checker from the point's base
OFF_RIM = 0.5     # thresholds: the base slot's whole rim at the edge of the count's sideways search to look from
OFF_RING = 0.2    # strengths: a ring closed all round this strongly (its 10th percentile) there is a checker's


def doubt_off_axis(prof: Profiles, per_axis: dict[str, PointCount],
                   params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """A point read surely empty with a ring closed all round (:func:`closed_rims` at
    :data:`OFF_RING`) beside its axis at its base slot (:data:`OFF_AXIS`, :data:`OFF_SLOT`) is
    not surely empty: a checker pushed off its point's middle, further than the count looks
    (``params.lateral``).  Looked for only on the side where the base slot's strongest whole rim
    lies at the edge of that search, half the threshold strong (:data:`OFF_RIM`; a bare base's
    rims are fainter or centred).  A point's bare base shows no closed ring there (the real sets'
    sure empty points, every side: at most 0.10; greyfelt's lone checker 0.3 pw aside: 0.45).
    Returns the counts, a new dict (``per_axis`` unchanged)."""
    if prof.grad is None:
        return per_axis
    knee = params.point_knee
    first = prof.dist <= params.checker
    if not first.any():
        return per_axis
    edge = max(abs(v) for v in params.lateral) - 1e-6
    cd = params.checker
    rows = np.arange(len(prof.full))
    k = np.argmax(np.where(first, prof.full, -np.inf), axis=1)      # each base slot's strongest whole rim
    rims = (prof.full[rows, k] >= OFF_RIM * params.threshold).tolist()
    sides = prof.lateral[rows, k].tolist()
    look, xy = [], []
    for a, rim, side in zip(axes(params), rims, sides):
        if not rim or abs(side) < edge or per_axis[a.name].count or per_axis[a.name].confidence < knee:
            continue
        look.append(a)
        xy += [(a.x + np.sign(side) * dx, a.y0 + a.direction * dy * cd) for dx in OFF_AXIS for dy in OFF_SLOT]
    if not look:
        return per_axis
    ring = closed_rims(prof, np.array(xy), params).reshape(len(look), -1).max(axis=1)
    out = dict(per_axis)
    for a, r in zip(look, ring.tolist()):
        if r >= OFF_RING:
            out[a.name] = replace(per_axis[a.name], confidence=knee * min(0.9, OFF_RING / r) / 2)
    return out


def _ring_scores(prof: Profiles, xy: np.ndarray, params: ReadParams) -> np.ndarray:
    """The rim score at each ring angle round each (x, y) row of ``xy`` (pw): the best of
    ``params.ring_radii``, as :func:`outline_score` has it; (point, angle)."""
    assert prof.grad is not None
    g = prof.grad
    h, w = g.shape
    cos, sin, rot, _ = _ring()
    cx, cy = ((xy + prof.margin) * prof.px).T
    k = params.checker / L.CHECKER
    radii = np.array([r * k * prof.px for r in params.ring_radii])[:, None]
    xi = np.clip(np.rint(cx[:, None, None] + radii * cos).astype(np.int32), 0, w - 1)   # (point, radius, angle)
    yi = np.clip(np.rint(cy[:, None, None] + radii * sin).astype(np.int32), 0, h - 1)
    z = g.ravel()[yi * w + xi] * rot
    return (np.abs(z.real) - 0.5 * np.abs(z.imag)).max(axis=1)


def _tenth(sm: np.ndarray, strength: float) -> np.ndarray:
    """Each row's 10th percentile (as np.percentile has it), in strengths."""
    n = sm.shape[1]
    vi = (n - 1) * 0.1
    lo = int(np.floor(vi))
    frac = vi - lo
    part = np.partition(sm, (lo, min(lo + 1, n - 1)), axis=1)
    a, b = part[:, lo], part[:, min(lo + 1, n - 1)]
    q = b - (b - a) * (1 - frac) if frac >= 0.5 else a + (b - a) * frac
    return q / strength


def closed_rims(prof: Profiles, xy: np.ndarray, params: ReadParams = DEFAULT) -> np.ndarray:
    """How closed a checker's rim at each (x, y) row of ``xy`` (pw) is all round: the 10th
    percentile over the ring's angles of the rim score (the best of ``params.ring_radii``,
    smoothed over three neighbours), in strengths, as :func:`outline_score`'s first value."""
    best = _ring_scores(prof, xy, params)
    return _tenth((np.roll(best, 1, axis=1) + best + np.roll(best, -1, axis=1)) / 3, prof.strength)


OPEN = 0.13       # strengths: a last checker's far rim this faint (its 10th percentile) is open
FAR_ARC = 75.0    # degrees either side of the way away from the base: the far rim
UNEVEN = 0.2      # a face with this share of its pixels ...
APART = 40.0      # ... this far (Lab) from its median colour is not one checker's face


def far_rim(prof: Profiles, x: float, y: float, direction: int, params: ReadParams = DEFAULT) -> float:
    """How closed the rim of a checker at (x, y) (pw) is on its far side, away from its point's
    base (``direction`` +1: down the view): the 10th percentile, over the ring's angles within
    :data:`FAR_ARC` of that way, of the rim score (the best of ``params.ring_radii``, smoothed
    over three neighbours, as :func:`outline_score` has it), in strengths.  A stack's last
    checker has nothing on that side: its own rim shows all along it."""
    return float(far_rims(prof, np.array([[x, y]]), np.array([direction]), params)[0])


def far_rims(prof: Profiles, xy: np.ndarray, direction: np.ndarray, params: ReadParams) -> np.ndarray:
    """:func:`far_rim` of each (x, y) row of ``xy`` at once."""
    best = _ring_scores(prof, xy, params)
    arc = _ring()[3][(np.asarray(direction) < 0).astype(int)]          # (point, 3 neighbours, angle in arc)
    got = np.take_along_axis(best, arc.reshape(len(arc), -1), axis=1).reshape(arc.shape)
    return _tenth((got[:, 0] + got[:, 1] + got[:, 2]) / 3, prof.strength)   # smoothed as outline_score


@functools.lru_cache(maxsize=1)
def _ring() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ring's angles' cosines, sines and rotations (:data:`vision.rims.N_RING` of them), and
    per way off the base (down, up) the indices of the far arc's angles (:data:`FAR_ARC`) with
    their two neighbours: ``(way, 3, angle in arc)``, the angle before, itself, the angle after."""
    th = np.linspace(0, 2 * np.pi, N_RING, endpoint=False)
    arcs = []
    for away in (np.pi / 2, -np.pi / 2):
        idx = np.flatnonzero(np.abs(np.angle(np.exp(1j * (th - away)))) <= np.radians(FAR_ARC))
        arcs.append(np.stack([(idx - 1) % N_RING, idx, (idx + 1) % N_RING]))
    return np.cos(th), np.sin(th), np.exp(-1j * th), np.stack(arcs)


@functools.lru_cache(maxsize=1)
def _disc() -> tuple[np.ndarray, np.ndarray]:
    """Offsets of a unit disc's samples (a 21 x 21 grid's, 317 of them)."""
    ys, xs = np.mgrid[-10:11, -10:11] / 10.0
    inside = xs * xs + ys * ys <= 1
    return xs[inside], ys[inside]


def uneven_face(prof: Profiles, x: float, y: float, params: ReadParams = DEFAULT) -> float:
    """The share of a face's pixels (within 0.33 pw of (x, y)) lying :data:`APART` or more
    (Lab) from the face's median colour: a checker's face is one colour (its pattern's veins
    and rings are thin or faint), letters over a point show two."""
    return float(_uneven_faces(prof, np.array([[x, y]]), params)[0])


def _uneven_faces(prof: Profiles, xy: np.ndarray, params: ReadParams) -> np.ndarray:
    """:func:`uneven_face` of each (x, y) row of ``xy`` at once."""
    assert prof.image is not None
    img = prof.image
    h, w = img.shape[:2]
    dx, dy = _disc()
    r = 0.33 * params.checker / L.CHECKER * prof.px
    cx, cy = ((xy + prof.margin) * prof.px).T
    xi = np.clip(np.rint(cx[:, None] + r * dx).astype(np.int32), 0, w - 1)     # (point, sample)
    yi = np.clip(np.rint(cy[:, None] + r * dy).astype(np.int32), 0, h - 1)
    lab = cv2.cvtColor(np.ascontiguousarray(img[yi, xi]), cv2.COLOR_BGR2Lab).astype(np.float32)
    apart = np.linalg.norm(lab - np.median(lab, axis=1, keepdims=True), axis=2) > APART
    return apart.mean(axis=1)


def _from_base(samples: tuple[Checker, ...], base: float) -> list[Checker]:
    """A stack's checkers from its point's base (at ``base``, pw) outwards."""
    return sorted(samples, key=lambda c: abs(c.y - base))


def doubt_open_rims(prof: Profiles, per_axis: dict[str, PointCount],
                    params: ReadParams = DEFAULT) -> dict[str, PointCount]:
    """A stack of one row (1..5) whose first checker's face shows two colours
    (:func:`uneven_face` over :data:`UNEVEN`) and whose last checker's rim is open on its far
    side (:func:`far_rim` under :data:`OPEN`) is unsure: a checker is one colour inside a rim
    closed all round, and past a stack's last checker lies only the point; the letters of a logo
    printed along the points' bases make rims as strong as a checker's within the letters'
    height and none beyond it, around the point's colour and the letters'.  The count is kept
    (the referee asks rather than errs).  Returns the counts, a new dict (``per_axis`` unchanged)."""
    if prof.grad is None or prof.image is None:
        return per_axis
    knee = params.point_knee
    stacks = [a for a in axes(params) if 0 < per_axis[a.name].count <= L.PYRAMID[0]
              and per_axis[a.name].confidence >= knee and per_axis[a.name].samples]
    if not stacks:
        return per_axis
    ends = [_from_base(per_axis[a.name].samples, a.y0) for a in stacks]
    rims = far_rims(prof, np.array([[e[-1].x, e[-1].y] for e in ends]), np.array([a.direction for a in stacks]),
                     params)
    which = np.flatnonzero(rims < OPEN)     # (the rims first: most stacks' are closed, and cheaper to see)
    if not len(which):
        return per_axis
    uneven = _uneven_faces(prof, np.array([[ends[i][0].x, ends[i][0].y] for i in which]), params) > UNEVEN
    out = dict(per_axis)
    for i in which[uneven].tolist():
        pc = per_axis[stacks[i].name]
        out[stacks[i].name] = replace(pc, confidence=knee * max(0.0, min(0.9, float(rims[i]) / OPEN)))
    return out
