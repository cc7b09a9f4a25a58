"""Plays as text: the notations of real match files, canonical output, precise errors."""
from __future__ import annotations

import pytest

from referee import NotationError, Position, legal_plays, match_play, parse_play
from tests.positions import sample


@pytest.mark.parametrize("text", ["Bar/22", "25/22", "bar/22"])
def test_bar_spellings(text):
    pos = Position.from_points({"bar": 1, 13: 14}, {1: 15})
    assert str(match_play(pos, 3, 1, f"{text} 13/12").play) == "bar/22 13/12"


@pytest.mark.parametrize("text", ["6/off 5/off", "6/0 5/0", "6/Off 5/OFF"])
def test_off_spellings(text):
    pos = Position.from_points({6: 2, 5: 2}, {12: 15})
    assert str(match_play(pos, 6, 5, text).play) == "6/off 5/off"


@pytest.mark.parametrize("text", ["8/5(2) 6/3(2)", "8/5 8/5 6/3 6/3", "8/5(2), 6/3(2)"])
def test_repeats(text):
    assert str(match_play(Position.start(), 3, 3, text).play) == "8/5(2) 6/3(2)"


def test_long_step_and_single_steps_are_the_same_play():
    a = match_play(Position.start(), 6, 5, "24/13")
    b = match_play(Position.start(), 6, 5, "24/18 18/13")
    c = match_play(Position.start(), 6, 5, "24/18/13")
    assert a == b == c and str(a.play) == "24/13"


@pytest.mark.parametrize("text", ["Cannot Move", "", "cannot move"])
def test_empty_plays(text):
    assert parse_play(text).is_empty


@pytest.mark.parametrize("text, fragment", [
    ("24-18", "'24-18'"), ("13/15", "backwards"), ("26/20", "source point 26"),
    ("8/bar", "cannot move to the bar"), ("off/3", "'off/3'"), ("8/5(9)", "'8/5(9)'"),
])
def test_malformed_text_is_quoted(text, fragment):
    with pytest.raises(NotationError) as info:
        parse_play(text)
    assert repr(text) in str(info.value) and fragment in str(info.value)


def test_canonical_text_of_every_generated_play_parses_back_to_it():
    for pos, d1, d2 in sample(seed=3, n=300):
        for lp in legal_plays(pos, d1, d2):
            assert match_play(pos, d1, d2, str(lp.play)) == lp, (pos, d1, d2, str(lp.play))
