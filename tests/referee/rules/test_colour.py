"""referee.colour: one Colour for live play (text) and records (0/1)."""
from __future__ import annotations

import json

import pytest

from referee.colour import COLOURS, Colour, ColourError, number_of, other
from referee.errors import RefereeError


def test_a_colour_is_its_text() -> None:
    assert Colour.DARK == "dark" and Colour.LIGHT == "light"
    assert str(Colour.DARK) == "dark" and f"{Colour.LIGHT}" == "light" and f"{Colour.DARK:>5}" == " dark"
    assert repr(Colour.LIGHT) == "'light'"                  # messages quoting a colour are unchanged
    assert {"dark": 1}[Colour.DARK] == 1 and {Colour.LIGHT: 2}["light"] == 2
    assert json.dumps({Colour.DARK: [Colour.LIGHT]}) == '{"dark": ["light"]}'
    assert Colour.DARK.index("a") == 1 and Colour.LIGHT.upper() == "LIGHT"   # still a str in every way


@pytest.mark.parametrize("c", COLOURS)
def test_text_and_index_round_trip(c: Colour) -> None:
    assert Colour.parse(str(c)) is c
    assert Colour.from_number(c.number) is c
    assert c.other.other is c and c.other is not c


def test_the_record_numbering_and_the_opponent() -> None:
    assert COLOURS == ("dark", "light") and [c.number for c in COLOURS] == [0, 1]
    assert other("dark") is Colour.LIGHT and other(Colour.LIGHT) is Colour.DARK
    assert number_of("light") == 1


@pytest.mark.parametrize("bad", ["red", "Dark", "", None, 0])
def test_a_bad_colour_is_named(bad: object) -> None:
    with pytest.raises(ColourError, match=repr(bad).replace("(", r"\(")) as exc:
        Colour.parse(bad)
    assert isinstance(exc.value, ValueError) and isinstance(exc.value, RefereeError)
    assert '"dark" or "light"' in str(exc.value)


@pytest.mark.parametrize("bad", [2, -1, True, "0", None])
def test_a_bad_player_number_is_named(bad: object) -> None:
    with pytest.raises(ColourError, match="must be 0 \\(dark\\) or 1 \\(light\\)"):
        Colour.from_number(bad)  # type: ignore[arg-type]
