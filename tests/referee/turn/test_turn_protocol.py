"""Scripted turns through the referee: opening roll, landing rules, verdicts, illegal moves,
early rolls, board readings, camera-only tables.  Each decision and its reason asserted."""
from __future__ import annotations

import pytest

from referee.decisions import Decision
from referee.events import BoardEvidence, DiceLifted, DieReading, HandOverBoard, PointReading, RollSettled
from referee.rules.moves import match_play
from referee.rules.position import Position
from referee.turn import quiet
from referee.turn.machine import DeclarationError, check, index, transition
from referee.records.builder import build_record
from referee.turn.referee import STATES, TRANSITIONS, VIEW_STATE, Referee
from referee.turn.states import State
from referee.turn.transitions import INITIAL, TABLE
from referee.settings import Settings
from referee.table.streams import Table, as_dark, opening_throw, reading
from referee.view import STATES as VIEW_STATES


def table(**kw) -> Table:
    return Table(Referee(Settings(**kw)))


def kinds(ds: list[Decision]) -> list[str]:
    return [d.kind for d in ds]


def started(**kw) -> Table:
    """Dark has won the opening with 3-1 and played 8/5 6/5; Light on turn."""
    t = table(**kw)
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    return t


# ------------------------------------------------------------------ the machine's declaration


def test_transition_table_is_complete_and_reachable() -> None:
    assert set(STATES) == set(VIEW_STATE) == {s.value for s in State}
    assert set(VIEW_STATE.values()) <= set(VIEW_STATES)
    for tr in TRANSITIONS:
        assert callable(tr.handler) and all(callable(g) for g in tr.guards), tr
        assert tr.sources <= set(State) and tr.targets <= set(State), tr
    assert check(TRANSITIONS, INITIAL) == []
    assert {s for s, entries in TABLE.items() if entries} == set(State)


def test_the_check_fails_on_a_broken_declaration() -> None:
    """Each kind of breakage is found: a state nothing leads to, a state nothing leaves, a
    trigger declared twice for one state."""
    no_director = [tr for tr in TRANSITIONS if tr.handler is not quiet.call_director]
    assert "state 'director' cannot be reached from 'opening_roll'" in check(no_director, INITIAL)
    stuck = [tr for tr in TRANSITIONS if not (State.GAME_OVER in tr.sources and tr.targets - {State.GAME_OVER})]
    assert "state 'game_over' is a dead end: no transition leaves it" in check(stuck, INITIAL)
    twice = list(TRANSITIONS) + [transition("dice_lifted", {State.MOVING}, quiet.ignore)]
    [problem] = check(twice, INITIAL)
    assert "'dice_lifted' is declared twice for state 'moving'" in problem
    with pytest.raises(DeclarationError, match="declared twice"):
        index(twice)
    assert check(TRANSITIONS, INITIAL, final=()) == ["state 'match_over' is a dead end: no transition leaves it"]


def test_a_handler_entering_an_undeclared_state_is_an_error() -> None:
    ref = Referee()
    tr = transition("dice_lifted", {State.OPENING_ROLL}, quiet.ignore, {State.MOVING})
    with ref.running(tr):
        ref.enter(State.MOVING)
        with pytest.raises(DeclarationError, match="'director', which its transition does not declare"):
            ref.enter(State.DIRECTOR)
    assert ref.state == "moving" and ref.state is State.MOVING


def test_event_a_state_cannot_accept_names_event_and_state() -> None:
    t = table()
    [d] = t.press("dark", "take")
    assert d.kind == "not_accepted"
    assert "Dark's take is not accepted now" in d.reason
    assert "each player throws one die" in d.reason
    assert d.get("state") == "opening_roll" and d.get("event") == "player:take"


# ------------------------------------------------------------------ opening roll


def test_opening_two_dice_one_event() -> None:
    t = table()
    ds = t.opening(5, 3)
    assert kinds(ds) == ["opening_won", "roll_accepted"]
    assert ds[0].reason == "Dark 5, Light 3: Dark starts and plays 5-3"
    assert t.ref.turn == "dark" and t.ref.state == "moving" and t.ref.t.dice == (5, 3)


def test_opening_single_die_events_by_zone() -> None:
    t = table()
    [d] = t.send(RollSettled((DieReading(2, zone="left"),)))
    assert d.kind == "opening_die" and d.player == "light"
    assert d.reason == "Light threw a 2; waiting for Dark's die"
    assert t.ref.view().dice == (None, 2)
    [d] = t.send(RollSettled((DieReading(2, zone="left"),)))
    assert d.kind == "refused" and "Light already threw a 2" in d.reason
    ds = t.send(RollSettled((DieReading(6, zone="right"),)))
    assert ds[0].reason == "Dark 6, Light 2: Dark starts and plays 6-2"


def test_opening_tie_rolls_again() -> None:
    t = table()
    [d] = t.opening(4, 4)
    assert d.kind == "opening_tie" and d.reason == "Both threw 4: throw again"
    assert t.ref.cube.value == 1 and t.ref.state == "opening_roll"
    ds = t.opening(2, 6)
    assert ds[0].player == "light" and t.ref.t.dice == (6, 2)


def test_automatic_doubles_with_cap() -> None:
    t = table(automatic_doubles=2)
    assert "automatic double, the cube is at 2 in the middle" in t.opening(3, 3)[0].reason
    assert "the cube is at 4" in t.opening(5, 5)[0].reason
    assert t.opening(1, 1)[0].reason == "Both threw 1: throw again"  # the cap is reached
    assert t.ref.cube.value == 4 and t.ref.cube.owner is None
    t.opening(6, 1)
    v = t.ref.view()
    assert v.cube_value == 4 and v.cube_owner is None


def test_automatic_doubles_not_in_a_match() -> None:
    with pytest.raises(ValueError, match="automatic_doubles"):
        Settings(match_to=5, automatic_doubles=1)


def test_opening_both_dice_on_one_half_and_cocked() -> None:
    t = table()
    [d] = t.send(RollSettled((DieReading(3, zone="right"), DieReading(5, zone="right"))))
    assert d.kind == "reroll" and "both dice landed on Dark's right-hand half" in d.reason
    [d] = t.send(RollSettled((DieReading(3, zone="right", flat=False), DieReading(5, zone="left"))))
    assert d.kind == "reroll" and d.reason == "Re-roll the opening: Dark's die is cocked"
    assert d.get("cause") == "cocked"


def test_opening_with_tray_takes_dark_first() -> None:
    t = table(landing="tray")
    ds = t.send(opening_throw(2, 5, tray=True))
    assert ds[0].reason == "Dark 2, Light 5: Light starts and plays 5-2"


# ------------------------------------------------------------------ landing rules


@pytest.mark.parametrize("kw,cause,words", [
    (dict(cocked=0), "cocked", "the left die is cocked"),
    (dict(cocked=1), "cocked", "the right die is cocked"),
    (dict(on_checker=1), "on_checker", "the right die rests on a checker"),
    (dict(zone="outside"), "outside", "the left die landed outside the landing area"),
])
def test_landing_faults_reroll_both(kw, cause, words) -> None:
    t = started()
    [d] = t.throw((6, 4), **kw)
    assert d.kind == "reroll" and d.player == "light" and d.get("cause") == cause
    assert d.reason.startswith(f"Re-roll: {words}") and d.reason.endswith("Light throws both dice again")
    assert t.ref.state == "reroll" and t.ref.view().state == "reroll"
    assert t.record().games[0].actions[-1].TYPE == "reroll"


def test_die_on_checker_setting_stands() -> None:
    t = started(die_on_checker="stands")
    [d] = t.throw((6, 4), on_checker=0)
    assert d.kind == "roll_accepted"


def test_one_die_in_the_wrong_half() -> None:
    t = started()
    ev = RollSettled((DieReading(6, zone="left", x=-50), DieReading(4, zone="right", x=50)))
    [d] = t.send(ev)
    # x grows towards Dark's right: seen from Light's seat the die at x=50 is the left one
    assert d.kind == "reroll" and "the left die is not on Light's right-hand half" in d.reason


def test_no_double_after_a_voided_throw() -> None:
    t = started()
    t.throw((6, 4), cocked=0)
    [d] = t.press("light", "double")
    assert d.kind == "refused" and "the dice were already thrown" in d.reason
    assert d.get("guard") == "not_thrown"


def test_throw_by_the_player_not_on_turn() -> None:
    t = started()
    [d] = t.throw((5, 5), thrower="dark")
    assert d.kind == "wrong_turn" and d.reason == (
        "Both dice are on Dark's side: if Dark threw, it is Light's turn and the throw does not count; "
        "if Light threw, throw again onto your right-hand half")
    assert t.ref.state == "waiting_for_roll"


def test_unreadable_die_is_rerolled() -> None:
    t = started()
    [d] = t.throw((None, 4))
    assert d.kind == "reroll" and "the left die cannot be read" in d.reason


# ------------------------------------------------------------------ verdicts


def test_legal_move_accepted_on_lift_only() -> None:
    t = started()
    t.throw((6, 4))
    assert t.move("24/14") == []
    [d] = t.lift()
    assert d.kind == "move_accepted" and d.reason == "Light plays 6-4: 24/14"
    assert t.ref.turn == "dark" and t.ref.view().last_plays[-1] == "Light 64: 24/14"


def test_lift_without_a_fresh_reading_waits_then_judges() -> None:
    t = started()
    t.throw((6, 4))
    t.send(HandOverBoard())
    [d] = t.lift()
    assert d.kind == "wait_board" and "no stable reading" in d.reason
    lp = match_play(t.ref.mover_position(), 6, 4, "24/18 13/9")
    [d] = t.send(reading(as_dark(lp.result, "dark")))
    assert d.kind == "move_accepted" and d.get("play") == "24/18 13/9"


def test_illegal_move_through_a_held_point_reason() -> None:
    """The issue's kind of example: each way of playing 6-1 with one checker lands on a held point."""
    t = table()
    # Dark holds table points 7 and 2 (Light's 18 and 23); Light's 17 (table 8) is open
    pos = Position.from_points({7: 2, 2: 2, 6: 5, 13: 3, 11: 3}, {24: 2, 13: 5, 8: 3, 6: 5})  # Dark on roll
    t.ref.pos, t.ref.turn, t.ref.state = pos, "light", "waiting_for_roll"
    t.throw((6, 1))
    [d] = t.place((24, 17)) + t.lift()
    assert d.kind == "illegal_move" and d.player == "light"
    assert d.reason == ("Illegal: 24/17 lands on the 23 point and the 18 point, which are held by Dark. "
                        "Dark may accept the move or ask for a legal one")
    assert d.choices == ("accept_move", "demand_legal_move")


def test_accept_illegal_move() -> None:
    t = started()
    t.throw((6, 4))
    t.place((24, 18))
    [d] = t.lift()
    assert d.kind == "illegal_move"
    assert "24/18 does not play all of 6-4" in d.reason
    [d] = t.press("light", "accept_move")
    assert d.kind == "refused" and "the choice is Dark's" in d.reason
    [d] = t.press("dark", "accept_move")
    assert d.kind == "illegal_accepted" and d.reason == "Dark accepts Light's move as played: 24/18"
    g = t.record().games[0]
    assert g.actions[-1].TYPE == "illegal_accepted" and g.actions[-1].play == "24/18"
    assert t.ref.turn == "dark" and t.ref.state == "waiting_for_roll"


def test_opponent_rolling_accepts_an_illegal_move() -> None:
    t = started()
    t.throw((6, 4))
    t.place((24, 18))
    t.lift()
    ds = t.throw((3, 2), thrower="dark")
    assert kinds(ds) == ["illegal_accepted", "roll_accepted"]
    assert t.ref.turn == "dark" and t.ref.t.dice == (3, 2)


def test_opponent_doubling_accepts_an_illegal_move() -> None:
    t = started()
    t.throw((6, 4))
    t.place((24, 18))
    t.lift()
    ds = t.press("dark", "double")
    assert kinds(ds) == ["illegal_accepted", "double"]
    assert t.ref.state == "double_offered"


def test_demand_legal_move_and_correction() -> None:
    t = started()
    t.throw((6, 4))
    t.place((24, 18))
    t.lift()
    [d] = t.press("dark", "demand_legal_move")
    assert d.kind == "correction_demanded" and d.reason == "Dark demands a legal move: Light plays 6-4 again legally"
    assert t.ref.view().state == "illegal_move"
    # an intermediate reading (still illegal) is judged quietly; lifting says why
    assert t.place((24, 18)) == []
    [d] = t.lift()
    assert d.kind == "illegal_move" and d.reason.startswith("Still illegal: 24/18 does not play all of 6-4")
    [d] = t.move("24/14")
    assert d.kind == "move_accepted" and d.get("play") == "24/14"
    types = [a.TYPE for a in t.record().games[0].actions]
    assert types[-3:] == ["roll", "correction", "move"]


def test_no_legal_move_then_lift() -> None:
    t = table()
    # Light on the bar against a closed board of Dark's
    pos = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}, {"bar": 1, 13: 6, 8: 3, 6: 5})
    t.ref.pos, t.ref.turn, t.ref.state = pos, "light", "waiting_for_roll"
    [d] = t.throw((6, 5))
    assert d.reason == "Light rolled 6-5: no legal move; lift the dice"
    t.board(pos)
    [d] = t.lift()
    assert d.kind == "move_accepted" and d.reason == "Light plays 6-5: no move"


def test_not_moving_when_a_move_exists_is_illegal() -> None:
    t = started()
    t.throw((6, 4))
    t.board(t.ref.pos)
    [d] = t.lift()
    assert d.kind == "illegal_move" and "Light has not moved, but 6-4 can be played" in d.reason


# ------------------------------------------------------------------ early rolls


def test_early_roll_stands_and_is_played_after_the_lift() -> None:
    t = started()
    t.throw((6, 4))
    t.move("24/18 13/9")
    [d] = t.throw((2, 1), thrower="dark")
    assert d.kind == "early_roll" and d.get("rule") == "stands"
    assert d.reason == ("Early roll: Dark threw before Light lifted the dice. The roll stands; "
                        "Light may still change the move, then lifts the dice")
    t.move("24/14")  # Light changes the move knowing the roll
    ds = t.lift()
    assert kinds(ds) == ["move_accepted", "roll_accepted"]
    assert ds[0].get("play") == "24/14" and ds[1].reason.startswith("Dark rolled 2-1")


def test_early_roll_with_an_illegal_move_leaves_the_choice_to_the_opponent() -> None:
    """The early roll is not an acceptance (RULES 9.4): the opponent chooses; accepting
    then plays the early roll."""
    t = started()
    t.throw((6, 4))
    t.place((24, 18))
    t.throw((2, 1), thrower="dark")
    [d] = t.lift()
    assert d.kind == "illegal_move" and d.choices == ("accept_move", "demand_legal_move")
    assert d.reason.endswith("Dark may accept the move or ask for a legal one (Dark's early roll is played after)")
    assert t.ref.state == "illegal_move"
    ds = t.press("dark", "accept_move")
    assert kinds(ds) == ["illegal_accepted", "roll_accepted"]
    assert ds[1].reason.startswith("Dark rolled 2-1") and t.ref.turn == "dark"


def test_a_roll_after_the_lift_accepts_an_illegal_move_judged_later() -> None:
    """Thrown after the dice were lifted, the roll starts the opponent's turn (RULES 9.3)."""
    t = started()
    t.throw((6, 4))
    t.send(HandOverBoard())
    t.lift()
    [w] = t.throw((2, 1), thrower="dark")
    assert w.kind == "early_roll" and w.get("rule") == "waiting"
    lp = t.ref.mover_position()
    me = list(lp.me)
    me[23] -= 1
    me[17] += 1  # 24/18 only
    ds = t.send(reading(as_dark(Position(me, lp.opp), "light")))
    assert kinds(ds) == ["illegal_move", "illegal_accepted", "roll_accepted"]
    assert "Dark threw after Light lifted the dice, which accepts the move as played" in ds[0].reason


def test_early_roll_void() -> None:
    t = started(early_roll="void")
    t.throw((6, 4))
    t.move("24/14")
    [d] = t.throw((2, 1), thrower="dark")
    assert d.kind == "early_roll" and d.get("rule") == "void"
    assert "The roll is void; Dark throws again after Light's turn" in d.reason
    [d] = t.lift()
    assert d.kind == "move_accepted" and t.ref.state == "waiting_for_roll"
    actions = t.record().games[0].actions
    assert any(a.TYPE == "reroll" and a.cause == "early_roll" for a in actions)


def test_mover_throwing_again_keeps_the_first_roll() -> None:
    t = started()
    t.throw((6, 4))
    [d] = t.throw((1, 1), thrower="light")
    assert d.kind == "refused" and "the first roll 6-4 stands" in d.reason


# ------------------------------------------------------------------ reading the board


def _evidence(pos: Position, **changes) -> BoardEvidence:
    ev = reading(pos)
    pts = list(ev.points)
    for idx, pr in changes.items():
        pts[int(idx[1:]) - 1] = pr
    return BoardEvidence(tuple(pts), ev.bar, ev.off, ev.confidence)


def test_misreading_waits_for_the_next_reading() -> None:
    t = started()
    t.throw((6, 4))
    lp = match_play(t.ref.mover_position(), 6, 4, "24/14")
    good = as_dark(lp.result, "dark")
    bad = _evidence(good, p12=PointReading(4, "light"))  # a light checker vanished from point 12
    ds = t.send(HandOverBoard(), bad, DiceLifted())
    assert kinds(ds) == ["wait_board"]
    assert "it shows 14 light checkers on the board" in ds[0].reason
    [d] = t.send(reading(good))
    assert d.kind == "move_accepted"


def test_uncertain_stack_still_matches_one_legal_position() -> None:
    t = started()
    t.throw((6, 4))
    lp = match_play(t.ref.mover_position(), 6, 4, "13/3")  # Light 13/3 = table 12 -> 22
    good = as_dark(lp.result, "dark")
    ev = reading(good)
    # the camera counts the 5-stack on table point 19 as 4, unsure; and 1 off somewhere unsure
    pts = list(ev.points)
    pts[18] = PointReading(pts[18].count, "light", confidence=0.3)
    ev = BoardEvidence(tuple(pts), ev.bar, None, 1.0)
    ds = t.send(HandOverBoard(), ev, DiceLifted())
    assert kinds(ds) == ["move_accepted"] and ds[0].get("play") == "13/3"


def test_two_legal_positions_fitting_equally_hold_and_ask() -> None:
    """13/11 6/5 and 13/10 (2-1) differ only on uncertain points, by the same amount: ask."""
    t = table()
    pos = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    t.ref.pos, t.ref.turn, t.ref.state = pos, "dark", "waiting_for_roll"
    t.throw((2, 1))
    lp = match_play(t.ref.mover_position(), 2, 1, "13/11 6/5")
    ev = reading(as_dark(lp.result, "light"))
    pts = list(ev.points)
    pts[10] = PointReading(1, "dark", confidence=0.1)   # point 11: 1 (A) or 0 (B)
    pts[9] = PointReading(0, None, confidence=0.1)      # point 10: 0 (A) or 1 (B)
    pts[5] = PointReading(5, "dark", confidence=0.1)    # point 6: 4 (A) or 5 (B)
    pts[4] = PointReading(0, None, confidence=0.1)      # point 5: 1 (A) or 0 (B)
    ev = BoardEvidence(tuple(pts), ev.bar, ev.off, 1.0)
    [d] = t.send(HandOverBoard(), ev, DiceLifted())
    assert d.kind == "ambiguous" and sorted(d.choices) == ["13/10", "13/11 6/5"]
    assert d.reason.startswith("2 legal moves fit the reading equally well: ")
    assert t.ref.state == "ambiguous"
    assert t.send(HandOverBoard(), ev) == []   # a hand that changed nothing: the question is not asked twice
    [r] = t.press("dark", "confirm")
    assert r.kind == "refused" and r.get("guard") == "valid_choice"
    [a] = t.press("dark", "confirm", d.choices.index("13/11 6/5"))
    assert a.kind == "move_accepted" and a.get("play") == "13/11 6/5"


def test_a_clearer_reading_resolves_the_ambiguity() -> None:
    t = table()
    pos = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    t.ref.pos, t.ref.turn, t.ref.state = pos, "dark", "waiting_for_roll"
    t.throw((2, 1))
    lp = match_play(t.ref.mover_position(), 2, 1, "13/10")
    good = reading(as_dark(lp.result, "light"))
    pts = list(good.points)
    pts[10] = PointReading(1, "dark", confidence=0.1)
    pts[9] = PointReading(0, None, confidence=0.1)
    pts[5] = PointReading(5, "dark", confidence=0.1)
    pts[4] = PointReading(0, None, confidence=0.1)
    [d] = t.send(HandOverBoard(), BoardEvidence(tuple(pts), good.bar, good.off, 1.0), DiceLifted())
    assert d.kind == "ambiguous"
    [d] = t.send(good)
    assert d.kind == "move_accepted" and d.get("play") == "13/10"


def test_low_confidence_reading_waits() -> None:
    t = started()
    t.throw((6, 4))
    lp = match_play(t.ref.mover_position(), 6, 4, "24/14")
    ev = reading(as_dark(lp.result, "dark"))
    ev = BoardEvidence(ev.points, ev.bar, ev.off, 0.1)
    [d] = t.send(HandOverBoard(), ev, DiceLifted())
    assert d.kind == "wait_board" and "confidence 0.10 is too low" in d.reason


# ------------------------------------------------------------------ camera-only tables


def camera_table() -> Table:
    t = table(dice_reader=False)
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    return t


def test_camera_only_one_roll_explains_the_move() -> None:
    t = camera_table()
    lp = match_play(t.ref.mover_position(), 6, 4, "24/18 13/9")  # only 6-4 does this
    t.board(as_dark(lp.result, "dark"))
    ds = t.press("light", "confirm")
    assert kinds(ds) == ["roll_inferred", "move_accepted"]
    assert ds[0].reason == "Light's roll was 6-4" and ds[1].get("play") == "24/18 13/9"


def test_camera_only_several_rolls_are_confirmed() -> None:
    """Light on the bar against five closed points: every roll without a 6 leaves the board
    unchanged, so the players confirm which was thrown."""
    t = table(dice_reader=False)
    pos = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, {"bar": 1, 13: 6, 8: 3, 6: 5})
    t.ref.pos, t.ref.turn, t.ref.state = pos, "light", "waiting_for_roll"
    t.board(pos)
    [d] = t.lift()
    assert d.kind == "confirm_roll" and len(d.choices) == 15 and "6-1" not in d.choices
    ds = t.press("dark", "confirm", d.choices.index("5-4"))
    assert kinds(ds) == ["roll_inferred", "move_accepted"] and ds[1].get("dice") == (5, 4)
    assert ds[1].reason == "Light plays 5-4: no move"


def test_camera_only_no_roll_explains_the_move() -> None:
    t = camera_table()
    t.place((24, 2))  # 22 pips with one checker: no roll
    [d] = t.press("light", "confirm")
    assert d.kind == "illegal_move" and "no roll allows it" in d.reason
    assert d.choices == ("accept_move", "call_director")
    assert d.reason.endswith("The roll is unknown, so Dark may accept the move as played or call the director")
    [r] = t.press("dark", "demand_legal_move")
    assert r.kind == "refused" and "the roll is unknown" in r.reason
    [c] = t.press("dark", "accept_move")
    assert c.kind == "confirm_roll" and len(c.choices) == 21
    assert c.reason == "Dark accepts the move. For the record, confirm the roll Light threw"
    [a] = t.press("light", "confirm", c.choices.index("6-5"))
    assert a.kind == "illegal_accepted"
    acts = t.record().games[0].actions
    assert (acts[-1].TYPE, acts[-1].dice, acts[-1].play) == ("illegal_accepted", (6, 5), "24/2")
    assert t.ref.turn == "dark"


# ------------------------------------------------------------------ director, faults, replay


def test_director_pauses_and_resumes() -> None:
    t = started()
    [d] = t.press("light", "call_director")
    assert d.kind == "director" and t.ref.view().state == "director"
    [d] = t.throw((6, 4))
    assert d.kind == "not_accepted" and "play is paused" in d.reason
    [d] = t.press("dark", "confirm")
    assert d.reason.startswith("Play resumes") and t.ref.state == "waiting_for_roll"


def test_replay_rebuilds_the_same_state() -> None:
    t = started()
    t.throw((6, 4))
    t.place((24, 18))
    t.lift()
    t.press("dark", "demand_legal_move")
    clone = Referee.replay(t.ref.settings, t.events)
    assert clone.view() == t.ref.view()
    assert build_record(clone.new_record_actions()) == t.record()
    assert clone.state == "correcting"


def test_view_follows_the_state() -> None:
    t = started(match_to=7, names=("Ann", "Bob"))
    v = t.ref.view()
    assert v.turn == "light" and v.names == ("Ann", "Bob") and v.match_length == 7
    assert v.dark[4] == 2 and v.dark[5] == 4 and v.message == "Ann plays 3-1: 8/5 6/5"
    t.throw((6, 4))
    assert t.ref.view().dice == (6, 4) and t.ref.view().state == "moving"


def test_no_move_needs_no_new_reading() -> None:
    """Vision reports only changes: a player who cannot move lifts the dice with the board
    as last read, and that reading is judged."""
    t = table()
    pos = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 5}, {"bar": 1, 13: 6, 8: 3, 6: 5})
    t.ref.setup(pos, "light")
    t.send(reading(pos))
    t.throw((6, 5))
    [d] = t.lift()
    assert d.kind == "move_accepted" and d.reason == "Light plays 6-5: no move"


def test_replay_includes_a_directors_setup_and_resumed_score() -> None:
    pos = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    ref = Referee(Settings(match_to=7), score=(6, 3))
    assert ref.score.crawford_done  # a player already at 6: the Crawford game is behind
    t = Table(ref)
    ref.setup(pos, "light")
    t.play((6, 4), "24/14")
    clone = Referee.replay(ref.settings, ref.inputs, score=(6, 3))
    record = build_record(clone.new_record_actions())
    assert clone.view() == ref.view() and record == t.record()
    assert record.games[0].score_before == (6, 3)


def test_snapshot_and_restore() -> None:
    t = started(match_to=5)
    t.ref.setup(t.ref.pos, "light")
    t.throw((6, 4))
    t.place((24, 18))
    t.lift()
    text = t.ref.snapshot()
    assert text.count("\n") == len(t.ref.inputs) and '"kind":"setup"' in text.replace(" ", "")
    clone = Referee.restore(t.ref.settings, text)
    assert clone.view() == t.ref.view() and clone.state == "illegal_move"
    assert build_record(clone.new_record_actions()) == t.record()


def test_larger_die_rule_reason() -> None:
    """Either die alone, not both: playing the smaller one is illegal and said so."""
    t = table()
    # Dark: one checker on 24 and 14 on the ace point; Light holds Dark's 13 point (and 22):
    # 24/18 or 24/19 alone, never both (13 is blocked, nothing can bear off)
    pos = Position.from_points({24: 1, 1: 14}, {12: 2, 3: 13})
    t.ref.setup(pos, "dark")
    t.throw((6, 5))
    [d] = t.place((24, 19)) + t.lift()
    assert d.kind == "illegal_move"
    assert d.reason.startswith("Illegal: 24/19 plays the 5, but when only one die can be played the larger, "
                               "the 6, must be played (for example 24/18)")


def test_using_both_dice_when_a_bear_off_can_also_take_two_steps() -> None:
    """3-1 with checkers on 3 and 2 (the ace point held): 3/2 alone leaves the 3 unplayed."""
    t = table()
    pos = Position.from_position_id("hz+BADj+CwAAAA")
    t.ref.setup(pos, "dark")
    t.throw((3, 1))
    [d] = t.place((3, 2)) + t.lift()
    assert d.kind == "illegal_move"
    assert d.reason.startswith("Illegal: 3/2 does not play all of 3-1")
