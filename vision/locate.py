"""Finding the playing area without markers or configured corners.

The playing area (24 points and the bar, trays and frame left out) is found by fitting
a model of its edges to the image's colour gradients:

* **Model** (:func:`_template`): in unit coordinates ``(u, v)`` (u along the rows of
  points), the two long edges, the two short edges, the bar's two edges at
  ``0.5 +- bar_half`` and the two sides of each of the 24 triangles, ``point_len`` deep.
  The bar's width and the points' length are fitted too (real boards differ), within
  bounds.
* **Score** (:func:`fit_score`, :func:`scores` for many quads at once): for sample points
  along every model line mapped into the image by the quad's homography, the colour
  gradient across the line (Lab, summed over channels; looked up in maps precomputed for
  16 line directions, one direction per line, as a straight line stays straight), divided
  by the image's 90th-percentile gradient; the four groups (long edges, short edges, bar,
  triangle sides) combine as a weighted geometric mean, triangles weighing most, so no
  single strong edge (the board's outline, a row of checkers) wins on its own; the edges
  saturate softly (:data:`EDGE_SAT`: a board's outline against the table can be several
  times stronger than the playing area's edge); phantom triangles on the bar should find
  nothing (a fit shifted by whole points on a board whose bar has the surface's colour
  finds real ones there).  Quads too small, too thin or not convex score 0.
* **Search** (:func:`find_board`): the board's outline (:func:`board_quad`) and the whole
  image are rectified (rows along either side); in each such view an exhaustive search
  over axis-aligned rectangles scores the four edges and a bar at the middle from
  cumulative gradient sums (:func:`_coarse_rects`).  The best few (and the outline itself)
  are refined together (:func:`_refine_many`, every round scoring all moves of all quads in
  one batch): jumps (an edge or the whole quad by whole point widths, a short edge by a
  frame's width of a third or two thirds of a point, long edges by a share of the height,
  one or two corners across the rows; screened with a light model; a quad no jump helps
  tries a small grid of bar widths and point lengths, as real boards' proportions differ
  and a start with the wrong bar stays stuck), then
  ever smaller moves of corners, position, scale, rotation, bar and point length.  After a
  first step only the best distinct fits go on; insets of the best by a frame's width are
  refined too; finally the best fit hops (:func:`_hop`): every combination of moves of its
  four edges is scored and the best few refined, which leaves a fit one point off or on
  the board's outline.
* **Decision** (:func:`auto_corners`): the best fit is a board when its evidence reaches
  :data:`MIN_EVIDENCE`: its triangle sides stand out against the same model half a point
  aside (:func:`triangle_contrast`), and the colours along its rows repeat with the points
  (:func:`periodicity`) more than between the rows' tips, and no bar one point aside shows
  clearer edges between the rows' tips than the fit's own (:func:`bar_edges`: a fit a whole
  point off has triangles and periodicity as good as the true one).  The fit score itself is
  relative (noise scores like a poor board), so it picks the area but does not decide.

Corners come back ordered as seen: top-left, top-right, bottom-right, bottom-left with
the rows of points along the first edge; when the rows run up and down the image, the
first corner is the top-right one (the "top" row is then the right-hand column, read
downwards).  Everything works on a copy at most :data:`WORK` pixels on its longer side.

Modules: the search is here; the refinement (jumps and moves) in :mod:`vision.locate_refine`,
the model and its score in :mod:`vision.locate_model`, the
decision (:class:`Fit`, its evidence) in :mod:`vision.locate_evidence`, the board's outline
and corner ordering in :mod:`vision.locate_outline`; their public names are re-exported here.
"""
from __future__ import annotations

from typing import Iterator, Optional

import cv2
import numpy as np

from .locate_evidence import MIN_EVIDENCE, Fit, bar_edges, corners_as_seen, periodicity, triangle_contrast
from .locate_model import (BAR_HALF, BAR_RANGE, EDGE_SAT, LEN_RANGE, NDIR, POINT_LEN, UNIT, WEIGHTS, _Field,
                           _homographies, _lines, _parts, _parts_many, _plausible_many, fit_score, scores)
from .locate_outline import _quad_from_edges, board_likeness, board_quad, order_corners
from .locate_refine import (CORNER_JUMPS, JUMP_ROUNDS, LONG_JUMPS, MOVE_ROUNDS, PAIR_JUMPS, SCREENED, SHAPE_BARS,
                            SHAPE_LENS, SHORT_JUMPS, UNIT_MOVES, _jump_candidates, _jump_maps, _refine, _refine_many,
                            _shape_jump, _unit_moves)

__all__ = ["MIN_EVIDENCE", "WORK", "Fit", "auto_corners", "bar_edges", "board_likeness", "board_quad",
           "corners_as_seen", "find_board", "fit_score", "order_corners", "periodicity", "scores",
           "triangle_contrast", "BAR_HALF", "BAR_RANGE", "EDGE_SAT", "LEN_RANGE", "NDIR", "POINT_LEN", "UNIT",
           "WEIGHTS", "_Field", "_homographies", "_lines", "_parts", "_parts_many", "_plausible_many",
           "_quad_from_edges", "CORNER_JUMPS", "JUMP_ROUNDS", "LONG_JUMPS", "MOVE_ROUNDS", "PAIR_JUMPS",
           "SCREENED", "SHAPE_BARS", "SHAPE_LENS", "SHORT_JUMPS", "UNIT_MOVES", "_jump_candidates", "_jump_maps",
           "_refine", "_refine_many", "_shape_jump", "_unit_moves"]

WORK = 480          # longer side of the working image, pixels

VIEW = 160  # longer side of a rectified view for the coarse search, pixels
STEP = 3    # coarse search step, view pixels


def _edge_maps(view: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lab = cv2.cvtColor(cv2.GaussianBlur(view, (0, 0), 1.2), cv2.COLOR_BGR2Lab).astype(np.float32)
    gx = np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2)
    gy = np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)
    norm = float(np.percentile(np.maximum(gx, gy), 90)) + 8.0
    return cv2.dilate(gx, np.ones((1, 3), np.uint8)) / norm, cv2.dilate(gy, np.ones((3, 1), np.uint8)) / norm


def _coarse_rects(view: np.ndarray, k: int = 6) -> list[tuple[float, float, float, float, float]]:
    """The ``k`` best distinct axis-aligned playing-area rectangles (x0, y0, x1, y1, score) in a
    view whose rows run along x: four edges and a bar at the middle, from cumulative gradient sums."""
    h, w = view.shape[:2]
    gx, gy = _edge_maps(view)
    CY = np.concatenate([np.zeros((h, 1), np.float32), np.cumsum(gy, axis=1)], axis=1)
    CX = np.concatenate([np.zeros((1, w), np.float32), np.cumsum(gx, axis=0)], axis=0)
    X0, X1 = np.arange(0, int(0.45 * w), STEP), np.arange(int(0.55 * w), w, STEP)
    Y0, Y1 = np.arange(0, int(0.45 * h), STEP), np.arange(int(0.55 * h), h, STEP)
    if min(len(X0), len(X1), len(Y0), len(Y1)) == 0:
        return []

    def hseg(y: np.ndarray) -> np.ndarray:  # (y, x0, x1): mean gradient along row y from x0 to x1
        return (CY[y][:, X1][:, None, :] - CY[y][:, X0][:, :, None]) / (X1[None, None, :] - X0[None, :, None])

    def vseg(x: np.ndarray) -> np.ndarray:  # (x, y0, y1)
        return (CX[Y1][:, x].T[:, None, :] - CX[Y0][:, x].T[:, :, None]) / (Y1[None, None, :] - Y0[None, :, None])

    lg = lambda a: np.log(a + 0.05)  # noqa: E731
    span = (X1[None, :] - X0[:, None]).astype(np.float32)
    xc = (X0[:, None] + X1[None, :]) / 2.0
    tall = (Y1[None, :] - Y0[:, None]).astype(np.float32)[:, :, None, None]
    bar: Optional[np.ndarray] = None
    for half in (0.025, 0.04, 0.06):
        acc: np.ndarray | float = 0.0
        for sg in (-1, 1):
            col = np.clip(np.rint(xc + sg * half * span).astype(int), 0, w - 1)
            acc = acc + lg((CX[Y1][:, col][None] - CX[Y0][:, col][:, None]) / tall)
        bar = np.asarray(acc) / 2 if bar is None else np.maximum(bar, np.asarray(acc) / 2)
    tot = (lg(hseg(Y0))[:, None, :, :] + lg(hseg(Y1))[None, :, :, :] + lg(vseg(X0)).transpose(1, 2, 0)[:, :, :, None]
           + lg(vseg(X1)).transpose(1, 2, 0)[:, :, None, :] + 1.5 * np.asarray(bar)) / 5.5   # (y0, y1, x0, x1)
    aspect = span[None, None] / tall
    tot = np.where((aspect > 0.75) & (aspect < 2.2), tot, -9.0)
    flat = tot.ravel()
    live = np.flatnonzero(flat > -9.0)  # (many equal values make a partition slow)
    top = live[np.argpartition(flat[live], -min(3000, live.size))[-3000:]] if live.size else live
    out: list[tuple[float, float, float, float, float]] = []
    for idx in top[np.argsort(flat[top])[::-1]]:
        a, b, c, d = np.unravel_index(idx, tot.shape)
        r = (float(X0[c]), float(Y0[a]), float(X1[d]), float(Y1[b]), float(flat[idx]))
        if all(max(abs(r[i] - o[i]) for i in range(4)) > 0.04 * w for o in out):
            out.append(r)
            if len(out) >= k:
                break
    return out


ANGLES = (-10.0, -5.0, 0.0, 5.0, 10.0)  # turns of the whole picture tried when the outline is unclear, degrees


def _views(small: np.ndarray, bq: Optional[np.ndarray] = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Rectified views (rows along x, longer side :data:`VIEW`) of the board's outline and of
    the whole picture turned by each of :data:`ANGLES`, both ways round."""
    h, w = small.shape[:2]
    whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    outlines = []
    bq = board_quad(small) if bq is None else bq
    if np.abs(bq - whole).max() > 3:
        outlines.append(bq)
    c = whole.mean(axis=0)
    for a in ANGLES:
        t = np.radians(a)
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
        outlines.append((whole - c) @ rot.T + c)
    for q in outlines:
        for src in (q, np.roll(q, -1, axis=0)):
            e = np.linalg.norm(np.roll(src, -1, axis=0) - src, axis=1)
            ratio = (e[1] + e[3]) / max(e[0] + e[2], 1e-6)
            if not 0.25 <= ratio <= 2.0:
                continue
            vw, vh = (VIEW, int(VIEW * ratio)) if ratio <= 1 else (int(VIEW / ratio), VIEW)
            dst = np.array([[0, 0], [vw, 0], [vw, vh], [0, vh]], np.float32)
            Hm = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
            yield cv2.warpPerspective(small, Hm, (vw + 1, vh + 1), borderMode=cv2.BORDER_REPLICATE), Hm


def _insets(quad: np.ndarray) -> list[np.ndarray]:
    """The quad (model order) shrunk by typical frame widths: the long edges by 5 or 8 % of the
    height, each short edge by 0, 5 or 10 % of the width."""
    out = []
    for fy in (0.05, 0.08):
        for fl in (0.0, 0.05, 0.1):
            for fr in (0.0, 0.05, 0.1):
                q = quad.copy()
                q[[0, 1]], q[[3, 2]] = (q[[0, 1]] + fy * (q[[3, 2]] - q[[0, 1]]),
                                        q[[3, 2]] + fy * (q[[0, 1]] - q[[3, 2]]))
                q[[0, 3]], q[[1, 2]] = (q[[0, 3]] + fl * (q[[1, 2]] - q[[0, 3]]),
                                        q[[1, 2]] + fr * (q[[0, 3]] - q[[1, 2]]))
                out.append(q)
    return out


KEPT = 6    # starts refined to the end (see find_board)
HOP_SCREENED = 120  # hop candidates scored in full after the light screening
HOPPED = 1  # fits that hop (see _hop)
SHORT_HOPS = (-2, -1, 0, 1, 2)                           # short-edge moves, point widths
LONG_HOPS = (-0.1, -0.06, -0.03, 0.0, 0.03, 0.06, 0.1)    # long-edge moves, share of the height


def _hop_candidates(quad: np.ndarray, bar_half: float, point_len: float) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of moves of the four edges at once: each short edge by whole point
    widths, each long edge by a share of the height (the other row's points kept in place)."""
    pw = (0.5 - bar_half) / 6
    a, b = np.meshgrid(np.array(SHORT_HOPS) * pw, np.array(SHORT_HOPS) * pw, indexing="ij")
    t, u = np.meshgrid(LONG_HOPS, LONG_HOPS, indexing="ij")
    fl, fr = a.ravel()[:, None, None], b.ravel()[:, None, None]          # left, right edge moves
    ft, fb = t.ravel()[None, :, None], u.ravel()[None, :, None]         # top, bottom edge moves
    q0, q1, q2, q3 = (quad[i][None, None] for i in range(4))
    # short edges first (along the rows), then the long ones (across)
    l0, r0 = q0 + fl * (q1 - q0), q1 - fr * (q1 - q0)
    l3, r2 = q3 + fl * (q2 - q3), q2 - fr * (q2 - q3)
    n0, n1 = l0 + ft * (l3 - l0), r0 + ft * (r2 - r0)
    n3, n2 = l3 + fb * (l0 - l3), r2 + fb * (r0 - r2)
    qs = np.stack(np.broadcast_arrays(n0, n1, n2, n3), axis=2).reshape(-1, 4, 2)
    shrink = 1 - t.ravel() - u.ravel()
    pls = np.clip(point_len / np.maximum(shrink, 0.5), *LEN_RANGE)
    return qs, np.tile(pls, len(a.ravel()))


def _hop_shapes(qs: np.ndarray, pls: np.ndarray, bar_half: float, point_len: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hop candidates with three point lengths each (points as long as before, their tips
    kept in place, the layout's) and, when the fit's bar is unlike the layout's, both bars."""
    n_long = len(LONG_HOPS) ** 2
    t, u = (g.ravel() for g in np.meshgrid(LONG_HOPS, LONG_HOPS, indexing="ij"))
    tips = np.clip((point_len - (t + u) / 2) / np.maximum(1 - t - u, 0.5), *LEN_RANGE)
    k = len(qs) // n_long
    qs3 = np.concatenate([qs, qs, qs])
    pls3 = np.concatenate([pls, np.tile(tips, k), np.full(len(qs), POINT_LEN)])
    bhs = np.full(len(qs3), bar_half)
    if abs(bar_half - BAR_HALF) > 0.005:  # a fit an edge off may widen its bar
        qs3, pls3, bhs = (np.concatenate([qs3, qs3]), np.concatenate([pls3, pls3]),
                          np.r_[bhs, np.full(len(qs3), BAR_HALF)])
    return qs3, pls3, bhs


def _hop(field: _Field, quad: np.ndarray, bar_half: float, point_len: float, score: float,
         tries: int = 3) -> tuple[np.ndarray, float, float, float]:
    """Leave a local optimum: score every combination of edge moves (:func:`_hop_candidates`)
    at once and refine the few best distinct ones; the best fit found (the search, starting
    from a board's outline or a fit one point off, stops where no single move helps)."""
    qs, pls, bhs = _hop_shapes(*_hop_candidates(quad, bar_half, point_len), bar_half, point_len)
    light = scores(field, qs, bhs, pls, light=True)  # screened, the likeliest scored in full
    few = np.argsort(-light)[:HOP_SCREENED]
    qs, pls, bhs = qs[few], pls[few], bhs[few]
    sc = scores(field, qs, bhs, pls)
    size = float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))
    taken: list[np.ndarray] = [quad]
    pick = []
    for i in np.argsort(-sc):
        if len(taken) > tries:
            break
        if min(float(np.abs(qs[i] - t).max()) for t in taken) < 0.03 * size:
            continue
        taken.append(qs[i])
        pick.append(i)
    got = _refine_many(field, qs[pick], bhs[pick], pls[pick], steps=(0.005, 0.0025))
    return max(got + [(quad, bar_half, point_len, score)], key=lambda t: t[3])


def find_board(frame: np.ndarray, refine: int = 12) -> Optional[Fit]:
    """The best-fitting playing area in ``frame`` (corners in frame pixels, model order), however
    poor (compare its :attr:`Fit.evidence` with :data:`MIN_EVIDENCE`); None for an empty or tiny image."""
    if frame is None or frame.size == 0 or min(frame.shape[:2]) < 32:
        return None
    img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    s = min(1.0, WORK / max(h, w))
    small = cv2.resize(img, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA) if s < 1 else img
    field = _Field(small, 1.0)
    outline = board_quad(small)
    quads, coarse = [], []
    for view, Hm in _views(small, outline):
        inv = np.linalg.inv(Hm)
        for x0, y0, x1, y1, c_score in _coarse_rects(view):
            pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            quads.append(cv2.perspectiveTransform(pts[None], inv)[0].astype(np.float64))
            coarse.append(c_score)
    if not quads:
        return None
    fine = scores(field, np.array(quads))
    # the likeliest by the fine model, and by the coarse one (a fine score misled by a
    # small misalignment), half each; and the outline itself, both ways round (its edges may
    # be the playing area's)
    by_fine, by_coarse = np.argsort(-fine, kind="stable"), np.argsort(-np.array(coarse), kind="stable")
    chosen: list[int] = []
    for i in [int(j) for pair in zip(by_fine, by_coarse) for j in pair]:
        if i not in chosen:
            chosen.append(i)
    starts = [quads[i] for i in chosen[:refine]]
    whole = np.array([[0, 0], [small.shape[1] - 1, 0], [small.shape[1] - 1, small.shape[0] - 1],
                      [0, small.shape[0] - 1]])
    if np.abs(outline - whole).max() > 3:
        starts += [outline.astype(np.float64), np.roll(outline, -1, axis=0).astype(np.float64)]
    n = len(starts)
    # a first refinement of every start, then the rest for the best distinct ones
    first = _refine_many(field, np.array(starts), np.full(n, BAR_HALF), np.full(n, POINT_LEN), steps=(0.01,))
    first.sort(key=lambda t: -t[3])
    kept: list[tuple[np.ndarray, float, float, float]] = []
    for f in first:
        size = float(np.sqrt(abs(cv2.contourArea(f[0].astype(np.float32)))))
        if all(np.abs(f[0] - k[0]).max() > 0.02 * size for k in kept):
            kept.append(f)
        if len(kept) >= KEPT:
            break
    fits = _refine_many(field, np.array([k[0] for k in kept]), np.array([k[1] for k in kept]),
                        np.array([k[2] for k in kept]), steps=(0.005, 0.0025))
    fits.sort(key=lambda t: -t[3])
    # the best fits may hold the board's outline: their insets by a frame's width, the likeliest refined too
    insets = np.array([q for q0, bh, _, _ in fits[:2] for q in _insets(q0)])
    ins_bh = np.repeat([f[1] for f in fits[:2]], len(insets) // min(2, len(fits)))
    ins_sc = scores(field, insets, ins_bh, POINT_LEN)
    pick = np.argsort(-ins_sc)[:2]
    fits += _refine_many(field, insets[pick], ins_bh[pick], np.full(len(pick), POINT_LEN))
    fits.sort(key=lambda t: -t[3])
    q, bh, pl, sc = max((_hop(field, *f) for f in fits[:HOPPED]), key=lambda t: t[3])
    best = (sc, q, bh, pl)
    sc, q, bh, pl = best
    parts = _parts(field, q, bh, pl)
    p4 = np.zeros(4) if parts is None else np.r_[parts[:3], parts[3:7].mean()]
    p = tuple(float(v) for v in p4)
    return Fit((q / s).astype(np.float32), float(sc), p, float(bh), float(pl),  # type: ignore[arg-type]
               triangle_contrast(field, q, bh, pl), periodicity(small, q, bh, pl),
               periodicity(small, q, bh, pl, gap=True), *bar_edges(field, q, bh, pl))


def auto_corners(frame: np.ndarray, min_likeness: float = MIN_EVIDENCE) -> Optional[np.ndarray]:
    """The playing area's corners in ``frame`` (first corner at the start of the "top" row,
    ordered as seen), or None when the best fit's :attr:`Fit.evidence` is below ``min_likeness``."""
    fit = find_board(frame)
    if fit is None or fit.evidence < min_likeness:
        return None
    return fit.as_seen()
