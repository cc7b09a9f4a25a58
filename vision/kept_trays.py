"""The bear-off trays as the reader reports them: read only when the board's totals change, and
counted only when they add up.

Checkers reach a tray only from the board: while the checkers on the board (points and bar)
stay the same per colour, so do the trays, and a sure reading that added up is kept
(:class:`KeptTrays`).  The referee takes an ``off`` as exact (:func:`consistent_off`).
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from . import layout as L
from .trays import TrayReading, read_trays, tray_views


def consistent_off(trays: Optional[TrayReading], on_board: tuple[int, int]) -> Optional[tuple[int, int]]:
    """The trays' counts for :attr:`BoardEvidence.off`, only when they were read surely and add
    up with the checkers on the board (points and bar) to 15 a colour; else None ("not seen").
    The referee takes an ``off`` as exact, so a doubtful one is better left out."""
    if trays is None or not trays.sure:
        return None
    off = (trays.dark, trays.light)
    if any(o + b != L.PER_SIDE for o, b in zip(off, on_board)):
        return None
    return off


class KeptTrays:
    """One board's tray reading, kept with the board's totals and the corners it was read at."""

    def __init__(self) -> None:
        self.kept: Optional[tuple[tuple[int, int], np.ndarray, Optional[TrayReading]]] = None

    def keep(self, totals: tuple[int, int], corners: np.ndarray, trays: Optional[TrayReading]) -> None:
        """Keep ``trays``, read surely and adding up with the board's ``totals`` at ``corners``."""
        self.kept = (totals, np.array(corners, copy=True), trays)

    def read(self, frame: np.ndarray, corners: np.ndarray, assembled: Any,
             shape: L.BoardShape = L.BoardShape()) -> Optional[TrayReading]:
        """The trays (of a board of ``shape``), looked at only when the board's totals say something may have changed.

        Checkers reach a tray only from the board: while the checkers on the board (points and
        bar) stay the same per colour, so do the trays, and a sure reading that added up is
        kept.  With every checker on the board the trays are empty (when in view at all).
        """
        totals = assembled.totals
        if self.kept is not None and self.kept[0] == totals and np.array_equal(self.kept[1], corners):
            return self.kept[2]
        trays: Optional[TrayReading]
        if totals == (L.PER_SIDE, L.PER_SIDE):
            trays = TrayReading(0, 0, True,
                                tuple(s for s, _ in tray_views(frame, corners, warp=False, shape=shape)))
            if not trays.sides:
                trays = None
        else:
            trays = read_trays(tray_views(frame, corners, shape=shape), assembled.model)
        if consistent_off(trays, totals) is not None:
            self.keep(totals, corners, trays)
        return trays
