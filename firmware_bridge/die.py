"""One die record of a ROLL_SETTLED or SNAPSHOT payload (8 bytes, PROTOCOL.md), and a list of them."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import ClassVar, Optional

from firmware_bridge.codes import FLAG_COCKED, FLAG_ON_CHECKER, ZONE_CODES, ZONE_NAMES, check_field
from firmware_bridge.errors import FieldError


@dataclass(frozen=True)
class Die:
    """One die record (8 bytes): value 0 = unreadable, position in mm from the board centre."""

    value: int
    zone: str = "right"
    cocked: bool = False
    on_checker: bool = False
    x: int = 0
    y: int = 0
    confidence: int = 255

    SIZE: ClassVar[int] = 8
    _FMT: ClassVar[struct.Struct] = struct.Struct("<BBBhhB")

    def __post_init__(self) -> None:
        check_field("value", self.value, 0, 6)
        if self.zone not in ZONE_CODES:
            raise FieldError(f"field zone = {self.zone!r} is not one of {', '.join(ZONE_CODES)}")
        check_field("x", self.x, -32768, 32767)
        check_field("y", self.y, -32768, 32767)
        check_field("confidence", self.confidence, 0, 255)

    def pack(self) -> bytes:
        """The die's wire bytes."""
        flags = (FLAG_COCKED if self.cocked else 0) | (FLAG_ON_CHECKER if self.on_checker else 0)
        return self._FMT.pack(self.value, flags, ZONE_CODES[self.zone], self.x, self.y, self.confidence)

    @classmethod
    def unpack(cls, data: bytes) -> Optional["Die"]:
        """A die from its wire bytes, or None when they are not a valid die."""
        value, flags, zone, x, y, conf = cls._FMT.unpack(data)
        if value > 6 or zone not in ZONE_NAMES or flags & ~(FLAG_COCKED | FLAG_ON_CHECKER):
            return None
        return cls(value, ZONE_NAMES[zone], bool(flags & FLAG_COCKED), bool(flags & FLAG_ON_CHECKER), x, y, conf)



def pack_dice(dice: tuple[Die, ...]) -> bytes:
    """The wire bytes of ``dice``, one record after the other."""
    return b"".join(d.pack() for d in dice)


def unpack_dice(data: bytes, n: int) -> Optional[tuple[Die, ...]]:
    """``n`` die records from ``data``, or None when it is not exactly ``n`` valid records."""
    if len(data) != n * Die.SIZE:
        return None
    out = []
    for i in range(n):
        d = Die.unpack(data[i * Die.SIZE:(i + 1) * Die.SIZE])
        if d is None:
            return None
        out.append(d)
    return tuple(out)
