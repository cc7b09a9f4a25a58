"""Errors of ``hardware.firmware``: building the firmware and running its simulators.

Rooted in :class:`hardware.errors.HardwareError`; each leaf also inherits the matching builtin.
"""
from __future__ import annotations

from hardware.errors import HardwareError


class FirmwareError(HardwareError):
    """Root of the firmware tooling's errors."""


class BuildError(FirmwareError, RuntimeError):
    """The firmware or a simulator did not build; the message names the missing tool or package."""


class SimulatorError(FirmwareError, OSError):
    """A simulator did not start, stopped, or did not answer a command in time."""


class SceneCommandError(FirmwareError, ValueError):
    """A scene command was rejected by the simulator; the message quotes the command."""
