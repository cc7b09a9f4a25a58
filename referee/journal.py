"""The crash-safe journal of a live match: append-only JSON lines, fsync'ed per event.

Every event is one line ``{"seq": n, "event": ..., ...}`` written with a single
``write``, flushed and ``fsync``'ed before :meth:`Journal.append` returns, so the
referee acts only on events that are on disk.  Events:

* ``{"event": "match", "players": [a, b], "match_length": L, "rules": {...}, "meta": [[k, v], ...]}``
* ``{"event": "game", "game": g, "score_before": [a, b], "crawford": bool}``
* ``{"event": "action", "game": g, "action": <Action.to_dict()>}``  (see :mod:`referee.record`)
* anything else (``"input"`` device events, ``"note"``...) is kept but not part of the record.

:func:`read_journal` rebuilds the :class:`~referee.record.MatchRecord` exactly.  A
torn last line (a power cut mid-write: no final newline, or unreadable) is dropped
with a warning; reopening a journal with :class:`Journal` truncates only that torn
tail, so earlier events are never lost or rewritten.  The record can be exported to
.mat / SGF at any time, also mid-game (:meth:`Journal.export`).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, Union

from .errors import RecordError
from .record import Action, GameRecord, MatchRecord, Problem, RuleSettings, action_from_dict


@dataclass
class JournalRead:
    """What a journal holds: the record, problems (corrupt lines), warnings (a torn
    tail dropped), the events read, and the byte length of the intact part."""

    record: MatchRecord
    problems: list[Problem] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    intact_bytes: int = 0


class RecordBuilder:
    """Folds journal events into a match record (the live and the rebuilt record alike)."""

    def __init__(self) -> None:
        self.players: tuple[str, str] = ("Player 0", "Player 1")
        self.match_length = 0
        self.rules = RuleSettings()
        self.meta: tuple[tuple[str, str], ...] = ()
        self.games: list[tuple[int, tuple[int, int], bool, list[Action]]] = []
        self.clock: Optional[float] = None  # the last input event's time: stamps the actions it caused

    def check(self, ev: dict[str, Any]) -> None:
        """RecordError naming the event when it does not fit the record so far (no change)."""
        kind = ev.get("event")
        try:
            if kind == "match":
                RuleSettings.from_dict(ev.get("rules", {}))
                if len(ev.get("players", ())) != 2:
                    raise RecordError(f"event {ev.get('seq')}: a match needs two players")
            elif kind == "game":
                g = int(ev["game"])
                if self.games and g != self.games[-1][0] + 1 or not self.games and g < 1:
                    raise RecordError(f"event {ev.get('seq')}: game {g} does not follow game "
                                      f"{self.games[-1][0] if self.games else 0}")
            elif kind == "action":
                if not self.games or int(ev.get("game", -1)) != self.games[-1][0]:
                    raise RecordError(f"event {ev.get('seq')}: an action for game {ev.get('game')!r}, "
                                      f"but the current game is {self.games[-1][0] if self.games else 'none'}")
                action_from_dict(ev["action"])
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"event {ev.get('seq')}: malformed {kind!r} event: {exc!r}") from None

    def apply(self, ev: dict[str, Any]) -> None:
        """Fold one event in; RecordError naming the event when it does not fit."""
        self.check(ev)
        kind = ev.get("event")
        if kind == "match":
            self.players = tuple(ev.get("players", self.players))
            self.match_length = int(ev.get("match_length", 0))
            self.rules = RuleSettings.from_dict(ev.get("rules", {}))
            self.meta = tuple(tuple(kv) for kv in ev.get("meta", ()))
        elif kind == "game":
            g = int(ev["game"])
            self.games.append((g, tuple(ev.get("score_before", (0, 0))), bool(ev.get("crawford", False)), []))
        elif kind == "action":
            a = action_from_dict(ev["action"])
            self.games[-1][3].append(a if a.t is not None else a.at(self.clock))
        elif kind == "input" and isinstance(ev.get("data"), dict):
            t = ev["data"].get("t")
            if isinstance(t, (int, float)) and not isinstance(t, bool):
                self.clock = float(t)

    def record(self) -> MatchRecord:
        return MatchRecord(self.players, self.match_length, self.rules,
                           tuple(GameRecord(n, s, c, tuple(a)) for n, s, c, a in self.games), self.meta)


def read_journal(path: Union[str, Path]) -> JournalRead:
    """Rebuild the record from a journal file (see the module docstring for torn tails)."""
    data = Path(path).read_bytes()
    return parse_journal(data)


def parse_journal(data: bytes) -> JournalRead:
    out = JournalRead(MatchRecord())
    b = RecordBuilder()
    pos = 0
    expect_seq = 1
    n = len(data)
    while pos < n:
        nl = data.find(b"\n", pos)
        last = nl == -1 or not data[nl + 1:].strip(b"\0 \r\n\t")
        raw = data[pos:] if nl == -1 else data[pos:nl]
        if nl == -1:
            out.warnings.append(f"the last event (byte {pos}, {len(raw)} bytes) was torn by an interrupted "
                                "write and is dropped")
            break
        try:
            ev = json.loads(raw.decode("utf-8"))
            if not isinstance(ev, dict):
                raise ValueError("not a JSON object")
        except (ValueError, UnicodeDecodeError) as exc:
            if last:
                out.warnings.append(f"the last event (byte {pos}) is unreadable ({exc}) and is dropped")
                break
            out.problems.append(Problem(0, 0, raw[:80].decode("utf-8", "replace"),
                                        f"journal line at byte {pos} is not a JSON object ({exc}); skipped"))
            pos = nl + 1
            continue
        seq = ev.get("seq")
        if seq != expect_seq:
            out.problems.append(Problem(0, 0, f"seq {seq}", f"expected event number {expect_seq}: "
                                                            "events are missing or out of order"))
        expect_seq = (seq if isinstance(seq, int) else expect_seq) + 1
        try:
            b.apply(ev)
        except (RecordError, KeyError, TypeError, ValueError) as exc:
            out.problems.append(Problem(0, 0, raw[:80].decode("utf-8", "replace"), str(exc)))
        out.events.append(ev)
        pos = nl + 1
        out.intact_bytes = pos
    out.record = b.record()
    return out


class Journal:
    """An open journal, appended to by the referee.  ``fsync`` is injectable for tests."""

    def __init__(self, path: Union[str, Path], fsync: Callable[[int], None] = os.fsync) -> None:
        self.path = Path(path)
        self._fsync = fsync
        self.warnings: list[str] = []
        self._builder = RecordBuilder()
        self._seq = 0
        if self.path.exists():
            read = read_journal(self.path)
            self.warnings = read.warnings
            for ev in read.events:
                try:
                    self._builder.apply(ev)
                except (RecordError, KeyError, TypeError, ValueError):
                    pass
                if isinstance(ev.get("seq"), int):
                    self._seq = max(self._seq, ev["seq"])
            if read.intact_bytes != self.path.stat().st_size:
                # drop only the torn tail, so the next event starts on a line of its own
                with open(self.path, "r+b") as f:
                    f.truncate(read.intact_bytes)
                    f.flush()
                    self._fsync(f.fileno())
        created = not self.path.exists()
        self._f = open(self.path, "ab", buffering=0)
        if created:  # make the new directory entry durable too
            try:
                dfd = os.open(self.path.parent, os.O_RDONLY)
            except OSError:
                dfd = -1
            if dfd >= 0:
                try:
                    self._fsync(dfd)
                finally:
                    os.close(dfd)

    # ----------------------------------------------------------------- writing

    def append(self, event: dict[str, Any]) -> int:
        """Write one event durably (single write, flush, fsync) and fold it into the record.
        Returns its sequence number."""
        if "event" not in event:
            raise RecordError(f"journal event {event!r} needs an 'event' field")
        ev = {"seq": self._seq + 1, **event}
        self._builder.check(ev)  # never write an event the record cannot take
        self._seq += 1
        line = (json.dumps(ev, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
        self._f.write(line)
        self._f.flush()
        self._fsync(self._f.fileno())
        self._builder.apply(ev)
        return self._seq

    def start_match(self, players: tuple[str, str], match_length: int, rules: RuleSettings = RuleSettings(),
                    meta: tuple[tuple[str, str], ...] = ()) -> int:
        return self.append({"event": "match", "players": list(players), "match_length": match_length,
                            "rules": rules.to_dict(), "meta": [list(kv) for kv in meta]})

    def start_game(self, game: int, score_before: tuple[int, int], crawford: bool = False) -> int:
        return self.append({"event": "game", "game": game, "score_before": list(score_before),
                            "crawford": crawford})

    def action(self, game: int, action: Action) -> int:
        return self.append({"event": "action", "game": game, "action": action.to_dict()})

    def input(self, data: dict[str, Any]) -> int:
        """A raw device event (kept for audit; not part of the record)."""
        return self.append({"event": "input", "data": data})

    # ----------------------------------------------------------------- reading

    def record(self) -> MatchRecord:
        return self._builder.record()

    def export(self, path: Union[str, Path]) -> None:
        """Write the record so far as .mat/.txt, .sgf or .json (by extension)."""
        p = Path(path)
        ext = p.suffix.lower()
        rec = self.record()
        if ext == ".sgf":
            from .sgf import write_sgf
            text = write_sgf(rec)
        elif ext == ".json":
            text = rec.to_json() + "\n"
        elif ext in (".mat", ".txt"):
            from .matfile import write_mat
            text = write_mat(rec)
        else:
            raise RecordError(f"cannot export to {str(p)!r}: extension must be .mat, .txt, .sgf or .json")
        p.write_text(text, encoding="utf-8")

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def journal_lines(record: MatchRecord) -> list[dict[str, Any]]:
    """The events that rebuild ``record`` (to journal an imported match, and for tests)."""
    evs: list[dict[str, Any]] = [{"event": "match", "players": list(record.players),
                                  "match_length": record.match_length, "rules": record.rules.to_dict(),
                                  "meta": [list(kv) for kv in record.meta]}]
    for g in record.games:
        evs.append({"event": "game", "game": g.number, "score_before": list(g.score_before),
                    "crawford": g.crawford})
        evs.extend({"event": "action", "game": g.number, "action": a.to_dict()} for a in g.actions)
    return evs


__all__ = ["Journal", "JournalRead", "RecordBuilder", "read_journal", "parse_journal", "journal_lines"]
