"""One board perspective at the referee's boundaries: a board reading to and from a position.

The camera (``referee.events.BoardEvidence``) and the screen see the board in table
numbering: table point ``i`` is Dark's point ``i``, Light's point ``25 - i``.  The rules
engine's :class:`~referee.rules.position.Position` is seen from the side on roll (``me``).
These helpers are the only place the two meet:

* :func:`reading_of` / :func:`position_of_reading`: a perfect reading of a position given
  from ``side``'s point of view, and a reading taken at face value as a position from
  ``side``'s point of view (Dark by default, the referee's own perspective);
* :func:`for_side`: the same board from the other side when ``side`` is Light (it is its own
  inverse: a Dark-perspective position for ``side``, or ``side``'s position as Dark's);
* :class:`Layout` (table counts per colour, bar, off) with :func:`layout_of` and
  :func:`position_of`, for the code that compares a reading location by location.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from referee.colour import COLOURS, Colour
from referee.events import BoardEvidence, PointReading
from referee.rules.position import BAR, CHECKERS, Position

DARK, LIGHT = COLOURS


@dataclass(frozen=True)
class Layout:
    """A position in table numbering: per-point counts of each colour, bar and off."""

    dark: tuple[int, ...]
    light: tuple[int, ...]
    bar: tuple[int, int]
    off: tuple[int, int]


def for_side(position: Position, side: str) -> Position:
    """``position`` as seen from ``side`` if it is given from Dark's (or back): swapped for Light."""
    return position if side == Colour.DARK else position.swap()


def layout_of(pos: Position) -> Layout:
    """The table layout of a position given with Dark on roll."""
    me, opp = pos.me, pos.opp
    return Layout(tuple(me[:24]), tuple(opp[23 - i] for i in range(24)),
                  (me[BAR], opp[BAR]), (CHECKERS - sum(me), CHECKERS - sum(opp)))


def position_of(dark: Sequence[int], light: Sequence[int], bar: Sequence[int]) -> Position:
    """The position (Dark on roll) with these table counts."""
    me = list(dark[:24]) + [bar[0]]
    opp = [light[23 - i] for i in range(24)] + [bar[1]]
    return Position(me, opp)


def layout_to_evidence(lay: Layout, *, show_off: bool = True, t: float = 0.0) -> BoardEvidence:
    """A perfect reading of a layout (for simulations and tests)."""
    pts = []
    for d, l_ in zip(lay.dark, lay.light):
        pts.append(PointReading(d, DARK) if d else PointReading(l_, LIGHT) if l_ else PointReading(0))
    return BoardEvidence(tuple(pts), lay.bar, lay.off if show_off else None, 1.0, t)


def reading_of(position: Position, side: str = DARK, *, show_off: bool = True, t: float = 0.0) -> BoardEvidence:
    """A perfect stable reading of ``position`` given from ``side``'s point of view."""
    return layout_to_evidence(layout_of(for_side(position, side)), show_off=show_off, t=t)


def position_of_reading(ev: BoardEvidence, side: str = DARK) -> Position:
    """The reading taken at face value, as a position from ``side``'s point of view."""
    return for_side(position_of(ev.counts(DARK), ev.counts(LIGHT), ev.bar), side)


def evidence_position(ev: BoardEvidence) -> Position:
    """The reading taken at face value (Dark on roll)."""
    return position_of_reading(ev)
