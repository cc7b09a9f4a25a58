"""A missing reading carries its reason (issue 18), and the reading stages change none of their inputs."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import cv2
import numpy as np

from referee.events import PointReading
from vision import layout as L
from referee.cli import main as bgtable
from vision.cli import read_image
from vision.occlusion import EDGES, occluded_edges, occlusion_score
from vision.read import assemble, pick_checkers, read_view, ring_profiles
from vision.reasons import NoReading, impossible, reading_reason
from vision.rectify import rectify
from vision.render import RenderParams, render_scene

CALM = RenderParams(glare_prob=0.0, shadow_prob=0.0)


def _rows(dark_on_top0: int, light_on_bottom0: int = 0, bar: tuple[int, int] = (0, 0),
          conf: float = 1.0) -> L.RowReading:
    empty = PointReading(0, None, 1.0)
    top = (PointReading(dark_on_top0, "dark", conf),) + (empty,) * 11
    bottom = (PointReading(light_on_bottom0, "light" if light_on_bottom0 else None, 1.0),) + (empty,) * 11
    return L.RowReading(top, bottom, bar, conf)


def test_impossible_totals_name_the_colour_and_by_how_much() -> None:
    r = impossible((17, 15))
    assert r.kind == "impossible" and "dark has 17 checkers, 2 more than 15" in str(r) and "light" not in str(r)
    assert r.to_json_dict()["over"] == {"dark": 2} and r.to_json_dict()["totals"] == {"dark": 17, "light": 15}
    assert reading_reason(_rows(15, 14, bar=(1, 0))) == impossible((16, 14))   # the bar counts too
    assert reading_reason(_rows(15, 15)) is None


def test_the_other_reasons_and_their_order() -> None:
    assert reading_reason(_rows(16), occluded_where=["top"]).kind == "occluded"   # a hand first: nothing else is known
    assert "top edge" in str(reading_reason(_rows(3), occluded_where=["top"]))
    assert reading_reason(_rows(3), set_up=False).kind == "not_set_up"
    unsure = reading_reason(_rows(3, conf=0.4), min_confidence=0.6)
    assert unsure is not None and unsure.kind == "unsure" and "0.40 below 0.6" in unsure.text and "(unsure: top 1)" in unsure.text
    assert reading_reason(_rows(3, conf=0.4), min_confidence=0.0) is None
    try:
        NoReading("gone", "x")
    except ValueError as exc:
        assert "'gone'" in str(exc) and "occluded" in str(exc)
    else:
        raise AssertionError("an unknown kind must be refused")


def test_a_hand_over_the_board_says_which_edges_it_crosses() -> None:
    named = 0
    for s in range(4):
        hand = render_scene(L.random_position(np.random.default_rng(s)), CALM, seed=s, hand=True)
        view = rectify(hand.image, hand.corners, 10)
        edges = occluded_edges(view)
        assert set(edges) <= set(EDGES)
        assert bool(edges) == (occlusion_score(view) > 1.0)
        named += bool(edges)
    assert named >= 3


def test_the_cli_gives_a_reason_only_when_there_is_no_reading(tmp_path: Path, capsys) -> None:
    r = render_scene(L.start_position(), RenderParams(), seed=3)
    img = tmp_path / "board.png"
    cv2.imwrite(str(img), r.image)
    res = read_image(str(img))
    assert res["board_found"] and res["reason"] is None
    hand = render_scene(L.start_position(), RenderParams(), seed=3, hand=True)
    cv2.imwrite(str(img), hand.image)
    res = json.loads(json.dumps(read_image(str(img))))
    assert res["occluded"] and res["reason"]["kind"] == "occluded" and res["reason"]["where"] == ["bottom"]
    assert bgtable(["read", str(img)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [ln for ln in out if ln.startswith("no reading: ")] == [f"no reading: {res['reason']['text']}"]


def test_the_stages_leave_their_inputs_as_they_were() -> None:
    r = render_scene(L.random_position(np.random.default_rng(7), tall=0.5), RenderParams(), seed=7)
    view = rectify(r.image, r.corners, 32)
    before = view.image.copy()
    prof = ring_profiles(view)
    full, cap = prof.full.copy(), prof.cap.copy()
    found = pick_checkers(prof)
    assert np.array_equal(prof.full, full) and np.array_equal(prof.cap, cap)
    kept = copy.deepcopy(found)
    n = sum(len(pc.samples) for pc in found.per_axis.values()) + len(found.bar)
    labels, margins = np.zeros(n, int), np.full(n, 0.5)
    labels[: n // 2] = 1
    a = assemble(found, labels, margins)
    assert found == kept
    assert (a.reason is None) == a.plausible
    read_view(view)
    assert np.array_equal(view.image, before)
