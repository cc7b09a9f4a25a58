"""The cube display: the cube's value on a segment module (or a row of LEDs) and its
owner on three LEDs (left player, centre, right player).

The core is the pure :func:`cube_frame`: cube state + seating + blink phase ->
what to light.  :class:`CubeDisplay` keeps the blink phase from an injected
clock and writes to its outputs only when the frame changes.

What it shows
-------------
* the cube in the middle (value 1): ``64`` and the centre LED;
* owned: the value (2, 4, ... 64, 128 ...; ``2^14`` when too wide) and the owner's LED;
* a pending double: the offered value blinks, and so does the LED of the player
  who must take or pass; the current owner's LED stays lit;
* a Crawford game: ``CrAF`` and the centre LED (the cube is dead).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Optional, Protocol, Sequence

from referee.colour import other
from referee.view import TableView

from .segments import crawford_text, cube_text

Clock = Callable[[], float]


@dataclass(frozen=True)
class CubeState:
    """The cube as the referee sees it (a slice of :class:`~referee.view.TableView`)."""

    value: int = 1
    owner: Optional[str] = None
    offered_by: Optional[str] = None
    offered_value: Optional[int] = None
    crawford: bool = False

    @classmethod
    def from_view(cls, view: TableView) -> "CubeState":
        """The cube as the table view shows it: value, owner, a double offered, Crawford."""
        return cls(view.cube_value, view.cube_owner, view.cube_offered_by, view.cube_offered_value, view.crawford)


@dataclass(frozen=True)
class CubeFrame:
    """What the display lights at one instant."""

    text: str  # the digits ('' = blank)
    face: Optional[int]  # the cube face shown (64 in the middle), None when blank or Crawford
    leds: tuple[bool, bool, bool]  # left player, centre, right player


def _position(colour: Optional[str], left: str) -> int:
    return 1 if colour is None else 0 if colour == left else 2


def cube_frame(state: CubeState, *, left: str = "dark", digits: int = 4, blink_on: bool = True) -> CubeFrame:
    """The frame for ``state`` with ``left`` the colour seated on the left."""
    leds = [False, False, False]
    if state.crawford:
        leds[1] = True
        return CubeFrame(crawford_text(digits), None, (leds[0], leds[1], leds[2]))
    leds[_position(state.owner, left)] = True
    if state.offered_by is not None:
        offered = state.offered_value or 2 * state.value
        taker = other(state.offered_by)
        if blink_on:
            leds[_position(taker, left)] = True
            return CubeFrame(cube_text(offered, digits), offered, (leds[0], leds[1], leds[2]))
        return CubeFrame("", None, (leds[0], leds[1], leds[2]))
    face = 64 if state.value == 1 else state.value
    return CubeFrame(cube_text(state.value, digits), face, (leds[0], leds[1], leds[2]))


class ValueOutput(Protocol):
    """Where the value goes: a segment module or a row of LEDs."""

    def render(self, frame: CubeFrame) -> None:
        """Show the cube's value as ``frame`` says."""
        ...

    def close(self) -> None:
        """Switch the output off and release it."""
        ...


class SegmentOutput:
    """Adapts an :class:`~hardware.ht16k33.HT16K33` or :class:`~hardware.max7219.MAX7219`."""

    def __init__(self, module: Any) -> None:
        self.module = module
        self.digits: int = module.digits

    def render(self, frame: CubeFrame) -> None:
        """Show the frame's text on the segment module."""
        self.module.show(frame.text)

    def close(self) -> None:
        """Close the segment module."""
        self.module.close()


class LedRowOutput:
    """The plain alternative: one LED per cube face (2, 4, 8, ...), like gpiozero's LEDBarGraph.

    Face ``2**k`` lights LED ``k - 1``; in the middle the 64 LED is lit (if there is
    one); a face beyond the row lights every LED (the screen shows the number);
    Crawford lights none.  ``leds`` are gpiozero LEDs (or anything with ``value``).
    """

    def __init__(self, leds: Sequence[Any]) -> None:
        self.leds = list(leds)
        self.digits = 4

    def pattern(self, frame: CubeFrame) -> tuple[bool, ...]:
        """Which LEDs of the row light for ``frame``'s cube face (none when no face is shown)."""
        n = len(self.leds)
        if frame.face is None:
            return (False,) * n
        k = frame.face.bit_length() - 1
        if k > n:
            return (True,) * n
        return tuple(i == k - 1 for i in range(n))

    def render(self, frame: CubeFrame) -> None:
        """Light the row's LEDs for ``frame``."""
        for led, on in zip(self.leds, self.pattern(frame)):
            led.value = on

    def close(self) -> None:
        """Release the row's LEDs."""
        for led in self.leds:
            led.close()


class CubeDisplay:
    """Drives a value output and the three owner LEDs from table views, blinking a pending double."""

    def __init__(self, value: Optional[ValueOutput], owner_leds: Sequence[Any] = (), *, left: str = "dark",
                 clock: Clock = time.monotonic, blink: float = 0.5, digits: Optional[int] = None) -> None:
        if owner_leds and len(owner_leds) != 3:
            raise ValueError(f"owner_leds must be 3 (left, centre, right), got {len(owner_leds)}")
        self.value, self.owner_leds, self.left = value, list(owner_leds), left
        self.clock, self.blink = clock, blink
        self.digits: int = digits or int(getattr(value, "digits", 4))
        self.state = CubeState()
        self._offer_since: Optional[float] = None
        self.frame: Optional[CubeFrame] = None

    def show(self, view: TableView | CubeState) -> CubeFrame:
        """Show a new cube state (a view or a :class:`CubeState`) and return the frame lit."""
        state = CubeState.from_view(view) if isinstance(view, TableView) else view
        if state.offered_by is None:
            self._offer_since = None
        elif self._offer_since is None or (state.offered_by, state.offered_value) != (
                self.state.offered_by, self.state.offered_value):
            self._offer_since = self.clock()
        self.state = state
        return self.tick()

    def blink_on(self) -> bool:
        """The blink phase: on for ``blink`` seconds from the offer, then off, and so on."""
        if self._offer_since is None:
            return True
        return int((self.clock() - self._offer_since) / self.blink) % 2 == 0

    def tick(self) -> CubeFrame:
        """Recompute the frame for now (call it every ~50 ms); writes only on a change."""
        frame = cube_frame(self.state, left=self.left, digits=self.digits, blink_on=self.blink_on())
        if frame != self.frame:
            if self.value is not None:
                self.value.render(frame)
            for led, on in zip(self.owner_leds, frame.leds):
                led.value = on
            self.frame = frame
        return frame

    def close(self) -> None:
        """Release the value output and the owner LEDs."""
        if self.value is not None:
            self.value.close()
        for led in self.owner_leds:
            led.close()
