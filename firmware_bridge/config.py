"""The ``[dice]`` section of the table's config: how to reach the dice reader."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from referee.sections import ConfigError, Section, integer, string


@dataclass(frozen=True)
class DiceConfig:
    """How to reach the dice reader: a port URL or a USB id."""

    port: Optional[str] = None  # "/dev/ttyACM0", "loop://", a pty path, a simulator URL
    usb_vid: Optional[int] = None
    usb_pid: Optional[int] = None
    usb_serial: Optional[str] = None
    baudrate: int = 115200

    @property
    def url(self) -> Optional[str]:
        """The port URL :class:`firmware_bridge.link.DiceLink` opens, or None when none is configured."""
        if self.port:
            return self.port
        if self.usb_vid is not None and self.usb_pid is not None:
            return f"usb:{self.usb_vid:04x}:{self.usb_pid:04x}" + (f":{self.usb_serial}" if self.usb_serial else "")
        return None


def dice_section(s: Section) -> DiceConfig:
    """The ``[dice]`` table, checked."""
    d = DiceConfig()
    c = DiceConfig(
        port=s.get("port", d.port, string), usb_vid=s.get("usb_vid", d.usb_vid, integer(0, 0xFFFF)),
        usb_pid=s.get("usb_pid", d.usb_pid, integer(0, 0xFFFF)), usb_serial=s.get("usb_serial", d.usb_serial, string),
        baudrate=s.get("baudrate", d.baudrate, integer(300, 4_000_000)))
    s.finish(("port", "usb_vid", "usb_pid", "usb_serial", "baudrate"))
    if (c.usb_vid is None) != (c.usb_pid is None):
        missing = "usb_pid" if c.usb_pid is None else "usb_vid"
        raise ConfigError(s.key(missing), None, "give both dice.usb_vid and dice.usb_pid, or neither")
    if c.port is not None and c.usb_vid is not None:
        raise ConfigError(s.key("port"), c.port, "give dice.port or dice.usb_vid/usb_pid, not both")
    return c
