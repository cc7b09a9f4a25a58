"""The pure frame codec: messages to wire bytes, and wire bytes (in any pieces) to frames.

A frame on the wire is ``COBS(version, type, seq, payload..., crc32 LE) 0x00``
(PROTOCOL.md section 2, version 2).  :class:`Decoder` is fed arbitrary chunks and returns the
frames completed so far; noise, bad CRCs, oversized or unknown frames are counted in
:attr:`Decoder.stats` and skipped, never raised.  A well-formed version-1 frame (CRC-16)
is counted as ``old_version`` so the host can say the reader needs new firmware.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from firmware_bridge import cobs
from firmware_bridge.crc import crc16, crc32
from firmware_bridge.errors import FieldError
from firmware_bridge.messages import MAX_PAYLOAD, MESSAGE_TYPES, PROTOCOL_VERSION, Message

HEADER_SIZE = 3
CRC_SIZE = 4
OLD_VERSION = 1  # CRC-16 frames: recognised, never accepted
MAX_FRAME = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE  # decoded bytes
MAX_ENCODED = MAX_FRAME + 1  # COBS adds one byte per 254


@dataclass(frozen=True)
class Frame:
    """One decoded frame: the sender's sequence number and the message it carried."""

    seq: int
    message: Message
    version: int = PROTOCOL_VERSION


def encode_frame(message: Message, seq: int) -> bytes:
    """The full on-wire bytes of ``message`` with sequence number ``seq``, delimiter included."""
    if not 0 <= seq <= 255:
        raise FieldError(f"field seq = {seq!r} is not an integer in 0..255")
    payload = message.pack()
    if len(payload) > MAX_PAYLOAD:
        raise FieldError(f"{message.NAME} payload is {len(payload)} bytes; the maximum is {MAX_PAYLOAD}")
    body = bytes((PROTOCOL_VERSION, message.TYPE, seq)) + payload
    return cobs.encode(body + crc32(body).to_bytes(4, "little")) + b"\x00"


def decode_frame(encoded: bytes, stats: Optional["DecodeStats"] = None) -> Optional[Frame]:
    """Decode one frame's bytes (without the 0x00 delimiter); None (and a count) when bad."""
    st = stats if stats is not None else DecodeStats()
    if len(encoded) > MAX_ENCODED:
        st.oversize += 1
        return None
    body = cobs.decode(encoded)
    if body is None:
        st.bad_cobs += 1
        return None
    if len(body) < HEADER_SIZE + CRC_SIZE or crc32(body[:-CRC_SIZE]) != int.from_bytes(body[-CRC_SIZE:], "little"):
        if len(body) >= HEADER_SIZE + 2 and body[0] == OLD_VERSION and crc16(body[:-2]) == body[-2] | (body[-1] << 8):
            st.old_version += 1
        elif len(body) < HEADER_SIZE + CRC_SIZE:
            st.short += 1
        else:
            st.bad_crc += 1
        return None
    version, mtype, seq = body[0], body[1], body[2]
    if version != PROTOCOL_VERSION:
        st.bad_version += 1
        return None
    cls = MESSAGE_TYPES.get(mtype)
    if cls is None:
        st.unknown_type += 1
        return None
    message = cls.unpack(body[HEADER_SIZE:-CRC_SIZE])
    if message is None:
        st.bad_payload += 1
        return None
    st.frames += 1
    return Frame(seq, message, version)


@dataclass
class DecodeStats:
    """Counts of what the decoder accepted and skipped (for diagnosis, never raised)."""

    frames: int = 0
    bytes: int = 0
    oversize: int = 0
    bad_cobs: int = 0
    short: int = 0
    bad_crc: int = 0
    bad_version: int = 0
    old_version: int = 0
    unknown_type: int = 0
    bad_payload: int = 0

    @property
    def errors(self) -> int:
        """The number of frames rejected, for any reason."""
        return (self.oversize + self.bad_cobs + self.short + self.bad_crc + self.bad_version
                + self.old_version + self.unknown_type + self.bad_payload)


@dataclass
class Decoder:
    """Bytes in, frames out: split on 0x00, skip anything longer than a frame can be."""

    stats: DecodeStats = field(default_factory=DecodeStats)
    _buf: bytearray = field(default_factory=bytearray)
    _overflow: bool = False

    def feed(self, data: bytes) -> list[Frame]:
        """Feed any chunk of received bytes; return the frames it completed (maybe none)."""
        out: list[Frame] = []
        self.stats.bytes += len(data)
        start = 0
        while True:
            end = data.find(0, start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._overflow:
                if len(self._buf) + len(piece) > MAX_ENCODED:
                    self._overflow = True
                    self._buf.clear()
                else:
                    self._buf += piece
            if end < 0:
                return out
            if self._overflow:
                self.stats.oversize += 1
                self._overflow = False
            elif self._buf:
                frame = decode_frame(bytes(self._buf), self.stats)
                if frame is not None:
                    out.append(frame)
                self._buf.clear()
            start = end + 1

    def reset(self) -> None:
        """Drop a partial frame (after the port was reopened)."""
        self._buf.clear()
        self._overflow = False
