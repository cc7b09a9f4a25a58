"""The table process's core: one event queue, one place that decides.

:class:`TableCore` takes input events (``referee.events``) one at a time:

1. the event is appended to the journal and fsync'ed (``Journal.input``),
2. the referee handles it (pure) and returns its decisions,
3. the new record actions are journaled (``game`` / ``action`` events, fsync'ed),
4. only then are the decisions shown: the sinks (log, screen, cube display) get
   them with the new :class:`~referee.view.TableView`.

After a crash the same journal rebuilds the referee exactly by replaying the
journaled input events (:meth:`TableCore.open`), and the match record by folding
the journaled actions; the two agree, and the tests check that they do.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence, Union

from .. import events as ev
from ..decisions import Decision
from ..journal import Journal, read_journal
from ..protocol import Referee
from ..record import GameEnd, MatchRecord, RuleSettings
from ..settings import Settings
from ..view import TableView

log = logging.getLogger("bgtable.table")


class Sink(Protocol):
    """Something that shows the referee's output: the log, the screen, the cube display."""

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None: ...


@dataclass
class LogSink:
    """Decisions to the log (standard output under systemd: journald keeps it)."""

    printer: Callable[[str], None] = print
    lines: list[str] = field(default_factory=list)

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        for d in decisions:
            line = str(d)
            self.lines.append(line)
            self.printer(line)


class ScreenSink:
    """The pygame table screen (a ``hardware.runner.ScreenRunner``) as an output."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.open = True

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        if self.open:
            self.runner.show(view)
            self.open = self.runner.pump()


class CubeSink:
    """The cube display (a ``hardware.cube.CubeDisplay``) as an output."""

    def __init__(self, display: Any) -> None:
        self.display = display

    def show(self, view: TableView, decisions: Sequence[Decision]) -> None:
        self.display.show(view)


def rules_of(settings: Settings) -> RuleSettings:
    return RuleSettings(crawford=settings.crawford, jacoby=settings.jacoby, beavers=settings.beavers,
                        automatic_doubles=settings.automatic_doubles, cube_limit=settings.cube_limit,
                        early_roll=settings.early_roll)


class TableCore:
    """Journal -> referee -> journal -> sinks, for one event at a time (see the module doc)."""

    def __init__(self, referee: Referee, journal: Journal, sinks: Sequence[Sink] = (),
                 clock: Callable[[], float] = lambda: 0.0) -> None:
        self.referee = referee
        self.journal = journal
        self.sinks = list(sinks)
        self.clock = clock
        self.events = 0
        self.decisions = 0
        self._game_open = 0        # the game number the journal has a "game" event for
        self._ended = 0            # games the journal has a GameEnd for

    # ------------------------------------------------------------------ set-up

    @classmethod
    def open(cls, path: Union[str, Path], settings: Settings, sinks: Sequence[Sink] = (),
             clock: Callable[[], float] = lambda: 0.0,
             on_warning: Callable[[str], None] = log.warning) -> "TableCore":
        """Start a new journal at ``path``, or resume the one there: its input events are
        replayed through a fresh referee (nothing is shown while replaying)."""
        path = Path(path)
        inputs: list[Any] = []
        resumed = path.exists() and path.stat().st_size > 0
        if resumed:
            read = read_journal(path)
            for w in read.warnings:
                on_warning(f"journal {path}: {w}")
            for p in read.problems:
                on_warning(f"journal {path}: {p}")
            for e in read.events:
                if e.get("event") == "input":
                    inputs.append(ev.from_dict(e["data"]))
        journal = Journal(path)
        referee = Referee(settings, clock)
        core = cls(referee, journal, sinks, clock)
        if resumed:
            for e in inputs:
                core.decisions += len(referee.handle(e))
            core.events = len(inputs)
            referee.new_record_actions()  # already in the journal
            rec = journal.record()
            core._game_open = len(rec.games)
            core._ended = sum(1 for g in rec.games if g.result is not None)
            # an event journaled but not acted on before the crash: its actions are missing
            replayed = referee.match_record()
            if sum(len(g.actions) for g in replayed.games) != sum(len(g.actions) for g in rec.games):
                core._catch_up(rec, replayed)
        else:
            journal.start_match((settings.names[0], settings.names[1]), settings.match_to, rules_of(settings))
        return core

    def _catch_up(self, journaled: MatchRecord, replayed: MatchRecord) -> None:
        """Journal the actions of the last input event if the crash came between its
        input line and its action lines (the record must follow the inputs)."""
        for gi, game in enumerate(replayed.games):
            have = journaled.games[gi].actions if gi < len(journaled.games) else ()
            for action in game.actions[len(have):]:
                self._journal(game.number, game.score_before, game.crawford, action)

    # ------------------------------------------------------------------ the loop's step

    def handle(self, event: Any) -> list[Decision]:
        """Journal the event, let the referee decide, journal the record, then show."""
        self.journal.input(ev.to_dict(event))
        decisions = self.referee.handle(event)
        self.events += 1
        self.decisions += len(decisions)
        self._journal_actions()
        view = self.referee.view()
        for sink in self.sinks:
            try:
                sink.show(view, decisions)
            except Exception as exc:  # a broken screen must not stop the referee
                log.error("output %s failed: %s", type(sink).__name__, exc)
        return decisions

    def _journal_actions(self) -> None:
        actions = self.referee.new_record_actions()
        if not actions:
            return
        record = self.referee.match_record()
        for action in actions:
            game = record.games[self._ended] if len(record.games) > self._ended else None
            self._journal(self._ended + 1, game.score_before if game else (0, 0),
                          game.crawford if game else False, action)

    def _journal(self, number: int, score_before: tuple[int, int], crawford: bool, action: Any) -> None:
        """Journal one record action, opening its game in the journal first if needed."""
        if self._game_open < number:
            self.journal.start_game(number, score_before, crawford)
            self._game_open = number
        self.journal.action(number, action)
        if isinstance(action, GameEnd):
            self._ended += 1

    # ------------------------------------------------------------------ output

    def record(self) -> MatchRecord:
        """The match record as the journal holds it."""
        return self.journal.record()

    def export(self, directory: Union[str, Path], stem: str = "match") -> list[Path]:
        """Write the match so far as .mat and .sgf into ``directory``; the paths written."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        out = []
        for ext in (".mat", ".sgf"):
            p = directory / f"{stem}{ext}"
            self.journal.export(p)
            out.append(p)
        return out

    @property
    def match_over(self) -> bool:
        return self.referee.state == "match_over"

    def close(self) -> None:
        self.journal.close()
