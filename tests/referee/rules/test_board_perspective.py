"""referee.board: a board reading to and from a position, from either colour's side."""
from __future__ import annotations

import random

import pytest

from referee.board import for_side, layout_of, position_of, position_of_reading, reading_of
from referee.colour import COLOURS
from referee.events import PointReading
from referee.rules.moves import legal_plays
from referee.rules.position import Position


def _positions(n: int = 40) -> list[Position]:
    rng, pos, out = random.Random(7), Position.start(), []
    for _ in range(n):
        plays = legal_plays(pos, rng.randint(1, 6), rng.randint(1, 6))
        pos = rng.choice(plays).result if plays else pos.swap()
        out.append(pos)
    return out


def test_the_start_reads_in_table_numbering() -> None:
    ev = reading_of(Position.start())
    assert ev.points[23] == PointReading(2, "dark") and ev.points[0] == PointReading(2, "light")
    assert ev.points[5] == PointReading(5, "dark") and ev.points[18] == PointReading(5, "light")
    assert ev.bar == (0, 0) and ev.off == (0, 0) and reading_of(Position.start(), show_off=False).off is None


@pytest.mark.parametrize("side", COLOURS)
def test_reading_and_position_round_trip_from_either_side(side: str) -> None:
    for pos in _positions():
        assert position_of_reading(reading_of(pos, side), side) == pos
        lay = layout_of(pos)
        assert position_of(lay.dark, lay.light, lay.bar) == pos


def test_light_sees_the_board_swapped() -> None:
    for pos in _positions(10):
        assert for_side(pos, "dark") == pos and for_side(pos, "light") == pos.swap()
        assert reading_of(pos, "light") == reading_of(pos.swap())
        assert for_side(for_side(pos, "light"), "light") == pos
    asym = _positions(3)[-1]
    assert asym != asym.swap() and reading_of(asym, "light") != reading_of(asym)   # the side matters
