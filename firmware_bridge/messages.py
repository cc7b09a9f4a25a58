"""The protocol's messages as immutable values, each with its fixed little-endian layout.

Every message class has a ``TYPE`` code, a ``NAME`` (as in PROTOCOL.md), ``pack()``
giving its payload bytes and ``unpack(payload)`` returning the message or None
when the payload does not fit the layout.  ``to_dict``/``from_dict`` give the
field form used in ``vectors.json``.  Field ranges are checked when a message is
built, so a message that exists can always be packed.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Optional

from firmware_bridge.errors import FieldError

PROTOCOL_VERSION = 2
MAX_PAYLOAD = 48

ZONE_CODES: dict[str, int] = {"left": 0, "right": 1, "outside": 2, "tray": 3}
ZONE_NAMES: dict[int, str] = {v: k for k, v in ZONE_CODES.items()}

# die flags
FLAG_COCKED = 0x01
FLAG_ON_CHECKER = 0x02

# INFO capability bits
CAP_POSITION = 0x0001
CAP_COCKED = 0x0002
CAP_ON_CHECKER = 0x0004
CAP_LEDS = 0x0008
CAP_ZONES = 0x0010
CAP_CONFIDENCE = 0x0020
CAPABILITY_NAMES: dict[int, str] = {
    CAP_POSITION: "position", CAP_COCKED: "cocked", CAP_ON_CHECKER: "on_checker",
    CAP_LEDS: "leds", CAP_ZONES: "zones", CAP_CONFIDENCE: "confidence",
}

# SET_LEDS bits
LED_REROLL = 0x01
LED_READY = 0x02
LED_FAULT = 0x04
LED_LINK = 0x08
LED_NAMES: dict[str, int] = {"reroll": LED_REROLL, "ready": LED_READY, "fault": LED_FAULT, "link": LED_LINK}

# SNAPSHOT states
STATE_IDLE = 0
STATE_ROLLING = 1
STATE_SETTLED = 2
STATE_LIFTED = 3
STATE_NAMES: dict[int, str] = {0: "idle", 1: "rolling", 2: "settled", 3: "lifted"}

# FAULT codes
FAULT_SENSOR = 1
FAULT_SENSOR_RECOVERED = 2
FAULT_QUEUE_OVERFLOW = 3
FAULT_LED = 4
FAULT_RESET = 5
FAULT_NAMES: dict[int, str] = {
    FAULT_SENSOR: "sensor failed", FAULT_SENSOR_RECOVERED: "sensor recovered",
    FAULT_QUEUE_OVERFLOW: "event queue overflowed", FAULT_LED: "LED driver failed",
    FAULT_RESET: "watchdog or brown-out reset",
}


def _check(name: str, value: Any, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise FieldError(f"field {name} = {value!r} is not an integer in {lo}..{hi}")


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
        _check("value", self.value, 0, 6)
        if self.zone not in ZONE_CODES:
            raise FieldError(f"field zone = {self.zone!r} is not one of {', '.join(ZONE_CODES)}")
        _check("x", self.x, -32768, 32767)
        _check("y", self.y, -32768, 32767)
        _check("confidence", self.confidence, 0, 255)

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


def _pack_dice(dice: tuple[Die, ...]) -> bytes:
    return b"".join(d.pack() for d in dice)


def _unpack_dice(data: bytes, n: int) -> Optional[tuple[Die, ...]]:
    if len(data) != n * Die.SIZE:
        return None
    out = []
    for i in range(n):
        d = Die.unpack(data[i * Die.SIZE:(i + 1) * Die.SIZE])
        if d is None:
            return None
        out.append(d)
    return tuple(out)


class Message:
    """Base of all messages: a fixed-layout payload (``_FMT``) of the dataclass's fields in order."""

    TYPE: ClassVar[int]
    NAME: ClassVar[str]
    RELIABLE: ClassVar[bool] = False
    _FMT: ClassVar[struct.Struct] = struct.Struct("<")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {}

    def __post_init__(self) -> None:
        for name, (lo, hi) in self._RANGES.items():
            _check(name, getattr(self, name), lo, hi)

    def pack(self) -> bytes:
        """The message's payload bytes."""
        return self._FMT.pack(*(getattr(self, f.name) for f in fields(self)))  # type: ignore[arg-type]

    @classmethod
    def unpack(cls, payload: bytes) -> Optional["Message"]:
        """A message from its payload bytes, or None when they do not fit."""
        if len(payload) != cls._FMT.size:
            return None
        try:
            return cls(*cls._FMT.unpack(payload))
        except FieldError:
            return None

    def to_dict(self) -> dict[str, Any]:
        """The message as a JSON-ready dict, with its type name."""
        d: dict[str, Any] = {"type": self.NAME}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            d[f.name] = [vars(x).copy() for x in v] if f.name == "dice" else v
        return d


_U8, _U16, _U32 = (0, 0xFF), (0, 0xFFFF), (0, 0xFFFFFFFF)


# ----------------------------------------------------------------- both directions

@dataclass(frozen=True)
class Heartbeat(Message):
    """Sent about once a second by both ends; ``uptime_ms`` is the sender's wrapping ms clock."""

    uptime_ms: int = 0
    TYPE: ClassVar[int] = 0x01
    NAME: ClassVar[str] = "HEARTBEAT"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<I")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"uptime_ms": _U32}


@dataclass(frozen=True)
class Ack(Message):
    """Acknowledges a reliable frame by its sequence number and type."""

    acked_seq: int = 0
    acked_type: int = 0
    TYPE: ClassVar[int] = 0x02
    NAME: ClassVar[str] = "ACK"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<BB")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"acked_seq": _U8, "acked_type": _U8}


# ----------------------------------------------------------------- host -> reader

@dataclass(frozen=True)
class Hello(Message):
    """Starts (or restarts) a session; the reader answers INFO (echoing a nonce) then SNAPSHOT.

    ``nonce`` (non-zero, random per handshake) lets the host tell a reader that kept its
    boot id from one that restarted: INFO carries the nonce of the first HELLO of the boot.
    """

    nonce: int = 1
    TYPE: ClassVar[int] = 0x10
    NAME: ClassVar[str] = "HELLO"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<I")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"nonce": (1, 0xFFFFFFFF)}


@dataclass(frozen=True)
class RequestSnapshot(Message):
    """Asks the reader for a SNAPSHOT."""

    TYPE: ClassVar[int] = 0x11
    NAME: ClassVar[str] = "REQUEST_SNAPSHOT"


@dataclass(frozen=True)
class SetLeds(Message):
    """Sets the indicator LEDs: bits of ``on`` are lit, bits of ``blink`` blink (1 Hz)."""

    on: int = 0
    blink: int = 0
    TYPE: ClassVar[int] = 0x12
    NAME: ClassVar[str] = "SET_LEDS"
    RELIABLE: ClassVar[bool] = True
    _FMT: ClassVar[struct.Struct] = struct.Struct("<BB")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"on": _U8, "blink": _U8}


@dataclass(frozen=True)
class SetZone(Message):
    """Sets one zone's rectangle in mm (x0,y0)-(x1,y1); all zero disables that zone."""

    zone: int = 0
    x0: int = 0
    y0: int = 0
    x1: int = 0
    y1: int = 0
    TYPE: ClassVar[int] = 0x13
    NAME: ClassVar[str] = "SET_ZONE"
    RELIABLE: ClassVar[bool] = True
    _FMT: ClassVar[struct.Struct] = struct.Struct("<Bhhhh")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "zone": (0, 3), "x0": (-32768, 32767), "y0": (-32768, 32767), "x1": (-32768, 32767), "y1": (-32768, 32767)}


@dataclass(frozen=True)
class Ping(Message):
    """Asks for a PONG carrying the same token."""

    token: int = 0
    TYPE: ClassVar[int] = 0x14
    NAME: ClassVar[str] = "PING"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<H")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"token": _U16}


# ----------------------------------------------------------------- reader -> host

@dataclass(frozen=True)
class Info(Message):
    """The reader's answer to HELLO: versions, capabilities, its per-boot id and session nonce.

    ``session_nonce`` is the nonce of the first HELLO the reader received in this boot
    (0 before any): it changes when the reader restarts even if its boot id does not.
    """

    proto_version: int = PROTOCOL_VERSION
    fw_major: int = 0
    fw_minor: int = 0
    fw_patch: int = 0
    capabilities: int = 0
    boot_id: int = 0
    max_dice: int = 2
    session_nonce: int = 0
    TYPE: ClassVar[int] = 0x20
    NAME: ClassVar[str] = "INFO"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<BBBBHIBI")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "proto_version": _U8, "fw_major": _U8, "fw_minor": _U8, "fw_patch": _U8,
        "capabilities": _U16, "boot_id": _U32, "max_dice": (1, 2), "session_nonce": _U32}

    @property
    def source(self) -> str:
        """The boot id as the text used for ``RollSettled.source``: 8 lower-case hex digits."""
        return f"{self.boot_id:08x}"


@dataclass(frozen=True)
class Pong(Message):
    """Answer to PING with its token."""

    token: int = 0
    TYPE: ClassVar[int] = 0x21
    NAME: ClassVar[str] = "PONG"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<H")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"token": _U16}


@dataclass(frozen=True)
class Snapshot(Message):
    """The reader's whole state: the current/last roll, its dice, LEDs, faults, unACKed events."""

    state: int = STATE_IDLE
    roll_id: int = 0
    leds: int = 0
    faults: int = 0
    pending: int = 0
    dice: tuple[Die, ...] = field(default_factory=tuple)
    TYPE: ClassVar[int] = 0x22
    NAME: ClassVar[str] = "SNAPSHOT"
    _FMT: ClassVar[struct.Struct] = struct.Struct("<BHBBBB")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {
        "state": (0, 3), "roll_id": _U16, "leds": _U8, "faults": _U8, "pending": _U8}

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "dice", tuple(self.dice))
        if len(self.dice) > 2:
            raise FieldError(f"field dice has {len(self.dice)} dice; a snapshot carries 0..2")

    def pack(self) -> bytes:
        """The snapshot's payload bytes (dice included)."""
        return self._FMT.pack(self.state, self.roll_id, self.leds, self.faults, self.pending,
                              len(self.dice)) + _pack_dice(self.dice)

    @classmethod
    def unpack(cls, payload: bytes) -> Optional["Snapshot"]:
        """A snapshot from its payload bytes, or None when they do not fit."""
        if len(payload) < cls._FMT.size:
            return None
        state, roll_id, leds, faults, pending, n = cls._FMT.unpack(payload[:cls._FMT.size])
        dice = _unpack_dice(payload[cls._FMT.size:], n) if n <= 2 else None
        if dice is None or state > 3:
            return None
        return cls(state, roll_id, leds, faults, pending, dice)


@dataclass(frozen=True)
class RollStartedMsg(Message):
    """Dice are moving in the landing area; ``roll_id`` counts rolls from 1 in this boot."""

    roll_id: int = 1
    TYPE: ClassVar[int] = 0x30
    NAME: ClassVar[str] = "ROLL_STARTED"
    RELIABLE: ClassVar[bool] = True
    _FMT: ClassVar[struct.Struct] = struct.Struct("<H")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"roll_id": (1, 0xFFFF)}


@dataclass(frozen=True)
class RollSettledMsg(Message):
    """The dice of roll ``roll_id`` came to rest (1 or 2 dice)."""

    roll_id: int = 1
    dice: tuple[Die, ...] = field(default_factory=tuple)
    TYPE: ClassVar[int] = 0x31
    NAME: ClassVar[str] = "ROLL_SETTLED"
    RELIABLE: ClassVar[bool] = True
    _FMT: ClassVar[struct.Struct] = struct.Struct("<HB")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"roll_id": (1, 0xFFFF)}

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "dice", tuple(self.dice))
        if not 1 <= len(self.dice) <= 2:
            raise FieldError(f"field dice has {len(self.dice)} dice; a settled roll carries 1 or 2")

    def pack(self) -> bytes:
        """The settled roll's payload bytes (dice included)."""
        return self._FMT.pack(self.roll_id, len(self.dice)) + _pack_dice(self.dice)

    @classmethod
    def unpack(cls, payload: bytes) -> Optional["RollSettledMsg"]:
        """A settled roll from its payload bytes, or None when they do not fit."""
        if len(payload) < cls._FMT.size:
            return None
        roll_id, n = cls._FMT.unpack(payload[:cls._FMT.size])
        dice = _unpack_dice(payload[cls._FMT.size:], n) if 1 <= n <= 2 else None
        if dice is None or roll_id == 0:
            return None
        return cls(roll_id, dice)

    @property
    def lifted(self) -> bool:
        """True for ROLL_DONE: the dice were also picked up."""
        return self.TYPE == RollDoneMsg.TYPE


@dataclass(frozen=True)
class DiceLiftedMsg(Message):
    """The dice of roll ``roll_id`` were picked up."""

    roll_id: int = 1
    TYPE: ClassVar[int] = 0x32
    NAME: ClassVar[str] = "DICE_LIFTED"
    RELIABLE: ClassVar[bool] = True
    _FMT: ClassVar[struct.Struct] = struct.Struct("<H")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"roll_id": (1, 0xFFFF)}


@dataclass(frozen=True)
class RollDoneMsg(RollSettledMsg):
    """Roll ``roll_id`` settled with these dice and was then lifted: one event for two.

    The reader sends it instead of ROLL_SETTLED + DICE_LIFTED when the lift happened while
    the ROLL_SETTLED was still queued behind an unacknowledged event (PROTOCOL.md 5.4).
    """

    TYPE: ClassVar[int] = 0x34
    NAME: ClassVar[str] = "ROLL_DONE"


@dataclass(frozen=True)
class Fault(Message):
    """A fault: ``fault_id`` counts faults from 1 in this boot; ``arg`` is e.g. the sensor index."""

    fault_id: int = 1
    code: int = FAULT_SENSOR
    arg: int = 0
    TYPE: ClassVar[int] = 0x33
    NAME: ClassVar[str] = "FAULT"
    RELIABLE: ClassVar[bool] = True
    _FMT: ClassVar[struct.Struct] = struct.Struct("<HBB")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {"fault_id": (1, 0xFFFF), "code": _U8, "arg": _U8}

    @property
    def text(self) -> str:
        """The fault in words, with its argument."""
        what = FAULT_NAMES.get(self.code, f"fault code {self.code}")
        return f"{what} (arg {self.arg})"


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls for cls in (Heartbeat, Ack, Hello, RequestSnapshot, SetLeds, SetZone, Ping,
                              Info, Pong, Snapshot, RollStartedMsg, RollSettledMsg, DiceLiftedMsg, RollDoneMsg, Fault)}
MESSAGE_NAMES: dict[str, type[Message]] = {cls.NAME: cls for cls in MESSAGE_TYPES.values()}


def from_dict(d: dict[str, Any]) -> Message:
    """Rebuild a message from :meth:`Message.to_dict` output (the ``vectors.json`` form)."""
    d = dict(d)
    name = d.pop("type", None)
    cls = MESSAGE_NAMES.get(name)
    if cls is None:
        raise FieldError(f"unknown message type {name!r}; expected one of {', '.join(MESSAGE_NAMES)}")
    if "dice" in d:
        d["dice"] = tuple(Die(**x) for x in d["dice"])
    try:
        return cls(**d)
    except TypeError as exc:
        raise FieldError(f"bad fields for {name}: {exc}") from None
