"""The serial link to a dice reader: a port, a reader thread, reconnection, a queue of events.

``DiceLink("/dev/ttyACM0")`` (or ``"loop://"``, a pty path, or ``"usb:2341:0043[:SERIAL]"``
to find the port by USB VID/PID/serial number) opens the port exclusively, runs the
handshake of PROTOCOL.md, and puts ``referee.events`` values on :attr:`DiceLink.events`.
On an I/O error it reports ``ReaderFault("link lost: ...")``, closes the port and
reopens it with back-off (0.1 s doubling to 1 s); after 3 s of silence on a working
port it reports the same and handshakes again on the open port (reopening only after
two more failed handshakes, since reopening resets auto-reset boards).  Either way it
resynchronises from the reader's SNAPSHOT.  All protocol logic is in :class:`~firmware_bridge.session.HostSession`;
this module only moves bytes and time to and from it.
"""
from __future__ import annotations

import dataclasses
import os
import queue
import re
import threading
import time
from typing import Any, Callable, Optional, Protocol, cast

import serial
from serial.tools import list_ports

from firmware_bridge.errors import BadPortUrl, CommandTimeout, LinkError, PortNotFound
from firmware_bridge.messages import LED_NAMES, ZONE_CODES, Info, Ping, RequestSnapshot, SetLeds, SetZone, Snapshot
from firmware_bridge.session import RETRANSMIT_S, HostSession, PendingCommand, SessionStats

BAUDRATE = 115200
REOPEN_AFTER_HANDSHAKES = 2  # failed handshakes on an open port before closing and reopening it


class SerialLike(Protocol):
    """What the link needs of a port (a ``serial.Serial`` or a test double)."""

    @property
    def in_waiting(self) -> int:
        """The number of bytes received and not yet read."""
        ...

    def read(self, size: int = 1) -> bytes:
        """Read up to ``size`` bytes (fewer, or none, at the port's timeout)."""
        ...

    def write(self, data: bytes) -> Optional[int]:
        """Write ``data``; the number of bytes written (None from some ports)."""
        ...

    def close(self) -> None:
        """Close the port."""
        ...

    def reset_input_buffer(self) -> None:
        """Drop every byte received and not yet read."""
        ...


def find_usb_port(vid: int, pid: int, serial_number: Optional[str] = None) -> str:
    """The device path of the USB serial port with this VID/PID (and serial number, if given)."""
    found = [p for p in list_ports.comports()
             if p.vid == vid and p.pid == pid and (serial_number is None or p.serial_number == serial_number)]
    want = f"{vid:04x}:{pid:04x}" + (f" serial {serial_number}" if serial_number else "")
    if not found:
        raise PortNotFound(f"no USB serial port {want} is plugged in; list them with "
                           f"'python3 -m serial.tools.list_ports -v'")
    if len(found) > 1:
        raise PortNotFound(f"{len(found)} USB serial ports match {want} ({', '.join(p.device for p in found)}); "
                           f"add the serial number: usb:{vid:04x}:{pid:04x}:SERIAL")
    return str(found[0].device)


_USB_URL = re.compile(r"usb:[0-9a-fA-F]{1,4}:[0-9a-fA-F]{1,4}(:.+)?")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://")
_SEARCHING_SCHEMES = ("hwgrep",)  # their URL parse searches for ports: checked when opened


def check_url(url: str) -> None:
    """Raise :class:`BadPortUrl` (naming the URL and the fix) when ``url`` can never name a port.

    A well-formed URL whose device is missing is not an error here: the link waits for it.
    """
    if not isinstance(url, str) or not url.strip() or "\x00" in url:
        raise BadPortUrl(f"port URL {url!r} is empty or not text; give a device path such as /dev/ttyACM0, "
                         "a pty path, loop:// or usb:VID:PID[:SERIAL]")
    if url.startswith("usb:"):
        if not _USB_URL.fullmatch(url):
            raise BadPortUrl(f"bad USB port URL {url!r}; expected usb:VID:PID[:SERIAL] with hex ids, "
                             "e.g. usb:2341:0043")
        return
    m = _SCHEME.match(url)
    if m is None:
        if os.path.isdir(url):
            raise BadPortUrl(f"port {url!r} is a directory, not a serial device; give the device itself, "
                             "e.g. /dev/ttyACM0")
        return
    scheme = m.group(1)
    try:
        port = serial.serial_for_url(url, do_not_open=True)
        if scheme not in _SEARCHING_SCHEMES and hasattr(port, "from_url"):
            port.from_url(url)
    except (serial.SerialException, ValueError, TypeError, KeyError, IndexError) as exc:  # pyserial's parsers
        raise BadPortUrl(f"bad port URL {url!r}: {exc or type(exc).__name__}; pyserial knows e.g. loop://, "
                         "socket://HOST:PORT, rfc2217://HOST:PORT, spy://PORT") from None


def resolve_port(url: str) -> str:
    """A port URL as pyserial takes it: ``usb:VID:PID[:SERIAL]`` (hex) is looked up, others pass through."""
    if not url.startswith("usb:"):
        return url
    parts = url.split(":")
    try:
        vid, pid = int(parts[1], 16), int(parts[2], 16)
    except (IndexError, ValueError):
        raise PortNotFound(f"bad USB port URL {url!r}; expected usb:VID:PID[:SERIAL] with hex ids, "
                           f"e.g. usb:2341:0043") from None
    return find_usb_port(vid, pid, ":".join(parts[3:]) or None)


def open_serial(url: str) -> SerialLike:
    """Open a port exclusively at 115200 8N1 with a short read timeout."""
    port = serial.serial_for_url(resolve_port(url), baudrate=BAUDRATE, timeout=0.02, write_timeout=1.0,
                                 exclusive=True, do_not_open=True)
    port.open()
    port.reset_input_buffer()
    return cast(SerialLike, port)  # pyserial ships no types: its Serial is Any here


class DiceLink:
    """A running connection to one dice reader; events arrive on :attr:`events`."""

    def __init__(self, url: str, events: Optional["queue.Queue[Any]"] = None, *,
                 clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[str], SerialLike] = open_serial,
                 on_status: Optional[Callable[[str], None]] = None,
                 backoff: tuple[float, float] = (0.1, 1.0),
                 session: Optional[HostSession] = None) -> None:
        if opener is open_serial:
            check_url(url)  # a caller's own opener has its own URLs
        self.url = url
        self.events: "queue.Queue[Any]" = events if events is not None else queue.Queue()
        self.clock = clock
        self.opener = opener
        self.on_status = on_status
        self.backoff = backoff
        self.session = session or HostSession()
        self._port: Optional[SerialLike] = None
        self._cv = threading.Condition()
        self._wlock = threading.Lock()
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._ping_token = 0
        self._pending_error: Optional[str] = None
        self._failed_handshakes = 0
        self._delay = backoff[0]
        self._next_try = clock()
        self._was_online = False

    # ------------------------------------------------------------- life cycle
    def start(self) -> "DiceLink":
        """Start the reader thread (it opens the port and keeps it open)."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"dicelink {self.url}", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._close_port()

    def __enter__(self) -> "DiceLink":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    # ------------------------------------------------------------- state
    @property
    def connected(self) -> bool:
        """True while the dice reader is online (its session is up)."""
        return self.session.online

    @property
    def info(self) -> Optional[Info]:
        """The reader's INFO (protocol and firmware versions, capabilities, boot id), None before it answered."""
        return self.session.info

    @property
    def stats(self) -> SessionStats:
        """The link's counters: connections, losses, events delivered, duplicates, resyncs (for diagnosis)."""
        return self.session.stats

    def wait_connected(self, timeout: float) -> bool:
        """Block until the handshake is complete (True) or ``timeout`` passes (False)."""
        with self._cv:
            return self._cv.wait_for(lambda: self.session.online, timeout)

    def wait_for(self, predicate: Callable[[HostSession], bool], timeout: float) -> bool:
        """Block until ``predicate(session)`` holds (True) or ``timeout`` passes (False); no polling."""
        with self._cv:
            return self._cv.wait_for(lambda: predicate(self.session), timeout)

    def wait_for_loss(self, timeout: float) -> bool:
        """Block until the link is lost (True) or ``timeout`` passes while it stays up (False)."""
        with self._cv:
            losses = self.session.stats.losses
            return self._cv.wait_for(lambda: self.session.stats.losses != losses, timeout)

    # ------------------------------------------------------------- commands
    def set_leds(self, on: int | set[str] = 0, blink: int | set[str] = 0, timeout: float = 2.0) -> PendingCommand:
        """Set the reader's LEDs (bit masks or names: reroll, ready, fault, link); returns the ACKed command."""
        return self._reliable(SetLeds(_led_mask(on), _led_mask(blink)), timeout)

    def set_zone(self, zone: str, x0: int, y0: int, x1: int, y1: int, timeout: float = 2.0) -> PendingCommand:
        """Set one zone's rectangle in mm (all zero disables it); returns the ACKed command."""
        if zone not in ZONE_CODES:
            raise LinkError(f"zone {zone!r} is not one of {', '.join(ZONE_CODES)}")
        return self._reliable(SetZone(ZONE_CODES[zone], x0, y0, x1, y1), timeout)

    def request_snapshot(self, timeout: float = 2.0) -> Snapshot:
        """Ask for and return a fresh SNAPSHOT of the reader's state."""
        deadline = self.clock() + timeout
        with self._cv:
            count = self.session.snapshots
            while self.session.snapshots == count:
                if not self._send_when_online(RequestSnapshot(), deadline):
                    break
                self._cv.wait_for(lambda: self.session.snapshots != count,
                                  min(RETRANSMIT_S, max(0.0, deadline - self.clock())))
            if self.session.snapshots == count or self.session.snapshot is None:
                raise CommandTimeout(f"REQUEST_SNAPSHOT got no SNAPSHOT from {self.url} within {timeout:g} s "
                                     f"(link {self.session.phase})")
            return self.session.snapshot

    def ping(self, timeout: float = 2.0) -> float:
        """Round trip of a PING in seconds."""
        deadline = self.clock() + timeout
        with self._cv:
            self._ping_token = (self._ping_token + 1) & 0xFFFF
            token = self._ping_token
            t0 = self.clock()
            while token not in self.session.pongs:
                if not self._send_when_online(Ping(token), deadline):
                    raise CommandTimeout(f"PING got no PONG from {self.url} within {timeout:g} s "
                                         f"(link {self.session.phase})")
                self._cv.wait_for(lambda: token in self.session.pongs,
                                  min(RETRANSMIT_S * 4, max(0.0, deadline - self.clock())))
            return self.session.pongs.pop(token) - t0

    def _send_when_online(self, msg: Any, deadline: float) -> bool:
        """(Under the lock) wait for the link, then send ``msg``; False when the deadline passed."""
        if not self._cv.wait_for(lambda: self.session.online, max(0.0, deadline - self.clock())):
            return False
        if self.clock() >= deadline:
            return False
        _, out = self.session.command(msg, self.clock())
        self._write(out)
        return True

    def _reliable(self, msg: Any, timeout: float) -> PendingCommand:
        with self._cv:
            cmd, out = self.session.command(msg, self.clock())
            assert cmd is not None
            self._write(out)
            if not self._cv.wait_for(lambda: cmd.done, timeout):
                self.session.abandon(cmd)
                raise CommandTimeout(f"{cmd.name} (seq {cmd.seq}) got no ACK from {self.url} within {timeout:g} s "
                                     f"(link {self.session.phase})")
            return cmd

    # ------------------------------------------------------------- the thread
    def _status(self, text: str) -> None:
        if self.on_status is not None:
            self.on_status(text)

    def _deliver(self, events: list[Any], now: float) -> None:
        for ev in events:
            self.events.put(dataclasses.replace(ev, t=now))

    def _write(self, data: bytes) -> None:
        port = self._port
        if not data or port is None:
            return
        try:
            with self._wlock:
                port.write(data)
        except (serial.SerialException, OSError) as exc:
            self._pending_error = str(exc)

    def _close_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass

    def _lose(self, reason: str) -> None:
        with self._cv:
            events = self.session.close(reason)
            self._close_port()
            self._failed_handshakes = 0
            self._cv.notify_all()
        self._deliver(events, self.clock())
        self._status(f"link lost: {reason}")

    def _run(self) -> None:
        while not self._stop.is_set():
            wait = self.step()
            if wait > 0:
                self._stop.wait(wait)

    def step(self) -> float:
        """One turn of the reader thread: open the port if due, or read, feed, tick and write.

        Returns how long the caller may wait before the next turn (0: at once).  The thread
        calls it in a loop; a test drives it directly with a fake clock and a fake opener.
        """
        if self._port is None:
            now = self.clock()
            if now < self._next_try:
                return min(0.02, self._next_try - now)
            try:
                port = self.opener(self.url)
            except (serial.SerialException, OSError, ValueError) as exc:
                self._status(f"cannot open {self.url}: {exc}")
                self._next_try = now + self._delay
                self._delay = min(self._delay * 2, self.backoff[1])
                return 0.0
            with self._cv:
                self._port = port
                self._pending_error = None
                self._write(self.session.open(self.clock()))
            self._status(f"opened {self.url}")
            self._next_try = self.clock() + self._delay
            self._delay = min(self._delay * 2, self.backoff[1])
            return 0.0
        try:
            port = self._port
            data = port.read(max(1, port.in_waiting))
        except (serial.SerialException, OSError) as exc:
            self._lose(str(exc) or type(exc).__name__)
            self._was_online = False
            return 0.0
        with self._cv:
            now = self.clock()
            out, events = self.session.feed(data, now) if data else (b"", [])
            out += self.session.tick(now)
            self._deliver(events, now)  # before the ACKs go out: once the reader has them, the events are queued
            self._write(out)
            reason = self.session.lost_reason or self._pending_error
            online = self.session.online
            self._cv.notify_all()
        if online and not self._was_online:
            self._delay = self.backoff[0]
            self._failed_handshakes = 0
            info = self.session.info
            self._status(f"connected: reader {self.session.source or '?'} "
                         f"fw {info.fw_major}.{info.fw_minor}.{info.fw_patch}" if info else "connected")
        self._was_online = online
        if reason:
            if self._pending_error or self._failed_handshakes >= REOPEN_AFTER_HANDSHAKES:
                self._lose(reason)
            else:
                self._rehandshake(reason)
            self._was_online = False
        return 0.0

    def _rehandshake(self, reason: str) -> None:
        """The reader went quiet but the port works: handshake again without closing it.

        Reopening a port resets boards with DTR auto-reset (Arduino), which would
        restart their boot loader every time; so the port is reopened only on an I/O
        error or after several failed handshakes in a row.
        """
        with self._cv:
            was_online = self.session.online
            events = self.session.close(reason)
            self._write(self.session.open(self.clock()))
            self._cv.notify_all()
        self._failed_handshakes = 0 if was_online else self._failed_handshakes + 1
        self._deliver(events, self.clock())
        self._status(f"link lost: {reason}" if was_online else f"handshake again: {reason}")


def _led_mask(v: int | set[str]) -> int:
    if isinstance(v, int):
        return v
    bad = set(v) - set(LED_NAMES)
    if bad:
        raise LinkError(f"unknown LED name(s) {', '.join(sorted(bad))}; expected {', '.join(LED_NAMES)}")
    mask = 0
    for name in v:
        mask |= LED_NAMES[name]
    return mask
