"""The referee's states: a ``State`` enum, what each means, and how the screen shows it.

``State`` is a ``StrEnum``: ``State.MOVING == "moving"``, so callers that compare
``referee.state`` with today's strings keep working (``repr`` too reads as the string).
"""
from __future__ import annotations

from enum import StrEnum


class State(StrEnum):
    """Where the turn stands."""

    OPENING_ROLL = "opening_roll"
    WAITING_FOR_ROLL = "waiting_for_roll"
    REROLL = "reroll"
    MOVING = "moving"
    WAITING_FOR_BOARD = "waiting_for_board"
    AMBIGUOUS = "ambiguous"
    CONFIRM_ROLL = "confirm_roll"
    ILLEGAL_MOVE = "illegal_move"
    CORRECTING = "correcting"
    DOUBLE_OFFERED = "double_offered"
    RESIGNATION_OFFERED = "resignation_offered"
    GAME_OVER = "game_over"
    MATCH_OVER = "match_over"
    DIRECTOR = "director"

    def __repr__(self) -> str:
        """As the plain string it equals (messages that quote ``referee.state!r`` read as before)."""
        return repr(self.value)


#: The referee's states and what each means (the ``not_accepted`` decisions quote these).
STATES: dict[str, str] = {
    State.OPENING_ROLL.value: "each player throws one die; the higher starts",
    State.WAITING_FOR_ROLL.value: "the player on turn may double or throw",
    State.REROLL.value: "the last throw did not count; the player on turn throws again",
    State.MOVING.value: "the roll counts; the mover moves and lifts the dice",
    State.WAITING_FOR_BOARD.value: "the dice are lifted; waiting for a clear board reading to judge the move",
    State.AMBIGUOUS.value: "several legal moves fit the reading; the players confirm one or fix the checkers",
    State.CONFIRM_ROLL.value: "no dice reader: several rolls explain the move; the players confirm one",
    State.ILLEGAL_MOVE.value: "the move is illegal or incomplete; the opponent accepts it or demands a legal move",
    State.CORRECTING.value: "the mover is correcting an illegal move",
    State.DOUBLE_OFFERED.value: "a double (or beaver) is pending",
    State.RESIGNATION_OFFERED.value: "a resignation is pending",
    State.GAME_OVER.value: "the game is over; the next throw is the next game's opening roll",
    State.MATCH_OVER.value: "the match is over",
    State.DIRECTOR.value: "the director was called; play is paused",
}

#: How each state is shown on the table screen (``referee.view.STATES``).
VIEW_STATE: dict[str, str] = {
    "opening_roll": "opening_roll", "waiting_for_roll": "waiting_for_roll", "reroll": "reroll",
    "moving": "moving", "waiting_for_board": "waiting_for_board", "ambiguous": "waiting_for_board",
    "confirm_roll": "waiting_for_board", "illegal_move": "illegal_move", "correcting": "illegal_move",
    "double_offered": "double_offered", "resignation_offered": "resignation_offered",
    "game_over": "game_over", "match_over": "match_over", "director": "director",
}
