"""The boards a player can leave keep their checkers: the likeliest such board a reading shows.

A reading's own guess, location by location (:func:`referee.turn.likelihood.explaining_cells`),
may add or lose checkers: a stack read one short, a dice cup above a stack read as three more
checkers on it, a bare point of one triangle colour read as a lone checker.  A board a player's
move leaves does neither, legal or not: the mover's fifteen are on the points, on the bar or
borne off (at most :data:`MOST_STEPS` more than before), and the opponent's are where they were
but for the blots hit, which are on their bar.  So the best legal move explains the board when
it comes close to the likeliest board that keeps them (:func:`kept_checkers_cells`), whatever
the guess that does not; "illegal" is still said only from the reading's own guess.

Measured with ``bench/vision_real.py --cases 5`` on the real labelled boards (2026-12-04): true
plays 1 -> 10 of 80 from the absolute reading alone on the tuned held-out half, 0 -> 2 of 40 on
unseen3a, 11 -> 13 of 40 without a reference on unseen4, 114 -> 115 of 120 with a made reference
on unseen2; every other figure the same, no wrong verdict, no illegal board accepted.

Pure: the reading's odds and the position before in, cells out (a dynamic programme over the 24
points on the mover's count and the blots hit; about a millisecond).
"""
from __future__ import annotations

import math
from typing import Optional, Sequence

from referee.board import layout_of
from referee.colour import DARK, LIGHT
from referee.rules.position import CHECKERS, Position
from referee.turn.likelihood import FLOOR, Cell

MOST_STEPS = 4    # checkers one move bears off, or blots it hits, at most (a double's four steps)


def kept_checkers_cells(table: Sequence[dict[Cell, float]], before: Position, mover: str,
                        also: Sequence[Cell] = ()) -> Optional[list[Cell]]:
    """The likeliest board some move of ``mover`` (legal or not) leaves with every checker kept:
    among what :func:`~referee.turn.likelihood.any_move_cells` allows at each location, the mover's
    checkers still 15 (on the points, the bar, at most :data:`MOST_STEPS` more borne off) and the
    opponent's bar holding exactly the blots hit.  A reading's guess location by location may add
    or lose checkers (a stack read one short, a dice cup read as two more on a stack); a board a
    player can leave does not, so that guess is no better explanation of the board than the best
    such board.  None when the reading lists no such board.  ``also``: a board's cells (a legal
    move's) to consider beside those the reading lists, so that the board found is at least as
    likely as that one."""
    lay = layout_of(before)
    mine, theirs = (DARK, LIGHT) if mover == DARK else (LIGHT, DARK)
    their_counts = lay.light if mover == DARK else lay.dark
    me = 0 if mover == DARK else 1
    on_board = CHECKERS - lay.off[me]
    # (the mover's checkers on the points so far, blots hit so far) -> (log-likelihood, cells)
    states: dict[tuple[int, int], tuple[float, tuple[Cell, ...]]] = {(0, 0): (0.0, ())}
    for k in range(24):
        t, n = table[k], their_counts[k]
        stays = (n, theirs) if n else (0, None)
        opts: dict[Cell, tuple[int, int]] = {stays: (0, 0)}
        # the mover's checkers anywhere, as any_move_cells allows, even on a point the opponent had
        # made: the wider the boards weighed against the move, the surer a move that beats them
        # (kept to the opponent's made points, 3 illegal boards of unseen4 were accepted)
        for c in list(t) + list(also[k:k + 1]):
            if c[0] and c[1] == mine:
                opts[c] = (c[0], int(n == 1))
            elif not c[0] and n == 1:
                opts[c] = (0, 1)
        logs = {c: math.log(max(t.get(c, 0.0), FLOOR)) for c in opts}
        grown: dict[tuple[int, int], tuple[float, tuple[Cell, ...]]] = {}
        for (m, h), (ll, cells) in states.items():
            for c, (dm, dh) in opts.items():
                key = (m + dm, h + dh)
                v = ll + logs[c]
                if key[0] <= on_board and key[1] <= MOST_STEPS and (key not in grown or v > grown[key][0]):
                    grown[key] = (v, cells + (c,))
        states = grown
    mover_bar, their_bar = (24, 25) if mover == DARK else (25, 24)
    best: Optional[tuple[float, list[Cell]]] = None
    for (m, h), (ll, cells) in states.items():
        hit = (lay.bar[1 - me] + h, theirs)
        for b in range(lay.bar[me] + 1):
            if not 0 <= on_board - m - b <= MOST_STEPS:
                continue
            v = ll + math.log(max(table[mover_bar].get((b, mine), 0.0), FLOOR)) \
                + math.log(max(table[their_bar].get(hit, 0.0), FLOOR))
            if best is None or v > best[0]:
                bars = [(b, mine), hit] if mover == DARK else [hit, (b, mine)]   # the bar's dark, then light
                best = (v, list(cells) + bars)
    return best[1] if best is not None else None


__all__ = ["MOST_STEPS", "kept_checkers_cells"]
