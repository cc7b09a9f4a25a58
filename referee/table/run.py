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
match ends its journal and its .mat/.sgf exports are kept under a timestamped
name and a new match starts.
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
from referee.records.journal import JournalError
from referee.settings import Settings, SettingsError
from referee.table.process import CubeSink, LogSink, ScreenSink, TableCore
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
        for c in reversed(self.closers):
            try:
                (getattr(c, "stop", None) or c.close)()
            except Exception as exc:  # closing must never hide the real error
                log.warning("closing %s: %s", type(c).__name__, exc)


def settings_from(config: Any, dice_reader: bool) -> Settings:
    """The referee's settings: the config's ``[rules]`` (names from ``[players]``, the confidence
    gate from ``[vision] sure``), judging the roll from the move when there is no dice reader."""
    return replace(config.rules, dice_reader=dice_reader)


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
    return directory / "current.jsonl"


def archive(core: TableCore, directory: Path) -> list[Path]:
    """Keep a finished match under a timestamped name; the next match starts a new journal."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    paths = core.export(directory, stem=f"match-{stamp}")
    core.close()
    current = journal_path(directory)
    kept = directory / f"match-{stamp}.jsonl"
    current.rename(kept)
    return [kept, *paths]


def loop(core: TableCore, events: "queue.Queue[Any]", dev: Devices, notifier: Notifier,
         stop: threading.Event, *, max_seconds: Optional[float] = None,
         clock: Callable[[], float] = time.monotonic, retry_seconds: float = 1.0) -> None:
    """The main loop: one event at a time, then buttons, cube blink, screen, watchdog; while
    the journal cannot be written (play paused) it retries every ``retry_seconds``."""
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
        if dev.buttons is not None:
            for press in dev.buttons.poll():
                core.handle(press)
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
    p = Parser(prog="bgtable run", description="Run the table: camera, dice reader, buttons, referee, screen.")
    p.add_argument("--config", required=True, help="the table's TOML config (see hardware/table.example.toml)")
    p.add_argument("--headless", action="store_true", help="no table screen")
    p.add_argument("--max-seconds", type=float, default=None, help="stop after this long (for checks)")
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
    try:
        while not stop.is_set():
            path = journal_path(directory)
            sinks: list[Any] = [LogSink(printer=lambda s: print(s, flush=True))]
            sinks += [CubeSink(dev.cube)] if dev.cube is not None else []
            sinks += [ScreenSink(dev.screen)] if dev.screen is not None else []
            try:
                core = TableCore.open(path, settings, sinks)
            except JournalError as exc:  # locked by another process, or not writable at all
                code = fail(prog, str(exc))
                break
            resumed = core.events > 0
            log.info("%s match in %s (%s)", "resumed the" if resumed else "started a new", path,
                     f"{core.events} events replayed" if resumed else "new journal")
            notifier.ready(f"refereeing; journal {path}")
            loop(core, events, dev, notifier, stop, max_seconds=args.max_seconds)
            if core.match_over:
                for kept in archive(core, directory):
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
