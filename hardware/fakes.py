"""Simulated buses for the cube display chips: they keep the chip's state so a test
(or the simulated table) can read what the display shows."""
from __future__ import annotations

from typing import Sequence

from . import max7219
from .ht16k33 import BRIGHTNESS, DISPLAY_OFF, DISPLAY_ON, LAYOUTS, RAM_BYTES, SYSTEM_SETUP_ON
from .segments import decode


class FakeI2CBus:
    """An smbus2-like bus with HT16K33 chips modelled at every address written to."""

    def __init__(self, fail_address: int | None = None) -> None:
        self.writes: list[tuple] = []
        self.ram: dict[int, bytearray] = {}
        self.on: dict[int, bool] = {}
        self.oscillator: dict[int, bool] = {}
        self.brightness: dict[int, int] = {}
        self.fail_address = fail_address

    def _check(self, addr: int) -> None:
        if addr == self.fail_address:
            raise OSError(121, "Remote I/O error")
        self.ram.setdefault(addr, bytearray(RAM_BYTES))

    def write_byte(self, i2c_addr: int, value: int) -> None:
        """Take a one-byte command (oscillator, display on or off, brightness) as the chip would."""
        self._check(i2c_addr)
        self.writes.append(("byte", i2c_addr, value))
        if value == SYSTEM_SETUP_ON:
            self.oscillator[i2c_addr] = True
        elif value in (DISPLAY_ON, DISPLAY_OFF) or value & 0xF0 == 0x80:
            self.on[i2c_addr] = bool(value & 1)
        elif value & 0xF0 == BRIGHTNESS:
            self.brightness[i2c_addr] = value & 0x0F

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        """Write ``data`` into the chip's display RAM from ``register`` on."""
        self._check(i2c_addr)
        self.writes.append(("block", i2c_addr, register, tuple(data)))
        ram = self.ram[i2c_addr]
        for i, b in enumerate(data):
            ram[(register + i) % RAM_BYTES] = b

    def segments(self, addr: int = 0x70, layout: str = "adafruit", digits: int = 4) -> tuple[int, ...]:
        """The segment bytes the chip at ``addr`` shows on its ``digits`` digits, for the module ``layout``."""
        return tuple(self.ram[addr][o] for o in LAYOUTS[layout][:digits])

    def text(self, addr: int = 0x70, layout: str = "adafruit", digits: int = 4) -> str:
        """What the display shows now ('' when it is switched off)."""
        if not self.on.get(addr):
            return ""
        return decode(self.segments(addr, layout, digits)).strip()


class FakeSPI:
    """A spidev-like device with one MAX7219 on it."""

    def __init__(self) -> None:
        self.writes: list[tuple[int, ...]] = []
        self.registers: dict[int, int] = {}

    def xfer2(self, data: list[int]) -> list[int]:
        """Take one register write (register, value) as the MAX7219 would."""
        self.writes.append(tuple(data))
        reg, value = data
        self.registers[reg] = value
        return [0, 0]

    def text(self, digits: int = 8) -> str:
        """What the display shows now ('' when shut down)."""
        if not self.registers.get(max7219.REG_SHUTDOWN):
            return ""
        segs = [max7219.from_chip(self.registers.get(max7219.REG_DIGIT0 + i, 0)) for i in reversed(range(digits))]
        return decode(segs).strip()
