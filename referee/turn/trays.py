"""The bear-off trays in a verdict: the borne-off checkers' odds, when the camera gives them.

The camera gives a reading's odds for 26 places (24 points, each colour's bar) and, once the
table's known positions taught it to trust its trays (:mod:`vision.tray_trust`), for 28: then each
colour's checkers borne off too (:class:`referee.events.BoardEvidence`).  The likelihood verdict
(:mod:`referee.turn.likelihood`) weighs them in every comparison of one board with another: the
legal plays, the board before the move, another roll's boards (:mod:`referee.turn.other_rolls`).
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

from referee.board import layout_of
from referee.colour import DARK, LIGHT
from referee.rules.position import Position
from referee.turn.likelihood import FLOOR, Cell


def tray_logs(table: Sequence[dict[Cell, float]]) -> Optional[dict[str, list[float]]]:
    """Per colour, the log-probability the trays give each count of borne-off checkers (0..15),
    from a table of 28 locations (:func:`~referee.turn.likelihood.odds_table`); None when the camera
    gave no trays (26 locations).

    A bear-off's legal plays often differ at one place only, the deepest point's tall stack (nine
    or ten on the ace-point), which the camera counts least surely, and in the checkers borne off:
    the trays tell them apart where the stack cannot (rendered real games, ``bench/verdicts.py
    --real-games``: 22 of the 27 questions in 3,500 moves came in the bear-off).  The camera gives
    a colour's tray only once the table's known positions bore its reading out
    (:mod:`vision.tray_trust`: taken as read surely, the trays cost more questions than they saved);
    even so, a tray read wrong by one checker weighs the two boards by at most ``log(0.9 / 0.045)``,
    3 nats, under :data:`~referee.turn.likelihood.ACCEPT`: it never decides alone."""
    if len(table) < 28:
        return None
    out: dict[str, list[float]] = {}
    for k, colour in ((26, DARK), (27, LIGHT)):
        out[str(colour)] = [math.log(max(table[k].get((n, colour), 0.0), FLOOR)) for n in range(16)]
    return out


def tray_term(logs: Optional[dict[str, list[float]]], pos: Position) -> float:
    """The trays' log-probability of ``pos``'s borne-off checkers (0 without :func:`tray_logs`)."""
    if logs is None:
        return 0.0
    off = layout_of(pos).off
    return logs[DARK][off[0]] + logs[LIGHT][off[1]]
