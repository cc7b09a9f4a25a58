"""Vision: how surely a point's colour is read (vision.odds.colour_doubt) goes into its odds."""
from __future__ import annotations

import numpy as np
import pytest

from referee.events import PointReading
from vision import layout as L
from vision.config import VisionConfig
from vision.odds import colour_doubt, point_odds, row_odds
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
    assert r.odds == row_odds(r.rows, doubts=doubts)
    assert r.odds != row_odds(r.rows)   # (else the margins change nothing here and this tests nothing)


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
