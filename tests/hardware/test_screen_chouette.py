"""A chouette on the table screen (issue 15): the view's chouette data from the referee, and the
screen, rendered headless, showing the box, the captain, each member's cube and the scores."""
from __future__ import annotations

import numpy as np
import pygame
import pytest

from hardware.samples import sample_views
from hardware.screen import DEFAULT_THEME as T
from hardware.screen import draw, layout, state_title, team_rows
from hardware.screen.chouette import double_title, player_tag, title
from referee.settings import Settings
from referee.table.streams import Table
from referee.turn.referee import Referee
from referee.view import ChouetteView, MemberView, TableView, ViewError

SAMPLE = dict(sample_views())["chouette"]


def chouette(**kw: object) -> Table:
    t = Table(Referee(Settings(chouette=("Box", "Cap", "Ann", "Bob"), names=("Box", "Cap"), **kw)))
    t.opening(3, 1)  # Box plays Dark and starts
    t.move("8/5 6/5")
    t.lift()
    return t  # the team (Light) on turn


def states(v: TableView) -> dict[str, tuple[int, object, str]]:
    assert v.chouette is not None
    return {m.name: (m.cube_value, m.cube_owner, m.state) for m in v.chouette.members}


# --------------------------------------------------------------------------- the view's data


def test_the_view_says_who_is_box_and_captain_and_each_members_cube() -> None:
    t = chouette()
    v = t.ref.view()
    assert v.chouette == ChouetteView("Box", "dark", "Cap", (MemberView("Cap"), MemberView("Ann"), MemberView("Bob")),
                                      (("Box", 0), ("Cap", 0), ("Ann", 0), ("Bob", 0)))
    t.play((6, 4), "24/14")
    t.press("dark", "double")  # the box doubles every member
    assert states(t.ref.view()) == {n: (1, None, "to_answer") for n in ("Cap", "Ann", "Bob")}
    t.press("light", "take", 0)
    t.press("light", "pass", 1)
    v = t.ref.view()
    assert states(v) == {"Cap": (2, "member", "playing"), "Ann": (1, None, "passed"), "Bob": (1, None, "to_answer")}
    assert v.chouette is not None and v.chouette.score("Ann") == -1 and v.chouette.score("Box") == 1
    t.press("light", "take", 2)
    assert states(t.ref.view())["Bob"] == (2, "member", "playing")


def test_a_member_doubling_the_box_and_the_box_passing() -> None:
    t = chouette()
    t.press("light", "double", 2)  # Bob doubles the box
    assert states(t.ref.view())["Bob"] == (1, None, "doubling")
    assert double_title(t.ref.view()) == "Bob doubles Box to 2"
    t.press("dark", "pass")
    v = t.ref.view()
    assert states(v)["Bob"] == (1, None, "cashed") and v.chouette is not None and v.chouette.score("Bob") == 1
    t.press("light", "double", 0)  # the captain doubles; the box takes: the box holds the captain's cube
    t.press("dark", "take")
    assert states(t.ref.view())["Cap"] == (2, "box", "playing")


def test_a_new_captain_after_the_captain_passes() -> None:
    t = chouette()
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    t.press("light", "pass", 0)  # the captain passes, the others take: Ann captains
    t.press("light", "take", 1)
    t.press("light", "take", 2)
    v = t.ref.view()
    assert v.chouette is not None and v.chouette.captain == "Ann" and v.names == ("Box", "Ann")
    assert title(v) == "Chouette: Box (box) v Ann (captain), Cap, Bob"


def test_the_chouette_view_round_trips_and_a_heads_up_view_is_unchanged() -> None:
    assert TableView.from_json(SAMPLE.to_json()) == SAMPLE
    heads_up = TableView(names=("Ann", "Bob"))
    assert "chouette" not in heads_up.to_dict() and TableView.from_json(heads_up.to_json()) == heads_up


@pytest.mark.parametrize("kwargs, word", [
    ({"members": (MemberView("Cap"),)}, "two or more"),
    ({"captain": "Zed"}, "Zed"),
    ({"box_colour": "red"}, "red"),
    ({"members": (MemberView("Cap"), MemberView("Box"))}, "besides the box"),
])
def test_a_bad_chouette_view_is_named(kwargs: dict, word: str) -> None:
    args = dict(box="Box", box_colour="dark", captain="Cap", members=(MemberView("Cap"), MemberView("Ann")))
    with pytest.raises(ViewError, match=word):
        ChouetteView(**{**args, **kwargs})  # type: ignore[arg-type]


@pytest.mark.parametrize("kwargs, word", [({"cube_value": 3}, "cube_value"), ({"cube_owner": "dark"}, "cube_owner"),
                                          ({"state": "sulking"}, "sulking"), ({"name": ""}, "name")])
def test_a_bad_member_is_named(kwargs: dict, word: str) -> None:
    with pytest.raises(ViewError, match=word):
        MemberView(**{"name": "Ann", **kwargs})  # type: ignore[arg-type]


def test_a_bad_chouette_in_json_is_named() -> None:
    d = SAMPLE.to_dict()
    d["chouette"]["members"][0]["colour"] = "dark"
    with pytest.raises(ViewError, match="colour"):
        TableView.from_dict(d)


# --------------------------------------------------------------------------- the screen


def shot(view: TableView, size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, object]:
    surf = pygame.Surface(size)
    lay = draw(surf, view)
    return pygame.surfarray.array3d(surf), lay


def count(arr: np.ndarray, rect: pygame.Rect, colour: tuple[int, int, int]) -> int:
    region = arr[rect.left:rect.right, rect.top:rect.bottom]
    return int(np.all(region == np.array(colour), axis=-1).sum())


def test_the_team_table_reads_box_captain_cubes_and_scores() -> None:
    assert team_rows(SAMPLE) == [
        ("Ann (box)", "plays dark", "", "+3"),
        ("Bob (captain)", "2: Bob's", "", "-2"),
        ("Cid", "1: middle", "take or pass?", "0"),
        ("Dan", "1: middle", "passed, out", "+1"),
        ("Eve", "1: middle", "take or pass?", "-2"),
    ]
    assert player_tag(SAMPLE, "dark") == "box +3" and player_tag(SAMPLE, "light") == "captain -2"
    assert title(SAMPLE) == "Chouette: Ann (box) v Bob (captain), Cid, Dan, Eve"
    assert state_title(SAMPLE) == "Ann doubles Cid, Eve"
    assert team_rows(TableView()) == [] and player_tag(TableView(), "dark") == "" and double_title(TableView()) is None


@pytest.mark.parametrize("size", [(800, 480), (1280, 720), (1920, 1080)])
def test_the_screen_draws_the_team_table_with_the_members_to_answer_lit(size: tuple[int, int]) -> None:
    arr, lay = shot(SAMPLE, size)
    team = layout(size, "dark", chouette=True).plays
    assert lay.plays == team  # type: ignore[attr-defined]
    line_h = team.h // 6
    rows = [pygame.Rect(team.x, team.y + (i + 1) * min(line_h, size[1] // 26), team.w, min(line_h, size[1] // 26))
            for i in range(5)]
    lit = [count(arr, r, T.offer_accent) > 0 for r in rows]
    assert lit == [False, False, True, False, True]  # Cid and Eve are asked to take or pass
    assert all(count(arr, r, T.text) + count(arr, r, T.dim_text) > 0 for r in rows[:2])
    assert count(arr, rows[3], T.dim_text) > 0 and count(arr, rows[3], T.text) == 0  # Dan is out: dimmed
    # the box's and the captain's boxes carry their role and score in the accent colour
    assert count(arr, lay.players["light"], T.turn_accent) > 0  # type: ignore[attr-defined]


def test_the_team_table_is_readable_at_the_table() -> None:
    lay = layout((1280, 720), "dark", chouette=True)
    assert lay.plays.h // 6 >= 24  # six lines (heading, box, four members) of 24 px or more
    assert layout((1280, 720), "dark").plays.h < lay.plays.h  # heads-up keeps its layout


def test_a_heads_up_money_view_draws_no_team_table() -> None:
    view = TableView(names=("Ann", "Bob"), state="waiting_for_roll", turn="dark")
    arr, lay = shot(view)
    plays = lay.plays  # type: ignore[attr-defined]
    assert count(arr, plays, T.background) == plays.w * plays.h
    arr2, _ = shot(view.replace(chouette=SAMPLE.chouette))
    team = layout((1280, 720), "dark", chouette=True).plays
    assert count(arr2, team, T.background) < team.w * team.h


def test_the_runner_shows_a_chouette(monkeypatch: pytest.MonkeyPatch) -> None:
    from hardware.config import ScreenConfig
    from hardware.runner import ScreenRunner
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    runner = ScreenRunner(ScreenConfig(size=(960, 540), fullscreen=False))
    try:
        runner.show(SAMPLE, highlight=1)
        arr = pygame.surfarray.array3d(runner.surface)
        assert runner.layout is not None and count(arr, runner.layout.plays, T.offer_accent) > 0
    finally:
        runner.close()
