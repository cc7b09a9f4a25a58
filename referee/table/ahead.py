"""The other rolls' boards, built while the player thinks.

Before a move is accepted the referee tells its board apart from every board another roll leaves
from the same position (:mod:`referee.turn.other_rolls`): about 2,000 boards on a real position,
11 ms CPU to build here (30-odd on a Raspberry Pi) when the dice are lifted.  They depend only on
the position before the move and the mover, which the table knows as soon as the previous move is
accepted (or a game is set up), so :class:`BoardsAhead` builds them then, on a background thread,
and the judgement finds them ready.  The referee stays pure: it builds them itself if they are
not ready (the same boards; never two builds of one position at once).
"""
from __future__ import annotations

import logging
import threading
from typing import Callable, Optional, Protocol

from referee.colour import DARK, LIGHT
from referee.rules.position import Position
from referee.turn import other_rolls

log = logging.getLogger("bgtable.table")

Wanted = tuple[tuple[Position, str], ...]  # (position Dark on roll, mover) pairs to build


class Table(Protocol):
    """What :class:`BoardsAhead` reads of the referee."""
    pos: Position
    turn: Optional[str]


def wanted(table: Table) -> Wanted:
    """The boards the next judgement needs: the position's, for the player on turn (both players
    before the opening roll, when nobody is)."""
    movers = (table.turn,) if table.turn in (DARK, LIGHT) else (DARK, LIGHT)
    return tuple((table.pos, mover) for mover in movers)


def _in_background(work: Callable[[], None]) -> None:
    threading.Thread(target=work, name="other-rolls-ahead", daemon=True).start()


class BoardsAhead:
    """Builds the next judgement's boards when the table's position or turn changes (call
    :meth:`after` once the referee has decided an event).  ``start`` runs the build (a daemon thread
    by default; a test passes one that runs it at once)."""

    def __init__(self, prepare: Callable[[Position, str], None] = other_rolls.prepare,
                 start: Callable[[Callable[[], None]], None] = _in_background) -> None:
        self.prepare, self.start = prepare, start
        self.last: Wanted = ()

    def after(self, table: Table) -> None:
        """The referee decided an event: build the boards its position needs, unless already asked."""
        need = wanted(table)
        if need == self.last:
            return
        self.last = need
        self.start(lambda: self._build(need))

    def _build(self, need: Wanted) -> None:
        for before, mover in need:
            try:
                self.prepare(before, mover)
            except Exception as exc:  # the judgement builds them itself: the table must not stop here
                log.error("building the other rolls' boards for %s (%s) failed: %s",
                          before.position_id(), mover, exc)
