"""Two readings of a still board compared: which is surer, and whether one shows a known position.

The still-board filter (:mod:`vision.stability`) emits a reading of the same board again when
it is :func:`surer`, reads it again sooner while it :func:`can_get_surer`, and learns the board's
look from a frame whose reading :func:`shows` the position the referee says it holds; a later game's
start, set up by the players rather than read from the board, only when no point reads otherwise surely
(:func:`unlike_start`), and the table then names the points to check.
"""
from __future__ import annotations

from typing import Optional

from referee.events import BoardEvidence, PointReading

from . import layout as L
from .layout import points_differ, same_board
from .read import CERTAIN


def can_get_surer(ev: BoardEvidence) -> bool:
    """A re-read of the same board could be :func:`surer` than ``ev``: the board or a point is
    below the gate, or the trays are not read."""
    return ev.confidence < CERTAIN or ev.off is None or any(p.confidence < CERTAIN for p in ev.points)


FIRST_MISFITS = 8   # points a plain reading may get wrong in the frame a board is first learned from
FIRST_ANY = 25      # first_misfits this high: any still frame teaches the first position told (set-up checked by hand)
FIRST_PATIENCE = 20.0  # seconds still frames may differ from the first position told before the table is told
LEARN_MISFITS = 2   # locations a reading may contradict and still be the frame of a known position
#: seconds a learned board may stand still one or two points off a later game's start before the table is told
#: (:func:`unlike_start`): its learned look reads a point surely, and the opening roll follows a set-up within seconds
START_PATIENCE = 5.0
#: locations a learned board's still frame may contradict a later game's start in and still be a set-up to check (a
#: checker or two misplaced, a die of the opening roll read as a checker); more: a board being set up, or not one,
#: of which nothing is said
START_MISFITS = 8


def misfits(reading: BoardEvidence, known: BoardEvidence) -> list[int]:
    """The locations where ``reading`` gives the contents of ``known`` less than a 2 % chance: the points
    0..23 (table numbering less one), the bar's dark and light counts 24 and 25, and the trays -1 where
    both are read and differ.  Without odds, the points and bar counts that differ."""
    if not reading.odds:
        return (points_differ(reading.points, known.points)
                + [24 + k for k in range(2) if reading.bar[k] != known.bar[k]])
    cells = [(p.count, p.colour) for p in known.points] + [(known.bar[0], None), (known.bar[1], None)]
    # the trays, where both are known: a bear-off of two checkers changes two points and a tray
    out = [-1] if reading.off is not None and known.off is not None and tuple(reading.off) != tuple(known.off) else []
    for k, (alts, (n, c)) in enumerate(zip(reading.odds, cells)):
        p = sum(q for m, col, q in alts if m == n and (k >= 24 or (col if m else None) == c))
        if p < 0.02:
            out.append(k)
    return out


def shows(reading: BoardEvidence, known: BoardEvidence) -> bool:
    """Whether a reading may be a frame of the known position: at most :data:`LEARN_MISFITS`
    locations (the points, the bar, and the trays where both are read) where the reading gives
    the known contents less than a 2 % chance (:func:`misfits`; the reader
    alone errs on a point or two of a real board; a frame of another position differs more)."""
    if not reading.odds:
        return same_board(reading, known)
    return len(misfits(reading, known)) <= LEARN_MISFITS


def unlike_start(reading: BoardEvidence, known: BoardEvidence) -> Optional[BoardEvidence]:
    """A later game's start, told to a table whose board is learned (``known``: the starting position): the
    points ``reading`` gives their starting contents less than a 2 % chance (:func:`misfits`) replaced in
    ``known`` by what it reads there (a checker set up on the wrong point, or left in the tray); None when
    it reads no point so.  :func:`shows` lets two such places through, as a move's frame may be misread
    there; a start is not read from the board but set up by the players, so none is let through."""
    doubted = [k for k in misfits(reading, known) if 0 <= k < 24]
    if not doubted:
        return None
    points = list(known.points)
    for k in doubted:
        points[k] = reading.points[k]
    return BoardEvidence(tuple(points), known.bar, known.off)


def more_than_fifteen(reading: BoardEvidence, known: BoardEvidence) -> bool:
    """Whether every point ``reading`` contradicts in ``known`` (:func:`misfits`) reads more checkers of a colour
    than ``known`` has there, and the board as read then holds more than 15 of that colour (points and bar): no
    set-up error does that (a checker set up on the wrong point leaves another point short; one left in the tray
    leaves the board short), something else lies there, read as a checker (a die of the opening roll the dice
    finder missed, on an empty point)."""
    doubted = [k for k in misfits(reading, known) if 0 <= k < 24]
    if not doubted:
        return False
    held = {c: sum(p.count for p in reading.points if p.colour == c) + reading.bar[i]
            for i, c in enumerate(("dark", "light"))}
    for k in doubted:
        got, want = reading.points[k], known.points[k]
        if not got.count or got.count <= want.count or (want.count and got.colour != want.colour) \
                or held.get(got.colour or "", 0) <= L.PER_SIDE:
            return False
    return True


def surer(new: BoardEvidence, old: BoardEvidence) -> bool:
    """``new`` is more certain than ``old``: the whole now passes the gate, or more locations do,
    or the trays are now read (``off`` known) where they were not."""
    if new.confidence >= CERTAIN > old.confidence:
        return True
    if new.confidence >= CERTAIN and new.off is not None and old.off is None:
        return True
    n_sure = lambda ev: sum(p.confidence >= CERTAIN for p in ev.points)  # noqa: E731
    return new.confidence >= CERTAIN and n_sure(new) > n_sure(old)


def unlike_first(reading: BoardEvidence, known: BoardEvidence, most: int = 4, learned: bool = False) -> str:
    """What the table is told when still frames go on differing from the first position it was
    told (a game's start) in more places than ``[vision] first_misfits`` allows (:data:`FIRST_MISFITS`
    by default), or, with ``learned``, from a later game's start in a point its learned look reads
    surely (:func:`unlike_start`): the points (table numbering) that differ, read against expected, at
    most ``most`` of them named, and how to have the board learned anyway (the director's order,
    :meth:`vision.lessons.Lessons.learn_as_it_stands`)."""
    said = f"the board does not look like the position the referee expects: {differences(reading, known, most)}. "
    order = "(the director's menu: \"Learn the board as it stands\"; or learn_board from the club page)"
    if learned:
        return said + f"Check the set-up; if it is right, the director can have the table learn it as set up {order}"
    return (said + "Check the set-up; if it is right, the camera reads this board poorly and will ask you to confirm "
            f"moves until the director has it learn the board as set up {order}")


def learned_as_it_stands(reading: BoardEvidence, known: BoardEvidence, most: int = 4) -> str:
    """What the table is told once the director's order to learn the board as it stands is carried
    out: the position learned, and where the camera's own reading of that frame differed (those
    places are now read by the board's learned look)."""
    said = differences(reading, known, most)
    if not said:
        return "the board is learned as it stands (the camera read it as the referee's position)"
    return ("the board is learned as it stands, as the referee's position; the camera alone read it otherwise: "
            + said)


def out_of_picture(setup: L.SetUp, cut: tuple[bool, ...]) -> str:
    """What the table is told once it has learned the board when the camera's picture leaves out part
    of some points (``cut``: by image rows, :func:`vision.rectify.points_out_of_picture`): those points
    (table numbering) and the fix."""
    points = [p for p in range(1, 25) if cut[setup.index(p)]]
    named = ", ".join(str(p) for p in points)
    them = "them" if len(points) > 1 else "it"
    return (f"the camera's picture leaves out part of point{'s' if len(points) > 1 else ''} {named}: set the camera "
            "so the whole board, frame and all, is in the picture (until then the table reads "
            f"{them} by the look it learned there only, and may ask you to confirm moves)")


#: px a point width under which the table is told its camera shows the board too small: the table's learned
#: reading gave every true play at 26 (real tournament frames scaled down, ``bench/vision_scale.py``), one in
#: ten asked at 18; without a reference (``bgtable read``) it wants about 35
FEW_PIXELS = 26.0
#: px a point width under which a single picture (``bgtable read``, no learned board) is read less surely: the
#: held-out real frames' true plays 80 of 80 at 52, 77 at 34, 58 at 26 (``bench/vision_scale.py``)
FEW_PIXELS_ALONE = 35.0


def too_few_pixels(px: float) -> str:
    """What the table is told once it has learned the board when its camera shows a point width in
    ``px`` pixels, fewer than :data:`FEW_PIXELS`, and the fix."""
    return (f"the camera shows a point's width in {px:.0f} pixels, too few to read the checkers surely (at least "
            f"{FEW_PIXELS:.0f}): bring the camera nearer the board, zoom in ([camera] zoom, with the Raspberry Pi "
            "camera) or raise [camera] resolution (until then the table may ask you to confirm moves)")


#: told when the director's order cannot be carried out (:meth:`vision.reader.BoardReader.learn` refused)
LEARN_REFUSED = ("the board could not be learned as it stands: the board lies further from where the camera "
                 "learned it than a knock (set the corners again, or delete board-memory.npz to learn afresh)")


def differences(reading: BoardEvidence, known: BoardEvidence, most: int = 4) -> str:
    """The points (table numbering) ``reading`` has otherwise than ``known``, read against expected,
    at most ``most`` of them named, and the bar when it differs."""
    def said(p: PointReading) -> str:
        return f"{p.count} {p.colour}" if p.count else "none"

    got, want = reading.points, known.points
    off = [(k + 1, said(got[k]), said(want[k])) for k in points_differ(got, want)]
    named = "; ".join(f"point {p} reads {got} ({want} expected)" for p, got, want in off[:most])
    more = f"; and {len(off) - most} more" if len(off) > most else ""
    bar = (f"the bar reads {reading.bar[0]} dark, {reading.bar[1]} light"
           if tuple(reading.bar) != tuple(known.bar) else "")
    return "; ".join(x for x in (named + more, bar) if x)
