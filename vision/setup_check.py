"""Does a still frame show the position the referee was told?  Asked of the frame's own look.

A table first learns its board from the first still frame of a game's start (the first lesson,
:meth:`vision.lessons.Lessons._first_lesson`): its plain reading may be off in up to
``[vision] first_misfits`` places (8 by default; a real board's plain reading errs on a point or
a few).  So a frame of another position passes too: a checker set up on the wrong point, one
missing, or the first move played before the board first stood still.  The board's look is
then learned under a position it does not show: the learned look agrees with the referee's
position where the board does not, and the record goes on from a position the table never showed.

Under the position told, the frame can say more than its plain reading: taught by itself
(:mod:`vision.self_reference`, each point read with the looks of the other points), a point
whose slots show another count or colour than told, at least :data:`SETUP_ODDS` to 1 over what
was told, and which the plain reading reads otherwise too, is one the players should check
(:func:`unlike_told`): the board is not learned unasked.  A set-up error or a first move changes
a point by a checker or two: the frame's looks tell nothing of a point they read further off than
that (:data:`SETUP_DICE`, a plain roll's bound), as when it judges a move; nor of a point a die
found on the board lies on.

Measured with ``bench/first_lesson.py`` (the table's stability filter shown a still frame and told
a position; session 36).  On the 41 labelled real boards of every set: told their own position,
learned unasked 36 as before (the other five, read 9-15 places off, never were);
told the position one move before the frame's, wrongly learned 48 of 222 (182 before); told the
frame's position with one checker set up a point or two off or missing, 59 of 164 (141).  On
rendered real-looking tables told the starting position (``--rendered``): the start learned 30 of
30 and 100 of 100 (seeds 940000 on, not looked at while choosing :data:`SETUP_ODDS`), a mis-set
start 4 of 30 and 10 of 100, a first move played 2 of 30 and 5 of 100 (every one before).  At 30:1
without the plain reading's agreement, a die on a stack the dice finder missed and a logo on the
field were doubted on 2 of the 30 rendered starts (with it, the logo still); at 300:1 the real
frames' wrong lessons were a third more (64 and 74).  The check reads the frame twice more (a copy
of the reader, so the table's own is left as it was), about 0.15 s of CPU here, once per distinct
still reading until the board is first learned.

The frame's own look is asked even where a single frame's signs say something lies over the board
(the frame band, a blank patch, a stack of neither colour), as the first lesson learns such a frame
all the same: a fitting on the frame, a die beside the board or a patterned point is no hand, and
the look the frame teaches itself counts a hand's foreign slots on its own
(:meth:`vision.self_reference.SelfReference.covered`).  Before (session 37) the check said nothing
on four real boards whose band or a stack of neither colour looked covered (test6, IMG_2602,
image026, IMG_6C7751A24DD0-1), and all 40 frames of another position shown there were learned (6 now).
Over the 41 boards, told the position one move before the frame's, wrongly learned 25 of 222 (48);
with one checker mis-set, 48 of 164 (59); every board told its own position learned as before (36 of
41; test6's own position is doubted at 56:1 at most, under the 100:1 asked).  ``image043``, covered
by its own look (a very dark photo), still says nothing.  Rendered tables, seeds 940000-099
(not looked at): the start learned 100 of 100, a mis-set start 8 (10), a first move played 2 (5).

A checker set up a point off, or moved, changes two points, and on a real board each may read otherwise
at less than 100:1 while the two together say clearly that the board is not as told: the two points
doubted most are named when together they favour what they show at :data:`SETUP_PAIR_ODDS` (300) to
1 or more.  Told its own position, no labelled board's two points reach 42:1 together (those within
``first_misfits``); told the position one move before the frame's, wrongly learned 25 -> 10 of 222;
with a checker mis-set, 48 -> 32 of 164; rendered tables (seeds 930000-029 and 940000-099) as before.

A die lying on a point kept the whole point from being doubted.  A stack runs from the point's base,
so only the slots between the count told and the count shown tell them apart (every slot up to the
larger when the colours differ): a die further up the point, or nearer its base than those, hides
nothing of it (:func:`_hidden`).  Rendered starts left a checker short with a die on that point's
fifth slot were learned unasked (930000, 930011).  After: real boards wrongly learned one move on
10 -> 6 of 222, mis-set 32 -> 29 of 164, own positions 36 as before; rendered seeds 930000-029 mis-set
4 -> 2, seeds 940000-099 (not looked at) mis-set 8 -> 6, the start 30 and 100 learned as before.
"""
from __future__ import annotations

import copy
import math
from typing import TYPE_CHECKING, Optional, Sequence

import numpy as np

from referee.events import BoardEvidence, PointReading

if TYPE_CHECKING:  # pragma: no cover
    from .dice import DieSeen
    from .reader import BoardReader

#: the odds (to 1) by which a point's slots must favour another count or colour than told to be doubted
#: (chosen on the labelled real boards and 30 rendered tables: 30 doubted a rendered logo, 300 let a third
#: more mis-set real boards through)
SETUP_ODDS = 100.0
#: the odds (to 1) by which the two points the frame's looks doubt most must together favour what they show:
#: a checker set up a point off, or moved, changes two points, each of which may fall short of SETUP_ODDS
#: (chosen on the labelled real boards, session 37: told its own position, no board's two points reach 42:1 together)
SETUP_PAIR_ODDS = 300.0
#: the roll the frame's looks are bounded by: a point read more than two checkers off what was told
#: tells nothing (a set-up error or one move changes a point by one or two)
SETUP_DICE = (1, 2)


#: one point the frame's own look reads otherwise than told: (the odds it gives what it shows over what was
#: told, the point in table numbering, what it shows as (count, colour))
Doubt = tuple[float, int, tuple[int, Optional[str]]]


def unlike_told(reader: "BoardReader", frame: np.ndarray, told: BoardEvidence,
                dice: Sequence["DieSeen"] = ()) -> Optional[BoardEvidence]:
    """The still ``frame`` as its own look reads it under the position ``told`` (table numbering):
    ``told`` with each point that shows another count or colour, by :data:`SETUP_ODDS` to 1 or
    more, replaced by what it shows (failing one, the two points that show another by the most, when
    together they do so by :data:`SETUP_PAIR_ODDS` to 1 or more); None when the frame shows ``told``
    or cannot tell (:func:`doubts`)."""
    found = doubts(reader, frame, told, dice)
    if not found:
        return None
    doubted = [d for d in found if d[0] >= SETUP_ODDS]
    if not doubted and len(found) >= 2 and found[0][0] * found[1][0] >= SETUP_PAIR_ODDS:
        doubted = found[:2]   # a checker set up a point off, or moved: the two points it changed, together
    if not doubted:
        return None
    points = list(told.points)
    for _, point, (n, c) in doubted:
        points[point - 1] = PointReading(n, c)
    return BoardEvidence(tuple(points), told.bar, told.off)


def doubts(reader: "BoardReader", frame: np.ndarray, told: BoardEvidence,
           dice: Sequence["DieSeen"] = ()) -> Optional[list[Doubt]]:
    """The points of the still ``frame`` that its own look, taught under the position ``told`` (table
    numbering), reads otherwise, most doubted first (:data:`Doubt`; empty: none); None when it cannot
    tell (a hand over the board by the frame's own look, no set-up yet).  A point the plain reading
    reads as told is not doubted.  ``dice``: the dice found lying on the board (the opening roll's,
    :class:`vision.dice_watch.DiceWatch`): a point is not doubted where a die lies on the slots that
    would tell what it shows from what was told (the die may hide a checker or look like one;
    :func:`_hidden`).  ``reader`` (the table's) is left as it was: the frame is read by a copy of it."""
    if reader.setup is None:
        return None
    probe = copy.deepcopy(reader)
    probe.memory = None
    plain = probe.inspect(frame, read_occluded=True)
    if plain.rows is None:
        return None
    read = reader.setup.to_evidence(plain.rows).points   # the plain reading, table numbering
    # (rows laid from the bases as before: rows that may begin before them let a position one move off fit
    # better, and the real boards' wrong lessons rose, bench/first_lesson.py: test8 mis-set, IMG_6C7751A24DD0-1)
    if not probe.assume(told, dice=SETUP_DICE, before_base=False) or probe.memory is None:
        return None
    probe.memory.dice_lying(dice)
    # the first lesson learns a still frame whatever its frame band shows (hinges, a clock, a cube
    # beside the board): asked of the same frame, its own look alone says whether a hand lies over it
    ev = probe.inspect(frame, frame_band=False).evidence
    if ev is None or not ev.odds:
        return None
    per = probe.memory.geo.per_point
    under = probe.memory.under_dice[:24 * per].reshape(24, per)   # slots under a die: image rows, top then bottom
    found: list[Doubt] = []
    for i, (alts, was) in enumerate(zip(ev.odds[:24], told.points)):
        if (read[i].count, read[i].colour) == (was.count, was.colour):
            continue
        want = (was.count, was.colour if was.count else None)
        odds = {(n, c if n else None): q for n, c, q in alts}
        best, q = max(odds.items(), key=lambda kv: kv[1])
        if best != want and not _hidden(under[reader.setup.index(i + 1)], want, best):
            found.append((q / odds[want] if odds.get(want, 0.0) > 0.0 else math.inf, i + 1, best))
    found.sort(key=lambda d: -d[0])
    return found


def _hidden(under: np.ndarray, told: tuple[int, Optional[str]], shown: tuple[int, Optional[str]]) -> bool:
    """Whether a die lies where a point's slots (``under``: from the point's base, those under a die) would
    tell ``shown`` from ``told``: the slots between the two counts (a stack runs from the base, so a
    slot beyond them, seen bare or covered, says nothing either way); every slot up to the larger count
    when the colours differ, and the whole point for a count beyond its slots."""
    (a, ca), (b, cb) = told, shown
    lo, hi = min(a, b), max(a, b)
    if a and b and ca != cb:
        lo = 0
    if hi > len(under):
        return bool(under.any())
    return bool(under[lo:hi].any())


__all__ = ["Doubt", "SETUP_DICE", "SETUP_ODDS", "SETUP_PAIR_ODDS", "doubts", "unlike_told"]
