"""The TableView contract: validation, pip counts and the JSON text form."""
from __future__ import annotations

import pytest

from referee.view import START_DARK, START_LIGHT, STATES, TableView, ViewError, pip_counts


def test_start_position_has_fifteen_each_and_167_pips() -> None:
    v = TableView()
    assert sum(v.dark) == sum(v.light) == 15
    assert v.pips == (167, 167)
    assert v.dark[23] == 2 and v.light[0] == 2


def test_pips_count_the_bar_and_recompute_on_replace() -> None:
    dark = list(START_DARK)
    dark[23] -= 1
    v = TableView().replace(dark=tuple(dark), bar=(1, 0))
    assert v.pips == (167 - 24 + 25, 167)
    assert pip_counts(START_DARK, START_LIGHT) == (167, 167)


def test_json_round_trip_of_a_busy_view() -> None:
    v = TableView(dice=(6, 5), cube_value=4, cube_owner="light", cube_offered_by="light",
                  crawford=False, match_length=7, score=(3, 5), names=("Ann", "Bo"),
                  turn="light", state="double_offered", message="Bo doubles to 8",
                  choices=("take", "pass"), last_plays=("Ann 31: 8/5 6/5", "Bo 65: 1/12"))
    assert v.cube_offered_value == 8
    back = TableView.from_json(v.to_json())
    assert back == v
    assert TableView.from_dict(v.to_dict()) == v
    assert "\n" not in v.to_json()


def test_opening_roll_dice_may_have_a_missing_die() -> None:
    v = TableView(dice=(4, None), state="opening_roll")
    assert TableView.from_json(v.to_json()).dice == (4, None)


@pytest.mark.parametrize("kwargs, word", [
    ({"dark": (0,) * 23}, "dark"),
    ({"light": (-1,) + (0,) * 23}, "light"),
    ({"bar": (1,)}, "bar"),
    ({"dice": (7, 1)}, "dice"),
    ({"cube_value": 3}, "cube_value"),
    ({"cube_owner": "red"}, "cube_owner"),
    ({"state": "thinking"}, "thinking"),
    ({"turn": "blue"}, "turn"),
    ({"match_length": -1}, "match_length"),
    ({"cube_offered_by": "dark", "cube_offered_value": 1}, "cube_offered_value"),
])
def test_bad_values_are_named(kwargs: dict, word: str) -> None:
    with pytest.raises(ViewError, match=word):
        TableView(**kwargs)
    assert issubclass(ViewError, ValueError)


def test_from_json_rejects_unknown_fields_and_bad_text() -> None:
    with pytest.raises(ViewError, match="colour_scheme"):
        TableView.from_dict({**TableView().to_dict(), "colour_scheme": 1})
    with pytest.raises(ViewError, match="not JSON"):
        TableView.from_json("{oops")


def test_every_state_is_accepted() -> None:
    for s in STATES:
        assert TableView(state=s).state == s
