"""Vision: a row whose checkers start inside the edge seen is counted from where they start
(vision.checkers.row_starts): in a photo from in front, the far frame's wall hides the field's
edge, and counted from that edge a row of five looked like five with four more on it."""
from __future__ import annotations

import numpy as np
import pytest

import vision.checkers as C
from vision import layout as L
from vision.config import VisionConfig
from vision.reader import BoardReader
from vision.rectify import rectify
from vision.render import RenderParams, render_scene
from vision.rims import ring_profiles

INSIDE = 0.45   # pw: where the top row's checkers start inside the edge given (a real photo's: 0.3-0.5)


def _exact(ev, pos) -> bool:
    return ev is not None and ev.bar == pos.bar and all(
        a.count == b.count and a.colour == b.colour for a, b in zip(ev.points, pos.points))


def _edge_further_out(corners: np.ndarray, pw: float) -> np.ndarray:
    """The corners with the top edge moved ``pw`` point widths outwards (the field's edge seen
    further out than where the checkers stand)."""
    c = np.array(corners, np.float64)
    up = (c[0] - c[3]) / np.linalg.norm(c[0] - c[3])
    step = up * pw * np.linalg.norm(c[1] - c[0]) / 13.0
    c[0] += step
    c[1] += step
    return c.astype(np.float32)


def _boards() -> list:
    rng = np.random.default_rng(1)
    return [(L.start_position() if k % 2 == 0 else L.random_position(rng, tall=0.0), 9000 + k) for k in range(6)]


def test_a_row_starting_inside_the_edge_is_counted_from_where_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    def exact(pos, seed: int) -> bool:
        r = render_scene(pos, RenderParams(), seed=seed)
        reader = BoardReader(VisionConfig(board_height=L.HEIGHT + INSIDE),
                             corners=_edge_further_out(r.corners, INSIDE))
        return _exact(reader.read(r.image), pos)

    boards = _boards()
    counted = sum(exact(pos, seed) for pos, seed in boards)
    monkeypatch.setattr(C, "START_MIN", 99.0)     # never counted from where the row starts
    from_edge = sum(exact(pos, seed) for pos, seed in boards)
    assert counted >= 5, f"{counted}/6 boards read exactly"
    assert from_edge < counted, "counted from the edge, the rows should be misread (else this tests nothing)"


def test_rows_standing_at_the_edge_are_counted_from_it() -> None:
    for pos, seed in _boards():
        r = render_scene(pos, RenderParams(), seed=seed)
        prof = ring_profiles(rectify(r.image, r.corners))
        assert C.row_starts(prof) == {"top": 0.0, "bottom": 0.0}
        moved = _edge_further_out(r.corners, INSIDE)
        view = rectify(r.image, moved, shape=L.BoardShape(height=L.HEIGHT + INSIDE))
        starts = C.row_starts(ring_profiles(view))
        assert starts["bottom"] == 0.0 and starts["top"] == pytest.approx(INSIDE, abs=0.1), starts
