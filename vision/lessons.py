"""What the table learns of its board from the positions the referee tells: the lessons.

The referee tells the camera each position the board now shows (a game's start, an accepted move;
:meth:`Lessons.known`), or the director orders the board learned as it stands
(:meth:`Lessons.learn_as_it_stands`).  The still frame that shows it teaches the board its look
(:meth:`vision.reader.BoardReader.learn`):

* the board's first lesson (a game's start on a board never learned): learned from a still frame whose
  plain reading is within ``first_misfits`` places of it and whose own look under it agrees
  (:func:`vision.setup_check.unlike_told`); otherwise, after
  :data:`~vision.compare_readings.FIRST_PATIENCE` seconds, the table is told which points to check;
* a later game's start on a learned board: only when no point reads otherwise surely
  (:func:`vision.compare_readings.unlike_start`), the points named after
  :data:`~vision.compare_readings.START_PATIENCE` seconds (up to
  :data:`~vision.compare_readings.START_MISFITS` of them: a board further off is one being set up), and nothing
  said of the board as it stood when the start was told (the last game's, not yet set up);
* any other position: from a still frame that :func:`vision.compare_readings.shows` it.

:class:`Lessons` is the still-board filter's part that does this (:class:`vision.stability.StabilityFilter`
is one): it asks the filter's reader, its last still reading (``last``, ``last_view``), the picture of it
(``_last_frame``) and how long the board has been still (``quiet``).
"""
from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from referee.events import BoardEvidence

from . import layout as L
from .compare_readings import (FEW_PIXELS, FIRST_ANY, FIRST_PATIENCE, LEARN_REFUSED, START_MISFITS, START_PATIENCE,
                               learned_as_it_stands, misfits, more_than_fifteen, out_of_picture, shows, too_few_pixels,
                               unlike_first, unlike_start)
from .layout import RowReading, points_differ, same_board
from .memory import lesson_key
from .reader import BoardReader, Reading
from .rectify import View, pixels_per_point, points_out_of_picture
from .setup_check import unlike_told

#: told when play went on before a still frame carried out the director's order to learn the board
ORDER_DROPPED = ("the board was not learned as it stands: play went on before the camera saw it still; "
                 "order it again between turns, with the checkers still")


class Lessons:
    """The lessons of a still-board filter (see the module): what it was told, learned, refused and must say."""

    reader: BoardReader
    last: Optional[BoardEvidence]
    last_view: Optional[View]
    quiet: int
    _last_frame: Optional[np.ndarray]
    _read_grey: Optional[np.ndarray]

    def __init__(self) -> None:
        self._known: Optional[BoardEvidence] = None  # a position the referee says the board shows, to learn
        self._ordered = False                        # ... by the director's order: learned whatever the frame reads
        self.learned = 0                             # known positions learned from
        self._refused: Optional[float] = None        # when still frames first failed to show the first position
        self._unlike: Optional[BoardEvidence] = None # the last such frame's reading
        self.dice: tuple[Any, ...] = ()   # the dice found lying on the still board (:meth:`dice_seen`)
        # the last set-up check (vision.setup_check): (the reading, the position and the dice it was asked with;
        # its answer)
        self._told_check: Optional[tuple[tuple[Any, ...], Optional[BoardEvidence]]] = None
        self.report: Optional[str] = None            # what the table should be told (:meth:`take_report`)
        self._told_over: Optional[BoardEvidence] = None  # the still board read when the position was told
        self._camera_told = False                    # what the camera's picture leaves out or shows too small, told

    def known(self, ev: BoardEvidence) -> bool:
        """The referee says the board now shows ``ev`` (a game's start, an accepted move):
        learn the board's look from the last still frame if it shows that position, else from
        the next still frame that does.  True when learned now.

        A position told again after it was learned (a restart tells the referee's position, and
        the players may have moved on since) is not learned again: the next still frame may
        already show the next move, and a move of one or two checkers differs from it in no more
        places than a reading may err (:func:`shows`)."""
        if self._ordered:   # the director's order stands until a still frame carries it out ...
            if self._known is not None and same_board(ev, self._known):
                return False
            self._ordered, self.report = False, ORDER_DROPPED   # ... or the position changes first
        if self._learned_already(ev):
            self._known = None
            return False
        self._known, self._refused, self._unlike = ev, None, None
        self._told_over = self.last
        return self._try_learn()

    def learn_as_it_stands(self, ev: Optional[BoardEvidence]) -> None:
        """The director says the board, as it stands, shows ``ev`` (the referee's position): the
        next still frame teaches the board its look whatever it reads (``first_misfits`` not
        applied), as a first lesson or one more.  For a board the camera reads poorly: its
        first position reads too many places off to be learned unasked (:meth:`_first_lesson`).
        The frame is read afresh even when the board has not changed since the last reading, and
        the table is told, once, what was learned and where the camera alone read it otherwise.
        ``None``: play went on (the referee left the states where the board stands as its
        position): an order not yet carried out is dropped, and the table is told."""
        if ev is None:
            if self._ordered:
                self._known, self._ordered = None, False
                self.report = ORDER_DROPPED
            return
        self._known, self._ordered, self._refused, self._unlike = ev, True, None, None
        self._read_grey = None   # the next still frame is read (and teaches), not skipped as unchanged

    def dice_seen(self, dice: Any) -> None:
        """The dice the dice finder sees lying on the still board now (:class:`vision.dice_watch.DiceWatch`;
        none: lifted): a die over the learned slots is a die, not an arm (:meth:`BoardMemory.dice_lying`),
        and, before the board is first learned, the set-up check does not doubt a point where a die hides
        the slots that would tell (:func:`vision.setup_check.unlike_told`): a still board it doubted is read
        again."""
        self.dice = tuple(dice)
        if self.reader.memory is not None:
            self.reader.memory.dice_lying(self.dice)
        if self._known is not None and self._told_check is not None and self._told_check[1] is not None:
            self._read_grey = None   # the next still frame is read (and asked again), not skipped as unchanged

    def take_report(self) -> Optional[str]:
        """What the players or the director should be told about the camera, once (None: nothing):
        the still board has not looked like the first position it was told for
        :data:`FIRST_PATIENCE` seconds (the set-up is wrong, or the camera reads this board poorly)."""
        report, self.report = self.report, None
        return report

    def _learned_already(self, ev: BoardEvidence) -> bool:
        memory, setup = self.reader.memory, self.reader.setup
        if memory is None or setup is None or not getattr(memory, "lesson", ""):
            return False
        top, bottom = setup.to_rows(ev)
        return bool(memory.lesson == lesson_key(RowReading(tuple(top), tuple(bottom), ev.bar, 1.0)))

    def _trained(self) -> bool:
        return self.reader.memory is not None and self.reader.memory.trained

    def _first_lesson(self, reading: Reading, t: float, frame: Optional[np.ndarray] = None) -> None:
        """The board's first known position (a game's start): learned from a still frame whose
        plain reading is within ``first_misfits`` places of it (the ``[vision]`` setting;
        :data:`~vision.compare_readings.FIRST_MISFITS` by default), even when the frame band
        looks covered (real boards have hinges, clocks and trays there; only what the table
        learns of its own board tells them from a hand).  Players set the board up; a frame of
        another position differs in many more points, or, within those places, in a point the frame's
        own look under the position told reads otherwise (:func:`vision.setup_check.unlike_told`: a
        checker set up on the wrong point, a first move played before the board stood still): such a
        frame is not learned unasked, and after :data:`~vision.compare_readings.FIRST_PATIENCE` seconds
        the table is told which points to check.  ``frame``: the picture ``reading`` was read from
        (without it, the plain reading's places alone decide)."""
        assert self._known is not None
        if reading.rows is None or self.reader.setup is None or self.quiet < self.reader.config.stable_frames + 1:
            return
        top, bottom = self.reader.setup.to_rows(self._known)
        off = len(points_differ(list(reading.rows.top) + list(reading.rows.bottom), top + bottom))
        off += reading.rows.bar != self._known.bar
        # within the plain reading's misfits a frame of another position passes too (a checker set up on
        # the wrong point, a first move played): asked of the frame's own look
        unlike = self._unlike_told(self.reader.setup.to_evidence(reading.rows).points, frame) \
            if off <= self.reader.config.first_misfits else None
        if (off <= self.reader.config.first_misfits and unlike is None) or self._ordered:
            learned = self.reader.learn(self._known, reading.view)
            if self._ordered:   # the director is told what came of the order
                self.report = (learned_as_it_stands(self.reader.setup.to_evidence(reading.rows), self._known)
                               if learned else LEARN_REFUSED)
            if learned:
                self._tell_camera(reading.view)
            self._known, self._ordered, self._refused, self._unlike = None, False, None, None
            self.learned += 1
            return
        # still, and not the position told: players still setting up, or a board the camera reads poorly
        # (a camera whose picture leaves out part of the board is told so at once: the likeliest cause)
        self._tell_camera(reading.view)
        self._unlike_seen(unlike if unlike is not None else self.reader.setup.to_evidence(reading.rows), t)
        self._first_refused(t)

    def _unlike_seen(self, unlike: BoardEvidence, t: float) -> None:
        """A still frame at ``t`` shows ``unlike``, not the first position told: kept to be named once
        still frames have gone on differing for :data:`~vision.compare_readings.FIRST_PATIENCE` seconds."""
        self._unlike = unlike
        if self._refused is None:
            self._refused = t

    def _unlike_told(self, read: tuple[Any, ...], frame: Optional[np.ndarray]) -> Optional[BoardEvidence]:
        """:func:`vision.setup_check.unlike_told` of a still ``frame`` (its plain reading's points:
        ``read``) under the first position told, kept for the reading and the position it was asked
        with (a still board is read again now and then, and reads the same: not asked again).  None
        too when it is not asked: the board learned already, on the director's order, with
        ``first_misfits`` at :data:`~vision.compare_readings.FIRST_ANY`, or without the picture."""
        assert self._known is not None
        if self._trained() or self._ordered or frame is None or self.reader.config.first_misfits >= FIRST_ANY:
            return None
        key = (tuple((p.count, p.colour) for p in read), self._known, tuple(d.board for d in self.dice))
        if self._told_check is None or self._told_check[0] != key:
            self._told_check = (key, unlike_told(self.reader, frame, self._known, self.dice))
        return self._told_check[1]

    def _first_refused(self, t: float) -> None:
        """The still board has not shown the first position told for :data:`FIRST_PATIENCE`
        seconds since a still frame first failed to (players may still be setting up until then), or,
        on a learned board, a later game's start for :data:`START_PATIENCE` seconds: the table is told
        once which points differ (:attr:`report`)."""
        patience = START_PATIENCE if self._trained() else FIRST_PATIENCE
        if self._refused is None or self._unlike is None or self._known is None or t - self._refused < patience:
            return
        self.report = unlike_first(self._unlike, self._known, learned=self._trained())
        self._refused = math.inf   # said once, until the referee tells a position again

    def _try_learn(self) -> bool:
        if self._known is None or self.last is None or self.last_view is None:
            return False
        later_start = self._trained() and same_board(self._known, L.start_position())
        near = shows(self.last, self._known)   # at most a place or two off (a move's frame may be misread there)
        if not near:
            if not later_start:
                return False
            if len(misfits(self.last, self._known)) > START_MISFITS:
                # a board being set up, or not one: nothing to say (nor what an earlier still frame showed)
                self._refused, self._unlike = None, None
                return False
            # a later start two checkers off is named as one a checker off is (below), not passed over in silence
        # the board's first lesson: a frame of another position may show the one told by its plain odds
        # too (a count one off keeps 3 % at a point); asked of the frame's own look
        unlike = self._unlike_told(self.last.points, self._last_frame)
        if unlike is None and later_start:
            # a later game's start: set up by the players, not read from the board, so a point the learned
            # look reads otherwise surely is one to check, and its look is not learned as the start's
            unlike = unlike_start(self.last, self._known)
            if unlike is not None and more_than_fifteen(self.last, self._known):
                # a checker too many of a colour: something else lies there (a missed die); not learned, and not
                # said (nor what an earlier still frame showed: the board has changed since)
                self._refused, self._unlike = None, None
                return False
        if unlike is not None:
            if later_start and not near and self._told_over is not None and same_board(self.last, self._told_over):
                # the board as it stood when the start was told, further off it than a set-up a checker off (the
                # last game's): nothing to say; one a checker off is named as before
                return False
            self._unlike_seen(unlike, self.last.t)
            return False
        self.reader.learn(self._known, self.last_view)
        self._tell_camera(self.last_view)
        self._known, self._refused, self._unlike = None, None, None
        self.learned += 1
        return True

    def _tell_camera(self, view: View) -> None:
        """At the board's first lesson (learned, or refused: the still board unlike the position
        told), the points the camera's picture leaves out in part, told once (:attr:`report`): a
        single frame reads nothing there, and the fix is the camera's; and, once, a camera that
        shows the board too small (fewer than :data:`~vision.compare_readings.FEW_PIXELS` pixels a
        point width), the two said together when both are so."""
        if self._camera_told or self.report is not None or self.reader.setup is None:
            return
        said = []
        cut = points_out_of_picture(view)
        if any(cut):
            said.append(out_of_picture(self.reader.setup, cut))
        px = pixels_per_point(view)
        if px is not None and px < FEW_PIXELS:
            said.append(too_few_pixels(px))
        if said:
            self.report, self._camera_told = "; and ".join(said), True
