"""The simulated reader's end of the serial line: a pseudo-terminal behind a stable symlink,
the thread that runs a :class:`~firmware_bridge.reader.ReaderCore` on it, and the line's faults.

:class:`SimulatedLine` owns the pty (plugging and unplugging it), the action queue that
runs every change on the simulator's thread, the bytes waiting to be written (a slow link)
and what is lost on the way (drops, corruption, noise).  :class:`firmware_bridge.sim.SimulatedReader`
adds the dice and the reader's power cycle.

The simulator's thread sleeps in ``select`` on the pty and on a wake-up pipe: an action
(a roll, a lift) wakes it at once, and otherwise it sleeps until the reader has something
to send (a heartbeat, a retransmission; at most :data:`IDLE_S`).  ``poll=0.005`` brings back
the old fixed 5 ms poll (for the latency bench's before/after).
"""
from __future__ import annotations

import errno
import os
import random
import select
import shutil
import tempfile
import threading
import time
import tty
from collections import deque
from typing import Any, Callable, Optional, TypeVar, Union

from firmware_bridge.reader import ReaderCore

IDLE_S = 0.05  # the longest the simulator's thread sleeps with nothing due
_Line = TypeVar("_Line", bound="SimulatedLine")


class SimulatedLine:
    """A reader core on a pty; every public method is thread-safe and returns once applied."""

    def __init__(self, core: ReaderCore, rng: random.Random, link_dir: Optional[str] = None,
                 clock: Callable[[], float] = time.monotonic, poll: Optional[float] = None) -> None:
        self.rng = rng
        self.poll = poll  # a fixed select timeout (the old polling loop); None: woken by actions
        self.clock = clock
        self.core = core
        self._dir = link_dir or tempfile.mkdtemp(prefix="bgtable-dice-")
        self._own_dir = link_dir is None
        self.port_path = os.path.join(self._dir, "tty")
        self.pty_path: Optional[str] = None
        self._master: Optional[int] = None
        self._slave: Optional[int] = None
        self._actions: deque[tuple[Callable[[], Any], threading.Event, list[Any]]] = deque()
        self._lock = threading.Lock()
        self._idle = threading.Condition()  # notified after every turn of the simulator thread
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._out = bytearray()  # bytes waiting to be written (rate limit)
        self._drop = 0
        self._corrupt = 0
        self._drop_in = 0
        self.drop_rate = 0.0
        self.corrupt_rate = 0.0
        self.rate: Optional[float] = None  # bytes per second, None = as fast as possible
        self._last_write = clock()
        self.sent_frames = 0
        self.garbage_sent = 0
        self.rx_bytes = 0


    # ------------------------------------------------------------- life cycle
    def start(self: _Line) -> _Line:
        """Create the pty and the symlink and start the simulator thread."""
        if self._thread is None:
            self._plug()
            self._stop.clear()
            self._wake_r, self._wake_w = os.pipe()
            os.set_blocking(self._wake_r, False)
            os.set_blocking(self._wake_w, False)
            self._thread = threading.Thread(target=self._run, name="dice-sim", daemon=True)
            self._thread.start()
        return self

    def stop(self) -> None:
        """Stop the thread, close the pty and remove the symlink."""
        self._stop.set()
        if self._thread is not None:
            self._wake()
            self._thread.join(timeout=5)
            self._thread = None
            os.close(self._wake_r)
            os.close(self._wake_w)
        self._unplug()
        if self._own_dir:
            shutil.rmtree(self._dir, ignore_errors=True)
        elif os.path.lexists(self.port_path):
            os.unlink(self.port_path)

    def __enter__(self: _Line) -> _Line:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    @property
    def plugged(self) -> bool:
        """True while the pseudo-terminal is there (not unplugged)."""
        return self._master is not None

    # ------------------------------------------------------------- the pty
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.pty_path = os.ttyname(slave)
        tmp = self.port_path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.pty_path, tmp)
        os.replace(tmp, self.port_path)

    def _unplug(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self._out.clear()
        if os.path.lexists(self.port_path):
            os.unlink(self.port_path)

    # ------------------------------------------------------------- running actions on the sim thread
    def _call(self, fn: Callable[[], Any], timeout: float = 5.0) -> Any:
        if self._thread is None:
            return fn()
        done = threading.Event()
        box: list[Any] = []
        with self._lock:
            self._actions.append((fn, done, box))
        self._wake()
        if not done.wait(timeout):
            raise TimeoutError("the simulated reader's thread did not run the action within 5 s")
        if box and isinstance(box[0], BaseException):
            raise box[0]
        return box[0] if box else None

    def _wake(self) -> None:
        """Wake the simulator's thread from its select."""
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, OSError):
            pass  # the pipe is full: the thread is woken already

    def _timeout(self, now: float) -> float:
        """How long the thread may sleep: until the reader has something to send."""
        if self.poll is not None:
            return self.poll
        if self._out:
            return 0.001  # bytes held back (a slow link, a full pty): write them soon
        return max(0.0005, min(IDLE_S, self.core.next_due(now)))

    def _send(self, frames: list[bytes]) -> None:
        for f in frames:
            if self._master is None:
                continue
            if self._drop > 0:
                self._drop -= 1
                continue
            if self.drop_rate and self.rng.random() < self.drop_rate:
                continue
            if self._corrupt > 0 or (self.corrupt_rate and self.rng.random() < self.corrupt_rate):
                self._corrupt = max(0, self._corrupt - 1)
                b = bytearray(f)
                i = self.rng.randrange(len(b) - 1)
                b[i] ^= self.rng.randrange(1, 256)
                f = bytes(b)
            self.sent_frames += 1
            self._out += f

    def _flush(self, now: float) -> None:
        if self._master is None or not self._out:
            self._last_write = now
            return
        n = len(self._out)
        if self.rate is not None:
            n = min(n, int((now - self._last_write) * self.rate))
            if n <= 0:
                return
        self._last_write = now
        try:
            written = os.write(self._master, bytes(self._out[:n]))
        except BlockingIOError:
            written = 0
        except OSError as exc:
            if exc.errno in (errno.EIO, errno.EBADF):
                written = n  # nobody reading: a real device's USB buffer would drop it too
            else:
                raise
        del self._out[:written]

    def _run(self) -> None:
        while not self._stop.is_set():
            while True:
                with self._lock:
                    if not self._actions:
                        break
                    fn, done, box = self._actions.popleft()
                try:
                    box.append(fn())
                except BaseException as exc:  # handed back to the caller
                    box.append(exc)
                done.set()
            now = self.clock()
            self._send(self.core.tick(now))
            self._flush(now)  # what the actions sent goes out before the thread sleeps
            master = self._master
            watch = [] if master is None else [master]
            if self.poll is None:  # woken by an action; the old poll waited out its timeout
                watch.append(self._wake_r)
            try:
                ready = select.select(watch, [], [], self._timeout(now))[0] if watch else []
            except (OSError, ValueError):
                ready = []
            if not watch:
                self._stop.wait(self._timeout(now))
            if self._wake_r in ready:
                try:
                    os.read(self._wake_r, 4096)
                except OSError:
                    pass
            if master is not None:
                if master in ready:
                    try:
                        data = os.read(master, 4096)
                    except OSError:
                        data = b""
                    if data:
                        self.rx_bytes += len(data)
                        self._receive(data, self.clock())
            now = self.clock()
            self._send(self.core.tick(now))
            self._flush(now)
            with self._idle:
                self._idle.notify_all()

    def _receive(self, data: bytes, now: float) -> None:
        if self._drop_in > 0:
            frames = self.core.decoder.feed(data)  # consume whole frames, drop the first ones
            out: list[bytes] = []
            for fr in frames:
                if self._drop_in > 0:
                    self._drop_in -= 1
                    continue
                out += self.core._handle(fr.seq, fr.message, now)
            self._send(out)
            return
        self._send(self.core.feed(data, now))

    # ------------------------------------------------------------- the line's faults
    def unplug(self) -> None:
        """Break the data link: the pty vanishes (the host gets an I/O error); state is kept."""
        self._call(self._unplug)

    def replug(self) -> None:
        """Restore the data link on a new pty behind the same :attr:`port_path`."""
        self._call(lambda: None if self._master is not None else self._plug())

    def inject_garbage(self, data: Union[int, bytes] = 32) -> None:
        """Write noise onto the line: ``data`` bytes, or that many random bytes."""
        def act() -> None:
            noise = bytes(self.rng.randrange(256) for _ in range(data)) if isinstance(data, int) else bytes(data)
            self.garbage_sent += len(noise)
            if self._master is not None:
                self._out += noise
        self._call(act)

    def drop_next(self, n: int = 1) -> None:
        """Drop the next ``n`` frames the reader sends."""
        def act() -> None:
            self._drop += n
        self._call(act)

    def corrupt_next(self, n: int = 1) -> None:
        """Corrupt one byte in each of the next ``n`` frames the reader sends."""
        def act() -> None:
            self._corrupt += n
        self._call(act)

    def drop_incoming(self, n: int = 1) -> None:
        """Ignore the next ``n`` frames from the host (e.g. lose ACKs, forcing retransmission)."""
        def act() -> None:
            self._drop_in += n
        self._call(act)

    def set_rate(self, bytes_per_second: Optional[float]) -> None:
        """A slow link: limit what the reader writes to ``bytes_per_second`` (None: no limit)."""
        def act() -> None:
            self.rate = bytes_per_second
            self._last_write = self.clock()
        self._call(act)

    def set_loss(self, drop_rate: float = 0.0, corrupt_rate: float = 0.0) -> None:
        """Drop / corrupt each outgoing frame with these probabilities (seeded by ``seed``)."""
        def act() -> None:
            self.drop_rate, self.corrupt_rate = drop_rate, corrupt_rate
        self._call(act)

    @property
    def pending(self) -> int:
        """Reliable events not yet ACKed by the host."""
        return len(self.core.fifo)

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until every queued event has been ACKed by the host (True) or the timeout passes."""
        with self._idle:
            return self._idle.wait_for(lambda: not self.core.fifo and self.core.session, timeout)
