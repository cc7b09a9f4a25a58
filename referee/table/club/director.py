"""Director actions arriving at a table: checked, journaled with who sent them, once.

The director's page sends an action (pause, resume, undo, set a position, a note) on the
table's ``director`` topic; the broker's ACL lets only the director's login write it.  The
:class:`DirectorInbox` checks each message (a malformed one is refused with a log line) and
keeps it until the table's loop calls :meth:`DirectorInbox.journal`, which appends a
``{"event": "director", "action": ..., "by": ..., "id": ...}`` line to the journal (the
journal is the table's one writer).  An action delivered twice (same ``id``) is journaled
once.  What the referee does with it is the table loop's business (a pause is the
referee's ``call_director``).
"""
from __future__ import annotations

import logging
import threading
from typing import Any, Protocol

from referee.table.club.broker import Broker
from referee.table.club.messages import MessageError, parse, topic

log = logging.getLogger("bgtable.club")


class Appends(Protocol):
    """Anything that journals an event (the table's journal)."""

    def append(self, event: dict[str, Any]) -> int:
        """Journal ``event``; returns its sequence number."""
        ...


class DirectorInbox:
    """The director actions for one table, waiting to be journaled (thread-safe: the broker's
    thread puts, the table's loop takes)."""

    def __init__(self, broker: Broker, club: str, table: str, seen: tuple[str, ...] = ()) -> None:
        self.club, self.table = club, table
        self._lock = threading.Lock()
        self._waiting: list[dict[str, Any]] = []
        self._seen: set[str] = set(seen)
        self.refused: list[str] = []
        broker.subscribe(topic(club, table, "director"), self._on_message)

    @classmethod
    def seen_in(cls, events: list[dict[str, Any]]) -> tuple[str, ...]:
        """The ids of the director actions a journal already holds (to pass as ``seen``)."""
        return tuple(str(e.get("id")) for e in events if e.get("event") == "director")

    def _on_message(self, t: str, payload: bytes) -> None:
        try:
            club, table, kind, body = parse(t, payload)
        except MessageError as exc:
            self.refused.append(str(exc))
            log.warning("%s", exc)
            return
        with self._lock:
            if body["id"] in self._seen:
                return
            self._seen.add(body["id"])
            self._waiting.append({"event": "director", "action": body["action"], "by": body["by"],
                                  "id": body["id"], "data": body.get("data") or {}})

    def journal(self, journal: Appends) -> list[dict[str, Any]]:
        """Append the waiting actions to the journal (oldest first); the ones written."""
        with self._lock:
            todo, self._waiting = self._waiting, []
        done = []
        for i, e in enumerate(todo):
            try:
                journal.append(e)
            except Exception:
                with self._lock:  # not on disk: it waits for the next call
                    self._waiting[:0] = todo[i:]
                raise
            done.append(e)
        return done


__all__ = ["DirectorInbox"]
