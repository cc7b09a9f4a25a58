"""Consistent Overhead Byte Stuffing: frames without 0x00 so 0x00 can delimit them."""
from __future__ import annotations

from typing import Optional


def encode(data: bytes) -> bytes:
    """COBS-encode ``data``; the result contains no 0x00 (the delimiter is not added)."""
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def decode(data: bytes) -> Optional[bytes]:
    """Decode one COBS block (without its delimiter); None when it is not valid COBS."""
    out = bytearray()
    i, n = 0, len(data)
    if n == 0:
        return None
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        chunk = data[i + 1:end]
        if 0 in chunk:
            return None
        out += chunk
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)
