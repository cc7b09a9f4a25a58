"""A journal's bytes read back: what is trusted, where the damage starts, and what a repair keeps.

:func:`parse_journal` trusts a journal up to its first line that is torn (no final
newline), unreadable, fails its check, breaks the sequence or does not fit the record:
that line and everything after it are not trusted (:attr:`JournalRead.damage` says which
line and why).  Reopening a journal (:class:`referee.records.journal.Journal`) moves the
untrusted rest to a dated backup beside the file (:func:`backup_path`) before cutting it
off, and says so (:class:`Repair`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Optional

from referee.errors import RecordError
from referee.events import from_dict as event_from_dict
from referee.records.builder import RecordBuilder
from referee.records.lines import decode_line
from referee.records.problems import Problem
from referee.records.record import MatchRecord


@dataclass(frozen=True)
class Damage:
    """Where a journal stops being trusted: the 1-based line, its byte offset, why, and
    how much follows (lines and bytes, that line included)."""

    line: int
    byte: int
    reason: str
    rest_lines: int
    rest_bytes: int
    torn: bool = False  # a last line cut short by an interrupted write

    def __str__(self) -> str:
        what = "torn by an interrupted write" if self.torn else "damaged"
        rest = (f"it and {self.rest_lines - 1} later line(s), {self.rest_bytes} bytes"
                if self.rest_lines > 1 else f"{self.rest_bytes} bytes")
        return f"line {self.line} (byte {self.byte}) is {what}: {self.reason}; not trusted: {rest}"


@dataclass
class JournalRead:
    """What a journal holds: the record, problems, warnings, the trusted events, the byte
    length of the trusted part, and where (if anywhere) it stops being trusted."""

    record: MatchRecord
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    intact_bytes: int = 0
    damage: Optional[Damage] = None
    checked: bool = True  # every trusted line carried a CRC-32 (False: an older journal)

    def kept(self) -> str:
        """What the trusted part holds, in a few words ("lines 1-50: 2 games, 31 actions")."""
        n = len(self.events)
        if not n:
            return "no event"
        acts = sum(len(g.actions) for g in self.record.games)
        return f"lines 1-{n}: {len(self.record.games)} game(s), {acts} record action(s)"


def parse_journal(data: bytes) -> JournalRead:
    """The trusted part of a journal's bytes: every line up to the first one that is torn,
    unreadable, fails its check, breaks the sequence or does not fit the record."""
    out = JournalRead(MatchRecord())
    b = RecordBuilder()
    pos = 0
    n = len(data)
    legacy = True
    line = 0
    while pos < n:
        line += 1
        nl = data.find(b"\n", pos)
        rest = data[pos:]
        if nl == -1:
            if rest.strip(b"\0 \r\t"):
                out.damage = Damage(line, pos, f"no end of line ({len(rest)} bytes)", 1, len(rest), torn=True)
            elif rest:  # only padding (zeros after a power cut): nothing was in it
                out.damage = Damage(line, pos, "only padding bytes", 1, len(rest), torn=True)
            break
        raw = data[pos:nl]
        reason = ""
        try:
            ev, checked = decode_line(raw, legacy)
            if checked:
                legacy = False
            else:
                out.checked = False
            seq = ev.get("seq")
            if seq != len(out.events) + 1:
                raise ValueError(f"its sequence number is {seq!r}, expected {len(out.events) + 1}")
            if ev.get("event") == "input":  # the table replays it: it must be an event it can take
                event_from_dict(ev.get("data") or {})
            b.apply(ev)
        except (RecordError, ValueError, TypeError, KeyError) as exc:
            reason = str(exc)
        if reason:
            later = data.count(b"\n", pos) + (0 if data.endswith(b"\n") else 1)
            last = later == 1
            torn = last and not raw.strip(b"\0 \r\t")  # a line of zeros at the end: never written
            out.damage = Damage(line, pos, reason, later, n - pos, torn=torn)
            break
        out.events.append(ev)
        pos = nl + 1
        out.intact_bytes = pos
    if not out.events:
        out.checked = out.damage is None
    out.record = b.record()
    if out.damage is not None:
        msg = f"{out.damage}; trusted: {out.kept()}"
        out.warnings.append(msg)
        if not out.damage.torn:
            out.problems.append(Problem(0, 0, f"journal line {out.damage.line}", msg))
    return out


def backup_path(path: Path, now: Optional[datetime] = None) -> Path:
    """A dated name beside ``path`` for its untrusted rest, never one that exists."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    cand = path.with_name(f"{path.name}.damaged-{stamp}")
    k = 1
    while cand.exists():
        k += 1
        cand = path.with_name(f"{path.name}.damaged-{stamp}-{k}")
    return cand


@dataclass(frozen=True)
class Repair:
    """What reopening a journal cut off: the damage, what was kept, and the backup file."""

    damage: Damage
    kept: str
    backup: Path

    def __str__(self) -> str:
        return f"{self.damage}; kept {self.kept}; the rest is saved in {self.backup}"
