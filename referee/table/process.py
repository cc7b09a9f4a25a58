"""The table process's core: one event queue, one place that decides.

:class:`TableCore` takes input events (``referee.events``) one at a time:

1. the event is appended to the journal (``Journal.input``),
2. the referee handles it (pure) and returns its decisions,
3. the new record actions are journaled (``game`` / ``action`` events),
4. the journal is made durable: one fsync for the event's lines, run on the journal's
   sync thread while the screen draws the next frame off-screen (``Journal.begin_sync``,
   ``ScreenSink.prepare``, ``Journal.durable``; ``sync="each"`` fsyncs every line before
   the next instead),
5. only then are the decisions shown: the sinks (log, screen, cube display) get
   them with the new :class:`~referee.view.TableView`.

When that fsync fails the journal file is cut back to its last durable line and play
pauses as for a full disk: the decisions are held, and the lines cut off are written and
fsync'ed again before they are shown.

The record is kept once, in the journal: the referee emits record entries
(``Referee.new_record_actions()``: the match's start, each game's start, the actions) and
the journal keeps and folds them (:mod:`referee.records.builder`).  After a crash the same
journal rebuilds the referee exactly by replaying the journaled input events
(:meth:`TableCore.open`); the replayed referee emits its entries again, and those past the
ones the journal holds (the crash came between an input line and its record lines) are
journaled then.  A full or read-only disk pauses play (:attr:`TableCore.paused`) instead of
deciding anything that is not on disk.  What shows the decisions is :mod:`referee.table.sinks`.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

from referee import events as ev
from referee.decisions import Decision
from referee.records.builder import RecordEntry
from referee.records.journal import Journal, JournalWriteError
from referee.records.record import MatchRecord
from referee.settings import Settings
from referee.table.ahead import BoardsAhead
from referee.table.sinks import Sink
from referee.turn.referee import Referee
from referee.view import TableView

if TYPE_CHECKING:
    from referee.records.scoresheet import Scoresheet

log = logging.getLogger("bgtable.table")


class ReplayMismatch(RuntimeError):
    """A resimulated table produced an event other than the journal's (another seed?)."""


def _comparable(event: Any) -> dict[str, Any]:
    """An event's fields without its time (a resimulation's clock differs)."""
    d = ev.to_dict(event)
    d.pop("t", None)
    return d


PAUSED = "the journal cannot be written"  # the start of the screen's message while play is paused


class TableCore:
    """Journal -> referee -> journal -> sinks, for one event at a time (see the module doc).

    When the journal cannot be written (a full disk, a read-only filesystem) play pauses:
    the event waits in :attr:`pending`, nothing is decided that is not on disk, the sinks
    show the reason, and :meth:`retry` (or the next :meth:`handle`) goes on once writing
    works again."""

    def __init__(self, referee: Referee, journal: Journal, sinks: Sequence[Sink] = (),
                 clock: Callable[[], float] = lambda: 0.0, ahead: Optional[BoardsAhead] = None) -> None:
        self.referee = referee
        self.journal = journal
        self.sinks = list(sinks)
        self.clock = clock
        self.events = 0
        self.decisions = 0
        self._journaled = 0        # record entries the journal held when opened (a replay emits them again)
        self.pending: list[Any] = []     # input events not yet on disk (play paused)
        self._owed: list[RecordEntry] = []  # record entries decided but not yet on disk
        self._held: list[Decision] = []  # decisions not shown until their actions are on disk
        self.paused: Optional[str] = None  # why the journal cannot be written, while it cannot
        self._replay: list[Any] = []     # journaled inputs a resimulation has still to produce
        self.notice = ""           # what resuming found (a damaged journal), shown until play goes on
        self.ahead = ahead if ahead is not None else BoardsAhead()  # the next judgement's boards, built early

    # ------------------------------------------------------------------ set-up

    @classmethod
    def open(cls, path: Union[str, Path], settings: Settings, sinks: Sequence[Sink] = (),
             clock: Callable[[], float] = lambda: 0.0,
             on_warning: Callable[[str], None] = log.warning,
             journal_factory: Callable[[Path], Journal] = Journal, resimulate: bool = False,
             sync: str = "thread") -> "TableCore":
        """Start a new journal at ``path``, or resume the one there: its input events are
        replayed through a fresh referee (nothing is shown while replaying).  A damaged
        journal is trusted up to its damage, the rest kept in a dated backup (the warning
        and the screen say which line and what was kept).  JournalError (locked, not
        writable) goes up.

        ``resimulate`` (the simulated table): the journal's inputs are not replayed now but
        checked against the events the simulation produces again from its start, and decided
        as they come, so the simulation's own state is rebuilt too (ReplayMismatch when they
        differ); the first event past the journal's end is journaled as usual.

        ``sync`` is the journal's (see :class:`~referee.records.journal.Journal`): "thread"
        fsyncs each event's lines once, on the journal's thread, before its decisions show."""
        path = Path(path)
        journal = journal_factory(path)
        try:
            journal.set_sync(sync)
            return cls._resume(journal, settings, sinks, clock, on_warning, resimulate)
        except BaseException:
            journal.close()
            raise

    @classmethod
    def _resume(cls, journal: Journal, settings: Settings, sinks: Sequence[Sink],
                clock: Callable[[], float], on_warning: Callable[[str], None],
                resimulate: bool = False) -> "TableCore":
        path = journal.path
        read = journal.read
        for w in journal.warnings:
            on_warning(f"journal {path}: {w}")
        inputs = [ev.from_dict(e["data"]) for e in read.events if e.get("event") == "input"]
        referee = Referee(settings, clock)
        core = cls(referee, journal, sinks, clock)
        core._journaled = journal.record_entries
        if journal.repair is not None:
            core.notice = f"the journal was damaged at line {journal.repair.damage.line}; kept {journal.repair.kept}"
        if inputs and resimulate:
            core._replay = inputs  # checked against, and decided as, the simulation's events
        else:
            for e in inputs:
                core.decisions += len(referee.handle(e))
            core.events = len(inputs)
            core._replayed()
            try:
                core._flush_owed()
                core._sync()
            except JournalWriteError as exc:
                core._pause(exc)
        if core.notice:
            core._show(referee.view().replace(message=core.notice), [])
        return core

    def _replayed(self) -> None:
        """The journal's inputs are all decided again: the record entries they make past those
        the journal holds are owed (an event journaled but not acted on before the crash)."""
        self._owed = self.referee.new_record_actions()[self._journaled:]

    # ------------------------------------------------------------------ the loop's step

    def handle(self, event: Any) -> list[Decision]:
        """Journal the event, let the referee decide, journal the record, then show.  While
        the journal cannot be written the event waits (see the class doc) and [] is returned."""
        self.pending.append(event)
        return self.retry()

    def retry(self) -> list[Decision]:
        """Journal and decide what waits for the disk, in order; the decisions made (and
        shown).  Nothing is decided or shown that is not on disk."""
        out: list[Decision] = []
        try:
            if self._owed or self._held or self.journal.unsynced:
                self._flush_owed()
                out += self._release()
            while self.pending and self._replay:
                out += self._decide_again(self.pending.pop(0))
            while self.pending:
                event = self.pending[0]
                self.journal.input(ev.to_dict(event))
                self.pending.pop(0)
                decisions = self.referee.handle(event)
                self.events += 1
                self.decisions += len(decisions)
                self._held = list(decisions)
                self._owed += self.referee.new_record_actions()
                self._flush_owed()
                out += self._release()
                self.ahead.after(self.referee)   # while the player thinks: referee.table.ahead
        except JournalWriteError as exc:
            self._pause(exc)
            return out
        if self.paused is not None:
            log.info("the journal %s can be written again; play goes on", self.journal.path)
            self.paused = None
            if not out:
                self._show(self.referee.view(), [])
        return out

    def _decide_again(self, event: Any) -> list[Decision]:
        """One event of a resimulated journal: it must be the journal's next input, which is
        decided (not journaled again, not shown)."""
        journaled = self._replay.pop(0)
        if _comparable(event) != _comparable(journaled):
            raise ReplayMismatch(f"journal input {self.events + 1} is {ev.to_json(journaled)[:160]}, but the "
                                 f"table now produces {ev.to_json(event)[:160]}")
        decisions = self.referee.handle(journaled)
        self.events += 1
        self.decisions += len(decisions)
        if not self._replay:
            self._replayed()
            self._flush_owed()
            self._sync()
        return decisions

    def _pause(self, exc: JournalWriteError) -> None:
        if self.paused != exc.reason:
            log.error("%s; play is paused until it can be written", exc)
        self.paused = exc.reason
        self._show(self.referee.view().replace(
            message=f"{PAUSED}: {exc.reason}. Play is paused and goes on when it can be written",
            choices=()), [])

    def _sync(self) -> None:
        """Wait until the journal has every line written on disk (JournalWriteError when it
        cannot: the lines are written again at the next try)."""
        self.journal.durable()

    def _release(self) -> list[Decision]:
        """Show the held decisions once their lines are on disk (the screen draws its frame
        while the journal syncs, and shows it after)."""
        self.journal.begin_sync()
        view = self.referee.view()
        for sink in self.sinks:
            prepare = getattr(sink, "prepare", None)
            if prepare is not None:
                try:
                    prepare(view, self._held)
                except Exception as exc:  # a broken screen must not stop the referee
                    log.error("output %s failed: %s", type(sink).__name__, exc)
        self._sync()
        decisions, self._held = self._held, []
        self.notice = ""
        self._show(view, decisions)
        return decisions

    def _show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        for sink in self.sinks:
            try:
                sink.show(view, decisions)
            except Exception as exc:  # a broken screen must not stop the referee
                log.error("output %s failed: %s", type(sink).__name__, exc)

    def _flush_owed(self) -> None:
        """Journal the record entries decided so far, oldest first (each leaves the list
        only once it is on disk)."""
        while self._owed:
            self.journal.add(self._owed[0])
            self._owed.pop(0)

    # ------------------------------------------------------------------ output

    def record(self) -> MatchRecord:
        """The match record as the journal holds it."""
        return self.journal.record()

    def export(self, directory: Union[str, Path], stem: str = "match") -> list[Path]:
        """Write the match so far as .mat and .sgf into ``directory`` (and, for a chouette
        session, its scoresheet as ``STEM-scoresheet.csv`` and ``.json``); the paths written."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        out = []
        for ext in (".mat", ".sgf"):
            p = directory / f"{stem}{ext}"
            self.journal.export(p)
            out.append(p)
        settings = self.referee.settings
        if settings.chouette:  # a chouette session: its scoresheet beside the records
            sheet = scoresheet_from_journal(self.journal.path, settings)
            for ext in (".csv", ".json"):
                p = directory / f"{stem}-scoresheet{ext}"
                sheet.save(p)
                out.append(p)
        return out

    @property
    def match_over(self) -> bool:
        """True once the referee has ended the match (or the money session)."""
        return self.referee.state == "match_over"

    def close(self) -> None:
        """Close the journal."""
        self.journal.close()


def scoresheet_from_journal(path: Union[str, Path], settings: Settings) -> Scoresheet:
    """The scoresheet of the session a table journal holds (its inputs replayed through a
    fresh referee with ``settings``, the session's)."""
    from referee.records.journal import read_journal  # noqa: PLC0415
    from referee.records.scoresheet import scoresheet  # noqa: PLC0415

    read = read_journal(path)
    ref = Referee(settings)
    decisions: list[Decision] = []
    for e in read.events:
        if e.get("event") == "input":
            decisions += ref.handle(ev.from_dict(e["data"]))
    return scoresheet(decisions, settings)
