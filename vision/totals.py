"""Fifteen checkers a side: the most likely whole reading whose totals are possible.

The absolute reading judges each point alone, and on real boards a point alone can be wrong
in ways that break the totals: a logo or a checker's embossed face read as a second layer (8 on
a row of 5), a die or a dark frame's shadow read as a lone checker.  Every colour has exactly
15 checkers (on the points, on the bar, off in the trays), so a reading whose totals are
impossible says that some points are wrong, not which.

:func:`settle_totals` decides which, as a referee would: each point's (count, colour) gets a
likelihood from its reading (:func:`point_likelihood`: the reading's own odds, and a small
floor for every other count, falling off with the distance from the count read), times how
often real players leave that many checkers on a point (:data:`REAL_COUNTS`, counted from the
positions of the 114 real matches in ``shared/matches/plays.jsonl.gz``: a stack of 8 is about
50 times rarer than a row of 5).  The most likely joint reading whose totals are the 15 a side
(less the checkers off: as many as real positions have, mostly none) is found exactly
by a max-product pass over the 26 locations with the running totals as its state (the bar's
counts get the real positions' odds too: mostly none), and each point's
posterior -- the share of all possible readings in which it holds what was chosen -- is its new
confidence.  A point this changed is never made sure by it alone: the trays and totals vouch
only for the sum, so its confidence is capped below the reader's "certain".  Nor is any point
of a board read :data:`MISREAD` or more checkers over the 15 a colour: the reader saw checkers
this board does not have in two places or more, and nothing says the points it kept are not
more of them.  On a board read :data:`PHANTOMS` or more checkers over, its surface, inlay or
hinges show checkers it does not have, and an empty point or bar gets the real odds of an
empty point (tempered, :data:`EMPTY_PRIOR`): the unsure lone checkers go before a stack read
surer is cut to nothing.

Pure: readings in, readings out; no image.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Optional, Sequence

import numpy as np

from referee.events import PointReading

from . import layout as L
from .odds import READING_SCALE, bar_odds, point_odds

if TYPE_CHECKING:
    from .assemble import Assembled
    from .params import ReadParams

N = L.PER_SIDE + 1                      # running totals 0..15 per colour
# checkers on one point in the real matches' positions (both sides, every point, after each play)
REAL_COUNTS = (1629686, 121107, 235708, 102421, 44301, 25421, 3631, 850, 455, 155, 24, 30, 3, 1, 1, 1)
FLOOR = 0.02        # every other (count, colour) keeps this share of the reading's likelihood ...
FALL = 0.5          # ... falling off by this factor for each checker away from the count read
TALL_ROW = 0.3      # a stack read taller than a row: the row alone, this share of the tall reading
CHANGED_MAX = 0.55  # a point the totals changed is at most this sure (below the reader's certain)
SETTLED_MAX = 0.95  # a settled board is at most this share of the reader's "certain"
MISREAD = 2         # checkers read over the 15 a colour (both colours) that make no point of the board sure
PHANTOMS = 4        # checkers read over the 15 a colour (both) that say this board's surface shows checkers it has not
EMPTY_WEIGHT = 0.25  # ... then the power of the real odds of an empty point against one of 1..5 (15:1) the prior takes


# checkers off per colour in the same positions (0..15), for a reading whose trays were not read
REAL_OFF = (8363, 171, 162, 169, 138, 130, 130, 105, 113, 105, 85, 90, 67, 72, 49, 51)
# checkers on the bar per colour in the same positions (0..4; none seen with more)
REAL_BAR = (74516, 12476, 2697, 452, 17)
ROW = 5             # a full first row; taller stacks are what the prior makes rare


def _prior() -> np.ndarray:
    """How much rarer than a row of five each taller stack is (1 up to five: how many points
    are empty or hold a few is the totals' business, not a prior's)."""
    c = np.array(REAL_COUNTS, dtype=float)
    return np.array([1.0 if n <= ROW else c[n] / c[ROW] for n in range(len(c))])


PRIOR = _prior()
_C = np.array(REAL_COUNTS, dtype=float)
EMPTY_PRIOR = float((_C[0] / _C[1:ROW + 1].mean()) ** EMPTY_WEIGHT)   # about 2: an empty point against a few
OFF_PRIOR = np.array(REAL_OFF, dtype=float) / sum(REAL_OFF)
BAR_PRIOR = np.array(REAL_BAR + (1,) * (N - len(REAL_BAR)), dtype=float)
BAR_PRIOR /= BAR_PRIOR.sum()


@dataclass(frozen=True)
class Settled:
    """A reading with possible totals: the 24 points by image rows (top then bottom), the bar,
    each point's posterior (the new confidence), and the points whose reading it changed."""

    points: tuple[PointReading, ...]
    bar: tuple[int, int]
    posterior: tuple[float, ...]
    changed: tuple[int, ...]


def point_likelihood(p: PointReading) -> dict[tuple[int, Optional[str]], float]:
    """How well each (count, colour) explains one point's reading: its odds, and a floor for
    every other count that falls off with the distance from the count read."""
    return dict(zip(_CELLS, _likelihoods(p).tolist()))


def _likelihoods(p: PointReading) -> np.ndarray:
    """:func:`point_likelihood` as an array over :data:`_CELLS`: the floors (kept per count and
    colour read) plus the reading's odds."""
    w = np.array(_floors(p.count, p.colour))
    for key, q in _read_odds(p).items():
        k = _CELL_AT.get(key)
        if k is not None:
            w[k] = q + w[k]
    return w


def _read_odds(p: PointReading) -> dict[tuple[int, Optional[str]], float]:
    """A point's odds as its reading gives them (:func:`vision.odds.point_odds`), a stack read taller
    than a row sharing its odds with the row alone.  On the reader's own scale of confidence
    (:data:`vision.odds.READING_SCALE`): the totals ask which points are the likeliest wrong, and the
    calibrated odds (nearer one another below "certain") ranked them worse (template3's two pearl fives
    swapped colours, 21 -> 19 of 24 points)."""
    odds = point_odds(p, scale=READING_SCALE)
    if p.count > ROW:  # a second layer may be a checker's embossed face, a logo or the grain
        odds[(ROW, p.colour)] = odds.get((ROW, p.colour), 0.0) + TALL_ROW * odds[(p.count, p.colour)]
    return odds


#: every (count, colour) a point may hold, in :func:`point_likelihood`'s order
_CELLS = tuple((n, c) for n in range(L.MAX_STACK + 1) for c in ((None,) if n == 0 else ("dark", "light")))
_CELL_AT = {cell: k for k, cell in enumerate(_CELLS)}


@functools.lru_cache(maxsize=64)
def _floors(count: int, colour: Optional[str]) -> tuple[float, ...]:
    """The floor :func:`point_likelihood` gives each (count, colour) of :data:`_CELLS` for a point read
    ``count`` of ``colour``: falling off with the distance from the count read (and the other colour)."""
    return tuple(FLOOR * FALL ** (abs(n - count) + (0 if c == colour or n == 0 or count == 0 else 1))
                 for n, c in _CELLS)


def _cells_table(n_max: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Where in the N x N (dark, light) table each cell of :data:`_CELLS` under ``n_max`` checkers
    lies (which cells, their rows, their columns) and its prior (the real counts', :data:`PRIOR`)."""
    keep = np.array([n < n_max for n, _c in _CELLS])
    rows = np.array([n if c == "dark" else 0 for n, c in _CELLS])[keep]
    cols = np.array([n if c == "light" else 0 for n, c in _CELLS])[keep]
    prior = np.array([PRIOR[n] for n, _c in _CELLS if n < n_max])
    return np.flatnonzero(keep), rows, cols, prior


_CELLS_IN_TABLE = _cells_table(N)


_CELLS_LISTS = tuple(a.tolist() for a in _CELLS_IN_TABLE)
_EMPTY_CELLS = [i for i, (r, c) in enumerate(zip(_CELLS_LISTS[1], _CELLS_LISTS[2])) if r == c]


@functools.lru_cache(maxsize=4096)
def _point_row(count: int, colour: Optional[str], confidence: float, empty: float) -> np.ndarray:
    """One point's weights as a row [empty, dark 1..15, light 1..15]: :func:`point_likelihood`
    times the real counts' prior (an empty point's times ``empty``), normalised over the (dark,
    light) table as the totals' pass weighs it.  Kept: a board's points read alike frame to frame.
    (Worked on lists of floats, the same products and sums as numpy's on the arrays; only the
    table's total is numpy's own sum of the N x N table, its order of additions.)"""
    w = _likelihoods(PointReading(count, colour, confidence)).tolist()
    which, rows, cols, prior = _CELLS_LISTS
    wt = [w[k] * p for k, p in zip(which, prior)]
    for i in _EMPTY_CELLS:   # (rows and columns both 0: the empty point)
        wt[i] *= empty
    t = np.zeros((N, N))
    t[_CELLS_IN_TABLE[1], _CELLS_IN_TABLE[2]] = wt
    row = np.array([wt[i] for i in _ROW_ORDER]) / t.sum()   # [empty, dark 1..15, light 1..15] (each cell once)
    row.flags.writeable = False
    return row


def _as_row(t: np.ndarray) -> np.ndarray:
    """A location's N x N table over (dark, light) normalised and laid out as a row [empty, dark
    1..15, light 1..15] (read-only: :func:`_point_row` keeps its rows)."""
    row = np.concatenate(([t[0, 0]], t[1:, 0], t[0, 1:])) / t.sum()
    row.flags.writeable = False
    return row


def _held(dark: int, light: int) -> int:
    """Where a row (:func:`_as_row`) holds ``dark`` or ``light`` checkers (at most one of them not 0)."""
    return dark if dark else (N - 1 + light if light else 0)


# each place of a row (:func:`_as_row`) and the cell of :data:`_CELLS_IN_TABLE` it holds (:func:`_point_row`)
_AT_ROW = {_held(r, c): i for i, (r, c) in enumerate(zip(_CELLS_LISTS[1], _CELLS_LISTS[2]))}
_ROW_ORDER = [_AT_ROW[k] for k in range(2 * N - 1)]   # (every place held by one cell: a KeyError otherwise)


@functools.lru_cache(maxsize=256)
def _bar_row(count: int, colour: int, confidence: float, empty: float) -> np.ndarray:
    """The bar's ``colour`` (0 dark, 1 light) as a row like :func:`_point_row`'s (kept alike)."""
    t = np.zeros((N, N))
    for n, w in bar_odds(count, confidence).items():
        w = (w + FLOOR * FALL ** abs(n - count)) * BAR_PRIOR[n] * (empty if n == 0 else 1.0)
        if n < N:
            if colour == 0:
                t[n, 0] += w
            else:
                t[0, n] += w
    return _as_row(t)


def _tables(points: Sequence[PointReading], bar: tuple[int, int], bar_conf: float,
            empty: float = 1.0) -> np.ndarray:
    """Each location's weights (24 points, the bar's dark, its light) as rows [empty, dark 1..15,
    light 1..15] (an empty point's or bar's prior times ``empty``)."""
    rows = [_point_row(int(p.count), p.colour, float(p.confidence), float(empty)) for p in points]
    rows += [_bar_row(int(bar[k]), k, float(bar_conf), float(empty)) for k in range(2)]
    return np.array(rows)


_IDX = np.subtract.outer(np.arange(N), np.arange(N))
_VALID = _IDX >= 1
_COL = np.where(_VALID, _IDX, 0)


def _shift_mats(tables: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every location's (empty weight, dark shift matrix, light shift matrix): the matrix
    ``S[i, k]`` is the weight of adding ``i - k`` checkers (1..15) of that colour."""
    dark = np.concatenate((np.zeros((len(tables), 1)), tables[:, 1:N]), axis=1)
    light = np.concatenate((np.zeros((len(tables), 1)), tables[:, N:]), axis=1)
    return tables[:, 0].copy(), np.where(_VALID, dark[:, _COL], 0.0), np.where(_VALID, light[:, _COL], 0.0)


def _step(acc: np.ndarray, t0: float, sd: np.ndarray, sl: np.ndarray) -> np.ndarray:
    """The running totals' weights after one more location (totals over 15 dropped)."""
    return t0 * acc + sd @ acc + acc @ sl.T


def _step_back(nxt: np.ndarray, t0: float, sd: np.ndarray, sl: np.ndarray) -> np.ndarray:
    """The weights of reaching an allowed end from each running total, one location earlier."""
    return t0 * nxt + sd.T @ nxt + nxt @ sl


def _viterbi(shifts: tuple[np.ndarray, np.ndarray, np.ndarray], end: np.ndarray) -> list[tuple[int, int]]:
    """The jointly most likely (dark, light) at each location whose totals end where ``end``
    allows (weighted by it): max-product over the running totals, then back from the end.

    A shift matrix's weight depends only on how many checkers it adds (``S[i, k]``: adding ``i - k``),
    so a step's candidates are the running totals' table shifted by 0..15 rows (dark) or columns
    (light), each shift plus one log weight: the tables of every location are kept padded with 15
    impossible rows (:func:`_max_pass`), every shift of one a view.  Only their maximum is taken going
    forward (exact in any order); the choice at each location is worked out again on the way back, for
    the one total the path passes, with the same sums in the same order as the max-product's own (the
    first count it came from; stay, dark, light the first of the likeliest)."""
    t0s, sds, sls = shifts
    with np.errstate(divide="ignore"):
        log_end = np.log(end)
        l0s = np.log(t0s)
        # [location, colour, s]: the log weight of adding s checkers of the colour (s = 0: none, log 0)
        adds = np.log(np.stack((sds[:, :, 0], sls[:, :, 0]), axis=1))
    tables = _max_pass(l0s, adds)
    best = tables[-1, 0, N - 1:]
    a, b = (int(x) for x in np.unravel_index(int(np.argmax(best + log_end)), best.shape))
    weights, stays = adds.tolist(), l0s.tolist()
    out: list[tuple[int, int]] = []
    for t in range(len(l0s) - 1, -1, -1):
        prev = tables[t, 0, N - 1:]
        step = _choice(prev[:, b].tolist(), prev[a].tolist(), a, b, stays[t], *weights[t])
        out.append(step)
        a, b = a - step[0], b - step[1]
    return out[::-1]


def _max_pass(l0s: np.ndarray, adds: np.ndarray) -> np.ndarray:
    """The max-product's tables of log weights (dark totals by light) before and after each location,
    ``[location + 1, colour, 15 + i, j]``: colour 0 the table, 1 the same turned (light's totals by
    dark), each below 15 rows of impossible ones (log 0), so that every shift of it by s rows (s
    checkers added, of dark, or of light on the turned one) is one window, all of them one view.
    ``l0s``: each location's log weight of staying empty, ``adds[location, colour, s]`` of adding s
    checkers of the colour.  A step: all shifts of both plus their weights in one sum, their maximum."""
    n_loc = len(l0s)
    fold = adds[:, :, ::-1].copy()   # [location, colour, start]: a shift of s = 15 - start rows
    fold[:, 0, N - 1] = l0s          # dark's shift 0: the location left empty
    fold = fold[:, :, :, None, None]
    # [location, colour, 15 + i, j]: the table (dark) and the same turned (light)
    tables = np.full((n_loc + 1, 2, 2 * N - 1, N), -np.inf)
    tables[0, :, N - 1, 0] = 0.0   # only (0, 0) at the start
    # [location, colour, start, i, j]: each shifted down by 15 - start rows
    shifted = np.lib.stride_tricks.sliding_window_view(tables, N, axis=2).transpose(0, 1, 2, 4, 3)
    cand = np.empty((2, N, N, N))
    for t in range(n_loc):
        np.add(fold[t], shifted[t], out=cand)
        v = np.maximum.reduce(cand, axis=1)
        new = tables[t + 1, :, N - 1:]
        np.maximum(v[0], v[1].T, out=new[0])
        np.copyto(new[1], new[0].T)
    return tables


def _choice(col: list[float], row: list[float], a: int, b: int, stay: float, dark: list[float],
            light: list[float]) -> tuple[int, int]:
    """The checkers a location added on the best path to totals (``a``, ``b``): (dark, light), at most
    one not 0.  ``col``, ``row``: the table before it at light ``b`` and dark ``a``; ``stay``, ``dark``,
    ``light``: its log weights.  As the max-product chose: the first count it came from that is likeliest
    per colour, then light if likelier than both others, else dark if likelier than staying."""
    here = col[a] + stay
    v0, k0 = -np.inf, 0
    for k in range(a):
        x = dark[a - k] + col[k]
        if x > v0:
            v0, k0 = x, k
    v1, k1 = -np.inf, 0
    for k in range(b):
        x = light[b - k] + row[k]
        if x > v1:
            v1, k1 = x, k
    if v1 > max(v0, here):
        return 0, b - k1
    return (a - k0, 0) if v0 > here else (0, 0)


def settle_totals(points: Sequence[PointReading], bar: tuple[int, int], bar_conf: float = 0.5,
                  off: Optional[tuple[int, int]] = None, empty: float = 1.0) -> Optional[Settled]:
    """The most likely reading (24 points by image rows, then the bar) with 15 checkers a
    colour less ``off`` on the board, or as many off as real positions have when ``off`` is
    unknown; an empty point (and an empty bar, for each colour) ``empty`` times as likely a
    priori as otherwise.
    None when no reading is possible at all (``off`` itself over 15)."""
    if off is not None and not (0 <= off[0] <= L.PER_SIDE and 0 <= off[1] <= L.PER_SIDE):
        return None
    tables = _tables(points, bar, bar_conf, empty)
    shifts = _shift_mats(tables)
    t0s, sds, sls = shifts
    fwd = [np.zeros((N, N))]
    fwd[0][0, 0] = 1.0
    steps = []   # each location's step before it is normalised (the posteriors' sums reuse it)
    for t0, sd, sl in zip(t0s, sds, sls):
        acc = _step(fwd[-1], t0, sd, sl)
        steps.append(acc)
        s = acc.sum()
        fwd.append(acc / s if s > 0 else acc)
    end = np.zeros((N, N))
    if off is not None:
        end[L.PER_SIDE - off[0], L.PER_SIDE - off[1]] = 1.0
    else:  # the trays unread: as many off as real positions have (mostly none)
        end[:, :] = np.outer(OFF_PRIOR[::-1], OFF_PRIOR[::-1])
    if (fwd[-1] * end).sum() <= 0:
        return None
    bwd = [end]
    for t0, sd, sl in zip(t0s[::-1], sds[::-1], sls[::-1]):
        acc = _step_back(bwd[0], t0, sd, sl)
        s = acc.sum()
        bwd.insert(0, acc / s if s > 0 else acc)
    chosen = _viterbi(shifts, end)
    # each location's posterior: the share of all readings with possible totals that agree with it
    # (all locations' sums at once: each location's N x N products summed as one row, the same pairwise
    # sum as that array's own)
    after = np.array(bwd[1:len(chosen) + 1])
    zs = (np.array(steps) * after).reshape(len(chosen), -1).sum(axis=1).tolist()
    mine = np.zeros((len(chosen), N, N))
    for i, (d, lt) in enumerate(chosen):
        mine[i, d:, lt:] = tables[i, _held(d, lt)] * fwd[i][:N - d, :N - lt]
    ms = (mine * after).reshape(len(chosen), -1).sum(axis=1).tolist()
    post = [m / z if z > 0 else 0.0 for m, z in zip(ms, zs)]
    pts: list[PointReading] = []
    changed = []
    for i, (p, (d, lt)) in enumerate(zip(points, chosen)):
        n, c = (d, "dark") if d else ((lt, "light") if lt else (0, None))
        same = n == p.count and (c == p.colour or n == 0)
        if not same:
            changed.append(i)
        # a kept point is as sure as the possible readings agree on it (no surer than it was read)
        conf = min(p.confidence, post[i]) if same else min(CHANGED_MAX, post[i])
        pts.append(PointReading(n, c, round(float(conf), 3)))
    new_bar = (chosen[24][0], chosen[25][1])
    return Settled(tuple(pts), new_bar, tuple(round(x, 4) for x in post), tuple(changed))


def settle_assembled(a: "Assembled", params: "ReadParams") -> "Assembled":
    """A reading with impossible totals (more than 15 of a colour) as :func:`settle_totals`
    settles it: plausible, the changed points and the board unsure; a possible reading is
    returned as it is."""
    from .assemble import board_confidence  # noqa: PLC0415

    if a.plausible:
        return a
    pts = list(a.rows.top) + list(a.rows.bottom)
    over = sum(max(0, t - L.PER_SIDE) for t in a.totals)
    # checkers read at many places more than the board has: its surface (a pattern, the grain),
    # a dark inlay or the bar's hinges show checkers that are not there, and an unsure lone
    # checker is likelier one of those than a surer stack is too tall: an empty point and an
    # empty bar get the real odds of an empty point, tempered (:data:`EMPTY_PRIOR`)
    s = settle_totals(pts, a.rows.bar, a.bar_confidence, empty=EMPTY_PRIOR if over >= PHANTOMS else 1.0)
    if s is None:
        return a
    points = s.points
    if over >= MISREAD:
        # checkers this board does not have were read at two places or more, and the totals
        # cannot tell which: a point kept is no surer than one they changed
        # (made as ``replace`` makes them, without its look at the fields: the same readings)
        points = tuple(PointReading(p.count, p.colour, min(p.confidence, CHANGED_MAX)) for p in points)
    totals = (sum(p.count for p in s.points if p.colour == "dark") + s.bar[0],
              sum(p.count for p in s.points if p.colour == "light") + s.bar[1])
    bar_conf = a.bar_confidence if s.bar == a.rows.bar else min(CHANGED_MAX, a.bar_confidence)
    # the totals vouch for the sum, not for which points were wrong: never a sure board
    conf = min(board_confidence([p.confidence for p in points], True, bar_conf, params), SETTLED_MAX * params.certain)
    rows = L.RowReading(points[:12], points[12:], s.bar, round(conf, 3), a.rows.on_bar)
    changed = {("top" if i < 12 else "bottom", i % 12) for i in s.changed}
    # a point whose colour the totals changed: its checkers' margin spoke for the other colour, so it
    # tells nothing of this one's (the point's confidence, CHANGED_MAX at most, says how unsure it is)
    margins = tuple(1.0 if points[i].count and points[i].colour != pts[i].colour else m
                    for i, m in enumerate(a.margins))
    return replace(a, rows=rows, checkers=sum(totals), plausible=True, totals=totals, bar_confidence=bar_conf,
                   alts=tuple(x for x in a.alts if x[:2] not in changed), reason=None, margins=margins)
