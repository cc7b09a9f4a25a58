"""Why a frame gave no reading: a small value instead of a bare ``None``.

Each reason has a ``kind`` a program can test (``"no_board"``, ``"occluded"``,
``"impossible"``, ``"unsure"``, ``"not_set_up"``), the facts behind it, and one line a
player can read (``str(reason)``); ``to_json_dict()`` is the ``"reason"`` of
``bgtable read --json``.  :func:`reading_reason` tells, from a reading's rows, why the
reader would hand the referee nothing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from . import layout as L

KINDS = ("no_board", "occluded", "impossible", "unsure", "not_set_up")


@dataclass(frozen=True)
class NoReading:
    """Why there is no reading: ``kind`` (one of :data:`KINDS`), a line of text, the facts."""

    kind: str
    text: str
    facts: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"reason kind {self.kind!r}: expected one of {', '.join(KINDS)}")

    def __str__(self) -> str:
        return self.text

    def to_json_dict(self) -> dict[str, Any]:
        """``{"kind": ..., "text": ..., **facts}``: the ``bgtable read --json`` form."""
        return {"kind": self.kind, "text": self.text, **dict(self.facts)}


def no_board(why: str) -> NoReading:
    """The board was not found (``why``: how it was looked for)."""
    return NoReading("no_board", why if why.startswith("board not found") else f"board not found: {why}")


def occluded(where: list[str], points: tuple[str, ...] = ()) -> NoReading:
    """Something lies over the board; ``where``: the frame's edges it crosses (may be empty);
    ``points``: the points it lies on, when seen there (``"top 10"``, as ``bgtable read`` names
    them): a stack of a colour neither set shows (:func:`vision.assemble.foreign_points`)."""
    at = f" across the frame's {' and '.join(where)} edge{'s' if len(where) > 1 else ''}" if where else ""
    if points:
        return NoReading("occluded", f"something that is no checker lies over the board on {', '.join(points)} "
                         "(a dice cup, a hand?): no reading until it leaves", (("where", tuple(where)),
                                                                              ("points", tuple(points))))
    return NoReading("occluded", f"something lies over the board{at} (a hand?): no reading until it leaves",
                     (("where", tuple(where)),))


def impossible(totals: tuple[int, int]) -> NoReading:
    """More than 15 checkers of a colour were read (points and bar): which colours, by how much."""
    over = [(c, n - L.PER_SIDE) for c, n in zip(("dark", "light"), totals) if n > L.PER_SIDE]
    text = "; ".join(f"{c} has {n + L.PER_SIDE} checkers, {n} more than {L.PER_SIDE}" for c, n in over)
    return NoReading("impossible", f"impossible totals: {text or 'none over ' + str(L.PER_SIDE)}",
                     (("over", {c: n for c, n in over}), ("totals", {"dark": totals[0], "light": totals[1]})))


def unsure(confidence: float, minimum: float, points: list[str]) -> NoReading:
    """The reading is less sure than the referee takes; ``points``: the unsure ones by row and
    place as ``bgtable read`` shows them (``"top 1"``: the top row's first, from the first corner)."""
    which = f" (unsure: {', '.join(points)})" if points else ""
    return NoReading("unsure", f"unsure reading: confidence {confidence:.2f} below {minimum:g}{which}",
                     (("confidence", confidence), ("minimum", minimum), ("points", tuple(points))))


def not_set_up() -> NoReading:
    """Which corner holds Dark's home is not known yet (``dark_home = "auto"``: learned from the starting position)."""
    return NoReading("not_set_up", "which side is Dark's home is not known yet: set up the starting position "
                     "(or set dark_home in the [vision] settings)")


def totals(rows: L.RowReading) -> tuple[int, int]:
    """Checkers read per colour (dark, light), points and bar."""
    n = [rows.bar[0], rows.bar[1]]
    for p in rows.top + rows.bottom:
        if p.count and p.colour in ("dark", "light"):
            n[p.colour == "light"] += p.count
    return n[0], n[1]


def reading_reason(rows: Optional[L.RowReading], occluded_where: Optional[list[str]] = None,
                   set_up: bool = True, min_confidence: float = 0.6, certain: float = 0.6) -> Optional[NoReading]:
    """Why these rows give the referee no reading, or None when they do.  ``occluded_where``:
    not None when something lies over the board (the edges it crosses); ``set_up``: whether
    Dark's home is known; ``certain``: the confidence from which a point is sure."""
    if occluded_where is not None:
        return occluded(occluded_where)
    if rows is None:
        return None
    t = totals(rows)
    if t[0] > L.PER_SIDE or t[1] > L.PER_SIDE:
        return impossible(t)
    if not set_up:
        return not_set_up()
    if rows.confidence < min_confidence:
        points = [f"{r} {i + 1}" for r, ps in (("top", rows.top), ("bottom", rows.bottom))
                  for i, p in enumerate(ps) if p.confidence < certain]
        return unsure(rows.confidence, min_confidence, points)
    return None
