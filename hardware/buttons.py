"""The players' buttons: debounce and long press in our own code, on an injected clock.

gpiozero's mock pins ignore ``bounce_time``, and a real table wants the same
behaviour in tests and on the Pi, so the timing lives in the pure
:class:`Debouncer` (levels and times in, button gestures out).  :class:`ButtonPanel`
wires gpiozero input devices to one debouncer each and turns gestures into
:class:`referee.events.PlayerInput` events.  Its :class:`~hardware.chooser.Chooser`
(``panel.chooser``) takes the ``next`` and ``confirm`` presses: ``next`` steps through the
choices on the screen, ``confirm`` answers the highlighted one.  The director's key
(``[buttons] director`` pin held down, or ``pin`` entered) opens the director's menu there,
whose picks are :class:`referee.officials.DirectorAction` events.

Timing rules
------------
* A level must hold ``debounce`` seconds before it counts (shorter blips are bounces).
* A button with no long action reports its press as soon as the press is stable.
* A button with a long action reports the long action once it has been held
  ``long_press`` seconds (while still held), else its press action on release.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional

from referee.colour import COLOURS
from referee.events import PlayerInput

from .chooser import Chooser, DirectorKey, Input
from .config import ButtonsConfig, ButtonSpec

Clock = Callable[[], float]


@dataclass(frozen=True)
class Gesture:
    """A debounced gesture: ``"press"`` or ``"long"``, at time ``t`` (when it was recognised)."""

    kind: str
    t: float


class Debouncer:
    """One button's state machine: states ``released``, ``pressed``, ``held`` (long press reported)."""

    def __init__(self, debounce: float = 0.03, long_press: Optional[float] = None) -> None:
        self.debounce, self.long_press = debounce, long_press
        self.raw = False
        self.raw_since = float("-inf")
        self.state = "released"
        self.pressed_at = 0.0

    def feed(self, pressed: bool, t: float) -> list[Gesture]:
        """A raw level at time ``t`` (an edge, or a poll); returns the gestures it completes.

        Time first advances to ``t`` under the old level (it may have become stable
        since the last call), then the new level starts.
        """
        out = self.tick(t)
        if pressed != self.raw:
            self.raw, self.raw_since = pressed, t
            out += self.tick(t)
        return out

    def tick(self, t: float) -> list[Gesture]:
        """Advance time to ``t`` with no new edge."""
        out: list[Gesture] = []
        stable = t - self.raw_since >= self.debounce
        if self.state == "released" and self.raw and stable:
            self.state, self.pressed_at = "pressed", self.raw_since
            if self.long_press is None:
                out.append(Gesture("press", t))
        elif self.state in ("pressed", "held") and not self.raw and stable:
            if self.state == "pressed" and self.long_press is not None:
                out.append(Gesture("press", t))
            self.state = "released"
        if self.state == "pressed" and self.long_press is not None and self.raw \
                and t - self.pressed_at >= self.long_press:
            self.state = "held"
            out.append(Gesture("long", t))
        return out


class ButtonPanel:
    """Both players' buttons: gpiozero input edges feed debouncers; :meth:`poll` returns inputs.

    Edges arrive on gpiozero's callback thread and are queued with the clock's time;
    :meth:`poll` (called from the table loop, e.g. every 20 ms) replays them in order,
    samples each button's level and returns the :class:`PlayerInput` events completed.
    """

    def __init__(self, config: ButtonsConfig, *, pin_factory: Any = None, clock: Clock = time.monotonic,
                 chooser: Optional[Chooser] = None) -> None:
        """``chooser`` keeps the highlighted choice (the table process feeds it the views)."""
        # DigitalInputDevice, not Button: no hold thread (we time long presses ourselves)
        from gpiozero import DigitalInputDevice  # noqa: PLC0415 (gpiozero only where buttons are used)

        self.clock = clock
        self.chooser = chooser or Chooser()
        self.director_key: Any = None  # the director's key button (held down while the director acts)
        if config.director is not None:
            self.director_key = DigitalInputDevice(config.director, pull_up=config.active_low, bounce_time=None,
                                                   pin_factory=pin_factory)
        if config.director is not None or config.pin:
            key = self.director_key
            self.chooser.director = DirectorKey(config.pin, lambda: key is not None and bool(key.is_active),
                                                has_button=key is not None)
        self._lock = threading.Lock()
        self._edges: list[tuple[int, bool, float]] = []
        self.buttons: list[tuple[str, ButtonSpec, Any, Debouncer]] = []
        for colour in COLOURS:
            for spec in config.of(colour):
                device = DigitalInputDevice(spec.pin, pull_up=config.active_low, bounce_time=None,
                                            pin_factory=pin_factory)
                deb = Debouncer(config.debounce_ms / 1000,
                                config.long_press_ms / 1000 if spec.long is not None else None)
                index = len(self.buttons)
                device.when_activated = lambda _d=None, i=index: self._edge(i, True)
                device.when_deactivated = lambda _d=None, i=index: self._edge(i, False)
                self.buttons.append((colour, spec, device, deb))

    def _edge(self, index: int, pressed: bool) -> None:
        with self._lock:
            self._edges.append((index, pressed, self.clock()))

    def poll(self) -> list[Input]:
        """Process queued edges and the time now; the completed player inputs, in order."""
        with self._lock:
            edges, self._edges = self._edges, []
        out: list[Input] = []
        for index, pressed, t in edges:
            out += self._gestures(index, self.buttons[index][3].feed(pressed, t))
        now = self.clock()
        for index, (_, _, device, deb) in enumerate(self.buttons):
            out += self._gestures(index, deb.feed(bool(device.is_active), now))
        return out

    def _gestures(self, index: int, gestures: Iterable[Gesture]) -> list[Input]:
        colour, spec, _, _ = self.buttons[index]
        out: list[Input] = []
        for g in gestures:
            action = spec.long if g.kind == "long" else spec.press
            if action in ("next", "confirm"):
                out += self.chooser.press(colour, action, g.t)
            elif action is not None:
                out.append(PlayerInput(player=colour, action=action, t=g.t))
        return out

    def close(self) -> None:
        """Release every button's GPIO pin."""
        for _, _, device, _ in self.buttons:
            device.close()
        if self.director_key is not None:
            self.director_key.close()
