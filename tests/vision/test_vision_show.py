"""The board as the reader lays it out, drawn over the photo (:mod:`vision.show`, ``bgtable read --show``)."""
from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np

from vision import layout as L
from vision.rectify import FrameMap
from vision.render import RenderParams, render_scene
from vision.show import SURE_TEXT, UNSURE_TEXT, draw_layout, point_triangle


def _board() -> tuple[np.ndarray, np.ndarray]:
    r = render_scene(L.start_position(), RenderParams(flip_prob=0), seed=4)
    return r.image, np.asarray(r.corners, np.float32)


def _at(corners: np.ndarray, pts: np.ndarray, shape: L.BoardShape = L.BoardShape()) -> np.ndarray:
    u, v, _ = FrameMap(corners, shape, (0, 0)).to_picture(pts[:, 0], pts[:, 1])
    return np.stack([u, v], axis=1)


def _drawn(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return cv2.absdiff(a, b).max(axis=2) > 30


def test_each_point_is_drawn_where_the_reader_lays_it() -> None:
    img, corners = _board()
    drawn = _drawn(draw_layout(img, corners), img)
    for row in ("top", "bottom"):
        for col in range(12):
            tri = _at(corners, point_triangle(row, col))
            for x, y in np.vstack([tri, tri.mean(axis=0, keepdims=True)]):
                box = drawn[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4]
                on_line = (x, y) != tuple(tri.mean(axis=0))
                assert bool(box.any()) == on_line, (row, col, x, y)   # the corners drawn, the inside left alone


def test_a_wider_bar_moves_the_right_halfs_points_and_the_bars_edges() -> None:
    img, corners = _board()
    plain = _drawn(draw_layout(img, corners), img)
    wide = _drawn(draw_layout(img, corners, L.BoardShape(bar=2.0)), img)
    assert (plain != wide).sum() > 500
    tip = _at(corners, point_triangle("top", 9)[2:], L.BoardShape(bar=2.0))[0]   # the right half's tip, laid for it
    assert wide[int(tip[1]) - 2:int(tip[1]) + 3, int(tip[0]) - 2:int(tip[0]) + 3].any()


def test_each_reading_is_written_at_its_points_tip_sure_or_not() -> None:
    img, corners = _board()
    top = [[0, None]] * 12
    top[0] = [5, "dark"]
    top[3] = [2, "light"]
    res = {"top": top, "bottom": [[0, None]] * 12, "bar": {"dark": 0, "light": 0},
           "p": {"top": [0.9] + [1.0] * 2 + [0.3] + [1.0] * 8, "bottom": [1.0] * 12}}
    out = draw_layout(img, corners, result=res)

    def near(col: int, colour: tuple[int, int, int]) -> int:
        x, y = _at(corners, np.array([[L.column_x(col), L.POINT_LEN + 0.4]]))[0]
        box = out[int(y) - 15:int(y) + 16, int(x) - 25:int(x) + 26].astype(int)
        return int((np.abs(box - np.array(colour)).max(axis=2) < 40).sum())
    assert near(0, SURE_TEXT) > 10 and near(0, UNSURE_TEXT) == 0      # 5d, p 0.9: sure
    assert near(3, UNSURE_TEXT) > 10 and near(3, SURE_TEXT) == 0      # 2l, p 0.3: not
    assert near(1, SURE_TEXT) == 0 and near(1, UNSURE_TEXT) == 0      # empty: nothing written


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=120)


def test_bgtable_read_show_writes_the_photo_with_the_board_over_it(tmp_path) -> None:
    img, corners = _board()
    photo, out = tmp_path / "board.png", tmp_path / "shown.png"
    cv2.imwrite(str(photo), img)
    p = _cli("read", str(photo), "--corners", L.format_corners(corners), "--no-dice", "--json", "--show", str(out))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["board_found"]
    shown = cv2.imread(str(out))
    assert shown is not None and shown.shape == img.shape and _drawn(shown, img).sum() > 1000


def test_bgtable_read_show_names_what_it_cannot_do(tmp_path) -> None:
    img, corners = _board()
    photo = tmp_path / "board.png"
    cv2.imwrite(str(photo), img)
    p = _cli("read", str(photo), "--no-dice", "--show", str(tmp_path / "no" / "such" / "folder.png"))
    assert p.returncode == 2 and "folder.png" in p.stderr and "cannot write" in p.stderr
    p = _cli("read", "--batch", "--show", str(tmp_path / "x.png"))
    assert p.returncode == 2 and "--show draws one photo" in p.stderr
