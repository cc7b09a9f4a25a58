"""Level 1: the firmware's protocol code (hardware/firmware/src/msg.c, cobs.c, crc32.c) compiled
for the host with gcc, checked byte for byte against firmware_bridge's normative vectors and
against the Python codec on generated messages."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge import messages as M
from firmware_bridge.codec import Decoder, encode_frame
from hardware.firmware.tools import Build, ProtoTool, build

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "firmware_bridge" / "vectors.json").read_text())
INVALID = json.loads((ROOT / "firmware_bridge" / "vectors_invalid.json").read_text())

# PROTOCOL.md section 4: type codes and each payload's fields in wire order
TYPES = {"HEARTBEAT": 0x01, "ACK": 0x02, "HELLO": 0x10, "REQUEST_SNAPSHOT": 0x11, "SET_LEDS": 0x12,
         "SET_ZONE": 0x13, "PING": 0x14, "INFO": 0x20, "PONG": 0x21, "SNAPSHOT": 0x22,
         "ROLL_STARTED": 0x30, "ROLL_SETTLED": 0x31, "DICE_LIFTED": 0x32, "FAULT": 0x33, "ROLL_DONE": 0x34}
FIELDS = {"HEARTBEAT": ["uptime_ms"], "ACK": ["acked_seq", "acked_type"], "HELLO": ["nonce"], "REQUEST_SNAPSHOT": [],
          "SET_LEDS": ["on", "blink"], "SET_ZONE": ["zone", "x0", "y0", "x1", "y1"], "PING": ["token"],
          "INFO": ["proto_version", "fw_major", "fw_minor", "fw_patch", "capabilities", "boot_id", "max_dice",
                   "session_nonce"],
          "PONG": ["token"], "SNAPSHOT": ["state", "roll_id", "leds", "faults", "pending", "dice"],
          "ROLL_STARTED": ["roll_id"], "ROLL_SETTLED": ["roll_id", "dice"], "DICE_LIFTED": ["roll_id"],
          "FAULT": ["fault_id", "code", "arg"], "ROLL_DONE": ["roll_id", "dice"]}
ZONES = {"left": 0, "right": 1, "outside": 2, "tray": 3}


def numbers(message: dict[str, Any]) -> list[int]:
    """A vectors.json message as the tool's numeric fields (dice: count, then 6 numbers each)."""
    out: list[int] = []
    for name in FIELDS[message["type"]]:
        if name == "dice":
            out.append(len(message["dice"]))
            for d in message["dice"]:
                out += [d["value"], int(d["cocked"]) | int(d["on_checker"]) << 1, ZONES[d["zone"]],
                        d["x"], d["y"], d["confidence"]]
        else:
            out.append(message[name])
    return out


@pytest.fixture(scope="module")
def fw(tmp_path_factory: pytest.TempPathFactory) -> Build:
    return build(tmp_path_factory.mktemp("fw-host"), targets=("host",))


@pytest.fixture(scope="module")
def tool(fw: Build) -> Iterator[ProtoTool]:
    with ProtoTool(fw) as t:
        yield t


def test_crc_check_value(tool: ProtoTool) -> None:
    assert tool.call("C " + b"123456789".hex()) == ["CRC cbf43926"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_encodes_every_vector_byte_for_byte(tool: ProtoTool, vector: dict[str, Any]) -> None:
    msg = vector["message"]
    frame = tool.encode(vector["seq"], TYPES[msg["type"]], numbers(msg))
    assert frame is not None and frame.hex() == vector["frame_hex"]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_decodes_every_vector_to_its_fields(tool: ProtoTool, vector: dict[str, Any]) -> None:
    wire = bytes.fromhex(vector["frame_hex"])
    assert wire[-1] == 0
    status, values = tool.decode(wire[:-1])
    msg = vector["message"]
    assert status == "OK"
    assert values == [vector["seq"], TYPES[msg["type"]], *numbers(msg)]


def test_streaming_receiver_finds_every_vector_between_noise(tool: ProtoTool) -> None:
    """All vectors back to back with a noise burst and empty frames between: each is decoded once."""
    stream = b"\x00".join([b"\x11\x22\x33"] + [bytes.fromhex(v["frame_hex"]) + b"\x00" for v in VECTORS])
    answers = tool.stream(stream)
    oks = [a for a in answers if a.startswith("OK")]
    assert [a.split()[1:3] for a in oks] == [[str(v["seq"]), str(TYPES[v["message"]["type"]])] for v in VECTORS]
    assert len(answers) - len(oks) == 1  # the noise burst, dropped


@pytest.mark.parametrize("vector", INVALID, ids=[v["name"] for v in INVALID])
def test_drops_every_invalid_vector(tool: ProtoTool, vector: dict[str, Any]) -> None:
    answers = tool.stream(bytes.fromhex(vector["frame_hex"]))
    assert answers and all(a.startswith("DROP") for a in answers), vector["reason"]


def test_receiver_recovers_after_an_oversize_run(tool: ProtoTool) -> None:
    good = bytes.fromhex(VECTORS[0]["frame_hex"])
    answers = tool.stream(bytes([0x11] * 200) + b"\x00" + good)
    assert answers[0] == "DROP oversize" and answers[1].startswith("OK 0 1 1000")


def test_refuses_to_encode_out_of_range_fields(tool: ProtoTool) -> None:
    assert tool.encode(1, 0x30, [0]) is None                        # roll_id 0 is "no roll"
    assert tool.encode(1, 0x31, [3, 1, 7, 0, 1, 0, 0, 255]) is None   # die value 7
    assert tool.encode(1, 0x31, [3, 1, 3, 0, 9, 0, 0, 255]) is None   # zone 9
    assert tool.encode(1, 0x7E, []) is None                         # unknown type
    assert tool.encode(1, 0x10, [0]) is None                        # a HELLO nonce is never 0


# ---------------------------------------------------------------- generated messages

_die = st.builds(M.Die, value=st.integers(0, 6), zone=st.sampled_from(sorted(M.ZONE_CODES)),
                 cocked=st.booleans(), on_checker=st.booleans(), x=st.integers(-32768, 32767),
                 y=st.integers(-32768, 32767), confidence=st.integers(0, 255))
_u8, _u16, _u32 = st.integers(0, 255), st.integers(0, 0xFFFF), st.integers(0, 0xFFFFFFFF)
_i16 = st.integers(-32768, 32767)
_messages = st.one_of(
    st.builds(M.Heartbeat, _u32), st.builds(M.Ack, _u8, _u8), st.builds(M.Hello, st.integers(1, 0xFFFFFFFF)), st.just(M.RequestSnapshot()),
    st.builds(M.SetLeds, _u8, _u8), st.builds(M.SetZone, st.integers(0, 3), _i16, _i16, _i16, _i16),
    st.builds(M.Ping, _u16), st.builds(M.Pong, _u16),
    st.builds(M.Info, _u8, _u8, _u8, _u8, _u16, _u32, st.integers(1, 2), _u32),
    st.builds(M.Snapshot, st.integers(0, 3), _u16, _u8, _u8, _u8, st.lists(_die, max_size=2).map(tuple)),
    st.builds(M.RollStartedMsg, st.integers(1, 0xFFFF)),
    st.builds(M.RollSettledMsg, st.integers(1, 0xFFFF), st.lists(_die, min_size=1, max_size=2).map(tuple)),
    st.builds(M.DiceLiftedMsg, st.integers(1, 0xFFFF)),
    st.builds(M.RollDoneMsg, st.integers(1, 0xFFFF), st.lists(_die, min_size=1, max_size=2).map(tuple)),
    st.builds(M.Fault, st.integers(1, 0xFFFF), _u8, _u8),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(message=_messages, seq=_u8)
def test_c_and_python_codecs_agree(tool: ProtoTool, message: M.Message, seq: int) -> None:
    python_frame = encode_frame(message, seq)
    d = message.to_dict()
    c_frame = tool.encode(seq, message.TYPE, numbers(d))
    assert c_frame == python_frame
    status, values = tool.decode(python_frame[:-1])
    assert status == "OK" and values == [seq, message.TYPE, *numbers(d)]
    frames = Decoder().feed(c_frame)
    assert len(frames) == 1 and frames[0].message == message and frames[0].seq == seq
