"""Vision: a tall stack that makes a colour's total over 15 is what the rims counted along its point
(vision.assemble.settle_tall): real boards' rows of five read as 10-15 by the rim pattern (grain, a face's
rings) fall back to the row, not to the pattern's next tall guess."""
from __future__ import annotations

from referee.events import PointReading

from vision.assemble import _settled_count, settle_tall
from vision.checkers import Found
from vision.params import DEFAULT
from vision.stacks import PointCount


def _board(pc: PointCount, colour: str = "light") -> tuple[dict, Found, list[int]]:
    """A starting position's points read so, but ``top0`` (a light row of 5) read as ``pc``."""
    start = {"top": [(5, "light"), (0, None), (0, None), (0, None), (3, "dark"), (0, None), (5, "dark"),
                     (0, None), (0, None), (0, None), (0, None), (2, "light")],
             "bottom": [(5, "dark"), (0, None), (0, None), (0, None), (3, "light"), (0, None), (5, "light"),
                        (0, None), (0, None), (0, None), (0, None), (2, "dark")]}
    per_axis = {f"{r}{i}": PointCount(n, (), 0.9) for r in ("top", "bottom") for i, (n, _) in enumerate(start[r])}
    per_axis["top0"] = pc
    rows = {r: [PointReading(n, c, 0.9) for n, c in start[r]] for r in ("top", "bottom")}
    rows["top"][0] = PointReading(pc.count, colour, pc.confidence)
    total = [15, 15 - 5 + pc.count]
    return rows, Found(per_axis, (), 1.0), total


def test_a_row_read_as_a_pyramid_falls_back_to_the_row() -> None:
    pc = PointCount(11, (), 1.0, alt=10, row=5)
    rows, found, total = _board(pc)
    new, totals, settled = settle_tall(rows, found, total, DEFAULT)
    assert new["top"][0].count == 5 and new["top"][0].colour == "light"
    assert new["top"][0].confidence <= DEFAULT.point_knee / 2       # unsure: the totals chose it
    assert totals == [15, 15] and settled == {"top0"}


def test_before_the_row_was_kept_the_patterns_next_tall_guess_stayed_over() -> None:
    """Without the row (a stack the pattern alone saw), the next likeliest count, unsure, as before:
    here 10, which leaves the colour over 15, so the totals must settle it further."""
    pc = PointCount(11, (), 1.0, alt=10)
    rows, found, total = _board(pc)
    new, totals, _ = settle_tall(rows, found, total, DEFAULT)
    assert new["top"][0].count == 10 and new["top"][0].confidence <= DEFAULT.point_knee / 2
    assert totals[1] == 20


def test_a_tall_stack_whose_colour_is_not_over_keeps_its_count() -> None:
    pc = PointCount(11, (), 1.0, alt=10, row=5)
    rows, found, _ = _board(pc)
    new, totals, settled = settle_tall(rows, found, [15, 15], DEFAULT)
    assert new["top"][0].count == 11 and not settled


def test_the_settled_count() -> None:
    assert _settled_count(PointCount(12, (), 1.0, alt=11, row=5)) == 5
    assert _settled_count(PointCount(12, (), 1.0, alt=11)) == 11
    assert _settled_count(PointCount(5, (), 1.0)) is None
