"""A knocked board found again: the camera turned a little, the board lies elsewhere in the frame.

:class:`FindAgain` is the search a :class:`vision.reader.BoardReader` runs when the board's
learned look (:mod:`vision.memory`) tells a move (:mod:`vision.knock`) or looks foreign: the
move folded into the corners and measured again, else the automatic search
(:func:`vision.locate.auto_corners`, about half a second, so at a cadence it keeps).
:func:`look_again` is the still-board filter's side of it (:mod:`vision.stability`): a still
frame its thumbnail calls covered, shown to the reader, who knows the board better.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import numpy as np

from . import knock
from . import layout as L
from .config import VisionConfig
from .memory import BoardMemory
from .reasons import NoReading
from .rectify import View, rectify

if TYPE_CHECKING:
    from .reader import BoardReader

REFIND_STEPS = 3              # a knocked board found again: its measured move folded into its corners at most so often
REFIND_AGREE = 0.25           # pw: the automatic search's corners agree with the measured move's within this
REFIND_UNTOLD_EVERY = 150     # frames read between searches while the board looks foreign and its move is not told
FRAME_S = 1 / 30              # s: a camera frame (those cadences hold in time too: a table reads only some frames)


def camera_moved(how: str) -> NoReading:
    """The board moved in the camera's view since the table learned it, further than a knock
    (``how``: by how much): its corners must be set again (or the camera put back)."""
    return NoReading("no_board", f"the camera moved: {how}; set the board's corners again (or put the camera back)",
                     (("moved", how),))


class FindAgain:
    """The search for a knocked board of one reader, with the frame and time of its last
    automatic search (its cadence).  The reader's configuration is passed on each search (a
    reader's ``config`` may be replaced between frames)."""

    def __init__(self) -> None:
        self.tried: Optional[tuple[int, float]] = None  # the read and time of the last automatic search

    def find(self, frame: np.ndarray, memory: BoardMemory, corners: np.ndarray, view: View,
             far: Optional[knock.Move], config: VisionConfig, frames: int,
             t: float = 0.0) -> Optional[tuple[np.ndarray, View]]:
        """The board found again after the camera was knocked (``far``: the move ``view`` shows;
        None: it could not be told, the view's tiles disagreeing and its slots looking foreign;
        ``config``: the reader's; ``frames``: the frames read so far and ``t`` the frame's time, for
        the search's cadence),
        its learned look kept: the new corners and the view at them, or None.

        A view warped back by the move (:func:`vision.knock.undo`) is resampled twice and its
        edges replicated; the view at corners that take the move in is the camera's own.  So the
        move is folded into the corners (:func:`vision.knock.moved_corners`) and measured again
        on the view at the new ones, at most :data:`REFIND_STEPS` times; they are taken when that
        view lies within a knock of the learned one (the last known frame's, the board's anchor),
        :data:`vision.knock.MIN_TILES` tiles agreeing.  Else, after a move further than a knock
        (:data:`vision.knock.FAR`: the looks would be compared with their neighbours' places) or
        one that could not be told, the automatic search (:func:`vision.locate.auto_corners`,
        about half a second: at most every ``auto_every`` frames read or their time, or :data:`REFIND_UNTOLD_EVERY`
        for a move not told, a hand resting over the board being likelier; never when the
        configuration turned it off) finds the board, and its corners are refined the same way
        and taken on the same terms, or with one tile fewer agreeing when they lie within
        :data:`REFIND_AGREE` point widths of the folded ones, or (no move told) their view within
        that of the learned one: two estimates that agree (a board edge cut off by the knock leaves
        a tile nothing to match).  A hand over the board stays foreign at any corners: the frame is then refused."""
        folded = None if far is None else knock.moved_corners(corners, view, far)
        got = None if folded is None else self._refine(frame, memory, folded, config)
        if got is not None and got[2].tiles >= knock.MIN_TILES:
            return self._found(memory, got[0], got[1])
        every = config.auto_every if far is not None else REFIND_UNTOLD_EVERY
        if (far is not None and not far.far(view.px)) or not config.auto or not self.may_search(every, frames, t):
            return None
        self.tried = (frames, t)
        from .locate import auto_corners
        found = auto_corners(frame)
        if found is None:
            return None
        size = float(np.linalg.norm(found[1] - found[0])) / L.WIDTH   # image px per point width
        for c in (found, found[[2, 3, 0, 1]]):   # the search may take the board the other way round
            got = self._refine(frame, memory, c, config)
            if got is None:
                continue
            agree = (float(np.abs(c - folded).max()) <= REFIND_AGREE * size if folded is not None
                     else got[2].reach <= REFIND_AGREE * got[1].px)
            if got[2].tiles >= knock.MIN_TILES or (agree and got[2].tiles >= knock.MIN_TILES - 1):
                return self._found(memory, got[0], got[1])
        return None

    def may_search(self, every: int, frames: int, t: float) -> bool:
        """The automatic search may run again: never tried, or ``every`` frames read since (of
        ``frames`` now), or (the frames' times known) ``every`` camera frames' time passed: the
        table shows the reader only some frames while something still covers the board
        (:meth:`vision.stability.StabilityFilter.feed`)."""
        if self.tried is None:
            return True
        was, when = self.tried
        return frames - was >= every or (t > 0 and when > 0 and t - when >= every * FRAME_S)

    def _refine(self, frame: np.ndarray, memory: BoardMemory, c: np.ndarray,
                config: VisionConfig) -> Optional[tuple[np.ndarray, View, knock.Move]]:
        """:func:`vision.knock.fold` of corners ``c`` on ``frame``; None when the view lies further
        than a knock from the learned one even so."""
        c, view, m = knock.fold(lambda at: rectify(frame, at, config.px, shape=config.shape),
                                memory.move, c, REFIND_STEPS)
        return None if m.far(view.px) else (c, view, m)

    def _found(self, memory: BoardMemory, c: np.ndarray, view: View) -> tuple[np.ndarray, View]:
        """Take the corners of a board found again: the learned look is tied to them now."""
        self.tried = None
        memory.found_again(c)
        return c, view


def look_again(reader: "BoardReader", frame: np.ndarray, t: float) -> bool:
    """A still frame the stability filter's thumbnail calls covered, shown to ``reader``, who
    knows the board better: True when it found a knocked camera's board again (its corners
    moved) or read the board as it is (a shadow or a lamp over the frame band, not a hand): the
    board then settles afresh.  Anything over the board the reader refuses: False."""
    before = reader.corners
    ev = reader.read(frame, t)
    return ev is not None or reader.corners is not before
