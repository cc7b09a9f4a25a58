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

The pictures go through memory both processes map (:class:`_Slots`: a few files in memory, opened
before the child starts and handed to it), not through the pipe: the sending thread copies a
picture into a free slot and the pipe carries only its place (a 1280x720 picture pickled over a
pipe cost about 1.5 ms of CPU a line, both sides; a copy into a slot about 0.2 ms).  A slot is
free again once the child's answer for its line is read; when none is free (lines whose answers
nobody has read yet), or on a system without such files, the picture is pickled over the pipe.
"""
from __future__ import annotations

import mmap
import os
import pickle
import queue
import subprocess
import sys
import tempfile
import threading
from typing import Any, BinaryIO, Optional, Sequence

import numpy as np

from .cli import camera_of, dice_json, job_camera, reader_config
from .errors import VisionError

__all__ = ["DiceAhead"]

GUARD = 5.0   # seconds the child is given to end when closed, before it is killed
SLOTS = 4     # pictures in shared memory at once (the read-ahead keeps two or three lines in flight)


class _Slots:
    """Files in memory that this process and the child both map, a picture each: the sender copies
    a picture into one (:meth:`put`) and names it to the child, which maps it (:meth:`picture`)
    and reads it in place.  The files are made unlinked (``memfd_create``, else an unlinked
    temporary file), so nothing is left behind however either process ends."""

    def __init__(self, fds: "list[int]", files: "Sequence[Any]" = ()) -> None:
        self.fds = fds
        self._files = list(files)              # (the temporary files holding the fds open)
        self._maps: dict[int, mmap.mmap] = {}
        self._busy: dict[int, int] = {}        # slot -> the line whose picture it holds
        self._lock = threading.Lock()

    @classmethod
    def made(cls, n: int = SLOTS) -> "_Slots":
        """``n`` empty slots (none where such files cannot be handed to a child)."""
        if os.name != "posix":
            return cls([])
        if hasattr(os, "memfd_create"):
            return cls([os.memfd_create("bgtable-dice", 0) for _ in range(n)])
        files = [tempfile.TemporaryFile() for _ in range(n)]
        return cls([f.fileno() for f in files], files)

    def _mapped(self, slot: int, size: int, grow: bool) -> mmap.mmap:
        """Slot ``slot`` mapped, at least ``size`` bytes (``grow``: the file made that long first)."""
        mm = self._maps.get(slot)
        if mm is None or len(mm) < size:
            if grow:
                os.ftruncate(self.fds[slot], size)
            mm = self._maps[slot] = mmap.mmap(self.fds[slot], size, access=mmap.ACCESS_WRITE if grow
                                              else mmap.ACCESS_READ)
        return mm

    def put(self, n: int, img: Any) -> Optional[tuple[int, tuple[int, ...], str]]:
        """``img`` (line ``n``'s picture) copied into a free slot: its place (slot, shape, dtype), or None
        (no slot free, or not a plain array: sent over the pipe)."""
        if not isinstance(img, np.ndarray) or img.dtype.hasobject or not img.size:
            return None
        with self._lock:
            free = [k for k in range(len(self.fds)) if k not in self._busy]
            if not free:
                return None
            slot = free[0]
            self._busy[slot] = n
        mm = self._mapped(slot, img.nbytes, grow=True)
        np.copyto(np.frombuffer(mm, img.dtype, img.size).reshape(img.shape), img)
        return slot, tuple(img.shape), img.dtype.str

    def picture(self, place: tuple[int, tuple[int, ...], str]) -> np.ndarray:
        """The child's view of the picture at ``place`` (read-only, in place)."""
        slot, shape, dtype = place
        dt = np.dtype(dtype)
        size = int(np.prod(shape)) * dt.itemsize
        return np.frombuffer(self._mapped(slot, size, grow=False), dt, size // dt.itemsize).reshape(shape)

    def answered(self, n: int) -> None:
        """Line ``n``'s answer read: the slots holding it or a line before it are free."""
        with self._lock:
            for slot in [k for k, m in self._busy.items() if m <= n]:
                del self._busy[slot]

    def close(self) -> None:
        """Unmapped and closed (the child's copies of the files end with it)."""
        self._maps.clear()
        for f in self._files:
            f.close()
        if not self._files:
            for fd in self.fds:
                os.close(fd)
        self.fds = []


def _serve(jobs: BinaryIO, answers: BinaryIO, slots: Optional[_Slots] = None) -> None:
    """The child: each job ``(n, picture, camera)`` (:func:`vision.cli.job_camera`; the picture, or
    its place in ``slots``) read from ``jobs`` answered on ``answers`` with ``(n, dice)`` (None when
    the line's camera is refused), in order, until None or the end of ``jobs``.  OpenCV on one
    thread: the child is itself the second core's work (its thread pool's waiting cost CPU and
    gained nothing on a game's lines)."""
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
        if isinstance(img, tuple):
            assert slots is not None
            img = slots.picture(img)
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
        self._slots: Optional[_Slots] = None
        self.dead = False          # the child died or could not start: the caller finds the dice itself
        self._closed = False       # closed: a line loaded after (the read-ahead ending) starts no child

    def start(self) -> None:
        """Start the child now (it imports OpenCV and the dice search while the caller begins)."""
        if self._proc is not None or self.dead:
            return
        env = dict(os.environ)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # where ``vision`` is found
        env["PYTHONPATH"] = root + os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else root
        try:
            self._slots = _Slots.made()
            self._proc = subprocess.Popen([sys.executable, "-m", "vision.dice_ahead",
                                           ",".join(map(str, self._slots.fds))], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, env=env, pass_fds=self._slots.fds)
        except OSError:
            self.dead = True
            if self._slots is not None:
                self._slots.close()
                self._slots = None
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
        if self._closed or not isinstance(camera[0], str) or not camera[0]:
            return False
        self.start()
        if self.dead:
            return False
        self._sent.add(n)
        slots = self._slots
        place = None if slots is None else slots.put(n, img)
        self._out.put((n, img if place is None else place, camera))
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
            if self._slots is not None:
                self._slots.answered(m)
        got = self._got.pop(n)
        for m in [m for m in self._got if m < n]:   # lines the caller never took (their reading failed)
            del self._got[m]
        return got

    def close(self) -> None:
        """End the child (it finishes the line in hand); no line is sent after."""
        self._closed = True
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
        if self._slots is not None:
            self._slots.close()
            self._slots = None

    def __enter__(self) -> "DiceAhead":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    _serve(sys.stdin.buffer, sys.stdout.buffer,
           _Slots([int(fd) for fd in sys.argv[1].split(",")]) if len(sys.argv) > 1 and sys.argv[1] else None)
