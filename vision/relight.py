"""The light on the board moved since its look was learned: measure it, carry the looks into it.

A club table's light is not a tournament's: the sun moves across the table, a lamp is
switched on, a cloud passes, the webcam's auto-exposure and white balance follow, a standing
spectator's shadow falls on a quarter of the board.  The table's learned looks
(:mod:`vision.memory`) were seen under the light of their known frames; a new frame is
compared with them only once they are carried into its light.

The model, per channel ``c`` of a pixel's value ``v`` (0..255, as the camera gives it)::

    now = exp(gain[c] + field[slot]) * learned ** power[c]

a gain and a bend of the tone curve per channel (exposure, white balance, contrast: a
camera's own curves are of this form) and one factor per slot that varies smoothly over the
board (a gradient, a shadow).  It is fitted on the slots the last known position says still
hold what they held (a move changes a few of them, an arm some more): per channel by least
squares of the logarithms, then each slot's remaining factor; the field at a slot is the
median of its neighbours' factors, never its own (a slot's change must not explain itself
away), and a slot whose pixels disagree about their factor (a checker came or went) is left
out of the fit, twice round.  Values near black or clipped white say nothing of a gain and are
left out too; carried looks are clipped as the camera clips.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Optional, Union

import cv2
import numpy as np

LOW, HIGH = 10.0, 245.0   # values outside this range (near black, clipped white) are left out of the fit
REACH = 1.6               # pw: a slot's neighbours, whose factors give the field at it
ROUNDS = 3                # fits, each leaving out the slots the last one did not explain
DISAGREE = 0.12           # a slot whose pixels' factors spread more than this (log) beyond the usual is left out
OFF_FIELD = 0.15          # ... and one whose factor lies this far (log) from its neighbours'
POWER = (0.6, 1.6)        # the tone curve's bend kept within this
STEADY_POWER = 0.02       # the weight (a share of the pixels') that draws the bend towards none
EVERY = 2                 # the fit takes every second sample of a patch each way
PIXEL_OFF = 0.3           # log: a pixel this far from the fit so far is left out of the next (an edge that moved)
PROBES = np.log(np.array([30.0, 90.0, 160.0, 230.0]))  # values at which a light's change is measured


def lab_to_bgr(lab: np.ndarray) -> np.ndarray:
    """Patches in OpenCV's 8-bit Lab scale (as :func:`vision.memory.patches` gives them) back to
    BGR values 0..255, float32, the same shape."""
    flat = np.asarray(lab, np.float32).reshape(-1, 1, 3)
    scaled = (flat * np.array([100.0 / 255.0, 1.0, 1.0], np.float32) - np.array([0.0, 128.0, 128.0], np.float32))
    scaled = scaled.astype(np.float32)
    return (cv2.cvtColor(scaled, cv2.COLOR_Lab2BGR) * 255.0).reshape(np.shape(lab))


def bgr_to_lab(bgr: np.ndarray) -> np.ndarray:
    """BGR values 0..255 (float) to OpenCV's 8-bit Lab scale, float32, the same shape."""
    flat = (np.asarray(bgr, np.float32) / 255.0).reshape(-1, 1, 3)
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2Lab) * np.array([255.0 / 100.0, 1.0, 1.0], np.float32) \
        + np.array([0.0, 128.0, 128.0], np.float32)
    return lab.astype(np.float32).reshape(np.shape(bgr))


@dataclass(frozen=True)
class Light:
    """How the light changed from the learned looks' to a frame's: per channel a log gain and a
    tone curve's power, per slot a log factor (the field)."""

    gain: np.ndarray    # (3,) log, B G R
    power: np.ndarray   # (3,)
    field: np.ndarray   # (slots,) log

    def carry(self, bgr: np.ndarray, field: Optional[np.ndarray] = None) -> np.ndarray:
        """Learned values (slots, ..., 3), BGR 0..255, as this light shows them (clipped as a
        camera does); ``field``: the log factor of each first index instead of :attr:`field`
        (places other than the slots: the frame band's segments)."""
        f = (self.field if field is None else field).reshape((-1,) + (1,) * (bgr.ndim - 1))
        logs = np.log(np.maximum(np.asarray(bgr, np.float32), 1.0))
        return np.clip(np.exp(self.gain + f + logs * self.power), 0.0, 255.0).astype(np.float32)

    @cached_property
    def change(self) -> float:
        """The largest change (log) this light makes at any slot to a dark, middle or bright value."""
        curve = self.gain[None, :] + (self.power[None, :] - 1.0) * PROBES[:, None]
        lo, hi = float(self.field.min(initial=0.0)), float(self.field.max(initial=0.0))
        return max(float(np.abs(curve + lo).max()), float(np.abs(curve + hi).max()))


def steady(slots: int) -> Light:
    """No change of light."""
    return Light(np.zeros(3, np.float32), np.ones(3, np.float32), np.zeros(slots, np.float32))


def neighbours(centres: np.ndarray, at: np.ndarray, reach: float = REACH) -> np.ndarray:
    """(len(centres), len(at)) True where a fitting slot (``at``, pw) lies within ``reach`` of a
    slot, itself left out (no distance 0)."""
    d = np.hypot(centres[:, None, 0] - at[None, :, 0], centres[:, None, 1] - at[None, :, 1])
    return (d <= reach) & (d > 1e-6)


def _row_medians(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per row, the (lower) median of ``values`` where ``mask``; 0 for a row with none (a sort
    with the rest pushed past the end: ``np.nanmedian``'s work without its slow path)."""
    n = mask.sum(axis=1)
    ranked = np.sort(np.where(mask, values, np.inf), axis=1)
    out = ranked[np.arange(len(ranked)), np.maximum(n - 1, 0) // 2]
    return np.where(n > 0, out, 0.0).astype(np.float32)


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-d array (the same value: the middle one, or the mean of the
    middle two in the array's own type), without its general path's cost (a tenth of a
    millisecond a call, ten calls a fit)."""
    flat = np.ravel(values)
    k = flat.size // 2
    if flat.size % 2:
        return float(np.partition(flat, k)[k])
    part = np.partition(flat, (k - 1, k))
    return float((part[k - 1] + part[k]) / 2)


Near = Union[np.ndarray, tuple[np.ndarray, np.ndarray]]  # :func:`neighbours`, or the same as :func:`near_lists`


def near_lists(near: Near) -> tuple[np.ndarray, np.ndarray]:
    """``near`` (rows, m) as each row's neighbours listed (rows, most): their columns, and
    whether each entry is one (a row with fewer is padded); :func:`_near_median` then sorts a
    dozen values a row, not every fitting slot's.  Lists are given back as they are (a caller
    keeps them for the fitting slots of a known position)."""
    if isinstance(near, tuple):
        return near
    most = max(1, int(near.sum(axis=1).max(initial=0)))
    if most >= near.shape[1]:
        return np.broadcast_to(np.arange(near.shape[1]), near.shape), near
    cols = np.argpartition(~near, most - 1, axis=1)[:, :most]   # a median needs no order
    return cols, np.take_along_axis(near, cols, axis=1)


def _near_median(values: np.ndarray, near: tuple[np.ndarray, np.ndarray], use: np.ndarray) -> np.ndarray:
    """Per row of ``near`` (:func:`near_lists`), the median of ``values`` over its neighbours
    that are ``use``d (0 where none)."""
    cols, real = near
    return _row_medians(values[cols], real & use[cols])


def _curve(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """The gain and power (logs ``y = gain + power * x``) of one channel by weighted least squares,
    the power drawn towards 1 by :data:`STEADY_POWER` and kept within :data:`POWER`."""
    sw = float(w.sum())
    if sw <= 0:
        return 0.0, 1.0
    mx, my = float((w * x).sum()) / sw, float((w * y).sum()) / sw
    sxx = float((w * (x - mx) ** 2).sum())
    sxy = float((w * (x - mx) * (y - my)).sum())
    prior = STEADY_POWER * sw
    p = float(np.clip((sxy + prior) / (sxx + prior), *POWER))
    return my - p * mx, p


def slot_levels(patches: np.ndarray) -> np.ndarray:
    """(m, 3): each patch's (m, P, P, 3; BGR 0..255) mean value per channel, as a log: what
    :func:`light_moved` compares between two frames."""
    per = patches.shape[1] * patches.shape[2]
    sums = patches.sum(axis=1, dtype=np.uint32 if patches.dtype == np.uint8 else np.float64).sum(axis=1)
    return np.log(np.maximum(sums / per, 1.0)).astype(np.float32)


def light_moved(before: np.ndarray, now: np.ndarray, near: tuple[np.ndarray, np.ndarray]) -> float:
    """How far the light moved between two frames of the same slots (their :func:`slot_levels`):
    the largest change (log) of any channel at any slot's neighbourhood (``near``: the slots'
    :func:`neighbours` among themselves, as :func:`near_lists` lists them), each the median of
    its neighbours' changes as the fit's field is.  A checker that came or went changes its own
    slot, not its neighbourhood's median; a light's change, a gradient's or a shadow's changes
    every slot under it.  A few hundredths of a millisecond against a fit's two."""
    cols, real = near
    change = (now - before)[cols]                                   # (m, most, 3)
    per = np.moveaxis(change, 2, 0).reshape(-1, cols.shape[1])      # each channel's rows in turn
    medians = _row_medians(per, np.broadcast_to(real, (change.shape[2],) + real.shape).reshape(per.shape))
    return float(np.abs(medians).max(initial=0.0))


def fit_light(learned: np.ndarray, now: np.ndarray, near_fit: Near, near_all: Near) -> Light:
    """The light that carries the ``learned`` looks (m, P, P, 3; BGR 0..255) of the fitting slots
    into ``now`` (their patches in the new frame, the same shape); ``near_fit`` (m, m) and
    ``near_all`` (slots, m): :func:`neighbours` of the fitting slots among themselves and of
    every slot (or the same as :func:`near_lists`).  The field is given for every slot.

    Each pixel counts as much as its learned value says (a dark value's logarithm is noisy), a
    pixel further than :data:`PIXEL_OFF` from the fit so far not at all (an edge a nudged
    checker moved)."""
    m = len(learned)
    # every second sample of each patch, each way: a quarter of the work, as many slots
    lv = np.ascontiguousarray(learned[:, ::EVERY, ::EVERY], np.float32).reshape(m, -1, 3)
    nv = np.ascontiguousarray(now[:, ::EVERY, ::EVERY], np.float32).reshape(m, -1, 3)
    x, y = np.log(np.maximum(lv, 1.0)), np.log(np.maximum(nv, 1.0))
    valid = (lv > LOW) & (lv < HIGH) & (nv > LOW) & (nv < HIGH)
    weight = lv / 255.0
    use = valid.reshape(m, -1).mean(axis=1) > 0.25
    gain, power = np.zeros(3, np.float32), np.ones(3, np.float32)
    ratio = y - x
    for c in range(3):   # a start: the median ratio of each channel
        ok = valid[:, :, c] & use[:, None]
        if ok.any():
            gain[c] = _median(ratio[:, :, c][ok])
    field = np.zeros(m, np.float32)
    own = np.zeros(m, np.float32)
    fit_lists = near_lists(near_fit)
    for _ in range(ROUNDS):
        if use.sum() < 8:
            return steady(len(near_all))
        yf = y - field[:, None, None]
        inlier = valid & (np.abs(yf - (gain + power * x)) <= PIXEL_OFF) & use[:, None, None]
        for c in range(3):
            ok = inlier[:, :, c]
            if ok.sum() >= 50:
                gain[c], power[c] = _curve(x[:, :, c][ok], yf[:, :, c][ok], weight[:, :, c][ok])
        r = (y - (gain + power * x)).reshape(m, -1)
        ok = valid.reshape(m, -1)
        have = ok.any(axis=1)
        own = _row_medians(r, ok)
        spread = np.where(have, _row_medians(np.abs(r - own[:, None]), ok), np.inf).astype(np.float32)
        base = _median(spread[use & have]) if (use & have).any() else 0.0
        field = _near_median(own, fit_lists, use & have)
        use = have & (spread <= base + DISAGREE) & (np.abs(own - field) <= OFF_FIELD)
        if use.any():   # the field's level belongs to the gain
            level = _median(field[use])
            gain += level
            field -= level
            own -= level
    return Light(gain.astype(np.float32), power.astype(np.float32), _near_median(own, near_lists(near_all), use))
