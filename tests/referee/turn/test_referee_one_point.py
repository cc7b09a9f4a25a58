"""A 1-point match opens with the Crawford game (no doubling), as GNU Backgammon has it,
and its record replays clean."""
from __future__ import annotations

from referee.events import PlayerInput
from referee.turn.referee import Referee
from referee.records.builder import build_record
from referee.settings import Settings
from referee.table.streams import opening_throw


def test_one_point_match_first_game_is_the_crawford_game():
    ref = Referee(Settings(match_to=1))
    assert ref.score.crawford_game
    ref.handle(opening_throw(5, 3))
    assert ref.state == "moving" and ref.turn == "dark"
    assert build_record(ref.new_record_actions()).games[0].crawford


def test_no_double_in_the_crawford_game_of_a_one_point_match():
    ref = Referee(Settings(match_to=1))
    ref.handle(opening_throw(5, 3))
    from referee.rules.position import Position
    ref.setup(Position.start(), "light")
    out = ref.handle(PlayerInput("light", "double"))
    assert out[0].kind == "refused" and "Crawford" in out[0].reason


def test_resuming_at_match_point_takes_the_crawford_game_as_played():
    ref = Referee(Settings(match_to=5), score=(4, 2))
    assert not ref.score.crawford_game
