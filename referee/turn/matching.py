"""Matching a stable board reading against the positions a roll allows (the matching rule).

The camera's counts can be uncertain (tall stacks, partly hidden checkers), so the
referee does not compare for equality alone.  The rule, in order:

1. **Unreadable**: the reading's overall confidence is below ``min_confidence`` -> wait.
2. **Misreading** (no real position can produce it): the non-mover's checkers on the
   points and bar must total exactly what they were before the move (the mover can
   only hit them); the mover's total may drop by at most 4 (bearing off), never grow;
   when the trays are visible each colour must total 15 with its borne-off checkers;
   when they are not, a drop in the mover's total while some of its checkers are still
   outside its home board is a checker in a hand, not a bear-off.  A reading that breaks
   this is a misreading -> wait for the next one (an illegal bear-off with the trays out
   of sight is therefore held, not judged: the players call the director).
3. **Fit**: a location (a point, a bar, a tray) is *certain* when its confidence is at
   least ``min_confidence``.  A candidate fits when every certain location agrees
   exactly (count and colour) and every uncertain location differs by at most one
   checker.  Its *distance* is the sum of those differences.
4. One candidate fits -> that move.  Several fit -> the one with the strictly smallest
   distance; if two or more share the smallest distance: **ambiguous**, hold and ask.
5. None fits: if every location is certain the reading is a clear position outside the
   legal set -> **illegal**; otherwise -> **uncertain**, wait for a better reading.

A camera reading with per-location odds is judged by likelihood instead
(:mod:`referee.turn.likelihood`): the best legal successor must be clearly more likely than every
other candidate, and "illegal" needs a surely read position outside the legal set.

Positions are :class:`~referee.rules.position.Position` values with Dark on roll
("dark perspective"); layouts are in table numbering (``referee.events``); the two meet in
:mod:`referee.board` (its names are also importable from here).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from referee.board import Layout, evidence_position, layout_of, layout_to_evidence, position_of  # noqa: F401
from referee.colour import COLOURS, Colour
from referee.events import BoardEvidence
from referee.rules.position import CHECKERS, Position

TOLERANCE = 1


@dataclass(frozen=True)
class Verdict:
    """The outcome of matching: ``kind`` is ``match``, ``ambiguous``, ``illegal``,
    ``misread``, ``uncertain`` or ``unreadable``; ``indices`` the fitting candidates
    (best first); ``reason`` says why in a sentence; ``position`` the reading at face
    value when it is clear (for an illegal move)."""

    kind: str
    indices: tuple[int, ...] = ()
    reason: str = ""
    position: Optional[Position] = None


def _totals_problem(ev: BoardEvidence, before: Layout, mover: str) -> Optional[str]:
    on = {"dark": sum(ev.counts("dark")) + ev.bar[0], "light": sum(ev.counts("light")) + ev.bar[1]}
    was = {"dark": sum(before.dark) + before.bar[0], "light": sum(before.light) + before.bar[1]}
    for c in COLOURS:
        if c != mover and on[c] != was[c]:
            return f"it shows {on[c]} {c} checkers on the board, {was[c]} expected"
        if c == mover and not was[c] - 4 <= on[c] <= was[c]:
            return f"it shows {on[c]} {c} checkers on the board, {max(0, was[c] - 4)} to {was[c]} possible"
    if ev.off is not None:
        for i, c in enumerate(COLOURS):
            if on[c] + ev.off[i] != CHECKERS:
                return f"it shows {on[c]} {c} checkers on the board and {ev.off[i]} off, not 15"
    elif on[mover] < was[mover]:
        counts = ev.counts(mover)
        outside = sum(counts[6:]) if mover == "dark" else sum(counts[:18])
        outside += ev.bar[Colour.parse(mover).number]
        if outside:
            return (f"{was[mover] - on[mover]} {mover} checker(s) are missing from the board while "
                    f"{outside} are outside the home board (a checker in a hand?)")
    return None


def _uncertain(ev: BoardEvidence, min_conf: float) -> list[int]:
    return [i for i, p in enumerate(ev.points) if p.confidence < min_conf]


def _distance(ev: BoardEvidence, lay: Layout, uncertain: set[int]) -> Optional[int]:
    """Sum of count differences at uncertain locations; None if a certain one disagrees
    or an uncertain one differs by more than the tolerance."""
    total = 0
    for i, p in enumerate(ev.points):
        d, l_ = lay.dark[i], lay.light[i]
        want_c, want_n = ("dark", d) if d else ("light", l_) if l_ else (None, 0)
        if p.count == want_n and (p.colour == want_c or not want_n):
            continue
        if i not in uncertain:
            return None
        diff = abs(p.count - want_n) if (p.colour == want_c or not p.count or not want_n) else p.count + want_n
        if diff > TOLERANCE:
            return None
        total += diff
    if tuple(ev.bar) != lay.bar:
        return None
    if ev.off is not None and tuple(ev.off) != lay.off:
        return None
    return total


def match_reading(ev: BoardEvidence, before: Position, candidates: Sequence[Position], mover: str,
                  min_confidence: float = 0.6) -> Verdict:
    """Apply the matching rule (module docstring) to a reading; positions Dark on roll.

    A reading that carries odds (every camera reading does) is judged by likelihood over
    the candidates instead (:func:`referee.turn.likelihood.judge`); the rule above is for
    readings given as plain counts (scripts, old journals, the perfect simulated camera).
    """
    if ev.odds:
        from referee.turn.likelihood import judge
        return judge(ev, before, candidates, mover)
    if ev.confidence < min_confidence:
        return Verdict("unreadable", reason=f"the board reading's confidence {ev.confidence:.2f} is too low")
    problem = _totals_problem(ev, layout_of(before), mover)
    if problem:
        return Verdict("misread", reason="the reading cannot be a real position: " + problem)
    unc = set(_uncertain(ev, min_confidence))
    if not unc:  # a clear reading: one position, compared by value
        pos = evidence_position(ev)
        exact = tuple(k for k, cand in enumerate(candidates) if cand == pos)
        if exact:
            return Verdict("match", exact)
        return Verdict("illegal", reason="the position is not one the roll allows", position=pos)
    fits = []
    for k, cand in enumerate(candidates):
        dist = _distance(ev, layout_of(cand), unc)
        if dist is not None:
            fits.append((dist, k))
    fits.sort()
    if fits:
        best = fits[0][0]
        tied = tuple(k for d, k in fits if d == best)
        if len(tied) == 1:
            return Verdict("match", (tied[0],) + tuple(k for d, k in fits[1:]))
        return Verdict("ambiguous", tied, reason=f"{len(tied)} legal moves fit the reading equally well")
    if not unc:
        try:
            pos = evidence_position(ev)
        except ValueError:  # pragma: no cover - counts were checked above
            return Verdict("misread", reason="the reading cannot be a real position")
        return Verdict("illegal", reason="the position is not one the roll allows", position=pos)
    pts = ", ".join(str(i + 1) for i in sorted(unc))
    return Verdict("uncertain", reason=f"no legal move fits and point(s) {pts} are not clearly read")
