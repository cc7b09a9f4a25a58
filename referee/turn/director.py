"""The tournament director's powers at the table: undo the last action, set up a position,
correct the score, override a verdict, end the match.

Each power is a :class:`referee.officials.DirectorAction` (who did it, why, and how the
director's key was shown), journaled like any input and so decided alike on resume.
Without the key (``key == ""``) every action is refused (guard :func:`has_key`).

Limits
------
* **Undo** takes back the table's last event that added to the game under way's record:
  a roll that counted (the player throws again), a move (the mover plays the same roll
  again; the dice stand, also for the opening roll), an accepted illegal move, a double,
  take or beaver, a resignation offer or its rejection, a correction demanded.  Several
  undos go further back (up to :data:`UNDO_DEPTH` in a row), to the game's opening roll (then
  thrown again).  A game that has
  ended is not undone (correct the score instead), nor is a set-up (nor what came before it).
  In a chouette each member's answer to the cube is undone one by one (the record holds the
  box's double only once all have answered).  Each action taken back is journaled as a
  record ``Undo``; the record folds it away, so the .mat and SGF never show the undone action.
* **Set up** a position by gnubg Position ID (optionally with a Match ID: ``ID:MatchID``
  or ``match_id``) or XGID.  The Match ID / XGID gives the cube, who is on roll and the
  score (the dice and a pending double in it are not used: the player on roll throws);
  else ``colour`` (default Dark) is on roll with the cube in the middle.  Between games it
  starts the next game from the position; during a game the game goes on from it.  The
  record gets a ``SetUp`` action (SGF: a set-board node; .mat cannot hold it and writes
  the game up to the set-up, then the result).
* **Correct the score** (not after the match is over; a score that reaches the match
  length is refused: end the match instead).  During a game the game is played at the
  corrected score; between games the next game starts from it.  Once a game is in the
  record, the record keeps a ``ScoreCorrection`` (folded into the game's score before; one
  made between games is the next game's first action), so the replay accepts the new score.
* **Override a verdict**: ``accept_move`` accepts a move the referee called illegal (as
  the opponent's acceptance would); ``reject_move`` rejects the last move the referee
  accepted (undone: the mover plays the roll again).
* **End the match** at the score as it stands, or awarded to ``colour``; a game under way
  stays unfinished in the record.
* **Learn the board as it stands**: the director has checked that the checkers stand as the
  referee's position (the screen shows it) on a board the camera reads poorly (the table said
  its first position reads too many points off to be learned): the camera learns the board's
  look from its next still frame, whatever it reads there.  Only while no checker may be on its
  way (before a throw, a cube or resignation answer pending, or play paused for the director);
  the game and its record do not change.
"""
from __future__ import annotations

import copy
import operator
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from referee.colour import COLOURS, other
from referee.events import PlayerInput
from referee.officials import DirectorAction
from referee.records import actions as rec
from referee.records.problems import action_text
from referee.rules.cube import Cube
from referee.rules.match import Score
from referee.rules.match_id import MatchState, parse_match_id, xgid_match
from referee.rules.moves import legal_plays
from referee.rules.position import Position, parse_position
from referee.turn import correcting, opening
from referee.turn.cube import HeadsUpCube
from referee.turn.states import STATES, State
from referee.turn.table_state import TableState, TurnFacts, roll_text, to_dark

#: what a mark restores as it was (the score and the game number are not undone)
_KEPT = ("turn", "pos", "cube", "auto_doubles", "reading", "resigner", "resign_kind", "resign_return",
         "resume_state", "message", "choices")
_kept = operator.attrgetter(*_KEPT)
#: how far back undo goes: the game's last events that added to its record (older marks are dropped)
UNDO_DEPTH = 12
#: states after the dice were lifted: an undo there lets the mover play the roll again
_AFTER_LIFT = (State.WAITING_FOR_BOARD, State.AMBIGUOUS, State.CONFIRM_ROLL, State.ILLEGAL_MOVE, State.CORRECTING)
_WORDS = {"undo": "undo", "setup": "set-up", "score": "score correction", "accept_move": "acceptance of the move",
          "reject_move": "rejection of the move", "end_match": "end of the match",
          "learn_board": "order to learn the board as it stands"}
#: states in which the checkers stand as the referee's position (no move under way or being judged)
AT_REST = (State.OPENING_ROLL, State.WAITING_FOR_ROLL, State.REROLL, State.DOUBLE_OFFERED,
            State.RESIGNATION_OFFERED, State.DIRECTOR)


@dataclass
class Mark:
    """The table as it stood before an event that added to the game's record (what undo restores)."""

    state: State
    game: int
    actions: int
    values: dict[str, Any]
    turn_facts: TurnFacts
    opening: dict[str, Optional[int]]
    last_plays: list[str]
    policy: Any = None


def mark(t: TableState) -> Mark:
    """What :func:`undo` would restore, taken before each event (cheap: the values are immutable,
    the turn's facts are copied shallow -- their lists are replaced, never changed -- and only a
    chouette's cube policy, which changes in place, is copied deep)."""
    policy = t.cube_policy
    return Mark(t.state, t.game, len(t.actions), dict(zip(_KEPT, _kept(t))), _copy_facts(t.t), dict(t.opening),
                list(t.last_plays),
                None if isinstance(policy, HeadsUpCube) else copy.deepcopy(policy, {id(t.settings): t.settings}))


#: players' answers a chouette may hold outside the record (each member's take or pass)
_ANSWERS = ("double", "take", "pass", "beaver")


def _copy_facts(facts: TurnFacts) -> TurnFacts:
    out = object.__new__(TurnFacts)
    out.__dict__.update(facts.__dict__)
    return out


def keep(t: TableState, before: Mark, marks: list[Mark], event: Any = None, decided: Sequence[Any] = ()) -> None:
    """After an event: keep ``before`` in ``marks`` when the event added to the game's record
    (or was a cube action the table took, which a chouette records only once every member has
    answered); a new game starts them afresh (from its opening, heads-up)."""
    if t.game != before.game:
        marks.clear()
        if t.actions and isinstance(t.cube_policy, HeadsUpCube):  # the new game's opening: restore it as the game began
            marks.append(Mark(State.OPENING_ROLL, t.game, 0, {**before.values, "turn": None, "pos": Position.start(),
                                                               "cube": Cube(), "auto_doubles": 0, "resigner": None},
                              TurnFacts(), {"dark": None, "light": None}, []))
    elif len(t.actions) > before.actions and not isinstance(t.actions[-1], rec.SetUp):
        marks.append(before)  # (a set-up is not undone)
        del marks[:-UNDO_DEPTH]
    elif (isinstance(event, PlayerInput) and event.action in _ANSWERS and decided
          and not any(d.kind in ("refused", "not_accepted") for d in decided)):
        marks.append(before)
        del marks[:-UNDO_DEPTH]


# ------------------------------------------------------------------ guards


def has_key(t: TableState, ev: DirectorAction) -> Optional[str]:
    """The director showed the key (the director's button, the PIN, the club login)."""
    if not ev.key:
        return (f"the director's {_WORDS[ev.action]} by {ev.by!r} is refused: no director's key (hold the "
                "director's button or enter the PIN on the buttons; from the club page, log in as the director)")
    return None


def match_is_over(t: TableState, ev: DirectorAction) -> None:
    """Once the match is over the director's powers change nothing: said as a refusal."""
    t.decide("refused", None, f"the match is over: the director's {_WORDS[ev.action]} cannot change it "
             "(start a new match: bgtable run --new-match)", event=f"director:{ev.action}", state=t.state.value)


def undo_possible(t: TableState, ev: DirectorAction) -> Optional[str]:
    """Something of the game under way can be taken back."""
    if t.state in (State.GAME_OVER, State.MATCH_OVER):
        return "the game is over and stands: correct the score instead of undoing it"
    marks = getattr(t, "undo_marks", [])
    if not marks or marks[-1].game != t.game or len(t.actions) < marks[-1].actions:
        return "nothing to undo in this game"
    return None


def move_to_reject(t: TableState, ev: DirectorAction) -> Optional[str]:
    """The game's last action is a move the referee accepted."""
    why = undo_possible(t, ev)
    if why:
        return why
    if not t.actions or not isinstance(t.actions[-1], (rec.Move, rec.IllegalAccepted)):
        last = action_text(t.actions[-1]) if t.actions else "nothing"
        return f"the last action is {last!r}, not a move: the director can reject only the last move accepted"
    return None


def illegal_shown(t: TableState, ev: DirectorAction) -> Optional[str]:
    """The referee has called the move illegal (the opponent's choice is pending)."""
    if t.state != State.ILLEGAL_MOVE:
        return f"no move is called illegal now ({STATES[t.state]})"
    return None


def board_at_rest(t: TableState, ev: DirectorAction) -> Optional[str]:
    """The checkers stand as the referee's position: no move is under way or being judged."""
    if t.state not in AT_REST:
        return (f"the checkers may be on their way now ({STATES[t.state]}): the board is learned as it stands "
                "only before a throw, or with play paused for the director")
    return None


def score_valid(t: TableState, ev: DirectorAction) -> Optional[str]:
    """The corrected score is given and below the match length."""
    if ev.score is None:
        return "the score correction needs the score: score = [dark, light]"
    n = t.settings.match_to
    if n and max(ev.score) >= n:
        return (f"a score of {ev.score[0]}-{ev.score[1]} ends a {n}-point match: end the match instead "
                f"(or give scores below {n})")
    return None


def setup_valid(t: TableState, ev: DirectorAction) -> Optional[str]:
    """The set-up's IDs can be read, the position is possible, and its match fits this one."""
    try:
        read_setup(t, ev)
    except ValueError as exc:
        return f"the set-up cannot be used: {exc}"
    return None


# ------------------------------------------------------------------ reading a set-up


@dataclass(frozen=True)
class SetUpOrder:
    """A set-up, read: the position with the player on roll on roll, who that is, the cube, the score."""

    position: Position
    on_roll: str
    cube: Cube
    score: Optional[tuple[int, int]]


def read_setup(t: TableState, ev: DirectorAction) -> SetUpOrder:
    """The set-up an action asks for (ValueError naming the bad ID or the impossible position)."""
    text = ev.position.strip()
    if not text:
        raise ValueError("no position: give a gnubg Position ID (position = \"4HPwATDgc/ABMA\") or an XGID")
    pos = parse_position(text)
    problems = pos.validate()
    if problems:
        raise ValueError(f"position {text!r} is impossible: {'; '.join(problems)}")
    state: Optional[MatchState] = None
    is_xgid = text.upper().startswith("XGID=") or len(text.split(":")[0]) == 26
    if ev.match_id:
        state = parse_match_id(ev.match_id)
    elif is_xgid:
        state = xgid_match(text)
    elif ":" in text:
        state = parse_match_id(text.split(":", 1)[1])
    on_roll = ev.colour or "dark"
    cube, score = Cube(), None
    if state is not None:
        n = t.settings.match_to
        if state.match_length != n:
            raise ValueError(f"its match length {state.match_length} is not this match's {n} "
                             f"({'money' if not n else f'{n} points'})")
        on_roll = COLOURS[state.on_roll]
        owner = None if state.owner is None else COLOURS[state.owner]
        cube = Cube(state.cube, owner, turned=state.cube > 1)
        score = state.score
        if n and max(score) >= n:
            raise ValueError(f"its score {score[0]}-{score[1]} ends a {n}-point match")
    return SetUpOrder(pos, on_roll, cube, score)


# ------------------------------------------------------------------ the powers


def _said(t: TableState, ev: DirectorAction, text: str, **data: Any) -> None:
    why = f" ({ev.why})" if ev.why else ""
    t.decide("director", None, f"The director ({ev.by}){why}: {text}", action=ev.action, by=ev.by, **data)


def undo(t: TableState, ev: DirectorAction) -> None:
    """Take back the last event that added to the game's record (see the module doc)."""
    taken = _take_back(t, ev)
    what = " and ".join(taken) or "the last answer to the cube"
    _said(t, ev, f"{what} undone. {STATES[t.state].capitalize()}", undone=tuple(taken))


def reject_move(t: TableState, ev: DirectorAction) -> None:
    """The director rejects the last move the referee accepted: the mover plays the roll again."""
    play = action_text(t.actions[-1])
    _take_back(t, ev)
    _said(t, ev, f"the move {play} is rejected; {t.n(t.turn)} plays {roll_text(t.t.dice or ())} again",
          undone=(play,))


def _take_back(t: TableState, ev: DirectorAction) -> list[str]:
    marks: list[Mark] = getattr(t, "undo_marks")
    m = marks.pop()
    undone = t.actions[m.actions:]
    del t.actions[m.actions:]
    for a in reversed(undone):
        t.new_actions.append(rec.Undo(a.player, action_text(a), t=ev.t))
    for k, v in m.values.items():
        setattr(t, k, v)
    t.t, t.opening, t.last_plays = _copy_facts(m.turn_facts), dict(m.opening), list(m.last_plays)
    if m.policy is not None:  # in place: whoever holds the table's cube policy (the chouette) sees it restored
        vars(t.cube_policy).update(vars(copy.deepcopy(m.policy, {id(t.settings): t.settings})))
    t.fresh = False
    state = m.state if m.state != State.DIRECTOR else State(m.values["resume_state"])
    played = next((a for a in reversed(undone) if isinstance(a, (rec.Move, rec.IllegalAccepted))), None)
    if played is not None and state not in (State.MOVING,) + _AFTER_LIFT:
        # the opening roll's move: the dice stand, the starter plays them again
        mover = COLOURS[played.player]
        t.turn, t.opening = mover, {"dark": None, "light": None}
        _moving(t, mover, played.dice)
        state = State.MOVING
    elif state == State.OPENING_ROLL:  # the opening roll is thrown again, both dice
        t.opening = {"dark": None, "light": None}
    elif state in _AFTER_LIFT:
        if t.t.dice is not None:
            state = State.MOVING
        else:  # camera only: the turn is played again from before its end
            t.t, state = TurnFacts(), State.WAITING_FOR_ROLL
    t.enter(state)
    return [action_text(a) for a in undone]


def _moving(t: TableState, mover: str, dice: tuple[int, int]) -> None:
    before = t.mover_position()
    plays = legal_plays(before, *dice)
    t.t = TurnFacts(dice=dice, plays=plays, candidates=[to_dark(lp.result, other(mover)) for lp in plays])


def _between(t: TableState) -> bool:
    """Between games: a game has ended and the next not begun (also while paused there)."""
    return t.state == State.GAME_OVER or t.state == State.DIRECTOR and t.resume_state == State.GAME_OVER


def setup(t: TableState, ev: DirectorAction) -> None:
    """Set up a position (see the module doc): the player on roll throws next."""
    order = read_setup(t, ev)
    between = _between(t)
    if between:
        opening.start_game(t)
    if order.score is not None and tuple(order.score) != t.score.points:
        _set_score(t, order.score, ev, record=t.recorded_game > 0)
    t.pos, t.turn, t.cube = to_dark(order.position, order.on_roll), order.on_roll, order.cube
    t.t, t.opening, t.resigner = TurnFacts(), {"dark": None, "light": None}, None
    t.reading, t.fresh = None, False  # the board last read is not the one set up
    t.enter(State.WAITING_FOR_ROLL)
    owner = None if order.cube.owner is None else t.pi(order.cube.owner)
    t.act(rec.SetUp(t.pi(order.on_roll), order.position.position_id(), order.cube.value, owner, t=ev.t))
    getattr(t, "undo_marks").clear()
    cube = f"; the cube at {order.cube.value}" + (f", {t.n(order.cube.owner)}'s" if order.cube.owner else
                                                  " in the middle") if order.cube.value > 1 else ""
    _said(t, ev, f"position {order.position.position_id()} set up{cube}; {t.n(order.on_roll)} throws",
          position=order.position.position_id(), turn=order.on_roll)


def correct_score(t: TableState, ev: DirectorAction) -> None:
    """Correct the score (see the module doc)."""
    assert ev.score is not None
    old = t.score.points
    _set_score(t, ev.score, ev, record=t.recorded_game > 0)
    names = (t.names["dark"], t.names["light"])
    _said(t, ev, f"the score is corrected from {old[0]}-{old[1]} to {t.score.text(names)}", score=t.score.points)


def _set_score(t: TableState, score: tuple[int, int], ev: DirectorAction, record: bool) -> None:
    s, n = t.score, t.settings.match_to
    at_point = bool(n) and max(score) == n - 1
    crawford_game = s.crawford_game and at_point
    if _between(t) and at_point and not (s.crawford_done or s.crawford_game):
        crawford_game = s.crawford  # the next game is the Crawford game
    t.score = Score(s.match_to, (score[0], score[1]), s.crawford, crawford_game,
                    s.crawford_done, s.games)
    if record:
        t.new_actions.append(rec.ScoreCorrection(0, (score[0], score[1]), t=ev.t))


def accept_move(t: TableState, ev: DirectorAction) -> None:
    """The director accepts the move the referee called illegal (as the opponent's acceptance)."""
    mover = t.turn or "dark"
    _said(t, ev, f"{t.n(mover)}'s move stands as played")
    correcting.accept_illegal(t, PlayerInput(other(mover), "accept_move", t=ev.t))


def learn_board(t: TableState, ev: DirectorAction) -> None:
    """The camera learns the board as it stands, as the referee's position (see the module doc):
    one more order counted (:attr:`TableState.board_lessons`), which the table's loop hands to its
    camera; the state, the game and its record stay as they are."""
    t.board_lessons += 1
    _said(t, ev, "the camera learns the board as it stands, as the position on the screen; "
          "keep the checkers still until it says so", position=t.pos.position_id())


def end_match(t: TableState, ev: DirectorAction) -> None:
    """End the match now: at the score as it stands, or awarded to ``ev.colour``."""
    t.enter(State.MATCH_OVER)
    t.turn = None
    a, b = t.score.points
    if ev.colour:
        _said(t, ev, f"the match is awarded to {t.n(ev.colour)} (the score stands at {a}-{b})",
              winner=ev.colour, score=t.score.points)
    else:
        _said(t, ev, f"the match ends at {a}-{b}", score=t.score.points)
    t.decide("match_over", ev.colour or None, "The director ended the match" +
             (f": {t.n(ev.colour)} wins" if ev.colour else f" at {a}-{b}"), score=t.score.points)


__all__ = ["Mark", "mark", "keep", "has_key", "undo", "reject_move", "setup", "correct_score", "accept_move",
           "end_match", "learn_board", "board_at_rest", "AT_REST", "match_is_over", "read_setup", "SetUpOrder"]
