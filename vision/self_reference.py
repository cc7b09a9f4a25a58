"""Without a reference frame: the frame teaches itself, under the position before the move.

A referee who has never seen this board still knows the position before the move, and a
move changes few points (at most eight of the 24; most moves four or fewer).  So the frame
after the move shows, on most of its slots, exactly what the position before says, and those
slots teach what this board looks like: a dark checker, a light one, an empty slot of each
triangle colour, under this light, on this wood.  Each point is then read with looks learned
from *the other points only* (leave one point out), so a point never explains itself:

* a taken slot is compared with the median look of the slots of other points (same row
  first: the light falls on the two rows differently) that held a checker of that colour;
* an empty slot with the median look of up to three nearest points of its triangle colour,
  at the same distance from the base, that were empty;
* patches are compared by colour and by their lightness pattern (a light checker on a light
  triangle differs in its rim and shading more than in colour);
* the medians shrug off the few slots the move changed, since those are a minority; and a
  second pass leaves out the slots that look more like another state than the one they held
  (the changed ones), then makes the looks again from the rest;
* a colour's look comes from at least :data:`MIN_POINTS` other points (one point's checkers
  share its light and shadows), else from both rows, the other row's turned upside down;
  patches may shift by :data:`SELF_SHIFT` samples (another point's checkers sit off their
  slot more than one point's checker is nudged between two frames);
* the distances become likelihoods on the scale the frame itself shows (how far the slots
  stray from the looks of the state they held before: a checker's the median slot's, an empty
  slot's the 75th percentile's, :data:`SCALE_SHARE`), as
  :class:`~vision.memory.BoardMemory` does with the scale of its known frames; capped at
  :data:`SCALE_MAX` only when the state's slots lie :data:`APART` times further from the other
  states' looks than from their own (a wooden set, light checkers on light points: the frame
  tells the states apart only as far as its own scale says, and a cap would make its wrong
  points sure);
* a slot like none of the looks (a die, a logo, a finger) tells nothing;
* checkers lie on the board or on each other: a checker's look above a base that looks empty
  (by :data:`FLOAT_NATS`) is something else lying there (a dice cup, a hand) and tells nothing,
  while the base still tells what it shows;
* each row's checkers are laid at the spacing and from the start the frame's own known stacks
  show (:func:`~vision.row_pitch.row_pitch`, :func:`~vision.row_pitch.row_start`): a steep view
  foreshortens its near row, and in a photo from in front the far frame's wall hides the field's
  edge, so the far row's checkers begin a third of a point width inside the edge seen (a base slot
  at the edge would hold half a checker and half the wall); seen obliquely a checker's face stands
  off the board and a row may begin before the base too (:data:`SELF_STARTS`: the real image045's
  top row 0.4 pw before it, its checker boxes 0.31; the stock rendering image025, its pieces reaching
  over the frame, had its corner points misread and another roll's play accepted without it, once
  its frame was read: session 51, ``tests/vision/test_vision_refusals.py``); and each quarter's slots are laid on
  its points' own axes, where its triangles and stacks look symmetric (:mod:`vision.lateral`: the
  corners given may put a quarter a third of a point width off, and another point's look then
  does not fit it);
* a move adds to or takes from a point at most :data:`MOVE_MAX` checkers (a double's four
  steps), and when the roll is known at most as many as its steps (two for a plain roll: the
  referee always knows it): a point whose slots read further from what it held before is
  misread by this frame's looks (a shadowed column read as six dark checkers, a dice cup lying
  on a stack's top read as more checkers of its colour) and tells nothing, for every count of
  either colour alike.

The bar is not read this way (an empty bar's look is only the bar's own, which may now hold
a checker): its odds are flat, and the absolute reading of the bar, by its own confidence,
weighs more than beside a learned look (:attr:`SelfReference.bar_share`), the points deciding
the rest (a hit always changes a point too).  Nor is a point's colour where the absolute reading
found a checker whose hue neither colour shows (:func:`vision.colours.hue_outliers`: glare
washing a red checker pink): other points' checkers are what such a checker does not look like,
so the frame's looks tell its count only (:meth:`SelfReference.colours_taught`,
:func:`vision.odds.colour_blind`) and the absolute reading, doubting it, leans.  Both on the real
labelled sets (``bench/vision_real.py --cases 5 --modes self``): unseen3 121 -> 132 true plays of
160 (vertical's washed blot, redcream's), every other set as it was, none wrong.

A frame's own look is this board's less surely than one learned from known frames (light
checkers on light wood look like the bare wood beside them, from the other points' slots), so
the absolute reading tilts its odds twice as far (:data:`~vision.odds.SELF_TILT`, not
:data:`~vision.odds.TILT`): on the real labelled sets (``bench/vision_real.py --cases 5``), true
plays 82 -> 91 of 320 on the unseen boards (the held-out half 36 -> 38 of 120), 296 -> 314 of
360 on the tuned ones, none wrong (at a fifth of the tilt, 0.02, one illegal board was accepted).

The result is a :class:`SelfReference`, which a :class:`~vision.reader.BoardReader` uses in
place of a learned memory (``reader.assume(before)``): the referee's likelihood verdict then
works on a frame of a board nobody has seen, with no reference.  Pure: arrays in, arrays out.
"""
from __future__ import annotations

import math
from typing import Optional

import numpy as np

from . import layout as L
from .memory import (DARK, EMPTY, FLOOR, FOREIGN, LIGHT, SHARPNESS, BoardMemory, _core, _dist, _shifted_dist,
                     patches, slot_geometry)
from .odds import SELF_TILT
from .errors import ConfigError
from .lateral import quarter_lateral
from .row_pitch import PITCH_GAIN, PITCHES, STARTS, row_pitch, row_start
from .rectify import View
from .triangles import find_flips, triangle_mates

NEAREST = 3        # empty looks: from up to this many nearest points of the same triangle colour
MIN_EMPTY = 3      # empty looks: the other row's too when this row has fewer donors than this
MIN_DONORS = 3     # checker looks: the same row's when it has this many slots of the colour ...
MIN_POINTS = 2     # ... on this many other points (one point's checkers share its light, shadows), else both rows'
COVERED_SELF = 16  # foreign slots that mean a hand or an arm lies over the board (logos make a few)
SELF_SHIFT = 2     # samples a patch may be shifted by: another point's checkers lie off its slot more than a
                   # checker is nudged between two frames of one point
SCALE_SHARE = (75, 50, 50)  # per state (empty, dark, light), the percentile of its slots' distances from
                   # their own look taken as its scale: a checker's look is the median of many checkers, so
                   # the median slot tells its spread; an empty slot's is borrowed from three points whose
                   # triangles differ slot by slot, so a wider share (a rendered board's own tips and edges)
STRAY_SHARE = 75   # how far a state's slots stray at most, but for the few the move changed (a slot further
                   # from every look than a few times this is like none of them)
SCALE_MAX = 30.0   # the most a state's scale is taken to be (Lab units) ...
APART = 2.0        # ... when its slots lie this many times further from the other states' looks than from its own
SELF_STARTS = (-0.4, -0.3, -0.2, -0.1, 0.1, 0.2, 0.3, 0.4)   # where a row's checkers may begin (pw from the
                   # base; before it: a checker's face seen obliquely, vision.row_pitch.row_begins), besides 0
SELF_ENDS = 6      # stack ends a row must show for its spacing to be measured (vision.row_pitch.row_pitch)
UNSURE_SLOT = -2   # a slot whose look teaches nothing (it looks like another state than it held before)
FLOAT_NATS = 0.5   # how surely the slots from a point's base must look empty for a checker's look above them to float
MOVE_MAX = 4       # checkers one move adds to or takes from a point (a double's four steps)


def move_max(dice: Optional[tuple[int, int]]) -> int:
    """The most checkers one move of ``dice`` adds to or takes from a point: its steps (two for
    a plain roll, four for a double); :data:`MOVE_MAX` when the roll is not known."""
    if dice is None:
        return MOVE_MAX
    a, b = dice
    if not (1 <= a <= 6 and 1 <= b <= 6):
        raise ConfigError(f"dice {dice!r}: each die shows 1 to 6")
    return 4 if a == b else 2


def _structure(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The colour distance of :func:`vision.memory._dist` plus the lightness pattern's (each
    patch less its mean): another point's look matches in colour only roughly (its wood, its
    light), so a checker's rim and shading on a triangle of its own colour must tell too."""
    la = a[..., 0] - a[..., 0].mean(axis=(-1, -2), keepdims=True)
    lb = b[..., 0] - b[..., 0].mean(axis=(-1, -2), keepdims=True)
    return _dist(a, b) + np.abs(la - lb).mean(axis=(-1, -2))


class SelfReference(BoardMemory):
    """A board memory learned from one frame under the position it showed before a move."""

    tilt = SELF_TILT   # the absolute reading tilts a frame's own look twice as far as a learned one
    bar_share = 0.3       # the bar's look is not taught (only the bar shows it): the absolute reading weighs more

    def __init__(self, view: View, before: L.RowReading, checker: float = L.CHECKER,
                 height: float = L.HEIGHT, dice: Optional[tuple[int, int]] = None,
                 before_base: bool = True) -> None:
        super().__init__(checker, height)
        self.view = view
        self.move_max = move_max(dice)   # the most checkers the move adds to or takes from a point
        per = self.geo.per_point
        n_points = 24 * per
        st = self.states_of(before)
        self._before = st.copy()
        # each row's spacing, as a known frame shows it (most slots still do); only a foreshortened
        # row's, from four stacks or more, at the longer spacings' gain (a frame under a position a
        # move changed says less: at SHORTER_GAIN the tuned fresh frames lost 4 true plays of 200)
        pitch = row_pitch(view, self.geo, st, [f for f in PITCHES if 0.8 < f < 1], SELF_ENDS, PITCH_GAIN)
        if pitch != self.geo.pitch:
            self.geo = slot_geometry(self.geo.side, self.geo.height, pitch)
        # ... and where each row's checkers begin (a photo's far wall hides the field's edge)
        # (from before the bases too unless ``before_base`` is False: the set-up check's rows, BoardReader.assume)
        start = row_start(view, self.geo, st, starts=SELF_STARTS if before_base else STARTS, ends=SELF_ENDS)
        if start != self.geo.start:
            self.geo = slot_geometry(self.geo.side, self.geo.height, self.geo.pitch, start)
        # ... and each quarter's slots on its points' own axes (the corners given may put them a
        # little off: vision.lateral)
        lateral = quarter_lateral(view, self.geo)
        if any(lateral):
            self.geo = slot_geometry(self.geo.side, self.geo.height, self.geo.pitch, self.geo.start, lateral)
        wide = patches(view, self.geo, SELF_SHIFT)
        core = _core(wide, SELF_SHIFT)
        self._have = np.array([(st[:n_points] == s).any() for s in (EMPTY, DARK, LIGHT)])
        self.flips = find_flips(core[:n_points], st[:n_points] == EMPTY, per,   # its triangle colours
                                self.geo.fits)
        seen = [s for s in (EMPTY, DARK, LIGHT) if self._have[s]]
        tpl = self._looks(core, st)
        # the slots the move changed look like another state than they held before: they are
        # left out of the looks, which are then made again from the slots that still show it
        d = _shifted_dist(wide[:n_points], tpl[:n_points], _structure)
        was = st[:n_points].astype(np.int64)
        own = d[np.arange(n_points), np.clip(was, 0, 2)]
        kept = st.copy()
        kept[:n_points][(was >= 0) & (own > d[:, seen].min(axis=1))] = UNSURE_SLOT
        # how many slots look like another state than the position before says: a move changes
        # a few; a slot geometry that does not fit this frame (a checker size misread) many
        self.misfits = int((kept != st).sum())
        if (kept != st).any():
            again = self._looks(core, kept)
            lost = np.asarray(~again.any(axis=(2, 3, 4)))   # a look no slot still teaches keeps the first one
            tpl = np.where(lost[:, :, None, None, None], tpl, again)
            d = _shifted_dist(wide[:n_points], tpl[:n_points], _structure)
        self._tpl = tpl
        self.seen[:n_points] = self._have[None, :]   # every point slot has a look of each state seen
        self.frames = 1
        # the scale: how far slots stray from the look of the state they held before (most
        # still hold it), per state, robustly: a checker's, the median (the 75th percentile took
        # the worst quarter's spread, light checkers on light points, for every checker, so a
        # checker on a bare point of the other colour told as little as one on its own colour)
        self._d = d
        self._stray = self.scales.copy()
        for s in (EMPTY, DARK, LIGHT):
            held = st[:n_points] == s
            own = d[held, s]
            if len(own) < 3:
                continue
            scale = float(np.percentile(own, SCALE_SHARE[s]))
            others = [o for o in seen if o != s]
            # a frame whose slots of this state lie nearly as close to another state's look as
            # to their own (wood on wood, light checkers on light points) tells the states apart
            # only as far as its own scale says: no cap then
            apart = float(np.median(d[held][:, others].min(axis=1)) / max(float(np.median(own)), 1e-3)) \
                if others else math.inf
            top = SCALE_MAX if apart >= APART else math.inf
            self.scales[s] = float(np.clip(scale, 1.5, top))
            self._stray[s] = float(np.clip(np.percentile(own, STRAY_SHARE), 1.5, top))

    def colours_taught(self) -> np.ndarray:
        """No point's colour looks were learned at its own slots: they are other points' checkers."""
        return np.zeros(24, bool)

    def _looks(self, core: np.ndarray, st: np.ndarray) -> np.ndarray:
        """Per point slot and state the look of the other points' slots that held it (``st``:
        each slot's state, :data:`UNSURE_SLOT` for a slot that teaches nothing)."""
        per = self.geo.per_point
        n_points = 24 * per
        tpl = np.zeros((len(st), 3, *core.shape[1:]), np.float32)
        point_of = np.arange(n_points) // per
        for p in range(24):
            mine = slice(p * per, (p + 1) * per)
            r = p // 12
            for s in (DARK, LIGHT):
                donors = np.flatnonzero((st[:n_points] == s) & (point_of != p))
                same = donors[point_of[donors] // 12 == r]
                if len(same) >= MIN_DONORS and len(np.unique(point_of[same])) >= MIN_POINTS:
                    tpl[mine, s] = np.median(core[same], axis=0)
                elif len(donors):  # the other row's checkers turned upside down, to stand as this row's do
                    other = donors[point_of[donors] // 12 != r]
                    looks = np.concatenate([core[same], core[other][:, ::-1]])
                    tpl[mine, s] = np.median(looks, axis=0)
            for k in range(per):
                tpl[p * per + k, EMPTY] = self._empty_look(core, st, p, k)
        return tpl

    def _empty_look(self, core: np.ndarray, st: np.ndarray, p: int, k: int) -> np.ndarray:
        """Slot ``k`` of point ``p`` empty: the median look of up to :data:`NEAREST` points of the
        same triangle colour (:mod:`vision.triangles`, as this frame's empty slots show them) that were
        empty there, this row's first; the other row's triangles are turned upside down to stand as
        this row's do."""
        per = self.geo.per_point
        own, other = triangle_mates(p, self.flips)
        donors = [(q * per + k, False) for q in own if st[q * per + k] == EMPTY][:NEAREST]
        if len(donors) < MIN_EMPTY:
            donors += [(q * per + k, True) for q in other if st[q * per + k] == EMPTY][:NEAREST - len(donors)]
        if not donors:
            return np.zeros(core.shape[1:], np.float32)
        looks = np.stack([core[j][::-1] if flip else core[j] for j, flip in donors])
        return np.median(looks, axis=0)

    # ------------------------------------------------------------------ reading (this frame only)

    def _distances(self, view: View) -> np.ndarray:
        n_points = 24 * self.geo.per_point
        d = np.zeros((len(self.geo.centres), 3), np.float32)
        tpl = self._templates()
        d[:n_points] = self._d if view is self.view else _shifted_dist(patches(view, self.geo, SELF_SHIFT)[:n_points],
                                                                       tpl[:n_points], _structure)
        return d

    def strange(self, view: View) -> np.ndarray:
        """Point slots further from every look than :data:`~vision.memory.FOREIGN` of the way
        between those looks, and than four times the least of the states' strays
        (:data:`STRAY_SHARE`: a typical slot's distance, the scale, would call a clean frame's
        few odd slots foreign, and a hand over it); a die, a logo, a finger.  The bar's slots
        are never read here."""
        n_points = 24 * self.geo.per_point
        d = self._distances(view)[:n_points]
        dmin = d[:, self._have].min(axis=1)
        out = np.zeros(len(self.geo.centres), bool)
        out[:n_points] = dmin > np.maximum(FOREIGN * self._spread()[:n_points], 4 * float(self._stray.min()))
        return out

    def covered(self, view: View) -> bool:
        """A hand or an arm over the board: :data:`COVERED_SELF` or more point slots look foreign."""
        return int(self.foreign(view).sum()) >= COVERED_SELF

    def slot_likelihoods(self, view: View) -> np.ndarray:
        """(slots, 3) likelihood of each state at each point slot, on the frame's own scale;
        the bar's slots tell nothing, nor do the slots of a point :meth:`_misread`."""
        lik, misread = self._read_slots(view)
        per = self.geo.per_point
        for p in np.flatnonzero(misread).tolist():
            lik[p * per:(p + 1) * per] = 1.0
        return lik

    def _read_slots(self, view: View) -> tuple[np.ndarray, np.ndarray]:
        """The slots' likelihoods from the looks, the :meth:`_floating` ones flat; and the
        points :meth:`_misread`."""
        lik = self._looks_likelihoods(view)
        per = self.geo.per_point
        lik[:24 * per][self._floating(lik)] = 1.0
        return lik, self._misread(lik)

    def _floating(self, lik: np.ndarray) -> np.ndarray:
        """Per point slot, whether it looks like a checker above a base slot that looks empty:
        checkers lie on the board or on each other, so what floats there is something else (a
        cup, a hand, a shadow) and tells nothing; the base still tells what it shows."""
        per = self.geo.per_point
        pts = lik[:24 * per].reshape(24, per, 3)
        best = pts.argmax(axis=2)
        base = np.minimum.accumulate(best == EMPTY, axis=1)      # the run of empty looks from the base
        out = np.zeros((24, per), bool)
        for c in (DARK, LIGHT):
            sure = (np.log(pts[:, :, EMPTY] / pts[:, :, c]) * base).sum(axis=1) >= FLOAT_NATS
            out |= sure[:, None] & (best == c)
        return out.reshape(-1)

    def _looks_likelihoods(self, view: View) -> np.ndarray:
        """(slots, 3) likelihood of each state at each point slot, from the looks alone."""
        d = self._distances(view)
        tau = self.scales[None, :]
        ll = -SHARPNESS * (d / tau + np.log(tau))
        ll -= ll.max(axis=1, keepdims=True)
        lik = np.exp(np.maximum(ll, -40.0)) + FLOOR
        lik[:, ~self._have] = 1.0
        lik[self.strange(view)] = 1.0
        lik[self.geo.bar_start:] = 1.0
        return lik

    def _misread(self, lik: np.ndarray) -> np.ndarray:
        """Per point, whether its slots show what no stack or no move makes: a checker's look
        above a slot that looks empty (checkers lie on the board or on each other: a cup, a
        hand, a shadow), or a stack more than :attr:`move_max` checkers from what the point held
        before (no move does that: this frame's looks are wrong there).  Such a point tells nothing."""
        per = self.geo.per_point
        logs = np.log(lik[:24 * per]).reshape(24, per, 3)
        rest = np.zeros((24, per + 1))
        rest[:, :per] = np.cumsum(logs[:, ::-1, EMPTY], axis=1)[:, ::-1]
        hyp = np.concatenate([np.cumsum(logs[:, :, DARK], axis=1) + rest[:, 1:],
                              np.cumsum(logs[:, :, LIGHT], axis=1) + rest[:, 1:], rest[:, :1]], axis=1)
        k = hyp.argmax(axis=1)
        n = np.where(k < 2 * per, k % per + 1, 0)
        colour = np.where(k < per, DARK, np.where(k < 2 * per, LIGHT, EMPTY))
        was = self._before[:24 * per].reshape(24, per)
        n0 = (was > EMPTY).sum(axis=1)
        c0 = was[:, 0]
        same = (colour == c0) | (n == 0) | (n0 == 0)
        changed = np.where(same, np.abs(n - n0), n + n0)
        far = changed > self.move_max + ((n0 == 1) & ~same)   # (a hit blot leaves as the mover's come)
        return far

    def odds(self, view: View, max_alts: int = 6):
        """As :meth:`BoardMemory.odds`, with the bar's counts flat (not read from this frame); a
        point's alternatives tied with the last one listed are listed too (a point that tells
        nothing, :meth:`_misread` or under a hand, lists every count of either colour: the first
        few of a tie would say "dark" where the frame says nothing)."""
        points, _, empty = super().odds(view, 2 * self.geo.per_point + 1)
        for p, alts in enumerate(points):
            if len(alts) > max_alts:
                last = alts[max_alts - 1][2]
                points[p] = [a for k, a in enumerate(alts) if k < max_alts or a[2] >= last * (1 - 1e-6)]
        flat = [1.0 / 7] * 7
        return points, [flat, list(flat)], empty

    def save(self, path: str) -> None:  # pragma: no cover - a frame's own look is not kept
        """Refused: a frame's self-taught look is not a table's memory and is never kept."""
        raise TypeError("a frame's self-reference is not a table's memory: it is not saved")


__all__ = ["SelfReference"]
