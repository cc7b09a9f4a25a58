"""The protocol's messages as immutable values, each with its fixed little-endian layout.

Every message class has a ``TYPE`` code, a ``NAME`` (as in PROTOCOL.md), ``pack()``
giving its payload bytes and ``unpack(payload)`` returning the message or None
when the payload does not fit the layout.  ``to_dict``/``from_dict`` give the
field form used in ``vectors.json``.  Field ranges are checked when a message is
built, so a message that exists can always be packed.

The protocol's codes live in :mod:`firmware_bridge.codes` and the die record in
:mod:`firmware_bridge.die`; both are importable from here too.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Optional

from firmware_bridge.codes import (
    CAP_COCKED, CAP_CONFIDENCE, CAP_LEDS, CAP_ON_CHECKER, CAP_POSITION, CAP_ZONES, CAPABILITY_NAMES,
    FAULT_LED, FAULT_NAMES, FAULT_QUEUE_OVERFLOW, FAULT_RESET, FAULT_SENSOR, FAULT_SENSOR_RECOVERED,
    FLAG_COCKED, FLAG_ON_CHECKER, LED_FAULT, LED_LINK, LED_NAMES, LED_READY, LED_REROLL, MAX_PAYLOAD,
    PROTOCOL_VERSION, STATE_IDLE, STATE_LIFTED, STATE_NAMES, STATE_ROLLING, STATE_SETTLED, ZONE_CODES,
    ZONE_NAMES, check_field)
from firmware_bridge.die import Die, pack_dice, unpack_dice
from firmware_bridge.errors import FieldError

__all__ = [  # the codes and the die record stay importable from here, as before the split
    "CAP_COCKED", "CAP_CONFIDENCE", "CAP_LEDS", "CAP_ON_CHECKER", "CAP_POSITION", "CAP_ZONES", "CAPABILITY_NAMES",
    "FAULT_LED", "FAULT_NAMES", "FAULT_QUEUE_OVERFLOW", "FAULT_RESET", "FAULT_SENSOR", "FAULT_SENSOR_RECOVERED",
    "FLAG_COCKED", "FLAG_ON_CHECKER", "LED_FAULT", "LED_LINK", "LED_NAMES", "LED_READY", "LED_REROLL", "MAX_PAYLOAD",
    "PROTOCOL_VERSION", "STATE_IDLE", "STATE_LIFTED", "STATE_NAMES", "STATE_ROLLING", "STATE_SETTLED", "ZONE_CODES",
    "ZONE_NAMES", "Die",
    "Message", "Heartbeat", "Ack", "Hello", "RequestSnapshot", "SetLeds", "SetZone", "Ping", "Info", "Pong",
    "Snapshot", "RollStartedMsg", "RollSettledMsg", "DiceLiftedMsg", "RollDoneMsg", "Fault",
    "MESSAGE_TYPES", "MESSAGE_NAMES", "from_dict"]


class Message:
    """Base of all messages: a fixed-layout payload (``_FMT``) of the dataclass's fields in order."""

    TYPE: ClassVar[int]
    NAME: ClassVar[str]
    RELIABLE: ClassVar[bool] = False
    _FMT: ClassVar[struct.Struct] = struct.Struct("<")
    _RANGES: ClassVar[dict[str, tuple[int, int]]] = {}

    def __post_init__(self) -> None:
        for name, (lo, hi) in self._RANGES.items():
            check_field(name, getattr(self, name), lo, hi)

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
                              len(self.dice)) + pack_dice(self.dice)

    @classmethod
    def unpack(cls, payload: bytes) -> Optional["Snapshot"]:
        """A snapshot from its payload bytes, or None when they do not fit."""
        if len(payload) < cls._FMT.size:
            return None
        state, roll_id, leds, faults, pending, n = cls._FMT.unpack(payload[:cls._FMT.size])
        dice = unpack_dice(payload[cls._FMT.size:], n) if n <= 2 else None
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
        return self._FMT.pack(self.roll_id, len(self.dice)) + pack_dice(self.dice)

    @classmethod
    def unpack(cls, payload: bytes) -> Optional["RollSettledMsg"]:
        """A settled roll from its payload bytes, or None when they do not fit."""
        if len(payload) < cls._FMT.size:
            return None
        roll_id, n = cls._FMT.unpack(payload[:cls._FMT.size])
        dice = unpack_dice(payload[cls._FMT.size:], n) if 1 <= n <= 2 else None
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
