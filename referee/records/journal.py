"""The crash-safe journal of a live match: append-only JSON lines, each checked, fsync'ed per event.

Every event is one line ``{"seq": n, "event": ..., ..., "crc": "1a2b3c4d"}``: ``crc`` is the
CRC-32 (hex) of the line without it (the same JSON with ``,"crc":"..."`` removed), and
``seq`` counts the lines from 1.  :meth:`Journal.append` writes the line (looping until
every byte is written), ``fsync``s it and only then returns, so the referee acts only on
events that are on disk.  The table (``sync="thread"``) instead writes each line and fsyncs
on a sync thread, all lines of one event at once, and waits for it (:meth:`Journal.durable`)
before it shows what it decided: nothing shown is ever missing from the disk.  A write that fails
(a full disk, a read-only filesystem) raises
:class:`JournalWriteError` and leaves nothing of the line behind.  An open
:class:`Journal` holds an exclusive ``fcntl.flock``: a second process on the same file is
refused with :class:`JournalLocked`.  Events:

* ``{"event": "match", "players": [a, b], "match_length": L, "rules": {...}, "meta": [[k, v], ...]}``
* ``{"event": "game", "game": g, "score_before": [a, b], "crawford": bool}``
* ``{"event": "action", "game": g, "action": <Action.to_dict()>}``  (see :mod:`referee.records.record`)
* anything else (``"input"`` device events, ``"note"``...) is kept but not part of the record.

Reading (:func:`parse_journal`) trusts the journal up to its first line that is torn (no
final newline), unreadable, fails its check, breaks the sequence or does not fit the
record: that line and everything after it are not trusted (:attr:`JournalRead.damage`
says which line and why).  Reopening with :class:`Journal` moves the untrusted rest to a
dated backup beside the file (``NAME.damaged-YYYYMMDD-HHMMSS``) before cutting it off, so
nothing is ever silently overwritten; ``bgtable journal check|repair FILE`` shows and
does the same.  Older journals, whose lines carry no ``crc``, still load: lines without a
check are accepted until the first line that has one (:attr:`JournalRead.checked` is
False for them).  The record can be exported to .mat / SGF at any time, also mid-game
(:meth:`Journal.export`).
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import threading
import zlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, Union

from referee.errors import RecordError, RefereeError
from referee.events import from_dict as event_from_dict
from referee.records.record import Action, GameRecord, MatchRecord, Problem, RuleSettings, action_from_dict

CRC_SUFFIX_LEN = len(',"crc":"00000000"}')


class JournalError(RefereeError, OSError):
    """The journal file cannot be opened, locked or written; the message names the file."""


class JournalLocked(JournalError):
    """Another process holds the journal open (its exclusive lock)."""


class JournalWriteError(JournalError):
    """An event could not be written durably; nothing of it is left in the file."""

    def __init__(self, path: Path, exc: OSError) -> None:
        self.path = path
        self.errno = exc.errno
        self.reason = write_failure_reason(exc)
        super().__init__(f"the journal cannot be written: {self.reason} ({path})")


def write_failure_reason(exc: OSError) -> str:
    """A short reason a player reads on the screen ("disk full", "read-only filesystem")."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return "disk full"
    if exc.errno == errno.EROFS:
        return "read-only filesystem"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    return exc.strerror or str(exc)


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


Games = list[tuple[int, tuple[int, int], bool, list[Action]]]


def _append(games: Games, a: Action) -> None:
    games[-1][3].append(a)


def _undo(games: Games, a: Action) -> None:
    if games[-1][3]:
        games[-1][3].pop()


def _score(games: Games, a: Action) -> None:
    n, _, crawford, acts = games[-1]
    score = getattr(a, "score")
    games[-1] = (n, (score[0], score[1]), crawford, acts)


#: how an action folds into the game under way (any other kind: appended); the director's
#: undo takes the last action back, a score correction sets the score the game is played at
FOLDS: dict[str, Callable[[Games, Action], None]] = {"undo": _undo, "score": _score}


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
            FOLDS.get(a.TYPE, _append)(self.games, a if a.t is not None else a.at(self.clock))
        elif kind == "input" and isinstance(ev.get("data"), dict):
            t = ev["data"].get("t")
            if isinstance(t, (int, float)) and not isinstance(t, bool):
                self.clock = float(t)

    def record(self) -> MatchRecord:
        """The match record built from the events folded in so far."""
        return MatchRecord(self.players, self.match_length, self.rules,
                           tuple(GameRecord(n, s, c, tuple(a)) for n, s, c, a in self.games), self.meta)


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


def read_journal(path: Union[str, Path]) -> JournalRead:
    """Read a journal file (read-only; see the module docstring for what is trusted)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except IsADirectoryError:
        raise JournalError(f"journal {str(p)!r} is a directory, not a journal file") from None
    except FileNotFoundError:
        raise JournalError(f"journal {str(p)!r} does not exist") from None
    except OSError as exc:
        raise JournalError(f"journal {str(p)!r} cannot be read: {exc.strerror or exc}") from None
    return parse_journal(data)


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


Writer = Callable[[int, Any], int]  # os.write's shape


SYNC_MODES = ("each", "group", "thread")


class Journal:
    """An open, locked journal, appended to by the referee.  ``fsync`` and ``write`` (an
    ``os.write``-like function) are injectable for tests: a writer raising ``OSError(ENOSPC)``
    plays a full disk.

    ``sync`` says when the lines reach the disk: ``"each"`` (the default) fsyncs every line
    before :meth:`append` returns; ``"group"`` and ``"thread"`` only write the line, and
    :meth:`durable` (called before anything decided from it is shown) fsyncs all lines
    written so far once, ``"thread"`` on a sync thread started by :meth:`begin_sync`, so
    the disk works while the screen draws."""

    def __init__(self, path: Union[str, Path], fsync: Callable[[int], None] = os.fsync,
                 write: Writer = os.write, now: Optional[Callable[[], datetime]] = None,
                 sync: str = "each") -> None:
        self.path = Path(path)
        self._fsync = fsync
        self._write = write
        self.sync = "each"
        self._cv = threading.Condition()
        self._durable = 0       # bytes known to be on disk (sync "group" / "thread")
        self._requested = 0     # bytes the sync thread is asked to make durable
        self._synced = 0        # bytes the sync thread has made durable
        self._sync_error: Optional[OSError] = None
        self._syncer: Optional[threading.Thread] = None
        self._closing = False
        self._written: list[dict[str, Any]] = []  # events written since the last durable line
        self._lost: list[dict[str, Any]] = []     # events a failed fsync cut off: written again first
        self.warnings: list[str] = []
        self.repair: Optional[Repair] = None
        self._builder = RecordBuilder()
        self._seq = 0
        self._dirty = False  # a failed write may have left part of a line: cut it before the next
        existed = self.path.exists()
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        except IsADirectoryError:
            raise JournalError(f"journal {str(self.path)!r} is a directory; name a file") from None
        except FileNotFoundError:
            raise JournalError(f"journal {str(self.path)!r}: its directory {str(self.path.parent)!r} "
                               "does not exist") from None
        except OSError as exc:
            raise JournalError(f"journal {str(self.path)!r} cannot be opened: {exc.strerror or exc}") from None
        try:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise JournalLocked(f"journal {str(self.path)!r} is in use by another process (another "
                                        "'bgtable run' or 'bgtable demo' on it?); stop that one first "
                                        f"('fuser {self.path}' names it)") from None
                raise JournalError(f"journal {str(self.path)!r} cannot be locked: {exc.strerror or exc}") from None
            self.read = self._load(now or datetime.now)
        except BaseException:
            os.close(self._fd)
            raise
        if not existed:  # make the new directory entry durable too
            self._fsync_dir()
        self._durable = self._requested = self._synced = self._size
        self.set_sync(sync)

    def set_sync(self, sync: str) -> None:
        """Choose when lines reach the disk (see the class doc); what is written is made
        durable first."""
        if sync not in SYNC_MODES:
            raise ValueError(f"journal sync {sync!r} is not one of {', '.join(SYNC_MODES)}")
        self.durable()
        self.sync = sync

    def _load(self, now: Callable[[], datetime]) -> JournalRead:
        size = os.fstat(self._fd).st_size
        data = os.pread(self._fd, size, 0) if size else b""
        read = parse_journal(data)
        self.warnings = list(read.warnings)
        for e in read.events:
            self._builder.apply(e)
        self._seq = len(read.events)
        if read.intact_bytes != len(data):
            d = read.damage
            assert d is not None
            rest = data[read.intact_bytes:]
            if rest.strip(b"\0 \r\n\t"):
                backup = backup_path(self.path, now())
                bfd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                try:
                    self._write_all(bfd, rest)
                    self._fsync(bfd)
                finally:
                    os.close(bfd)
                self.repair = Repair(d, read.kept(), backup)
                self.warnings = [str(self.repair)]
            os.ftruncate(self._fd, read.intact_bytes)
            self._fsync(self._fd)
            self._fsync_dir()
        self._size = read.intact_bytes
        return read

    def _fsync_dir(self) -> None:
        try:
            dfd = os.open(self.path.parent, os.O_RDONLY)
        except OSError:
            return
        try:
            self._fsync(dfd)
        except OSError:
            pass
        finally:
            os.close(dfd)

    def _write_all(self, fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = self._write(fd, view)
            if n <= 0:
                raise OSError(errno.ENOSPC, "no byte written")
            view = view[n:]

    # ----------------------------------------------------------------- writing

    def append(self, event: dict[str, Any]) -> int:
        """Write one event durably (every byte, then fsync) and fold it into the record.
        Returns its sequence number; JournalWriteError (nothing kept) when the disk refuses.
        (Sync "group" / "thread": written only, durable at the next :meth:`durable`.)"""
        self._rewrite()
        return self._append(event)

    def _append(self, event: dict[str, Any]) -> int:
        if "event" not in event:
            raise RecordError(f"journal event {event!r} needs an 'event' field")
        ev = {"seq": self._seq + 1, **{k: v for k, v in event.items() if k not in ("seq", "crc")}}
        self._builder.check(ev)  # never write an event the record cannot take
        line = encode_line(ev)
        try:
            if self._dirty:
                os.ftruncate(self._fd, self._size)
                self._dirty = False
            self._write_all(self._fd, line)
            if self.sync == "each":
                self._fsync(self._fd)
        except OSError as exc:
            self._dirty = True
            try:  # leave nothing of the line behind (it may fail too: then before the next write)
                os.ftruncate(self._fd, self._size)
                self._dirty = False
            except OSError:
                pass
            raise JournalWriteError(self.path, exc) from None
        self._size += len(line)
        self._seq += 1
        self._builder.apply(ev)
        if self.sync == "each":
            self._durable = self._size
        else:
            self._written.append(event)
        return self._seq

    # ----------------------------------------------------------------- group sync

    @property
    def unsynced(self) -> bool:
        """Events appended but not yet known to be on disk (sync "group" / "thread")."""
        return self._durable < self._size or bool(self._lost)

    def durable(self) -> None:
        """Return once every event appended is on disk (one fsync for them all).  When the
        fsync fails the file is cut back to its last durable line and JournalWriteError is
        raised; the events cut off are written again, in order, by the next :meth:`durable`
        or :meth:`append` (so nothing decided from them may be shown until one succeeds)."""
        self._rewrite()
        if not self.unsynced:
            return
        target = self._size
        try:
            if self.sync == "thread":
                with self._cv:
                    self._request_sync()
                    self._cv.wait_for(lambda: self._synced >= target or self._sync_error is not None)
                    exc, self._sync_error = self._sync_error, None
                if exc is not None:
                    raise exc
            else:
                self._fsync(self._fd)
        except OSError as exc:
            lost = self._written
            self._rewind()
            self._lost = lost
            raise JournalWriteError(self.path, exc) from None
        self._durable = target
        self._written = []

    def _rewrite(self) -> None:
        """Write again the events a failed fsync cut off (JournalWriteError: the rest wait)."""
        while self._lost:
            self._append(self._lost[0])
            self._lost.pop(0)

    def begin_sync(self) -> None:
        """Start making the lines written so far durable, on the sync thread (sync "thread";
        otherwise nothing): :meth:`durable` then only waits for it."""
        if self.sync == "thread" and self.unsynced:
            self._request_sync()

    def _request_sync(self) -> None:
        with self._cv:
            if self._syncer is None:
                self._syncer = threading.Thread(target=self._sync_loop, name=f"journal-sync {self.path.name}",
                                                daemon=True)
                self._syncer.start()
            self._requested = self._size
            self._cv.notify_all()

    def _sync_loop(self) -> None:
        """The sync thread: fsync whenever lines were written since the last fsync."""
        while True:
            with self._cv:
                self._cv.wait_for(lambda: self._closing or self._requested > self._synced)
                if self._closing:
                    return
                target = self._requested
            try:
                self._fsync(self._fd)
            except OSError as exc:
                with self._cv:
                    self._sync_error = exc
                    self._requested = self._synced  # asked again by the next write or durable()
                    self._cv.notify_all()
                continue
            with self._cv:
                self._synced = max(self._synced, target)
                self._cv.notify_all()

    def _rewind(self) -> None:
        """Cut the journal back to its last durable line and rebuild the record from the file."""
        try:
            os.ftruncate(self._fd, self._durable)
        except OSError:
            self._dirty = True
        data = os.pread(self._fd, self._durable, 0) if self._durable else b""
        read = parse_journal(data)
        self._builder = RecordBuilder()
        for e in read.events:
            self._builder.apply(e)
        self._seq = len(read.events)
        self._size = self._requested = self._synced = self._durable
        self._written = []

    def events(self) -> list[dict[str, Any]]:
        """Every event the journal holds now (read back from the file)."""
        data = os.pread(self._fd, self._size, 0) if self._size else b""
        return parse_journal(data).events

    def start_match(self, players: tuple[str, str], match_length: int, rules: RuleSettings = RuleSettings(),
                    meta: tuple[tuple[str, str], ...] = ()) -> int:
        """Journal the start of a match (players, length, rules, header tags); returns its sequence number."""
        return self.append({"event": "match", "players": list(players), "match_length": match_length,
                            "rules": rules.to_dict(), "meta": [list(kv) for kv in meta]})

    def start_game(self, game: int, score_before: tuple[int, int], crawford: bool = False) -> int:
        """Journal the start of game ``game`` at ``score_before``; returns its sequence number."""
        return self.append({"event": "game", "game": game, "score_before": list(score_before),
                            "crawford": crawford})

    def action(self, game: int, action: Action) -> int:
        """Journal one action of game ``game`` (a roll, play, cube action, result...); returns its sequence number."""
        return self.append({"event": "action", "game": game, "action": action.to_dict()})

    def input(self, data: dict[str, Any]) -> int:
        """A raw device event (kept for audit; not part of the record)."""
        return self.append({"event": "input", "data": data})

    # ----------------------------------------------------------------- reading

    @property
    def seq(self) -> int:
        """The number of events on disk."""
        return self._seq

    def record(self) -> MatchRecord:
        """The match record as the journal holds it now."""
        return self._builder.record()

    def export(self, path: Union[str, Path]) -> None:
        """Write the record so far as .mat/.txt, .sgf or .json (by extension)."""
        p = Path(path)
        ext = p.suffix.lower()
        rec = self.record()
        if ext == ".sgf":
            from referee.records.sgf import write_sgf
            text = write_sgf(rec)
        elif ext == ".json":
            text = rec.to_json() + "\n"
        elif ext in (".mat", ".txt"):
            from referee.records.matfile import write_mat
            text = write_mat(rec)
        else:
            raise RecordError(f"cannot export to {str(p)!r}: extension must be .mat, .txt, .sgf or .json")
        p.write_text(text, encoding="utf-8")

    def close(self) -> None:
        """Make the written lines durable, stop the sync thread, release the lock and the
        file (again is harmless)."""
        if self._fd >= 0:
            try:
                self.durable()
            except JournalWriteError:
                pass
            with self._cv:
                self._closing = True
                self._cv.notify_all()
            if self._syncer is not None:
                self._syncer.join()
                self._syncer = None
            os.close(self._fd)
            self._fd = -1

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


__all__ = ["Journal", "JournalRead", "JournalError", "JournalLocked", "JournalWriteError", "Damage",
           "RecordBuilder", "read_journal", "parse_journal", "journal_lines", "encode_line", "decode_line",
           "backup_path"]
