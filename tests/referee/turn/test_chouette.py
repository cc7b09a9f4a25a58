"""Chouette: a box against a captain and team, a cube per member, rotation, per-player scores."""
from __future__ import annotations

import pytest

from referee.rules.position import Position
from referee.turn.referee import Referee
from referee.settings import Settings
from referee.table.streams import Table


def chouette(rotation: str = "standard", **kw) -> Table:
    t = Table(Referee(Settings(chouette=("Box", "Cap", "Ann", "Bob"), chouette_rotation=rotation, **kw)))
    t.opening(3, 1)  # Box plays Dark and starts
    t.move("8/5 6/5")
    t.lift()
    return t  # the team (Light) on turn


def test_names_follow_box_and_captain() -> None:
    t = chouette()
    v = t.ref.view()
    assert v.names == ("Box", "Cap") and v.message == "Box plays 3-1: 8/5 6/5"


def test_box_double_some_take_some_pass() -> None:
    t = chouette()
    t.play((6, 4), "24/14")  # the team plays; Box on turn
    [d] = t.press("dark", "double")
    assert d.reason == "Box doubles Cap (to 2), Ann (to 2), Bob (to 2): each takes or passes"
    [d] = t.press("light", "take", 0)
    assert d.reason == "Cap takes: Cap's cube is at 2, Cap owns it"
    assert t.ref.state == "double_offered"
    [d] = t.press("light", "take", 0)
    assert d.kind == "refused" and "Cap has no double to answer" in d.reason
    [d] = t.press("light", "pass", 1)
    assert d.reason == "Ann passes and pays Box 1"
    [d] = t.press("light", "take", 2)
    assert t.ref.state == "waiting_for_roll" and t.ref.turn == "dark"
    ch = t.ref.chouette
    assert (ch.cubes["Cap"].value, ch.cubes["Ann"].playing, ch.cubes["Bob"].owner) == (2, False, "member")
    assert ch.scores == {"Box": 1, "Cap": 0, "Ann": -1, "Bob": 0}
    v = t.ref.view()
    assert v.cube_value == 2 and v.cube_owner == "light"


def test_member_doubles_the_box_and_the_game_is_scored_per_cube() -> None:
    t = chouette()
    [d] = t.press("light", "double", 2)  # Bob doubles the box before the team's throw
    assert d.reason == "Bob doubles Box to 2: Box takes or passes"
    [d] = t.press("light", "take")
    assert d.kind == "refused" and "Box's to answer" in d.reason
    [d] = t.press("dark", "take")
    assert d.reason == "Box takes Bob's double: the cube is at 2, Box owns it"
    [d] = t.press("light", "double", 2)
    assert d.kind == "refused" and d.reason == "Bob cannot double: Box owns Bob's cube"
    # jump to the end: Box (Dark) bears off its last checker, Light has borne off some
    t.ref.setup(Position.from_points({1: 1}, {1: 2, 2: 3}), "dark")
    ds = t.play((2, 1), "1/off")
    over = [d for d in ds if d.kind == "game_over"][0]
    assert over.reason == ("Box wins a single game: Cap pays Box 1; Ann pays Box 1; Bob pays Box 2. "
                           "Scores: Box +4, Cap -1, Ann -1, Bob -2")
    rot = ds[-1]
    assert rot.kind == "chouette" and rot.reason.startswith("Rotation: Box keeps the box; Cap goes to the end")
    assert t.ref.chouette.team == ["Ann", "Bob", "Cap"]
    t.opening(2, 5)
    assert t.ref.view().names == ("Box", "Ann")


def test_captain_passes_others_take_new_captain() -> None:
    t = chouette()
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    t.press("light", "pass", 0)
    t.press("light", "take", 1)
    ds = t.press("light", "pass", 2)
    assert ds[-1].reason == "Ann is captain for the rest of the game"
    assert t.ref.view().names == ("Box", "Ann")


def test_everyone_passes_ends_the_game_and_rotates() -> None:
    t = chouette()
    t.play((6, 4), "24/14")
    t.press("dark", "double")
    t.press("light", "pass", 0)
    t.press("light", "pass", 1)
    ds = t.press("light", "pass", 2)
    assert [d.kind for d in ds] == ["chouette", "game_over", "chouette"]
    assert ds[1].reason == "Every team member is out: the game is over. Scores: Box +3, Cap -1, Ann -1, Bob -1"
    assert t.ref.state == "game_over"
    assert t.ref.chouette.box == "Box" and t.ref.chouette.team == ["Ann", "Bob", "Cap"]


def test_captain_wins_becomes_the_box() -> None:
    t = chouette()
    t.ref.setup(Position.from_points({1: 2, 2: 3}, {1: 1}), "light")  # the team bears off its last
    ds = t.play((2, 1), "1/off")
    over = [d for d in ds if d.kind == "game_over"][0]
    assert over.reason.startswith("The team wins a single game: Box pays Cap 1; Box pays Ann 1; Box pays Bob 1")
    assert ds[-1].reason == ("Rotation: Cap becomes the box; Box goes to the end of the line. "
                             "Next: Cap (box) against Ann, Bob, Box (captain Ann)")


def test_box_rotates_custom() -> None:
    t = chouette("box_rotates")
    t.ref.setup(Position.from_points({1: 1}, {1: 2, 2: 3}), "dark")
    ds = t.play((2, 1), "1/off")
    assert ds[-1].reason.startswith("Rotation: Cap becomes the box")


def test_chouette_settings() -> None:
    with pytest.raises(ValueError, match="chouette is money play"):
        Settings(match_to=5, chouette=("a", "b", "c"))
    with pytest.raises(ValueError, match="names must differ"):
        Settings(chouette=("a", "b", "a"))
    t = chouette()
    t.press("light", "double", 1)
    [d] = t.press("dark", "beaver")
    assert d.kind == "refused" and "not played in chouette" in d.reason


def test_box_passes_a_members_double() -> None:
    t = chouette()
    t.press("light", "double", 1)
    [d] = t.press("dark", "pass")
    assert d.reason == "Box passes Ann's double and pays 1"
    assert t.ref.chouette.scores == {"Box": -1, "Cap": 0, "Ann": 1, "Bob": 0}
    assert t.ref.state == "waiting_for_roll" and t.ref.turn == "light"
    [d] = t.press("light", "double", 1)
    assert d.kind == "refused" and d.reason == "Ann has passed and is out of this game"


def test_chouette_decisions_round_trip_as_text() -> None:
    from referee.decisions import Decision
    t = chouette()
    t.press("light", "double", 1)
    ds = t.press("dark", "pass")
    t.ref.setup(Position.from_points({1: 1}, {1: 2, 2: 3}), "dark")
    ds += t.play((2, 1), "1/off")
    for d in ds:
        assert Decision.from_json(d.to_json()) == d
        hash(d)
    over = [d for d in ds if d.kind == "game_over"][0]
    assert dict(over.get("scores")) == t.ref.chouette.scores
