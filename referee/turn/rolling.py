"""Rolling and landing: a throw by the player on turn (the landing rules, then the roll counts
and the legal plays are listed), a throw while the mover's dice are down (an early roll:
it stands or is void, by the settings), and checkers moved before any roll (RULES 10).

Conventions: on the board, a throw whose dice are both on the half of the player not on
turn is that player's throw (otherwise a throw in the wrong half: re-roll).  While the
mover's dice are down, a throw with a die on the opponent's half is the opponent's, one with
every die on the mover's half is the mover's (refused: the first roll stands), and one with
every die outside names nobody.  With a tray, a throw while the mover's dice are down is the
opponent's.  Early rolls (``early_roll = "stands"``) wait until the mover's move is settled.
"""
from __future__ import annotations

from referee.events import BoardEvidence, PlayerInput, RollSettled
from referee.records import actions as rec
from referee.colour import other
from referee.rules.infer import describe_change, opponent_change
from referee.rules.moves import legal_plays
from referee.turn.landing import early_thrower, fault_words, landing_faults, roll_owner, thrower_zone
from referee.board import evidence_position
from referee.turn.matching import match_reading
from referee.turn.states import State
from referee.turn.table_state import TableState, TurnFacts, roll_text, to_dark


def roll(t: TableState, ev: RollSettled) -> None:
    """A throw when the player on turn is to throw (or re-throw)."""
    mover = t.turn or "dark"
    thrower = roll_owner(ev, mover, t.settings.landing)
    if thrower != mover:
        t.decide("wrong_turn", thrower, f"Both dice are on {t.n(thrower)}'s side: if "
                 f"{t.n(thrower)} threw, it is {t.n(mover)}'s turn and the throw does not count; "
                 f"if {t.n(mover)} threw, throw again onto your right-hand half", thrower=thrower)
        return
    throw(t, ev, mover)


def _faults(t: TableState, ev: RollSettled, thrower: str) -> list[tuple[str, str]]:
    found = landing_faults(ev.dice, thrower_zone(t.settings.landing, thrower), t.settings.die_on_checker,
                           t.n(thrower))
    return [(f.cause, fault_words(ev, [f], thrower)) for f in found]


def throw(t: TableState, ev: RollSettled, mover: str) -> None:
    """A throw by the player on turn: the landing rules, then the roll counts."""
    if len(ev.dice) != 2:
        t.decide("reroll", mover, f"Re-roll: only one die was seen; {t.n(mover)} throws both dice",
                 cause="other")
        t.act(rec.Reroll(t.pi(mover), "other"))
        t.enter(State.REROLL)
        return
    faults = _faults(t, ev, mover)
    if faults:
        words = "; ".join(w for _, w in faults)
        vals = ev.values
        dice = (vals[0], vals[1]) if len(vals) == 2 and None not in vals else None
        t.act(rec.Reroll(t.pi(mover), faults[0][0], dice))  # type: ignore[arg-type]
        t.decide("reroll", mover, f"Re-roll: {words}. {t.n(mover)} throws both dice again",
                 cause=faults[0][0])
        t.enter(State.REROLL)
        return
    vals = ev.values
    accept_roll(t, mover, (int(vals[0]), int(vals[1])))  # type: ignore[arg-type]


def accept_roll(t: TableState, mover: str, dice: tuple[int, int]) -> None:
    """The roll counts: list the legal plays; the mover moves."""
    t.turn = mover
    before = t.mover_position()
    plays = legal_plays(before, *dice)
    cands = [to_dark(lp.result, other(mover)) for lp in plays]
    t.t = TurnFacts(dice=dice, plays=plays, candidates=cands)
    t.enter(State.MOVING)
    t.act(rec.Roll(t.pi(mover), dice))
    if plays:
        t.decide("roll_accepted", mover, f"{t.n(mover)} rolled {roll_text(dice)}: move, then lift "
                 "the dice", dice=dice, legal_plays=len(plays))
    else:
        t.decide("roll_accepted", mover, f"{t.n(mover)} rolled {roll_text(dice)}: no legal move; "
                 "lift the dice", dice=dice, legal_plays=0)


def roll_while_moving(t: TableState, ev: RollSettled) -> None:
    """A throw while the mover's roll stands: the mover again (refused), nobody (outside), or
    the opponent early (RULES 9.3-9.5)."""
    mover = t.turn or "dark"
    opp = other(mover)
    thrower = early_thrower(ev, mover, t.settings.landing)
    if thrower == mover:
        t.decide("refused", mover, f"{t.n(mover)} threw again: the first roll "
                 f"{roll_text(t.t.dice or ())} stands; move and lift the dice")
        return
    if thrower is None:  # RULES 9.5: say what was seen, blame nobody
        down = t.state == State.MOVING
        t.decide("reroll", None, f"A throw landed outside the landing area while {t.n(mover)}'s "
                 f"{'dice are down' if down else 'move is judged'}: it does not count. {t.n(mover)}'s "
                 f"roll {roll_text(t.t.dice or ())} stands; {t.n(opp)} throws "
                 f"{f'after {t.n(mover)} lifts the dice' if down else 'again'}", cause="outside")
        return
    if t.t.early is not None:
        t.decide("refused", opp, f"{t.n(opp)} already threw; that roll is waiting")
        return
    early = t.state == State.MOVING
    vals = ev.values
    dice = (vals[0], vals[1]) if len(vals) == 2 and None not in vals else None
    if early and t.settings.early_roll == "void":
        t.act(rec.Reroll(t.pi(opp), "early_roll", dice))  # type: ignore[arg-type]
        t.decide("early_roll", opp, f"Early roll: {t.n(opp)} threw before {t.n(mover)} lifted "
                 f"the dice. The roll is void; {t.n(opp)} throws again after {t.n(mover)}'s turn",
                 rule="void")
        return
    faults = _faults(t, ev, opp) if len(ev.dice) == 2 else [("other", "only one die was seen")]
    if faults:  # RULES 9.1: the opponent's own throw landed badly; the opponent throws again
        t.act(rec.Reroll(t.pi(opp), faults[0][0], dice))  # type: ignore[arg-type]
        t.decide("reroll", opp, f"Re-roll: {'; '.join(w for _, w in faults)}. {t.n(opp)} throws "
                 "both dice again", cause=faults[0][0])
        return
    t.t.early, t.t.early_was_early = ev, early
    if early:
        t.decide("early_roll", opp, f"Early roll: {t.n(opp)} threw before {t.n(mover)} lifted "
                 f"the dice. The roll stands; {t.n(mover)} may still change the move, then lifts "
                 "the dice", rule="stands")
    else:
        t.decide("early_roll", opp, f"{t.n(opp)}'s throw waits until {t.n(mover)}'s move "
                 "is judged", rule="waiting")


def double_after_roll(t: TableState, ev: PlayerInput) -> None:
    """A double once the roll counts: too late (or not the doubler's turn)."""
    if ev.player == t.turn:
        t.decide("refused", ev.player, f"{t.n(ev.player)} cannot double after rolling: "
                 "a double comes before the throw")
    else:
        t.decide("refused", ev.player, f"{t.n(ev.player)} may double only at the start of "
                 f"their own turn, after {t.n(t.turn)} lifts the dice")


# ------------------------------------------------------------------ checkers moved before a roll


def board_before_roll(t: TableState, ev: BoardEvidence) -> None:
    """RULES 10: checkers that move before a roll is seen are reported, and the game waits
    until they are back (a camera-only table reads the move before the roll: no check)."""
    t.reading, t.fresh = ev, True
    if not t.settings.dice_reader:
        return
    moved = moved_before_roll(t)
    if moved and moved != t.t.unseen:
        t.t.unseen = moved
        seen = "no roll that counts" if t.state == State.REROLL else "no roll"
        t.decide("unseen_roll", t.turn, f"{moved[0].upper()}{moved[1:]}, but {seen} was seen: put them "
                 f"back, then {t.n(t.turn)} throws (or call the director)")
    elif not moved and t.t.unseen and board_verdict(t) == "match":
        t.t.unseen = ""
        t.decide("board_in_place", t.turn, f"The checkers are back in place: {t.n(t.turn)} "
                 "throws")


def board_verdict(t: TableState) -> str:
    """The last stable reading against the referee's position: ``match``, ``illegal``
    (clearly another position) or why it cannot say."""
    if t.reading is None:
        return "none"
    return match_reading(t.reading, t.pos, [t.pos], t.turn or "dark", t.settings.min_confidence).kind


def moved_before_roll(t: TableState) -> str:
    """What moved since the position the referee holds, when the last stable reading
    clearly shows another position on a table with a dice reader ("" otherwise)."""
    if not t.settings.dice_reader or t.reading is None or board_verdict(t) != "illegal":
        return ""
    mover = t.turn or "dark"
    now = evidence_position(t.reading)
    before_m, after_m = t.mover_position(), (now if mover == "dark" else now.swap())
    own, _ = describe_change(before_m, after_m)
    theirs = opponent_change(before_m, after_m)
    words = ", ".join(w for w in (own and f"{t.n(mover)} {own}", theirs and f"{t.n(other(mover))} "
                                  f"{theirs}") if w)
    return f"the checkers have moved ({words})" if words else "the checkers have moved"
