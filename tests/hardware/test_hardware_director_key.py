"""The director's key on the buttons (issue 15): a key button held down, or a PIN entered with
next/confirm; without it the director's menu still sends the action, which the referee refuses."""
from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ButtonPanel
from hardware.chooser import DIRECTOR_MENU, Chooser
from referee.events import PlayerInput
from referee.officials import DirectorAction
from referee.settings import Settings
from referee.table.config import ConfigError, loads
from referee.table.streams import Table
from referee.turn.referee import Referee

BUTTONS = """
[buttons]
dark = [ { pin = 5, press = "next", long = "call_director" }, { pin = 6, press = "confirm" } ]
light = [ { pin = 17, press = "next", long = "call_director" }, { pin = 27, press = "confirm" } ]
"""
PINS = {("dark", "next"): 5, ("dark", "confirm"): 6, ("light", "next"): 17, ("light", "confirm"): 27}
KEY_PIN = 26


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Rig:
    """A referee's table (Light on turn after Dark's opening 3-1), its buttons on mock pins."""

    def __init__(self, extra: str) -> None:
        t = Table(Referee(Settings(match_to=5)))
        t.opening(3, 1)
        t.move("8/5 6/5")
        t.lift()
        self.table = t
        self.factory = MockFactory()
        self.clock = Clock()
        self.chooser = Chooser()
        self.panel = ButtonPanel(loads(BUTTONS + extra).buttons, pin_factory=self.factory, clock=self.clock,
                                 chooser=self.chooser)
        self.chooser.show(t.ref.view())
        self.sent: list[Any] = []

    def push(self, colour: str, button: str, times: int = 1) -> list[Any]:
        out = []
        for _ in range(times):
            pin = self.factory.pin(PINS[(colour, button)])
            for level, dt in ((True, 0.0), (True, 0.05), (False, 0.05), (False, 0.1)):
                self.clock.t += dt
                (pin.drive_low if level else pin.drive_high)()
                for event in self.panel.poll():
                    self.sent.append(event)
                    ds = self.table.ref.handle(event)
                    self.chooser.show(self.table.ref.view(), ds)
                    out += ds
        return out

    def pick(self, colour: str, label: str) -> list[Any]:
        """Step to ``label`` in what is shown and confirm it."""
        while self.chooser.highlight is None or self.chooser.shown[self.chooser.highlight].label != label:
            self.push(colour, "next")
        return self.push(colour, "confirm")

    def close(self) -> None:
        self.panel.close()
        self.factory.reset()


@pytest.fixture
def keyed() -> Any:
    r = Rig(f"director = {KEY_PIN}\n")
    yield r
    r.close()


@pytest.fixture
def pinned() -> Any:
    r = Rig('pin = "213"\n')
    yield r
    r.close()


def test_with_the_key_held_next_opens_the_directors_menu_and_undo_is_applied(keyed: Any) -> None:
    keyed.factory.pin(KEY_PIN).drive_low()
    keyed.push("dark", "next")
    assert keyed.chooser.director_open and keyed.chooser.highlight == 0
    view, lit = keyed.chooser.decorate()
    assert view is not None and view.choices == tuple(label for label, _ in DIRECTOR_MENU)
    assert view.message.startswith("Director's menu")
    [d] = keyed.push("dark", "confirm")  # "Undo the last action"
    assert d.kind == "director" and "8/5 6/5 undone" in d.reason
    [e] = keyed.sent
    assert isinstance(e, DirectorAction) and (e.action, e.key) == ("undo", "button")
    assert keyed.table.ref.state == "moving" and keyed.table.ref.turn == "dark"


def test_without_the_key_held_the_menu_entry_sends_a_refused_action(keyed: Any) -> None:
    keyed.push("light", "next")  # Light's own menu: the "Director" entry is there
    assert "Director" in [o.label for o in keyed.chooser.shown]
    keyed.pick("light", "Director")
    assert keyed.chooser.director_open
    [d] = keyed.push("light", "confirm")
    assert d.kind == "refused" and "no director's key" in d.reason
    assert keyed.sent[-1].key == ""
    assert keyed.table.ref.state == "waiting_for_roll"


def test_the_pin_entered_digit_by_digit_applies_the_action(pinned: Any) -> None:
    pinned.table.ref.handle(PlayerInput("light", "call_director"))  # a player calls the director: play pauses
    pinned.chooser.show(pinned.table.ref.view())
    assert pinned.table.ref.state == "director"
    assert [o.label for o in pinned.chooser.shown] == ["Confirm", "Director"]
    pinned.pick("dark", "Director")
    pinned.pick("dark", "Undo the last action")
    assert pinned.chooser.pin_for == "undo"
    view, _ = pinned.chooser.decorate()
    assert view is not None and view.message.startswith("Director's PIN, digit 1 of 3")
    for digit in "21":
        pinned.push("dark", "next", int(digit))
        assert pinned.push("dark", "confirm") == []
    pinned.push("dark", "next", 3)
    [d] = pinned.push("dark", "confirm")
    assert d.kind == "director" and pinned.sent[-1].key == "pin"
    assert pinned.table.ref.state == "moving" and pinned.table.ref.turn == "dark"


def test_a_wrong_pin_is_refused_by_the_referee(pinned: Any) -> None:
    pinned.push("light", "next")
    pinned.pick("light", "Director")
    pinned.pick("light", "End the match")
    for _ in range(2):
        pinned.push("light", "confirm")  # 0, 0
    [d] = pinned.push("light", "confirm")  # 0: "000" is not the PIN
    assert d.kind == "refused" and pinned.sent[-1].action == "end_match" and pinned.sent[-1].key == ""
    assert pinned.table.ref.state == "waiting_for_roll"


def test_the_director_key_config_is_checked() -> None:
    c = loads(BUTTONS + 'director = 26\npin = "0042"\n').buttons
    assert (c.director, c.pin) == (26, "0042")
    with pytest.raises(ConfigError, match="buttons.pin"):
        loads(BUTTONS + "pin = 1234\n")
    with pytest.raises(ConfigError, match="buttons.pin"):
        loads(BUTTONS + 'pin = "12"\n')
    with pytest.raises(ConfigError, match="already used"):
        loads(BUTTONS + "director = 5\n")


def test_a_table_without_a_key_has_no_director_entry() -> None:
    r = Rig("")
    try:
        r.push("light", "next")
        assert "Director" not in [o.label for o in r.chooser.shown]
    finally:
        r.close()
