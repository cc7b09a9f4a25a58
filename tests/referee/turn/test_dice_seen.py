"""The camera on the dice (issue 15): on a camera-only table its sure view is the throw and its
view of no dice the lift; an unsure view is never a roll; with a dice reader it only
cross-checks the reader's throw, and a difference is said, never resolved."""
from __future__ import annotations

from pathlib import Path

from referee.events import DiceLifted, DiceSeen, DieReading, RollStarted, from_json, to_json
from referee.rules.moves import match_play
from referee.settings import Settings
from referee.table.process import TableCore
from referee.table.streams import Table, as_dark, throw
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


# --------------------------------------------------------------------------- the camera before the reader


def _light_to_throw() -> Table:
    """A table with a dice reader where Light is to throw (Dark opened 5-3 and played it)."""
    t = Table(Referee(Settings()))
    t.opening(5, 3)
    t.move("13/8 6/3")
    t.lift()
    assert t.ref.state == "waiting_for_roll" and t.ref.turn == "light"
    return t


def test_a_view_before_the_readers_roll_checks_it_when_the_roll_comes() -> None:
    t = _light_to_throw()
    assert t.send(seen((6, "left"), (5, "left"))) == []  # the camera first: nothing to check yet
    out = t.throw([6, 4])
    assert kinds(out) == ["roll_accepted", "dice_disagree"]
    assert "camera reads 6-5 where the dice reader read 6-4" in out[1].reason and "roll 6-4 stands" in out[1].reason
    assert out[1].player == "light" and t.ref.state == "moving" and t.ref.t.dice == (6, 4)


def test_a_view_before_the_readers_roll_that_agrees_says_nothing() -> None:
    t = _light_to_throw()
    t.send(seen((4, "left"), (6, "left")))
    assert kinds(t.throw([6, 4])) == ["roll_accepted"]


def test_a_landing_fault_seen_before_the_readers_roll_is_said() -> None:
    t = _light_to_throw()
    t.send(seen((6, "left"), (4, "left"), on_checker=1))
    out = t.throw([6, 4])
    assert kinds(out) == ["roll_accepted", "dice_disagree"] and "rests on a checker" in out[1].reason


def test_only_the_latest_view_before_the_roll_counts() -> None:
    t = _light_to_throw()
    t.send(seen((6, "left"), (None, "left")))  # the camera unsure of a die, then sure
    t.send(seen((6, "left"), (5, "left")))
    out = t.throw([6, 4])
    assert kinds(out) == ["roll_accepted", "dice_disagree"] and "reads 6-5" in out[1].reason


def test_the_opening_roll_seen_before_the_reader_is_checked() -> None:
    t = Table(Referee(Settings()))
    t.send(seen((5, "right"), (2, "left")))
    out = t.opening(5, 3)
    assert kinds(out) == ["opening_won", "roll_accepted", "dice_disagree"]
    assert "reads 5-2 where the dice reader read 5-3" in out[2].reason and out[2].player is None


def test_a_view_before_a_rethrow_checks_the_rethrow_not_the_call() -> None:
    t = _light_to_throw()
    [r] = t.throw([6, 4], cocked=0)
    assert r.kind == "reroll" and t.ref.state == "reroll"
    assert t.send(RollStarted()) == []  # the re-throw starts: the cocked throw is off the board
    assert t.send(seen((2, "left"), (1, "left"))) == []  # not checked against the call to throw again
    out = t.throw([2, 2])
    assert kinds(out) == ["roll_accepted", "dice_disagree"]
    assert "reads 2-1 where the dice reader read 2-2" in out[1].reason


def test_a_stale_view_never_checks_a_later_roll() -> None:
    # picked up by the reader: the view of the throw before is gone
    t = _light_to_throw()
    t.send(seen((6, "left"), (5, "left")))
    t.send(DiceLifted())
    assert kinds(t.throw([6, 4])) == ["roll_accepted"]
    # the camera sees the dice gone
    t = _light_to_throw()
    t.send(seen((6, "left"), (5, "left")))
    t.send(DiceSeen())
    assert kinds(t.throw([6, 4])) == ["roll_accepted"]
    # the reader's throw takes the view: the next throw is not checked against it
    t = _light_to_throw()
    t.send(seen((6, "left"), (5, "left")))
    t.throw([6, 4], cocked=0)
    assert kinds(t.throw([3, 1])) == ["roll_accepted"]


def test_an_opponents_early_throw_is_not_checked_against_a_kept_view() -> None:
    t = _light_to_throw()
    t.throw([6, 4])
    t.send(DiceSeen())  # the camera sees Light's dice picked up before the reader does
    t.send(seen((5, "right"), (5, "right")))  # Dark throws early
    out = t.throw([3, 1], "dark")
    assert "dice_disagree" not in kinds(out) and t.ref.t.dice == (6, 4)


def test_a_view_kept_before_the_roll_is_checked_the_same_after_a_resume(tmp_path: Path) -> None:
    t = _light_to_throw()
    t.send(seen((6, "left"), (5, "left")))
    path = tmp_path / "current.jsonl"
    core = TableCore.open(path, Settings())
    for ev in t.events:
        core.handle(ev)
    core.close()  # the table stops between the camera's view and the reader's roll
    again = TableCore.open(path, Settings())
    try:
        out = again.handle(throw([6, 4], "light"))
    finally:
        again.close()
    assert kinds(out) == ["roll_accepted", "dice_disagree"] and "reads 6-5" in out[1].reason
    restored = Referee.restore(Settings(), t.ref.snapshot())
    assert kinds(restored.handle(throw([6, 4], "light"))) == ["roll_accepted", "dice_disagree"]
