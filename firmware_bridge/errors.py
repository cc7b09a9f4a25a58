"""The firmware_bridge exception tree: one root, each leaf also a matching builtin.

Bad bytes arriving from the wire are never raised: the codec counts and skips
them.  These errors are for the caller's own mistakes (a field out of range when
encoding, a port that cannot be found) and for commands the reader never answered.
"""
from __future__ import annotations


class BridgeError(Exception):
    """Root of every error raised by firmware_bridge."""


class FieldError(BridgeError, ValueError):
    """A message field is out of range for its wire layout; the message names field and value."""


class LinkError(BridgeError, OSError):
    """The serial link to the dice reader failed or is not connected."""


class PortNotFound(LinkError, FileNotFoundError):
    """No serial port matches the URL or the USB VID/PID/serial number given."""


class BadPortUrl(LinkError, ValueError):
    """A port URL that can never name a port (bad syntax, unknown scheme); the message names it."""


class CommandTimeout(LinkError, TimeoutError):
    """A command to the reader got no answer in time; the message names the command."""


class ScriptError(BridgeError, ValueError):
    """A simulator script line is malformed; the message quotes the line."""
