"""A checker elsewhere: the board a legal move leaves with one checker moved to another place.

That is the board a player leaves who counts a pip too far or too short, hits a blot the roll
passes or passes one it hits.  :mod:`referee.turn.likelihood` weighs it against the move: a
reading that prefers it (:func:`one_checker_elsewhere`), or that shows it clearly at one of its
two places and does not refute it at the other (:func:`unaccounted_checker`), is no match.
"""
from __future__ import annotations

import math
from typing import Collection, Optional, Sequence

from referee.colour import DARK
from referee.turn.likelihood import FLOOR, UNSURE, Cell

REFUTES = 2.5     # nats one place must refute a checker elsewhere by, when another shows it (~12:1)


def checkers_elsewhere(table: Sequence[dict[tuple[int, Optional[str]], float]],
                       cells: Sequence[tuple[int, Optional[str]]], mover: Optional[str] = None,
                       before: Optional[Sequence[tuple[int, Optional[str]]]] = None,
                       exclude: Collection[tuple[Cell, ...]] = ()) -> list[tuple[float, float, int, int]]:
    """Every board ``cells`` (a legal move's) leaves with one checker, of either colour, elsewhere:
    taken from one location (a point or the bar) to another that is empty or holds its colour,
    as ``(gain at the first, gain at the second, first, second)``: how much likelier (nats) the
    reading finds that board than ``cells`` at each of its two places.  Only those two cells
    change, so a misreading anywhere else counts alike for both boards and cancels.

    That is the board a player leaves who counts a pip too far or too short, hits a blot the roll
    passes or passes one it hits.  Given the ``mover``, the opponent's checkers move only as a hit
    does (a blot to the bar; given ``before``, the position before the move as cells, one the move
    put on the bar back to the point it was hit on), and the mover's bar is left out (the bar's
    places overlap and tell little: a stack read one over beside it is a misreading more often
    than a checker entered where the roll does not allow).  Boards in ``exclude`` (the other legal
    moves', which the likelihood already weighs) are left out."""
    def logp(k: int, cell: tuple[int, Optional[str]]) -> float:
        return math.log(max(table[k].get(cell, 0.0), FLOOR))

    mover_bar = None if mover is None else 24 if mover == DARK else 25

    def minus(k: int) -> tuple[int, Optional[str]]:
        n, c = cells[k]
        return (n - 1, c if n > 1 or k >= 24 else None)

    def plus(k: int, colour: Optional[str]) -> Optional[tuple[int, Optional[str]]]:
        n, c = cells[k]
        if k >= 24:
            return (n + 1, c) if c == colour else None
        return (n + 1, colour) if not n or c == colour else None

    def hit_undone(i: int, j: int, n: int, colour: Optional[str]) -> bool:
        """The opponent's checker from the bar back to point ``j``: only where the move hit it."""
        if before is None:
            return not cells[j][0]
        return not cells[j][0] and n > before[i][0] and before[j] == (1, colour)

    now = [logp(k, cells[k]) for k in range(len(cells))]
    out: list[tuple[float, float, int, int]] = []
    for i in range(len(cells)):
        n, colour = cells[i]
        if not n or i == mover_bar:   # the mover's bar: its places tell little (a stack read one over
            continue                  # beside it is no checker left there)
        lose = logp(i, minus(i)) - now[i]
        for j in range(len(cells)):
            to = plus(j, colour) if j not in (i, mover_bar) else None
            if to is None:
                continue
            if mover is not None and colour != mover and not (
                    (j >= 24 and i < 24 and n == 1) or (i >= 24 and j < 24 and hit_undone(i, j, n, colour))):
                continue   # the opponent's checkers do not move in this turn: only a blot hit, or not
            if exclude:
                board = list(cells)
                board[i], board[j] = minus(i), to
                if tuple(board) in exclude:
                    continue
            out.append((lose, logp(j, to) - now[j], i, j))
    return out


def one_checker_elsewhere(table: Sequence[dict[tuple[int, Optional[str]], float]],
                          cells: Sequence[tuple[int, Optional[str]]],
                          mover: Optional[str] = None,
                          before: Optional[Sequence[tuple[int, Optional[str]]]] = None) -> tuple[float, list[int]]:
    """How much likelier the reading finds ``cells`` (a legal move's) with one checker elsewhere
    (:func:`checkers_elsewhere`): the gain (nats, 0 when no such board is likelier) and its two
    locations.  A legal move this close to it is no match unless the reading prefers the move."""
    best: tuple[float, list[int]] = (0.0, [])
    for lose, gain, i, j in checkers_elsewhere(table, cells, mover, before):
        if lose + gain > best[0]:
            best = (lose + gain, [i, j])
    return best


def unaccounted_checker(table: Sequence[dict[tuple[int, Optional[str]], float]],
                        cells: Sequence[tuple[int, Optional[str]]], mover: str,
                        before: Sequence[tuple[int, Optional[str]]],
                        exclude: Collection[tuple[Cell, ...]] = ()) -> list[int]:
    """The two places of a board with one checker elsewhere (:func:`checkers_elsewhere`) that one
    place shows clearly (:data:`UNSURE`, 4 to 1) and the other does not refute by :data:`REFUTES`;
    empty when there is none.  A referee who sees, at one place, a checker the move does not put
    there (or a gap where it leaves one) looks at the other end of that checker's path, and the
    reading's usual certainty there (0.87 against 0.11, 2 nats) does not settle it: real boards
    read that surely and wrong (a lone checker on grey felt read empty at 0.9; the fifth checker
    of a stack in a steep view missed).  So both places' evidence is weighed apart, not summed."""
    for lose, gain, i, j in checkers_elsewhere(table, cells, mover, before, exclude):
        if max(lose, gain) >= UNSURE and min(lose, gain) > -REFUTES:
            return [i, j]
    return []
