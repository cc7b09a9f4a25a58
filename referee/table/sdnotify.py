"""systemd's notify protocol (READY=1, WATCHDOG=1, STATUS=...) without a dependency.

Under ``Type=notify`` systemd sets ``NOTIFY_SOCKET``; elsewhere every call is a no-op.
"""
from __future__ import annotations

import os
import socket
from typing import Optional


class Notifier:
    """Sends state lines to systemd.  ``watchdog_interval`` is half of ``WATCHDOG_USEC``."""

    def __init__(self, environ: Optional[dict[str, str]] = None) -> None:
        env = os.environ if environ is None else environ
        self._address = env.get("NOTIFY_SOCKET") or None
        if self._address and self._address.startswith("@"):
            self._address = "\0" + self._address[1:]  # abstract namespace
        usec = env.get("WATCHDOG_USEC")
        self.watchdog_interval: Optional[float] = (
            int(usec) / 2e6 if usec is not None and usec.isascii() and usec.isdigit() else None)

    @property
    def enabled(self) -> bool:
        """True when systemd gave a notify socket (``NOTIFY_SOCKET``)."""
        return self._address is not None

    def notify(self, state: str) -> bool:
        """Send ``state`` to systemd; False when there is no socket or the send fails."""
        if not self._address:
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto(state.encode("utf-8"), self._address)
            except OSError:
                return False
        return True

    def ready(self, status: str = "") -> bool:
        """Tell systemd the table is ready (with an optional status line)."""
        return self.notify("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        """Ping systemd's watchdog: the event loop is alive."""
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        """Set the status line ``systemctl status`` shows."""
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        """Tell systemd the table is shutting down."""
        return self.notify("STOPPING=1")
