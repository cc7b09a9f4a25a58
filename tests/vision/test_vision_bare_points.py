"""A point read empty whose rims stand out from its colour's bare points is not surely empty
(vision.bare.doubt_bare_points): a dark checker on a dark point, its rim faint against the
board's threshold but twice its colour's pattern and closed on its far side, on a made-up board;
a strong but open edge (a shadow's, a triangle's) and a point standing less high keep their
sureness."""
from __future__ import annotations

import numpy as np
import pytest

from vision import bare as B
from vision import layout as L
from vision import looks as K
from vision.params import DEFAULT
from vision.rims import Profiles, axes
from vision.stacks import PointCount

cv2 = pytest.importorskip("cv2")

PX, MARGIN = 40, 0.5                                  # pixels per point width, margin (pw)
GREEN, DARK = (60, 120, 40), (35, 35, 35)


def _xy(x: float, y: float) -> tuple[int, int]:
    return int(round((x + MARGIN) * PX)), int(round((y + MARGIN) * PX))


def _board(draw, rims: dict[str, float]) -> Profiles:
    """A green board with ``draw(img)`` on it, as profiles carrying the view's gradient map and
    each point's strongest whole rim (``rims``, in thresholds; 0.1 elsewhere)."""
    h, w = int((L.HEIGHT + 2 * MARGIN) * PX), int((L.WIDTH + 2 * MARGIN) * PX)
    img = np.full((h, w, 3), GREEN, np.uint8)
    draw(img)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g = (cv2.Sobel(grey, cv2.CV_32F, 1, 0) + 1j * cv2.Sobel(grey, cv2.CV_32F, 0, 1)).astype(np.complex64)
    dist = np.arange(DEFAULT.axis_start, DEFAULT.axis_end, DEFAULT.step, dtype=np.float32)
    full = np.full((24, len(dist)), 0.1 * DEFAULT.threshold, np.float32)
    for j, a in enumerate(axes(DEFAULT)):
        full[j, len(dist) // 4] = rims.get(a.name, 0.1) * DEFAULT.threshold
    none = np.zeros(1, np.float32)
    return Profiles(full, full, np.zeros_like(full), dist, none, none, 400.0, grad=g, px=PX, margin=MARGIN,
                    image=img)


def test_an_empty_point_standing_out_from_its_colours_bare_points_with_a_closed_rim_is_unsure() -> None:
    top = {a.name: a for a in axes(DEFAULT)}
    cd = DEFAULT.checker

    def draw(img: np.ndarray) -> None:
        a = top["top4"]                       # two dark checkers, outlined a little lighter
        for k in range(2):
            cv2.circle(img, _xy(a.x, a.y0 + (k + 0.5) * cd), int(round(0.45 * PX)), DARK, -1, cv2.LINE_AA)
            cv2.circle(img, _xy(a.x, a.y0 + (k + 0.5) * cd), int(round(0.45 * PX)), (90, 90, 90), 2, cv2.LINE_AA)
        b = top["top6"]                       # a shadow's straight edge across the point: open beyond
        cv2.rectangle(img, _xy(b.x - 0.5, 0.0), _xy(b.x + 0.5, 0.3), DARK, -1)

    prof = _board(draw, {"top4": 0.45, "top6": 0.45, "top2": 0.15})
    per = {a.name: PointCount(0, (), 0.8) for a in axes(DEFAULT)}
    bare = np.ones(24, bool)
    out = B.doubt_bare_points(prof, bare, per, DEFAULT)
    assert K.far_rim(prof, top["top4"].x, 0.5 * cd, 1) >= K.OPEN
    assert out["top4"].count == 0 and out["top4"].confidence < DEFAULT.point_knee    # unsure, still empty
    assert K.far_rim(prof, top["top6"].x, 0.5 * cd, 1) < K.OPEN
    assert out["top6"] == per["top6"]         # an open edge: as read
    assert out["top2"] == per["top2"]         # 1.5 times its pattern: as read
    assert out["top0"] == per["top0"]
    assert per["top4"].confidence == 0.8      # the input is left as it was


def test_a_point_holding_checkers_and_a_colour_with_no_bare_point_are_left_as_read() -> None:
    prof = _board(lambda img: None, {"top4": 0.45})
    per = {a.name: PointCount(0, (), 0.8) for a in axes(DEFAULT)}
    per["top4"] = PointCount(2, (), 0.8)
    bare = np.array([per[a.name].count == 0 for a in axes(DEFAULT)])
    assert B.doubt_bare_points(prof, bare, per, DEFAULT) == per
    none = np.zeros(24, bool)               # no bare point at all: no pattern to stand out from
    assert B.doubt_bare_points(prof, none, {a.name: PointCount(0, (), 0.8) for a in axes(DEFAULT)}, DEFAULT) == \
        {a.name: PointCount(0, (), 0.8) for a in axes(DEFAULT)}
