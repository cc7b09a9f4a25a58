"""A stack whose first face shows two colours and whose last checker's rim is open on its far
side is unsure (vision.looks.doubt_open_rims): the letters of a logo printed along the points'
bases, drawn on a made-up board, against checkers drawn round on the same board."""
from __future__ import annotations

import numpy as np
import pytest

from vision import layout as L
from vision import looks as K
from vision.params import DEFAULT
from vision.rims import Profiles, axes
from vision.stacks import Checker, PointCount

cv2 = pytest.importorskip("cv2")

PX, MARGIN = 40, 0.5                                  # pixels per point width, margin (pw)
CREAM, DARK, WHITE = (200, 220, 230), (30, 30, 30), (240, 240, 240)


def _xy(x: float, y: float) -> tuple[int, int]:
    return int(round((x + MARGIN) * PX)), int(round((y + MARGIN) * PX))


def _board(draw) -> Profiles:
    """A cream board of the layout's size with ``draw(img)`` on it, as profiles carrying the
    view's gradient map and image (the only fields the looks use)."""
    h, w = int((L.HEIGHT + 2 * MARGIN) * PX), int((L.WIDTH + 2 * MARGIN) * PX)
    img = np.full((h, w, 3), CREAM, np.uint8)
    draw(img)
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    g = (cv2.Sobel(grey, cv2.CV_32F, 1, 0) + 1j * cv2.Sobel(grey, cv2.CV_32F, 0, 1)).astype(np.complex64)
    none = np.zeros((24, 1), np.float32)
    return Profiles(none, none, none, np.zeros(1, np.float32), np.zeros(1, np.float32), np.zeros(1, np.float32),
                    400.0, grad=g, px=PX, margin=MARGIN, image=img)


def _checker(img: np.ndarray, x: float, y: float, face: tuple[int, int, int]) -> None:
    r = int(round(0.45 * PX))
    cv2.circle(img, _xy(x, y), r, face, -1, cv2.LINE_AA)
    cv2.circle(img, _xy(x, y), r, (90, 90, 90), 2, cv2.LINE_AA)


def _counts(read: dict[str, int]) -> dict[str, PointCount]:
    out = {}
    for a in axes(DEFAULT):
        n = read.get(a.name, 0)
        out[a.name] = PointCount(n, tuple(Checker(a.name, a.x, a.y0 + a.direction * (k + 0.5) * DEFAULT.checker, 1.0)
                                          for k in range(n)), 0.8)
    return out


def test_letters_along_the_bases_make_a_stack_unsure_and_checkers_drawn_round_do_not() -> None:
    top = {a.name: a for a in axes(DEFAULT)}

    def draw(img: np.ndarray) -> None:
        # "GAMMON" in bold dark letters 0.6 pw tall along the bases of top0..top5
        cv2.putText(img, "GAMMON", _xy(0.1, 0.7), cv2.FONT_HERSHEY_SIMPLEX, 1.0, DARK, 5, cv2.LINE_AA)
        for name, face, n in (("top8", DARK, 2), ("top9", CREAM, 1), ("top10", WHITE, 3)):
            a = top[name]
            for k in range(n):
                _checker(img, a.x, a.y0 + (k + 0.5) * DEFAULT.checker, face)

    prof = _board(draw)
    per = _counts({"top1": 1, "top2": 1, "top8": 2, "top9": 1, "top10": 3})
    assert K.uneven_face(prof, top["top1"].x, 0.45) > K.UNEVEN             # letters and the point
    assert K.far_rim(prof, top["top1"].x, 0.45, 1) < K.OPEN                 # nothing past the letters
    out = K.doubt_open_rims(prof, per)
    for name in ("top1", "top2"):
        assert out[name].count == 1 and out[name].confidence < DEFAULT.point_knee
    for name in ("top8", "top9", "top10"):     # one colour inside a rim closed all round: as read
        assert out[name] == per[name]
        assert K.far_rim(prof, top[name].x, (per[name].count - 0.5) * DEFAULT.checker, 1) >= K.OPEN
    assert per["top1"].confidence == 0.8       # the input is left as it was


def test_a_point_read_empty_with_a_checker_pushed_off_its_middle_is_unsure() -> None:
    from dataclasses import replace
    top = {a.name: a for a in axes(DEFAULT)}
    names = [a.name for a in axes(DEFAULT)]
    cd = DEFAULT.checker

    def draw(img: np.ndarray) -> None:
        _checker(img, top["top3"].x + 0.3, 0.45, DARK)   # 0.3 pw aside
        cv2.putText(img, "GAMMON", _xy(top["top7"].x - 0.4, 0.6), cv2.FONT_HERSHEY_SIMPLEX, 0.6, DARK, 3, cv2.LINE_AA)

    # every base slot's strongest whole rim 0.6 thresholds at 0.45 cd, at the sideways search's
    # edge: towards the checker on top3, away from it on top2 and top4
    dist = np.array([0.45 * cd, 2.0 * cd], np.float32)
    full = np.tile(np.array([0.6 * DEFAULT.threshold, 0.0], np.float32), (24, 1))
    lateral = np.zeros_like(full)
    for name, side in (("top3", 0.1), ("top2", -0.1), ("top4", 0.1), ("top7", 0.1)):
        lateral[names.index(name), 0] = side
    prof = replace(_board(draw), full=full, cap=full, lateral=lateral, dist=dist)
    per = _counts({})
    assert K.closed_rims(prof, np.array([[top["top3"].x + 0.3, 0.45]]))[0] >= K.OFF_RING
    out = K.doubt_off_axis(prof, per)
    assert out["top3"].count == 0 and out["top3"].confidence < DEFAULT.point_knee   # unsure, still empty
    for name in ("top2", "top4", "top7", "top0"):      # beside it, letters, a bare point: as read
        assert out[name] == per[name]
    assert per["top3"].confidence == 0.8
    faint = replace(prof, full=full * 0.5)              # the base's rim fainter than half the threshold: not looked at
    assert K.doubt_off_axis(faint, per) == per
