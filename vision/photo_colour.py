"""The two checker colours of a photo, learned from the checkers' faces (for :mod:`vision.photos`).

The idea of :func:`vision.colours.learn_colours` with its own settings, so the photo path does
not move when the reader's tuning does: face samples (Lab medians) split in two along
their main axis (the reader's :func:`~vision.colours.axis_split`), refined by 2-means,
lightness weighed half (light and shadow move it most).  Unlike the reader's it always splits: a photo
of a backgammon board shows both
colours, and a washed-out photo whose two colours are close must still be told apart.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .read import axis_split

L_WEIGHT = 0.5  # lightness against the two colour axes (a shadow moves lightness, not hue)
WEIGHTS = np.array([L_WEIGHT, 1.0, 1.0], np.float32)


@dataclass(frozen=True)
class FaceColours:
    """Two Lab centres (in weighted Lab: lightness halved); ``dark`` has the lower lightness."""

    dark: tuple[float, float, float]
    light: tuple[float, float, float]

    def _dist(self, samples: np.ndarray) -> np.ndarray:
        s = np.asarray(samples, np.float32).reshape(-1, 3) * WEIGHTS
        c = np.array([self.dark, self.light], np.float32)
        return np.linalg.norm(s[:, None, :] - c[None, :, :], axis=2)

    def classify(self, samples: np.ndarray) -> np.ndarray:
        """0 (dark) or 1 (light) per Lab sample: the nearer centre."""
        return self._dist(samples).argmin(axis=1).astype(int)

    def distance(self, samples: np.ndarray) -> np.ndarray:
        """Weighted Lab distance of each sample to the nearer centre (how checker-like its face is)."""
        return self._dist(samples).min(axis=1)

    def likeness(self, lab: np.ndarray, light: bool, scale: float) -> np.ndarray:
        """An 8-bit map of a Lab image: 255 where a pixel has this colour, falling by ``scale``
        per unit of weighted Lab distance.  A checker of the colour is a bright disc on it
        even where its grey-level rim is faint (same lightness as the board, other hue)."""
        c = np.array(self.light if light else self.dark, np.float32)
        d = np.linalg.norm(lab.reshape(-1, 3).astype(np.float32) * WEIGHTS - c, axis=1)
        return np.clip(255.0 - scale * d, 0, 255).astype(np.uint8).reshape(lab.shape[:2])


def split_colours(samples: np.ndarray, rounds: int = 8) -> FaceColours | None:
    """Two colour centres from Lab face samples (n x 3); None with fewer than two samples.

    The first cut is where the two sides of the main axis are most apart for their spread
    (a lone checker of the other colour still forms a side); 2-means refines it.
    """
    s = np.asarray(samples, np.float32).reshape(-1, 3) * WEIGHTS
    if len(s) < 2:
        return None
    lab = axis_split(s)
    c = np.stack([s[lab == 0].mean(axis=0), s[lab == 1].mean(axis=0)])
    for _ in range(rounds):
        new = np.linalg.norm(s[:, None, :] - c[None, :, :], axis=2).argmin(axis=1)
        if new.min() == new.max() or np.array_equal(new, lab):
            break
        lab = new
        c = np.stack([np.median(s[lab == 0], axis=0), np.median(s[lab == 1], axis=0)])
    if c[0][0] > c[1][0]:
        c = c[::-1]
    return FaceColours(tuple(map(float, c[0])), tuple(map(float, c[1])))  # type: ignore[arg-type]
