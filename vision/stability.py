"""Only still boards are read: a per-frame quiet check, and readings that must repeat.

:class:`StabilityFilter` is an explicit state machine over frames::

    MOVING --quiet frame--> SETTLING --stable_frames quiet--> READING --repeat equal readings--> STABLE
      ^                                                                                           |
      +------------------------- motion or something over the board (any state) -----------------+

Entering MOVING (from any other state) emits a :class:`referee.events.HandOverBoard`;
reaching STABLE with a reading different from the last one emitted emits that
:class:`referee.events.BoardEvidence`, and so does the first STABLE after a movement even when the
board reads as before (a hand that changed nothing, the dice lifted off it: the referee, told of
the hand, waits for a still board and must be told it is still again), and the re-read of a still
board whose picture changed between two frames (the dice taken off it too fast to be seen moving);
so does the same board read more surely while
STABLE (:func:`surer`: its confidence now reaches 0.6, or more points do), so a
consumer that held an unsure reading gets a better one without anything moving.  The quiet check is
cheap (a small rectified grey
thumbnail, frame-to-frame difference and the frame-band occlusion test); the full read
runs only on quiet frames, and while STABLE only when the board may have changed: a frame
whose thumbnail matches the one of the last full read (:data:`STILL_LEVEL`) is the same
board and is not read again, except every ``reread_every`` frames (slow drift of the light).
A reading that could still get surer (:func:`can_get_surer`) is read again sooner: after
``unsure_every`` frames, then each time twice as late while it gets no surer.

A big change that stays perfectly still but looks like something over the board (the frame
band crossed) may be the camera knocked, or a shadow: every :data:`REBASE_FRAMES` such frames
the reader is shown one (:meth:`StabilityFilter._look_again`); when it finds the board again at
new corners (:meth:`vision.reader.BoardReader.read`), or reads the board as it is, the board
settles afresh as after any move.  An arm held still stays foreign to the reader: nothing is read.

What the board learns from the positions the referee tells (the first game's start, later starts, each
accepted move, the director's order) is the filter's other part, :class:`vision.lessons.Lessons`.
"""
from __future__ import annotations

from enum import Enum
from typing import Optional, Union

import cv2
import numpy as np

from referee.events import BoardEvidence, HandOverBoard

from .errors import BoardNotFound
from . import layout as L
from .layout import same_board
from .lessons import Lessons
from .occlusion import occlusion_score
from .compare_readings import can_get_surer, surer
from .find_again import look_again
from .reader import BoardReader
from .rectify import FrameMap, View, homography
from .thumbnail import (CACHE_LINE, THUMB_MARGIN, THUMB_PX, THUMB_SIZE, grey_levels, hist_median, small_median,
                        touched_part)

CHANGE_LEVEL = 30          # grey levels of change that count
BLOB_AREA_PW2 = 4.5        # a changed region larger than this (square point widths) is not a move
NOISE_LEVEL = 4            # grey levels of frame-to-frame change that are sensor noise, not motion
REBASE_FRAMES = 10         # motionless frames after which a big change is taken as the new board
BACK_SHARE = 0.5           # ... counted until a frame's change is under this share of the limits
STILL_LEVEL = 20           # grey levels: a thumbnail pixel further off the last read frame's has changed
STILL_PIXELS = 3           # ... and more such pixels than this: the board may have changed (re-read it)
REREAD_EVERY = 60          # frames: a still board is read again at least this often (2 s at 30 fps)
UNSURE_EVERY = 2           # ... first after this many while its reading could still get surer (then doubling)
_LEVELS = np.arange(-255, 256)   # the frame-to-frame change of a grey level: a histogram's bins


class State(str, Enum):
    """The stability filter's state: something moving, settling, reading the board, or stable."""

    MOVING = "moving"
    SETTLING = "settling"
    READING = "reading"
    STABLE = "stable"


def thumb_unseen(corners: np.ndarray, shape: tuple[int, ...]) -> tuple[FrameMap, Optional[np.ndarray]]:
    """The picture (of ``shape``) a thumbnail at ``corners`` is cut from, and the thumbnail's pixels
    that lie past its edge (None when the picture shows the whole thumbnail, the usual case).  There
    the warp repeats the picture's edge: a checker moved at a cut-off edge changes those pixels too,
    and on the frame band they would count as a hand."""
    seen = FrameMap(np.array(corners, np.float32, copy=True), L.BoardShape(), (int(shape[0]), int(shape[1])))
    w, h = THUMB_SIZE
    return seen, seen.outside(THUMB_PX, -THUMB_MARGIN, -THUMB_MARGIN, (h, w))


class StabilityFilter(Lessons):
    """Feed frames; get a :class:`BoardEvidence` when a new still reading is established."""

    def __init__(self, reader: BoardReader, reread_every: int = REREAD_EVERY, unsure_every: int = UNSURE_EVERY) -> None:
        if reread_every < 1 or unsure_every < 1:
            raise ValueError(f"reread_every {reread_every} and unsure_every {unsure_every} must be at least 1 (frames)")
        self.reader = reader
        self.reread_every = reread_every
        self.unsure_every = unsure_every
        self.skipped = 0                            # still frames not read since the last full read
        self._period = reread_every                 # frames between full reads of an unchanged board, now
        self._read_grey: Optional[np.ndarray] = None  # the thumbnail of the last full read that gave ``last``
        self.state = State.MOVING
        self.quiet = 0
        self._prev: Optional[np.ndarray] = None
        self._candidate: Optional[BoardEvidence] = None
        self._repeats = 0
        self.last: Optional[BoardEvidence] = None
        self._moved = False                          # a movement since the last reading emitted
        self._H: Optional[np.ndarray] = None
        self._Hfor: Optional[tuple[bytes, tuple[int, ...]]] = None   # the corners and frame size it is for
        self._touch: Optional[tuple[int, int, int, int]] = None      # the frame's part the warp reads
        self._seen: Optional[FrameMap] = None      # the picture the thumbnail is cut from
        self._unseen: Optional[np.ndarray] = None  # the thumbnail's pixels past the picture's edge (None: none)
        self._ref: Optional[np.ndarray] = None
        self._last_grey: Optional[np.ndarray] = None
        self._still_changed = 0
        # the reference thumbnail, its median grey and its grey levels as floats
        self._ref_median: Optional[tuple[np.ndarray, float, np.ndarray]] = None
        self._buffers: dict[str, np.ndarray] = {}  # kept per-frame work arrays (the thumbnail's size)
        self.last_view: Optional[View] = None       # the frame (rectified) of the last reading emitted
        self._last_frame: Optional[np.ndarray] = None   # the picture of `last`, until the board is first learned
        Lessons.__init__(self)

    def _thumb(self, frame: np.ndarray) -> View:
        """The frame's small rectified thumbnail (a new array: the rebase keeps none of it)."""
        corners = self.reader.locate(frame)
        key = (np.ascontiguousarray(corners).tobytes(), frame.shape)
        if self._H is None or key != self._Hfor:
            self._H, self._Hfor = homography(corners, THUMB_PX, THUMB_MARGIN), key
            self._touch = touched_part(self._H, frame.shape)
            self._seen, self._unseen = thumb_unseen(corners, frame.shape)
        if self._touch is not None and frame.dtype == np.uint8 and frame.flags.c_contiguous:
            # read the frame's part the warp samples one byte per cache line, in order, first: the
            # warp's scattered reads of a frame fresh from the camera (not yet in any cache) then
            # find it there, at half the cost of the warp alone; the pixels are the same
            y0, y1, b0, b1 = self._touch
            part = frame.reshape(frame.shape[0], -1)[y0:y1, b0:b1:CACHE_LINE]
            np.copyto(self._scratch("touch", part.shape, np.uint8), part)
        small = cv2.warpPerspective(frame, self._H, THUMB_SIZE, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        return View(small, THUMB_PX, THUMB_MARGIN, frame=self._seen)

    def _scratch(self, name: str, shape: tuple[int, ...], dtype: type) -> np.ndarray:
        """A kept work array of this shape and type (its contents are overwritten)."""
        buf = self._buffers.get(name)
        if buf is None or buf.shape != shape or buf.dtype != dtype:
            buf = self._buffers[name] = np.empty(shape, dtype)
        return buf

    def is_quiet(self, frame: np.ndarray) -> bool:
        """The per-frame check: nothing moved since the last frame, and nothing is over the board.

        "Over the board" is judged against the thumbnail of the last stable board when
        there is one (a changed region larger than a few checkers, or any change on the
        frame band, is a hand or an arm); before that the reader judges each frame.
        """
        view = self._thumb(frame)
        grey = grey_levels(view)
        prev, self._prev = self._prev, grey
        self._last_grey = grey
        if prev is None or prev.shape != grey.shape:
            return False
        # the frame-to-frame change, all from its histogram (511 bins, not a pass per test over
        # the thumbnail): a global flicker of the light (the median change) is not motion
        diff = grey - prev
        diff += 255
        counts = np.bincount(diff.ravel(), minlength=511)
        d = np.abs(_LEVELS - int(hist_median(counts.cumsum(), -255)))   # each bin's change past the flicker
        cfg = self.reader.config
        if (int(counts @ np.maximum(d - NOISE_LEVEL, 0)) / grey.size > cfg.motion * 0.25
                or int(counts[d > cfg.motion * 4].sum()) > BLOB_AREA_PW2 * THUMB_PX ** 2 * 0.25):
            return False
        if self._ref is None:
            # no still board seen yet: stillness is enough here (the reader refuses a frame whose
            # band looks covered until it has learned the board; real boards have fittings there)
            return True
        # once a big change is being counted, a frame must come clearly back to the reference (half the
        # area) to end it: a change near the limit (a board set up afresh, in camera noise) would
        # otherwise flip between a hand and a still board on every frame, and never be taken as the board
        if not self._changed_a_lot(grey, self._ref, BACK_SHARE if self._still_changed else 1.0):
            self._still_changed = 0
            return True
        # a big change that stays perfectly still is the board itself (a stack cleared at
        # once, a lamp moved): after REBASE_FRAMES motionless frames it becomes the reference
        self._still_changed += 1
        if self._still_changed >= REBASE_FRAMES and occlusion_score(view, cfg.occlusion) <= 1.0:
            self._ref, self._still_changed = grey, 0
            return True
        return False

    def _changed_a_lot(self, grey: np.ndarray, ref: np.ndarray, share: float = 1.0) -> bool:
        """More of the board changed since ``ref`` than a move changes: on the frame band, or one region
        larger than :data:`BLOB_AREA_PW2`; each limit times ``share``."""
        if self._ref_median is None or self._ref_median[0] is not ref:
            self._ref_median = (ref, small_median(ref, 0), ref.astype(np.float64))
        gain = hist_median(np.bincount(grey.ravel(), minlength=256).cumsum(), 0) / max(1.0, self._ref_median[1])
        # |grey - ref * gain| > CHANGE_LEVEL, the same float arithmetic in kept buffers
        off = np.multiply(self._ref_median[2], gain, out=self._scratch("off", grey.shape, np.float64))
        np.subtract(grey, off, out=off)
        np.abs(off, out=off)
        diff = np.greater(off, CHANGE_LEVEL, out=self._scratch("changed", grey.shape, np.bool_)).view(np.uint8)
        if self._unseen is not None and self._unseen.shape == diff.shape:
            diff[self._unseen] = 0   # past the picture's edge: its edge repeated, a change there is seen elsewhere
        m = int(THUMB_MARGIN * THUMB_PX)
        inner = diff[m:-m, m:-m]   # the playing area; the frame band is the rest
        n_inner = cv2.countNonZero(inner)
        if cv2.countNonZero(diff) - n_inner > THUMB_PX * THUMB_PX * 0.3 * share:
            return True
        blob = BLOB_AREA_PW2 * THUMB_PX ** 2 * share
        if n_inner <= blob:
            return False   # no changed region can be larger than all the changed pixels together
        n, _, stats, _ = cv2.connectedComponentsWithStats(inner, connectivity=8)
        return bool(n > 1 and stats[1:, cv2.CC_STAT_AREA].max() > blob)

    def feed(self, frame: np.ndarray, t: float = 0.0) -> Optional[Union[BoardEvidence, HandOverBoard]]:
        """Advance the state machine by one frame; return an event when there is news."""
        try:
            quiet = self.is_quiet(frame)
        except BoardNotFound:
            quiet = False
        if not quiet:
            if self._still_changed and self._still_changed % REBASE_FRAMES == 0:
                self._look_again(frame, t)
            was = self.state
            self.state, self.quiet, self._candidate, self._repeats = State.MOVING, 0, None, 0
            self._read_grey = None
            if was == State.MOVING:
                return None
            self._moved = True
            return HandOverBoard(t=t)
        self.quiet += 1
        if self.state == State.MOVING:
            self.state = State.SETTLING
        if self.state == State.SETTLING and self.quiet >= self.reader.config.stable_frames:
            self.state = State.READING
        if self.state not in (State.READING, State.STABLE):
            return None
        if self.state == State.STABLE:
            unchanged = self._unchanged()
            if unchanged and self.skipped + 1 < self._period:
                self.skipped += 1
                self._first_refused(t)
                return None   # the board of the last full read, unchanged: the same reading
            # the picture changed while nothing moved (the dice taken off the board between two
            # frames): the board is said again even when it reads as before, as after a movement
            self._moved = self._moved or (not unchanged and self._read_grey is not None)
        self.skipped = 0
        self._read_grey = None
        first_lesson = self._known is not None and (self._ordered or not self._trained())
        # a covered frame is read through only for the first lesson
        corners = self.reader.corners
        ev = self.reader.read(frame, t, covered_rows=True) if first_lesson else self.reader.read(frame, t)
        if self.reader.corners is not corners and corners is not None:
            self._follow_corners(frame)
        reading = self.reader.last_reading
        if reading is not None and first_lesson:
            self._first_lesson(reading, t, frame)
        if ev is None:
            self._candidate, self._repeats = None, 0
            if self.state == State.STABLE:
                self.state = State.READING
            return None
        if self._candidate is not None and same_board(ev, self._candidate):
            self._repeats += 1
        else:
            self._candidate, self._repeats = ev, 1
            if self.state == State.STABLE:
                self.state = State.READING
        if self.state == State.READING and self._repeats >= self.reader.config.repeat:
            self.state = State.STABLE
            self._ref = self._last_grey
            self._period = self.unsure_every if can_get_surer(ev) else self.reread_every
            if self.last is None or self._moved or not same_board(self.last, ev):
                self.last, self.last_view, self._moved = ev, self.reader.last_view, False
                self._last_frame = None if self._trained() else frame.copy()
                self._read_grey = self._last_grey
                self._try_learn()
                return ev
        if self.state == State.STABLE and self.last is not None and same_board(self.last, ev):
            self._read_grey = self._last_grey
            if surer(ev, self.last) or self._moved:
                # the same board, now read more surely (or its picture changed): say so
                self.last, self.last_view, self._moved = ev, self.reader.last_view, False
                self._last_frame = None if self._trained() else frame.copy()
                self._period = self.unsure_every if can_get_surer(ev) else self.reread_every
                self._try_learn()
                return ev
            self._period = min(self.reread_every, 2 * self._period)
        return None

    def _look_again(self, frame: np.ndarray, t: float) -> None:
        """A still frame the thumbnail calls covered, shown to the reader (:func:`vision.find_again.look_again`):
        when it found the board again or read it, the board settles afresh from the next frame, as
        before it was first still (the reader then judges each frame)."""
        if look_again(self.reader, frame, t):
            self._still_changed, self._prev, self._ref = 0, None, None

    def _follow_corners(self, frame: np.ndarray) -> None:
        """The reader moved its corners while reading this frame (a knock measured and folded
        in, :mod:`vision.knock`): the thumbnails kept for comparison are taken again at the new
        corners from this frame, which showed the same board, so the next frame is not taken
        for motion."""
        grey = grey_levels(self._thumb(frame))
        self._prev = self._last_grey = grey
        if self._ref is not None:
            self._ref = grey
        if self._read_grey is not None:
            self._read_grey = grey

    def _unchanged(self) -> bool:
        """This frame shows the board of the last full read, unchanged: no more than
        :data:`STILL_PIXELS` thumbnail pixels are more than :data:`STILL_LEVEL` grey levels off (a
        global flicker of the light taken out).  False when there is no such read to compare with."""
        ref, grey = self._read_grey, self._last_grey
        if ref is None or grey is None or ref.shape != grey.shape:
            return False
        d = grey - ref
        d -= int(round(float(d.mean())))
        return int(np.count_nonzero(np.abs(d) > STILL_LEVEL)) <= STILL_PIXELS
