"""Position: IDs from FORMATS.md, XGID, validation, the ASCII board."""
from __future__ import annotations

import random

import pytest

from referee import Position, PositionError
from tests.positions import KINDS, random_position

START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)


def test_start_position_id():
    assert Position.start().position_id() == "4HPwATDgc/ABMA"
    assert Position.from_position_id("4HPwATDgc/ABMA") == Position.start()


@pytest.mark.parametrize("pid, not_on_roll, on_roll", [
    ("sGfwATDgc/ABMA", {5: 2, 6: 4, 8: 2, 13: 5, 24: 2}, None),
    ("/38AAADg/wcAQA", {1: 15}, {6: 14, "bar": 1}),
    ("4P8PAAAaAAAAAA", {6: 15}, {3: 2, 2: 1}),
])
def test_verified_ids_from_formats_md(pid, not_on_roll, on_roll):
    pos = Position.from_position_id(pid)
    expected_opp = Position.from_points({}, not_on_roll).opp
    assert pos.opp == expected_opp
    if on_roll is not None:
        assert pos.me == Position.from_points(on_roll, {}).me
    else:
        assert pos.me == START
    assert pos.position_id() == pid


def test_xgid_worked_example():
    pos = Position.from_xgid("XGID=aa-BBBBBB-A-------------bB:2:-1:1:52:3:6:0:9:10")
    opp, me = pos.board()
    assert list(opp) == [2] + [0] * 22 + [1, 1]
    assert list(me) == [0, 0, 2, 2, 2, 2, 2, 2, 0, 1] + [0] * 14 + [2]
    assert pos.xgid() == "aa-BBBBBB-A-------------bB"


def test_xgid_with_top_player_to_act_puts_top_on_roll():
    pos = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:4:1:1:5:10")
    assert pos == Position.start()


def test_random_positions_round_trip_through_both_ids():
    rng = random.Random(7)
    for i in range(600):
        pos = random_position(rng, KINDS[i % len(KINDS)])
        assert Position.from_position_id(pos.position_id()) == pos
        assert Position.from_xgid(pos.xgid()) == pos
        assert eval(repr(pos), {"Position": Position}) == pos
        assert pos.validate() == []


@pytest.mark.parametrize("bad", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABM!", "4HPwATDgc/ABMAA"])
def test_malformed_ids_raise_naming_the_text(bad):
    with pytest.raises(PositionError) as info:
        Position.from_position_id(bad)
    assert repr(bad) in str(info.value)


def test_validation_reports_impossible_positions_without_raising():
    too_many = Position([0] * 5 + [16] + [0] * 19, START)
    assert any("16 checkers" in p for p in too_many.validate())
    both = Position.from_points({6: 2, 13: 13}, {19: 2, 6: 13})  # my 6 = opponent's 19
    problems = both.validate()
    assert problems and "point 6" in problems[0]
    assert Position.start().validate() == []


def test_ascii_board_shows_counts_pips_and_id():
    text = str(Position.start())
    assert "Position ID: 4HPwATDgc/ABMA" in text
    assert "pips 167" in text
    lines = text.splitlines()
    assert all(len(line) == len(lines[1]) for line in lines[1:12])


def test_immutable_and_hashable():
    pos = Position.start()
    with pytest.raises(AttributeError):
        pos.me = START  # type: ignore[misc]
    assert len({pos, Position.start(), pos.swap()}) == 1  # the start is symmetric
