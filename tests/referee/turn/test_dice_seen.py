"""The camera on the dice (issue 15): on a camera-only table its sure view is the throw and its
view of no dice the lift; an unsure view is never a roll; with a dice reader it only
cross-checks the reader's throw, and a difference is said, never resolved."""
from __future__ import annotations

from referee.events import DiceSeen, DieReading, from_json, to_json
from referee.rules.moves import match_play
from referee.settings import Settings
from referee.table.streams import Table, as_dark
from referee.turn.referee import Referee


def seen(*dice: tuple[object, str], on_checker: int = -1) -> DiceSeen:
    return DiceSeen(tuple(DieReading(v, zone=z, on_checker=i == on_checker, x=-80.0 + 60 * i)  # type: ignore[arg-type]
                          for i, (v, z) in enumerate(dice)))


def kinds(ds: list) -> list[str]:
    return [d.kind for d in ds]


def test_the_cameras_view_round_trips_as_a_journal_line() -> None:
    ev = seen((5, "left"), (None, "outside"), on_checker=1)
    assert from_json(to_json(ev)) == ev and not ev.sure and seen((5, "left"), (3, "left")).sure
    assert not DiceSeen().sure and DiceSeen().dice == ()


def test_camera_only_the_cameras_sure_view_is_the_opening_roll_and_every_throw() -> None:
    t = Table(Referee(Settings(dice_reader=False)))
    assert kinds(t.send(seen((5, "right"), (3, "left")))) == ["opening_won", "roll_accepted"]
    assert t.ref.state == "moving" and t.ref.t.dice == (5, 3)
    t.move("13/8 6/3")  # the board read, then the camera sees the dice gone: the move is judged
    assert kinds(t.send(DiceSeen())) == ["move_accepted"]
    assert t.ref.turn == "light" and t.ref.state == "waiting_for_roll"
    assert kinds(t.send(seen((6, "left"), (4, "left")))) == ["roll_accepted"]
    assert t.ref.t.dice == (6, 4)


def test_camera_only_a_die_the_camera_sees_off_the_board_is_thrown_again() -> None:
    t = Table(Referee(Settings(dice_reader=False)))
    t.send(seen((5, "right"), (3, "left")))
    t.move("13/8 6/3")
    t.send(DiceSeen())
    [d] = t.send(seen((6, "left"), (4, "outside")))
    assert d.kind == "reroll" and d.get("cause") == "outside"


def test_camera_only_an_unsure_view_is_never_the_roll_and_the_move_tells_it() -> None:
    t = Table(Referee(Settings(dice_reader=False)))
    [d] = t.send(seen((5, "right"), (None, "left")))
    assert d.kind == "dice_unsure" and "throw them again" in d.reason and t.ref.state == "opening_roll"
    t.send(seen((3, "right"), (1, "left")))
    t.move("8/5 6/5")
    t.send(DiceSeen())
    [d] = t.send(seen((6, "left"), (None, "left")))  # the camera is not sure of one die
    assert d.kind == "dice_unsure" and "inferred from the move" in d.reason
    assert t.ref.state == "waiting_for_roll" and t.ref.t.dice is None
    rolls = sum(a.TYPE == "roll" for a in t.ref.actions)
    lp = match_play(t.ref.mover_position(), 6, 4, "24/18 13/9")
    t.board(as_dark(lp.result, "dark"))
    assert kinds(t.send(DiceSeen())) == ["roll_inferred", "move_accepted"]  # the dice lifted end the turn
    assert sum(a.TYPE == "roll" for a in t.ref.actions) == rolls + 1


def test_with_a_dice_reader_the_camera_agreeing_says_nothing() -> None:
    t = Table(Referee(Settings()))
    t.opening(5, 3)
    assert t.send(seen((3, "right"), (5, "left"))) == []
    t.move("13/8 6/3")
    t.lift()
    t.throw([6, 4])
    assert t.send(seen((4, "left"), (6, "left"))) == []
    assert t.send(seen((None, "left"), (6, "left"))) == []  # unsure: says nothing
    assert t.send(DiceSeen()) == []  # the reader's lift ends the turn, not the camera's


def test_with_a_dice_reader_a_different_value_is_said_and_the_reader_stands() -> None:
    t = Table(Referee(Settings()))
    t.opening(5, 3)
    t.move("13/8 6/3")
    t.lift()
    t.throw([6, 4])
    [d] = t.send(seen((6, "left"), (5, "left")))
    assert d.kind == "dice_disagree" and d.player == "light"
    assert "camera reads 6-5 where the dice reader read 6-4" in d.reason and "roll 6-4 stands" in d.reason
    assert t.ref.state == "moving" and t.ref.t.dice == (6, 4)


def test_with_a_dice_reader_a_landing_fault_only_the_camera_sees_is_said() -> None:
    t = Table(Referee(Settings()))
    t.opening(5, 3)
    t.move("13/8 6/3")
    t.lift()
    t.throw([6, 4])
    [d] = t.send(seen((6, "left"), (4, "left"), on_checker=1))
    assert d.kind == "dice_disagree" and "rests on a checker" in d.reason and "saw a good throw" in d.reason
    [d] = t.send(seen((6, "left"), (4, "right")))  # on Dark's half: not Light's right-hand half
    assert d.kind == "dice_disagree" and "right-hand half" in d.reason
    assert t.send(seen((None, "left"), (4, "outside"))) == []  # unsure of a die: nothing of the landing
    assert t.ref.state == "moving"
    t.move("24/18 13/9")
    t.lift()  # the reader's lift: the dice are gone, the camera checks nothing more
    assert t.send(seen((6, "left"), (5, "right"))) == []


def test_with_a_dice_reader_a_reroll_the_camera_sees_as_good_is_said() -> None:
    t = Table(Referee(Settings()))
    t.opening(5, 3)
    t.move("13/8 6/3")
    t.lift()
    [r] = t.throw([6, 4], cocked=0)
    assert r.kind == "reroll"
    [d] = t.send(seen((6, "left"), (4, "left")))
    assert d.kind == "dice_disagree" and "land well" in d.reason and "call (throw again) stands" in d.reason
    assert t.ref.state == "reroll"
