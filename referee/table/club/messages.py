"""Topics and messages of the club link; every message is one JSON object, checked on arrival.

Topics (``CLUB`` and ``TABLE`` are names of letters, digits, ``-`` and ``_``)::

    bgtable/CLUB/TABLE/state      retained: the table view, score, clock (the last one wins)
    bgtable/CLUB/TABLE/event      each decision, game end, match end (QoS 1, never retained)
    bgtable/CLUB/TABLE/health     retained: camera, dice reader, journal, publisher lag
    bgtable/CLUB/TABLE/frame      retained: the camera's last frame when something waits (a JPEG)
    bgtable/CLUB/TABLE/director   to the table: a director action (only the director may write it)

Every message from a table carries ``table``, ``seq`` (the journal line it comes from) and
``n`` (its index among that line's messages): ``(table, seq, n)`` names it, so a message
delivered twice (QoS 1, a republish after a restart) is recognised and kept once.
"""
from __future__ import annotations

import base64
import binascii
import json
import re
from dataclasses import dataclass
from typing import Any, Optional

from referee.errors import RefereeError

PREFIX = "bgtable"
KINDS = ("state", "event", "health", "director", "frame")
NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_PAYLOAD = 64 * 1024
MAX_FRAME = 512 * 1024  # a frame message: a 640 px JPEG in base64 is far less
DIRECTOR_ACTIONS = ("pause", "resume", "undo", "set_position", "score", "override", "end_match", "learn_board",
                    "note")
EVENT_TYPES = ("decision", "game_end", "match_end", "match_start", "analysis", "director")


class MessageError(RefereeError, ValueError):
    """A message or topic is malformed; the message says what and where (it is refused)."""


def check_name(what: str, name: str) -> str:
    """``name`` if it is a valid club or table name, else MessageError naming it."""
    if not isinstance(name, str) or not NAME.match(name):
        raise MessageError(f"{what} name {name!r}: use 1 to 40 letters, digits, '-' or '_'")
    return name


def topic(club: str, table: str, kind: str) -> str:
    """The topic of ``kind`` messages of one table."""
    if kind not in KINDS:
        raise MessageError(f"message kind {kind!r} is not one of {', '.join(KINDS)}")
    return f"{PREFIX}/{check_name('club', club)}/{check_name('table', table)}/{kind}"


def split_topic(t: str) -> tuple[str, str, str]:
    """(club, table, kind) of a topic; MessageError when it is not one of ours."""
    parts = t.split("/")
    if len(parts) != 4 or parts[0] != PREFIX or parts[3] not in KINDS:
        raise MessageError(f"topic {t!r} is not {PREFIX}/CLUB/TABLE/{{{','.join(KINDS)}}}")
    check_name("club", parts[1])
    check_name("table", parts[2])
    return parts[1], parts[2], parts[3]


@dataclass(frozen=True)
class Message:
    """One message: where it goes, its JSON body, and whether the broker keeps it (retained)."""

    topic: str
    body: dict[str, Any]
    retain: bool = False

    @property
    def payload(self) -> bytes:
        """The body as compact UTF-8 JSON."""
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    @property
    def key(self) -> tuple[str, int, int]:
        """(table, journal line, index): the message's identity for deduplication."""
        return (str(self.body.get("table")), int(self.body.get("seq", 0)), int(self.body.get("n", 0)))


def _need(ok: bool, t: str, what: str) -> None:
    if not ok:
        raise MessageError(f"message on {t!r} refused: {what}")


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse(t: str, payload: bytes) -> tuple[str, str, str, dict[str, Any]]:
    """(club, table, kind, body) of a message from the broker, fully checked; MessageError
    saying why otherwise (the caller logs it and drops the message)."""
    club, table, kind = split_topic(t)
    limit = MAX_FRAME if kind == "frame" else MAX_PAYLOAD
    _need(len(payload) <= limit, t, f"{len(payload)} bytes, more than {limit}")
    try:
        body = json.loads(payload.decode("utf-8"))
    except UnicodeDecodeError:
        raise MessageError(f"message on {t!r} refused: not UTF-8") from None
    except ValueError as exc:
        raise MessageError(f"message on {t!r} refused: not JSON ({exc})") from None
    _need(isinstance(body, dict), t, f"not a JSON object but {type(body).__name__}")
    if kind == "director":
        _need(body.get("action") in DIRECTOR_ACTIONS, t,
              f"action {body.get('action')!r} is not one of {', '.join(DIRECTOR_ACTIONS)}")
        _need(isinstance(body.get("by"), str) and body["by"] != "", t, "'by' (who sent it) is missing")
        _need(isinstance(body.get("id"), str) and 0 < len(body["id"]) <= 64, t, "'id' (a unique string) is missing")
        return club, table, kind, body
    _need(body.get("table") == table, t, f"table {body.get('table')!r} does not match the topic's {table!r}")
    _need(_int(body.get("seq")) and body["seq"] >= 0, t, f"seq {body.get('seq')!r} is not a journal line number")
    _need(_int(body.get("n")) and body["n"] >= 0, t, f"n {body.get('n')!r} is not an index")
    if kind == "state":
        _need(isinstance(body.get("view"), dict), t, "'view' (the table view) is missing")
        _need(isinstance(body["view"].get("score"), list), t, "the view has no score")
    elif kind == "event":
        _need(body.get("type") in EVENT_TYPES, t, f"type {body.get('type')!r} is not one of {', '.join(EVENT_TYPES)}")
    elif kind == "frame":
        _need(isinstance(body.get("jpeg"), str), t, "'jpeg' (the frame, base64) is missing")
        try:
            data = base64.b64decode(body["jpeg"], validate=True)
        except (binascii.Error, ValueError):
            raise MessageError(f"message on {t!r} refused: 'jpeg' is not base64") from None
        _need(data[:3] == b"\xff\xd8\xff", t, "'jpeg' is not a JPEG image")
        for k in ("width", "height"):
            _need(_int(body.get(k)) and 0 < body[k] <= 4096, t, f"{k} {body.get(k)!r} is not a size in pixels")
    return club, table, kind, body


def frame_message(club: str, table: str, seq: int, what: str, jpeg_b64: str, width: int, height: int,
                  t: float = 0.0) -> Message:
    """The camera's last frame at ``table`` (retained): ``what`` waits there since journal line ``seq``."""
    return Message(topic(club, table, "frame"), {"table": table, "seq": seq, "n": 0, "what": what, "t": t,
                                                 "width": width, "height": height, "jpeg": jpeg_b64}, retain=True)


def director_action(club: str, table: str, action: str, by: str, ident: str,
                    data: Optional[dict[str, Any]] = None) -> Message:
    """A director action for one table (sent by ``bgtable club`` after the director's login)."""
    if action not in DIRECTOR_ACTIONS:
        raise MessageError(f"director action {action!r} is not one of {', '.join(DIRECTOR_ACTIONS)}")
    return Message(topic(club, table, "director"), {"action": action, "by": by, "id": ident, "data": data or {}})


__all__ = ["Message", "MessageError", "topic", "split_topic", "parse", "check_name", "director_action",
           "frame_message", "DIRECTOR_ACTIONS", "KINDS"]
