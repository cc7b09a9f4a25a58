"""Vision: a checker whose hue neither colour of the frame explains has an unsure colour
(vision.colours.hue_outliers), e.g. glare washing a red checker pink-white."""
from __future__ import annotations

import json
import math
import os
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import layout as L
from vision.colours import ColourModel, hue_outliers, learn_colours
from vision.config import VisionConfig
from vision.odds import colour_doubt
from vision.params import DEFAULT
from vision.read import colour_samples, pick_checkers, ring_profiles
from vision.reader import BoardReader

REAL = os.path.join(os.path.dirname(__file__), "..", "data", "vision_real")
NO_RULE = replace(DEFAULT, colour_outlier=math.inf)

# Lab samples as measured on the unseen board ``vertical`` (orange-red and cream checkers, glare
# from a lamp): five red checkers, six cream ones, and the red blot the glare washed pink-white
RED = [(151.3, 186.0, 171.0), (130.0, 182.0, 161.0), (138.3, 184.0, 160.0), (138.0, 190.0, 176.0),
       (136.5, 190.0, 175.0)]
CREAM = [(201.9, 126.0, 121.0), (202.7, 125.0, 122.0), (198.1, 124.0, 123.0), (198.1, 125.0, 120.0),
         (203.6, 124.0, 120.0), (210.3, 125.0, 122.0)]
WASHED = (165.4, 146.0, 124.0)


def _vertical() -> tuple[np.ndarray, ColourModel]:
    samples = np.array(RED + CREAM + [WASHED], np.float32)
    model = learn_colours(samples)
    assert model is not None
    return samples, model


def _real_reading(lab: dict) -> tuple[BoardReader, object]:
    """A reader of the labelled real board ``lab`` (its corners and proportions) and its reading."""
    img = cv2.imread(os.path.join(REAL, "images", lab["image"]))
    assert img is not None
    cfg = VisionConfig(markers=False, corners=L.format_corners(lab["corners"]),
                       bar_width=lab["bar_width"], board_height=lab["board_height"])
    reader = BoardReader(cfg, corners=L.parse_corners(cfg.corners or ""))
    r = reader.inspect(img, read_occluded=True)
    assert r.view is not None
    return reader, r


def _sampled(reader: BoardReader, view, bar: bool = False):
    """As :func:`vision.read.read_view` samples a view: the checkers found, the points' checkers (and
    the bar's, with ``bar``), their colour samples, the colours learned from them (None: one colour),
    the samples' colours (by the fallback model when none was learned), and the reading's params."""
    from vision.colours import fallback_model
    params = replace(reader.config.read, checker=reader.checker_size)
    found = pick_checkers(ring_profiles(view, params), params)
    checkers = [c for row in ("top", "bottom") for i in range(12) for c in found.per_axis[f"{row}{i}"].samples]
    samples = colour_samples(view, checkers + (list(found.bar) if bar else []))
    model = learn_colours(samples, params)
    labels, _ = (model or fallback_model()).classify(samples, params)
    return found, checkers, samples, model, labels, params


def test_a_glare_washed_red_checker_is_given_cream_but_its_hue_is_odd() -> None:
    samples, model = _vertical()
    labels, margin = model.classify(samples)
    assert labels[-1] == 1                                  # nearer the cream in every channel ...
    assert margin[-1] > 0.3 and colour_doubt(margin[-1]) < 0.3   # ... and fairly sure of it
    odd = hue_outliers(samples, labels)
    assert odd[-1] and not odd[:-1].any()                    # but no cream checker here is that pink


def test_a_point_holding_an_odd_checker_has_its_colour_doubted_in_the_odds_only(monkeypatch) -> None:
    from vision import read as R
    from vision.render import render_scene
    sc = render_scene(L.random_position(np.random.default_rng(34)), seed=34)
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    r = reader.inspect(sc.image)
    assert r.view is not None
    params = replace(reader.config.read, checker=reader.checker_size)
    plain, _ = R.read_view(r.view, None, params)
    found = pick_checkers(ring_profiles(r.view, params), params)
    names = [f"{row}{i}" for row in ("top", "bottom") for i in range(12)]
    sizes = [len(found.per_axis[n].samples) for n in names]
    target = next(i for i, (n, p) in enumerate(zip(sizes, list(plain.rows.top) + list(plain.rows.bottom)))
                  if n and p.count and plain.margins[i] > 0.5)

    _flagging(monkeypatch, target, 1)
    doubted, _ = R.read_view(r.view, None, params)
    assert doubted.rows == plain.rows                        # the reading and its confidences as they were
    assert doubted.margins[target] == DEFAULT.colour_knee     # the odds doubt the point's colour
    assert colour_doubt(doubted.margins[target]) > 0.4
    assert all(a == b for i, (a, b) in enumerate(zip(doubted.margins, plain.margins)) if i != target)
    assert doubted.odd == tuple(i == target for i in range(24)) and plain.odd == ()


def test_the_frame_teaching_itself_tells_an_odd_points_count_not_its_colour(monkeypatch) -> None:
    # its looks are other points' checkers: a red checker washed pink looks like the cream ones, so
    # only the point's count is taught (a table that learned this very slot from known frames knows it)
    from vision.render import render_scene
    sc = render_scene(L.random_position(np.random.default_rng(34)), seed=34)
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    r = reader.inspect(sc.image)
    assert r.evidence is not None and reader.setup is not None
    point = next(q for q in range(1, 25) if r.evidence.points[q - 1].count == 2)
    colour = r.evidence.points[point - 1].colour
    other = "light" if colour == "dark" else "dark"
    row, col = reader.setup.slot(point)
    target = (0 if row == "top" else 12) + col       # the point in image rows, as the reading samples it

    def odds_at_point(taught: BoardReader, flag: bool) -> dict:
        if flag:
            _flagging(monkeypatch, target, 1)
        got = taught.inspect(sc.image).evidence
        monkeypatch.undo()
        assert got is not None and got.odds is not None
        return {(n, c): p for n, c, p in got.odds[point - 1]}

    def self_taught(flag: bool) -> dict:
        taught = BoardReader(VisionConfig(), corners=sc.corners)
        taught.inspect(sc.image)
        taught.assume(r.evidence)                     # the frame teaches itself (vision.self_reference)
        return odds_at_point(taught, flag)

    seen, blind = self_taught(False), self_taught(True)
    assert seen[(2, colour)] > 0.5 and seen.get((2, other), 0.0) < 0.02   # the frame's looks tell the colour ...
    assert blind[(2, other)] > 0.2 and blind[(2, colour)] > blind[(2, other)]   # ... not on an odd point: the reader leans

    # a table that learned this board from a known frame showing the point's checkers keeps its colour
    learned = BoardReader(VisionConfig(), corners=sc.corners)
    learned.inspect(sc.image)
    assert learned.learn(r.evidence) and learned.memory is not None and learned.memory.colours_taught()[target]
    assert odds_at_point(learned, True).get((2, other), 0.0) < 0.02


def test_lightness_alone_makes_no_checker_odd() -> None:
    # a cream checker deep in a shadow, or a red one in glare: lightness moves, the hue does not
    samples = np.array(RED + CREAM + [(120.0, 125.0, 121.0), (220.0, 186.0, 170.0)], np.float32)
    labels = np.array([0] * len(RED) + [1] * len(CREAM) + [1, 0])
    assert not hue_outliers(samples, labels).any()


def test_a_colour_given_to_too_few_checkers_is_not_judged() -> None:
    samples = np.array(RED + CREAM[:1] + [WASHED], np.float32)
    labels = np.array([0] * len(RED) + [1, 1])
    assert not hue_outliers(samples, labels)[-1]             # one cream checker and the washed one: no spread
    assert hue_outliers(np.array(RED + CREAM + [WASHED], np.float32),
                        np.array([0] * len(RED) + [1] * (len(CREAM) + 1)))[-1]


def test_a_colour_a_third_of_whose_samples_are_a_cup_still_shows_it() -> None:
    # felt read without its proportions: black dice cups read as five dark checkers beside ten red
    red = [(108.0, 168.0, 150.0), (107.0, 168.0, 152.0), (94.0, 166.0, 150.0), (112.0, 168.0, 150.0),
           (102.0, 167.0, 150.0), (88.0, 174.0, 156.0), (86.0, 178.0, 159.0), (87.0, 175.0, 157.0),
           (88.0, 172.0, 153.0), (85.0, 174.0, 157.0)]
    cups = [(29.0, 129.0, 126.0), (85.0, 127.0, 130.0), (10.0, 128.0, 130.0), (10.0, 128.0, 128.0),
            (11.0, 128.0, 127.0)]
    samples = np.array(red + cups, np.float32)
    odd = hue_outliers(samples, np.zeros(len(samples), int))
    assert odd[len(red):].all() and not odd[:len(red)].any()


def test_the_spread_has_a_floor() -> None:
    # identical cream checkers (a rendered board): a hue a few units off is no stranger
    samples = np.array([(200.0, 125.0, 121.0)] * 6 + [(200.0, 135.0, 121.0), (200.0, 150.0, 121.0)], np.float32)
    labels = np.ones(len(samples), int)
    odd = hue_outliers(samples, labels)
    assert not odd[:7].any() and odd[7]                       # 10 units: within 6 x 3; 25 units: beyond


def test_on_a_real_board_a_red_die_is_odd_and_no_checker_is() -> None:
    """test1 (black and white checkers): the red die lying on the top row is sampled as two dark
    checkers; their hue is one neither colour shows.  No checker of the board is odd."""
    with open(os.path.join(REAL, "labels.json"), encoding="utf-8") as f:
        lab = json.load(f)["images"]["test1"]
    reader, r = _real_reading(lab)
    _found, checkers, samples, model, labels, params = _sampled(reader, r.view)
    assert model is not None
    odd = hue_outliers(samples, labels, params)
    die_x, die_y = 7.5, 0.65                                   # the die (labelled at image px 567, 126)
    at_die = np.array([abs(c.x - die_x) < 0.5 and abs(c.y - die_y) < 0.5 for c in checkers])
    assert at_die.any() and odd[at_die].all()
    assert not odd[~at_die].any()


@pytest.mark.parametrize("seed", [34, 37, 38, 40])  # boards with 20 sampled checkers or more
def test_on_rendered_boards_no_checker_is_odd(seed: int) -> None:
    from vision.render import render_scene
    sc = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed)
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    r = reader.inspect(sc.image)
    assert r.view is not None
    _found, checkers, samples, model, labels, params = _sampled(reader, r.view)
    assert model is not None and len(checkers) >= 20
    assert not hue_outliers(samples, labels, params).any()


def test_the_reason_names_the_points_something_lies_on() -> None:
    from vision.reasons import occluded
    r = occluded([], ("top 10",))
    assert r.kind == "occluded" and "top 10" in str(r) and "dice cup" in str(r)
    assert r.to_json_dict()["points"] == ("top 10",) and r.to_json_dict()["where"] == ()
    assert "points" not in occluded(["left"]).to_json_dict()     # the frame band's reason as it was


def _flagging(monkeypatch, point: int, n: int) -> None:
    """Make :func:`vision.colours.hue_outliers`, as the reading calls it, flag the first ``n``
    samples of point ``point`` (image rows: top 0..11, then bottom) and none other."""
    from vision import read as R
    real = R.pick_checkers

    def flag(samples: np.ndarray, labels: np.ndarray, p=DEFAULT) -> np.ndarray:
        odd = np.zeros(len(samples), bool)
        sizes = [len(flag.found.per_axis[f"{row}{i}"].samples) for row in ("top", "bottom") for i in range(12)]
        start = sum(sizes[:point])
        odd[start:start + min(n, sizes[point])] = True
        return odd

    def pick(*a, **k):
        flag.found = real(*a, **k)
        return flag.found

    monkeypatch.setattr(R, "pick_checkers", pick)
    monkeypatch.setattr(R, "hue_outliers", flag)


def _rendered_stack(seed: int = 34) -> tuple[object, int, int]:
    """A rendered board, the first point (image rows) holding three checkers or more, and its samples."""
    from vision.render import render_scene
    sc = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed)
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    r = reader.inspect(sc.image)
    assert r.rows is not None and r.view is not None
    params = replace(reader.config.read, checker=reader.checker_size)
    found = pick_checkers(ring_profiles(r.view, params), params)
    names = [f"{row}{i}" for row in ("top", "bottom") for i in range(12)]
    point = next(i for i, n in enumerate(names) if len(found.per_axis[n].samples) >= 3)
    return sc, point, len(found.per_axis[names[point]].samples)


def test_a_stack_of_a_colour_neither_set_shows_is_something_over_the_board(monkeypatch) -> None:
    sc, point, _ = _rendered_stack()
    name = f"{'top' if point < 12 else 'bottom'} {point % 12 + 1}"
    _flagging(monkeypatch, point, DEFAULT.foreign_stack)
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    r = reader.inspect(sc.image)
    assert r.rows is None and r.evidence is None and r.reason is not None
    assert r.reason.kind == "occluded" and dict(r.reason.facts)["points"] == (name,)
    shown = BoardReader(VisionConfig(), corners=sc.corners).inspect(sc.image, read_occluded=True)
    assert shown.rows is not None and shown.rows.confidence == 0.0 and shown.evidence is None


def test_a_die_on_a_point_is_no_such_stack(monkeypatch) -> None:
    sc, point, _ = _rendered_stack()
    plain = BoardReader(VisionConfig(), corners=sc.corners).inspect(sc.image)
    _flagging(monkeypatch, point, DEFAULT.foreign_stack - 1)     # a die covers one or two samples
    r = BoardReader(VisionConfig(), corners=sc.corners).inspect(sc.image)
    assert r.rows == plain.rows and r.evidence is not None


def test_no_labelled_real_board_here_holds_such_a_stack() -> None:
    """Every labelled real board in the repository (tuned and fresh), cups and dice and hands
    included: no point holds a stack of a colour neither set shows."""
    from vision.assemble import foreign_points
    with open(os.path.join(REAL, "labels.json"), encoding="utf-8") as f:
        labels = json.load(f)["images"]
    seen = 0
    for name, lab in labels.items():
        if not lab["board"]:
            continue
        reader, r = _real_reading(lab)
        found, _checkers, samples, _model, labels_, params = _sampled(reader, r.view, bar=True)
        assert foreign_points(found, hue_outliers(samples, labels_, params), params) == (), name
        seen += 1
    assert seen >= 20
