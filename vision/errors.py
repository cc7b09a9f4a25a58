"""The vision package's exception tree: one root, leaves that also inherit a builtin.

Messages name the stage and the reason ("board not found: fewer than 4 corner markers")
and, where there is one, the fix.
"""
from __future__ import annotations


class VisionError(Exception):
    """Root of every error raised by :mod:`vision`."""


class ConfigError(VisionError, ValueError):
    """A vision setting or a command-line value is malformed (names the value and the fix)."""


class BoardNotFound(VisionError, LookupError):
    """No board could be located in the frame (names the stage that failed)."""


class FrameSourceError(VisionError, OSError):
    """A camera, video or image file could not be opened or read."""
