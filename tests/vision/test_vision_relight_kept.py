"""The light fit and the knock check are kept while nothing moved (issue 19: a learned read's
CPU): a steady table's frames are compared with the looks exactly as a fresh fit and a fresh
knock measure would compare them; a light that moved or a camera that moved is measured again."""
from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from referee.rules.position import Position
from referee.turn.matching import layout_of, layout_to_evidence
from vision import knock
from vision import memory as M
from vision import photo_edit as P
from vision.config import VisionConfig
from vision.reader import BoardReader
from vision.rectify import View, rectify
from vision.relight import light_moved, near_lists, neighbours, slot_levels
from vision.render import RenderParams, render_scene


def _grid(n: int = 12, m: int = 10) -> np.ndarray:
    return np.array([(x + 0.5, y + 0.5) for x in range(n) for y in range(m)], np.float64)


def test_slot_levels_are_each_patchs_mean_per_channel_as_a_log() -> None:
    rng = np.random.default_rng(1)
    patches = rng.integers(0, 256, (30, 8, 8, 3), dtype=np.uint8)
    want = np.log(np.maximum(patches.astype(np.float64).mean(axis=(1, 2)), 1.0))
    assert np.allclose(slot_levels(patches), want, atol=1e-6)
    assert np.allclose(slot_levels(patches.astype(np.float32)), want, atol=1e-6)


def test_the_light_moved_is_told_by_neighbourhoods_not_by_one_changed_slot() -> None:
    rng = np.random.default_rng(2)
    centres = _grid()
    near = near_lists(neighbours(centres, centres))
    before = np.log(rng.uniform(30, 220, (len(centres), 3))).astype(np.float32)
    noise = rng.normal(0.0, 0.003, before.shape).astype(np.float32)
    assert light_moved(before, before + noise, near) < 0.01           # a steady light: sensor noise
    changed = before + noise
    changed[40] += np.log(4.0)                                           # a checker came: one slot, much brighter
    changed[77] -= np.log(3.0)                                           # another went
    assert light_moved(before, changed, near) < 0.01
    assert abs(light_moved(before, before + np.float32(np.log(1.05)), near) - np.log(1.05)) < 1e-5   # 5 % brighter
    shadow = before + np.where(centres[:, :1] > 9, np.float32(np.log(0.8)), 0.0).astype(np.float32)
    assert light_moved(before, shadow, near) > 0.15                      # a shadow over a quarter of the slots


def _table(seed: int) -> tuple[BoardReader, Position, np.ndarray]:
    pos = Position.start()
    r0 = render_scene(layout_to_evidence(layout_of(pos)), RenderParams(), seed=seed)
    reader = BoardReader(VisionConfig(markers=False), corners=r0.corners)
    reader.inspect(r0.image)
    assert reader.learn(layout_to_evidence(layout_of(pos)))
    return reader, pos, r0.corners


def _view(reader: BoardReader, img: np.ndarray, corners: np.ndarray) -> View:
    return rectify(img, corners, reader.config.px, shape=reader.config.shape)


def _fresh(mem: M.BoardMemory, view: View) -> tuple[np.ndarray, knock.Move]:
    """The distances and the move of ``view`` with nothing kept: the light fitted, the knock measured."""
    mem._last = mem._moved = mem._fitted = mem._lit = mem._probe = None
    return mem._distances(view).copy(), mem.move(view)


@pytest.mark.parametrize("seed", [4, 19])
def test_a_steady_tables_frames_are_compared_as_with_a_fresh_fit(seed: int, monkeypatch) -> None:
    reader, pos, corners = _table(seed)
    mem = reader.memory
    assert isinstance(mem, M.BoardMemory)
    fits, measures = [], []
    fit, measure = M.fit_light, knock.measure_anchors
    monkeypatch.setattr(M, "fit_light", lambda *a: fits.append(1) or fit(*a))
    monkeypatch.setattr(knock, "measure_anchors", lambda *a: measures.append(1) or measure(*a))
    ev = layout_to_evidence(layout_of(pos))
    views = [_view(reader, render_scene(ev, RenderParams(), seed=seed, frame=f).image, corners) for f in (1, 2, 3)]
    kept = []
    for v in views:   # each a new camera frame: sensor noise, the light's flicker
        mem._last = mem._moved = None
        kept.append((mem._distances(v).copy(), mem.move(v)))
    assert len(fits) == 1 and len(measures) == 1, "the light fitted and the knock measured once, on the first frame"
    for v, (d, m) in zip(views, kept):
        fd, fm = _fresh(mem, v)
        assert np.array_equal(d, fd) and m.still and fm.still
    # the lamp switched on: fitted again, the looks carried into it; back: fitted again, not carried
    fits.clear()
    brighter = _view(reader, P.gained(render_scene(ev, RenderParams(), seed=seed, frame=4).image, 1.3), corners)
    d = mem._distances(brighter).copy()
    assert len(fits) == 1 and mem._last is not None and mem._last[3] is not None
    assert np.array_equal(d, _fresh(mem, brighter)[0])
    fits.clear()
    mem._distances(views[1])
    assert len(fits) == 1 and mem._last is not None and mem._last[3] is None
    # a knock: measured again, and undone
    measures.clear()
    knocked = _view(reader, P.moved(render_scene(ev, RenderParams(), seed=seed, frame=5).image, corners, 5.0, 0.0),
                    corners)
    m = mem.move(knocked)
    assert len(measures) == 1 and not m.still and not m.far(knocked.px)


def test_a_drift_is_told_in_a_fraction_of_a_pixel_and_noise_is_no_drift() -> None:
    pos = Position.start()
    ev = layout_to_evidence(layout_of(pos))
    cfg = VisionConfig(markers=False)
    r0 = render_scene(ev, RenderParams(), seed=7)
    views = [rectify(render_scene(ev, RenderParams(), seed=7, frame=f).image, r0.corners, cfg.px, shape=cfg.shape)
             for f in (0, 1)]
    small = knock.anchor(views[0])
    p = knock.probe(small)
    assert p is not None
    assert knock.drift(p, small) == 0.0
    assert knock.drift(p, knock.anchor(views[1])) < 0.1      # sensor noise and flicker
    h, w = views[1].image.shape[:2]
    for dx, dy in ((1.0, 0.0), (0.0, 1.0), (2.0, 0.0), (8.0, 0.0), (0.0, 16.0)):   # view pixels
        img = cv2.warpAffine(views[1].image, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h),
                             borderMode=cv2.BORDER_REPLICATE)
        got = knock.drift(p, knock.anchor(View(img, views[1].px, views[1].margin, views[1].origin)))
        assert got > knock.SAME, (dx, dy, got)
    assert knock.drift(p, np.zeros((3, 3), np.float32)) == math.inf
    assert knock.probe(np.full_like(small, 90.0)) is None      # a blank view tells no drift


def test_a_move_holds_only_clear_of_still_and_far() -> None:
    still = knock.Move(0.2, 0.1, 0.0, 6, 0.3)
    assert knock.holds(still, 32.0, 0.05)
    assert not knock.holds(still, 32.0, knock.SAME)                       # drifted: measured again
    assert not knock.holds(knock.Move(1.5, 0.0, 0.0, 6, 1.5), 32.0, 0.0)  # near STILL: measured again
    assert not knock.holds(knock.Move(0.2, 0.0, 0.0, 2, 0.2), 32.0, 0.0)  # too few tiles agreed
    knocked = knock.Move(5.0, 0.0, 0.0, 6, 5.0)
    assert knock.holds(knocked, 32.0, 0.05)                               # a knock undone as measured
    assert not knock.holds(knock.Move(24.0, 0.0, 0.0, 6, 24.0), 32.0, 0.0)  # near FAR (0.75 of 32 px)
    assert not knock.holds(knock.Move(40.0, 0.0, 0.0, 6, 40.0), 32.0, 0.0)  # far: the corners must be set again
