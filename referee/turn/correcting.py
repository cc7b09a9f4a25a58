"""After an illegal move: the opponent accepts it (by a word, a throw or a double) or demands
a legal one, which the mover then makes (each stable reading is judged and the first legal
one accepted; lifting the dice or pressing confirm has the current reading judged and says
what is wrong).  Also the players' pick among moves that fit a reading equally.
"""
from __future__ import annotations

from typing import Any

from referee.events import BoardEvidence, PlayerInput, RollSettled
from referee.records import actions as rec
from referee.colour import other
from referee.rules.infer import ROLLS, explain_illegal
from referee.turn.judging import accept_illegal_move, hit_not_on_bar, play_accepted
from referee.turn.landing import roll_owner
from referee.turn.matching import match_reading
from referee.turn.states import State
from referee.turn.table_state import TableState, roll_text


def accept_illegal(t: TableState, ev: PlayerInput) -> None:
    """The opponent accepts the illegal move (camera only: the players confirm the roll first)."""
    if t.t.dice is None:  # camera only: the record needs the roll that was thrown
        t.t.pending_rolls = list(ROLLS)
        t.enter(State.CONFIRM_ROLL)
        mover = t.turn or "dark"
        t.decide("confirm_roll", mover, f"{t.n(ev.player)} accepts the move. For the record, "
                 f"confirm the roll {t.n(mover)} threw", choices=[roll_text(r) for r in ROLLS])
        return
    accept_illegal_move(t)


def roll_accepts_illegal(t: TableState, ev: RollSettled) -> None:
    """The opponent throws: that accepts the illegal move (RULES 9.3)."""
    mover = t.turn or "dark"
    thrower = other(mover) if t.settings.landing == "tray" else roll_owner(ev, other(mover), t.settings.landing)
    if thrower == mover:
        t.decide("refused", mover, f"{t.n(mover)} threw, but the choice is "
                 f"{t.n(other(mover))}'s: accept the move or demand a legal one")
        return
    if t.t.early is not None:
        _early_waits(t, other(mover))
        return
    t.t.early = ev
    if t.t.dice is None:  # camera only: the roll waits while the mover's roll is confirmed
        accept_illegal(t, PlayerInput(other(mover), "accept_move"))
        return
    accept_illegal_move(t)


def double_accepts_illegal(t: TableState, ev: PlayerInput) -> None:
    """The opponent doubles: that accepts the illegal move, then the double is offered."""
    if t.t.early is not None:
        _early_waits(t, ev.player)
        return
    if t.t.dice is None:  # camera only: confirm the mover's roll first, then double again
        accept_illegal(t, ev)
        return
    accept_illegal_move(t)
    if t.state == State.WAITING_FOR_ROLL:
        t.follow_on(ev)


def _early_waits(t: TableState, opp: str) -> None:
    """The opponent threw early (RULES 9.4): that roll is theirs, so no throw or double
    now accepts the move; the choice is still to accept it or to demand a legal one."""
    t.decide("refused", opp, f"{t.n(opp)} already threw early and that roll waits: "
             f"{t.n(opp)} accepts {t.n(t.turn)}'s move or demands a legal one")


def demand_legal(t: TableState, ev: PlayerInput) -> None:
    """The opponent demands a legal move: the mover corrects it."""
    mover = t.turn or "dark"
    t.act(rec.Correction(t.pi(mover), t.t.dice or (1, 1), t.t.illegal_text))
    t.enter(State.CORRECTING)
    t.fresh = False
    t.t.last_wait = ""
    t.decide("correction_demanded", mover, f"{t.n(ev.player)} demands a legal move: "
             f"{t.n(mover)} plays {roll_text(t.t.dice or ())} again legally")


def judge_correction(t: TableState, ev: BoardEvidence) -> None:
    """A stable reading while the mover corrects: accepted if legal, silence otherwise."""
    t.reading, t.fresh = ev, True
    _correction(t, ev, quiet=True)


def correction_now(t: TableState, ev: Any) -> None:
    """The mover lifts the dice or confirms: judge the current reading and say what is wrong."""
    if t.reading is None or not t.fresh:
        t.decide("wait_board", t.turn, "Waiting for a clear view of the corrected move")
        return
    _correction(t, t.reading, quiet=False)


def _correction(t: TableState, ev: BoardEvidence, quiet: bool) -> None:
    mover = t.turn or "dark"
    v = match_reading(ev, t.pos, t.t.candidates or [t.pos], mover, t.settings.min_confidence)
    if v.kind == "match":
        play_accepted(t, v.indices[0])
        return
    if quiet:
        return
    if v.kind == "illegal" and v.position is not None:
        before_m = t.mover_position()
        after_m = v.position if mover == "dark" else v.position.swap()
        why = explain_illegal(before_m, after_m, *(t.t.dice or (1, 1)), (t.n(mover), t.n(other(mover))))
        t.decide("illegal_move", mover, f"Still illegal: {why}. {t.n(mover)} must play a legal move")
    elif v.kind == "ambiguous":
        opts = [str(t.t.plays[i].play) for i in v.indices]
        t.decide("wait_board", mover, f"{v.reason}: {' or '.join(opts)}; fix the checkers so the camera "
                 "sees them")
    else:
        hint = hit_not_on_bar(t, ev, t.t.candidates or [t.pos]) if v.kind == "misread" else ""
        t.decide("wait_board", mover, hint or f"Waiting for a clear view of the corrected move: {v.reason}")


def pick_play(t: TableState, ev: PlayerInput) -> None:
    """The players confirm which of the moves that fit the reading was played."""
    k = t.t.pending[int(ev.choice or 0)]
    play_accepted(t, k)
