"""The camera's last frame for the director: published when something waits at a table.

When a decision puts something at the top of the director's page (a dispute, a director call,
a camera that cannot read: :data:`.translate.WAITING`), :class:`FrameSink` takes the camera's
last frame, makes it a small JPEG (640 px wide) and publishes it, retained, on the table's
``frame`` topic (:func:`.messages.frame_message`); the page shows it when the dispute is opened,
with the decisions that led to it.  The frame is not journaled (the journal holds what the
referee decided, not pictures): a frame missed while the broker was away is replaced by the
next one.

The frame comes from the table's camera: ``bgtable run``'s camera thread keeps its last
frame (``CameraThread.last_frame``); a simulated camera supplies one too
(:func:`frame_source`: the rendered camera's last frame, or the perfect camera's board drawn
by the synthetic renderer).
"""
from __future__ import annotations

import base64
import logging
from typing import Any, Callable, Optional, Sequence

from referee.table.club.broker import Broker
from referee.table.club.messages import Message, frame_message
from referee.table.club.translate import WAITING

log = logging.getLogger("bgtable.club")

WIDTH = 640
QUALITY = 70

Frame = Any  # a BGR image (numpy array, height x width x 3)


def jpeg(frame: Frame, width: int = WIDTH, quality: int = QUALITY) -> tuple[bytes, int, int]:
    """``frame`` as JPEG bytes, scaled to ``width`` pixels wide (never up): (bytes, width, height)."""
    import cv2  # noqa: PLC0415 (only at a table that publishes frames)

    h, w = frame.shape[:2]
    if w > width:
        frame = cv2.resize(frame, (width, max(1, round(h * width / w))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", frame, [int(cv2.IMWRITE_JPEG_QUALITY), quality])
    if not ok:
        raise ValueError(f"the camera frame ({w}x{h}) could not be made a JPEG")
    return bytes(buf), int(frame.shape[1]), int(frame.shape[0])


def frame_source(camera: Any) -> Callable[[], Optional[Frame]]:
    """The camera's last frame, as a function (None while it has none): a camera with a
    ``last_frame`` (the table's camera thread, the rendered camera) gives it; a simulated
    camera that only reports readings (the perfect camera) has its last board drawn."""
    def last() -> Optional[Frame]:
        frame = getattr(camera, "last_frame", None)
        if frame is not None:
            return frame
        reading = getattr(camera, "last", None)
        if reading is None:
            return None
        from vision.render import RenderParams, render  # noqa: PLC0415 (a simulated table only)
        return render(reading, RenderParams(width=WIDTH, height=WIDTH * 9 // 16), seed=1)
    return last


def waiting_now(view: Any, decisions: Sequence[Any]) -> str:
    """What a decision puts at the top of the director's page ("" when nothing waits)."""
    for d in decisions:
        kind = getattr(d, "kind", "")
        if kind in WAITING and not (kind == "director" and getattr(view, "state", "") != "director"):
            return WAITING[kind]
    return ""


class FrameSink:
    """One more output of the table: publishes the camera's last frame when something waits."""

    def __init__(self, broker: Broker, club: str, table: str, source: Callable[[], Optional[Frame]],
                 journal: Any = None) -> None:
        self.broker, self.club, self.table = broker, club, table
        self.source = source
        self.journal = journal
        self.sent: list[Message] = []
        self.errors = 0

    def show(self, view: Any, decisions: Sequence[Any]) -> None:
        """After a decision that puts something on the director's page: publish the last frame."""
        what = waiting_now(view, decisions)
        if not what:
            return
        try:
            frame = self.source()
            if frame is None:
                log.info("club: %s at table %s, but the camera has no frame yet", what, self.table)
                return
            data, w, h = jpeg(frame)
        except Exception as exc:  # a picture is a courtesy: it never stops the table
            self.errors += 1
            log.warning("club: the camera frame for %r at table %s could not be made: %s", what, self.table, exc)
            return
        seq = int(getattr(self.journal, "seq", 0) or 0)
        t = max((float(getattr(d, "t", 0.0) or 0.0) for d in decisions), default=0.0)
        msg = frame_message(self.club, self.table, seq, what, base64.b64encode(data).decode("ascii"), w, h, t)
        self.broker.publish(msg)
        self.sent.append(msg)


__all__ = ["FrameSink", "frame_source", "jpeg", "waiting_now", "WIDTH"]
