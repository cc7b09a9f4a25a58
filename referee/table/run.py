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
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.records.journal import Journal, JournalError, read_journal
from referee.settings import Settings, SettingsError
from referee.table.process import CubeSink, LogSink, ScreenSink, TableCore
from referee.table.club.link import director_input
from referee.table.sdnotify import Notifier

log = logging.getLogger("bgtable.run")


class DeviceProblem(Exception):
    """A device is missing or failing; the message names it and says what to do."""


@dataclass
class Devices:
    """What :func:`open_devices` could open, and what it could not (with the messages)."""

    camera: Any = None
    dice: Any = None
    buttons: Any = None
    cube: Any = None
    screen: Any = None
    problems: list[str] = field(default_factory=list)
    closers: list[Any] = field(default_factory=list)

    def close(self) -> None:
        """Stop or close every device, last opened first; a failure is logged, never raised."""
        for c in reversed(self.closers):
            try:
                (getattr(c, "stop", None) or c.close)()
            except Exception as exc:  # closing must never hide the real error
                log.warning("closing %s: %s", type(c).__name__, exc)


def settings_from(config: Any, dice_reader: bool) -> Settings:
    """The referee's settings: the config's ``[rules]`` (names from ``[players]``, the confidence
    gate from ``[vision] sure``), judging the roll from the move when there is no dice reader."""
    rules: Settings = config.rules
    return replace(rules, dice_reader=dice_reader)


# --------------------------------------------------------------------------- devices


def open_camera(config: Any, events: "queue.Queue[Any]", memory_path: Optional[Path] = None) -> Any:
    """A thread reading frames into the vision pipeline, putting stable readings on ``events``."""
    try:
        from vision.sources import open_source  # noqa: PLC0415
    except ImportError as exc:
        raise DeviceProblem(f"camera: the vision package cannot load ({exc})") from None
    cam = config.camera
    try:
        source = open_source(cam.spec, *cam.resolution)
    except Exception as exc:
        raise DeviceProblem(
            f"camera: cannot open {config.camera.source!r} (device {config.camera.device}): {exc}. "
            "List the cameras with 'v4l2-ctl --list-devices' (or 'libcamera-hello --list-cameras' on a "
            "Raspberry Pi camera) and set [camera] source/device in the config") from None
    return CameraThread(source, config, events, memory_path)


class CameraThread:
    """Frames -> :class:`vision.stability.StabilityFilter` -> events, on its own thread."""

    def __init__(self, source: Any, config: Any, events: "queue.Queue[Any]",
                 memory_path: Optional[Path] = None, *, start: bool = True) -> None:
        from referee.events import ReaderFault  # noqa: PLC0415
        from vision.reader import BoardReader  # noqa: PLC0415
        from vision.stability import StabilityFilter  # noqa: PLC0415

        self.filter = StabilityFilter(BoardReader(config.vision))
        self.source = source
        self.events = events
        self.told: "queue.Queue[Any]" = queue.Queue()  # positions the referee says the board shows
        self._saved = 0
        self.memory_path = memory_path
        if memory_path is not None and memory_path.exists():
            from vision.memory import BoardMemory  # noqa: PLC0415
            try:
                self.filter.reader.memory = BoardMemory.load(str(memory_path))
            except ValueError as exc:  # a damaged file: learn afresh, and say so
                events.put(ReaderFault(f"camera: {exc}; learning the board afresh", t=time.monotonic()))
        self.stop_flag = threading.Event()
        self.failures = 0
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)
        if start:  # (tests drive step() themselves)
            self.thread.start()

    def _run(self) -> None:
        from referee.events import ReaderFault  # noqa: PLC0415
        while not self.stop_flag.is_set():
            try:
                frame = self.source.read()
            except Exception as exc:
                self.failures += 1
                if self.failures in (1, 50):
                    self.events.put(ReaderFault(f"camera: no frame ({exc})", t=time.monotonic()))
                time.sleep(0.1)
                continue
            if frame is None:
                time.sleep(0.01)
                continue
            self.failures = 0
            self.step(frame, time.monotonic())

    def step(self, frame: Any, t: float) -> None:
        """One frame: through the stability filter (news onto the queue), then learn what the
        referee said the board shows, and keep what was learned beside the journal."""
        result = self.filter.feed(frame, t)
        if result is not None:
            self.events.put(result)
        self._learn_told()

    def known(self, board: Any) -> None:
        """The referee says the board shows ``board`` (Dark on roll); learned on the camera thread."""
        self.told.put(board)

    def _learn_told(self) -> None:
        from referee.board import reading_of  # noqa: PLC0415
        learned = False
        while not self.told.empty():
            board = self.told.get_nowait()
            learned = self.filter.known(reading_of(board)) or learned
        if (learned or self.filter.learned != self._saved) and self.memory_path is not None \
                and self.filter.reader.memory is not None:
            self._saved = self.filter.learned
            self.filter.reader.memory.save(str(self.memory_path))

    def close(self) -> None:
        """Stop the camera thread (waiting up to 2 s) and close the frame source."""
        self.stop_flag.set()
        if self.thread.is_alive():
            self.thread.join(timeout=2)
        close = getattr(self.source, "close", None) or getattr(self.source, "release", None)
        if close:
            close()


def open_dice(config: Any, events: "queue.Queue[Any]") -> Any:
    """The dice link the ``[dice]`` section names, connected (DeviceProblem when it cannot be)."""
    url = config.dice.url
    if url is None:
        raise DeviceProblem("dice reader: no [dice] port or usb_vid/usb_pid in the config")
    if url.startswith("/") and not Path(url).exists():
        raise DeviceProblem(f"dice reader: port {url!r} does not exist; is the reader plugged in? "
                            "('ls -l /dev/bgtable-dice /dev/ttyACM*'; the udev rule hardware/99-bgtable-dice.rules "
                            "gives it a stable name)")
    try:
        from firmware_bridge.link import DiceLink  # noqa: PLC0415
        link = DiceLink(url, events=events).start()
    except Exception as exc:
        raise DeviceProblem(
            f"dice reader: cannot open {url!r}: {exc}. Check the cable and 'ls -l /dev/bgtable-dice "
            "/dev/ttyACM*'; a port busy with another program is freed by closing it (see 'fuser PORT')") from None
    if not link.wait_connected(3.0):
        link.stop()
        raise DeviceProblem(f"dice reader: no answer on {url!r} within 3 s; check that the reader is "
                            "flashed (hardware/README.md) and the baud rate is 115200")
    return link


def open_devices(config: Any, events: "queue.Queue[Any]", *, headless: bool = False,
                 camera: bool = True) -> Devices:
    """Every device the config names; problems are collected, not raised (except the camera)."""
    dev = Devices()
    if camera:
        # what the camera learned of this board is kept beside the journal (vision.memory)
        memory = Path(config.journal.directory) / "board-memory.npz"
        dev.camera = open_camera(config, events, memory)  # no camera: DeviceProblem goes up
        dev.closers.append(dev.camera)
    try:
        dev.dice = open_dice(config, events)
        dev.closers.append(dev.dice)
    except DeviceProblem as exc:
        dev.problems.append(f"{exc}. Going on without it: the roll is inferred from the move "
                            "(camera only); players confirm the move with the confirm action")
    try:
        from hardware.devices import build_buttons  # noqa: PLC0415
        if config.buttons.dark or config.buttons.light:
            dev.buttons = build_buttons(config)
            dev.closers.append(dev.buttons)
    except Exception as exc:
        dev.problems.append(
            f"buttons: {exc}. No GPIO pin factory: on a Raspberry Pi 5 install lgpio "
            "('sudo apt install python3-lgpio', venv with --system-site-packages) or set "
            "GPIOZERO_PIN_FACTORY. Going on without buttons")
    try:
        if config.cube_display.type != "none":
            from hardware.devices import build_cube_display  # noqa: PLC0415
            dev.cube = build_cube_display(config)
            dev.closers.append(dev.cube)
    except Exception as exc:
        dev.problems.append(f"cube display ({config.cube_display.type}): {exc}. Check the wiring and "
                            "'i2cdetect -y 1' / SPI enabled in raspi-config. Going on without it")
    if not headless:
        try:
            from hardware.runner import ScreenRunner  # noqa: PLC0415
            dev.screen = ScreenRunner(config.screen)
            dev.closers.append(dev.screen)
        except Exception as exc:
            dev.problems.append(f"screen: {exc}. Going on without the table screen")
    return dev


# --------------------------------------------------------------------------- the loop


def journal_path(directory: Path) -> Path:
    """The live journal in ``directory``: ``current.jsonl``."""
    return directory / "current.jsonl"


class HeaderJournal(Journal):
    """A journal whose match line carries the record's header tags (``[match]`` and the date)."""

    def __init__(self, path: Path, header: tuple[tuple[str, str], ...] = (), **kw: Any) -> None:
        super().__init__(path, **kw)
        self.header = header

    def start_match(self, players: tuple[str, str], match_length: int, rules: Any = None,
                    meta: tuple[tuple[str, str], ...] = ()) -> int:
        """The match line, with this journal's header when none is given."""
        from referee.records.record import RuleSettings  # noqa: PLC0415
        return super().start_match(players, match_length, rules if rules is not None else RuleSettings(),
                                   meta or self.header)


@dataclass(frozen=True)
class JournalMatch:
    """What a journal's match line says: the players, the match length, the header tags."""

    players: tuple[str, str]
    match_length: int
    meta: tuple[tuple[str, str], ...] = ()
    inputs: int = 0  # the journal's input events (0: nothing played yet)


def journal_match(path: Path) -> Optional[JournalMatch]:
    """The match in the journal at ``path`` (None when there is no journal or no match line yet)."""
    if not path.exists():
        return None
    read = read_journal(path)
    for e in read.events:
        if e.get("event") == "match":
            return JournalMatch(tuple(e.get("players", ("", ""))), int(e.get("match_length", 0)),
                                tuple(tuple(kv) for kv in e.get("meta", ())),
                                sum(1 for x in read.events if x.get("event") == "input"))
    return None


def _length(n: int) -> str:
    return "money play" if n == 0 else f"a {n}-point match"


def differences(config: Any, settings: Settings, found: JournalMatch) -> list[str]:
    """How the config's match differs from the journal's: players, match length, event, round, table."""
    out = []
    if tuple(settings.names) != tuple(found.players) and not settings.chouette:
        out.append(f"players {found.players[0]} - {found.players[1]} in the journal, "
                   f"{settings.names[0]} - {settings.names[1]} in the config")
    if settings.match_to != found.match_length:
        out.append(f"{_length(found.match_length)} in the journal, {_length(settings.match_to)} in the config")
    have = {k.lower(): v for k, v in found.meta}
    for key, tag in (("event", "Event"), ("round", "Round"), ("table", "Table"), ("site", "Site")):
        want = getattr(config.match, key, "") if getattr(config, "match", None) is not None else ""
        if want != have.get(tag.lower(), ""):
            out.append(f"{key} {have.get(tag.lower(), '')!r} in the journal, {want!r} in the config")
    return out


def resumed_settings(settings: Settings, found: JournalMatch) -> Settings:
    """The settings that replay the journal's match: its players and match length (the rest the config's)."""
    if settings.chouette:
        return settings
    return replace(settings, names=found.players, match_to=found.match_length)


def _file_part(name: str) -> str:
    """A player's name as part of a file name (letters, digits, - and _ kept; spaces become _)."""
    out = "".join(c if c.isalnum() or c in "-_" else "_" if c.isspace() else "" for c in name.strip())
    return out or "player"


def archive_stem(record: Any, now: datetime, finished: bool = True) -> str:
    """The kept match's file name: the date (its start, from the header, else ``now``), the time and
    the players, e.g. ``2026-12-01-1930-Ann-Bob`` (``-unfinished`` when abandoned)."""
    date = record.meta_value("EventDate").replace(".", "-") or now.strftime("%Y-%m-%d")
    time_ = record.meta_value("EventTime").replace(".", "") or now.strftime("%H%M")
    stem = f"{date}-{time_}-{_file_part(record.players[0])}-{_file_part(record.players[1])}"
    return stem if finished else f"{stem}-unfinished"


def archive(core: TableCore, directory: Path, now: Optional[datetime] = None,
            on_kept: Optional[Callable[[TableCore, str, list[Path]], list[Path]]] = None) -> list[Path]:
    """Keep the match (finished or abandoned) under a name with its players and date; the next
    match starts a new journal.  The paths kept: the journal, then its exports (and what
    ``on_kept`` made of them, before the journal closes: the analysis)."""
    now = now or datetime.now()
    stem = archive_stem(core.record(), now, core.match_over)
    n = 1
    while any((directory / f"{stem}{'' if n == 1 else f'-{n}'}{ext}").exists() for ext in (".jsonl", ".mat", ".sgf")):
        n += 1  # two matches of the same players started in the same minute
    stem = stem if n == 1 else f"{stem}-{n}"
    paths = core.export(directory, stem=stem)
    paths += on_kept(core, stem, paths) if on_kept is not None else []
    core.close()
    current = journal_path(directory)
    kept = directory / f"{stem}.jsonl"
    current.rename(kept)
    for leftover in (directory / "current.mat", directory / "current.sgf"):
        leftover.unlink(missing_ok=True)  # the stopped match's exports, now kept under its name
    return [kept, *paths]


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
        while director:
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


def club_outputs(core: TableCore, config: Any, sinks: Sequence[Any]) -> list[dict[str, Any]]:
    """The tournament clock (``[clock]``) and the club link (``[club]``) as more outputs of
    ``core``; the list the club's director actions arrive in (empty without a club)."""
    from referee.table.club.link import open_link  # noqa: PLC0415
    from referee.table.clock_sink import ClockSink  # noqa: PLC0415
    director: list[dict[str, Any]] = []
    if config.clock.enabled:
        def timed_out(flag: Any) -> None:
            msg = (f"{flag.player}'s time is up: "
                   + ("the match is lost on time (the director ends it)"
                      if flag.outcome != "penalty" else f"{flag.points} penalty point(s)"))
            log.warning("%s", msg)
            tell(sinks, core.referee.view(), msg)
        core.sinks.append(ClockSink(core.journal, config.clock, time.monotonic, on_timeout=timed_out))
    try:
        club = open_link(config.club, core.journal, config.clock, on_director=director.append)
    except Exception as exc:  # the broker is away or refuses us: the table works alone, and says so
        log.warning("club broker %s: %s; the table goes on alone and publishes when it is back",
                    config.club.broker, exc)
        club = None
    if club is not None:
        core.sinks.append(club)
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


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``bgtable run``: run the real table from its TOML config; returns the exit status."""
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
                                      journal_factory=lambda p, h=header: HeaderJournal(p, h))  # type: ignore[misc]
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
                                      journal_factory=lambda p, h=header: HeaderJournal(p, h))  # type: ignore[misc]
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
            director = club_outputs(core, config, sinks)
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
