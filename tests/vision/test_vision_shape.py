"""Vision: boards built in other proportions (a wider bar, a taller playing area)."""
from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision import layout as L
from vision.config import VisionConfig
from vision.errors import ConfigError
from vision.reader import BoardReader
from vision.rectify import rectify
from vision.render import RenderParams, render_scene

WIDE = L.BoardShape(bar=2.0, height=12.0)


def _exact(ev, pos) -> bool:
    return ev is not None and ev.bar == pos.bar and all(
        a.count == b.count and a.colour == b.colour for a, b in zip(ev.points, pos.points))


def test_a_board_shape_has_a_text_form_that_reads_back() -> None:
    for shape in (L.BoardShape(), WIDE, L.BoardShape(bar=0.75, height=10.5)):
        assert L.BoardShape.parse(str(shape)) == shape
    assert str(WIDE) == "bar 2 height 12"
    with pytest.raises(ConfigError, match="bar 5"):
        L.BoardShape(bar=5.0)
    with pytest.raises(ConfigError, match="'bar wide'"):
        L.BoardShape.parse("bar wide")
    with pytest.raises(ConfigError, match="board_height|height 30"):
        VisionConfig(board_height=30.0)


def test_the_layouts_shape_maps_to_itself_and_another_keeps_the_points() -> None:
    x = np.array([-1.0, 0.0, 3.2, 6.0, 6.5, 7.0, 10.0, 13.0, 14.5])
    y = np.array([-0.5, 0.0, 2.0, 5.0, 5.5, 6.0, 9.0, 11.0, 11.5])
    xr, yr = L.BoardShape().to_real(x, y)
    assert np.allclose(xr, x) and np.allclose(yr, y)
    xr, yr = WIDE.to_real(x, y)
    assert np.allclose(xr[:4], x[:4]) and np.allclose(xr[6:], x[6:] + 1.0)   # the halves keep their points
    assert xr[4] == pytest.approx(7.0)                                         # the layout's bar shows the middle of the board's
    assert np.allclose(yr[:4], y[:4]) and np.allclose(yr[6:], y[6:] + 1.0)   # each row keeps its edge
    assert np.all(np.diff(WIDE.to_real(np.linspace(-1, 14, 200), np.zeros(200))[0]) >= 0)


def test_a_rectified_board_of_another_shape_shows_the_layouts_points() -> None:
    """The points land where the layout has them: along a line across a row, the samples at
    the layout's point centres alternate in colour (on the misplaced view they drift off)."""
    r = render_scene(L.start_position(), RenderParams(shape=WIDE, scheme="felt-green", glare_prob=0.0, shadow_prob=0.0),
                     seed=12)
    right = rectify(r.image, r.corners, 32, shape=WIDE)
    wrong = rectify(r.image, r.corners, 32)
    px, m = right.px, right.margin

    def tip_contrast(view) -> float:
        grey = cv2.cvtColor(view.image, cv2.COLOR_BGR2GRAY).astype(float)
        y = int((m + 3.0) * px)   # a line across the top row's points, 3 pw from the edge
        on = [grey[y, int((m + L.column_x(i)) * px)] for i in range(12)]
        return abs(float(np.mean(on[::2]) - np.mean(on[1::2])))   # the points alternate in colour

    assert tip_contrast(right) > 2 * tip_contrast(wrong) + 5


def test_boards_with_a_wide_bar_read_right_when_told_their_shape() -> None:
    told = layout = 0
    for s in range(8):
        pos = L.random_position(np.random.default_rng(900 + s), tall=0.3)
        img = render_scene(pos, RenderParams(shape=WIDE), seed=900 + s).image
        told += _exact(BoardReader(VisionConfig(bar_width=2.0, board_height=12.0)).read(img), pos)
        layout += _exact(BoardReader(VisionConfig()).read(img), pos)
    assert told >= 7, f"{told}/8 read exactly when told the shape"
    assert layout < 4, "the layout's shape should misread these boards (else this tests nothing)"


def test_the_renderer_draws_the_layouts_shape_as_before() -> None:
    a = render_scene(L.start_position(), seed=5)
    b = render_scene(L.start_position(), RenderParams(shape=L.BoardShape(1.0, 11.0)), seed=5)
    assert np.array_equal(a.image, b.image)


def test_bgtable_read_takes_the_shape(tmp_path) -> None:
    pos = L.random_position(np.random.default_rng(31), tall=0.0)
    r = render_scene(pos, RenderParams(shape=WIDE), seed=931)
    path = tmp_path / "wide.png"
    cv2.imwrite(str(path), r.image)
    cmd = [sys.executable, "-m", "referee.cli", "read", str(path), "--json", "--bar-width", "2", "--board-height", "12"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout)
    top, bottom = L.SetUp().to_rows(pos)
    assert res["top"] == [[p.count, p.colour] for p in top]
    assert res["bottom"] == [[p.count, p.colour] for p in bottom]
    bad = subprocess.run(cmd[:-1] + ["40"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "height 40" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1
