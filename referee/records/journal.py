"""The crash-safe journal of a live match: append-only JSON lines, each checked, fsync'ed per event.

Every event is one line (:mod:`referee.records.lines`: its JSON with a CRC-32, ``seq``
counting the lines from 1).  :meth:`Journal.append` writes the line (looping until
every byte is written), ``fsync``s it and only then returns, so the referee acts only on
events that are on disk.  The table (``sync="thread"``) instead writes each line and fsyncs
on a sync thread (:mod:`referee.records.syncer`), all lines of one event at once, and waits
for it (:meth:`Journal.durable`) before it shows what it decided: nothing shown is ever
missing from the disk.  A write that fails (a full disk, a read-only filesystem) raises
:class:`JournalWriteError` and leaves nothing of the line behind.  An open
:class:`Journal` holds an exclusive ``fcntl.flock``: a second process on the same file is
refused with :class:`JournalLocked`.  Events:

* ``{"event": "match", "players": [a, b], "match_length": L, "rules": {...}, "meta": [[k, v], ...]}``
  (at a chouette the table adds ``"chouette": {"players": [...], "box_colour": c, "rotation": r}``,
  :mod:`referee.table.matches`; no such key: a heads-up match, or an old chouette's, told by
  ``referee.table.matches.told_chouette``)
* ``{"event": "game", "game": g, "score_before": [a, b], "crawford": bool}``
* ``{"event": "action", "game": g, "action": <Action.to_dict()>}``  (see :mod:`referee.records.actions`)
* anything else (``"input"`` device events, ``"note"``...) is kept but not part of the record.

The first three are the referee's record entries (:meth:`Journal.add`), folded into the
record by :mod:`referee.records.builder` as they are written and when the journal is read.
What of a journal is trusted, and how reopening one cuts off and backs up a damaged rest,
is :mod:`referee.records.damage` (``bgtable journal check|repair FILE`` shows and does the
same).  The record can be exported to .mat / SGF at any time, also mid-game
(:meth:`Journal.export`).
"""
from __future__ import annotations

import errno
import fcntl
import os
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, Union

from referee.errors import RecordError, RefereeError
from referee.records.actions import Action
from referee.records.builder import GameStart, MatchStart, RecordBuilder, RecordEntry, entry_event
from referee.records.damage import JournalRead, Repair, backup_path, parse_journal
from referee.records.lines import encode_line
from referee.records.record import MatchRecord, RuleSettings
from referee.records.syncer import SyncThread


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
        self._durable = 0       # bytes known to be on disk (sync "group" / "thread")
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
        self._durable = self._size
        self._syncer = SyncThread(lambda: self._fsync(self._fd), f"journal-sync {self.path.name}", self._size)
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
                exc = self._syncer.wait(target)
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
        otherwise nothing), and return once its fsync is under way: :meth:`durable` then
        only waits for it."""
        if self.sync == "thread" and self.unsynced:
            self._syncer.begin(self._size)

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
        self._size = self._durable
        self._syncer.reset(self._durable)
        self._written = []

    def events(self) -> list[dict[str, Any]]:
        """Every event the journal holds now (read back from the file)."""
        data = os.pread(self._fd, self._size, 0) if self._size else b""
        return parse_journal(data).events

    def start_match(self, players: tuple[str, str], match_length: int, rules: RuleSettings = RuleSettings(),
                    meta: tuple[tuple[str, str], ...] = ()) -> int:
        """Journal the start of a match (players, length, rules, header tags); returns its sequence number."""
        return self.append(entry_event(MatchStart(players, match_length, rules, meta), 0))

    def start_game(self, game: int, score_before: tuple[int, int], crawford: bool = False) -> int:
        """Journal the start of game ``game`` at ``score_before``; returns its sequence number."""
        return self.append(entry_event(GameStart(game, score_before, crawford), game))

    def action(self, game: int, action: Action) -> int:
        """Journal one action of game ``game`` (a roll, play, cube action, result...); returns its sequence number."""
        return self.append(entry_event(action, game))

    def add(self, entry: RecordEntry) -> int:
        """Journal one record entry the referee emitted: the match's start, a game's start, or
        an action of the game under way; returns its sequence number."""
        if isinstance(entry, MatchStart):
            return self.start_match(entry.players, entry.match_length, entry.rules, entry.meta)
        if isinstance(entry, GameStart):
            return self.start_game(entry.number, entry.score_before, entry.crawford)
        return self.action(self._builder.game, entry)

    def input(self, data: dict[str, Any]) -> int:
        """A raw device event (kept for audit; not part of the record)."""
        return self.append({"event": "input", "data": data})

    # ----------------------------------------------------------------- reading

    @property
    def seq(self) -> int:
        """The number of events on disk."""
        return self._seq

    @property
    def record_entries(self) -> int:
        """The number of record entries (match, game and action lines) the journal holds."""
        return self._builder.entries

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
            self._syncer.close()
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
