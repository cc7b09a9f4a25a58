"""The named guards of the machine's transitions: each returns ``None`` when the event may be
handled, or the reason it is refused (a ``refused`` decision quotes it, with the guard's
name).  The cube's guards are in :mod:`referee.turn.cube`.
"""
from __future__ import annotations

from typing import Any, Optional

from referee.events import PlayerInput, RollSettled
from referee.colour import other
from referee.turn.rolling import moved_before_roll
from referee.turn.states import State
from referee.turn.table_state import TableState


def on_turn(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The player is the one on turn."""
    if ev.player != t.turn:
        return f"{t.n(ev.player)} cannot {ev.action.replace('_', ' ')}: it is {t.n(t.turn)}'s turn"
    return None


def not_thrown(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The dice have not been thrown this turn (a re-roll is still a throw)."""
    if t.state == State.REROLL:
        return f"{t.n(ev.player)} cannot double: the dice were already thrown (the re-roll is still due)"
    return None


def board_in_place(t: TableState, ev: RollSettled) -> Optional[str]:
    """No checker moved before the roll (RULES 10)."""
    moved = moved_before_roll(t)
    if moved:
        return (f"the throw does not count: {moved}, and no roll was seen before. Put the checkers back, "
                f"then {t.n(t.turn)} throws again (or call the director)")
    return None


def camera_only(t: TableState, ev: Any) -> Optional[str]:
    """The table has no dice reader."""
    if t.settings.dice_reader:
        return "this table reads the dice: the turn starts with a throw"
    return None


def valid_choice(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The confirm names one of the choices offered."""
    if ev.choice is None or not 0 <= ev.choice < len(t.choices):
        return (f"{t.n(ev.player)}'s confirm needs a choice 0..{len(t.choices) - 1} "
                f"({', '.join(t.choices)})")
    return None


def not_mover(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The player is the mover's opponent."""
    if ev.player == t.turn:
        return f"the choice is {t.n(other(t.turn))}'s, not {t.n(ev.player)}'s"
    return None


def mover(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The player is the mover."""
    if ev.player != t.turn:
        return f"only {t.n(t.turn)}, who is correcting the move, can confirm it"
    return None


def dice_known(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The roll is known (a dice reader saw it)."""
    if t.t.dice is None:
        return "the roll is unknown (no dice reader), so no legal move can be demanded; accept the move"
    return None


def not_resigner(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The player is not the one who offered to resign."""
    if ev.player == t.resigner:
        return f"the resignation is {t.n(other(t.resigner or 'dark'))}'s to answer"
    return None
