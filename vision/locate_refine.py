"""The automatic board search's refinement (:mod:`vision.locate`): quads moved until no move
scores better, every round scoring all moves of all quads in one batch (:func:`_refine_many`).

Jumps first (an edge or the whole quad by whole point widths, a short edge by a third or two
thirds of a point, long edges by a share of the height, one or two corners across the rows;
screened with a light model; a quad no jump helps tries a small grid of bar widths and point
lengths, :func:`_shape_jump`), then ever smaller moves of corners, position, scale, rotation,
bar and point length (:data:`UNIT_MOVES`).
"""
from __future__ import annotations

import functools

import numpy as np

from .locate_model import BAR_HALF, BAR_RANGE, LEN_RANGE, POINT_LEN, _Field, scores

def _jump_candidates(quad: np.ndarray, bar_half: float, point_len: float) -> tuple[np.ndarray, np.ndarray]:
    """Quads (and point lengths) one jump away: one short edge by whole point widths (frame,
    surface and bar of one colour hide the short edges), one or both long edges by a share of
    the height, the other row's points kept in place (a row of checkers or the board's outline
    along a long edge looks like one), the whole quad along the rows by whole points, alone or
    with both long edges moved (the shift and the outline at once)."""
    pw = (0.5 - bar_half) / 6
    qs, pls = [], []

    def add(q: np.ndarray, pl: float) -> None:
        qs.append(q)
        pls.append(pl)  # not clipped to LEN_RANGE here: see _jump_maps

    for n_edge, ((k0, k1), (o0, o1), fracs) in enumerate(
            (((0, 3), (1, 2), tuple(f * pw for f in SHORT_JUMPS)), ((1, 2), (0, 3), tuple(f * pw for f in SHORT_JUMPS)),
             ((0, 1), (3, 2), LONG_JUMPS), ((3, 2), (0, 1), LONG_JUMPS))):
        for f in fracs:
            q = quad.copy()
            q[k0] = quad[k0] + f * (quad[o0] - quad[k0])
            q[k1] = quad[k1] + f * (quad[o1] - quad[k1])
            add(q, point_len if n_edge < 2 else point_len / (1 - f))
    along = np.array([quad[1] - quad[0], quad[1] - quad[0], quad[2] - quad[3], quad[2] - quad[3]])
    for j in (0, -2, -1, 1, 2):
        for f in (0.0,) + LONG_JUMPS:
            if j == 0 and f == 0.0:
                continue
            q = quad + j * pw * along
            q[[0, 1]], q[[3, 2]] = q[[0, 1]] + f * (q[[3, 2]] - q[[0, 1]]), q[[3, 2]] + f * (q[[0, 1]] - q[[3, 2]])
            add(q, point_len / (1 - 2 * f))
    # one corner alone, across the rows or along them (a skewed fit: one end of an edge on
    # the frame or a row of checkers, or a point off)
    for k, (across, along_k) in enumerate(((3, 1), (2, 0), (1, 3), (0, 2))):
        for f in CORNER_JUMPS:
            q = quad.copy()
            q[k] = quad[k] + f * (quad[across] - quad[k])
            add(q, point_len)
        for f in (-pw, -pw / 2, pw / 2, pw):
            q = quad.copy()
            q[k] = quad[k] + f * (quad[along_k] - quad[k])
            add(q, point_len)
    # two corners at once across the rows (a tilted or skewed fit: neither corner alone helps)
    across_of = (3, 2, 1, 0)
    for k0 in range(4):
        for k1 in range(k0 + 1, 4):
            for f0 in PAIR_JUMPS:
                for f1 in PAIR_JUMPS:
                    q = quad.copy()
                    q[k0] = quad[k0] + f0 * (quad[across_of[k0]] - quad[k0])
                    q[k1] = quad[k1] + f1 * (quad[across_of[k1]] - quad[k1])
                    add(q, point_len)
    return np.array(qs), np.array(pls)


_ROT = np.array([[0.0, 1.0], [-1.0, 0.0]])


def _unit_moves() -> np.ndarray:
    m = np.zeros((10, 4, 2))
    for k in range(8):
        m[k, k // 2, k % 2] = 1.0
    m[8, :, 0] = 1.0
    m[9, :, 1] = 1.0
    return m


UNIT_MOVES = _unit_moves()


@functools.lru_cache(maxsize=1)
def _jump_maps() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_jump_candidates` as linear maps of the corners: candidates ``(W0 + pw W1) @ quad``
    (C, 4, 4) for a point width ``pw``, with point-length factors (C,)."""
    cols0, cols1 = [], []
    factors = np.ones(1)
    for j in range(4):
        e = np.zeros((4, 2))
        e[j, 0] = 1.0
        bh0, bh1 = 0.5, 0.5 - 6.0     # point widths 0 and 1 (bar_half is only used through pw)
        q0, f0 = _jump_candidates(e, bh0, 1.0)
        q1, _ = _jump_candidates(e, bh1, 1.0)
        cols0.append(q0[:, :, 0])
        cols1.append(q1[:, :, 0] - q0[:, :, 0])
        factors = f0
    return np.stack(cols0, axis=2), np.stack(cols1, axis=2), factors


def _shape_jump(field: _Field, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per quad, the best bar half-width and point length of the grid :data:`SHAPE_BARS` x
    :data:`SHAPE_LENS` with the quad kept (screened with the light model, the three likeliest
    scored in full): (bars, lengths, scores)."""
    bb, ll = (g.ravel() for g in np.meshgrid(SHAPE_BARS, SHAPE_LENS, indexing="ij"))
    m, k, nk = len(quads), len(bb), 3
    light = scores(field, np.repeat(quads, k, axis=0), np.tile(bb, m), np.tile(ll, m), light=True).reshape(m, k)
    few = np.argsort(-light, axis=1)[:, :nk]
    sc = scores(field, np.repeat(quads, nk, axis=0), bb[few].ravel(), ll[few].ravel()).reshape(m, nk)
    best = few[np.arange(m), np.argmax(sc, axis=1)]
    return bb[best].astype(np.float64), ll[best].astype(np.float64), sc.max(axis=1)


def _refine_many(field: _Field, quads: np.ndarray, bar_half: np.ndarray, point_len: np.ndarray,
                 steps: tuple[float, ...] = (0.01, 0.005, 0.0025)
                 ) -> list[tuple[np.ndarray, float, float, float]]:
    """Local search from each of M quads at once: edge jumps (:func:`_jump_candidates`), then
    corner, pose and shape moves of shrinking size; every round scores all moves of all quads
    in one go and each quad takes its best (with its helpful corner moves combined)."""
    Q = np.array(quads, np.float64).reshape(-1, 4, 2).copy()
    M = len(Q)
    bh = np.array(np.broadcast_to(bar_half, (M,)), np.float64)
    pl = np.array(np.broadcast_to(point_len, (M,)), np.float64)
    best = scores(field, Q, bh, pl)
    W0, W1, plf = _jump_maps()
    C = len(plf)
    rows = np.arange(M)
    for n_step, st in enumerate(steps):
        if n_step < 2:
            live = np.ones(M, bool)
            for _ in range(JUMP_ROUNDS):
                idx = rows[live]
                pw = (0.5 - bh[idx]) / 6
                W = W0[None] + pw[:, None, None, None] * W1[None]
                qs = np.einsum("mcij,mjk->mcik", W, Q[idx])
                pls = np.clip(pl[idx, None] * plf[None], *LEN_RANGE)
                # screened with the light model, the few likeliest per quad scored in full
                light = scores(field, qs.reshape(-1, 4, 2), np.repeat(bh[idx], C), pls.ravel(), light=True)
                nk = min(SCREENED, C)
                few = np.argsort(-light.reshape(len(idx), C), axis=1)[:, :nk]
                ar = np.arange(len(idx))[:, None]
                qs, pls = qs[ar, few], pls[ar, few]
                sc = scores(field, qs.reshape(-1, 4, 2), np.repeat(bh[idx], nk), pls.ravel()).reshape(len(idx), nk)
                i = np.argmax(sc, axis=1)
                top = sc[np.arange(len(idx)), i]
                better = top > best[idx]
                up = idx[better]
                Q[up], pl[up], best[up] = qs[better, i[better]], pls[better, i[better]], top[better]
                # quads no jump helped try the bar and point length of a small grid (a start
                # with the wrong bar width stays stuck, every small move of it scoring worse)
                stuck = idx[~better]
                if stuck.size:
                    sb_, sl_, ss_ = _shape_jump(field, Q[stuck])
                    grown = ss_ > best[stuck]
                    up = stuck[grown]
                    bh[up], pl[up], best[up] = sb_[grown], sl_[grown], ss_[grown]
                    live[stuck[~grown]] = False
                if not live.any():
                    break
        size = np.sqrt(np.abs(0.5 * np.sum(Q[:, :, 0] * np.roll(Q[:, :, 1], -1, 1)
                                           - np.roll(Q[:, :, 0], -1, 1) * Q[:, :, 1], axis=1)))
        d = st * size
        live = np.ones(M, bool)
        for _ in range(MOVE_ROUNDS):
            idx = rows[live]
            q = Q[idx]
            c = q.mean(axis=1, keepdims=True)
            s = size[idx, None, None]
            moves = np.concatenate([np.broadcast_to(UNIT_MOVES, (len(idx),) + UNIT_MOVES.shape),
                                    ((q - c) / s)[:, None], (((q - c) @ _ROT) / s)[:, None]], axis=1)  # (m, 12, 4, 2)
            nm = moves.shape[1]
            dd = d[idx, None, None, None]
            qs = np.concatenate([q[:, None] + dd * moves, q[:, None] - dd * moves, np.repeat(q[:, None], 4, axis=1)],
                                axis=1)
            b0, l0 = bh[idx, None], pl[idx, None]
            bs = np.concatenate([np.repeat(b0, 2 * nm, 1), np.clip(b0 + st * 0.4, *BAR_RANGE),
                                 np.clip(b0 - st * 0.4, *BAR_RANGE), b0, b0], axis=1)
            ls = np.concatenate([np.repeat(l0, 2 * nm + 2, 1), np.clip(l0 + st, *LEN_RANGE),
                                 np.clip(l0 - st, *LEN_RANGE)], axis=1)
            K = qs.shape[1]
            sc = scores(field, qs.reshape(-1, 4, 2), bs.ravel(), ls.ravel()).reshape(len(idx), K)
            i = np.argmax(sc, axis=1)
            ar = np.arange(len(idx))
            top = sc[ar, i]
            better = top > best[idx]
            # every corner coordinate that helps on its own, moved together (and the shape)
            cur = best[idx, None]
            plus, minus = sc[:, :8], sc[:, nm:nm + 8]
            sign = np.where(plus > np.maximum(minus, cur), 1.0, np.where(minus > cur, -1.0, 0.0))
            k = 2 * nm
            nb = np.where(sc[:, k] > np.maximum(sc[:, k + 1], cur[:, 0]), bs[:, k],
                          np.where(sc[:, k + 1] > cur[:, 0], bs[:, k + 1], b0[:, 0]))
            nl = np.where(sc[:, k + 2] > np.maximum(sc[:, k + 3], cur[:, 0]), ls[:, k + 2],
                          np.where(sc[:, k + 3] > cur[:, 0], ls[:, k + 3], l0[:, 0]))
            both = q + d[idx, None, None] * np.tensordot(sign, UNIT_MOVES[:8], axes=1)
            sb = scores(field, both, nb, nl)
            use_both = better & (sb > top)
            one = better & ~use_both
            Q[idx[one]], bh[idx[one]], pl[idx[one]], best[idx[one]] = (qs[ar[one], i[one]], bs[ar[one], i[one]],
                                                                       ls[ar[one], i[one]], top[one])
            Q[idx[use_both]], bh[idx[use_both]], pl[idx[use_both]], best[idx[use_both]] = (both[use_both], nb[use_both],
                                                                                           nl[use_both], sb[use_both])
            live[idx[~better]] = False
            if not live.any():
                break
    return [(Q[m], float(bh[m]), float(pl[m]), float(best[m])) for m in range(M)]


def _refine(field: _Field, quad: np.ndarray, bar_half: float, point_len: float,
            steps: tuple[float, ...] = (0.01, 0.005, 0.0025)) -> tuple[np.ndarray, float, float, float]:
    """:func:`_refine_many` for one quad: (quad, bar_half, point_len, score)."""
    return _refine_many(field, quad[None], np.array([bar_half]), np.array([point_len]), steps)[0]


LONG_JUMPS = (-0.1, -0.06, -0.03, 0.03, 0.06, 0.1)
SHAPE_BARS = (0.015, 0.025, BAR_HALF, 0.055)     # bar half-widths of the shape jumps
SHAPE_LENS = (0.30, 0.34, 0.38, POINT_LEN, 0.46)  # point lengths of the shape jumps
# short-edge jumps, point widths: whole points, and a frame's width (a third or two of a point) off
SHORT_JUMPS = (-2.0, -1.0, -2 / 3, -1 / 3, 1 / 3, 2 / 3, 1.0, 2.0)
SCREENED = 8      # jumps per quad and round scored in full after the light screening
JUMP_ROUNDS = 8    # rounds of jumps per refinement step at most
MOVE_ROUNDS = 12   # rounds of small moves per step at most
CORNER_JUMPS = (-0.08, -0.04, -0.02, 0.02, 0.04, 0.08)
PAIR_JUMPS = (-0.08, -0.04, 0.04, 0.08)
