"""Working arrays reused frame after frame, one set per thread (two threads may read boards).

The reader's stages make the same large temporaries for every frame of one camera; fresh
ones cost page faults on every frame.  :func:`scratch` hands out this thread's array of a
name, shape and dtype, made once: its contents are whatever its last use left, so it must
never be kept (nor returned inside a result).
"""
from __future__ import annotations

import threading

import numpy as np

_LOCAL = threading.local()
_KEPT = 64   # arrays per thread; views of many sizes (a test suite) start the set again


def scratch(name: str, shape: tuple[int, ...], dtype: type) -> np.ndarray:
    """This thread's working array ``name`` of ``shape`` and ``dtype`` (uninitialised)."""
    kept: "dict[tuple[str, tuple[int, ...], type], np.ndarray]" = _LOCAL.__dict__.setdefault("arrays", {})
    key = (name, shape, dtype)
    a = kept.get(key)
    if a is None:
        if len(kept) >= _KEPT:
            kept.clear()
        a = kept[key] = np.empty(shape, dtype)
    return a
