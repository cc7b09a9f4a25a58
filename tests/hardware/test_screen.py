"""The table screen, rendered headless (SDL dummy driver): regions and pixels for the key states."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pygame
import pytest

from referee.cli import main as bgtable
from hardware.config import ScreenConfig
from hardware.runner import ScreenRunner, choose_driver
from hardware.samples import sample_views
from hardware.screen import DEFAULT_THEME as T
from hardware.screen import Layout, draw, layout, render, state_title
from referee.view import STATES, TableView

SAMPLES = dict(sample_views())
SIZES = [(800, 480), (1280, 720), (1920, 1080)]


def shot(view: TableView, size: tuple[int, int] = (1280, 720), bottom: str = "dark") -> tuple[np.ndarray, Layout]:
    surf = pygame.Surface(size)
    lay = draw(surf, view, bottom=bottom)
    return pygame.surfarray.array3d(surf), lay  # indexed [x, y]


def has(arr: np.ndarray, rect: pygame.Rect, colour: tuple[int, int, int]) -> bool:
    r = rect.clip(pygame.Rect(0, 0, arr.shape[0], arr.shape[1]))
    region = arr[r.left:r.right, r.top:r.bottom]
    return bool(np.all(region == np.array(colour), axis=-1).any())


def count(arr: np.ndarray, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    region = arr[rect.left:rect.right, rect.top:rect.bottom]
    return int(np.all(region == np.array(colour), axis=-1).sum())


def test_every_state_has_a_sample_and_every_sample_has_fifteen_checkers_each() -> None:
    assert {v.state for v in SAMPLES.values()} == set(STATES)
    for name, v in SAMPLES.items():
        assert sum(v.dark) + v.bar[0] + v.off[0] == 15, name
        assert sum(v.light) + v.bar[1] + v.off[1] == 15, name


@pytest.mark.parametrize("bottom", ["dark", "light"])
@pytest.mark.parametrize("name", ["opening_roll", "illegal_move", "resignation_offered", "game_over"])
def test_checkers_are_drawn_on_their_points_only(name: str, bottom: str) -> None:
    view = SAMPLES[name]
    arr, lay = shot(view, bottom=bottom)
    for p in range(1, 25):
        r = lay.point_rect(p)
        assert has(arr, r, T.dark_checker) == (view.dark[p - 1] > 0), (name, p)
        assert has(arr, r, T.light_checker) == (view.light[p - 1] > 0), (name, p)


def test_point_positions_follow_the_orientation() -> None:
    dark_bottom, light_bottom = layout((1280, 720), "dark"), layout((1280, 720), "light")
    p1 = dark_bottom.point_rect(1)
    assert p1.bottom == dark_bottom.board.bottom and p1.right == dark_bottom.bar.x + 7 * dark_bottom.point_w
    assert dark_bottom.point_rect(24).y == dark_bottom.board.y  # Light's home at the top
    assert light_bottom.point_rect(24) == p1 and light_bottom.point_rect(1) == dark_bottom.point_rect(24)
    rects = [dark_bottom.point_rect(p) for p in range(1, 25)]
    assert all(not a.colliderect(b) for i, a in enumerate(rects) for b in rects[i + 1:])
    assert all(not r.colliderect(dark_bottom.bar) for r in rects)


def test_bar_and_trays() -> None:
    view = SAMPLES["illegal_move"]  # Dark has one on the bar
    arr, lay = shot(view)
    assert view.bar == (1, 0)
    assert has(arr, lay.bar_halves["dark"], T.dark_checker)
    assert not has(arr, lay.bar_halves["light"], T.dark_checker)
    view = SAMPLES["resignation_offered"]  # 4 dark and 5 light off
    arr, lay = shot(view)
    assert has(arr, lay.trays["dark"], T.dark_checker) and has(arr, lay.trays["light"], T.light_checker)
    assert not has(arr, lay.trays["dark"], T.light_checker)
    arr, lay = shot(SAMPLES["opening_roll"])
    assert not any(has(arr, lay.trays[c], T.checker(c)) for c in ("dark", "light"))


@pytest.mark.parametrize("owner", [None, "dark", "light"])
def test_cube_is_drawn_at_its_owner_with_its_value(owner: str | None) -> None:
    value = 1 if owner is None else 8
    arr, lay = shot(TableView(cube_value=value, cube_owner=owner))
    rect = lay.cube_rect(owner)
    assert count(arr, rect, T.cube_face) > rect.w * rect.h // 3
    assert count(arr, rect, T.cube_text) > 50  # the digits
    for other in {None, "dark", "light"} - {owner}:
        assert not lay.cube_rect(other).colliderect(rect)
        assert not has(arr, lay.cube_rect(other), T.cube_face)


def test_cube_digits_differ_by_value() -> None:
    digits = []
    for v in (2, 4, 64, 128, 1024):
        arr, lay = shot(TableView(cube_value=v, cube_owner="dark"))
        r = lay.cube_rect("dark")
        digits.append(arr[r.left:r.right, r.top:r.bottom].tobytes())
    assert len(set(digits)) == 5


def test_pending_double_is_marked() -> None:
    arr, lay = shot(SAMPLES["double_offered"])
    assert has(arr, lay.cube_rect(None).inflate(10, 10), T.offer_accent)  # the offer sits in the middle
    assert not has(arr, lay.cube_rect("dark"), T.cube_face)
    arr, lay = shot(SAMPLES["moving"])
    assert not has(arr, lay.panel, T.offer_accent)


def test_dice_in_the_dice_region() -> None:
    arr, lay = shot(SAMPLES["moving"])  # Dark to move 6-4: dark dice
    assert count(arr, lay.dice, T.dark_checker) > 500
    arr, lay = shot(SAMPLES["opening_roll"])  # one die each
    assert has(arr, lay.dice, T.dark_checker) and has(arr, lay.dice, T.light_checker)
    arr, lay = shot(SAMPLES["double_offered"])  # no dice
    assert not has(arr, lay.dice, T.dark_checker) and not has(arr, lay.dice, T.light_checker)


def test_whose_turn_is_highlighted() -> None:
    arr, lay = shot(SAMPLES["waiting_for_roll"])  # Light to roll
    assert has(arr, lay.players["light"], T.turn_accent)
    assert not has(arr, lay.players["dark"], T.turn_accent)


@pytest.mark.parametrize("name, state", [("illegal_move", "illegal_move"), ("reroll", "reroll"),
                                         ("double_offered", "double_offered"), ("game_over", "game_over"),
                                         ("moving", "moving"), ("director", "director")])
def test_state_banner_colour(name: str, state: str) -> None:
    arr, lay = shot(SAMPLES[name])
    colour = T.banners[state]
    b = lay.banner
    assert count(arr, b, colour) > b.w * b.h // 3
    others = {c for s, c in T.banners.items() if c != colour}
    assert not any(has(arr, b, c) for c in others)


def test_banner_title_is_big_enough_to_read_from_a_metre() -> None:
    arr, lay = shot(SAMPLES["illegal_move"], size=(1280, 720))
    b = lay.banner
    title = pygame.Rect(b.x, b.y, b.w // 2, b.h // 2)
    rows = np.all(arr[title.left:title.right, title.top:title.bottom] == np.array(T.text), axis=-1).any(axis=0)
    assert rows.sum() >= 24  # glyphs at least 24 px tall on a 720-line screen
    assert state_title(SAMPLES["illegal_move"]) == "Illegal move"
    assert state_title(SAMPLES["double_offered"]) == "Ann doubles to 4"


def test_crawford_is_shown_in_the_score_bar_and_on_the_cube() -> None:
    arr, lay = shot(SAMPLES["crawford"])
    assert has(arr, lay.score_bar, T.turn_accent)
    assert not has(arr, lay.cube_rect(None), T.cube_face)
    arr, lay = shot(SAMPLES["waiting_for_roll"])
    assert not has(arr, lay.score_bar, T.turn_accent)


@pytest.mark.parametrize("size", SIZES)
def test_every_sample_renders_at_every_size(size: tuple[int, int]) -> None:
    for name, view in SAMPLES.items():
        surf = render(view, size)
        lay = layout(size)
        screen = pygame.Rect(0, 0, *size)
        for r in (lay.board, lay.panel, lay.banner, lay.score_bar, lay.dice, *lay.cube_slots.values()):
            assert screen.contains(r), (name, r)
        assert surf.get_at((lay.banner.x + 1, lay.banner.bottom - 2))[:3] == T.banners[view.state]


def test_choose_driver() -> None:
    auto = ScreenConfig()
    assert choose_driver(auto, {}, "linux", has_dri=True) == "kmsdrm"
    assert choose_driver(auto, {"DISPLAY": ":0"}, "linux", has_dri=True) is None
    assert choose_driver(auto, {"WAYLAND_DISPLAY": "w"}, "linux", has_dri=True) is None
    assert choose_driver(auto, {}, "linux", has_dri=False) is None
    assert choose_driver(auto, {}, "darwin") is None
    assert choose_driver(auto, {"SDL_VIDEODRIVER": "dummy"}, "linux", has_dri=True) == "dummy"
    assert choose_driver(ScreenConfig(driver="x11"), {}, "linux", has_dri=True) == "x11"


def test_runner_draws_on_the_dummy_display() -> None:
    runner = ScreenRunner(ScreenConfig(size=(640, 400)))
    try:
        assert runner.surface.get_size() == (640, 400)
        runner.show(SAMPLES["illegal_move"])
        assert runner.surface.get_at((runner.layout.banner.x + 1, runner.layout.banner.bottom - 2))[:3] \
            == T.banners["illegal_move"]
        assert runner.pump()
    finally:
        runner.close()


def test_cli_screenshot_writes_one_png_per_state(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert bgtable(["screen", "--screenshot", str(tmp_path), "--size", "640x360"]) == 0
    files = sorted(p.stem for p in tmp_path.glob("*.png"))
    assert files == sorted(SAMPLES)
    img = pygame.image.load(str(tmp_path / "illegal_move.png"))
    assert img.get_size() == (640, 360)
    assert img.get_at((2, 358))[:3] == T.banners["illegal_move"]


def test_cli_demo_and_views(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert bgtable(["screen", "--demo", "--frames", "3", "--size", "480x320"]) == 0
    assert "3 frames, 14 views" in capsys.readouterr().out
    f = tmp_path / "views.jsonl"
    f.write_text(SAMPLES["moving"].to_json() + "\n# a comment\n" + SAMPLES["reroll"].to_json() + "\n")
    assert bgtable(["screen", "--views", str(f), "--frames", "2", "--size", "480x320"]) == 0
    assert "2 views" in capsys.readouterr().out
    f.write_text(json.dumps({"state": "sleeping"}) + "\n")
    assert bgtable(["screen", "--views", str(f), "--frames", "1"]) == 2
    assert "sleeping" in capsys.readouterr().err
    assert bgtable(["screen"]) == 2
    assert "--demo" in capsys.readouterr().err


def test_cli_uses_the_config(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tmp_path / "t.toml"
    cfg.write_text('[players]\ndark = "Zed"\ndark_colour = "#102030"\n[screen]\nsize = [400, 240]\n')
    assert bgtable(["screen", "--config", str(cfg), "--screenshot", str(tmp_path / "s")]) == 0
    img = pygame.image.load(str(tmp_path / "s" / "moving.png"))
    assert img.get_size() == (400, 240)
    arr = pygame.surfarray.array3d(img)
    assert np.all(arr == np.array((0x10, 0x20, 0x30)), axis=-1).any()
    cfg.write_text('[screen]\nsize = [10, 10]\n')
    assert bgtable(["screen", "--config", str(cfg), "--demo"]) == 2
    assert "screen.size" in capsys.readouterr().err


def test_committed_screenshots_cover_every_sample() -> None:
    shots = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
    assert sorted(p.stem for p in shots.glob("*.png")) == sorted(SAMPLES)
    devices = (Path(__file__).resolve().parents[2] / "hardware" / "DEVICES.md").read_text()
    assert "bgtable screen --screenshot docs/screenshots" in devices
    for name in SAMPLES:
        assert f"docs/screenshots/{name}.png" in devices
