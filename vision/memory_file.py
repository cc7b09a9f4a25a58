"""The learned board kept on disk: one ``.npz`` file per table, beside the journal.

:class:`vision.memory.BoardMemory` learns a table's own look over a match; a restart must not forget
it, and a power cut must not leave half a file.  So the file is written beside the last one, put on the
disk (fsync) and only then put in its place; reading a damaged or foreign file raises ValueError naming
the file and the fix.  Files written before a later field existed are read with that field's default.
What was learned is tied to the corners it was learned at: a camera that moved starts afresh
(:mod:`vision.memory`'s caller decides).
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from . import layout as L
from .slots import slot_geometry

if TYPE_CHECKING:
    from .memory import BoardMemory

__all__ = ["read_memory", "write_memory"]


def write_memory(m: "BoardMemory", path: str) -> None:
    """Write what ``m`` learned to ``path`` (.npz), atomically and on the disk before it replaces the
    last one (a power cut leaves the old file or the new one, never half of one)."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, look=m.look, seen=m.seen, scales=m.scales.astype(np.float32),
                            frames=np.int32(m.frames), side=np.float32(m.geo.side),
                            height=np.float32(m.geo.height), pitch=np.asarray(m.geo.pitch, np.float64),
                            start=np.asarray(m.geo.start, np.float64),
                            corners=m.corners if m.corners is not None else np.zeros((0, 2), np.float32),
                            bands=np.stack(m.bands) if m.bands else np.zeros((0, 0, 4), np.float32),
                            lesson=np.str_(m.lesson), blind=m.blind, states=m.states, learned_at=m.learned_at,
                            anchor=m.anchor if m.anchor is not None else np.zeros((0, 0), np.float32))
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_memory(cls: "type[BoardMemory]", path: str) -> "BoardMemory":
    """A memory (of class ``cls``) written by :func:`write_memory` (a damaged file raises ValueError
    naming it)."""
    try:
        with np.load(path) as z:
            m = cls(float(z["side"]), float(z["height"]) if "height" in z.files else L.HEIGHT)
            if z["look"].shape != m.look.shape:
                raise ValueError(f"board memory {path!r} was learned with another slot layout")
            if "pitch" in z.files:  # a file from before the rows' spacing was kept: (1, 1)
                # ... and from before where the rows begin was kept: at the base
                start = tuple(float(v) for v in z["start"]) if "start" in z.files else (0.0, 0.0)
                m.geo = slot_geometry(m.geo.side, m.geo.height,
                                      tuple(float(v) for v in z["pitch"]), start)  # type: ignore[arg-type]
            m.look[:] = z["look"]
            m.seen[:] = z["seen"]
            m.scales = np.asarray(z["scales"], np.float64)
            m.frames = int(z["frames"])
            m.corners = z["corners"] if len(z["corners"]) else None
            m.bands = list(z["bands"]) if "bands" in z.files else []  # a file from before the band was kept
            m.lesson = str(z["lesson"]) if "lesson" in z.files else ""
            if "learned_at" in z.files:  # a file from before: every look taken as learned at the last lesson
                m.learned_at[:] = z["learned_at"]
            else:
                m.learned_at[:] = max(0, m.frames - 1)
            if "blind" in z.files:
                m.blind[:] = z["blind"]
            if "states" in z.files:  # a file from before: the light is taken as steady until the next lesson
                m.states[:] = z["states"]
            if "anchor" in z.files and z["anchor"].size:  # ... and the camera as still
                m.anchor = np.asarray(z["anchor"], np.float32)
    except (OSError, KeyError, EOFError, ValueError) as exc:
        if str(exc).startswith(f"board memory {path!r}"):
            raise
        raise ValueError(f"board memory {path!r} cannot be read ({exc}); "
                         "delete it to learn the board afresh") from None
    return m
