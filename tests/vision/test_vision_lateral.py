"""Each quarter's slots on its points' own axes (vision/lateral.py), on a real frame.

The dev frame ``board`` (tests/data/vision_real) with its left half moved a third of a point
width to the right, as corners clicked a little off leave it: the left quarters are found shifted,
the right ones not, and the frame teaching itself fits its bare points' looks only with its slots so laid.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402

from referee.cli.judge import rows_evidence  # noqa: E402
from vision import layout as L  # noqa: E402
from vision import self_reference  # noqa: E402
from vision.lateral import quarter_lateral  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.rectify import View  # noqa: E402
from vision.slots import slot_geometry  # noqa: E402

SHIFT = 0.35   # pw the left half is moved to the right


def _board() -> tuple[BoardReader, L.RowReading, View, View]:
    lab = VR.load_labels()["images"]["board"]
    reader = BoardReader(VR.config_for(lab, "bottom-right"), corners=np.asarray(lab["corners"], np.float32))
    reader.inspect(VR.load_image("board"), read_occluded=True)
    view, setup = reader.last_view, reader.setup
    assert view is not None and setup is not None
    top, bottom = setup.to_rows(rows_evidence(lab, "bottom-right"))
    img = view.image.copy()
    k = int(round(SHIFT * view.px))
    bar = int(round((L.BAR_LEFT + 0.5 - view.x0) * view.px))   # the bar's middle: the left half ends there
    img[:, k:bar] = view.image[:, :bar - k]
    return reader, L.RowReading(tuple(top), tuple(bottom), (0, 0), 1.0), view, View(img, view.px, view.margin,
                                                                                         view.origin)


def _strays(m: self_reference.SelfReference, view: View) -> tuple[float, float]:
    """How far the left half's point slots and the right half's lie from their empty looks, on
    average (the board is bare: its slots teach only what an empty point looks like)."""
    d = m._distances(view)[:24 * m.geo.per_point, 0].reshape(24, -1)
    left = [p % 12 < 6 for p in range(24)]   # image rows: columns 0..5 are the left half
    return float(d[left].mean()), float(d[[not x for x in left]].mean())


def test_a_quarter_lying_off_its_slots_is_found_and_the_others_are_left() -> None:
    reader, _rows, view, moved = _board()
    geo = slot_geometry(reader.checker_size, reader.config.shape.height)
    assert quarter_lateral(view, geo) == (0.0, 0.0, 0.0, 0.0)      # as the corners lay it: no shift
    top_left, top_right, bottom_left, bottom_right = quarter_lateral(moved, geo)
    assert 0.2 <= top_left <= 0.4 and 0.2 <= bottom_left <= 0.4
    assert top_right == bottom_right == 0.0


def test_the_frame_teaching_itself_fits_a_shifted_quarter_only_with_its_slots_moved(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reader, rows, _view, moved = _board()
    m = self_reference.SelfReference(moved, rows, reader.checker_size, reader.config.shape.height)
    assert m.geo.lateral[0] > 0.2 and m.geo.lateral[2] > 0.2
    left, right = _strays(m, moved)
    # laid where the corners say, the left half's slots straddle its triangles' edges and fit the
    # empty looks borrowed from their mates far worse; the right half's as well as before
    monkeypatch.setattr(self_reference, "quarter_lateral", lambda *a, **k: (0.0, 0.0, 0.0, 0.0))
    plain = self_reference.SelfReference(moved, rows, reader.checker_size, reader.config.shape.height)
    plain_left, plain_right = _strays(plain, moved)
    assert plain_left > 1.4 * left
    assert abs(plain_right - right) < 0.25 * right


def _img_2602() -> tuple[dict, object, VR.VisionConfig]:
    kept = VR.LABELS, VR.IMAGES
    VR.set_labels(str(ROOT / "tests" / "data" / "vision_unseen6" / "labels.json"),
                  str(ROOT / "tests" / "data" / "vision" / "photos-yolo"))
    try:
        lab = VR.load_labels()["images"]["IMG_2602"]
        return lab, VR.load_image("IMG_2602"), VR.config_for(lab)
    finally:
        VR.set_labels(*kept)


def test_the_absolute_reading_lays_a_quarter_where_its_triangles_and_stacks_agree(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the real IMG_2602 (unseen6 dev): its bottom-left quarter's points lie 0.2 pw right of where the
    # corners put them; its two light checkers against the frame were read as none.  Symmetry and the
    # stacks' rims agree there, and the reading now finds them (vision.lateral.column_shift)
    lab, img, cfg = _img_2602()
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    rows = reader.inspect(img, read_occluded=True).rows
    assert rows is not None and reader._columns is not None
    assert reader._columns[2] == (0.0, 0.0, 0.2, 0.0)
    assert (rows.bottom[0].count, rows.bottom[0].colour) == tuple(lab["bottom"][0]) == (2, "light")
    from vision import reader as reader_module
    monkeypatch.setattr(reader_module, "column_shift", lambda *a, **k: (0.0, 0.0, 0.0, 0.0))
    plain = BoardReader(cfg, corners=L.parse_corners(cfg.corners or "")).inspect(img, read_occluded=True).rows
    assert plain is not None and plain.bottom[0].count == 0      # where the corners lay it: missed


def test_a_learned_look_keeps_the_absolute_reading_where_the_corners_lay_it() -> None:
    # the shift moves the absolute reading's tilt of a learned look, which cost the table's games on
    # real boards true plays: with a look learned it is not measured
    lab, img, cfg = _img_2602()
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    reader.inspect(img, read_occluded=True)
    reader.learn(rows_evidence(lab, "bottom-right"))
    assert reader.memory is not None and reader.memory.trained
    reader._columns = None
    reader.inspect(img)
    assert reader._columns is None
