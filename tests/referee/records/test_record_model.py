"""The match record model: JSON round trips, validation messages, .mat layout numbering."""
from __future__ import annotations

import pytest

from referee.errors import RecordError
from referee.records.actions import (AcceptResign, Beaver, Correction, Double, GameEnd, IllegalAccepted, Move, Pass,
                                     RejectResign, Resign, Reroll, Roll, Take, action_from_dict, action_from_json)
from referee.records.problems import layout
from referee.records.record import GameRecord, MatchRecord, RuleSettings

ALL = [Roll(0, (3, 1)), Move(0, (3, 1), "8/5 6/5"), Reroll(1, "cocked", (2, 2)), Reroll(0, "opening_tie"),
       Double(1, 2), Take(0), Pass(1), Beaver(0, 4), Resign(1, 2), AcceptResign(0), RejectResign(0),
       IllegalAccepted(1, (6, 5), "24/13"), Correction(0, (2, 1), "13/10"), GameEnd(1, 4, 2, "resign")]


@pytest.mark.parametrize("action", ALL, ids=lambda a: a.TYPE)
def test_action_json_round_trip(action):
    assert action_from_json(action.to_json()) == action
    assert action_from_dict(action.to_dict()).to_dict() == action.to_dict()


@pytest.mark.parametrize("bad, word", [
    ({"type": "move", "player": 2, "dice": [3, 1], "play": ""}, "player 2"),
    ({"type": "move", "player": 0, "dice": [7, 1], "play": ""}, "dice"),
    ({"type": "double", "player": 0, "value": 3}, "power of two"),
    ({"type": "reroll", "player": 0, "cause": "sneeze"}, "sneeze"),
    ({"type": "fly", "player": 0}, "fly"),
    ({"type": "take", "player": 0, "value": 2}, "unknown field"),
    ({"type": "game_end", "player": 0, "points": 0}, "points"),
])
def test_bad_actions_name_the_value(bad, word):
    with pytest.raises(RecordError, match=word):
        action_from_dict(bad)


def test_match_record_round_trip_and_score():
    g1 = GameRecord(1, (0, 0), False, (Move(0, (3, 1), "8/5 6/5"), Double(1, 2), Pass(0), GameEnd(1, 1, 1, "pass")))
    g2 = GameRecord(2, (0, 1), False, (Move(1, (6, 5), "24/13"),))
    m = MatchRecord(("Ann", "Bob"), 5, RuleSettings(crawford=True, cube_limit=64), (g1, g2), (("Event", "Club"),))
    assert MatchRecord.from_json(m.to_json()) == m
    assert g1.result == GameEnd(1, 1, 1, "pass") and g2.result is None
    assert m.final_score() == (0, 1) and m.winner() is None
    assert m.meta_value("event") == "Club"


def test_layout_follows_mat_columns():
    acts = [Move(1, (4, 1), "13/9 24/23"), Move(0, (4, 4), ""), Double(1, 2), Take(0), Move(1, (3, 1), ""),
            Reroll(0, "cocked"), Roll(0, (5, 1)), Move(0, (5, 1), ""), Roll(1, (6, 2)), Resign(1, 1),
            AcceptResign(0), GameEnd(0, 2, 1, "resign")]
    assert layout(acts) == [(1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (3, -1), (4, 0), (4, 0), (4, 1), (4, -1),
                            (4, -1), (4, -1)]


def test_a_move_built_unchecked_is_the_checked_move():
    from referee.records.actions import Move, move_unchecked

    fast, checked = move_unchecked(1, (6, 4), "24/18 13/9"), Move(1, (6, 4), "24/18 13/9")
    assert fast == checked and hash(fast) == hash(checked) and vars(fast) == vars(checked)
    assert list(vars(fast)) == list(vars(checked)) and fast.to_json() == checked.to_json()
