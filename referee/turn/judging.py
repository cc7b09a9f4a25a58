"""Moving and judging: what happens when the dice are lifted.  The last stable board reading
(if no hand has been over the board since) is scored against the positions the roll allows
(:mod:`referee.turn.matching`): the clearly best is accepted and the turn passes, several
that fit equally are offered to the players, a confident reading no legal play explains is
an illegal move, and anything less waits for a clearer reading.  A camera reading taken
before the lift is never called illegal at once: the dice lay on the board in it, and a die
the camera took for a checker makes a legal move look illegal; the referee waits for the still
board once the dice are off it (the camera says the board is still again after every movement,
even when it reads as before: :class:`vision.stability.StabilityFilter`) and judges that.  Dice
thrown into a tray (``landing = "tray"``) never lie on the board: no wait there.

Turn completion is ``DiceLifted``; a throw by the opponent that waited (an early roll) is
played as soon as the move is settled.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from referee.events import BoardEvidence, DiceLifted
from referee.records import actions as rec
from referee.colour import other
from referee.rules.infer import describe_change, explain_illegal, opponent_change
from referee.rules.position import Position
from referee.rules.scoring import game_result
from referee.turn.ending import end_game
from referee.board import layout_of
from referee.turn.matching import match_reading
from referee.turn.rolling import throw
from referee.turn.states import State
from referee.turn.table_state import TableState, TurnFacts, roll_text, to_dark


def lift(t: TableState, ev: DiceLifted) -> None:
    """The mover lifts the dice: judge the last stable reading, or wait for one."""
    # the last stable reading counts unless a hand has been over the board since
    if not t.fresh or t.reading is None:
        t.enter(State.WAITING_FOR_BOARD)
        wait(t, "no stable reading of the board since the last movement")
        return
    judge(t, t.reading, lifting=True)


def judge_reading(t: TableState, ev: BoardEvidence) -> None:
    """A stable reading after the lift: judge it."""
    t.reading, t.fresh = ev, True
    judge(t, ev)


def wait(t: TableState, why: str, text: str = "") -> None:
    """Say the referee waits for a clear reading (once for the same words)."""
    text = text or f"Waiting for a clear view of the board to check {t.n(t.turn)}'s move: {why}"
    if text != t.t.last_wait:
        t.t.last_wait = text
        t.decide("wait_board", t.turn, text)


def judge(t: TableState, ev: BoardEvidence, lifting: bool = False) -> None:
    """The reading against the positions the roll allows: accepted, ambiguous, illegal or unclear.
    ``lifting``: the reading was taken before the dice were lifted (an illegal one then waits for
    the board without them, module docstring)."""
    mover = t.turn or "dark"
    cands = t.t.candidates or [t.pos]
    held = t.t.held_illegal
    if held is not None and ev.odds:   # (held only after the lift: the board without the dice)
        from referee.turn.likelihood import judge_without_the_dice
        v = judge_without_the_dice(ev, t.pos, cands, mover, held)
    else:
        v = match_reading(ev, t.pos, cands, mover, t.settings.min_confidence)
    if v.kind == "match":
        play_accepted(t, v.indices[0])
    elif v.kind == "ambiguous" and t.state == State.AMBIGUOUS and t.t.pending == list(v.indices):
        pass   # the same board read again (a hand that changed nothing): the question stands, not asked twice
    elif v.kind == "ambiguous":
        t.t.pending = list(v.indices)
        t.enter(State.AMBIGUOUS)
        opts = [str(t.t.plays[i].play) for i in v.indices]
        t.decide("ambiguous", mover, f"{v.reason}: {' or '.join(opts)}. Fix the checkers so the "
                 "camera sees them, or confirm which was played", choices=opts)
    elif v.kind == "illegal" and lifting and ev.odds and t.settings.landing == "board":
        t.t.held_illegal = v.position
        t.fresh = False   # the next still reading shows the board without the dice
        t.enter(State.WAITING_FOR_BOARD)
        wait(t, "", f"Checking {t.n(mover)}'s move once the dice are off the board")
    elif v.kind == "illegal":
        assert v.position is not None
        illegal(t, v.position)
    else:
        t.enter(State.WAITING_FOR_BOARD)
        wait(t, v.reason, hit_not_on_bar(t, ev, cands) if v.kind == "misread" else "")


def hit_not_on_bar(t: TableState, ev: BoardEvidence, cands: Sequence[Position]) -> str:
    """RULES 4: a hit checker goes to the bar.  When the reading lacks some of the
    opponent's checkers and putting them on the bar makes it a position the camera can
    judge, the players are told so ("" otherwise: a real misreading)."""
    mover = t.turn or "dark"
    opp = other(mover)
    side = 0 if opp == "dark" else 1
    lay = layout_of(t.pos)
    before = lay.dark if opp == "dark" else lay.light
    short = sum(before) + lay.bar[side] - sum(ev.counts(opp)) - ev.bar[side]
    table = [i + 1 for i in range(24) if before[i] == 1 and ev.points[i].colour == mover]  # blots hit
    if short <= 0 or len(table) < short:
        return ""
    bar = list(ev.bar)
    bar[side] += short
    fixed = replace(ev, bar=(bar[0], bar[1]))
    if match_reading(fixed, t.pos, cands, mover, t.settings.min_confidence).kind not in (
            "match", "ambiguous", "illegal"):
        return ""
    points = sorted((p if mover == "dark" else 25 - p for p in table), reverse=True)
    where = " and ".join(str(p) for p in points)
    what = "checker" if short == 1 else "checkers"
    on = f"the {where} point{'s' if len(points) > 1 else ''}"
    return f"{t.n(mover)} hit {t.n(opp)}'s {what} on {on}: put {'it' if short == 1 else 'them'} on the bar"


def play_accepted(t: TableState, k: int) -> None:
    """The ``k``-th legal play was made: record it and pass the turn."""
    mover = t.turn or "dark"
    play = str(t.t.plays[k].play) if t.t.plays else ""
    finish_move(t, mover, rec.Move(t.pi(mover), t.t.dice or (1, 1), play),
                t.t.candidates[k] if t.t.plays else t.pos,
                f"{t.n(mover)} plays {roll_text(t.t.dice or ())}: {play or 'no move'}", play)


def finish_move(t: TableState, mover: str, action: rec.Action, after: Position, words: str, play: str,
                kind: str = "move_accepted") -> None:
    """The move stands: the game ends, or the turn passes (and a waiting early roll is thrown)."""
    t.act(action)
    t.pos = after
    dice = getattr(action, "dice", None)
    t.last_plays.append(f"{t.n(mover)} {''.join(map(str, dice or ()))}: {play or 'no move'}")
    t.decide(kind, mover, words, play=play, dice=dice)
    early = t.t.early
    res = game_result(to_dark(after, "dark"))
    if res is not None:
        winner = "dark" if res[0] == "on_roll" else "light"
        end_game(t, winner, res[1], "bearoff")
        return
    t.turn = other(mover)
    t.t = TurnFacts()
    t.enter(State.WAITING_FOR_ROLL)
    if early is not None:
        throw(t, early, t.turn)


def illegal(t: TableState, after: Position) -> None:
    """A confident reading no legal play explains: the opponent's choice (RULES 9.3, 9.4)."""
    mover = t.turn or "dark"
    opp = other(mover)
    before_m = t.mover_position()
    after_m = after if mover == "dark" else after.swap()
    text, _ = describe_change(before_m, after_m)
    moved = opponent_change(before_m, after_m)
    if t.t.dice is None:
        why = (f"{t.n(mover)} moved {t.n(opp)}'s checkers ({t.n(opp)}'s {moved})" if moved
               else f"{text or 'the change'}: no roll allows it")
    else:
        why = explain_illegal(before_m, after_m, *t.t.dice, (t.n(mover), t.n(opp)))
    t.t.illegal_after, t.t.illegal_text = after, text
    t.t.illegal_words = ", ".join(w for w in (text, moved and f"{t.n(opp)}'s checkers {moved}") if w)
    if t.t.early is not None and not t.t.early_was_early:
        # RULES 9.3: the opponent threw after the dice were lifted, which accepts the move
        t.decide("illegal_move", mover, f"Illegal: {why}. {t.n(opp)} threw after {t.n(mover)} "
                 "lifted the dice, which accepts the move as played", play=text)
        accept_illegal_move(t)
        return
    t.enter(State.ILLEGAL_MOVE)
    if t.t.dice:
        # RULES 9.4: an early roll lets the mover change the move; it is not the acceptance
        waits = f" ({t.n(opp)}'s early roll is played after)" if t.t.early is not None else ""
        t.decide("illegal_move", mover, f"Illegal: {why}. {t.n(opp)} may accept the move or ask "
                 f"for a legal one{waits}", choices=("accept_move", "demand_legal_move"), play=text)
    else:
        t.decide("illegal_move", mover, f"Illegal: {why}. The roll is unknown, so {t.n(opp)} may "
                 "accept the move as played or call the director", choices=("accept_move", "call_director"),
                 play=text)


def accept_illegal_move(t: TableState) -> None:
    """The illegal move stands as played (the opponent accepted it, or threw after the lift)."""
    mover = t.turn or "dark"
    after = t.t.illegal_after
    assert after is not None
    dice = t.t.dice
    assert dice is not None
    stood = after if mover == "light" else after.swap()  # as it stands, the next player on roll
    finish_move(t, mover, rec.IllegalAccepted(t.pi(mover), dice, t.t.illegal_text, stood.position_id()), after,
                f"{t.n(other(mover))} accepts {t.n(mover)}'s move as played: "
                f"{t.t.illegal_words or 'no change'}", t.t.illegal_text, kind="illegal_accepted")
