"""Stage 3, colours: each checker's centre colour (Lab), split in two clusters; the darker is
``dark``.  Shadows and glare move lightness, not hue: a checker whose hue points to the other
colour is unsure.  Pure functions of the view and the samples.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

import cv2
import numpy as np

from .order import median_axis
from .params import DEFAULT, ReadParams
from .rectify import View
from .stacks import Checker


LIGHTNESS_GAP = 20.0    # Lab lightness between two colours told by lightness alone (points' means)
LIGHTNESS_CLEAR = 2.0   # ... and that many times the wider colour's spread of points' means


def colour_samples(view: View, checkers: list[Checker], radius: float = 0.18) -> np.ndarray:
    """Stage 3a: each checker's centre colour in Lab (n x 3), its lightness taken relative to
    the neighbourhood so that a light checker in a shadow stays light."""
    if not checkers:
        return np.zeros((0, 3), np.float32)
    img = view.image
    h, w = img.shape[:2]
    # the light falling on the board, roughly: the mean lightness of a few point widths around
    # (from every 4th pixel: a mean over blocks of 3 point widths hardly changes)
    step = max(1, view.px // 8)
    grey = cv2.cvtColor(np.ascontiguousarray(img[::step, ::step]), cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, (max(1, w // (3 * view.px)), max(1, h // (3 * view.px))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.0)
    ref = float(np.median(small))
    r = max(1, int(radius * view.px))
    xy = np.array([view.to_px(ch.x, ch.y) for ch in checkers], np.float32)
    xi = np.rint(xy[:, 0]).astype(np.int32)
    yi = np.rint(xy[:, 1]).astype(np.int32)
    off = np.arange(-r, r + 1, dtype=np.int32)
    # each checker's (2r+1)^2 patch, clipped at the image edges (a clipped patch repeats its edge)
    py = np.clip(yi[:, None, None] + off[None, :, None], 0, h - 1)
    px_ = np.clip(xi[:, None, None] + off[None, None, :], 0, w - 1)
    patches = img[py, px_].reshape(len(checkers), -1, 3)
    mid = patches.shape[1] // 2   # an odd count: the median is the middle value
    bgr = np.partition(patches, mid, axis=1)[:, mid]
    sx = np.clip((xy[:, 0] / w * small.shape[1]).astype(np.int32), 0, small.shape[1] - 1)
    sy = np.clip((xy[:, 1] / h * small.shape[0]).astype(np.int32), 0, small.shape[0] - 1)
    gain = ref / np.maximum(8.0, small[sy, sx])
    lab = cv2.cvtColor(np.array(bgr, np.uint8)[None], cv2.COLOR_BGR2Lab)[0].astype(np.float32)
    lab[:, 0] *= np.array(gain, np.float32)
    return lab


@dataclass(frozen=True)
class ColourModel:
    """The two checker colours (Lab centres); ``dark`` is the one with lower lightness."""

    dark: tuple[float, float, float]
    light: tuple[float, float, float]

    def classify(self, samples: np.ndarray, params: ReadParams = DEFAULT) -> tuple[np.ndarray, np.ndarray]:
        """Labels (0 dark, 1 light) and a margin in 0..1 per sample (``params``: ``l_weight``,
        ``hue_sep``, ``hue_clear``, ``colour_knee``)."""
        if len(samples) == 0:
            return np.zeros(0, int), np.zeros(0)
        w = np.array([params.l_weight, 1.0, 1.0], np.float32)  # light and shadow move lightness most
        d0 = np.linalg.norm((samples - np.array(self.dark)) * w, axis=1)
        d1 = np.linalg.norm((samples - np.array(self.light)) * w, axis=1)
        lab = (d1 < d0).astype(int)
        margin = np.abs(d0 - d1) / (d0 + d1 + 1e-6)
        # shadows and glare move lightness most: where the two colours differ clearly in hue
        # too, a sample whose hue points to the other colour is unsure
        ab = samples[:, 1:] - np.array(self.dark[1:])
        sep = np.array(self.light[1:]) - np.array(self.dark[1:])
        if float(np.linalg.norm(sep)) >= params.hue_sep:
            t = ab @ sep / float(sep @ sep)   # 0 at dark's hue, 1 at light's
            against = np.where(lab == 1, t < 0.5 - params.hue_clear, t > 0.5 + params.hue_clear)
            margin = np.where(against, np.minimum(margin, params.colour_knee / 2), margin)
        return lab, margin

    @property
    def separation(self) -> float:
        """How far apart the two checker colours lie (Lab distance between their centres)."""
        return float(np.linalg.norm(np.array(self.dark) - np.array(self.light)))


def hue_outliers(samples: np.ndarray, labels: np.ndarray, params: ReadParams = DEFAULT) -> np.ndarray:
    """The samples whose hue (Lab a, b) neither colour of this frame explains: further than
    ``params.colour_outlier`` robust standard deviations from the median hue of the checkers given
    their colour.  The deviation is the lower quartile of their distances from it / 0.3186 (a normal
    spread's), at least ``params.colour_spread``: a quartile, not the median, since a dice cup read
    as five checkers of a colour is a third of that colour's samples (``felt`` read without its
    proportions: the median's spread took the cups in, 4.5 deviations).

    Glare on a glossy red checker washes it pink-white: nearer the cream checkers in every channel
    (``vertical``'s blot: a = 146 against the cream's 124-126 and the red's 182-191), so it is given
    the light colour with a fair margin, and the referee then sees a light checker where none can
    be.  But the cream checkers' hue is tight, and no cream checker under this light is that pink:
    its colour is one the set does not show, so the odds doubt it (:func:`vision.assemble.assemble`:
    the referee then weighs the move by the count; the reading itself keeps its colour and
    confidence, which settle the totals).  Lightness is left out (light and shadow move it most);
    a colour given to fewer than ``params.colour_spread_min`` checkers is not judged (no spread
    to judge by)."""
    odd = np.zeros(len(samples), bool)
    for k in (0, 1):
        mine = np.flatnonzero(labels == k)
        if len(mine) < params.colour_spread_min:
            continue
        hue = samples[mine, 1:].astype(np.float64)
        centre = np.median(hue, axis=0)
        dev = np.abs(hue - centre)
        spread = np.maximum(np.percentile(dev, 25, axis=0) / 0.3186, params.colour_spread)
        odd[mine] = (dev / spread).max(axis=1) > params.colour_outlier
    return odd


def axis_split(s: np.ndarray) -> np.ndarray:
    """Labels 0/1 for samples (n >= 2, rows) cut in two along their main axis where the two
    sides are most apart for their spread: the cut maximising (mean gap)^2 / (var_a + var_b
    + 25), every cut at once from prefix sums (a lone sample of another colour forms a side)."""
    centred = s - s.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    proj = centred @ axis
    order = np.argsort(proj)
    p = proj[order].astype(np.float64)
    n = len(p)
    k = np.arange(1, n)
    c1, c2 = np.cumsum(p)[:-1], np.cumsum(p * p)[:-1]
    t1, t2 = float(p.sum()), float((p * p).sum())
    ma, mb = c1 / k, (t1 - c1) / (n - k)
    va = np.maximum(c2 / k - ma * ma, 0.0)
    vb = np.maximum((t2 - c2) / (n - k) - mb * mb, 0.0)
    cut = int(k[int(np.argmax((ma - mb) ** 2 / (va + vb + 25.0)))])
    lab = np.zeros(n, int)
    lab[order[cut:]] = 1
    return lab


def learn_colours(samples: np.ndarray, params: ReadParams = DEFAULT) -> Optional[ColourModel]:
    """Stage 3b: two clusters of checker colours, or None when the samples hold only one.

    Lightness is weighed less (light and shadow move it most).  The samples are split
    along their main axis where the two sides are most apart for their spread (a single
    checker of the other colour counts; a glare-lit one of the same colour does not), then
    refined by 2-means; clusters closer than ``colour_min_gap`` are one colour.
    """
    if len(samples) < 2:
        return None
    w = np.array([params.l_weight, 1.0, 1.0], np.float32)
    s = samples.astype(np.float32) * w
    lab = axis_split(s)
    c = np.stack([median_axis(s[lab == 0], 0), median_axis(s[lab == 1], 0)])
    for _ in range(5):
        prev = lab
        lab = (np.linalg.norm(s - c[1], axis=1) < np.linalg.norm(s - c[0], axis=1)).astype(int)
        if lab.min() == lab.max():
            return None
        if np.array_equal(lab, prev):
            break   # settled: the same split gives the same centres, every further round alike
        c = np.stack([median_axis(s[lab == 0], 0), median_axis(s[lab == 1], 0)])
    if np.linalg.norm(c[0] - c[1]) < params.colour_min_gap:
        return None
    c = c / w
    if c[0][0] > c[1][0]:
        c = c[::-1]
    return ColourModel(tuple(map(float, c[0])), tuple(map(float, c[1])))  # type: ignore[arg-type]


def split_by_lightness(samples: np.ndarray, points: Sequence[int]) -> Optional[ColourModel]:
    """Two colours told apart by lightness alone, where :func:`learn_colours` saw one: grey and
    cream mother-of-pearl share a hue, and lightness (weighed less, since light and shadow move it
    most) keeps them under ``colour_min_gap`` (``template3``: 24 against 40).  Only where more
    than 15 checkers are seen: then both colours are there for certain.  With 15 or fewer the
    board may hold one colour (a game's end), and uneven light or glare over it splits its
    lightness just as clearly (rendered one-colour boards: a lit corner 22 over the rest, glare
    doubling a black checker's).  A point holds one colour, so the evidence is the points' mean
    lightness, not the checkers': the two colours are taken when the points' means fall in two
    groups (two points at least each) whose gap is at least ``LIGHTNESS_GAP`` and
    ``LIGHTNESS_CLEAR`` times the wider group's own spread.  ``points``: each sample's point (any
    number; negative for a sample on no point, such as the bar's, counted but left out of the
    test)."""
    pts = np.asarray(points)
    keys = sorted({int(k) for k in pts if k >= 0})
    if len(samples) <= 15 or len(keys) < 4:
        return None
    means = np.array([float(samples[pts == k, 0].mean()) for k in keys])
    order = np.sort(means)
    cut = int(np.argmax(np.diff(order)))
    low, high = order[:cut + 1], order[cut + 1:]
    gap = float(high[0] - low[-1])
    spread = max(float(low[-1] - low[0]), float(high[-1] - high[0]))
    if len(low) < 2 or len(high) < 2 or gap < LIGHTNESS_GAP or gap < LIGHTNESS_CLEAR * spread:
        return None
    at = (low[-1] + high[0]) / 2
    dark = samples[samples[:, 0] < at]
    light = samples[samples[:, 0] >= at]
    c0, c1 = median_axis(dark, 0), median_axis(light, 0)
    return ColourModel(tuple(map(float, c0)), tuple(map(float, c1)))  # type: ignore[arg-type]


def fallback_model() -> ColourModel:
    """Used when a frame shows one colour only and nothing was learned: split at mid-grey."""
    return ColourModel((40.0, 128.0, 128.0), (215.0, 128.0, 128.0))


def _compatible(a: ColourModel, b: ColourModel) -> bool:
    """A freshly learned model agrees with the stored one (same dark/light order)."""
    return bool(np.linalg.norm(np.array(a.dark) - np.array(b.dark))
                < np.linalg.norm(np.array(a.dark) - np.array(b.light)))
