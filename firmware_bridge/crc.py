"""CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, not reflected, no final xor).

Check value: ``crc16(b"123456789") == 0x29B1``.  On AVR this is avr-libc's
``_crc_xmodem_update`` started from 0xFFFF instead of 0.
"""
from __future__ import annotations


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
