"""The table's club publisher: one more output fed from the journal.

:class:`Publisher` follows the table's journal file (it reads it, never writes it), turns
each new line into messages (:mod:`.translate`) and publishes them (QoS 1, the state
retained).  It keeps its own offset, the last journal line whose every message the broker
acknowledged, in a small file beside the journal (``journal.jsonl.club-offset``), written
atomically and only after the acknowledgement.  So:

* the broker or the network away: lines wait, the table plays on; when it is back the
  publisher catches up from the offset, in order;
* the publisher (or the table) restarted: it reads the journal again, rebuilds the
  translator's state from the lines already published without sending them, and goes on
  after the offset: nothing lost; a line published but not yet counted when it stopped is
  sent again with the same ``(table, seq, n)`` and the server keeps it once.

``pump()`` does one round of that and returns at once; the table calls it after each event
(or a thread calls it in a loop: :func:`run_forever`).
"""
from __future__ import annotations

import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional, Union

from referee.records.lines import decode_line
from referee.table.club.broker import Ack, Broker
from referee.table.club.messages import Message, topic
from referee.table.club.translate import Translator

log = logging.getLogger("bgtable.club")


def offset_path(journal: Union[str, Path]) -> Path:
    """Where the publisher keeps its offset for ``journal``."""
    p = Path(journal)
    return p.with_name(p.name + ".club-offset")


@dataclass
class _Line:
    seq: int
    acks: list[Ack]


class Publisher:
    """Publishes a table journal's lines to the club broker from its own offset (see the
    module docstring).  ``window`` bounds the lines in flight (sent, not yet acknowledged)."""

    def __init__(self, journal: Union[str, Path], broker: Broker, translator: Translator,
                 offset_file: Optional[Union[str, Path]] = None, window: int = 500) -> None:
        self.journal = Path(journal)
        self.broker = broker
        self.translator = translator
        self.offset_file = Path(offset_file) if offset_file else offset_path(self.journal)
        self.window = window
        self.offset, self._first = self._load_offset()
        self._pos = 0             # bytes of the journal read so far
        self._read_seq = 0        # the last journal line read
        self._legacy = True
        self._todo: list[tuple[int, list[Message]]] = []  # read, not yet sent
        self._flight: list[_Line] = []                     # sent, not yet acknowledged
        self.published = 0        # messages sent by this publisher (repeats after a restart included)
        self.errors: list[str] = []

    # ------------------------------------------------------------------ the offset

    def _load_offset(self) -> tuple[int, str]:
        try:
            d = json.loads(self.offset_file.read_text(encoding="utf-8"))
            return int(d["seq"]), str(d.get("first", ""))
        except FileNotFoundError:
            return 0, ""
        except (ValueError, KeyError, TypeError, OSError) as exc:
            log.warning("club offset %s unreadable (%s): publishing the journal from its start "
                        "(the server drops what it already has)", self.offset_file, exc)
            return 0, ""

    def _save_offset(self) -> None:
        tmp = self.offset_file.with_name(self.offset_file.name + ".tmp")
        tmp.write_text(json.dumps({"seq": self.offset, "first": self._first, "journal": self.journal.name}) + "\n",
                       encoding="utf-8")
        os.replace(tmp, self.offset_file)

    # ------------------------------------------------------------------ one round

    def _read(self) -> None:
        try:
            with self.journal.open("rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size < self._pos:  # cut short (a repair, or a new match in the same file)
                    self._restart(size)
                f.seek(self._pos)
                data = f.read()
        except FileNotFoundError:
            return
        start = 0
        while True:
            nl = data.find(b"\n", start)
            if nl == -1:
                break  # a line being written: next round
            raw = data[start:nl]
            try:
                ev, checked = decode_line(raw, self._legacy)
            except ValueError as exc:
                msg = f"journal {self.journal} line {self._read_seq + 1} unreadable ({exc}); publishing stops there"
                if msg not in self.errors:
                    self.errors.append(msg)
                    log.error(msg)
                break
            if checked:
                self._legacy = False
            if self._read_seq == 0:
                first = raw[-10:-2].decode("ascii", "replace")
                if self._first and first != self._first:  # another match's journal: start again
                    log.info("club: %s holds a new journal; publishing it from its start", self.journal)
                    self.offset = 0
                self._first = first
            self._read_seq = int(ev.get("seq", self._read_seq + 1))
            msgs = self.translator.feed(ev)
            if self._read_seq > self.offset:  # (a line with no message still moves the offset, in order)
                self._todo.append((self._read_seq, msgs))
            start = nl + 1
        self._pos += start

    def _restart(self, size: int) -> None:
        log.warning("club: journal %s is shorter (%d bytes) than what was read (%d); reading it again "
                    "from its start (the server drops what it already has)", self.journal, size, self._pos)
        t = self.translator
        self.translator = Translator(t.club, t.table, t.base, t.clock_config)
        self._pos = self._read_seq = 0
        self._legacy = True
        self._todo.clear()
        self._flight.clear()
        self.offset = 0
        self._first = ""

    def pump(self) -> int:
        """Read new journal lines, send what the window allows, advance the offset past what
        the broker acknowledged; the number of messages sent."""
        self._read()
        sent = 0
        moved = False
        while True:
            progress = False
            if self.broker.connected:
                while self._todo and len(self._flight) < self.window:
                    seq, msgs = self._todo.pop(0)
                    self._flight.append(_Line(seq, [self.broker.publish(m) for m in msgs]))
                    sent += len(msgs)
                    progress = True
            while self._flight and all(a.done() for a in self._flight[0].acks):
                self.offset = self._flight.pop(0).seq
                moved = progress = True
            if not progress or not self._todo:
                break
        self.published += sent
        if moved:
            self._save_offset()
        return sent

    @property
    def lag(self) -> int:
        """Journal lines read but not yet acknowledged by the broker."""
        return self._read_seq - self.offset

    def health(self, parts: Optional[dict[str, Any]] = None) -> Ack:
        """Publish the table's health (retained): the parts the table reports (camera, dice
        reader, journal: ``{"camera": "ok"}``...) and the publisher's own lag."""
        body = {"table": self.translator.table, "seq": self.offset, "n": 0, "t": time.time(),
                "parts": dict(parts or {}), "lag": self.lag, "errors": self.errors[-3:]}
        return self.broker.publish(Message(topic(self.translator.club, self.translator.table, "health"), body,
                                           retain=True))


def run_forever(pub: Publisher, stop: Callable[[], bool], interval: float = 0.05,
                sleep: Callable[[float], None] = time.sleep) -> None:
    """Pump until ``stop()``; the health message every 10 s (the table's own loop may instead
    call :meth:`Publisher.pump` after each event)."""
    last = -1e9
    while not stop():
        pub.pump()
        now = time.monotonic()
        if now - last > 10 and pub.broker.connected:
            pub.health()
            last = now
        sleep(interval)
    pub.pump()


__all__ = ["Publisher", "offset_path", "run_forever"]
