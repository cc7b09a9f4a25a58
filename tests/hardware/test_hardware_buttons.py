"""The players' buttons: presses, bounces and long presses through MockFactory pins and a fake clock."""
from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import config as C
from referee.table.config import EXAMPLE, load, loads
from hardware.buttons import ButtonPanel, Debouncer, Gesture
from hardware.devices import build_buttons
from referee.view import TableView

CONFIG = """
[buttons]
debounce_ms = 30
long_press_ms = 1000
dark = [
  { pin = 5, press = "double" },
  { pin = 6, press = "take" },
  { pin = 13, press = "pass" },
]
light = [
  { pin = 17, press = "take", long = "pass" },
  { pin = 27, press = "accept_move", long = "demand_legal_move" },
]
"""


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def rig() -> Any:
    factory = MockFactory()
    clock = Clock()
    panel = ButtonPanel(loads(CONFIG).buttons, pin_factory=factory, clock=clock)
    yield factory, clock, panel
    panel.close()
    factory.reset()


def at(clock: Clock, t: float) -> None:
    clock.t = 100.0 + t


def actions(events: list) -> list[tuple[str, str]]:
    return [(e.player, e.action) for e in events]


def test_a_clean_press_is_one_input_after_the_debounce_time(rig: Any) -> None:
    factory, clock, panel = rig
    pin = factory.pin(5)
    at(clock, 0.0)
    pin.drive_low()  # active low: pressed
    assert panel.poll() == []  # not stable yet
    at(clock, 0.029)
    assert panel.poll() == []
    at(clock, 0.031)
    events = panel.poll()
    assert actions(events) == [("dark", "double")]
    assert events[0].t == pytest.approx(100.031)
    at(clock, 0.5)
    assert panel.poll() == []  # held: no repeat
    pin.drive_high()
    at(clock, 0.6)
    assert panel.poll() == []  # release of a press-only button reports nothing


def test_bounces_make_one_press(rig: Any) -> None:
    factory, clock, panel = rig
    pin = factory.pin(6)
    events = []
    for i, t in enumerate([0.0, 0.002, 0.004, 0.007, 0.009]):  # chatter, ends pressed
        at(clock, t)
        (pin.drive_low if i % 2 == 0 else pin.drive_high)()
        events += panel.poll()
    for t in (0.02, 0.035, 0.045, 0.2):
        at(clock, t)
        events += panel.poll()
    assert actions(events) == [("dark", "take")]
    # bouncy release then a second clean press: a second input
    for i, t in enumerate([0.3, 0.302, 0.305]):
        at(clock, t)
        (pin.drive_high if i % 2 == 0 else pin.drive_low)()
        events += panel.poll()
    at(clock, 0.4)
    events += panel.poll()
    pin.drive_low()
    at(clock, 0.45)
    events += panel.poll()
    assert actions(events) == [("dark", "take"), ("dark", "take")]


def test_a_glitch_shorter_than_debounce_is_ignored(rig: Any) -> None:
    factory, clock, panel = rig
    pin = factory.pin(13)
    at(clock, 0.0)
    pin.drive_low()
    at(clock, 0.01)
    pin.drive_high()
    events = []
    for t in (0.02, 0.05, 1.0):
        at(clock, t)
        events += panel.poll()
    assert events == []


def test_edges_between_polls_are_replayed_in_order(rig: Any) -> None:
    factory, clock, panel = rig
    pin = factory.pin(5)
    at(clock, 0.0)
    pin.drive_low()
    at(clock, 0.1)
    pin.drive_high()
    at(clock, 0.2)
    pin.drive_low()
    at(clock, 0.3)
    pin.drive_high()
    at(clock, 0.5)
    assert actions(panel.poll()) == [("dark", "double"), ("dark", "double")]


def test_short_press_of_a_two_action_button_reports_on_release(rig: Any) -> None:
    factory, clock, panel = rig
    pin = factory.pin(17)
    at(clock, 0.0)
    pin.drive_low()
    at(clock, 0.5)
    assert panel.poll() == []  # could still become a long press
    pin.drive_high()
    at(clock, 0.54)
    assert actions(panel.poll()) == [("light", "take")]


def test_long_press_reports_while_held_and_once(rig: Any) -> None:
    factory, clock, panel = rig
    pin = factory.pin(27)
    at(clock, 0.0)
    pin.drive_low()
    events = []
    for t in (0.1, 0.5, 0.99):
        at(clock, t)
        events += panel.poll()
    assert events == []
    at(clock, 1.0)
    events += panel.poll()
    assert actions(events) == [("light", "demand_legal_move")]
    at(clock, 3.0)
    assert panel.poll() == []
    pin.drive_high()
    at(clock, 3.1)
    assert panel.poll() == []  # no short press after a long one


def test_both_players_at_once(rig: Any) -> None:
    factory, clock, panel = rig
    at(clock, 0.0)
    factory.pin(5).drive_low()
    factory.pin(17).drive_low()
    at(clock, 0.05)
    factory.pin(17).drive_high()
    at(clock, 0.1)
    assert sorted(actions(panel.poll())) == [("dark", "double"), ("light", "take")]


def test_active_high_wiring(rig: Any) -> None:
    factory = MockFactory()
    clock = Clock()
    cfg = loads(CONFIG.replace("long_press_ms = 1000", "long_press_ms = 1000\nactive_low = false"))
    panel = build_buttons(cfg, pin_factory=factory, clock=clock)
    at(clock, 0.0)
    factory.pin(6).drive_high()
    at(clock, 0.1)
    assert actions(panel.poll()) == [("dark", "take")]
    panel.close()


def test_debouncer_pure_state_machine() -> None:
    d = Debouncer(debounce=0.02, long_press=0.5)
    assert d.feed(True, 0.0) == []
    assert d.tick(0.019) == [] and d.state == "released"
    assert d.tick(0.02) == [] and d.state == "pressed"
    assert d.tick(0.5) == [Gesture("long", 0.5)] and d.state == "held"
    assert d.feed(False, 0.6) == [] and d.tick(0.62) == [] and d.state == "released"
    d2 = Debouncer(debounce=0.0)
    assert d2.feed(True, 1.0) == [Gesture("press", 1.0)]


def test_example_config_buttons_all_work() -> None:
    factory = MockFactory()
    clock = Clock()
    cfg = load(EXAMPLE)
    panel = build_buttons(cfg, pin_factory=factory, clock=clock)
    panel.chooser.show(TableView(state="waiting_for_roll", turn="dark"))
    t = 0.0
    for colour in ("dark", "light"):
        for spec in cfg.buttons.of(colour):
            pin = factory.pin(spec.pin)
            at(clock, t)
            pin.drive_low()
            at(clock, t + 0.1)
            short = panel.poll()  # a press-only button reports here
            pin.drive_high()
            at(clock, t + 0.2)
            short += panel.poll()  # a two-action button, here
            if spec.press == "next":  # steps the screen's choices (here: opens the player's menu)
                assert short == [] and panel.chooser.menu_owner == colour and panel.chooser.highlight == 0, spec
                panel.chooser.press(colour, "next")
                panel.chooser.press(colour, "next")
                panel.chooser.press(colour, "next")
                panel.chooser.press(colour, "next")  # "Back"
                assert panel.chooser.press(colour, "confirm") == [] and panel.chooser.menu_owner is None
            else:
                assert actions(short) == [(colour, spec.press)], spec
            if spec.long:
                at(clock, t + 1.0)
                pin.drive_low()
                at(clock, t + 2.5)
                assert actions(panel.poll()) == [(colour, spec.long)], spec
                pin.drive_high()
                at(clock, t + 2.6)
                assert panel.poll() == []
            t += 5.0
    panel.close()
