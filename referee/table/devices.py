"""The real table's devices for ``bgtable run``: the camera thread, the dice link, the buttons,
the cube display and the screen, each opened from the config.  A device that cannot open gives
one message that names it and says what to do (:class:`DeviceProblem`); :func:`open_devices`
collects what opened and what did not, so the table can go on in a degraded mode."""
from __future__ import annotations

import logging
import os
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from referee.settings import Settings

log = logging.getLogger("bgtable.run")
SETUP_PICTURE = "board-setup.png"   # beside the journal: the board as the camera first laid it out


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
    #: the director's orders to learn the board (:attr:`referee.turn.table_state.TableState.board_lessons`)
    #: the camera has been given; None until the run loop first sees the referee (a resumed journal's
    #: orders were carried out before the restart)
    board_lessons: Optional[int] = None
    #: the last order may not be carried out yet: dropped once play goes on (the run loop)
    order_open: bool = False

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
        width, height = cam.resolution
        source = open_source(cam.spec, width, height, zoom=cam.zoom)
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
        from referee.events import CameraReport  # noqa: PLC0415
        from vision.reader import BoardReader  # noqa: PLC0415
        from vision.stability import StabilityFilter  # noqa: PLC0415

        self.config = config
        self.filter = StabilityFilter(BoardReader(config.vision))
        self.dice_watch: Any = None  # the dice finder, run when the board is still (``[vision] dice``)
        if getattr(config.vision, "dice", True):
            from vision.dice_watch import DiceWatch  # noqa: PLC0415
            self.dice_watch = DiceWatch()
        self.source = source
        self.events = events
        # positions the referee says the board shows (False), and the director's orders to learn the
        # board as it stands (True), in the order given
        self.told: "queue.Queue[tuple[bool, Any]]" = queue.Queue()
        self._saved = 0
        self.memory_path = memory_path
        if memory_path is not None and memory_path.exists():
            from vision.memory import BoardMemory  # noqa: PLC0415
            try:
                self.filter.reader.memory = BoardMemory.load(str(memory_path))
            except ValueError as exc:  # a damaged file: learn afresh, and say so
                events.put(CameraReport(f"{exc}; learning the board afresh", t=time.monotonic()))
        self.stop_flag = threading.Event()
        self.failures = 0
        self.last_frame: Any = None  # the last frame read (the club shows it with a dispute)
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)
        if start:  # (tests drive step() themselves)
            self.thread.start()

    def _run(self) -> None:
        from referee.events import CameraReport  # noqa: PLC0415
        while not self.stop_flag.is_set():
            try:
                frame = self.source.read()
            except Exception as exc:
                self.failures += 1
                if self.failures in (1, 50):
                    self.events.put(CameraReport(f"no frame ({exc})", t=time.monotonic()))
                time.sleep(0.1)
                continue
            if frame is None:
                time.sleep(0.01)
                continue
            self.failures = 0
            self.step(frame, time.monotonic())

    def step(self, frame: Any, t: float) -> None:
        """One frame: through the stability filter (news onto the queue), the dice watched (their
        view onto the queue when it changes), then learn what the referee said the board shows
        (and what the director ordered), keep what was learned beside the journal, and put what
        the filter says the table should be told onto the queue."""
        self.last_frame = frame
        corners = self.filter.reader.corners
        result = self.filter.feed(frame, t)
        self._found_again(corners, t)
        if result is not None:
            self.events.put(result)
        if self.dice_watch is not None:
            self._watch_dice(frame, t)
        self._learn_told()
        report = self.filter.take_report()   # e.g. the still board unlike the first position told
        if report is not None:
            from referee.events import CameraReport  # noqa: PLC0415
            self.events.put(CameraReport(report, t=t))

    def _found_again(self, before: Any, t: float) -> None:
        """The board found again at new corners after the camera or the board moved
        (:meth:`vision.reader.BoardReader.read`): the players and the director are told, as the
        readings from now on come from a view the table chose itself."""
        reader = self.filter.reader
        if reader.corner_source != "found again" or reader.corners is before or before is None:
            return   # (every frame: nothing imported or computed before this)
        import numpy as np  # noqa: PLC0415
        from referee.events import CameraReport  # noqa: PLC0415
        moved = float(np.max(np.hypot(*(np.asarray(reader.corners, float) - np.asarray(before, float)).T)))
        self.events.put(CameraReport(f"the board moved in the picture (up to {moved:.0f} px) and was found "
                                     "again; check that the screen shows the board as it stands", t=t))

    def _watch_dice(self, frame: Any, t: float) -> None:
        """The dice finder runs once the board is still; a new view of the dice is a ``DiceSeen``."""
        from referee.events import DiceSeen  # noqa: PLC0415
        from vision.dice import to_readings  # noqa: PLC0415
        reader = self.filter.reader
        if reader.setup is None:  # which half is whose is not known yet (dark_home = "auto")
            return
        dice = self.dice_watch.feed(frame, reader.corners, self.config.vision.shape, reader.setup)
        if dice is not None:
            self.filter.dice_seen(dice)   # a die over the learned slots is a die, not an arm
            self.events.put(DiceSeen(to_readings(dice, reader.setup), t=t))

    def known(self, board: Any) -> None:
        """The referee says the board shows ``board`` (Dark on roll); learned on the camera thread."""
        self.told.put((False, board))

    def learn_as_it_stands(self, board: Any) -> None:
        """The director says the board, as it stands, shows ``board`` (the referee's position, Dark
        on roll): the next still frame teaches the board's look whatever the camera reads there
        (:meth:`vision.lessons.Lessons.learn_as_it_stands`), on the camera thread.
        None: play went on, and an order not yet carried out is dropped."""
        self.told.put((True, board))

    def _learn_told(self) -> None:
        from referee.board import reading_of  # noqa: PLC0415
        learned = False
        while not self.told.empty():
            ordered, board = self.told.get_nowait()
            if ordered:
                self.filter.learn_as_it_stands(None if board is None else reading_of(board))
            else:
                learned = self.filter.known(reading_of(board)) or learned
        if (learned or self.filter.learned != self._saved) and self.memory_path is not None \
                and self.filter.reader.memory is not None:
            first = self._saved == 0
            self._saved = self.filter.learned
            self.filter.reader.memory.save(str(self.memory_path))
            if first:
                self._draw_setup()

    def _draw_setup(self) -> None:
        """The board as the camera lays it out, drawn over the frame it first learned the board from
        (:mod:`vision.show`), beside the journal as ``board-setup.png``: the director checks by eye that
        each point's triangle lies on the board's (corners, bar width and board height right)."""
        reader = self.filter.reader
        if self.memory_path is None or self.last_frame is None or reader.corners is None:
            return
        import cv2  # noqa: PLC0415
        from vision.show import draw_layout  # noqa: PLC0415
        path = self.memory_path.with_name(SETUP_PICTURE)
        tmp = path.with_name("board-setup.tmp.png")
        if cv2.imwrite(str(tmp), draw_layout(self.last_frame, reader.corners, self.config.vision.shape)):
            os.replace(tmp, path)

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
