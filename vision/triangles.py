"""The board's triangle colours: which points are painted (inlaid, printed) alike.

Along a row the triangles alternate.  On most boards they go on alternating across the bar: the
two points beside the bar differ, and a point and the one facing it across the board differ too
(:data:`STANDARD`).  On some the halves mirror each other about the bar: the two points beside
it are alike.  A learned look borrowed from another point's empty slot must come from a point
of the same colour (a white triangle's base is no dark one's), so the colours are told from the
board itself, from slots known to be empty (:func:`find_flips`), and only a clear mirror is
taken (:data:`MIRROR_CLEAR`): the standard pattern otherwise.

Points are numbered in image rows: top 0..11 (left to right), then bottom 0..11; a row's left
half is its columns 0..5.  Pure: arrays in, values out.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

Flips = tuple[bool, bool]    # per row (top, bottom): its right half's colours run the other way round (both alike)
STANDARD: Flips = (False, False)
MIRROR_CLEAR = 0.5   # a row's halves mirror when pairing them so lies under this share of pairing them alternately


def triangle_class(p: int, flips: Flips = STANDARD) -> int:
    """Point ``p``'s triangle colour, 0 or 1 (0: the top row's leftmost point's)."""
    r, col = divmod(p, 12)
    return (col + r + (flips[r] and col >= 6)) % 2


def column_distance(col: int, c: int, flipped: bool) -> int:
    """How far column ``c`` lies from column ``col`` of a row for borrowing a look: the columns
    between them, one more across the bar when the row's halves mirror (the points beside the bar
    then share a colour, but the bar parts their light and their place in the view: the nearest
    point of the colour across it stands as far as on a standard board, two columns)."""
    return abs(c - col) + int(flipped and (c >= 6) != (col >= 6))


def triangle_mates(p: int, flips: Flips = STANDARD) -> tuple[list[int], list[int]]:
    """The points whose triangles are the colour of point ``p``'s: its own row's (not ``p``),
    and the other row's, each nearest ``p``'s column first (:func:`column_distance`; ties: the
    lower column first)."""
    r, col = divmod(p, 12)
    mine = triangle_class(p, flips)
    own = sorted(range(12), key=lambda c: column_distance(col, c, flips[r]))
    other = sorted(range(12), key=lambda c: column_distance(col, c, flips[1 - r]))
    return ([r * 12 + c for c in own if c != col and triangle_class(r * 12 + c, flips) == mine],
            [(1 - r) * 12 + c for c in other if triangle_class((1 - r) * 12 + c, flips) == mine])


_WEIGHT = np.array([0.5, 1.0, 1.0], np.float32)   # Lab: lightness weighed half, as vision.slots._dist does
# the four groups of a row's columns: left half even and odd, right half even and odd
_GROUPS = np.array([[c in g for c in range(12)] for g in ((0, 2, 4), (1, 3, 5), (6, 8, 10), (7, 9, 11))], np.float32)


def find_flips(looks: np.ndarray, empty: np.ndarray, per: int, upto: Optional[int] = None) -> Flips:
    """Per row, whether its halves mirror each other, from the looks of slots known empty.

    ``looks``: (24 * per, ..., 3) each point slot's look in Lab (points in image rows, ``per``
    slots each from the base); ``empty``: (24 * per,) which of them show an empty slot.  Looks are
    compared by their mean colours (lightness weighed half: the light across a board moves it most;
    colour, not the pattern: a triangle's edges cross a slot at another place on each point).  At
    each slot place from the base where each half shows empty slots of both its columns' parities,
    the mean colours of the four groups (left even, left odd, right even, right odd) are paired
    alternately (left even with right even) and mirrored (left even with right odd); a row mirrors
    when the mirrored pairing lies under :data:`MIRROR_CLEAR` of the alternating one and of the two
    colours' own difference (within a half: on a mirrored board the alternating pairing pairs
    unlike colours too).  A board is made alike in both rows: it mirrors when every row that shows
    such a place does (a row that mirrors alone is a quarter whose slots lie a point off its
    triangles, its corner misplaced, or a steep view's foreshortened row: not the board's paint);
    else :data:`STANDARD`.  ``upto``: only the first that many places from the base are compared (those
    that lie on the triangles, :attr:`vision.slots.SlotGeometry.fits`: a sixth slot laid past the middle shows the
    bare band between the tips, alike on every point, and on the mirrored image023 it tipped the pairings
    to "alternating")."""
    colour = looks.reshape(2, 12, per, -1, 3).mean(axis=3, dtype=np.float64)      # (row, column, place, Lab)
    shown = empty.reshape(2, 12, per).astype(np.float64)
    if upto is not None:
        shown[:, :, upto:] = 0.0
    counts = np.einsum("gc,rck->rgk", _GROUPS, shown)                              # (row, group, place)
    sums = np.einsum("gc,rck,rckd->rgkd", _GROUPS, shown, colour)
    mean = sums / np.maximum(counts, 1.0)[..., None]
    usable = (counts > 0).all(axis=1)                                               # (row, place)

    def apart(a: int, b: int) -> np.ndarray:      # (row, place): groups a and b's colours apart
        return (np.abs(mean[:, a] - mean[:, b]) * _WEIGHT).sum(axis=-1)

    alt = ((apart(0, 2) + apart(1, 3)) * usable).sum(axis=1)
    mir = ((apart(0, 3) + apart(1, 2)) * usable).sum(axis=1)
    own = ((apart(0, 1) + apart(2, 3)) * usable).sum(axis=1)
    known = [bool(m < MIRROR_CLEAR * min(a, o)) for m, a, o, u in zip(mir, alt, own, usable.any(axis=1)) if u]
    mirrored = bool(known) and all(known)
    return (mirrored, mirrored)


__all__ = ["Flips", "MIRROR_CLEAR", "STANDARD", "column_distance", "find_flips", "triangle_class", "triangle_mates"]
