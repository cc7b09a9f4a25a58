"""One journal line: an event's compact JSON with its CRC-32 as the last field, written and checked.

A line is ``{"seq": n, "event": ..., ..., "crc": "1a2b3c4d"}``: ``crc`` is the CRC-32 (hex)
of the line without it (the same JSON with ``,"crc":"..."`` removed).  Lines of older
journals carry no ``crc``; :func:`decode_line` accepts them only before the first line
that has one.
"""
from __future__ import annotations

import json
import zlib
from typing import Any

from referee.errors import RecordError

CRC_SUFFIX_LEN = len(',"crc":"00000000"}')


def encode_line(ev: dict[str, Any]) -> bytes:
    """One journal line: the event's compact JSON with its CRC-32 as the last field."""
    body = json.dumps(ev, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    if not body.endswith(b"}") or body == b"{}":
        raise RecordError(f"journal event {ev!r} must be a non-empty JSON object")
    return body[:-1] + b',"crc":"%08x"}\n' % zlib.crc32(body)


_TEMPLATE = b',"crc":"00000000"}'


def _claims_check(raw: bytes) -> bool:
    """The line ends with a check field, or with one that a single changed byte damaged
    (so a damaged check is never mistaken for an older line without one)."""
    tail = raw[-CRC_SUFFIX_LEN:]
    if len(tail) < CRC_SUFFIX_LEN:
        return False
    diff = 0
    for i, (c, t) in enumerate(zip(tail, _TEMPLATE)):
        ok = chr(c) in "0123456789abcdefABCDEF" if 8 <= i < 16 else c == t
        diff += not ok
    return diff <= 1


def decode_line(raw: bytes, legacy: bool) -> tuple[dict[str, Any], bool]:
    """The event of one line (without its newline) and whether it carried a check;
    ValueError saying why when it is unreadable or fails its check.  A line without a
    check is accepted only while ``legacy`` (no earlier line had one)."""
    checked = _claims_check(raw)
    if checked:
        body = raw[:-CRC_SUFFIX_LEN] + b"}"
        if raw[-CRC_SUFFIX_LEN:-10] != b',"crc":"' or not raw.endswith(b'"}'):
            raise ValueError("its check field (crc) is damaged")
        if raw[-10:-2] != b"%08x" % zlib.crc32(body):
            raise ValueError("its CRC-32 does not match its content")
    elif not legacy:
        raise ValueError("it carries no check (crc) although earlier lines do")
    else:
        body = raw
    try:
        ev = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"it is not UTF-8 ({exc.reason} at byte {exc.start})") from None
    except ValueError as exc:
        raise ValueError(f"it is not JSON ({exc})") from None
    if not isinstance(ev, dict):
        raise ValueError(f"it is not a JSON object but {type(ev).__name__}")
    if not checked and raw.strip() not in {json.dumps(ev, ensure_ascii=False, separators=sep).encode("utf-8")
                                           for sep in ((",", ":"), (", ", ": "))}:
        raise ValueError("it carries no check and is not written as the journal writes lines")
    return ev, checked
