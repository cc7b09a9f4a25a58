"""Camera-only tables (``dice_reader = False``): the camera's sure view of the dice at rest
(:class:`~referee.events.DiceSeen`) is the throw, and its view of them gone is the lift.  A throw
it cannot read surely is never taken as a roll: the mover moves and ends the turn with
``PlayerInput(mover, "confirm")`` (or the dice lifted), and the roll is inferred from the move;
when several rolls explain it, the players confirm the roll thrown.

With a dice reader the camera's view only cross-checks the reader's throw
(:mod:`referee.turn.crosscheck`): the reader's values and landing stand, and a difference is said
(``dice_disagree``), never resolved; the camera's view is journaled like every input, so the
difference is a fact of the record.
"""
from __future__ import annotations

from typing import Any

from referee.events import DiceLifted, DiceSeen, PlayerInput, RollSettled
from referee.records import actions as rec
from referee.colour import other
from referee.rules.infer import ROLLS
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.turn import crosscheck
from referee.turn.judging import accept_illegal_move, finish_move, illegal
from referee.turn.matching import match_reading
from referee.turn.states import State
from referee.turn.table_state import TableState, TurnFacts, roll_text, to_dark


def lift_before_roll(t: TableState, ev: DiceLifted) -> None:
    """Dice lifted before any roll counts: the end of a camera-only turn (nothing otherwise)."""
    if not t.settings.dice_reader:
        camera_turn_end(t, ev)


def camera_turn_end(t: TableState, ev: Any) -> None:
    """The mover ends a camera-only turn: the roll is inferred from the move read."""
    mover = t.turn or "dark"
    if t.reading is None or not t.fresh:
        t.decide("wait_board", mover, "Waiting for a clear view of the board to read the move")
        return
    before_m = t.mover_position()
    by_pos: dict[Position, list[tuple[int, int]]] = {}
    for r in ROLLS:
        plays = legal_plays(before_m, *r)
        res = [lp.result for lp in plays] or [before_m.swap()]
        for p in res:
            by_pos.setdefault(to_dark(p, other(mover)), []).append(r)
    cands = list(by_pos)
    v = match_reading(t.reading, t.pos, cands, mover, t.settings.min_confidence)
    if v.kind == "match":
        after = cands[v.indices[0]]
        rolls = by_pos[after]
        t.t = TurnFacts(inferred_after=after)
        if len(rolls) == 1:
            _inferred(t, rolls[0])
        else:
            t.t.pending_rolls = rolls
            t.enter(State.CONFIRM_ROLL)
            t.decide("confirm_roll", mover, f"Several rolls explain {t.n(mover)}'s move: "
                     f"{', '.join(roll_text(r) for r in rolls)}. Confirm the roll thrown",
                     choices=[roll_text(r) for r in rolls])
    elif v.kind == "illegal" and v.position is not None:
        t.t = TurnFacts()
        illegal(t, v.position)
    elif v.kind == "ambiguous":
        t.decide("wait_board", mover, "Several moves fit the reading; fix the checkers so the camera "
                 "sees them, then confirm again")
    else:
        t.decide("wait_board", mover, f"Waiting for a clear view of the board: {v.reason}")


def _inferred(t: TableState, dice: tuple[int, int]) -> None:
    mover = t.turn or "dark"
    after = t.t.inferred_after
    assert after is not None
    before_m = t.mover_position()
    plays = legal_plays(before_m, *dice)
    target = after if mover == "light" else after.swap()  # with the opponent on roll
    play = next((str(lp.play) for lp in plays if lp.result == target), "")
    t.decide("roll_inferred", mover, f"{t.n(mover)}'s roll was {roll_text(dice)}", dice=dice)
    t.t.dice = dice
    t.act(rec.Roll(t.pi(mover), dice))
    finish_move(t, mover, rec.Move(t.pi(mover), dice, play), after,
                f"{t.n(mover)} plays {roll_text(dice)}: {play or 'no move'}", play)


def pick_roll(t: TableState, ev: PlayerInput) -> None:
    """The players confirm the roll thrown (for the move, or for an accepted illegal move)."""
    dice = t.t.pending_rolls[int(ev.choice or 0)]
    if t.t.illegal_after is not None:  # an accepted illegal move on a camera-only table
        t.t.dice = dice
        t.act(rec.Roll(t.pi(t.turn or "dark"), dice))
        accept_illegal_move(t)
        return
    _inferred(t, dice)


# ------------------------------------------------------------------ the camera on the dice

#: where the camera's unsure view of a throw is said (a throw is awaited)
_THROWING = (State.OPENING_ROLL, State.WAITING_FOR_ROLL, State.REROLL, State.GAME_OVER)


def dice_seen(t: TableState, ev: DiceSeen) -> None:
    """The camera sees the dice at rest (or none any more): on a camera-only table a sure view is
    the throw and none the lift; with a dice reader it cross-checks the reader's throw."""
    if t.settings.dice_reader:
        crosscheck.camera_view(t, ev)
    elif not ev.dice:
        t.follow_on(DiceLifted(t=ev.t))
    elif ev.sure:
        t.follow_on(RollSettled(ev.dice, source="camera", t=ev.t))
    elif t.state in _THROWING:
        shown = "-".join(str(v) if v is not None else "?" for v in ev.values)
        if t.state in (State.OPENING_ROLL, State.GAME_OVER):
            t.decide("dice_unsure", None, f"The camera cannot read the dice surely ({shown}): throw them again",
                     seen=shown)
        else:
            t.decide("dice_unsure", t.turn, f"The camera cannot read the dice surely ({shown}): it is not taken "
                     f"as the roll. {t.n(t.turn)} moves and lifts the dice; the roll is inferred from the move",
                     seen=shown)
