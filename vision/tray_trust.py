"""How far the table trusts its tray reading on this board, learned from the positions it knows.

The tray reader (:mod:`vision.trays`) counts the checkers lying on their sides in the bear-off trays
and says when it is sure.  On rendered real tables its sure counts are wrong too often to be taken
as they are (``bench/verdicts.py --real-games``: 40 of 318 sure counts, 12.6 %, off by -5 to +3), and
a board it misreads it misreads move after move (a cup or a clock's foot in a tray, the tray's own
ridges).  So the table checks it against what it knows, as it learns its board's look: every
accepted position says how many checkers each colour has borne off, and the frame the position was
learned from says what the trays read there.  A colour's tray is trusted once it agreed with the last
:data:`AGREE` known positions in a row, at least one of them with checkers off; a disagreement takes
the trust away until it has agreed so again (the commonest misread, the first checker or two borne
off read as none, passes once more lie in the tray).  Then its count is given to the referee as odds
(:func:`vision.odds.tray_odds`; the likelihood verdict weighs the borne-off checkers:
:func:`referee.turn.trays.tray_logs`).  An untrusted colour's odds are flat: they tell no two boards
apart.  Pure: readings and counts in, odds out.

A tray may also read the same number too many or too few, position after position: something lying
in it that the reader counts as checkers (a cup, a clock's foot; on rendered real tables one tray read
three more than it held through a whole bear-off, another one more from its first check), or part of
it hidden.  Such a tray is trusted with its steady *offset* (its count less the offset) once it has
read that offset over :data:`AGREE` known positions in a row that held at least two different counts
(the offset followed the checkers borne off, so the tray counts them) and, for too few, never
nought (a tray read empty tells nothing of how many lie hidden).
"""
from __future__ import annotations

from typing import Optional

from .odds import Alts, tray_odds
from .trays import TrayReading

AGREE = 3   # known positions in a row a colour's tray must have agreed with (one with checkers off) to be trusted
COLOURS = ("dark", "light")


class TrayTrust:
    """Per colour, how often the trays read surely agreed with a known position's borne-off count, and
    by what steady offset (the module docstring)."""

    def __init__(self) -> None:
        self.agreed = {c: 0 for c in COLOURS}      # known positions whose count the tray read surely
        self.missed = {c: 0 for c in COLOURS}      # known positions whose count it read surely and wrong
        self.offset = {c: 0 for c in COLOURS}      # how many more than it held the tray read in the current streak
        self.streak = {c: 0 for c in COLOURS}      # known positions in a row read with that offset
        self.streak_off = {c: 0 for c in COLOURS}  # ... of them with checkers of that colour off
        self.counts: dict[str, set[int]] = {c: set() for c in COLOURS}   # ... the counts they held
        self.least = {c: 0 for c in COLOURS}       # ... the fewest the tray read among them

    @staticmethod
    def readable(trays: Optional[TrayReading]) -> bool:
        """Both trays in view and read surely (a tray out of view reads nought, surely)."""
        return trays is not None and trays.sure and len(trays.sides) == 2

    def check(self, trays: Optional[TrayReading], off: tuple[int, int]) -> None:
        """A known position's borne-off checkers (``off``: dark, light) against the trays read on its frame."""
        if not self.readable(trays):
            return
        assert trays is not None
        for colour, got, want in zip(COLOURS, (trays.dark, trays.light), off):
            if got == want:
                self.agreed[colour] += 1
            else:
                self.missed[colour] += 1
            if got - want != self.offset[colour] or not self.streak[colour]:
                self.offset[colour] = got - want   # a new offset: its streak starts here
                self.streak[colour] = self.streak_off[colour] = 0
                self.counts[colour] = set()
                self.least[colour] = got
            self.streak[colour] += 1
            self.streak_off[colour] += want > 0
            self.counts[colour].add(want)
            self.least[colour] = min(self.least[colour], got)

    def trusted(self, colour: str) -> bool:
        """Whether ``colour``'s tray has earned trust (the module docstring)."""
        if self.streak[colour] < AGREE or self.streak_off[colour] < 1:
            return False
        shift = self.offset[colour]
        return shift == 0 or (len(self.counts[colour]) >= 2 and (shift > 0 or self.least[colour] > 0))

    def odds(self, trays: Optional[TrayReading]) -> Optional[tuple[Alts, Alts]]:
        """The two trays' odds for a reading (dark, light), a trusted colour's as read less its steady
        offset, the other's flat; None when neither is trusted or the trays were not read surely."""
        if not self.readable(trays) or not any(self.trusted(c) for c in COLOURS):
            return None
        assert trays is not None
        read = tray_odds(*(min(max(n - self.offset[c], 0), 15) for n, c in zip((trays.dark, trays.light), COLOURS)))
        flat = 1.0 / 16
        return tuple(read[k] if self.trusted(c) else [(n, c, flat) for n in range(16)]  # type: ignore[return-value]
                     for k, c in enumerate(COLOURS))


__all__ = ["AGREE", "TrayTrust"]
