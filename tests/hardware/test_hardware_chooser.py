"""Every prompt answered with two buttons per player ("next" steps, "confirm" picks), through
MockFactory pins, a fake clock and the real referee; the screen draws the highlight."""
from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel
from hardware.chooser import Chooser, Option, prompt_options
from referee.rules.position import Position
from referee.settings import Settings
from referee.table.config import ConfigError, loads
from referee.table.streams import Table
from referee.turn.referee import Referee
from referee.view import TableView

LAYOUT = """
[buttons]
dark = [
  { pin = 5, press = "next", long = "call_director" },
  { pin = 6, press = "confirm" },
  { pin = 13, press = "double" },
]
light = [
  { pin = 17, press = "next", long = "call_director" },
  { pin = 27, press = "confirm" },
  { pin = 22, press = "double" },
]
"""
PINS = {("dark", "next"): 5, ("dark", "confirm"): 6, ("dark", "double"): 13,
        ("light", "next"): 17, ("light", "confirm"): 27, ("light", "double"): 22}


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Rig:
    """A referee's table, its buttons on mock pins and the chooser that sees every view."""

    def __init__(self, table: Table, members: Any = None) -> None:
        self.factory = MockFactory()
        self.clock = Clock()
        self.chooser = Chooser(members)
        self.panel = ButtonPanel(loads(LAYOUT).buttons, pin_factory=self.factory, clock=self.clock,
                                 chooser=self.chooser)
        self.table = table
        self.decisions: list[Any] = []
        self.chooser.show(table.ref.view())

    def push(self, colour: str, button: str) -> list[Any]:
        """Press and release a button (debounced); the referee's decisions on the inputs it made."""
        pin = self.factory.pin(PINS[(colour, button)])
        out = []
        for level, dt in ((True, 0.0), (True, 0.05), (False, 0.05), (False, 0.1)):
            self.clock.t += dt
            (pin.drive_low if level else pin.drive_high)()
            for event in self.panel.poll():
                ds = self.table.ref.handle(event)
                self.chooser.show(self.table.ref.view(), ds)
                out += ds
        return out

    def close(self) -> None:
        self.panel.close()
        self.factory.reset()


def started(**kw: Any) -> Table:
    t = Table(Referee(Settings(**kw)))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    return t  # Light on turn


@pytest.fixture
def rig() -> Any:
    r = Rig(started())
    yield r
    r.close()


def test_next_steps_through_take_and_pass_and_confirm_answers(rig: Any) -> None:
    rig.push("light", "double")
    assert rig.table.ref.state == "double_offered"
    assert [o.label for o in rig.chooser.shown] == ["Take", "Pass"] and rig.chooser.highlight is None
    rig.push("dark", "next")
    assert rig.chooser.highlight == 0
    rig.push("dark", "next")
    assert rig.chooser.highlight == 1
    view, lit = rig.chooser.decorate()
    assert view is not None and view.choices == ("Take", "Pass") and lit == 1
    [d, *_] = rig.push("dark", "confirm")
    assert d.kind == "pass" or "pass" in d.reason.lower()
    assert rig.table.ref.state == "game_over" and rig.chooser.highlight is None


def test_next_wraps_around(rig: Any) -> None:
    rig.push("light", "double")
    for _ in range(3):
        rig.push("dark", "next")
    assert rig.chooser.highlight == 0
    rig.push("dark", "confirm")
    assert rig.table.ref.cube.value == 2 and rig.table.ref.state == "waiting_for_roll"


def test_the_wrong_player_is_refused_by_the_referee_and_the_highlight_stays(rig: Any) -> None:
    rig.push("light", "double")
    rig.push("light", "next")
    [d] = rig.push("light", "confirm")  # Light cannot answer its own double
    assert d.kind == "refused"
    assert rig.table.ref.state == "double_offered"
    rig.push("dark", "next")
    rig.push("dark", "confirm")
    assert rig.table.ref.cube.value == 2


def test_resigning_from_the_menu_and_the_opponent_accepts(rig: Any) -> None:
    rig.push("light", "next")  # nothing asked: Light's menu opens on "Resign single"
    assert rig.chooser.menu_owner == "light" and rig.chooser.highlight == 0
    view, lit = rig.chooser.decorate()
    assert view is not None and view.choices[:3] == ("Resign single", "Resign gammon", "Resign backgammon")
    assert "Bob" not in view.message and view.message.startswith("Light's menu")
    rig.push("light", "next")
    [d] = rig.push("light", "confirm")
    assert d.reason == "Light offers to resign gammon: Dark accepts or rejects"
    assert [o.action for o in rig.chooser.shown] == ["accept_resignation", "reject_resignation"]
    rig.push("dark", "next")
    ds = rig.push("dark", "confirm")
    assert any("wins by resignation (gammon)" in d.reason for d in ds)


def test_the_menus_back_entry_closes_it_without_an_input(rig: Any) -> None:
    for _ in range(5):
        rig.push("dark", "next")
    assert rig.chooser.shown[rig.chooser.highlight].label == "Back"
    assert rig.push("dark", "confirm") == []
    assert rig.chooser.menu_owner is None and rig.table.ref.state == "waiting_for_roll"


def test_a_long_press_calls_the_director_and_confirm_resumes(rig: Any) -> None:
    pin = rig.factory.pin(PINS[("light", "next")])
    pin.drive_low()
    rig.clock.t += 1.2
    [e] = rig.panel.poll()
    assert (e.player, e.action) == ("light", "call_director")
    rig.table.ref.handle(e)
    rig.chooser.show(rig.table.ref.view())
    pin.drive_high()
    rig.clock.t += 0.1
    assert rig.panel.poll() == []
    assert rig.table.ref.state == "director"
    rig.push("dark", "next")
    rig.push("dark", "confirm")
    assert rig.table.ref.state == "waiting_for_roll"


def test_a_camera_only_roll_is_confirmed_by_stepping_to_it() -> None:
    t = Table(Referee(Settings(dice_reader=False)))
    pos = Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}, {"bar": 1, 13: 6, 8: 3, 6: 5})
    t.ref.pos, t.ref.turn, t.ref.state = pos, "light", "waiting_for_roll"
    t.board(pos)
    [d] = t.lift()
    r = Rig(t)
    try:
        r.chooser.show(t.ref.view(), [d])
        target = d.choices.index("5-4")
        for _ in range(target + 1):
            r.push("dark", "next")
        assert r.chooser.decorate()[1] == target
        ds = r.push("dark", "confirm")
        assert [x.kind for x in ds] == ["roll_inferred", "move_accepted"] and ds[1].get("dice") == (5, 4)
    finally:
        r.close()


def test_a_camera_only_turn_still_ends_with_a_plain_confirm() -> None:
    t = Table(Referee(Settings(dice_reader=False)))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    r = Rig(t)
    try:
        t.place((24, 18), (13, 9))
        r.chooser.show(t.ref.view())
        ds = r.push("light", "confirm")  # nothing highlighted: confirm ends the turn as before
        assert [x.kind for x in ds] == ["roll_inferred", "move_accepted"]
    finally:
        r.close()


def test_chouette_members_answer_the_box_one_by_one() -> None:
    t = Table(Referee(Settings(chouette=("Box", "Cap", "Ann", "Bob"))))
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    t.play((6, 4), "24/14")
    c = t.ref.chouette
    r = Rig(t, members=lambda: (tuple(c.team), tuple(c.pending)) if c.offer and c.offer[0] == "box" else ((), ()))
    try:
        r.push("dark", "double")
        assert [o.label for o in r.chooser.shown] == ["Cap: take", "Cap: pass", "Ann: take", "Ann: pass",
                                                      "Bob: take", "Bob: pass"]
        r.push("light", "next")
        [d] = r.push("light", "confirm")
        assert d.reason == "Cap takes: Cap's cube is at 2, Cap owns it"
        assert [o.label for o in r.chooser.shown] == ["Ann: take", "Ann: pass", "Bob: take", "Bob: pass"]
        for _ in range(2):
            r.push("light", "next")
        [d] = r.push("light", "confirm")
        assert d.reason == "Ann passes and pays Box 1"
        r.push("light", "next")
        ds = r.push("light", "confirm")
        assert ds[0].reason.startswith("Bob takes") and t.ref.state == "waiting_for_roll"
    finally:
        r.close()


def test_prompt_options_send_the_referees_own_actions_or_the_index() -> None:
    v = TableView(state="illegal_move", choices=("accept_move", "demand_legal_move"))
    assert prompt_options(v) == (Option("Accept as played", "accept_move"), Option("Demand a legal move", "demand_legal_move"))
    v = TableView(state="waiting_for_board", choices=("24/18 13/9", "24/14"))
    assert [(o.action, o.choice) for o in prompt_options(v)] == [("confirm", 0), ("confirm", 1)]


def test_next_is_a_button_action_and_a_typo_is_named() -> None:
    assert loads(LAYOUT).buttons.dark[0].press == "next"
    with pytest.raises(ConfigError, match="nxt"):
        loads('[buttons]\ndark = [{ pin = 5, press = "nxt" }]\n')


def test_the_screen_draws_the_highlighted_choice_and_scrolls_long_lists() -> None:
    from hardware.screen import MAX_CHOICES_SHOWN, render, shown_choices

    assert list(shown_choices(3, None)) == [0, 1, 2]
    assert list(shown_choices(21, None)) == list(range(MAX_CHOICES_SHOWN))
    assert list(shown_choices(21, 20)) == list(range(16, 21))
    assert list(shown_choices(21, 10)) == list(range(8, 13))
    view = TableView(state="double_offered", turn="dark", cube_offered_by="light", choices=("Take", "Pass"))
    plain = render(view)
    lit = render(view, highlight=1)
    assert plain.get_at((0, 0)) == lit.get_at((0, 0))
    diff = [(x, y) for x in range(0, 1280, 8) for y in range(590, 720, 4) if plain.get_at((x, y)) != lit.get_at((x, y))]
    assert diff and min(x for x, _ in diff) > 640  # only the choice on the right changed
