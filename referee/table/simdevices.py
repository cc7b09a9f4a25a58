"""Simulated table devices for ``bgtable demo`` and the end-to-end tests.

Each simulator turns what a simulated player does into the events the real device
would deliver, through the real device code wherever it exists:

* :class:`PtyDice` -- the simulated dice reader on a pseudo-terminal, read by the real
  :class:`firmware_bridge.link.DiceLink` (events come back through its queue);
  :class:`DirectDice` builds the same events without a pty (fast tests);
  :class:`CameraDice` is a table without a dice reader, where only the camera sees the dice.
* :class:`RenderedCamera` -- frames drawn by :mod:`vision.render` from a fixed camera,
  read by the real :class:`vision.stability.StabilityFilter`;
  :class:`CameraOnTheDice` -- the board and the dice drawn, read by the real
  :class:`referee.table.devices.CameraThread` (board readings and the camera's view of the dice),
  the camera of a table with a dice reader or, without one, its dice too;
  :class:`PerfectCamera` reports the board as it is (fast tests).
* :class:`MockButtons` -- the real :class:`hardware.buttons.ButtonPanel` on gpiozero's
  ``MockFactory``; a press drives the pin low and high on a fake clock.

All of them return the events they caused, in order; the table loop feeds them to
the referee one at a time.
"""
from __future__ import annotations

import queue
import random
import time
from typing import Any, Optional, Sequence

from referee.events import (BoardEvidence, CameraReport, DiceLifted, DieReading, HandOverBoard, RollSettled,
                            RollStarted)
from referee.board import reading_of
from referee.rules.position import Position


class SimError(RuntimeError):
    """A simulated device did not deliver what it should have (names the device and event)."""


def board_evidence(board: Position, t: float = 0.0) -> BoardEvidence:
    """A perfect reading of ``board`` (Dark on roll), trays visible."""
    return reading_of(board, show_off=True, t=t)


# --------------------------------------------------------------------------- dice


class DirectDice:
    """Dice events without a serial link (for fast tests)."""

    source = "direct"

    def __init__(self) -> None:
        self.roll_id = 0

    def throw(self, values: Sequence[Optional[int]], zones: Sequence[str], cocked: Sequence[bool],
              on_checker: Sequence[bool]) -> list[Any]:
        """One throw's events: the roll starts, then settles (values, halves, cocked dice, dice on checkers)."""
        self.roll_id += 1
        dice = tuple(DieReading(v, flat=not c, zone=z, on_checker=o, x=(80.0 if z == "right" else -80.0) + 30 * i)
                     for i, (v, z, c, o) in enumerate(zip(values, zones, cocked, on_checker)))
        return [RollStarted(self.roll_id), RollSettled(dice, self.roll_id, self.source)]

    def lift(self) -> list[Any]:
        """The event of the player picking up the dice."""
        return [DiceLifted(self.roll_id)]

    def close(self) -> None:
        """Nothing to close."""
        pass


class CameraDice:
    """A camera-only table: no dice reader, the camera sees the dice on the board.

    A throw the camera reads surely gives the ``RollSettled`` the camera would (source
    ``"camera"``: its value, the half it rests in, off the board, on a checker); one it cannot
    read (a cocked die, or unsure at ``unsure`` per throw, seeded) gives nothing, and the roll
    is inferred from the move when the mover confirms it.  The camera sees the dice leave the
    board (``DiceLifted``) only after a throw it reported (an early roll leaves two throws on
    the board); :meth:`pick_up` clears the board before the next throw."""

    source = "camera"

    def __init__(self, seed: int = 0, unsure: float = 0.2) -> None:
        if not 0.0 <= unsure <= 1.0:
            raise ValueError(f"CameraDice unsure={unsure!r}: expected a rate between 0 and 1")
        self.rng = random.Random(f"camera-dice/{seed}")
        self.unsure = unsure
        self.roll_id = 0
        self.seen = 0  # throws the camera reported whose dice are still on the board

    def throw(self, values: Sequence[Optional[int]], zones: Sequence[str], cocked: Sequence[bool],
              on_checker: Sequence[bool]) -> list[Any]:
        """The camera's events of one throw: a settled roll when it reads the dice surely, else none."""
        unsure = self.rng.random() < self.unsure
        self.roll_id += 1
        if unsure or any(cocked) or None in values:
            return []
        self.seen += 1
        dice = tuple(DieReading(v, flat=True, zone=z, on_checker=o, x=(80.0 if z == "right" else -80.0) + 30 * i,
                                confidence=0.95)
                     for i, (v, z, o) in enumerate(zip(values, zones, on_checker)))
        return [RollSettled(dice, self.roll_id, self.source)]

    def lift(self) -> list[Any]:
        """The camera's event of the dice picked up, when it saw them thrown."""
        if not self.seen:
            return []
        self.seen -= 1
        return [DiceLifted(self.roll_id)]

    def pick_up(self) -> None:
        """The dice on the board are picked up to be thrown again (a re-roll, the next turn)."""
        self.seen = 0

    def close(self) -> None:
        """Nothing to close."""
        pass


class PtyDice:
    """The simulated dice reader on a pty, read through the real dice link."""

    def __init__(self, seed: int = 0, timeout: float = 5.0) -> None:
        from firmware_bridge.link import DiceLink  # noqa: PLC0415 (the table process imports every package)
        from firmware_bridge.sim import SimulatedReader  # noqa: PLC0415

        self.timeout = timeout
        self.reader = SimulatedReader(seed=seed).start()
        self.queue: "queue.Queue[Any]" = queue.Queue()
        self.link = DiceLink(self.reader.port_path, events=self.queue).start()
        if not self.link.wait_connected(timeout):
            self.close()
            raise SimError(f"the dice link did not connect to the simulated reader at {self.reader.port_path}")

    @property
    def port(self) -> str:
        """The pseudo-terminal the simulated reader listens on."""
        return self.reader.port_path

    def _collect(self, until: type) -> list[Any]:
        out: list[Any] = []
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SimError(f"the dice link delivered no {until.__name__} within {self.timeout:.0f} s "
                               f"(got {[type(e).__name__ for e in out]})")
            try:
                e = self.queue.get(timeout=left)
            except queue.Empty:
                continue
            out.append(e)
            if isinstance(e, until):
                return out

    def throw(self, values: Sequence[Optional[int]], zones: Sequence[str], cocked: Sequence[bool],
              on_checker: Sequence[bool]) -> list[Any]:
        """Throw these dice on the simulated reader and return the events the link reports, up to the settled roll."""
        self.reader.roll(list(values), cocked=list(cocked), zone=list(zones), on_checker=list(on_checker))
        return self._collect(RollSettled)

    def lift(self) -> list[Any]:
        """Pick up the dice on the simulated reader and return the events up to the lift."""
        from firmware_bridge.messages import STATE_SETTLED  # noqa: PLC0415
        if self.reader.core.state != STATE_SETTLED:
            # The reader models one pair of dice.  After an early roll two pairs lie on the
            # table and the reader already reported the first lift; the second pair's lift
            # is one it cannot see, so the simulated table reports it directly.
            return [DiceLifted(self.reader.core.roll_id)]
        self.reader.lift()
        return self._collect(DiceLifted)

    def close(self) -> None:
        """Stop the dice link, then the simulated reader."""
        try:
            self.link.stop()
        finally:
            self.reader.stop()


# --------------------------------------------------------------------------- camera


class PerfectCamera:
    """Reports what the stability filter does: HandOverBoard when a hand comes, then the
    board once it is still (after a hand, even when it did not change)."""

    def __init__(self) -> None:
        self.last: Optional[BoardEvidence] = None
        self.moving = False

    def show(self, board: Position, hand: bool) -> list[Any]:
        """The camera's events for ``board``: HandOverBoard when a hand comes, the board once it is still."""
        if hand:
            if self.moving:
                return []
            self.moving = True
            return [HandOverBoard()]
        was_moving, self.moving = self.moving, False
        ev = board_evidence(board)
        if ev == self.last and not was_moving:
            return []
        self.last = ev
        return [ev]

    def close(self) -> None:
        """Nothing to close."""
        pass


class RenderedCamera:
    """Frames from the synthetic renderer (a fixed camera), through the real vision pipeline."""

    def __init__(self, seed: int = 0, size: tuple[int, int] = (960, 540), frames: int = 4) -> None:
        from vision.config import VisionConfig  # noqa: PLC0415
        from vision.reader import BoardReader  # noqa: PLC0415
        from vision.render import RenderParams  # noqa: PLC0415
        from vision.stability import StabilityFilter  # noqa: PLC0415

        self.params = RenderParams(width=size[0], height=size[1], rotation_max=3.0, flip_prob=0.0,
                                   perspective_max=0.02, distortion_max=0.03, glare_prob=0.3,
                                   shadow_prob=0.3, noise_max=3.0, blur_max=0.8, jitter=0.03)
        self.seed = seed
        self.frames = frames
        self.max_frames = 16
        self.filter = StabilityFilter(BoardReader(VisionConfig()))
        self.t = 0.0
        self.count = 0
        self.last_frame: Any = None

    def _frame(self, board: Position, hand: bool) -> Any:
        from vision.render import render  # noqa: PLC0415
        self.count += 1
        self.last_frame = render(board_evidence(board), self.params, seed=self.seed, hand=hand, frame=self.count)
        return self.last_frame  # (kept: the club shows the last frame with a dispute)

    def show(self, board: Position, hand: bool) -> list[Any]:
        """One frame with a hand; else still frames until the filter reports the board
        (a camera streams on: a big change needs more quiet frames) or ``max_frames``."""
        out: list[Any] = []
        for i in range(1 if hand else self.max_frames):
            self.t += 0.1
            result = self.filter.feed(self._frame(board, hand), self.t)
            report = self.filter.take_report()
            if report is not None:
                out.append(CameraReport(report, t=self.t))
            if result is not None:
                out.append(result)
                if isinstance(result, BoardEvidence) and i + 1 >= self.frames:
                    break
        return out

    def known(self, board: Position) -> bool:
        """The referee says the board shows ``board``: the camera learns the board's look from it."""
        return self.filter.known(board_evidence(board))

    def close(self) -> None:
        """Nothing to close."""
        pass


class CameraOnTheDice:
    """The table's camera seeing the board and the dice on it: rendered frames (a fixed camera)
    through the real :class:`~referee.table.devices.CameraThread` of ``bgtable run`` (its stability
    filter and its dice watch), whose events go on ``events`` (the table's one queue) and are also
    returned.  It is the simulated table's camera (:meth:`show`) and its dice (:meth:`throw`,
    :meth:`lift`): with ``reader`` (a :class:`DirectDice` or :class:`PtyDice`) the reader's events come
    first and the camera's view of the same throw after them; without one (a camera-only table)
    the camera's view is all there is.  Dice are drawn where the throw's zones say (a thrower's
    half, across the board's edge when outside, on a checker), cocked ones tilted."""

    source = "camera"

    def __init__(self, config: Any, events: "queue.Queue[Any]", reader: Any = None, seed: int = 0,
                 size: tuple[int, int] = (960, 540), frames: int = 6) -> None:
        from referee.table.devices import CameraThread  # noqa: PLC0415 (the table process imports every package)
        from vision.render import RenderParams, render_scene  # noqa: PLC0415

        self.params = RenderParams(width=size[0], height=size[1], rotation_max=3.0, flip_prob=0.0,
                                   perspective_max=0.02, distortion_max=0.03, glare_prob=0.0,
                                   shadow_prob=0.0, noise_max=2.0, blur_max=0.6, jitter=0.03)
        self.seed = seed
        self.frames = frames
        self.reader = reader
        self.events = events
        self.rng = random.Random(f"camera-on-the-dice/{seed}")
        self.board = Position.start()
        self.dice: list[Any] = []  # vision.render_props.Die on the board
        self.count = 0
        self.t = 0.0
        first = render_scene(board_evidence(self.board), self.params, seed=seed)
        pts = tuple((float(x), float(y)) for x, y in first.corners)  # the camera is fixed: its corners are known
        from dataclasses import replace  # noqa: PLC0415
        self.camera = CameraThread(None, replace(config, vision=replace(config.vision, corners=pts)), events,
                                   None, start=False)

    def _run(self, n: int, hand: bool = False) -> list[Any]:
        from vision.render import render  # noqa: PLC0415
        out: list[Any] = []
        for _ in range(n):
            self.count += 1
            self.t += 0.1
            frame = render(board_evidence(self.board), self.params, seed=self.seed, hand=hand, frame=self.count,
                           dice=self.dice)
            self.camera.step(frame, self.t)
            while not self.events.empty():
                out.append(self.events.get_nowait())
        return out

    def show(self, board: Position, hand: bool) -> list[Any]:
        """The camera's events for ``board`` (Dark on roll): one frame with a hand over it, else still frames."""
        self.board = board
        return self._run(1, hand=True) if hand else self._run(self.frames)

    def known(self, board: Position) -> None:
        """The referee says the board shows ``board``: the camera thread learns the board's look."""
        self.camera.known(board)

    def _die(self, value: int, zone: str, cocked: bool, on_checker: bool, i: int) -> Any:
        from vision import layout as L  # noqa: PLC0415
        from vision.render_props import Die  # noqa: PLC0415
        r = self.rng
        angle, tilt = r.uniform(0, 90), (25.0 if cocked else 0.0)
        if zone == "outside":
            return Die(value, None, None, angle=angle, tilt=tilt, off_board=True, size=0.4)
        lo, hi = (L.BAR_RIGHT + 0.7, L.WIDTH - 0.7) if zone == "right" else (0.7, L.BAR_LEFT - 0.7)
        x = lo + (hi - lo) * (0.25 + 0.5 * i) + r.uniform(-0.4, 0.4)
        y = L.HEIGHT / 2 + r.uniform(-0.7, 0.7)  # between the points' tips, where the dice fall most
        return Die(value, x, y, angle=angle, tilt=tilt, on_checker=on_checker, size=0.4)

    def throw(self, values: Sequence[Optional[int]], zones: Sequence[str], cocked: Sequence[bool],
              on_checker: Sequence[bool]) -> list[Any]:
        """One throw: the reader's events (when there is one), then the camera's once the dice are still."""
        out: list[Any] = self.reader.throw(values, zones, cocked, on_checker) if self.reader is not None else []
        self.dice = [self._die(int(v or 1), z, c, o, i)
                     for i, (v, z, c, o) in enumerate(zip(values, zones, cocked, on_checker))]
        return out + self._run(self.frames)

    def lift(self) -> list[Any]:
        """The dice picked up: the reader's lift (when there is one), then the camera's view of no dice."""
        out: list[Any] = self.reader.lift() if self.reader is not None else []
        self.dice = []
        return out + self._run(self.frames)

    def pick_up(self) -> None:
        """The dice on the board are picked up to be thrown again (the next throw replaces them)."""
        self.dice = []

    def close(self) -> None:
        """Close the reader, if any."""
        if self.reader is not None:
            self.reader.close()


# --------------------------------------------------------------------------- buttons


class FakeClock:
    """Time that moves only when told to (the buttons' debounce runs on it)."""

    def __init__(self, t: float = 0.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        """Move the clock on by ``dt`` seconds."""
        self.t += dt


class MockButtons:
    """The players' buttons from the table config, on gpiozero's MockFactory."""

    def __init__(self, buttons_config: Any) -> None:
        from gpiozero.pins.mock import MockFactory  # noqa: PLC0415
        from hardware.buttons import ButtonPanel  # noqa: PLC0415

        self.clock = FakeClock()
        self.factory = MockFactory()
        self.config = buttons_config
        self.panel = ButtonPanel(buttons_config, pin_factory=self.factory, clock=self.clock)
        self.active_low = buttons_config.active_low
        self.long = buttons_config.long_press_ms / 1000
        self.debounce = buttons_config.debounce_ms / 1000

    def press(self, colour: str, action: str) -> list[Any]:
        """Press the button that gives ``action`` for ``colour`` (a long press if needed)."""
        for spec in self.config.of(colour):
            if action in (spec.press, spec.long):
                break
        else:
            raise SimError(f"{colour} has no button for {action!r} in the [buttons] config")
        pin = self.factory.pin(spec.pin)
        hold = self.long + 0.05 if (action == spec.long and action != spec.press) else self.debounce + 0.05
        out: list[Any] = []
        (pin.drive_low if self.active_low else pin.drive_high)()
        self.clock.advance(hold)
        out += self.panel.poll()
        (pin.drive_high if self.active_low else pin.drive_low)()
        self.clock.advance(self.debounce + 0.05)
        out += self.panel.poll()
        return out

    def close(self) -> None:
        """Close the button panel and its mock pin factory."""
        self.panel.close()
        self.factory.close()
