"""``bgtable read --batch``'s dice, found in a child process while the line before is read.

A line of ``read --batch`` with the dice is two searches of one picture: the checkers (the reader)
and the dice (:class:`vision.dice_carry.DiceCarry`), the second the longer.  Neither needs the other
when the line gives the corners (the reader keeps given corners as they are), so :class:`DiceAhead`
hands each such line's picture, as soon as it is decoded (:func:`vision.batch.read_ahead`'s
thread), to a child process that finds its dice; the caller reads the checkers meanwhile and then
takes the dice.  On a machine with a core to spare a line then takes about as long as the longer
search, not both.

The child keeps one :class:`~vision.dice_carry.DiceCarry` per camera, under the same key as the
caller's readers (corners and board settings, :func:`vision.cli.camera_of`), and is sent every line with
corners in input order, so it sees each camera's pictures in the same order as the caller's carry
would: the dice are the same, field for field, as found in the caller.  A line whose camera cannot
be worked out (bad corners or settings) is refused there as in the caller, and its picture is
never searched.  Lines without corners (the markers decide where the board is, so the dice search
needs the reader's corners) are not sent: the caller finds their dice itself.  If the child dies,
the caller goes on finding the dice itself, from the line it died on.
"""
from __future__ import annotations

import os
import pickle
import queue
import subprocess
import sys
import threading
from typing import Any, BinaryIO, Optional

from .cli import camera_of, dice_json, job_camera, reader_config
from .errors import VisionError

__all__ = ["DiceAhead"]

GUARD = 5.0   # seconds the child is given to end when closed, before it is killed


def _serve(jobs: BinaryIO, answers: BinaryIO) -> None:
    """The child: each job ``(n, picture, camera)`` (:func:`vision.cli.job_camera`) read from
    ``jobs`` answered on ``answers`` with ``(n, dice)`` (None when the line's camera is refused),
    in order, until None or the end of ``jobs``.  OpenCV on one thread: the child is itself the
    second core's work (its thread pool's waiting cost CPU and gained nothing on a game's lines)."""
    import cv2

    from .dice_carry import DiceCarry
    cv2.setNumThreads(1)
    carries: dict[tuple, tuple[DiceCarry, Any]] = {}   # per camera: its carry and board shape
    while True:
        try:
            job = pickle.load(jobs)
        except EOFError:
            return
        if job is None:
            return
        n, img, camera = job
        try:
            key, cs = camera_of(img, *camera)
        except VisionError:
            cs = None
        if cs is None:   # refused (the caller refuses the line too), or no corners (never sent)
            pickle.dump((n, None), answers)
        else:
            if key not in carries:
                carries[key] = (DiceCarry(), reader_config(cs, *camera[1:]).shape)
            carry, shape = carries[key]
            pickle.dump((n, dice_json(carry.find(img, cs, shape))), answers)
        answers.flush()


class DiceAhead:
    """A child process finding the dice of the lines sent to it, one at a time, in order.

    :meth:`send` (from the thread that decodes the pictures) hands it a line; :meth:`take` (from
    the caller, in input order) waits for that line's dice.  The child (``python -m
    vision.dice_ahead``; pictures and dice pickled over its stdin and stdout, written by a thread
    of this process so neither side waits on the other's pipe) starts with the first line sent;
    :meth:`close` ends it (also a context manager)."""

    def __init__(self) -> None:
        self._proc: Optional[subprocess.Popen[bytes]] = None
        self._out: "queue.Queue[Any]" = queue.Queue()
        self._writer: Optional[threading.Thread] = None
        self._sent: set[int] = set()
        self._got: dict[int, Optional[list[dict[str, Any]]]] = {}
        self.dead = False          # the child died or could not start: the caller finds the dice itself

    def start(self) -> None:
        """Start the child now (it imports OpenCV and the dice search while the caller begins)."""
        if self._proc is not None or self.dead:
            return
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # where ``vision`` is found
        env["PYTHONPATH"] = root + os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else root
        try:
            self._proc = subprocess.Popen([sys.executable, "-m", "vision.dice_ahead"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, env=env)
        except OSError:
            self.dead = True
            return
        self._writer = threading.Thread(target=self._write, name="dice-ahead", daemon=True)
        self._writer.start()

    def _write(self) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        pipe = self._proc.stdin
        try:
            while True:
                job = self._out.get()
                pickle.dump(job, pipe, protocol=pickle.HIGHEST_PROTOCOL)
                pipe.flush()
                if job is None:
                    break
        except (BrokenPipeError, OSError, ValueError):   # the child died (take sees it) or was closed
            pass
        try:
            pipe.close()
        except OSError:
            pass

    def send(self, n: int, img: Any, job: dict[str, Any]) -> bool:
        """Hand line ``n`` (its job and decoded picture) to the child when it gives corners; True if sent."""
        camera = job_camera(job)
        if not isinstance(camera[0], str) or not camera[0]:
            return False
        self.start()
        if self.dead:
            return False
        self._sent.add(n)
        self._out.put((n, img, camera))
        return True

    def take(self, n: int) -> Optional[list[dict[str, Any]]]:
        """Line ``n``'s dice as the child found them (waiting for them); None when the line was not
        sent, its camera was refused, or the child died (then :attr:`dead`)."""
        if n not in self._sent or self.dead:
            return None
        self._sent.discard(n)
        assert self._proc is not None and self._proc.stdout is not None
        while n not in self._got:
            try:
                m, dice = pickle.load(self._proc.stdout)
            except (EOFError, OSError, pickle.UnpicklingError, ValueError):
                self.dead = True
                return None
            self._got[m] = dice
        got = self._got.pop(n)
        for m in [m for m in self._got if m < n]:   # lines the caller never took (their reading failed)
            del self._got[m]
        return got

    def close(self) -> None:
        """End the child (it finishes the line in hand)."""
        if self._proc is None:
            return
        self._out.put(None)
        if self._writer is not None:
            self._writer.join(GUARD)
        try:
            self._proc.wait(GUARD)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout is not None:
            self._proc.stdout.close()
        self._proc = None

    def __enter__(self) -> "DiceAhead":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    _serve(sys.stdin.buffer, sys.stdout.buffer)
