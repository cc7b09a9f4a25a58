"""``bgtable read --batch``'s read-ahead: the next line's picture decoded while this one is read.

A line of ``read --batch`` is mostly two things done one after the other: decoding its JPEG
(3-4 ms for 1280x720) and reading the board.  :func:`read_ahead` does the first in a thread,
a line or two ahead (``read --batch``: two, so its dice's child process has the next line's
picture in hand too): OpenCV decodes without holding the GIL, so on a machine with a core to spare a
line takes about as long as its read, not the read and the decoding.  The thread also takes
the lines from the input (so a client that writes a line and waits for its answer is never
kept waiting for the next line), parses each and decodes its picture; the reading itself stays
in the caller's thread, in input order, so the reader learns from the pictures in the same
order as without the read-ahead and the output is the same, byte for byte.

A line that is no job, or whose picture cannot be loaded, comes through with its error in its
place; the caller reports it and goes on.  Nothing here knows the reader: ``load`` is given.

A batch keeps the memory it frees (:func:`keep_freed_memory`, on glibc): each line's picture (2.7 MB
for 1280x720) and the reading's large arrays are made afresh every line, and glibc's allocator hands
such blocks back to the system once freed, so every line paged them in again: some 300 page faults and
0.6 ms of system CPU a line, most of them the picture's decoding in the read-ahead thread.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import functools
import json
import queue
import sys
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Optional

from .buffers import note_fixed_mmap
from .errors import VisionError


@dataclass(frozen=True)
class Line:
    """One non-blank input line: its number (from 1), the job it asks for, or why it is none,
    and its picture, decoded ahead (or the error that loading it raised)."""

    n: int
    job: Optional[dict[str, Any]] = None
    error: Optional[str] = None          # not a job: the message, e.g. "line 3: not JSON (...)"
    image: Any = None
    failed: Optional[BaseException] = None   # loading the picture raised this

    def picture(self) -> Any:
        """The decoded picture; raises what loading it raised (in the caller's thread)."""
        if self.failed is not None:
            raise self.failed
        return self.image


def parse_job(n: int, line: str) -> dict[str, Any]:
    """Line ``n``'s job ``{"image": PATH, ...}`` (json.JSONDecodeError, or VisionError naming
    the line when it is JSON but no object with an image)."""
    job = json.loads(line)
    if not isinstance(job, dict) or "image" not in job:
        raise VisionError(f'line {n}: expected {{"image": PATH, "corners": "..."}}, got {line.strip()[:80]!r}')
    return job


def _line(n: int, text: str, load: Callable[[str], Any]) -> Line:
    """Line ``n`` parsed and its picture loaded (errors kept in it, not raised)."""
    try:
        job = parse_job(n, text)
    except json.JSONDecodeError as exc:
        return Line(n, error=f"line {n}: not JSON ({exc.msg})")
    except VisionError as exc:
        return Line(n, error=f"line {n}: {exc}")
    try:
        return Line(n, job, image=load(str(job["image"])))
    except Exception as exc:  # noqa: BLE001 - raised again in the caller's thread, at this line's turn
        return Line(n, job, failed=exc)


_END = object()

KEPT_MAPPED = 32 << 20    # bytes: blocks up to this size come from the heap, not a mapping of their own
KEPT_FREED = 128 << 20    # bytes: freed memory at the heap's top kept up to this much, not handed back
@functools.cache
def keep_freed_memory() -> bool:
    """Have glibc's allocator keep the memory this process frees, for the next line's arrays (True when
    set; nothing done elsewhere).  By default it maps a block of 128 kB or more on its own (raising that
    bound as such blocks are freed) and gives back the heap's top when more than twice that bound lies
    free there: a batch's pictures and large arrays, made and freed each line, then page in anew each
    line.  Set once per process (``mallopt``: the bounds are fixed at :data:`KEPT_MAPPED` and
    :data:`KEPT_FREED`); the memory kept is what a line's work needs at most, reused line after line."""
    ok = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            mallopt = libc.mallopt   # (glibc's; absent from musl and others: AttributeError)
            # M_MMAP_THRESHOLD (-3), then M_TRIM_THRESHOLD (-1); each returns 1 when set
            ok = mallopt(-3, KEPT_MAPPED) == 1 and mallopt(-1, KEPT_FREED) == 1
        except (OSError, AttributeError):
            ok = False
    if ok:
        note_fixed_mmap(KEPT_MAPPED)
    return ok


def read_ahead(lines: Iterable[str], load: Callable[[str], Any], ahead: int = 1,
               loaded: Optional[Callable[[Line], Any]] = None) -> Iterator[Line]:
    """The non-blank ``lines`` as :class:`Line` s, in order, each picture loaded by ``load(path)``
    in a thread, up to ``ahead`` lines before the caller asks for it (0: no thread, each line
    loaded when asked for).  ``loaded(line)``: called with each line as soon as its picture is
    loaded, in that thread (:mod:`vision.dice_ahead` starts its dice there).  An error while
    taking the lines (a bad byte on stdin) is raised here after the lines before it.  The process keeps
    the memory it frees from then on (:func:`keep_freed_memory`)."""
    if ahead < 0:
        raise ValueError(f"ahead {ahead!r}: expected 0 or more lines to load in advance")
    keep_freed_memory()
    if ahead == 0:
        for n, text in enumerate(lines, 1):
            if text.strip():
                line = _line(n, text, load)
                if loaded is not None:
                    loaded(line)
                yield line
        return
    done: "queue.Queue[Any]" = queue.Queue()
    slots = threading.Semaphore(ahead + 1)   # the line being read and those loaded ahead
    stop = threading.Event()

    def work() -> None:
        try:
            for n, text in enumerate(lines, 1):
                if not text.strip():
                    continue
                slots.acquire()
                if stop.is_set():
                    return
                line = _line(n, text, load)
                if loaded is not None:
                    loaded(line)
                done.put(line)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, raised there in order
            done.put(exc)
            return
        done.put(_END)

    worker = threading.Thread(target=work, name="read-ahead", daemon=True)
    worker.start()
    try:
        while True:
            item = done.get()
            if item is _END:
                return
            if isinstance(item, BaseException):
                raise item
            yield item
            slots.release()   # this line is read: the thread may load one more
    finally:
        stop.set()
        slots.release()   # a thread waiting for a slot wakes, sees the stop and ends
