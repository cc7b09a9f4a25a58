"""Rulings checked against RULES.md, one test per disagreement found (issue 16, items 1-6).

Each test is named after the RULES.md section it enforces and quotes the rule; the
scenarios are played through the referee as a table's devices would report them.
"""
from __future__ import annotations

from dataclasses import replace

from referee.decisions import Decision
from referee.events import DieReading, HandOverBoard, RollSettled
from referee.rules.moves import match_play
from referee.rules.position import Position
from referee.turn.referee import Referee
from referee.records.actions import Action, IllegalAccepted, Reroll, action_from_json
from referee.records.record import MatchRecord
from referee.settings import Settings
from referee.table.streams import Table, as_dark, reading


def kinds(ds: list[Decision]) -> list[str]:
    return [d.kind for d in ds]


def actions(t: Table) -> list[Action]:
    return list(t.record().games[-1].actions)


def started(**kw: object) -> Table:
    """Dark has won the opening with 3-1 and played 8/5 6/5; Light on turn."""
    t = Table(Referee(Settings(**kw)))  # type: ignore[arg-type]
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    return t


def moved(pos: Position, mine: tuple[tuple[int, int], ...] = (), theirs: tuple[tuple[int, int], ...] = ()) -> Position:
    """``pos`` (mover on roll) with checkers shifted, no hits: ``(from, to)`` in each side's numbering."""
    me, opp = list(pos.me), list(pos.opp)
    for side, moves in ((me, mine), (opp, theirs)):
        for src, dst in moves:
            side[24 if src == 25 else src - 1] -= 1
            side[dst - 1] += 1
    return Position(me, opp)


# ------------------------------------------------------------------ item 1


def test_rules_9_4_early_roll_does_not_accept_an_illegal_move() -> None:
    """RULES 9.4: "the roll stands, but the player still on turn may change their move
    knowing it; then they pick up their dice and the early roll is played"; 9.2-9.3: "A turn
    is complete when the player picks up their dice.  If the completed move is incomplete
    or illegal, the opponent chooses."  The early roll came before the turn was complete,
    so it cannot be the acceptance: the opponent chooses, and here demands a legal move."""
    t = Table(Referee(Settings()))
    t.opening(3, 1)  # Dark plays 3-1
    t.move("8/5 6/5")
    [early] = t.throw((6, 4), thrower="light")
    assert early.kind == "early_roll" and early.get("rule") == "stands"
    t.place((8, 5))  # Dark, seeing the roll, changes the move: 8/5 alone leaves the 1 unplayed
    [d] = t.lift()
    assert d.kind == "illegal_move" and d.player == "dark"
    assert d.choices == ("accept_move", "demand_legal_move")
    assert "has already thrown" not in d.reason and "stands as played" not in d.reason
    assert d.reason.endswith("Light may accept the move or ask for a legal one (Light's early roll is played after)")
    assert t.ref.state == "illegal_move" and not any(isinstance(a, IllegalAccepted) for a in actions(t))
    # the early roll does not count twice: another throw or a double is not an acceptance either
    [again] = t.throw((2, 2), thrower="light")
    assert again.kind == "refused" and "already threw early" in again.reason
    [dbl] = t.press("light", "double")
    assert dbl.kind == "refused" and t.ref.state == "illegal_move"
    assert t.press("light", "demand_legal_move")[0].kind == "correction_demanded"
    ds = t.move("8/5 6/5")
    assert kinds(ds) == ["move_accepted", "roll_accepted"]
    assert ds[1].reason.startswith("Light rolled 6-4")
    assert [a.TYPE for a in actions(t)] == ["roll", "correction", "move", "roll"]


# ------------------------------------------------------------------ item 2


def test_rules_9_3_moving_the_opponents_checkers_is_said_plainly() -> None:
    """RULES 9.3: "If the completed move is incomplete or illegal, the opponent chooses:
    accept it as played, or require the player to make a legal move."  Light moving Dark's
    checkers is illegal, and the referee says so in those words."""
    t = started()
    t.throw((6, 4))
    after = moved(t.ref.mover_position(), theirs=((13, 11),))  # Light moves Dark's 13/11
    [d] = t.board(as_dark(after, "light")) + t.lift()
    assert d.kind == "illegal_move" and d.player == "light"
    assert d.reason == ("Illegal: Light moved Dark's checkers (Dark's 13/11). Dark may accept the move or ask "
                        "for a legal one")
    # both at once: Light's own checker and one of Dark's
    t2 = started()
    t2.throw((6, 4))
    after2 = moved(t2.ref.mover_position(), mine=((24, 14),), theirs=((8, 7),))
    [d2] = t2.board(as_dark(after2, "light")) + t2.lift()
    assert d2.reason.startswith("Illegal: Light moved Dark's checkers (Dark's 8/7), and played 24/14. ")


def test_rules_10_an_accepted_illegal_move_is_recorded_as_it_stood() -> None:
    """RULES 10: "Every game event (rolls, re-rolls and their cause, moves, accepted illegal
    moves, corrections, cube actions, results) is recorded so the match can be replayed."
    An accepted move of the opponent's checkers has no play text of the mover's; the record
    keeps the position that stood (a gnubg Position ID, the next player on roll), never an
    empty play while the board changed."""
    t = started()
    t.throw((6, 4))
    after = moved(t.ref.mover_position(), theirs=((13, 11),))
    t.board(as_dark(after, "light"))
    t.lift()
    [d] = t.press("dark", "accept_move")
    assert d.kind == "illegal_accepted" and d.reason == "Dark accepts Light's move as played: Dark's checkers 13/11"
    a = actions(t)[-1]
    assert isinstance(a, IllegalAccepted) and a.player == 1 and a.dice == (6, 4) and a.play == ""
    stood = Position.from_position_id(a.position)  # Dark, the next to play, on roll
    assert stood == t.ref.pos == after.swap()
    assert action_from_json(a.to_json()) == a
    record = t.record()
    assert MatchRecord.from_json(record.to_json()) == record
    # play goes on from the board as it stood: Dark's next play is judged from there
    t.throw((2, 1))
    [ok] = t.move("11/9 6/5") + t.lift()  # a checker on Dark's 11 only because Light put it there
    assert ok.kind == "move_accepted" and ok.get("play") == "11/9 6/5"


def test_rules_10_every_accepted_illegal_play_carries_the_board() -> None:
    """RULES 10 (as above): any accepted illegal play, with its play text, carries the
    board that stood after it, whether the opponent accepts or rolls."""
    for accept in ("accept_move", "roll"):
        t = started()
        t.throw((6, 4))
        after = moved(t.ref.mover_position(), mine=((24, 18),))  # the 4 unplayed
        assert t.board(as_dark(after, "light")) + t.lift() != []
        if accept == "roll":
            t.throw((2, 1), thrower="dark")
        else:
            t.press("dark", accept)
        [a] = [x for x in actions(t) if isinstance(x, IllegalAccepted)]
        assert a.play == "24/18" and Position.from_position_id(a.position) == after.swap()


# ------------------------------------------------------------------ item 3


def test_rules_10_checkers_moved_with_no_roll_seen_are_reported_and_the_game_waits() -> None:
    """RULES 10: "It never guesses silently: a board it cannot read, a roll it did not see,
    or a move it cannot explain is reported to the players with the reason, and the game
    waits."  Checkers moved before any roll are reported; a later throw does not accept
    them; play goes on once they are back."""
    t = started()
    before = t.ref.pos
    early_move = moved(t.ref.mover_position(), mine=((24, 14),))
    [d] = t.board(as_dark(early_move, "light"))
    assert d.kind == "unseen_roll" and d.player == "light"
    assert d.reason == ("The checkers have moved (Light 24/14), but no roll was seen: put them back, then Light "
                        "throws (or call the director)")
    [r] = t.throw((6, 4))  # a roll that fits the move is not its acceptance
    assert r.kind == "refused" and r.get("guard") == "board_in_place"
    assert "no roll was seen before" in r.reason
    recorded = [a.TYPE for a in actions(t)]
    assert t.ref.state == "waiting_for_roll" and t.ref.pos == before and recorded[-1] == "move"
    [back] = t.board(before)
    assert back.kind == "board_in_place" and back.reason == "The checkers are back in place: Light throws"
    assert t.throw((6, 4))[0].kind == "roll_accepted"
    [ok] = t.move("24/14") + t.lift()
    assert ok.kind == "move_accepted" and [a.TYPE for a in actions(t)] == recorded + ["roll", "move"]


def test_rules_10_checkers_moved_after_a_void_throw_wait_for_the_re_roll() -> None:
    """RULES 10 (as above) and 9.1: "BOTH dice are rolled again": a cocked throw is no
    roll, so checkers moved after it are reported and the re-roll waits for them."""
    t = started()
    assert t.throw((6, 4), cocked=0)[0].kind == "reroll"
    [d] = t.board(as_dark(moved(t.ref.mover_position(), mine=((24, 14),)), "light"))
    assert d.kind == "unseen_roll" and "but no roll that counts was seen" in d.reason
    assert t.ref.state == "reroll" and t.throw((5, 5))[0].get("guard") == "board_in_place"


def test_rules_10_checkers_moved_during_a_double_are_not_accepted_by_the_roll() -> None:
    """RULES 10 (as above), on the way through a double: the throw after the take is refused
    while the board shows checkers moved before it."""
    t = started(match_to=5)
    t.press("light", "double")
    early_move = moved(t.ref.mover_position(), mine=((24, 14),))
    t.board(as_dark(early_move, "light"))
    t.press("dark", "take")
    [r] = t.throw((6, 4))
    assert r.kind == "refused" and r.get("guard") == "board_in_place"
    assert t.ref.state == "waiting_for_roll"


def test_rules_10_a_camera_only_table_reads_the_move_before_the_roll() -> None:
    """RULES 10 applies to rolls a dice reader should have seen: without one, the move is
    read first and the roll inferred from it, so moving before confirming is normal."""
    t = Table(Referee(Settings(dice_reader=False)))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    lp = match_play(t.ref.mover_position(), 6, 4, "24/18 13/9")
    assert t.board(as_dark(lp.result, "dark")) == []
    assert kinds(t.press("light", "confirm")) == ["roll_inferred", "move_accepted"]


# ------------------------------------------------------------------ item 4


def test_rules_9_3_a_double_refused_in_the_crawford_game_does_not_accept_an_illegal_move() -> None:
    """RULES 9.3: "The move counts as accepted as soon as the opponent rolls or doubles to
    start their own turn", and 8.4: "in the first game after a player reaches N-1 points, no
    one may double".  A double the Crawford rule refuses is no double, so it accepts nothing."""
    t = Table(Referee(Settings(match_to=3), score=(2, 0), crawford_game=True))
    assert t.ref.score.crawford_game
    t.opening(3, 1)
    t.place((8, 5))  # 8/5 alone: the 1 unplayed
    assert t.lift()[0].kind == "illegal_move"
    [d] = t.press("light", "double")
    assert d.kind == "refused" and d.get("guard") == "cube_available"
    assert d.reason == "Light cannot double: this is the Crawford game"
    assert t.ref.state == "illegal_move" and t.ref.cube.value == 1
    assert not any(isinstance(a, IllegalAccepted) for a in actions(t))
    assert t.press("light", "accept_move")[0].kind == "illegal_accepted"


# ------------------------------------------------------------------ item 5


def test_rules_4_a_hit_checker_left_off_the_bar_is_told_to_go_there() -> None:
    """RULES 4: "Landing on an opposing blot hits it: it goes to the bar."  A reading that
    lacks the hit checker is not a camera misreading: the players are told to put the
    checker on the bar, and the move is judged once it is there."""
    t = Table(Referee(Settings()))
    # Dark on roll; Light has a blot on its own 5 point (Dark's 20)
    t.ref.setup(Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {5: 1, 6: 4, 13: 5, 8: 3, 24: 2}), "dark")
    t.throw((4, 2))
    after = match_play(t.ref.mover_position(), 4, 2, "24/20* 13/11").result  # Light on roll
    on_bar = reading(as_dark(after, "light"))
    assert on_bar.bar == (0, 1)
    left_out = replace(on_bar, bar=(0, 0), off=(0, 0))  # the hit checker is nowhere the camera sees
    [d] = t.send(HandOverBoard(), left_out) + t.lift()
    assert d.kind == "wait_board" and d.reason == "Dark hit Light's checker on the 20 point: put it on the bar"
    assert "misreading" not in d.reason and "checkers on the board" not in d.reason
    [ok] = t.send(HandOverBoard(), on_bar)
    assert ok.kind == "move_accepted" and ok.get("play") == "24/20* 13/11"


def test_rules_4_a_missing_checker_no_hit_explains_is_still_a_misreading() -> None:
    """RULES 4 (as above) names only hits: a checker of the opponent's missing where no
    blot was hit is a misreading, reported as such."""
    t = Table(Referee(Settings()))
    t.ref.setup(Position.from_points({24: 2, 13: 5, 8: 3, 6: 5}, {5: 1, 6: 4, 13: 5, 8: 3, 24: 2}), "dark")
    t.throw((4, 2))
    after = match_play(t.ref.mover_position(), 4, 2, "13/9 13/11").result
    ev = reading(as_dark(after, "light"))
    pts = list(ev.points)
    pts[11] = replace(pts[11], count=pts[11].count - 1)  # one of Light's 5 on its 13 (table 12) unseen
    [d] = t.send(HandOverBoard(), replace(ev, points=tuple(pts))) + t.lift()
    assert d.kind == "wait_board" and "it shows 14 light checkers on the board" in d.reason


# ------------------------------------------------------------------ item 6


def _outside_throw(thrower_zone: str, *, both: bool = False) -> RollSettled:
    sign = 1 if thrower_zone == "right" else -1
    return RollSettled((DieReading(5, zone="outside" if both else thrower_zone, x=sign * 60.0),
                        DieReading(2, zone="outside", x=sign * 300.0)))


def test_rules_9_1_an_early_throw_with_a_die_outside_is_the_throwers_reroll() -> None:
    """RULES 9.1: "If either die lands outside that half, off the board, on a checker, or
    tilted ("cocked"), BOTH dice are rolled again."  9.5: "the referee must say what it saw."
    Light is moving when Dark throws with one die outside: Dark's throw, Dark's re-roll, and
    Light is not told it "threw again"."""
    t = started()
    t.throw((6, 4))
    t.move("24/14")
    # Light's own roll is moving; Dark throws (Dark's half is "right") with a die outside
    t.lift()
    t.throw((3, 2))  # Dark's roll counts: Dark moving, Light's dice are off the board
    t.move("24/21 6/4")
    [d] = t.send(_outside_throw("left"))  # Light throws early, one die outside
    assert d.kind == "reroll" and d.player == "light" and d.get("cause") == "outside"
    assert "threw again" not in d.reason
    assert d.reason == "Re-roll: the right die landed outside the landing area. Light throws both dice again"
    rr = actions(t)[-1]
    assert isinstance(rr, Reroll) and rr.player == 1 and rr.cause == "outside"
    assert t.ref.state == "moving" and t.ref.t.early is None and t.ref.turn == "dark"
    # Light throws again, properly: an early roll that stands
    [e] = t.throw((6, 1), thrower="light")
    assert e.kind == "early_roll" and e.get("rule") == "stands"
    assert kinds(t.lift()) == ["move_accepted", "roll_accepted"]


def test_rules_9_5_a_throw_with_both_dice_outside_blames_nobody() -> None:
    """RULES 9.5: "A roll made when it is not the roller's turn at all, or before the
    opponent's dice are picked up, is never applied to the wrong player: the referee must
    say what it saw."  Both dice outside while the mover's dice are down name nobody."""
    t = started()
    t.throw((6, 4))
    [d] = t.send(_outside_throw("right", both=True))
    assert d.kind == "reroll" and d.player is None and "threw again" not in d.reason
    assert d.reason.startswith("A throw landed outside the landing area while Light's dice are down: it does not "
                               "count. Light's roll 6-4 stands")
    assert t.ref.t.dice == (6, 4) and t.ref.state == "moving"
    t.send(HandOverBoard())
    t.lift()  # no stable reading yet: the move waits to be judged
    [w] = t.send(_outside_throw("right", both=True))
    assert w.player is None and "while Light's move is judged" in w.reason and w.reason.endswith("Dark throws again")


def test_rules_9_1_an_early_throw_into_the_tray_with_a_die_outside_is_rerolled_at_once() -> None:
    """RULES 9.1: "Rolling through a dice tower or into a tray is an accepted alternative;
    then "the landing area" is the tray."  A die outside the tray voids the early throw."""
    t = Table(Referee(Settings(landing="tray")))
    t.send(RollSettled((DieReading(3, zone="tray"), DieReading(1, zone="tray"))))
    t.move("8/5 6/5")
    [d] = t.send(RollSettled((DieReading(6, zone="tray"), DieReading(4, zone="outside"))))
    assert d.kind == "reroll" and d.player == "light"
    assert d.reason == "Re-roll: the second die landed outside the landing area. Light throws both dice again"
