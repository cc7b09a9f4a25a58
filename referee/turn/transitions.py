"""The referee's machine, declared: for each trigger (an event kind, or ``player:<action>``),
the states that accept it, the named guards, the handler (a function of the phase module
that owns it) and the states the handler may enter.  An event a state declares nothing for
gives a ``not_accepted`` decision naming the event and the state; a failed guard gives a
``refused`` decision with the guard's reason.  Nothing raises.

Where to look: the opening roll :mod:`~referee.turn.opening`; a throw and its landing
:mod:`~referee.turn.rolling` (rules in :mod:`~referee.turn.landing`); the dice lifted and the
move judged :mod:`~referee.turn.judging`; an illegal move accepted or corrected
:mod:`~referee.turn.correcting`; tables without a dice reader :mod:`~referee.turn.camera_only`;
the cube :mod:`~referee.turn.cube`; resignations and the end of a game
:mod:`~referee.turn.ending`; quiet events and the director :mod:`~referee.turn.quiet`.
"""
from __future__ import annotations

from referee.turn import (camera_only, correcting, cube, director, ending, guards, judging, opening, quiet, rolling,
                          timeout)
from referee.officials import DIRECTOR_ACTIONS
from referee.turn.machine import Table, index, transition
from referee.turn.states import State as S

ALL = frozenset(S)
#: states where the game is under way and play can be paused or answered
PLAYING = ALL - {S.MATCH_OVER, S.DIRECTOR}
BEFORE_ROLL = (S.WAITING_FOR_ROLL, S.REROLL)
#: states from which a player may resign
RESIGNABLE = (S.WAITING_FOR_ROLL, S.REROLL, S.MOVING, S.WAITING_FOR_BOARD, S.AMBIGUOUS)
#: where a move that stands leads: the next turn (and a waiting early roll thrown), or the game's end
MOVE_DONE = (S.WAITING_FOR_ROLL, S.REROLL, S.MOVING, S.GAME_OVER, S.MATCH_OVER)
GAME_END = (S.GAME_OVER, S.MATCH_OVER)
#: where judging a reading leads
JUDGED = (S.WAITING_FOR_BOARD, S.AMBIGUOUS, S.ILLEGAL_MOVE) + MOVE_DONE

TRANSITIONS = (
    # quiet events, the director
    transition("roll_started", ALL, quiet.ignore),
    transition("hand_over_board", ALL - {S.MATCH_OVER}, quiet.hands),
    transition("hand_over_board", {S.MATCH_OVER}, quiet.ignore),
    transition("board", {S.OPENING_ROLL, S.MOVING, S.CONFIRM_ROLL, S.ILLEGAL_MOVE, S.DOUBLE_OFFERED,
                         S.RESIGNATION_OFFERED, S.DIRECTOR}, quiet.note_board),
    transition("board", {S.GAME_OVER, S.MATCH_OVER}, quiet.ignore),
    transition("reader_fault", PLAYING, quiet.reader_fault),
    transition("camera", ALL, quiet.camera_report),
    transition("dice_seen", ALL, camera_only.dice_seen),  # the camera on the dice: the throw, or a cross-check
    transition("player:call_director", PLAYING, quiet.call_director, {S.DIRECTOR}),
    transition("player:call_director", {S.DIRECTOR}, quiet.resume, PLAYING),
    transition("player:confirm", {S.DIRECTOR}, quiet.resume, PLAYING),
    transition("dice_lifted", {S.OPENING_ROLL, S.REROLL, S.WAITING_FOR_BOARD, S.AMBIGUOUS, S.CONFIRM_ROLL,
                               S.ILLEGAL_MOVE, S.DOUBLE_OFFERED, S.RESIGNATION_OFFERED, S.GAME_OVER,
                               S.MATCH_OVER}, quiet.ignore),
    # the opening roll
    transition("roll_settled", {S.OPENING_ROLL}, opening.opening_roll, {S.MOVING}),
    transition("roll_settled", {S.GAME_OVER}, opening.next_game, {S.OPENING_ROLL, S.MOVING}),
    # before the throw: checkers moved, the throw, a double; camera only: the turn's end
    transition("board", BEFORE_ROLL, rolling.board_before_roll),
    transition("roll_settled", BEFORE_ROLL, rolling.roll, {S.REROLL, S.MOVING}, [guards.board_in_place]),
    transition("player:double", BEFORE_ROLL, cube.double, {S.DOUBLE_OFFERED},
               [guards.on_turn, guards.not_thrown, cube.cube_available]),
    transition("player:confirm", BEFORE_ROLL, camera_only.camera_turn_end,
               (S.CONFIRM_ROLL, S.ILLEGAL_MOVE) + MOVE_DONE, [guards.camera_only, guards.on_turn]),
    transition("dice_lifted", {S.WAITING_FOR_ROLL}, camera_only.lift_before_roll,
               (S.CONFIRM_ROLL, S.ILLEGAL_MOVE) + MOVE_DONE),
    # the roll counts: the mover moves; a throw while the dice are down
    transition("roll_settled", {S.MOVING, S.WAITING_FOR_BOARD, S.AMBIGUOUS}, rolling.roll_while_moving),
    transition("player:double", {S.MOVING}, rolling.double_after_roll),
    # the dice lifted: the move judged
    transition("dice_lifted", {S.MOVING}, judging.lift, JUDGED),
    transition("board", {S.WAITING_FOR_BOARD, S.AMBIGUOUS}, judging.judge_reading, JUDGED),
    transition("player:confirm", {S.AMBIGUOUS}, correcting.pick_play, MOVE_DONE, [guards.valid_choice]),
    transition("player:confirm", {S.CONFIRM_ROLL}, camera_only.pick_roll, MOVE_DONE, [guards.valid_choice]),
    # an illegal move: accepted (by a word, a throw, a double) or corrected
    transition("player:accept_move", {S.ILLEGAL_MOVE}, correcting.accept_illegal, (S.CONFIRM_ROLL,) + MOVE_DONE,
               [guards.not_mover]),
    transition("player:demand_legal_move", {S.ILLEGAL_MOVE}, correcting.demand_legal, {S.CORRECTING},
               [guards.not_mover, guards.dice_known]),
    transition("roll_settled", {S.ILLEGAL_MOVE}, correcting.roll_accepts_illegal, (S.CONFIRM_ROLL,) + MOVE_DONE),
    transition("player:double", {S.ILLEGAL_MOVE}, correcting.double_accepts_illegal,
               (S.CONFIRM_ROLL, S.DOUBLE_OFFERED) + MOVE_DONE, [guards.not_mover, cube.cube_available]),
    transition("board", {S.CORRECTING}, correcting.judge_correction, MOVE_DONE),
    transition("dice_lifted", {S.CORRECTING}, correcting.correction_now, MOVE_DONE),
    transition("player:confirm", {S.CORRECTING}, correcting.correction_now, MOVE_DONE, [guards.mover]),
    # the cube
    transition("player:take", {S.DOUBLE_OFFERED}, cube.take, {S.WAITING_FOR_ROLL}, [cube.responder]),
    transition("player:pass", {S.DOUBLE_OFFERED}, cube.pass_, (S.WAITING_FOR_ROLL,) + GAME_END, [cube.responder]),
    transition("player:beaver", {S.DOUBLE_OFFERED}, cube.beaver, (), [cube.responder, cube.beaver_allowed]),
    # resignations
    *(transition(f"player:{action}", RESIGNABLE, ending.resign, {S.RESIGNATION_OFFERED})
      for action in ending.RESIGN_KINDS),
    transition("player:accept_resignation", {S.RESIGNATION_OFFERED}, ending.accept_resignation, GAME_END,
               [guards.not_resigner]),
    transition("player:reject_resignation", {S.RESIGNATION_OFFERED}, ending.reject_resignation, RESIGNABLE,
               [guards.not_resigner]),
    # the table's clock: a reserve run out (referee.turn.timeout)
    transition("time_out", ALL - {S.MATCH_OVER}, timeout.time_out, (S.GAME_OVER, S.MATCH_OVER)),
    transition("time_out", {S.MATCH_OVER}, quiet.ignore),
)

#: the director's powers (:mod:`referee.turn.director`): every state accepts them; without the
#: director's key, or where the power has nothing to act on, the guards refuse them; once the
#: match is over, nothing changes it (the match's end stays the machine's one final state)
ON = ALL - {S.MATCH_OVER}
DIRECTOR = (
    transition("director:undo", ON, director.undo, PLAYING - {S.GAME_OVER}, [director.has_key, director.undo_possible]),
    transition("director:reject_move", ON, director.reject_move, PLAYING - {S.GAME_OVER},
               [director.has_key, director.move_to_reject]),
    transition("director:accept_move", ON, director.accept_move, (S.CONFIRM_ROLL,) + MOVE_DONE,
               [director.has_key, director.illegal_shown]),
    transition("director:setup", ON, director.setup, {S.OPENING_ROLL, S.WAITING_FOR_ROLL},
               [director.has_key, director.setup_valid]),
    transition("director:score", ON, director.correct_score, (), [director.has_key, director.score_valid]),
    transition("director:end_match", ON, director.end_match, {S.MATCH_OVER}, [director.has_key]),
    transition("director:learn_board", ON, director.learn_board, (), [director.has_key, director.board_at_rest]),
    *(transition(f"director:{action}", {S.MATCH_OVER}, director.match_is_over, (), [director.has_key])
      for action in DIRECTOR_ACTIONS),
)
TRANSITIONS += DIRECTOR

INITIAL = S.OPENING_ROLL
#: state -> trigger -> transition (the machine's lookup)
TABLE: Table = index(TRANSITIONS)
