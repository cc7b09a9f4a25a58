"""The dice on the board: found as small cubes with pips, never as checkers.

A pure stage on a rectified view (:mod:`vision.rectify`): dice are squares of about 0.25-0.45
point widths whose colour stands out from what lies around them (a checker is twice as wide and
round), with 1..6 pips of another colour in a die's layout.  :func:`find_dice` returns one
:class:`DieSeen` per die: where it lies (layout pw and, given the corners, image px), which half
of the playing area it rests in, whether it lies on a checker or off the playing area, and its
value with a confidence.  :func:`to_readings` gives the referee's
:class:`referee.events.DieReading` (zones as seen from Dark's seat).

How: (1) candidates from two sources.  At a coarse scale (``DiceParams.detect_px``) each pixel's
neighbourhood is compared with 8 points a die's half diagonal and more away: a die stands out from
(nearly) all of them and is uniform at its centre; a point's tip, a stripe or a letter is not.  And,
as dice counters usually do (threshold the pips as blobs, group them by distance), pip-like spots (a
difference of Gaussians at a pip's size, dark and light apart) are linked into groups of 1..6 no
wider than a die: a face's pips lie symmetrically about its centre, so a group's mean is one; a
group is looked at closely only where something stands out from its surround
(``DiceParams.pip_stand_out``).  Given a frame of the board before the throw
(:func:`find_dice_in_frame` ``before=``, as the table's camera thread does:
:mod:`vision.dice_watch`), only the places that changed are rectified and searched
(:func:`changed_regions`, on the whole view's grid, so a die there is found as it would be), and
the places ``also=`` names (where dice already lay on that frame).
(2) At the view's own scale the face is the candidate's region of its colour (with the pieces of
that colour a pip away: rows of pips cut a face into bands), grown at a loose likeness first, then
tighter ones, none of it running out of a window a little larger than a die; it must be die-sized
and square and stand out from the band just around it.  Its minimum-area rectangle is cut out
square and the 3 x 3 places a pip can be are scored: the value is the face whose pips are all
clearly more pip-coloured than its empty places (either way round), its confidence from that
margin, the next face's, the contrast and how plain the rest of the face is.  The value is sure
only when the pips counted one by one (:func:`count_pips`) agree and the face has a square's
straight edges (a letter's loop or a checker's emblem does not).  A blob whose pips fit no face is
dropped.  (3) A die on a checker lies inside a checker-sized circle (a Hough transform around it);
a die whose face reaches over the playing area's edge is off the board; ``where`` says how sure
the half and off-board call are (:func:`where_confidence`).  (4) :func:`covered_slots` gives the
checker slots a die covers, for the board's learned look to count as telling nothing.

Measured (``bench/dice_camera.py --frames 60 --seed 1``, 64 px per point width, given the board
before the throw): rendered, 120 dice: 61.7 % found, 44-45 % read right and sure, 0 wrong while
sure, 0 false dice; a camera-only table would take 16 of the 60 throws as rolls, none wrong; real
tuned (test1, test6) 4 of 4 found, 3 sure right; held out (test2, template3, dices6) 5 of 10
found, 4 sure right, 0 wrong sure.  CPU on a 1280 x 720 frame (a 2-core machine at load 11-15):
20-25 ms given the frame before the throw; the whole board (a ``read --batch`` line's dice) 69-77 ms,
against 86-108 ms in the same runs before the face search was made cheaper with the same results
(it was 180-320 ms before that); since made 0.79-0.81 of that again with the same results (the
candidates' seed colours gathered at once, pip groups vectorised, the blurs on 8-bit levels, peaks
found row by row), 29-32 ms at load 7-16.  Of a whole-board search about half is the close look at
its 96 candidates (:func:`vision.dice_face.face_at`, a few dozen small numpy and OpenCV calls each,
most of them on blobs too small for a die), a fifth the pip-like spots on the 64 px view, a tenth
rectifying it, a tenth the coarse stand-out search.  Since made 0.96 of that with the same results
(valgrind: 250 -> 241 M instructions a ``read --batch`` line's dice; the seeds' medians by a byte
sort, a face's outline looked for in its box, no dilation with nothing to reach).  Finding a
``read --batch`` line's dice in the read-ahead thread while the line before has its checkers read
was tried (2026-12-02) and taken out: on two cores at load 1 the loop's wall time stayed that of
one line after another (40 ms) while its CPU rose from 38.5 to 51 ms (the finder's many small
calls hold the GIL).  Since 0.94 of that with the same results (valgrind: 241 -> 226 M instructions a
line's dice; ``bench/vision_batch.py`` at load 6.5, a line with the dice 48.8 -> 46.1 ms CPU): most
grown blobs were thin or small, so a face too small for a die whatever its growing would take in (the
box of the pieces a chain of growing steps joins to the seed's: one dilation and one fill,
:func:`vision.dice_face._reach`) is skipped before it is labelled and grown (a third of them); the
coarse search reads each direction and its opposite off one difference.  Tried on the way and left
out, each losing dice (``bench/dice_camera.py`` default run, right and sure of 600: 268): pip-like
spots looked for at 48 px a pw (265), the wide blur of their difference of Gaussians at half scale
(272, but one sure false die on the real photos), 64 close looks instead of 96 (the whole-board run
of 60 throws: 53 -> 50), single spots no pip group (243), a seed whose region is a speck taken for a
pip's (265).  What is left is the design's floor: each of the 96 close looks costs tens of small
OpenCV and numpy calls, and no cheap measure found tells a die's candidate from the others.
So ``read --batch`` no longer looks again where nothing changed: a camera's lines mostly share their
pixels, and :mod:`vision.dice_carry` hands :func:`find_dice` the close looks of the camera's line
before whose candidates nothing changed near (``kept``): the whole search, the same dice, the close
looks made only near a change (rendered games, what no throw or move touched the same pixel for pixel:
dice identical on 72 of 72 lines; with fresh sensor noise 42 of 72, a kept look having seen the line
before's noise, no die read wrong or false while sure; ``bench/vision_batch.py`` at load 5, a game's
line with the dice 49.4 -> 33.7 ms CPU, the pip-like spots where nothing changed kept too).
Tried first and left: searching only the changed rectangles and carrying the dice elsewhere (a
rectangle gets its own 32 strongest peaks and 96 looks where the whole search ranks the board's: 65 of
72 lines identical).  Since (2026-12-03) the camera's view itself is kept and taken afresh only where the
frame changed (:mod:`vision.dice_carry`), the coarse search's maps worked out again only there
(:func:`vision.dice_candidates.coarse_maps_again`, ``maps=``) and a look that found nothing kept when
nothing in its window was taken afresh: the whole search on that view, field for field; on a rendered
game's lines (``bench/vision_batch.py``) close looks 27.5 -> 14.7 a line, valgrind 136.8 -> 90.8 M
instructions a line's dice, ``read --batch`` with the dice 28.57 -> 24.41 ms CPU a game's line at load
2 (no dice: 10.7 ms), 34.72 -> 29.94 ms at load 3-4.  What is left is about 40 % close looks (each
0.2-0.4 ms: a dozen dilations, fills and labellings on a 59 px window), 15 % the pip-like spots around
what changed, 10 % each the maps around it and the pip groups of the whole view (``--sequence``
figures: :mod:`vision.dice_carry`).  On unrelated boards of one camera (``bench/vision_speed.py``'s
``read --batch`` lines, 2026-12-04: a fifth of the view changed, 96 close looks a line, 60 of them made
afresh, 82 face searches, :class:`vision.dice_carry.DiceCarry` 14.4-14.8 ms CPU a line: close looks 6.5,
pip-like spots 3.0, maps 1.4, the view taken afresh 1.1) these were tried with the same results and left
out, none cheaper: a face's growing skipped when the pieces its reach joins (a set holding the face) have
a minimum-area rectangle too thin for any face inside it (a set's rectangle's shorter side is at most
1.42 times that of a set holding it): 317 of 1,198 growings skipped, 77.0 -> 78.1 us a face search on
3,253 captured ones; the seed's region filled on the window itself (a fixed-range fill per channel, no
distance map until a region stays inside): 9.3 against 16.3 us a fill, but a region that stays inside
needs the map too, a loss overall; fewer close looks made again (none of the 1,262 made afresh on 20
lines lay where a look had seen the same window's pixels); the spots' blurs worked out only on the part
of a crop that is kept (OpenCV's float filter rounds a pixel by its place in the row: not the same bits).
The close looks' pixel work (fills, dilations, labellings on 59 px windows, about 2 ns a pixel each) and
the spots' blurs are this design's floor.  Since (2026-12-05), with the same results (DieSeen lists and
close looks identical on 274 views: 240 rendered throws of 4 seeds, 24 ``read --batch`` lines, 10 real photos;
:class:`vision.dice_carry.DiceCarry`'s dice on 120 rendered lines and the 24 lines): the close looks' first
steps made for all candidates at once (each window's distances from its first seed's colour, one absdiff per
window into one array, one channel split and maximum for all, the straight runs to the window's edge read off
together: :func:`vision.dice_face.seed_dists`; the windows themselves, :func:`vision.dice_face._windows`), and a
grown face that is no die's by its box alone turned away before its outline is looked for, its growing stopped
once its box is too wide, and a seed whose reach is too thin for a face not grown at all (a face's minimum-area
rectangle spans at most its diagonal each way, 46.85 px at most for one that passes, and its shorter side is at
most sqrt 2 times the face's least width: :func:`vision.dice_face._too_wide`, :func:`vision.dice_face._too_thin`).
Valgrind: a whole view's :func:`find_dice` (12 ``read --batch`` views) 177.6 -> 160.0 M instructions,
:class:`vision.dice_carry.DiceCarry` 152.3 -> 142.0 M a line (the 24 lines one after another); CPU a whole view
20.0 -> 18.75 ms (24 views, best of 7, main and this tree in turn, load 6-7 on 2 cores);
``bench/vision_speed.py 10 3`` (main and this tree in turn, load 6-7), ``read --batch`` with the dice 24.95 and
24.13 -> 23.96 and 22.73 ms CPU a line (--no-dice 10.78, 10.11 and 11.17, 9.94): the dice 14.1 -> 12.8 ms.
Where a whole view's 160 M instructions go: the spots' two float blurs 42 M (a quarter), the growing faces'
elliptical dilations about 14 M, the flood fills 8.6 M; by close look, most of their time is still faces grown
at the tightest likeness after the looser ones ran out of the window, then turned away by their box (thin or
small: a point's edge, a line; 2.2 of 6.7 ms a view) or their outline.  Tried and left out, none cheaper with
the same results: all windows in one picture, thresholded and flooded from a frame round every window at once
per likeness (the flood spends 2.6 ns a pixel on every window's edge pieces: 0.8 ms a likeness for 86 windows,
about what a view's 235 seed fills and 70 frame fills cost one by one; connectedComponentsWithStats on it
1.3 ms); the windows' colours as one picture for one absdiff (its numpy copy alone 1.3 ms, the absdiffs one by
one into one array 0.3 ms); a face's hull from its pixels instead of its outline (another first vertex, other
minAreaRect floats, and slower); the spots' peaks tested only where the difference passes the threshold (a
5 x 5 gather at 4,250 px: no faster than the dilation); a later seed's distances from the first's (of 2,873
later seeds of the colour about them, 1 has the first's colour); OpenCV on one thread (the same CPU); the reach
worked out for a seed's region big enough alone too (11 of 82 such growings saved, each reach 17 us).  No cheap
test turns a candidate away before its look with the same results: each look's colour is its own, and most
faces' shape is known only once grown (the reach, every piece a chain of steps joins, is no thinner for most).

The search runs on a view of the board in its own coordinates (:func:`vision.rectify.rectify` with
``own=True``): one scale all over, so a die lying in the gap between the rows of a board taller or
shorter than the layout's stays square (the checkers' view stretches that gap onto the layout's: a
board 10.2 point widths high five times over, and a die there became a bar no face fits, which missed
most dice thrown on real boards); a die's ``board`` place is given in layout coordinates, as every
other place is (:meth:`vision.layout.BoardShape.to_layout`).  A die away from the camera's foot shows the
side faces turned towards the camera beside its top face, of its own colour: its region is then the top
face swept towards the foot, and the 3 x 3 pip places of the whole misread it.  Read unsure so, it is read
again on the square of the region's shorter side at its end away from the foot (:func:`top_face`; the foot
taken under the picture's centre, :func:`camera_foot`, as an overhead table camera hangs): rendered
throws with side faces (``RenderParams.real_table``) 251 -> 281 of 600 right and sure, real unseen photos
5 -> 10 of 37, none wrong while sure.

A face at the top of the usual sizes (wider than ``DiceParams.strict_side``, 0.42 pw) is sure only when its
pips, counted at every depth, are its value: rendered dice of 0.45-0.6 pw (``bench/dice_camera.py --frames 100
--dice-size 0.45 0.6``) had a white 6 on a white checker, its face grown over the checker's rim, read as a sure
1 (counted 1, 2, 2); now none wrong while sure (right and sure 34 -> 33 of 200), the usual 300 throws and every
real photo line for line as before (2026-12-07).  Club dice run larger still (the unseen6 photos' boxes: a die
0.77 checker diameters across, median): the finder looks for faces up to 0.47 pw and finds 5 of their 23 dice
(dev) and 4 of 30 (held out); a second look for large faces was tried (docs/measurements.md, session 41).

The stages live in :mod:`vision.dice_params` (thresholds, pip layouts),
:mod:`vision.dice_candidates` (step 1) and :mod:`vision.dice_face` (steps 2 and 3).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional, Sequence

import cv2
import numpy as np

from referee.events import DieReading

from . import layout as L
from .dice_candidates import CoarseMaps, chan_max, pip_candidates, ring_candidates, stand_out, standing_out
from .dice_face import SeedDists, count_pips, cut_face, face_at, on_checker_at, read_face, seed_colours, seed_dists
from .dice_params import LAYOUTS, DiceParams
from .rectify import View, rectify, rectify_region, view_extent

__all__ = ["HALVES", "LAYOUTS", "DiceParams", "DieSeen", "Looks", "camera_foot", "changed_places", "changed_regions",
           "count_pips", "covered_points", "covered_slots", "find_dice", "find_dice_in_frame", "half_of", "read_face",
           "to_readings", "top_face", "where_confidence", "zone"]

HALVES = ("left", "right", "bar", "off")


@dataclass(frozen=True)
class DieSeen:
    """One die as the camera sees it: centre in layout pw (``board``) and in image px (``image``,
    None when the finder was given no corners), the half its centre lies in (``"left"``/``"right"``
    of the playing area as seen, ``"bar"``, or ``"off"`` off the playing area), whether it rests on a
    checker, whether it lies off the board (any of its face over the playing area's edge: across it
    or beyond), its value 1..6 (None: unreadable) and the value's confidence."""

    board: tuple[float, float]
    image: Optional[tuple[float, float]]
    half: str
    on_checker: bool
    off_board: bool
    value: Optional[int]
    confidence: float
    side: float = 0.0  # the die's side, pw (as measured)
    where: float = 1.0  # how sure the half and off-board are: 1 when the whole die lies clear of every edge and the bar


    def __post_init__(self) -> None:
        if self.half not in HALVES:
            raise ValueError(f"die half {self.half!r} is not one of {', '.join(HALVES)}")
        if self.value is not None and self.value not in LAYOUTS:
            raise ValueError(f"die value {self.value!r} is not 1..6 or None")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"die confidence {self.confidence} is not in 0..1")
        if not 0.0 <= self.where <= 1.0:
            raise ValueError(f"die place confidence {self.where} is not in 0..1")

    def sure(self, params: DiceParams = DiceParams()) -> bool:
        """True when the value is read with at least ``params.sure`` confidence."""
        return self.value is not None and self.confidence >= params.sure


def where_confidence(x: float, y: float, side: float, shape: L.BoardShape = L.BoardShape()) -> float:
    """How sure the half and the off-board call of a die at (x, y) (pw, the board's own coordinates: a
    board of ``shape``) of ``side`` pw are: 1 when all of it lies clear of the playing area's edges
    and the bar's, falling to 0.5 with its centre on one (the call is then a coin's toss)."""
    gap = min(abs(x), abs(x - shape.width), abs(y), abs(y - shape.height), abs(x - L.BAR_LEFT),
              abs(x - L.BAR_LEFT - shape.bar))
    reach = max(side, 0.1) * 0.7072  # half the die's diagonal
    return round(float(np.clip(0.5 + 0.5 * gap / reach, 0.5, 1.0)), 3)


def half_of(x: float, y: float, shape: L.BoardShape = L.BoardShape()) -> str:
    """The half of the playing area holding point (x, y) (pw, the board's own coordinates: a board of
    ``shape``; the layout's for the layout's shape): left, right, bar or off."""
    if not (0.0 <= x <= shape.width and 0.0 <= y <= shape.height):
        return "off"
    return "left" if x < L.BAR_LEFT else "right" if x > L.BAR_LEFT + shape.bar else "bar"



# --------------------------------------------------------------------------- the finder


def _to_image(corners: np.ndarray, shape: L.BoardShape) -> "cv2.typing.MatLike":
    return cv2.getPerspectiveTransform(shape.corners_pw(), np.asarray(corners, np.float32))


def changed_places(view: View, before: View, params: DiceParams = DiceParams()) -> np.ndarray:
    """Where ``view`` differs from ``before`` (the same board seen without the dice, at the same scale),
    widened by a die's size: a bool image of the view's size.  Dice thrown since lie there, so
    :func:`find_dice` looks nowhere else."""
    if view.image.shape != before.image.shape:
        raise ValueError(f"changed_places: views of {view.image.shape[:2]} and {before.image.shape[:2]} px; "
                         "rectify both at the same px per point width")
    d = chan_max(cv2.absdiff(cv2.blur(view.image, (5, 5)), cv2.blur(before.image, (5, 5))))
    k = max(3, int(round(params.side[1] * view.px)) | 1)
    return cv2.dilate((d >= params.changed).astype(np.uint8), np.ones((k, k), np.uint8)) > 0


#: a search's close looks: per candidate (layout pw), the die it shows, or None
Looks = dict[tuple[float, float], Optional[DieSeen]]


def find_dice(view: View, params: DiceParams = DiceParams(), corners: Optional[np.ndarray] = None,
              shape: L.BoardShape = L.BoardShape(), max_dice: int = 6,
              changed: Optional[np.ndarray] = None, kept: Optional[Looks] = None,
              looks: Optional[Looks] = None, spots: "Optional[tuple[np.ndarray, np.ndarray]]" = None,
              maps: Optional[CoarseMaps] = None, peaks: Optional[np.ndarray] = None,
              foot: Optional[tuple[float, float]] = None) -> list[DieSeen]:
    """The dice on a rectified view in the board's own coordinates (a board of ``shape``:
    :func:`vision.rectify.rectify` with ``own=True``; the layout's view for the layout's shape), their
    places in layout coordinates (image centres too when the playing area's ``corners`` are given),
    most confident first, at most ``max_dice``; ``changed``
    (:func:`changed_places`): look only where the board changed since it was seen without dice.
    ``kept``: close looks of the same view of a frame before, each what a look at its candidate
    would see on this view too (nothing changed within its reach: :mod:`vision.dice_carry`), taken
    instead of looking again; ``looks``: filled with this search's close looks, for the next frame;
    ``spots``: the view's pip-like spots (:func:`vision.dice_candidates.spots_at`), when already found;
    ``maps``: its coarse search's maps (:func:`vision.dice_candidates.coarse_maps`), when already made, and
    ``peaks``: their stand-out measure's peaks (:func:`vision.dice_candidates.ring_peaks`), when already found;
    ``foot``: the board point under the camera (the board's own pw, :func:`camera_foot`), when known: a die
    seen off the camera's axis is then read on its top face alone (:func:`top_face`)."""
    found: list[DieSeen] = []
    to_img = _to_image(corners, shape) if corners is not None else None
    if maps is None:
        coarse = stand_out(view, params)
        ring = ring_candidates(view, params, coarse, shape=shape)
    else:
        coarse = maps[:2]
        ring = ring_candidates(view, params, coarse, maps[2], peaks, shape)
    pips = standing_out(pip_candidates(view, params, spots), view, coarse[1], params)
    if ring and pips:  # a pip group where the coarse search already looks adds nothing
        a, b = np.asarray(ring), np.asarray(pips)
        far = np.hypot(b[:, None, 0] - a[None, :, 0], b[:, None, 1] - a[None, :, 1]).min(axis=1) > 0.1
        pips = [c for c, f in zip(pips, far) if f]
    cands = ring + pips
    if changed is not None:
        H, W = changed.shape[:2]
        cands = [(x, y) for x, y in cands
                 if changed[min(max(int(round((y - view.y0) * view.px)), 0), H - 1),
                            min(max(int(round((x - view.x0) * view.px)), 0), W - 1)]]
    cands = cands[: params.max_looks]
    taken = _taken(cands, kept or {}, params.kept_within)
    fresh = [c for c in cands if c not in taken]
    colours = seed_colours(view, fresh, params)   # the faces' colours about the candidates, at once
    seeds = dict(zip(fresh, zip(colours, seed_dists(view, fresh, colours, params))))  # and the seeds' distances
    # the candidates on a die already found (within 0.15 pw of it: the same face again), marked for them
    # all at once as each die is found (the same distances as measured candidate by candidate)
    xy = np.asarray(cands, np.float64).reshape(-1, 2)
    on_found = np.zeros(len(cands), bool)
    for k, (cx, cy) in enumerate(cands):
        if on_found[k]:
            continue
        die = taken[cx, cy] if (cx, cy) in taken else _look(view, cx, cy, params, *seeds[cx, cy], to_img, shape, foot)
        if looks is not None:
            looks[cx, cy] = die
        if die is None or any(np.hypot(die.board[0] - d.board[0], die.board[1] - d.board[1]) < 0.2 for d in found):
            continue
        found.append(die)
        on_found |= np.hypot(xy[:, 0] - die.board[0], xy[:, 1] - die.board[1]) < 0.15
    found.sort(key=lambda d: (d.value is None, -d.confidence))
    return [_on_layout(d, shape) for d in found[:max_dice]]


def _on_layout(die: DieSeen, shape: L.BoardShape) -> DieSeen:
    """``die`` found on a view in the board's own coordinates, its place in the layout's."""
    if shape.default:
        return die
    x, y = shape.to_layout(np.array([die.board[0]]), np.array([die.board[1]]))
    return replace(die, board=(round(float(x[0]), 3), round(float(y[0]), 3)))


def _taken(cands: list[tuple[float, float]], kept: Looks, within: float) -> Looks:
    """Per candidate, the kept look at the same place; failing one, when the nearest kept look lies within
    ``within`` pw and found no die, that it finds none either (a frame's sensor noise moves a pip group's
    centre a little; a die is taken only from its own place: a look at it again is made)."""
    out = {c: kept[c] for c in cands if c in kept}
    rest = [c for c in cands if c not in out]
    if rest and kept:
        places = list(kept)
        k, r = np.asarray(places, np.float64), np.asarray(rest, np.float64)
        d = np.hypot(r[:, None, 0] - k[None, :, 0], r[:, None, 1] - k[None, :, 1])
        near = d.argmin(axis=1)
        out.update({c: None for i, (c, j) in enumerate(zip(rest, near.tolist()))
                    if d[i, j] <= within and kept[places[j]] is None})
    return out


def _look(view: View, cx: float, cy: float, params: DiceParams,
          known: "tuple[tuple[tuple[int, int, int], int], ...] | None",
          first: "SeedDists | None",
          to_img: "Optional[cv2.typing.MatLike]", shape: L.BoardShape,
          foot: Optional[tuple[float, float]] = None) -> Optional[DieSeen]:
    """The close look at candidate (cx, cy) (pw): the die whose face grows from it, or None (no die-sized
    face, or no die's pips: a letter, a screw, a checker's emblem).  ``known``: its seeds' colours,
    ``first``: its seeds' distances (:func:`vision.dice_face.seed_dists`); ``foot``: the board point
    under the camera, when known (:func:`top_face`)."""
    got = face_at(view, cx, cy, params, known, first)
    if got is None:
        return None
    face, rect, contrast, fill = got
    (rx, ry), (rw, rh), _ang = rect
    value, conf = read_face(face, params)
    # never sure when the pips counted one by one disagree, or the face is rounded, not a square's
    # straight edges (a letter's loop, a disc); counted only when it could matter
    if conf > params.uncounted and (fill < params.square or value not in count_pips(face, params)):
        conf = params.uncounted
    side = float(np.sqrt(rw * rh)) / view.px
    # a face at the top of the usual sizes is sure only when its pips, counted at every depth, are its value:
    # one that takes in a checker's rim under a white die finds another number at one depth (rendered dice of
    # 0.45-0.6 pw: a white 6 on a white checker read as a sure 1, counted 1, 2, 2)
    if side > params.strict_side and conf > params.uncounted and \
            any(n != value for n in count_pips(face, params)):
        conf = params.uncounted
    # a cocked die's top face is foreshortened a little; a longer blob is no die's face
    conf = round(conf * float(np.clip((1.4 - max(rw, rh) / min(rw, rh)) / 0.2, 0, 1)), 3)
    if conf < params.sure and foot is not None and fill >= params.square:
        top = top_face(view, rect, foot, params)
        # (an unsure top face says no more than the whole; a single spot is what a letter's loop or stroke
        # shows too: rendered logos' letters read as sure 1s that way)
        if top is not None and top[1] >= params.sure and top[0] != 1:
            value, conf, (rx, ry), side = top
    if conf < params.keep:
        return None  # no die's pips: a letter, a screw, a checker's emblem
    bx, by = rx / view.px + view.x0, ry / view.px + view.y0   # (the board's own pw)
    img: Optional[tuple[float, float]] = None
    if to_img is not None:
        q = cv2.perspectiveTransform(np.array([[[bx, by]]], np.float32), to_img)[0][0]
        img = (float(q[0]), float(q[1]))
    half = half_of(bx, by, shape)
    if half == "bar":  # hinges and fittings there show screws like pips: never sure
        conf = min(conf, params.bar_confidence)
    # off the board: any of the face over the playing area's edge (a die across it, or beyond)
    pts = cv2.boxPoints(rect) / view.px + np.array([view.x0, view.y0])
    t = params.edge
    off = bool((pts[:, 0] < -t).any() or (pts[:, 0] > shape.width + t).any() or (pts[:, 1] < -t).any()
               or (pts[:, 1] > shape.height + t).any())
    return DieSeen((round(bx, 3), round(by, 3)), img, half, on_checker_at(view, bx, by, side, params),
                   off, value, conf, round(side, 3), where_confidence(bx, by, side, shape))


FOOT_CLEAR = 0.5   # pw: a die this near the camera's foot shows no side face to tell its top face by


def camera_foot(size: tuple[int, ...], corners: np.ndarray, shape: L.BoardShape = L.BoardShape()
                ) -> tuple[float, float]:
    """The board point (the board's own pw) under a camera looking straight down on the board, as a
    table's camera hangs: the picture's centre (``size``: its height and width, px) seen on the board."""
    h, w = size[:2]
    to_img = np.asarray(_to_image(corners, shape), np.float64)
    q = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float64), np.linalg.inv(to_img))[0][0]
    return float(q[0]), float(q[1])


def top_face(view: View, rect: tuple, foot: tuple[float, float],
             params: DiceParams = DiceParams()) -> "Optional[tuple[Optional[int], float, tuple[float, float], float]]":
    """A die away from the camera's foot (``foot``, the board's own pw) shows, besides its top face, the side
    faces turned towards the camera, of its own colour: its region of colour (``rect``, the view's px, as
    :func:`vision.dice_face.face_at` gives it) is its top face swept towards the foot, and the 3 x 3 pip
    places of the whole misread it.  The top face is then the square of the region's shorter side at its
    end away from the foot (its corner furthest from it).  Its value, confidence (sure only when the pips
    counted one by one agree), centre (view px) and side (pw); None for a die at the foot
    (:data:`FOOT_CLEAR`).  Only the whole side is tried: a smaller square at a corner holds a subset of the
    pips, which reads as another face (rendered throws: squares of 0.85 of the side read 4s as sure 2s)."""
    (rx, ry), (rw, rh), _ang = rect
    fx, fy = view.to_px(*foot)
    away = np.array([rx - fx, ry - fy], np.float64)
    if float(np.hypot(*away)) < FOOT_CLEAR * view.px:
        return None
    pts = cv2.boxPoints(rect).astype(np.float64)
    i = int(np.argmax((pts - np.array([rx, ry])) @ away))
    s = float(min(rw, rh))
    p = pts[i]
    e1, e2 = pts[(i + 1) % 4] - p, pts[(i - 1) % 4] - p
    e1, e2 = e1 / max(float(np.hypot(*e1)), 1e-9), e2 / max(float(np.hypot(*e2)), 1e-9)
    square = np.array([p, p + s * e1, p + s * (e1 + e2), p + s * e2])
    c = square.mean(axis=0)
    face = cut_face(view.image, c + (square - c) * 0.96, params.face_px)   # (shrunk as face_at's cut)
    value, conf = read_face(face, params)
    if conf > params.uncounted and value not in count_pips(face, params):
        conf = params.uncounted
    return value, conf, (float(c[0]), float(c[1])), s / view.px


def find_dice_in_frame(frame: np.ndarray, corners: np.ndarray, shape: L.BoardShape = L.BoardShape(),
                       params: DiceParams = DiceParams(), px: int = 64,
                       before: Optional[np.ndarray] = None,
                       also: Sequence[tuple[float, float]] = ()) -> list[DieSeen]:
    """:func:`find_dice` on a camera frame: rectified at ``px`` per point width (values need 48 or more)
    in the board's own coordinates.  ``before``: a frame of the same board without the dice; then only
    the places that changed are rectified and looked at (:func:`changed_regions`), a few times faster.
    ``also``: places (layout pw) looked at as if they had changed (dice that already lay there in ``before``)."""
    foot = camera_foot(frame.shape, corners, shape)
    if before is None:
        return find_dice(rectify(frame, corners, px, shape=shape, own=True), params, corners, shape, foot=foot)
    found: list[DieSeen] = []
    also = _own_places(also, shape)
    for box in changed_regions(frame, before, corners, shape, params, also=also, own=True):
        # on the whole view's grid of 8 px blocks (margin 0.6 pw), so a die is sampled, and scaled down
        # for the coarse searches, just as it would be there
        x0, y0 = (-0.6 + 8 * np.floor((v + 0.6) * px / 8) / px for v in box[:2])
        x1, y1 = (-0.6 + 8 * np.ceil((v + 0.6) * px / 8) / px for v in box[2:])
        view = rectify_region(frame, corners, px, x0, y0, x1, y1, shape, own=True)
        then = rectify_region(before, corners, px, x0, y0, x1, y1, shape, own=True)
        changed = changed_places(view, then, params)
        r = params.side[1]
        for x, y in also:  # a die's place in ``before``: looked at whatever changed there
            (u0, v0), (u1, v1) = view.to_px(x - r, y - r), view.to_px(x + r, y + r)
            changed[max(int(v0), 0): max(int(np.ceil(v1)) + 1, 0), max(int(u0), 0): max(int(np.ceil(u1)) + 1, 0)] = True
        found += find_dice(view, params, corners, shape, changed=changed, foot=foot)
    found.sort(key=lambda d: (d.value is None, -d.confidence))
    return found[:6]


def _own_places(places: Sequence[tuple[float, float]], shape: L.BoardShape) -> list[tuple[float, float]]:
    """Layout places (pw) in the board's own coordinates."""
    if shape.default or not len(places):
        return list(places)
    x, y = shape.to_real(np.array([p[0] for p in places]), np.array([p[1] for p in places]))
    return [(float(u), float(v)) for u, v in zip(x, y)]


def changed_regions(frame: np.ndarray, before: np.ndarray, corners: np.ndarray,
                    shape: L.BoardShape = L.BoardShape(), params: DiceParams = DiceParams(),
                    px: int = 16, margin: float = 0.6,
                    also: Sequence[tuple[float, float]] = (),
                    own: bool = False) -> list[tuple[float, float, float, float]]:
    """The board rectangles (x0, y0, x1, y1, pw) where ``frame`` differs from ``before`` (seen coarsely, at
    ``px`` per point width), and around the places ``also``, each widened so a die there and its surround
    lie inside; overlapping ones merged.  Nothing changed: no rectangle.  Places and rectangles are in
    layout coordinates, or with ``own`` the board's own (:func:`vision.rectify.rectify`)."""
    a, b = rectify(frame, corners, px, margin, shape, own), rectify(before, corners, px, margin, shape, own)
    d = chan_max(cv2.absdiff(cv2.blur(a.image, (3, 3)), cv2.blur(b.image, (3, 3))))
    mask = (d >= params.changed).astype(np.uint8)
    # (16-bit labels where they hold every piece: the same boxes, summed two to three times faster)
    n, _lab, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8,
                                                          ltype=cv2.CV_16U if mask.size < 65_536 else cv2.CV_32S)
    least = max(2, int((params.side[0] * px) ** 2 * 0.25))  # a speck of noise is no die
    pad = params.ring + params.side[1]
    width, height = view_extent(shape, own)
    lo_x, lo_y, hi_x, hi_y = -margin, -margin, width + margin, height + margin
    boxes = [[max(lo_x, a.x0 + x / px - pad), max(lo_y, a.y0 + y / px - pad),
              min(hi_x, a.x0 + (x + w) / px + pad), min(hi_y, a.y0 + (y + h) / px + pad)]
             for x, y, w, h, area in stats[1:] if area >= least]
    boxes += [[max(lo_x, x - params.side[1] - pad), max(lo_y, y - params.side[1] - pad),
               min(hi_x, x + params.side[1] + pad), min(hi_y, y + params.side[1] + pad)] for x, y in also]
    merged = True
    while merged:  # overlapping rectangles become one
        merged = False
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                p, q = boxes[i], boxes[j]
                if p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]:
                    boxes[i] = [min(p[0], q[0]), min(p[1], q[1]), max(p[2], q[2]), max(p[3], q[3])]
                    del boxes[j]
                    merged = True
                    break
            if merged:
                break
    return [(round(x0, 3), round(y0, 3), round(x1, 3), round(y1, 3)) for x0, y0, x1, y1 in boxes]


def covered_slots(dice: Sequence[DieSeen], centres: np.ndarray, side: float, margin: float = 0.05) -> np.ndarray:
    """Which checker slots the dice cover (bool per row of ``centres``, layout pw, slots ``side`` pw
    a side: :class:`vision.memory.SlotGeometry`): a slot whose square meets a die's face, turned any
    way (its circumscribed circle) and ``margin`` more.  The board's learned look should count those
    slots as telling nothing, so a die on a point is never read as a checker."""
    c = np.asarray(centres, np.float64).reshape(-1, 2)
    out = np.zeros(len(c), bool)
    for d in dice:
        s = d.side if d.side > 0 else 0.4
        reach = side / 2 + s * 0.7072 + margin
        out |= (np.abs(c[:, 0] - d.board[0]) < reach) & (np.abs(c[:, 1] - d.board[1]) < reach) & \
            (np.hypot(c[:, 0] - d.board[0], c[:, 1] - d.board[1]) < reach * 1.2)
    return out


def covered_points(dice: Sequence[DieSeen], per_point: int, centres: np.ndarray, side: float) -> frozenset[int]:
    """The points (image rows: top 0..11 then bottom 0..11, as :class:`vision.memory.SlotGeometry`
    orders them) with a slot under a die."""
    mask = covered_slots(dice, centres, side)[: 24 * per_point]
    return frozenset(int(i) // per_point for i in np.nonzero(mask)[0])


def zone(die: DieSeen, setup: L.SetUp = L.SetUp()) -> str:
    """The referee's landing zone of a die: ``"left"``/``"right"`` as seen from Dark's seat, else (on the
    bar, over the edge or beyond it) ``"outside"``."""
    if die.half not in ("left", "right") or die.off_board:
        return "outside"
    if setup.dark_home.startswith("bottom"):  # Dark sits at the image's bottom edge: its right is the image's
        return die.half
    return "left" if die.half == "right" else "right"


def to_readings(dice: Sequence[DieSeen], setup: L.SetUp = L.SetUp(), params: DiceParams = DiceParams(),
                pw_mm: float = 40.0) -> tuple[DieReading, ...]:
    """The referee's :class:`DieReading` per die: zone from Dark's seat, value only when sure (else None),
    position in mm from the board's centre (x to Dark's right, y away from Dark; ``pw_mm``: a point's width)."""
    out = []
    for d in dice:
        x, y = (d.board[0] - L.WIDTH / 2) * pw_mm, (L.HEIGHT / 2 - d.board[1]) * pw_mm
        if not setup.dark_home.startswith("bottom"):
            x, y = -x, -y
        out.append(DieReading(d.value if d.sure(params) else None, True, zone(d, setup), d.on_checker,
                              round(x, 1), round(y, 1), d.confidence))
    return tuple(out)
