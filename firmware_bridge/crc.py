"""The frame checks: CRC-32 (protocol version 2) and CRC-16 (version 1, recognised only).

CRC-32/ISO-HDLC (the zlib/Ethernet CRC: poly 0x04C11DB7 reflected, init and final xor
0xFFFFFFFF).  Check value: ``crc32(b"123456789") == 0xCBF43926``.  Over a frame of at most
51 bytes it detects every error of up to 4 bits and every burst of up to 32 bits.

CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no final xor) was version 1's
check; the host keeps it only to recognise a version-1 reader and say so.
Check value: ``crc16(b"123456789") == 0x29B1``.
"""
from __future__ import annotations

import zlib


def crc32(data: bytes) -> int:
    """The CRC-32/ISO-HDLC of ``data`` (the same as :func:`zlib.crc32`)."""
    return zlib.crc32(data) & 0xFFFFFFFF


def _table() -> tuple[int, ...]:
    out = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        out.append(crc & 0xFFFF)
    return tuple(out)


_TABLE = _table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """The CRC-16/CCITT-FALSE of ``data`` (pass ``crc`` to continue a running CRC)."""
    table = _TABLE
    for b in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ b]
    return crc
