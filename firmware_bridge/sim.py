"""A simulated dice reader speaking PROTOCOL.md over a pseudo-terminal, with fault injection.

    sim = SimulatedReader(); sim.start()
    link = DiceLink(sim.port_path)          # a stable symlink, e.g. /tmp/bgtable-dice-ab12/tty
    sim.roll([3, 5]); sim.lift()
    sim.unplug(); sim.replug()              # the pty is destroyed and re-created behind the symlink
    sim.reboot()                            # a new boot id; the FIFO and roll ids are lost
    sim.inject_garbage(64); sim.drop_next(2); sim.corrupt_next(1); sim.set_rate(2000)
    sim.stop()

Unplugging models a broken data link with the reader still powered: it keeps its state
and queues events, which reach the host after :meth:`replug`.  The host sees a real I/O
error (the pty master is closed), and reopens the same :attr:`port_path` once the
symlink points at the new pty.  :meth:`reboot` models a power cycle.

The pty, the simulator's thread and the line's faults (garbage, drops, corruption, a slow
link, unplugging) are :class:`firmware_bridge.sim_line.SimulatedLine`'s; this module adds
the dice (rolls, lifts, sensor faults) and the reader's boot.
"""
from __future__ import annotations

import random
import time
from typing import Any, Callable, Optional, Sequence, Union

from firmware_bridge.errors import ScriptError
from firmware_bridge.messages import FAULT_SENSOR, FAULT_SENSOR_RECOVERED, Die
from firmware_bridge.reader import ReaderCore
from firmware_bridge.sim_line import IDLE_S, SimulatedLine

__all__ = ["IDLE_S", "PerDie", "SimulatedReader"]

PerDie = Union[Any, Sequence[Any]]


def _per_die(v: PerDie, n: int) -> list[Any]:
    if isinstance(v, (list, tuple)):
        if len(v) != n:
            raise ScriptError(f"{v!r} gives {len(v)} values for {n} dice")
        return list(v)
    return [v] * n


class SimulatedReader(SimulatedLine):
    """A dice reader on a pty; every public method is thread-safe and returns once applied."""

    def __init__(self, seed: Optional[int] = None, link_dir: Optional[str] = None,
                 clock: Callable[[], float] = time.monotonic, poll: Optional[float] = None) -> None:
        rng = random.Random(seed)
        super().__init__(ReaderCore(rng.randrange(1, 1 << 32), clock()), rng, link_dir, clock, poll)

    def _new_boot_id(self) -> int:
        return self.rng.randrange(1, 1 << 32)

    @property
    def boot_id(self) -> int:
        """The simulated reader's boot id (a new one after each reboot)."""
        return self.core.boot_id

    @property
    def source(self) -> str:
        """The boot id as the link reports it in ``RollSettled.source``."""
        return f"{self.core.boot_id:08x}"

    # ------------------------------------------------------------- the dice
    def _dice(self, values: Sequence[Optional[int]], cocked: PerDie, zone: PerDie, on_checker: PerDie,
              positions: Optional[Sequence[tuple[int, int]]], confidence: PerDie) -> list[Die]:
        n = len(values)
        if not 1 <= n <= 2:
            raise ScriptError(f"a roll has 1 or 2 dice, not {n}: {list(values)!r}")
        zones = _per_die(zone, n)
        out = []
        for i, (v, c, z, oc, conf) in enumerate(zip(values, _per_die(cocked, n), zones, _per_die(on_checker, n),
                                                    _per_die(confidence, n))):
            if positions is not None:
                x, y = positions[i]
            else:
                x, y = self._position_in(z, i)
            if z is None:
                z = self.core.zone_of(x, y)
            value = 0 if v is None else int(v)
            if conf is None:
                conf = 60 if value == 0 or c else 245
            out.append(Die(value, z, bool(c), bool(oc), int(x), int(y), int(conf)))
        return out

    def _position_in(self, zone: Optional[str], i: int) -> tuple[int, int]:
        z = zone or "right"
        code = {"left": 0, "right": 1, "tray": 3}.get(z)
        rect = self.core.zones.get(code) if code is not None else None
        if not rect or rect == (0, 0, 0, 0):
            return (320 + 40 * i, -260) if z == "outside" else (0, 0)
        x0, y0, x1, y1 = rect
        lo_x, hi_x, lo_y, hi_y = min(x0, x1) + 20, max(x0, x1) - 20, min(y0, y1) + 20, max(y0, y1) - 20
        return self.rng.randint(lo_x, max(lo_x, hi_x)), self.rng.randint(lo_y, max(lo_y, hi_y))

    def roll(self, values: Sequence[Optional[int]], cocked: PerDie = False, zone: PerDie = "right",
             on_checker: PerDie = False, positions: Optional[Sequence[tuple[int, int]]] = None,
             confidence: PerDie = None) -> int:
        """A whole roll: ROLL_STARTED then ROLL_SETTLED.  ``values`` uses None or 0 for unreadable;
        ``cocked``/``zone``/``on_checker``/``confidence`` are one value or one per die.  Returns the roll id."""
        def act() -> int:
            now = self.clock()
            dice = self._dice(values, cocked, zone, on_checker, positions, confidence)
            self._send(self.core.start_roll(now))
            self._send(self.core.settle(dice, now))
            return self.core.roll_id
        return int(self._call(act))

    def start_roll(self) -> int:
        """Only ROLL_STARTED (dice moving); finish with :meth:`settle`.  Returns the roll id."""
        def act() -> int:
            self._send(self.core.start_roll(self.clock()))
            return self.core.roll_id
        return int(self._call(act))

    def settle(self, values: Sequence[Optional[int]], cocked: PerDie = False, zone: PerDie = "right",
               on_checker: PerDie = False, positions: Optional[Sequence[tuple[int, int]]] = None,
               confidence: PerDie = None) -> int:
        """ROLL_SETTLED for the roll in progress (or a new one).  Returns the roll id."""
        def act() -> int:
            dice = self._dice(values, cocked, zone, on_checker, positions, confidence)
            self._send(self.core.settle(dice, self.clock()))
            return self.core.roll_id
        return int(self._call(act))

    def lift(self) -> int:
        """The dice are picked up (DICE_LIFTED for the settled roll).  Returns the roll id."""
        def act() -> int:
            self._send(self.core.lift(self.clock()))
            return self.core.roll_id
        return int(self._call(act))

    def sensor_fault(self, sensor: int = 0, failed: bool = True) -> None:
        """A sensor fails (or recovers): a FAULT event."""
        code = FAULT_SENSOR if failed else FAULT_SENSOR_RECOVERED
        self._call(lambda: self._send(self.core.fault(code, sensor, self.clock(), active=failed)))

    def reboot(self, boot_id: Optional[int] = None) -> int:
        """Power-cycle the reader: new boot id, empty FIFO, roll ids from 1.  Returns the boot id."""
        def act() -> int:
            self.core = ReaderCore(boot_id or self._new_boot_id(), self.clock())
            self._out.clear()
            return self.core.boot_id
        return int(self._call(act))

    @property
    def leds(self) -> int:
        """The LED bits the host last set on the reader."""
        return self.core.leds
