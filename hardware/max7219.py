"""MAX7219 seven-segment driver over SPI, written against a spidev-like object.

The SPI object needs ``xfer2(list_of_bytes)``; a test passes
:class:`hardware.fakes.FakeSPI`.  :func:`open_spi` opens a real device with
``spidev`` (imported only there: it is not a dependency of bgtable).  Digit
register 1 (DIG0) is the rightmost digit, as on the common 8-digit modules.
"""
from __future__ import annotations

from typing import Any, Protocol, Sequence

from .errors import DeviceError
from .segments import A, B, C, D, DP, E, F, G, encode

REG_DIGIT0 = 0x01
REG_DECODE = 0x09
REG_INTENSITY = 0x0A
REG_SCAN_LIMIT = 0x0B
REG_SHUTDOWN = 0x0C
REG_TEST = 0x0F


class SPIDevice(Protocol):
    """What the MAX7219 driver needs of an SPI device (a ``spidev.SpiDev`` or a fake)."""

    def xfer2(self, data: list[int]) -> Any:
        """Send ``data`` over SPI, chip select held for the whole transfer."""
        ...


def open_spi(port: int, device: int) -> Any:
    """A real spidev device (``/dev/spidevP.D``); install ``spidev`` on the Pi."""
    try:
        import spidev  # noqa: PLC0415 (optional, Pi only)
    except ImportError:
        raise DeviceError("cube_display.type = \"max7219\" needs the spidev package: pip install spidev") from None
    spi = spidev.SpiDev()
    try:
        spi.open(port, device)
    except OSError as exc:
        raise DeviceError(f"cannot open /dev/spidev{port}.{device} ({exc.strerror}); "
                          "enable SPI with raspi-config or fix cube_display.spi_port/spi_device") from None
    spi.max_speed_hz = 1_000_000
    return spi


def to_chip(seg: int) -> int:
    """Canonical segment bits (A = bit 0 ... G = bit 6, DP = bit 7) to the MAX7219's (DP A B C D E F G)."""
    out = 0x80 if seg & DP else 0
    for bit, s in zip((6, 5, 4, 3, 2, 1, 0), (A, B, C, D, E, F, G)):
        if seg & s:
            out |= 1 << bit
    return out


def from_chip(byte: int) -> int:
    """The inverse of :func:`to_chip`."""
    out = DP if byte & 0x80 else 0
    for bit, s in zip((6, 5, 4, 3, 2, 1, 0), (A, B, C, D, E, F, G)):
        if byte & (1 << bit):
            out |= s
    return out


class MAX7219:
    """A MAX7219 7-segment module (no-decode mode): :meth:`show` a text, right-aligned."""

    def __init__(self, spi: SPIDevice, digits: int = 8, brightness: int = 8) -> None:
        if not 1 <= digits <= 8:
            raise DeviceError(f"a MAX7219 drives 1..8 digits, not {digits}")
        self.spi, self.digits = spi, digits
        self._last: tuple[int, ...] | None = None
        self._write(REG_TEST, 0)
        self._write(REG_DECODE, 0)
        self._write(REG_SCAN_LIMIT, digits - 1)
        self._write(REG_INTENSITY, max(0, min(15, brightness)))
        self.write_segments((0,) * digits)
        self._write(REG_SHUTDOWN, 1)

    def _write(self, register: int, value: int) -> None:
        try:
            self.spi.xfer2([register, value & 0xFF])
        except OSError as exc:
            raise DeviceError(f"SPI write to the MAX7219 failed ({exc})") from None

    def write_segments(self, segments: Sequence[int]) -> None:
        """Write one segment byte per digit, leftmost first (canonical bit order)."""
        for i, seg in enumerate(reversed(tuple(segments))):
            self._write(REG_DIGIT0 + i, to_chip(seg))
        self._last = tuple(segments)

    def show(self, text: str) -> None:
        """Show ``text`` right-aligned; writes only when it changes."""
        segs = encode(text, self.digits)
        if segs != self._last:
            self.write_segments(segs)

    def close(self) -> None:
        """Put the chip in shutdown (a device error then is ignored)."""
        try:
            self._write(REG_SHUTDOWN, 0)
        except DeviceError:
            pass
