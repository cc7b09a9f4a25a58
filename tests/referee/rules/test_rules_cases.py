"""Named rule cases from RULES.md sections 3-5, readable as a rule book."""
from __future__ import annotations

import pytest

from referee import IllegalPlay, Position, legal_plays, match_play, plays_to
from referee.rules.scoring import GameKind, game_result, points_won


def plays(position, d1, d2):
    return sorted(str(lp.play) for lp in legal_plays(position, d1, d2))


def test_opening_31_has_sixteen_plays_including_the_five_point():
    result = plays(Position.start(), 3, 1)
    assert "8/5 6/5" in result
    assert len(result) == 16


def test_larger_die_must_be_played_when_only_one_can_be():
    # Either die can be played (24/18 or 24/19) but not both (13 is held), and the
    # ace-point checkers cannot bear off while 24 is out: the 6 must be played.
    pos = Position.from_points({24: 1, 1: 14}, {12: 2, 3: 13})
    assert plays(pos, 6, 5) == ["24/18"]
    with pytest.raises(IllegalPlay):
        match_play(pos, 6, 5, "24/19")


def test_both_dice_must_be_played_when_possible():
    # from the start, a single-die play is illegal when a two-dice play exists
    with pytest.raises(IllegalPlay, match="does not use the roll fully"):
        match_play(Position.start(), 6, 5, "13/7")


def test_no_play_when_every_landing_point_is_blocked():
    pos = Position.from_points({7: 1}, {25 - 2: 2, 25 - 1: 2, 20: 3})
    assert plays(pos, 6, 5) == []


def test_partial_doubles_play_as_many_as_possible():
    # Two checkers on 24; my 16 is held: 24/20(2), then no 4 can be played.
    pos = Position.from_points({24: 2}, {9: 2, 2: 13})
    assert plays(pos, 4, 4) == ["24/20(2)"]
    # my 20 held too: nothing at all
    pos = Position.from_points({24: 2}, {5: 2, 9: 2, 2: 11})
    assert plays(pos, 4, 4) == []


def test_partial_bar_entry_forfeits_the_rest():
    # Two on the bar, only my 22 point open (the 3 enters, the 1 cannot): the rest is forfeited.
    opp = {1: 2, 2: 2, 4: 2, 5: 2, 6: 2}
    pos = Position.from_points({"bar": 2, 13: 13}, opp)
    assert plays(pos, 3, 1) == ["bar/22"]
    pos = Position.from_points({"bar": 2, 13: 13}, {1: 2, 2: 2, 4: 2, 5: 2})
    assert plays(pos, 6, 3) == ["bar/22 bar/19"]


def test_entry_then_the_rest_of_the_roll_can_be_played_by_any_checker():
    pos = Position.from_points({"bar": 1, 13: 14}, {1: 2, 2: 2, 3: 2})
    got = plays(pos, 6, 4)
    assert "bar/21 13/7" in got and "bar/19 13/9" in got and "bar/15" in got


def test_closed_board_turn_is_lost():
    pos = Position.from_points({"bar": 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert legal_plays(pos, 6, 6) == []
    lost = plays_to(pos, 6, 6, pos.swap())
    assert len(lost) == 1 and str(lost[0].play) == ""


def test_bear_off_exact_higher_and_highest_point():
    # exact (6/off), and the 5 bears off the 4 once it is the highest point
    assert plays(Position.from_points({6: 1, 4: 1}, {12: 15}), 6, 5) == ["6/1 4/off", "6/off 4/off"]
    assert plays(Position.from_points({3: 1, 2: 1}, {12: 15}), 6, 5) == ["3/off 2/off"]
    # die larger than the highest point: from the highest occupied point
    assert plays(Position.from_points({4: 1}, {12: 15}), 6, 1) == ["4/off"]
    # a 5 with a checker on 6 must be moved from the 6, not borne off from the 3
    got = plays(Position.from_points({6: 2, 3: 1}, {12: 15}), 5, 2)
    assert not any("3/off" in p for p in got)
    assert "6/1 3/1" in got and "6/4 6/1" in got


def test_bear_off_not_allowed_with_a_checker_outside():
    assert plays(Position.from_points({7: 1, 3: 1}, {12: 15}), 6, 4) == ["7/1 3/off", "7/off"]


def test_hit_on_the_way_is_written_with_an_intermediate_star():
    pos = Position.from_points({24: 2, 6: 13}, {4: 1, 12: 14})
    got = plays(pos, 6, 3)
    assert "24/21*/15" in got and "24/15" in got  # via 21 (hit) and via 18 (no hit): two results
    lp = match_play(pos, 6, 3, "24/21*/15")
    assert lp.result.me[24] == 1  # the opponent has a checker on the bar
    assert lp == match_play(pos, 6, 3, "24/21* 21/15")
    assert match_play(pos, 6, 3, "24/15").result.me[24] == 0


def test_no_legal_play_and_the_empty_play():
    pos = Position.from_points({"bar": 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert match_play(pos, 5, 2, "Cannot Move").result == pos.swap()
    with pytest.raises(IllegalPlay, match="must be played"):
        match_play(Position.start(), 3, 1, "")


def test_illegal_play_names_play_dice_position_and_reason():
    with pytest.raises(IllegalPlay) as info:
        match_play(Position.start(), 6, 5, "13/7 13/8 6/1")
    msg = str(info.value)
    assert "13/7 13/8 6/1" in msg and "6-5" in msg and "4HPwATDgc/ABMA" in msg
    with pytest.raises(IllegalPlay, match="no checker"):
        match_play(Position.start(), 6, 5, "14/8 13/8")
    blocked = Position.from_points({13: 15}, {25 - 7: 2, 1: 13})
    with pytest.raises(IllegalPlay, match="lands on the 7 point, held by the opponent"):
        match_play(blocked, 6, 5, "13/7 13/8")
    with pytest.raises(IllegalPlay, match="bar must enter"):
        match_play(Position.from_points({"bar": 1, 13: 14}, {1: 15}), 6, 5, "13/7 13/8")


def test_scoring_single_gammon_backgammon_and_jacoby():
    won = Position.from_points({}, {6: 15})  # player on roll has borne off all: opponent has 0 off
    assert game_result(won) == ("on_roll", GameKind.GAMMON)
    assert game_result(Position.from_points({}, {6: 14})) == ("on_roll", GameKind.SINGLE)
    assert game_result(Position.from_points({}, {20: 1, 6: 14})) == ("on_roll", GameKind.BACKGAMMON)
    assert game_result(Position.from_points({}, {"bar": 1, 6: 14})) == ("on_roll", GameKind.BACKGAMMON)
    assert game_result(Position.from_points({6: 1}, {})) == ("opponent", GameKind.SINGLE)
    assert game_result(Position.from_points({6: 15}, {})) == ("opponent", GameKind.GAMMON)
    assert game_result(Position.start()) is None
    assert points_won(GameKind.GAMMON, 4) == 8
    assert points_won(GameKind.BACKGAMMON, 2, jacoby=True, cube_turned=False) == 2


def test_legal_plays_is_a_lazy_list_like_view() -> None:
    from referee import LegalPlays

    pos = Position.start()
    plays = legal_plays(pos, 3, 1)
    assert isinstance(plays, LegalPlays) and len(plays) == 16 and plays
    one = plays[0]                      # built on its own
    every = list(plays)                 # built in bulk
    assert one == every[0] and plays[-1] == every[-1] and plays[2:4] == every[2:4]
    assert plays == every and plays.results() == {lp.result for lp in every}
    target = every[5].result
    assert plays.producing(target) == [every[5]] == plays.producing(target.swap())
    assert "8/5 6/5" in repr(plays)
    assert legal_plays(pos, 1, 3) == plays  # the order of the dice does not matter
