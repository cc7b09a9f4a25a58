"""HT16K33 seven-segment driver over I2C, written against an smbus2-like bus.

The bus object needs ``write_byte(addr, value)`` and
``write_i2c_block_data(addr, register, data)``; a test passes
:class:`hardware.fakes.FakeI2CBus`.  :func:`open_bus` opens a real bus with
``smbus2`` (imported only there: it is not a dependency of bgtable).
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence

from .errors import DeviceError
from .segments import encode

SYSTEM_SETUP_ON = 0x21  # oscillator on
DISPLAY_OFF = 0x80
DISPLAY_ON = 0x81  # display on, hardware blink off (we blink in software, in step with the LEDs)
BRIGHTNESS = 0xE0  # | 0..15
RAM_BYTES = 16

# Where digit i's segment byte sits in display RAM (byte offset).
LAYOUTS: dict[str, tuple[int, ...]] = {
    # Adafruit 0.56"/1.2" 4-digit backpack: digits at rows 0, 1, 3, 4; row 2 is the colon.
    "adafruit": (0, 2, 6, 8),
    "linear": (0, 2, 4, 6, 8, 10, 12, 14),
}


class I2CBus(Protocol):
    """What the HT16K33 driver needs of an I2C bus (an ``smbus2.SMBus`` or a fake)."""

    def write_byte(self, i2c_addr: int, value: int) -> None:
        """Send one command byte to the chip at ``i2c_addr``."""
        ...

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        """Write ``data`` to the chip at ``i2c_addr`` from ``register`` on."""
        ...


def open_bus(bus_number: int) -> Any:
    """A real smbus2 bus (``/dev/i2c-N``); install ``smbus2`` on the Pi."""
    try:
        import smbus2  # noqa: PLC0415 (optional, Pi only)
    except ImportError:
        raise DeviceError("cube_display.type = \"ht16k33\" needs the smbus2 package: pip install smbus2") from None
    try:
        return smbus2.SMBus(bus_number)
    except OSError as exc:
        raise DeviceError(f"cannot open I2C bus /dev/i2c-{bus_number} ({exc.strerror}); "
                          "enable I2C with raspi-config or fix cube_display.i2c_bus") from None


class HT16K33:
    """A 7-segment HT16K33 module: :meth:`show` a text, right-aligned."""

    def __init__(self, bus: I2CBus, address: int = 0x70, digits: int = 4, layout: str = "adafruit",
                 brightness: int = 8) -> None:
        offsets = LAYOUTS[layout]
        if digits > len(offsets):
            raise DeviceError(f"layout {layout!r} has {len(offsets)} digits, not {digits}")
        self.bus, self.address, self.digits, self.offsets = bus, address, digits, offsets[:digits]
        self._last: tuple[int, ...] | None = None
        try:
            bus.write_byte(address, SYSTEM_SETUP_ON)
            bus.write_byte(address, BRIGHTNESS | max(0, min(15, brightness)))
            self.write_segments((0,) * digits)
            bus.write_byte(address, DISPLAY_ON)
        except OSError as exc:
            raise DeviceError(f"no HT16K33 answers at I2C address {address:#04x} ({exc}); "
                              "check the wiring or cube_display.i2c_address") from None

    def write_segments(self, segments: Sequence[int]) -> None:
        """Write one segment byte per digit (canonical bit order, see ``segments``)."""
        ram = [0] * RAM_BYTES
        for off, seg in zip(self.offsets, segments):
            ram[off] = seg & 0xFF
        self.bus.write_i2c_block_data(self.address, 0x00, ram)
        self._last = tuple(segments)

    def show(self, text: str) -> None:
        """Show ``text`` right-aligned; rewrites the RAM only when it changes."""
        segs = encode(text, self.digits)
        if segs != self._last:
            self.write_segments(segs)

    def close(self) -> None:
        """Switch the display off (an I/O error then is ignored)."""
        try:
            self.bus.write_byte(self.address, DISPLAY_OFF)
        except OSError:
            pass
