"""The dice-reader codec: PROTOCOL.md's vectors, round trips, and noise that never crashes it."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import cobs
from firmware_bridge.codec import MAX_ENCODED, Decoder, encode_frame
from firmware_bridge.crc import crc16
from firmware_bridge.errors import FieldError
from firmware_bridge.messages import (
    MESSAGE_TYPES, Die, Info, Message, RollSettledMsg, RollStartedMsg, Snapshot, from_dict,
)
from firmware_bridge.vectors import CASES

PKG = Path(__file__).resolve().parents[2] / "firmware_bridge"
VECTORS = json.loads((PKG / "vectors.json").read_text())
INVALID = json.loads((PKG / "vectors_invalid.json").read_text())


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


@pytest.mark.parametrize("data", [b"", b"\x00", b"\x00\x00", b"\x11\x22\x00\x33", bytes(range(1, 255)),
                                  bytes(range(1, 256)) * 3, bytes(600)])
def test_cobs_round_trip_without_zeros(data: bytes) -> None:
    enc = cobs.encode(data)
    assert 0 not in enc
    assert cobs.decode(enc) == data


def test_vectors_cover_every_message_type() -> None:
    names = {v["message"]["type"] for v in VECTORS}
    assert names == {cls.NAME for cls in MESSAGE_TYPES.values()}


@pytest.mark.parametrize("vec", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_encodes_and_decodes(vec: dict) -> None:
    msg = from_dict(vec["message"])
    frame = bytes.fromhex(vec["frame_hex"])
    assert encode_frame(msg, vec["seq"]) == frame
    assert cobs.decode(frame[:-1]) == bytes.fromhex(vec["body_hex"])
    assert frame.endswith(b"\x00") and 0 not in frame[:-1]
    out = Decoder().feed(frame)
    assert len(out) == 1
    assert out[0].seq == vec["seq"] and out[0].message == msg
    assert out[0].message.to_dict() == vec["message"]


@pytest.mark.parametrize("vec", VECTORS, ids=[v["name"] for v in VECTORS])
def test_vector_is_printed_in_protocol_md(vec: dict) -> None:
    text = (PKG / "PROTOCOL.md").read_text()
    h = vec["frame_hex"]
    assert " ".join(h[i:i + 2] for i in range(0, len(h), 2)) in text


def test_vectors_file_matches_generator() -> None:
    assert [(v["name"], v["seq"], from_dict(v["message"])) for v in VECTORS] == CASES


@pytest.mark.parametrize("vec", INVALID, ids=[v["name"] for v in INVALID])
def test_invalid_vectors_are_dropped_and_counted(vec: dict) -> None:
    d = Decoder()
    assert d.feed(bytes.fromhex(vec["frame_hex"])) == []
    assert d.stats.errors == 1 and d.stats.frames == 0
    # and the decoder is in sync again for the next good frame
    good = encode_frame(RollStartedMsg(9), 1)
    assert [f.message for f in d.feed(good)] == [RollStartedMsg(9)]


def test_every_vector_byte_by_byte_and_all_at_once() -> None:
    stream = b"".join(bytes.fromhex(v["frame_hex"]) for v in VECTORS)
    whole = [f.message for f in Decoder().feed(stream)]
    d = Decoder()
    pieces = [f.message for i in range(len(stream)) for f in d.feed(stream[i:i + 1])]
    assert whole == pieces == [from_dict(v["message"]) for v in VECTORS]


def test_random_fragmentation_gives_same_frames() -> None:
    rng = random.Random(5)
    stream = b"".join(bytes.fromhex(v["frame_hex"]) for v in VECTORS) * 3
    for _ in range(50):
        d, out, i = Decoder(), [], 0
        while i < len(stream):
            n = rng.randint(1, 40)
            out += d.feed(stream[i:i + n])
            i += n
        assert len(out) == 3 * len(VECTORS)


def test_oversize_frame_skipped_then_resync() -> None:
    d = Decoder()
    good = encode_frame(RollStartedMsg(2), 3)
    out = d.feed(b"\x07" * (MAX_ENCODED + 10)) + d.feed(b"\x07" * 500) + d.feed(b"\x00" + good)
    assert [f.message for f in out] == [RollStartedMsg(2)]
    assert d.stats.oversize == 1


def test_field_errors_name_the_field() -> None:
    with pytest.raises(FieldError, match="value = 7"):
        Die(7)
    with pytest.raises(FieldError, match="zone = 'middle'"):
        Die(3, zone="middle")
    with pytest.raises(FieldError, match="1 or 2"):
        RollSettledMsg(1, ())
    with pytest.raises(FieldError, match="seq = 300"):
        encode_frame(RollStartedMsg(1), 300)
    with pytest.raises(ValueError):
        Info(boot_id=-1)


# ------------------------------------------------------------------ property tests

dies = st.builds(Die, value=st.integers(0, 6), zone=st.sampled_from(["left", "right", "outside", "tray"]),
                 cocked=st.booleans(), on_checker=st.booleans(), x=st.integers(-32768, 32767),
                 y=st.integers(-32768, 32767), confidence=st.integers(0, 255))
messages = st.one_of(
    st.builds(RollSettledMsg, roll_id=st.integers(1, 65535), dice=st.lists(dies, min_size=1, max_size=2).map(tuple)),
    st.builds(Snapshot, state=st.integers(0, 3), roll_id=st.integers(0, 65535), leds=st.integers(0, 255),
              faults=st.integers(0, 255), pending=st.integers(0, 255),
              dice=st.lists(dies, max_size=2).map(tuple)),
    st.builds(RollStartedMsg, roll_id=st.integers(1, 65535)),
    st.builds(Info, boot_id=st.integers(0, 2**32 - 1), capabilities=st.integers(0, 65535)),
)


@settings(max_examples=300, deadline=None)
@given(messages, st.integers(0, 255))
def test_round_trip_property(msg: Message, seq: int) -> None:
    frame = encode_frame(msg, seq)
    out = Decoder().feed(frame)
    assert [(f.seq, f.message) for f in out] == [(seq, msg)]


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_crash_and_never_yield_bad_crc(data: bytes) -> None:
    d = Decoder()
    for f in d.feed(data):
        # every frame yielded re-encodes to bytes that occur in the input: its CRC was good
        assert encode_frame(f.message, f.seq)[:-1] in data


@settings(max_examples=400, deadline=None)
@given(messages, st.integers(0, 255), st.lists(st.tuples(st.integers(0, 200), st.integers(1, 255)), min_size=1, max_size=4))
def test_corrupted_wire_bytes_never_crash_and_only_yield_frames_present(msg: Message, seq: int, flips: list) -> None:
    frame = bytearray(encode_frame(msg, seq))
    for pos, mask in flips:
        frame[pos % (len(frame) - 1)] ^= mask
    stream = bytes(frame) + encode_frame(RollStartedMsg(1), 0)
    for f in Decoder().feed(stream):
        # what was yielded is exactly a CRC-valid frame that occurs in the stream
        assert encode_frame(f.message, f.seq)[:-1] in stream


@settings(max_examples=400, deadline=None)
@given(messages, st.integers(0, 255), st.lists(st.integers(0, 10_000), min_size=1, max_size=3, unique=True))
def test_up_to_three_bit_errors_are_always_caught(msg: Message, seq: int, bits: list) -> None:
    body = bytearray(cobs.decode(encode_frame(msg, seq)[:-1]) or b"")
    nbits = len(body) * 8
    positions = {b % nbits for b in bits}
    for b in positions:
        body[b // 8] ^= 0x80 >> (b % 8)
    d = Decoder()
    assert d.feed(cobs.encode(bytes(body)) + b"\x00") == []
    assert d.stats.bad_crc == 1
