"""Working arrays of the reader's stages: small ones reused frame after frame, one set per thread
(two threads may read boards), large ones made afresh.

:func:`scratch` hands out this thread's array of a name, shape and dtype: its contents are
whatever its last use left, so it must never be kept (nor returned inside a result), and a
later request of the same name (any shape) may reuse it.  Each name holds one flat buffer, as
large as the largest request of that name so far; every shape and dtype asked of it is a view
of its start, so views of many sizes cost no memory beyond the largest.

Only requests up to :data:`LARGEST` bytes are kept.  A large temporary freed at the end of its
stage is handed back by the allocator from its free lists at the next frame (no page faults
after the first), where the last was freed, still warm in the cache; kept, it would sit beside
every other stage's temporaries.  Measured on the full read (20 boards, same process, kept and
fresh interleaved, CPU best of 5-6): the gradient planes and BGRA remap arrays kept (8 MB) 9.76 /
9.17 ms, made afresh 9.53 / 8.83 ms; and ``bgtable run``'s peak memory (bench/run_memory.py)
9-10 MB lower, the dice watch's whole-board search using the memory the reader has just freed.
"""
from __future__ import annotations

import math
import threading

import numpy as np

_LOCAL = threading.local()
LARGEST = 64 << 10    # bytes: a larger working array is made afresh each time, not kept
KEPT_BYTES = 4 << 20  # bytes of buffers kept per thread at most: more starts the set again
_VIEWS = 256           # views kept per thread (they hold no memory of their own)
FIXED_MMAP = 0         # bytes: this process's fixed glibc mmap threshold, once one is set (0: glibc's own)


class _Kept:
    """One thread's buffers (a flat byte array per name) and the views handed out of them."""

    def __init__(self) -> None:
        self.buffers: dict[str, np.ndarray] = {}
        self.views: dict[tuple[str, tuple[int, ...], type], np.ndarray] = {}
        self.nbytes = 0

    def clear(self) -> None:
        self.buffers.clear()
        self.views.clear()
        self.nbytes = 0


def scratch(name: str, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """This thread's working array ``name`` of ``shape`` and ``dtype`` (uninitialised, C-contiguous)."""
    kept: _Kept | None = getattr(_LOCAL, "kept", None)
    if kept is None:
        kept = _LOCAL.kept = _Kept()
    key = (name, shape, dtype)
    a = kept.views.get(key)
    if a is not None:
        return a
    need = math.prod(shape) * np.dtype(dtype).itemsize
    if need > LARGEST:
        return np.empty(shape, dtype)
    buf = kept.buffers.get(name)
    if buf is None or buf.nbytes < need:
        grow = need - (0 if buf is None else buf.nbytes)
        if kept.nbytes + grow > KEPT_BYTES:
            kept.clear()
            buf = None
        if buf is not None:   # the old buffer's views go with it
            kept.nbytes -= buf.nbytes
            for k in [k for k in kept.views if k[0] == name]:
                del kept.views[k]
        buf = kept.buffers[name] = np.empty(max(need, 1), np.uint8)
        kept.nbytes += buf.nbytes
    if len(kept.views) >= _VIEWS:
        kept.views.clear()
    a = kept.views[key] = buf[:need].view(dtype).reshape(shape)
    return a


def kept_bytes() -> int:
    """Bytes of working arrays this thread keeps."""
    kept: _Kept | None = getattr(_LOCAL, "kept", None)
    return 0 if kept is None else kept.nbytes


def note_fixed_mmap(nbytes: int) -> None:
    """This process has fixed glibc's mmap threshold at ``nbytes`` (:func:`referee.table.run.steady_malloc`,
    :func:`vision.batch.keep_freed_memory`): stages that can avoid a large fresh array then do
    (:func:`mapped_afresh`)."""
    global FIXED_MMAP
    FIXED_MMAP = nbytes


def mapped_afresh(nbytes: int) -> bool:
    """Whether a fresh array of ``nbytes`` is mapped, paged in and zeroed anew each time it is made
    (about 0.4 ms a MB here): so when the process has fixed glibc's mmap threshold at that size or
    below.  Under glibc's own threshold, which rises to the size of each mapped block freed, such an
    array comes from the heap after the first time."""
    return 0 < FIXED_MMAP <= nbytes
