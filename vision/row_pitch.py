"""The checkers' spacing along each row, and where each row begins, from a frame of a known position.

A steep oblique view foreshortens one row: its checkers lie closer than a diameter apart in the
view, so a stack of five ends in its fifth slot's first half and is read as four.  Knowing the
position, the table tries a few spacings and keeps the one at which the row's known stacks end
where they should (:func:`row_pitch`).  Used by the learned board (:mod:`vision.memory`) and the
frame that teaches itself (:mod:`vision.self_reference`).  The learned board also measures how its
stacks repeat along their points (:func:`stack_period`) and takes that spacing where it is longer
(:func:`row_spacing`).
"""
from __future__ import annotations

import math
from typing import Callable, Optional, Sequence, TypeVar

import cv2
import numpy as np

from . import layout as L
from .rectify import View
from .slots import _WEIGHTS, DARK, EMPTY, LIGHT, SlotGeometry, _core, _shifted_dist, patches, slot_geometry
from .triangles import triangle_mates

T = TypeVar("T")

PITCHES = (0.8, 0.85, 0.9, 0.95, 1.05, 1.1, 1.15, 1.2)  # a row's checker spacings (per diameter) tried besides 1
PITCH_GAIN = 0.85    # ... a longer one taken only when its stacks' ends fit their looks this much better than at 1
SHORTER_GAIN = 0.9   # ... a shorter one (a foreshortened row) when they fit this much better
PITCH_ENDS = 6       # ... and the row shows at least this many stack ends (slots either side of one)


def _stack_ends(view: View, geo: SlotGeometry,
                st: np.ndarray) -> tuple[np.ndarray, list[list[tuple[int, np.ndarray, Optional[np.ndarray]]]]]:
    """The view's slot patches at ``geo``, and per row (top, bottom) each known stack of two checkers
    or more: its last checker's slot, the row's median look of that colour, and the median look of
    the slot just past it empty on the row's points of the same triangle colour (None when the stack
    fills the point or no such point is empty there)."""
    per = geo.per_point
    wide = patches(view, geo)
    core = _core(wide)
    out = []
    for r in range(2):
        idx = np.arange(r * 12 * per, (r + 1) * 12 * per)
        looks = {s: np.median(core[idx[st[idx] == s]], axis=0) for s in (DARK, LIGHT) if (st[idx] == s).any()}
        row: list[tuple[int, np.ndarray, Optional[np.ndarray]]] = []
        for col in range(12):
            base = (r * 12 + col) * per
            n = int((st[base:base + per] > 0).sum())
            if n < 2:
                continue
            empty = None
            if n < min(per, geo.fits):   # (a five where only five fit fills the point:
                # the sixth slot, laid past the middle, shows the band between the tips, and its end there
                # moved a rendered start's rows to 0.99 apart)
                # the column parity's triangle colours, not the board's own (vision.triangles.find_flips):
                # on a rendered board whose halves mirror (bench/verdicts.py --mirror 1, seed 930011, a
                # glare over one half) those donors fit its top row's stack ends 0.8 apart better than
                # 1.0, and the table then asked 5 of 20 moves; with these, none (all 50 boards as before)
                donors = [q * per + n for q in triangle_mates(r * 12 + col)[0] if st[q * per + n] == EMPTY]
                if donors:
                    empty = np.median(core[donors], axis=0)
            row.append((base + n - 1, looks[int(st[base])], empty))
        out.append(row)
    return wide, out


def _stack_ends_fit(view: View, geo: SlotGeometry, st: np.ndarray,
                    reduce: Callable[[np.ndarray], float] = np.mean) -> list[tuple[float, int]]:
    """Per row (top, bottom): how well the ends of its known stacks (:func:`_stack_ends`) fit
    the row's own looks at ``geo``: the mean (or ``reduce``) of the distances of each stack's last
    checker's slot to the row's median look of that colour and of the slot just past it to the
    median look of that slot empty on the row's points of the same triangle colour; and how many
    such slots."""
    wide, rows = _stack_ends(view, geo, st)
    out = []
    for row in rows:
        ends: list[int] = []
        tpl: list[np.ndarray] = []
        for last, look, empty in row:
            ends.append(last)
            tpl.append(look)
            if empty is not None:
                ends.append(last + 1)
                tpl.append(empty)
        if not ends:
            out.append((math.inf, 0))
            continue
        d = _shifted_dist(wide[ends], np.stack(tpl)[:, None])[:, 0]
        out.append((float(reduce(d)), len(ends)))
    return out


def _stack_ends_contrast(view: View, geo: SlotGeometry, st: np.ndarray) -> list[tuple[float, int]]:
    """Per row (top, bottom): how well the ends of its known stacks (:func:`_stack_ends`, those with
    an empty point of the same triangle colour to compare with) fit at ``geo``, each end as a share
    of its own contrast: the distances of the stack's last checker's slot to the row's median look of
    that colour and of the slot just past it to the median empty look there (as
    :func:`_stack_ends_fit`), over the same two distances with the looks swapped; the mean of those
    shares, and how many slots.  An end whose checker hardly stands out from its point (a black
    checker on a black triangle in a dim photo) then says little either way, where
    :func:`_stack_ends_fit`'s raw distances let it drown the white checkers' ends that show plainly
    where the stacks stop (the real image043: 0.9 pw taken, its checker boxes 1.08 apart)."""
    wide, rows = _stack_ends(view, geo, st)
    out = []
    for row in rows:
        shares: list[float] = []
        for last, look, empty in row:
            if empty is None:
                continue
            pair = np.stack([look, empty])
            d = _shifted_dist(wide[[last, last + 1]], pair[:, None])[:, 0]
            x = _shifted_dist(wide[[last, last + 1]], pair[::-1][:, None])[:, 0]
            shares.append(float(d.sum() / max(float(x.sum()), 1e-6)))
        out.append((float(np.mean(shares)), 2 * len(shares)) if shares else (math.inf, 0))
    return out


def row_pitch(view: View, geo: SlotGeometry, st: np.ndarray, pitches: Sequence[float] = PITCHES,
              ends: int = PITCH_ENDS, shorter_gain: float = SHORTER_GAIN) -> tuple[float, float]:
    """Per row (top, bottom), the checkers' spacing along the points per diameter, from a frame
    of a known position (``st``: each slot's state at ``geo``): the spacing of ``pitches``
    at which the row's stacks end where they should (:func:`_stack_ends_contrast`: each end's fit as a
    share of its own contrast, since session 46; tried up to 1.2 since then), when it fits
    :data:`PITCH_GAIN` better than a diameter's on at least ``ends`` stack ends (a shorter spacing:
    ``shorter_gain``, by default :data:`SHORTER_GAIN`); else 1.  A steep oblique view foreshortens
    one row: a stack of five then ends in its fifth slot's first half, and is read as four.

    The two gains were set on photos looked at (``bench/vision_real.py --modes made``): print3d's
    near row, truly foreshortened, fits 11-27 % better at 0.85 (at 0.85 gain two of its frames
    missed it); on a photo from straight above (leather_lace) the rows fit 8-15 % better at 0.95
    and 11-14 % better at 1.1 by chance.  A 0.95 spacing so taken cost nothing measured there
    (its made-reference verdicts unchanged, 40 of 40 true); a 1.1 one did (0.9 both ways: 36).
    (Those with the ends' raw distances, :func:`_stack_ends_fit`.  With them the real image043, black
    checkers on black points in a dim photo, got 0.9 pw where its checker boxes lie 1.08 apart: its dark
    ends' distances drowned the white ones' that told it.)"""
    return _per_row(view, st, 1.0, pitches,
                    lambda f: slot_geometry(geo.side, geo.height, (f, f), geo.start, geo.lateral), ends,
                    lambda f: shorter_gain if f < 1 else PITCH_GAIN, fit=_stack_ends_contrast)


def _per_row(view: View, st: np.ndarray, plain: T, tried: Sequence[T],
             geo_at: Callable[[T], SlotGeometry], ends: int,
             gain: Callable[[T], float],
             reduce: Callable[[np.ndarray], float] = np.mean,
             fit: Optional[Callable[[View, SlotGeometry, np.ndarray], list[tuple[float, int]]]] = None
             ) -> tuple[T, T]:
    """Per row (top, bottom), the value of ``tried`` whose slots (``geo_at(value)``) its known stacks'
    ends fit best (``fit``; by default :func:`_stack_ends_fit`, its ends' distances by ``reduce``), when
    that fit is ``gain(value)`` times the fit at ``plain`` or better on at least ``ends`` stack ends;
    else ``plain``."""
    measure = fit or (lambda v, g, s: _stack_ends_fit(v, g, s, reduce))
    at_plain = measure(view, geo_at(plain), st)
    best = [(got, plain) for got, _ in at_plain]
    for f in tried:
        for r, (got, _) in enumerate(measure(view, geo_at(f), st)):
            if got < best[r][0]:
                best[r] = (got, f)
    return tuple(f if at_plain[r][1] >= ends and got < gain(f) * at_plain[r][0] else plain  # type: ignore[return-value]
                 for r, (got, f) in enumerate(best))


STARTS = (0.1, 0.2, 0.3, 0.4)   # how far from the frame (pw) a row's first checker may begin, tried besides 0
START_GAIN = 0.85    # ... taken only when its stacks' ends fit their looks this much better than at the frame


def row_start(view: View, geo: SlotGeometry, st: np.ndarray, starts: Sequence[float] = STARTS,
              ends: int = PITCH_ENDS, gain: float = START_GAIN) -> tuple[float, float]:
    """Per row (top, bottom), how far from the frame its first checker begins (pw), from a frame of
    a known position (``st``), at ``geo``'s spacings: the start of ``starts`` at which the row's
    stacks end where they should (:func:`_stack_ends_fit`), when it fits ``gain`` better than at
    the frame on at least ``ends`` stack ends; else 0.  In a photo from in front of the board the
    far frame's wall hides the field's edge: its checkers begin a third of a point width inside
    the edge seen, and a base slot laid at the edge holds half a checker and half the wall.

    Used by the frame that teaches itself (its looks come from other points' slots, which must
    hold the same part of a checker); a learned board's looks are each slot's own.  Measured
    (``bench/vision_real.py --cases 5 --modes self``): leather_lace's far row fits 18 % better at
    0.4 and its true plays rose 5 -> 11 of 40; the tuned tournament frames' rows begin 0.2-0.4 pw in
    (their true plays unchanged, 314 of 360); no other unseen set changed.

    The stack ends' fit is their distances' median, not their mean: the frame is one after a move,
    whose changed points' stack ends fit no start (a stack grown or gone), and on leather_lace one
    light 4-6 play so left the far row's fit at 0.4 only 14 % better than at the frame, and the row
    laid at the frame read its 24-point two empty and two empty points one checker each (asked).
    With the median (session 29, ``--modes self``): unseen3 132 -> 134 true plays of 160,
    leather_lace 33 -> 39 of 40, tuned 318 -> 317 of 360 (a test2 case asked), none wrong."""
    return _per_row(view, st, 0.0, starts, _starting_at(geo), ends, lambda f: gain, np.median)


BEGINS = (-0.4, -0.3, -0.2, -0.1, 0.1, 0.2, 0.3)   # where a row's first checker may begin (pw from the base), besides 0
BEGIN_GAIN = 0.9    # ... taken only when its stacks' ends fit their looks this much better than at the base
BEGIN_ENDS = 4      # ... on at least this many stack ends (the starting position shows about four a row)


def row_begins(view: View, geo: SlotGeometry, st: np.ndarray, begins: Sequence[float] = BEGINS,
               ends: int = BEGIN_ENDS, gain: float = BEGIN_GAIN) -> tuple[float, float]:
    """Per row (top, bottom), where its checkers' first place begins (pw from the point's base, on the
    board itself; below 0 before it), from a frame of a known position (``st``) at ``geo``'s spacings:
    the value of ``begins`` at which the row's stacks end where they should (each end's fit as a share of
    its own contrast, :func:`_stack_ends_contrast`), when it fits ``gain`` better than at the base on at
    least ``ends`` stack ends; else 0.

    Seen obliquely a checker's face stands off the board, and the camera sees every stack shifted
    along its point: unseen6's photos' checker boxes show rows beginning from half a checker before
    the base (image040) to a fifth after it (image046), a third before on image041's and image045's
    top rows.  Slots laid from the base there hold two thirds of one checker and a third of the
    next, and the slot past a stack's end a third of its last checker.

    The learned board's first lesson (:mod:`vision.memory`) takes the spacing first (:func:`row_pitch`),
    then this at it.  A longer spacing and a start past the base both end a stack further out, told
    apart only by stacks of different heights, and the start position shows few: on two of three
    renderings of it with the top row shifted 0.3 pw toward the frame a spacing of 0.95 stood in for the
    shift.  Found together instead (every pair of spacing and start, both changed only when 5 % better
    than either alone), the renderings came right, but the real photos' games kept fewer true plays
    (unseen6 dev, seeds 1-8: 4,004 against 4,023 of 4,345, two illegal boards accepted against one).
    The frame that teaches itself has its own, :func:`row_start`."""
    return _per_row(view, st, 0.0, begins, _starting_at(geo), ends, lambda f: gain, fit=_stack_ends_contrast)


def _starting_at(geo: SlotGeometry) -> Callable[[float], SlotGeometry]:
    """``geo`` with both rows' checkers beginning at a given distance from the base (:func:`row_start`,
    :func:`row_begins`)."""
    return lambda f: slot_geometry(geo.side, geo.height, geo.pitch, (f, f), geo.lateral)


PERIODS = tuple(round(0.7 + 0.01 * k, 2) for k in range(66))   # spacings (per diameter) a stack's repeat is sought at
PERIOD_STEP = 0.01    # pw: the profiles' samples along a point
PERIOD_FROM = 0.3     # pw from the base they begin at (a row's checkers may begin up to this far in: row_begins)
PERIOD_PEAK = 0.3     # the stacks' mean correlation with themselves shifted by the spacing, at least, for it to count
PERIOD_STACKS = 2     # ... over at least this many known stacks of three or more in the row
PERIOD_LONGER = 0.03  # the repeat's spacing taken over row_pitch's when this much longer (row_spacing)


def _profiles(view: View, stacks: list[tuple[int, int, float]]) -> list[np.ndarray]:
    """Each stack's profile along its point, (row, column, length in pw from the base) in, from
    :data:`PERIOD_FROM` out: the Lab colour (lightness weighed half) of a strip half a point wide round the
    point's axis, a row of nine samples every :data:`PERIOD_STEP` pw, averaged across."""
    out = []
    xs = np.linspace(-0.25, 0.25, 9, dtype=np.float32)
    for r, col, length in stacks:
        along = np.arange(PERIOD_FROM, length, PERIOD_STEP, dtype=np.float32)
        ys = along if r == 0 else np.float32(L.HEIGHT) - along
        u = np.broadcast_to((L.column_x(col) + xs[None, :] - view.x0) * view.px, (len(along), 9)).astype(np.float32)
        v = np.broadcast_to((ys[:, None] - view.y0) * view.px, (len(along), 9)).astype(np.float32)
        strip = cv2.remap(view.image, u, v, cv2.INTER_LINEAR)
        out.append(cv2.cvtColor(strip, cv2.COLOR_BGR2LAB).astype(np.float32).mean(axis=1) * _WEIGHTS)
    return out


def stack_period(view: View, geo: SlotGeometry, st: np.ndarray,
                 periods: Sequence[float] = PERIODS) -> tuple[Optional[float], Optional[float]]:
    """Per row (top, bottom), how far apart its checkers lie along the points (per diameter), from how its
    known stacks of three or more repeat (``st``: each slot's state at ``geo``): the spacing of ``periods`` at
    which each stack's profile (:func:`_profiles`, from :data:`PERIOD_FROM` to within its last checker at
    ``geo``'s spacing) best matches itself shifted by that spacing, the normalised correlation averaged over
    the row's stacks, when that average is :data:`PERIOD_PEAK` or more over :data:`PERIOD_STACKS` stacks or
    more; else None.

    Checkers repeat along a stack whatever their colour against the point's: where the stack ends by the
    contrast of its last checker with the cloth (:func:`row_pitch`) says little (light inlaid wood under
    light checkers, the real image014), their rims and faces still recur, one checker's spacing apart."""
    per = geo.per_point
    out: list[Optional[float]] = []
    for r in range(2):
        stacks = []
        for col in range(12):
            base = (r * 12 + col) * per
            n = int((st[base:base + per] > 0).sum())
            if n >= 3:
                stacks.append((r, col, min(L.POINT_LEN, (n - 0.3) * geo.side * geo.pitch[r])))
        if len(stacks) < PERIOD_STACKS:
            out.append(None)
            continue
        total = np.zeros(len(periods))
        for prof in _profiles(view, stacks):
            x = prof - prof.mean(axis=0)
            for i, f in enumerate(periods):
                k = int(round(f * geo.side / PERIOD_STEP))
                if k > len(x) - 10:
                    continue
                a, b = x[:-k], x[k:]
                total[i] += float((a * b).sum()) / max(math.sqrt(float((a * a).sum()) * float((b * b).sum())), 1e-9)
        best = int(np.argmax(total))
        out.append(float(periods[best]) if total[best] / len(stacks) >= PERIOD_PEAK else None)
    return out[0], out[1]


def row_spacing(view: View, geo: SlotGeometry, st: np.ndarray) -> tuple[float, float]:
    """Per row (top, bottom), the checkers' spacing the learned board lays its slots at, from a frame of a
    known position: :func:`row_pitch`'s, or the stacks' repeat (:func:`stack_period`) where that is
    :data:`PERIOD_LONGER` or more longer.

    Only longer: a row laid too short ends a stack of five in a sixth slot, which then reads a checker
    (the real image014's start frames: row_pitch's 1.0 against 1.06-1.10 the stacks repeat at, five read six
    in most of its made-reference questions); a repeat found shorter than row_pitch's has not been seen right
    (the black-on-black image043: 0.95 for a row whose checkers lie 1.2 apart).  Measured (unseen6 dev,
    ``bench/vision_real.py --modes made``): 262 -> 274 of 280 true plays; its games (``bench/vision_game.py``)
    as before or better."""
    pitch = row_pitch(view, geo, st)
    period = stack_period(view, slot_geometry(geo.side, geo.height, pitch, geo.start, geo.lateral), st)
    return (pitch[0] if period[0] is None or period[0] < pitch[0] + PERIOD_LONGER else period[0],
            pitch[1] if period[1] is None or period[1] < pitch[1] + PERIOD_LONGER else period[1])
