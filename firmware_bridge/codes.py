"""The protocol's numbers (PROTOCOL.md): its version and payload limit, the zone, die-flag,
capability, LED, state and fault codes with their names, and the range check every field passes."""
from __future__ import annotations

from typing import Any

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


def check_field(name: str, value: Any, lo: int, hi: int) -> None:
    """Raise FieldError naming the field unless ``value`` is an integer in ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise FieldError(f"field {name} = {value!r} is not an integer in {lo}..{hi}")
