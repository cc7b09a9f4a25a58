"""The journal's sync thread: it fsyncs the journal whenever lines were written since its
last fsync, so the disk works while the screen draws (the journal's ``sync="thread"``).

The journal asks for a byte count to be made durable (:meth:`SyncThread.request`, or
:meth:`SyncThread.begin`, which returns once the thread's fsync of them is under way, so the
disk works while the caller draws instead of after it) and waits for it
(:meth:`SyncThread.wait`) before anything decided from those lines is shown;
a failed fsync is handed to the waiter, which cuts the journal back and tells the thread
where the file now ends (:meth:`SyncThread.reset`).
"""
from __future__ import annotations

import threading
from typing import Callable, Optional


class SyncThread:
    """Fsyncs on its own thread (started at the first request) up to the bytes asked for."""

    def __init__(self, fsync: Callable[[], None], name: str, size: int = 0) -> None:
        self._fsync = fsync
        self._name = name
        self._cv = threading.Condition()
        self._requested = size  # bytes the thread is asked to make durable
        self._synced = size     # bytes the thread has made durable
        self._taken = size      # bytes the thread's fsync under way (or last) covers
        self._error: Optional[OSError] = None
        self._thread: Optional[threading.Thread] = None
        self._closing = False

    def request(self, size: int) -> None:
        """Ask for the first ``size`` bytes to be made durable (the thread starts if need be)."""
        with self._cv:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=self._name, daemon=True)
                self._thread.start()
            self._requested = size
            self._cv.notify_all()

    def begin(self, size: int) -> None:
        """Ask for ``size`` bytes and return once the thread has begun the fsync that covers
        them (or they are durable, or it failed): a caller that goes on computing does not
        hold the thread back from the disk until it lets go of the interpreter."""
        with self._cv:
            self.request(size)
            self._cv.wait_for(lambda: self._taken >= size or self._synced >= size or self._error is not None
                              or self._closing)

    def wait(self, size: int) -> Optional[OSError]:
        """Ask for ``size`` bytes and wait until they are durable: None, or the fsync's error."""
        with self._cv:
            self.request(size)
            self._cv.wait_for(lambda: self._synced >= size or self._error is not None)
            exc, self._error = self._error, None
        return exc

    def reset(self, size: int) -> None:
        """The file was cut back to ``size`` durable bytes."""
        with self._cv:
            self._requested = self._synced = self._taken = size

    def close(self) -> None:
        """Stop the thread (again is harmless)."""
        with self._cv:
            self._closing = True
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def _loop(self) -> None:
        """Fsync whenever lines were written since the last fsync."""
        while True:
            with self._cv:
                self._cv.wait_for(lambda: self._closing or self._requested > self._synced)
                if self._closing:
                    return
                target = self._taken = self._requested
                self._cv.notify_all()  # begin() returns: the fsync starts now
            try:
                self._fsync()
            except OSError as exc:
                with self._cv:
                    self._error = exc
                    self._requested = self._synced  # asked again by the next write or wait
                    self._cv.notify_all()
                continue
            with self._cv:
                self._synced = max(self._synced, target)
                self._cv.notify_all()
