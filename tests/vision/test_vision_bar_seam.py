"""The bar's seam (vision.bar.seam_through): a board that folds at the bar shows a straight
seam along its middle; a checker on the bar hides it, tiles or clasps on it do not."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision.bar import read_bar, seam_through
from vision.checkers import board_params
from vision.config import VisionConfig
from vision.rectify import rectify
from vision.render import RenderParams, render_scene
from vision.rims import ring_profiles


def _position(bar: tuple[int, int]) -> BoardEvidence:
    pts = [PointReading(0)] * 24
    pts[5], pts[18], pts[12], pts[0] = (PointReading(5, "dark"), PointReading(5, "light"),
                                        PointReading(5 - bar[0], "dark"), PointReading(2, "light"))
    return BoardEvidence(points=tuple(pts), bar=bar, off=(5, 8 - bar[1]))


def _seamed(seed: int, bar: tuple[int, int], tiles: tuple[float, ...]):  # type: ignore[no-untyped-def]
    """A rendered board's view with a dark seam drawn down the bar's middle, hidden under its
    checkers, and light round plates (a clasp, a logo: a checker's size) at layout ``tiles``
    with the seam showing through them."""
    r = render_scene(_position(bar), RenderParams(checker=(0.9, 0.9)), seed=seed)
    view = rectify(r.image, r.corners)
    params = replace(VisionConfig(markers=False).read, checker=0.9)
    img, px, m = view.image, view.px, view.margin
    x = int(round((6.5 + m) * px))
    under = [c for c in read_bar(ring_profiles(view, params), board_params(ring_profiles(view, params), params)).checkers]
    for y in tiles:
        cv2.circle(img, (x, int(round((y + m) * px))), int(0.42 * px), (215, 215, 205), -1)
        cv2.circle(img, (x, int(round((y + m) * px))), int(0.42 * px), (60, 60, 60), 2)
    hidden = np.zeros(img.shape[0], bool)
    for c in under:
        hidden[int((c.y - 0.45 + m) * px):int((c.y + 0.45 + m) * px) + 1] = True
    for row in range(int(m * px), int((L.HEIGHT + m) * px)):
        if not hidden[row]:
            img[row, x - 1:x + 1] = (20, 20, 20)
    return view, params, under


def test_a_checker_on_a_seamed_bar_stays_a_checker() -> None:
    for seed, bar in ((700, (1, 0)), (701, (0, 1)), (702, (1, 1))):
        view, params, under = _seamed(seed, bar, ())
        prof = ring_profiles(view, params)
        p = board_params(prof, params)
        assert len(under) == sum(bar)
        assert not any(seam_through(prof, [c.y for c in under], p))
        assert len(read_bar(prof, p).checkers) == sum(bar)


def test_plates_the_seam_runs_through_are_no_checkers() -> None:
    # before (no seam rule): both plates read as bar checkers
    view, params, _ = _seamed(703, (0, 0), (2.0, 9.0))
    prof = ring_profiles(view, params)
    p = board_params(prof, params)
    assert all(seam_through(prof, [2.0, 9.0], p))
    assert read_bar(prof, p).checkers == ()
