"""Scoring a finished game (RULES.md section 6): single, gammon or backgammon."""
from __future__ import annotations

from enum import IntEnum
from typing import Optional

from referee.rules.position import BAR, CHECKERS, Position


class GameKind(IntEnum):
    """How a game was won; the value is the multiplier of the cube."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    def __str__(self) -> str:
        return self.name.lower()


def loser_kind(loser: tuple[int, ...]) -> GameKind:
    """The kind of win against a loser whose side (own numbering) is ``loser``."""
    if CHECKERS - sum(loser) > 0:
        return GameKind.SINGLE
    # backgammon: a checker on the bar or in the winner's home board (loser's 19..24)
    if loser[BAR] or any(loser[18:24]):
        return GameKind.BACKGAMMON
    return GameKind.GAMMON


def game_result(position: Position) -> Optional[tuple[str, GameKind]]:
    """For a finished position: (``"on_roll"`` or ``"opponent"``, kind of win), else None.

    The winner is the side with no checkers left on the board.
    """
    if sum(position.me) == 0 and sum(position.opp) > 0:
        return "on_roll", loser_kind(position.opp)
    if sum(position.opp) == 0 and sum(position.me) > 0:
        return "opponent", loser_kind(position.me)
    return None


def points_won(kind: GameKind, cube: int, jacoby: bool = False, cube_turned: bool = True) -> int:
    """Points for a win of ``kind`` at ``cube`` value.  With the Jacoby rule in
    force and the cube never turned, gammons and backgammons count single."""
    mult = 1 if (jacoby and not cube_turned) else int(kind)
    return mult * cube
