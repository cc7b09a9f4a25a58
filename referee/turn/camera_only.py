"""Camera-only tables (``dice_reader = False``): no throw is seen, so the mover moves and ends
the turn with ``PlayerInput(mover, "confirm")`` (or a ``DiceLifted``), and the roll is
inferred from the move; when several rolls explain it, the players confirm the roll thrown.
"""
from __future__ import annotations

from typing import Any

from referee.events import DiceLifted, PlayerInput
from referee.records import actions as rec
from referee.colour import other
from referee.rules.infer import ROLLS
from referee.rules.moves import legal_plays
from referee.rules.position import Position
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
