"""The place just past a stack's last checker: judged empty on its far part.

Seen obliquely a checker's side shows beyond its face, and a low light casts its shadow along the
point: the slot just past a stack's last checker then holds a sliver of it, or its shadow, near
the point's base side.  Compared whole with the look that slot learned empty (when no checker lay
below it), it lay six of its scales away on unseen6's image014 (a photo lit from the side, its
bottom row's stacks a sixth of a checker further from the base than the slots), and the table read
one checker more than the stack held, at 0.975: two illegal boards accepted in the games bench.

So where a count's hypothesis puts the slot just past its last checker, the slot may be judged
empty on its far part alone (the :data:`FAR` share of its patch away from the base), whichever of
the two fits better (:meth:`vision.memory.BoardMemory.odds`), though never likelier than the state
the whole patch fits best: a far part alike says the slot may be empty past a checker, not that it
is likelier so than what the whole of it shows (uncapped, every hypothesis gained most by putting a
stack's end at its noisiest slot: a real 3 read 4 at 0.99 on image041).  image014's stack is then
read one or two at even odds (asked), not two surely.  A checker lying there fills its far part as
well, so the count one more is not explained away; and a slot is taken so only where its difference
from its empty look lies mostly on its near part, and its far part matches that look within an empty
slot's own noise (:data:`vision.memory.SLIVER`, :data:`vision.memory.FAR_NOISE`): a real checker's far
half 2.6 of its scales off the cloth on image041 read a two one at 0.79, and an illegal board passed.

Pure: patches and looks in, distances out.
"""
from __future__ import annotations

import numpy as np

from .slots import PATCH, SHIFT

__all__ = ["FAR", "far_distances"]

FAR = 0.5   # the share of a slot's patch, away from its point's base, a place past a checker is judged on
_W = np.array([0.5, 1.0, 1.0], np.float32)   # vision.slots._dist's channel weights


def far_distances(wide: np.ndarray, looks: np.ndarray, top: np.ndarray) -> np.ndarray:
    """(slots, looks): :func:`vision.slots._shifted_dist`'s distance of each slot's patch (``wide``:
    (slots, W, W, 3) Lab, with its margin of :data:`~vision.slots.SHIFT` samples) to each of its
    ``looks`` ((slots, looks, P, P, 3) Lab), on the patch's far part only: its last rows for a slot of
    the top row (``top``: per slot, whose point's base lies at the patch's first rows), its first rows
    for the bottom row's (and the bar's: they are not used)."""
    keep = max(1, int(round(FAR * PATCH)))
    n, m = looks.shape[:2]
    ww = np.asarray(wide, np.float32) * _W
    tw = np.asarray(looks, np.float32) * _W
    out = np.empty((n, m), np.float32)
    for rows, first in ((np.flatnonzero(top), PATCH - keep), (np.flatnonzero(~top), 0)):
        if not len(rows):
            continue
        w = ww[rows]
        t = tw[rows][:, :, first:first + keep].reshape(len(rows), m, -1)
        best = np.full((len(rows), m), np.inf, np.float32)
        for dy in range(2 * SHIFT + 1):
            for dx in range(2 * SHIFT + 1):
                win = w[:, dy + first:dy + first + keep, dx:dx + PATCH].reshape(len(rows), 1, -1)
                best = np.minimum(best, np.abs(win - t).sum(axis=2))
        out[rows] = best / (keep * PATCH)
    return out
