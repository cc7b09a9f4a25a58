"""Vision: how surely a point's colour is read (vision.odds.colour_doubt) goes into its odds."""
from __future__ import annotations

import numpy as np
import pytest

from referee.events import PointReading
from vision import layout as L
from vision.config import VisionConfig
from vision.odds import bar_odds, colour_blind, colour_doubt, point_odds, row_odds
from vision.read import read_view
from vision.reader import BoardReader
from vision.render import render_scene


def test_the_doubt_falls_with_the_margin_as_measured_on_real_boards() -> None:
    margins = np.linspace(0.0, 1.0, 21)
    doubts = [colour_doubt(m) for m in margins]
    assert doubts[0] == pytest.approx(0.5) and doubts[-1] == 0.0
    assert all(a > b for a, b in zip(doubts, doubts[1:]))
    # half the real checkers at a margin of 0.3-0.4 were the other colour: real doubt there ...
    assert colour_doubt(0.35) >= 0.2
    # ... and next to none where nearly every real one was right
    assert colour_doubt(0.95) < 0.01
    assert colour_doubt(-1.0) == colour_doubt(0.0) and colour_doubt(2.0) == 0.0


def test_a_doubted_colour_moves_its_share_to_the_other_colour() -> None:
    p = PointReading(2, "dark", 0.9)
    plain, doubted = point_odds(p), point_odds(p, doubt=0.25)
    assert plain == point_odds(p, doubt=None)
    assert sum(doubted.values()) == pytest.approx(1.0)
    moved = plain[(2, "dark")] - doubted[(2, "dark")]
    assert moved > 0 and doubted[(2, "light")] == pytest.approx(plain[(2, "light")] + moved)
    assert doubted[(2, "dark")] > doubted[(2, "light")]            # a doubt of a quarter still leans
    assert point_odds(p, doubt=0.9)[(2, "dark")] == pytest.approx(point_odds(p, doubt=0.5)[(2, "dark")])  # at most even
    empty = PointReading(0, None, 0.8)
    assert point_odds(empty, doubt=0.4) == point_odds(empty)       # no colour to doubt


@pytest.mark.parametrize("seed", [21, 22])
def test_the_reader_builds_its_odds_with_each_points_colour_margin(seed: int) -> None:
    sc = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed)
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    r = reader.inspect(sc.image)
    assert r.rows is not None and r.odds is not None
    from dataclasses import replace
    assembled, _ = read_view(r.view, reader.colours, replace(reader.config.read, checker=reader.checker_size))
    assert len(assembled.margins) == 24
    cells = list(r.rows.top) + list(r.rows.bottom)
    assert all(m == 1.0 for m, p in zip(assembled.margins, cells) if not p.count)
    assert any(0.0 < m < 1.0 for m in assembled.margins)
    doubts = [colour_doubt(m) for m in assembled.margins]
    assert r.odds == row_odds(r.rows, doubts=doubts, bar_confidence=assembled.bar_confidence)
    assert r.odds != row_odds(r.rows, bar_confidence=assembled.bar_confidence)   # (else the margins change nothing)


def test_a_learned_look_that_tells_nothing_leaves_the_absolute_reading_as_it_is() -> None:
    from vision.odds import combine
    absolute = point_odds(PointReading(5, "dark", 0.25))
    flat = {(n, c): 1.0 / 13 for n in range(1, 7) for c in ("dark", "light")} | {(0, None): 1.0 / 13}
    got = combine(absolute, flat, per_point=6, tilt=0.1)
    assert set(got) == set(flat)                                        # every alternative kept ...
    assert max(got, key=got.get) == (5, "dark")                         # ... the absolute reading's first
    for key in flat:                                                    # ... each as the reading tilts it
        assert got[key] == pytest.approx(max(absolute.get(key, 0.0), 0.1) / sum(
            max(absolute.get(k, 0.0), 0.1) for k in flat))
    said = combine(absolute, flat | {(6, "dark"): 0.3}, per_point=6, tilt=0.1)
    assert said[(6, "dark")] > got[(6, "dark")]                         # a look that says something still counts


def test_a_colour_blind_look_keeps_each_count_and_shares_it_between_the_colours() -> None:
    learned = {(0, None): 0.1, (1, "light"): 0.6, (1, "dark"): 0.05, (2, "light"): 0.25}
    blind = colour_blind(learned)
    assert sum(blind.values()) == pytest.approx(1.0)
    assert blind[(0, None)] == 0.1                                       # an empty point has no colour
    assert blind[(1, "dark")] == blind[(1, "light")] == pytest.approx(0.325)
    assert blind[(2, "dark")] == blind[(2, "light")] == pytest.approx(0.125)


def _rows(conf: float, bar: tuple[int, int] = (0, 0)) -> L.RowReading:
    top = tuple(PointReading(2, "dark", 0.9) if i == 0 else PointReading(0, None, 0.9) for i in range(12))
    bottom = tuple(PointReading(2, "light", 0.9) if i == 0 else PointReading(0, None, 0.9) for i in range(12))
    return L.RowReading(top, bottom, bar, conf)


def test_the_bar_odds_follow_the_bars_own_confidence_not_the_boards() -> None:
    # a board unsure somewhere (one point under a die) and a bar read surely: its count is not doubted
    # for the die (on the labelled real boards the bar's own confidence was 1.0 on 27 bars, 26 right)
    rows = _rows(0.0, (1, 0))
    unsure, sure = row_odds(rows), row_odds(rows, bar_confidence=1.0)
    assert unsure[24][0][:2] == sure[24][0][:2] == (1, "dark")
    assert sure[24][0][2] == pytest.approx(bar_odds(1, 1.0)[1], abs=1e-6)
    assert sure[24][0][2] > unsure[24][0][2] + 0.3
    assert sure[:24] == unsure[:24]                                      # the points as they were
    assert row_odds(_rows(0.7, (1, 0))) == row_odds(_rows(0.7, (1, 0)), bar_confidence=0.7)


def test_a_blind_point_takes_its_colour_from_the_absolute_reading_alone() -> None:
    rows = _rows(0.8)
    # a learned look (taught by the frame itself) sure the point's checkers are light, the reader
    # sure they are dark but doubting it (a hue neither colour shows: doubt about 0.43)
    point = [(2, "light", 0.8), (2, "dark", 0.1), (1, "light", 0.05), (0, None, 0.05)]
    other = [(0, None, 0.9), (1, "dark", 0.05), (1, "light", 0.05)]
    learned = ([point] + [other] * 11 + [point] + [other] * 11, [[1.0 / 7] * 7] * 2, 1.0)
    doubts = [0.43] + [None] * 23
    seen = row_odds(rows, learned, 6, 0.1, doubts)
    blind = row_odds(rows, learned, 6, 0.1, doubts, blind=[True] + [False] * 23)
    first = {(n, c): p for n, c, p in seen[0]}
    now = {(n, c): p for n, c, p in blind[0]}
    assert first[(2, "light")] > 3 * first[(2, "dark")]                 # the look overrules the reader ...
    assert now[(2, "dark")] > now[(2, "light")] > 0.5 * now[(2, "dark")]   # ... not when blind: the reader leans
    assert blind[1:] == seen[1:]                                         # every other place as it was


def test_a_full_row_the_absolute_reading_missed_leaves_a_taller_stack_open() -> None:
    # the learned look sees its five slots of a point all light (a full row); an absolute reading that
    # saw none there says nothing of how tall the stack is: five and six stay about even (the real
    # image041's light six was read five at 0.998, and a legal move called illegal); one that saw six
    # still says six, and one that saw five, five
    from vision.odds import FULL_ROW, combine
    learned = {(5, "light"): 0.99, (4, "light"): 0.01}
    missed = combine(point_odds(PointReading(0, None, 0.55)), learned, per_point=5)
    assert abs(missed[(5, "light")] - FULL_ROW) < 0.02 and missed[(6, "light")] > 0.3
    assert missed[(7, "light")] < missed[(6, "light")]
    six = combine(point_odds(PointReading(6, "light", 0.9)), learned, per_point=5)
    assert max(six, key=six.__getitem__) == (6, "light")
    five = combine(point_odds(PointReading(5, "light", 0.9)), learned, per_point=5)
    assert five[(5, "light")] > 0.9
    four = combine(point_odds(PointReading(4, "light", 0.55)), learned, per_point=5)   # one short: it saw the row
    assert four[(5, "light")] > 0.9
