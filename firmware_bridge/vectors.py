"""The protocol's test vectors: every message type as fields and as on-wire hex.

``python3 -m firmware_bridge.vectors`` rewrites ``vectors.json`` and
``vectors_invalid.json`` beside this file.  The files are normative (the C
firmware tests read them); this module only produced them and the tests check
that the codec still agrees byte for byte.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from firmware_bridge import cobs
from firmware_bridge.codec import encode_frame
from firmware_bridge.crc import crc16, crc32
from firmware_bridge.messages import (
    CAP_COCKED, CAP_CONFIDENCE, CAP_LEDS, CAP_ON_CHECKER, CAP_POSITION, CAP_ZONES, FAULT_SENSOR,
    LED_READY, LED_REROLL, STATE_IDLE, STATE_LIFTED, STATE_SETTLED, Ack, DiceLiftedMsg, Die, Fault,
    Heartbeat, Hello, Info, Message, Ping, Pong, RequestSnapshot, RollDoneMsg, RollSettledMsg, RollStartedMsg,
    SetLeds, SetZone, Snapshot,
)

HERE = Path(__file__).resolve().parent
VECTORS = HERE / "vectors.json"
INVALID = HERE / "vectors_invalid.json"

D1 = Die(3, "right", x=120, y=-45, confidence=250)
D2 = Die(5, "right", x=160, y=30, confidence=240)

CASES: list[tuple[str, int, Message]] = [
    ("heartbeat_host", 0, Heartbeat(1000)),
    ("heartbeat_reader", 200, Heartbeat(0x12345678)),
    ("ack_roll_settled", 7, Ack(acked_seq=7, acked_type=RollSettledMsg.TYPE)),
    ("hello", 0, Hello(nonce=0x5EED1234)),
    ("request_snapshot", 1, RequestSnapshot()),
    ("set_leds_reroll_blink", 2, SetLeds(on=LED_REROLL, blink=LED_REROLL)),
    ("set_leds_ready", 3, SetLeds(on=LED_READY, blink=0)),
    ("set_zone_right", 4, SetZone(zone=1, x0=0, y0=-200, x1=250, y1=200)),
    ("set_zone_disable_tray", 5, SetZone(zone=3, x0=0, y0=0, x1=0, y1=0)),
    ("ping", 6, Ping(token=0xBEEF)),
    ("info", 0, Info(proto_version=2, fw_major=1, fw_minor=2, fw_patch=3,
                     capabilities=CAP_POSITION | CAP_COCKED | CAP_ON_CHECKER | CAP_LEDS | CAP_ZONES | CAP_CONFIDENCE,
                     boot_id=0xA1B2C3D4, max_dice=2, session_nonce=0x5EED1234)),
    ("info_before_hello", 1, Info(proto_version=2, fw_major=1, fw_minor=2, fw_patch=3, capabilities=0x3F,
                                  boot_id=0xA1B2C3D4, max_dice=2, session_nonce=0)),
    ("pong", 1, Pong(token=0xBEEF)),
    ("snapshot_idle", 2, Snapshot(state=STATE_IDLE, roll_id=0, leds=0, faults=0, pending=0, dice=())),
    ("snapshot_settled", 3,
     Snapshot(state=STATE_SETTLED, roll_id=3, leds=LED_READY, faults=0, pending=1, dice=(D1, D2))),
    ("snapshot_lifted_fault", 4, Snapshot(state=STATE_LIFTED, roll_id=258, leds=0, faults=1, pending=0, dice=(D1,))),
    ("roll_started", 5, RollStartedMsg(roll_id=3)),
    ("roll_settled_two_dice", 7, RollSettledMsg(roll_id=3, dice=(D1, D2))),
    ("roll_settled_one_die_opening", 8, RollSettledMsg(roll_id=1, dice=(Die(6, "right", x=-1, y=0, confidence=255),))),
    ("roll_settled_cocked_unreadable", 9, RollSettledMsg(roll_id=4, dice=(
        Die(0, "right", cocked=True, x=100, y=10, confidence=40),
        Die(2, "left", on_checker=True, x=-180, y=-95, confidence=200)))),
    ("roll_settled_outside_tray", 10, RollSettledMsg(roll_id=5, dice=(
        Die(4, "outside", x=400, y=-300, confidence=128), Die(1, "tray", x=0, y=0, confidence=255)))),
    ("dice_lifted", 11, DiceLiftedMsg(roll_id=3)),
    ("roll_done", 12, RollDoneMsg(roll_id=6, dice=(D1, D2))),
    ("fault_sensor", 255, Fault(fault_id=1, code=FAULT_SENSOR, arg=4)),
]


def _body_hex(frame: bytes) -> str:
    body = cobs.decode(frame[:-1])
    assert body is not None
    return body.hex()


def vectors() -> list[dict[str, Any]]:
    """The protocol's valid test vectors (the content of vectors.json), built from CASES."""
    out = []
    for name, seq, msg in CASES:
        frame = encode_frame(msg, seq)
        out.append({"name": name, "seq": seq, "message": msg.to_dict(),
                    "body_hex": _body_hex(frame), "frame_hex": frame.hex()})
    return out


def _raw(body: bytes, good_crc: bool = True) -> bytes:
    c = crc32(body) ^ (0 if good_crc else 0x0001)
    return cobs.encode(body + c.to_bytes(4, "little")) + b"\x00"


def _raw_v1(body: bytes) -> bytes:
    c = crc16(body)
    return cobs.encode(body + bytes((c & 0xFF, c >> 8))) + b"\x00"


def invalid_vectors() -> list[dict[str, Any]]:
    """Frames a receiver must drop (and count), each with the reason."""
    good = encode_frame(RollStartedMsg(3), 5)
    cases = [
        ("bad_crc", _raw(bytes((2, 0x30, 5, 3, 0)), good_crc=False), "CRC mismatch"),
        ("bad_version", _raw(bytes((3, 0x30, 5, 3, 0))), "version byte is not 2"),
        ("version_1_frame", _raw_v1(bytes((1, 0x30, 5, 3, 0))),
         "a protocol version 1 frame (CRC-16): counted as old_version, never accepted"),
        ("version_1_crc32", _raw(bytes((1, 0x30, 5, 3, 0))), "version byte is not 2"),
        ("unknown_type", _raw(bytes((2, 0x7E, 5))), "unknown message type 0x7E"),
        ("payload_too_short", _raw(bytes((2, 0x30, 5, 3))), "ROLL_STARTED payload must be 2 bytes"),
        ("payload_too_long", _raw(bytes((2, 0x30, 5, 3, 0, 0))), "ROLL_STARTED payload must be 2 bytes"),
        ("roll_id_zero", _raw(bytes((2, 0x30, 5, 0, 0))), "roll_id 0 is reserved for 'no roll'"),
        ("hello_nonce_zero", _raw(bytes((2, 0x10, 0, 0, 0, 0, 0))), "a HELLO nonce is never 0"),
        ("die_value_7", _raw(bytes((2, 0x31, 5, 3, 0, 1, 7, 0, 1, 0, 0, 0, 0, 255))), "die value above 6"),
        ("die_zone_9", _raw(bytes((2, 0x31, 5, 3, 0, 1, 3, 0, 9, 0, 0, 0, 0, 255))), "zone code above 3"),
        ("settled_zero_dice", _raw(bytes((2, 0x31, 5, 3, 0, 0))), "a settled roll has 1 or 2 dice"),
        ("too_short", bytes.fromhex("07021101aabbcc") + b"\x00", "fewer than 7 decoded bytes"),
        ("bad_cobs", bytes.fromhex("0501020300") , "COBS code points past the end of the frame"),
        ("truncated", good[:6] + b"\x00", "a frame cut short by noise"),
        ("oversize", bytes([0x11] * 60) + b"\x00", "more than 56 encoded bytes before the delimiter"),
    ]
    return [{"name": n, "frame_hex": f.hex(), "reason": r} for n, f, r in cases]


def main() -> int:
    """Rewrite vectors.json and vectors_invalid.json from the code; the exit status."""
    VECTORS.write_text(json.dumps(vectors(), indent=1) + "\n")
    INVALID.write_text(json.dumps(invalid_vectors(), indent=1) + "\n")
    print(f"wrote {VECTORS} and {INVALID}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
