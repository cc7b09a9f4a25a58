"""``bgtable run --config table.toml``: the referee process of a real table.

Camera -> vision -> referee; dice reader link -> referee; buttons -> referee;
referee -> cube display, screen, journal and record files.  Device threads (the
camera reader, the dice link) put input events on ONE queue; the main loop takes
them one at a time and hands each to :class:`~referee.table.process.TableCore`,
the one place that decides.  It polls the buttons, blinks the cube, keeps the
window alive and pings systemd's watchdog between events.

A missing or failing device gives one message that names the device and what to
do, and the table goes on in a degraded mode where the rules allow: without the
dice reader the roll is inferred from the move (camera only); without buttons,
cube display or screen the referee still judges and records.  Without a camera
the referee cannot see the moves, so the process stops with the fix.

The journal lives in ``[journal] directory`` as ``current.jsonl``; the same
command after a crash or power cut continues the same game from it.  When a
match ends its journal and its .mat/.sgf exports are kept under a name with the
players and the date (``2026-12-01-1930-Ann-Bob.jsonl``, ``.mat``, ``.sgf``) and the
next match starts from the config.  ``--new-match`` does the same at start-up for
the match in the journal, finished or not (an unfinished one is kept as
``...-Ann-Bob-unfinished``).  Resuming a journal whose players or match length are
not the config's goes on with the journal's match (its events only replay in it)
and says so in the log and on the screen, with the fix (``--new-match``).

The config's ``[match]`` (event, round, table, site) and the start date go into the
journal's match line, and from it into the .mat header and the SGF root.

The buttons' ``next`` / ``confirm`` answer the screen's choices through the
panel's :class:`hardware.chooser.Chooser`, which is one more output here: it sees every
view, and the screen draws the choice it highlights.
"""
from __future__ import annotations

import logging
import os
import queue
import signal
import sys
import threading
import time
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.records.journal import JournalError
from referee.settings import SettingsError
from referee.table.process import TableCore
from referee.table.sinks import CubeSink, LogSink, ScreenSink
from referee.table.sdnotify import Notifier
from referee.table.lean import settle_heap
from referee.table.devices import DeviceProblem, Devices, open_devices, settings_from
from referee.table.matches import (archive, chouette_of, differences, journal_match, journal_path,
                                   HeaderJournal, resumed_settings)
from referee.turn.director import AT_REST

log = logging.getLogger("bgtable.run")


class ChoiceScreenSink(ScreenSink):
    """The table screen with the buttons' highlighted choice (``hardware.chooser.Chooser``)."""

    def __init__(self, runner: Any, chooser: Any) -> None:
        super().__init__(runner)
        self.chooser = chooser

    def frame(self, view: Any, decisions: Sequence[Any]) -> tuple[Any, Optional[int]]:
        """The view as the chooser decorates it (its choices, the highlighted one)."""
        self.chooser.show(view, decisions)
        shown, highlight = self.chooser.decorate()
        self.chooser.changed = False
        return shown, highlight

    def redraw(self) -> None:
        """Draw the last view again with the current highlight (after a "next" press)."""
        shown, highlight = self.chooser.decorate()
        self.chooser.changed = False
        if shown is not None and self.open:
            self.runner.show(shown, highlight)
            self.open = self.runner.pump()


class ChooserSink:
    """The buttons' chooser as an output when there is no screen (it must still see every view)."""

    def __init__(self, chooser: Any) -> None:
        self.chooser = chooser

    def show(self, view: Any, decisions: Sequence[Any]) -> None:
        """Let the buttons' chooser see the choices the referee asks for now."""
        self.chooser.show(view, decisions)


def chouette_members(referee: Any) -> tuple[Sequence[str], Sequence[str]]:
    """The chouette team in order and the members still to answer the box's double (or none)."""
    c = getattr(referee, "chouette", None)
    if c is None or not c.offer or c.offer[0] != "box":
        return (), ()
    return tuple(c.team), tuple(c.pending)


def output_sinks(dev: Devices, core_of: Callable[[], Any]) -> list[Any]:
    """The log, cube display, and screen (with the buttons' highlight) outputs of the devices."""
    sinks: list[Any] = [LogSink(printer=lambda s: print(s, flush=True))]
    sinks += [CubeSink(dev.cube)] if dev.cube is not None else []
    chooser = getattr(dev.buttons, "chooser", None)
    if chooser is not None:
        chooser.members = lambda: chouette_members(core_of().referee)
    if dev.screen is not None:
        sinks.append(ChoiceScreenSink(dev.screen, chooser) if chooser is not None else ScreenSink(dev.screen))
    elif chooser is not None:
        sinks.append(ChooserSink(chooser))
    return sinks


def tell(sinks: Sequence[Any], view: Any, message: str) -> None:
    """Show ``message`` on the table's outputs (the screen's banner) with ``view``."""
    for sink in sinks:
        if isinstance(sink, LogSink):
            continue  # the log has it already
        try:
            sink.show(view.replace(message=message), [])
        except Exception as exc:  # a broken screen must not stop the table
            log.error("output %s failed: %s", type(sink).__name__, exc)


def loop(core: TableCore, events: "queue.Queue[Any]", dev: Devices, notifier: Notifier,
         stop: threading.Event, *, max_seconds: Optional[float] = None,
         clock: Callable[[], float] = time.monotonic, retry_seconds: float = 1.0,
         director: Optional[list[dict[str, Any]]] = None) -> None:
    """The main loop: one event at a time, then buttons, cube blink, screen, watchdog; while
    the journal cannot be written (play paused) it retries every ``retry_seconds``.
    ``director``: the club's director actions, journaled by the club link, waiting to reach
    the referee (a pause calls the director, a resume lets play go on)."""
    start = last_ping = last_retry = clock()
    told = None
    if dev.board_lessons is None:   # the director's orders to learn the board: a resumed journal's were carried out
        dev.board_lessons = core.referee.board_lessons
    while not stop.is_set():
        try:
            event = events.get(timeout=0.02)
        except queue.Empty:
            event = None
        if event is not None:
            core.handle(event)
        elif core.paused is not None and clock() - last_retry >= retry_seconds:
            last_retry = clock()
            core.retry()  # the journal could not be written: try again now and then
        while director:  # (only with a club: its link, and the ssl module, are not loaded without one)
            from referee.table.club.link import director_input  # noqa: PLC0415
            order = director_input(director.pop(0), core.referee.view(), t=clock())
            if order is not None:
                core.handle(order)
        if dev.buttons is not None:
            for press in dev.buttons.poll():
                core.handle(press)
            if getattr(getattr(dev.buttons, "chooser", None), "changed", False):
                for sink in core.sinks:  # a "next" press: the screen shows the new highlight
                    if isinstance(sink, ChoiceScreenSink):
                        sink.redraw()
        if dev.camera is not None and told != core.referee.pos:
            told = core.referee.pos  # the board shows the referee's position: the camera learns its look
            dev.camera.known(told)
        if dev.camera is not None:
            _learn_as_it_stands(core.referee, dev)
        if dev.cube is not None:
            dev.cube.tick()
        if dev.screen is not None and not dev.screen.pump():
            stop.set()
        if any(not getattr(sink, "open", True) for sink in core.sinks):
            stop.set()  # the window was closed while drawing a verdict
        now = clock()
        if notifier.watchdog_interval and now - last_ping >= notifier.watchdog_interval:
            notifier.watchdog()
            last_ping = now
        if core.match_over or (max_seconds is not None and now - start >= max_seconds):
            return


def _learn_as_it_stands(referee: Any, dev: Devices) -> None:
    """The director's new order to learn the board as it stands goes to the camera, with the
    referee's position; once play goes on (the referee leaves the states where the board stands
    as its position) an order the camera may not have carried out yet is dropped."""
    if dev.board_lessons != referee.board_lessons:
        dev.board_lessons = referee.board_lessons
        dev.camera.learn_as_it_stands(referee.pos)
        dev.order_open = True
    elif dev.order_open and referee.state not in AT_REST:
        dev.camera.learn_as_it_stands(None)
        dev.order_open = False


def club_outputs(core: TableCore, config: Any, sinks: Sequence[Any],
                 events: "Optional[queue.Queue[Any]]" = None, camera: Any = None) -> list[dict[str, Any]]:
    """The tournament clock (``[clock]``) and the club link (``[club]``) as more outputs of
    ``core``; the list the club's director actions arrive in (empty without a club).  A
    time-out goes onto ``events`` for the referee to apply (:mod:`referee.turn.timeout`); with
    a ``camera``, its last frame goes to the club when something waits (:mod:`.club.frames`)."""
    from referee.table.clock_sink import ClockSink, timeout_event  # noqa: PLC0415
    director: list[dict[str, Any]] = []
    if config.clock.enabled:
        def timed_out(flag: Any) -> None:
            msg = (f"{flag.player}'s time is up: "
                   + ("the match is lost on time" if flag.outcome != "penalty"
                      else f"{flag.points} penalty point(s)"))
            log.warning("%s", msg)
            if events is not None:
                events.put(timeout_event(flag))  # the referee applies it (journaled, replayed)
            else:
                tell(sinks, core.referee.view(), msg)
        core.sinks.append(ClockSink(core.journal, config.clock, time.monotonic, on_timeout=timed_out))
    club = None
    try:
        if config.club.enabled:  # the link (and ssl) is loaded only for a club: a table alone never needs it
            from referee.table.club.link import open_link  # noqa: PLC0415
            club = open_link(config.club, core.journal, config.clock, on_director=director.append)
    except Exception as exc:  # the broker is away or refuses us: the table works alone, and says so
        log.warning("club broker %s: %s; the table goes on alone and publishes when it is back",
                    config.club.broker, exc)
        club = None
    if club is not None:
        core.sinks.append(club)
        if camera is not None:
            from referee.table.club.frames import FrameSink, frame_source  # noqa: PLC0415
            core.sinks.append(FrameSink(club.broker, config.club.club, config.club.table, frame_source(camera),
                                        core.journal))
        log.info("publishing to the club's broker %s as table %s", config.club.broker, config.club.table)
    return director


def analyse_match(core: TableCore, stem: str, kept: list[Path]) -> list[Path]:
    """A finished match (``kept``: its files) analysed by GNU Backgammon (``gnubg -t``), kept
    beside them as ``STEM-analysis.json``/``.txt`` and noted in its journal (the club publishes
    it); nothing, with a log line, when gnubg is not installed or the analysis fails."""
    from referee.table.club.analysis import analyse, gnubg_path, journal_line  # noqa: PLC0415
    mat = next((p for p in kept if p.suffix == ".mat"), None)
    if mat is None or gnubg_path() is None:
        log.info("gnubg is not installed: the match is not analysed")
        return []
    try:
        a = analyse(mat)
        files = a.save(mat.parent, stem=stem)
        core.journal.append(journal_line(a, files))
        return files
    except Exception as exc:  # an analysis is a courtesy: a failure never stops the table
        log.warning("the match could not be analysed: %s", exc)
        return []


def check_directory(directory: Path) -> str:
    """Why ``[journal] directory`` cannot hold the journal ("" when it can; it is created)."""
    if directory.exists() and not directory.is_dir():
        return (f"[journal] directory {str(directory)!r} is a file, not a directory; "
                "set [journal] directory to a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return (f"[journal] directory {str(directory)!r} cannot be created: {exc.strerror or exc}; "
                "set [journal] directory to a folder this user can write")
    if not os.access(directory, os.W_OK | os.X_OK):
        return (f"[journal] directory {str(directory)!r} is not writable by this user; "
                "fix its permissions or choose another folder")
    return ""


def steady_malloc() -> None:
    """A fixed glibc mmap threshold (256 KiB): a camera frame's big buffers then go back to the
    system when freed; the dynamic threshold grows with them and keeps them in the heap (about
    5 MB of the table's peak).  Nothing on a C library without ``mallopt``."""
    try:
        import ctypes  # noqa: PLC0415
        if ctypes.CDLL("libc.so.6").mallopt(-3, 256 * 1024) != 1:  # M_MMAP_THRESHOLD
            return
    except (OSError, AttributeError):
        return
    try:
        from vision.buffers import note_fixed_mmap  # noqa: PLC0415
    except ImportError:   # (no camera then: the table says so when it opens one)
        return
    note_fixed_mmap(256 * 1024)   # the reader then avoids large fresh arrays where it can


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``bgtable run``: run the real table from its TOML config; returns the exit status."""
    steady_malloc()
    p = Parser(prog="bgtable run", description="Run the table: camera, dice reader, buttons, referee, screen.")
    p.add_argument("--config", required=True, help="the table's TOML config (see hardware/table.example.toml)")
    p.add_argument("--headless", action="store_true", help="no table screen")
    p.add_argument("--max-seconds", type=float, default=None, help="stop after this long (for checks)")
    p.add_argument("--new-match", action="store_true",
                   help="keep the journal's match (finished or not) under its players' names and the date, "
                        "and start the next match from the config")
    args = p.parse_args(argv)
    prog = p.prog
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stdout)
    try:
        from referee.table.config import load  # noqa: PLC0415
        config = load(args.config)
    except Exception as exc:  # the config's errors name the key and the bad value
        return fail(prog, str(exc))
    for note in config.notes:  # e.g. [players] names at a chouette, which takes them from [chouette]
        log.warning("%s", note)
    directory = Path(config.journal.directory)
    problem = check_directory(directory)
    if problem:
        return fail(prog, problem)
    events: "queue.Queue[Any]" = queue.Queue()
    try:
        dev = open_devices(config, events, headless=args.headless)
    except DeviceProblem as exc:
        return fail(prog, str(exc))
    for problem in dev.problems:
        log.warning("%s", problem)
    try:
        settings = settings_from(config, dice_reader=dev.dice is not None)
    except SettingsError as exc:
        dev.close()
        return fail(prog, str(exc))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    notifier = Notifier()
    code = 0
    holder: list[Any] = []
    sinks = output_sinks(dev, lambda: holder[-1])
    new_match = args.new_match
    try:
        while not stop.is_set():
            path = journal_path(directory)
            try:
                found = journal_match(path)
            except JournalError as exc:
                code = fail(prog, str(exc))
                break
            match_settings, told = settings, []
            if found is not None:
                told = differences(config, settings, found)
            header = config.match.header(datetime.now())
            try:
                if found is not None:
                    match_settings = resumed_settings(settings, found)
                core = TableCore.open(path, match_settings, sinks,
                                      journal_factory=lambda p, h=header, c=chouette_of(match_settings):
                                      HeaderJournal(p, h, c))  # type: ignore[misc]
            except JournalError as exc:  # locked by another process, or not writable at all
                code = fail(prog, str(exc))
                break
            except SettingsError as exc:
                code = fail(prog, f"the journal's match cannot be resumed with this config: {exc}; "
                                  "start the next match with --new-match")
                break
            if core.events == 0 and found is not None and told:
                core.close()  # a match line but nothing played yet: the config's match starts instead
                log.info("the journal %s had no play yet (%s): starting the config's match", path, "; ".join(told))
                path.unlink()
                found, told, match_settings = None, [], settings
                core = TableCore.open(path, settings, sinks,
                                      journal_factory=lambda p, h=header, c=chouette_of(settings):
                                      HeaderJournal(p, h, c))  # type: ignore[misc]
            holder.append(core)
            if new_match and core.events > 0:
                new_match = False
                for kept in archive(core, directory):
                    log.info("kept %s", kept)
                continue  # the next match, from the config
            new_match = False
            resumed = core.events > 0
            log.info("%s match in %s (%s)", "resumed the" if resumed else "started a new", path,
                     f"{core.events} events replayed" if resumed else "new journal")
            if resumed and told:
                msg = ("The journal's match is not the config's (" + "; ".join(told) + "): going on with the "
                       "journal's match. To start the config's, stop and run 'bgtable run --new-match'")
                log.warning("%s", msg)
                tell(sinks, core.referee.view(), msg)
            director = club_outputs(core, config, sinks, events, dev.camera)
            settle_heap()  # set up: what lives as long as the table is not walked by every full collection
            notifier.ready(f"refereeing; journal {path}")
            loop(core, events, dev, notifier, stop, max_seconds=args.max_seconds, director=director)
            if core.match_over:
                for kept in archive(core, directory, on_kept=analyse_match):
                    log.info("kept %s", kept)
            else:
                if core.pending:
                    log.error("stopping with %d event(s) the journal could not take (%s): they are not recorded",
                              len(core.pending), core.paused)
                try:
                    core.export(directory, stem="current")
                except OSError as exc:  # a full disk: the journal still holds the match
                    log.error("cannot write the .mat/.sgf exports in %s: %s", directory, exc)
                core.close()
                break
    except KeyboardInterrupt:
        code = 130
    finally:
        notifier.stopping()
        dev.close()
    return code
