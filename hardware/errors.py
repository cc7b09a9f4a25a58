"""The hardware package's exceptions: one tree, each leaf also a builtin.

Messages name the bad value and the fix (the config key, the pin, the bus address).
"""
from __future__ import annotations


class HardwareError(Exception):
    """Root of every error raised by ``hardware``."""


class ConfigError(HardwareError, ValueError):
    """The table config is malformed; the message names the key and the bad value."""

    def __init__(self, key: str, value: object, why: str) -> None:
        self.key, self.value, self.why = key, value, why
        super().__init__(f"{key} = {value!r}: {why}")


class DeviceError(HardwareError, OSError):
    """A device could not be opened or written (bus, SPI, pins, screen)."""


class DisplayTextError(HardwareError, ValueError):
    """Text that a segment display cannot show (too long, or an unknown character)."""
