"""The orchestrator: a frame in, board evidence (or nothing) out.

:class:`BoardReader` finds the board (markers, then configured corners, then automatic
detection), rectifies it, refuses frames with something over the board, reads the
points, and maps them to table numbering.  With the trays read surely, each colour must
come to 15 (points, bar, trays): a row of 5 that leaves its colour exactly 7 short is
read as the 12-pyramid it looks like (:func:`vision.read.settle_with_off`).  It keeps what it learned
between frames: the corners, the two checker colours and (with ``dark_home = "auto"``) the set-up, and, once told
a position it shows (:meth:`BoardReader.learn`), the look of this board's checker slots
(:mod:`vision.memory`).  Every reading carries odds per location (:mod:`vision.odds`) for
the referee's likelihood verdicts.

A knocked board is found again by :mod:`vision.find_again`; the trays are read and kept by
:mod:`vision.kept_trays`.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

import numpy as np

from referee.events import BoardEvidence

from . import knock
from . import layout as L
from .config import VisionConfig
from .errors import BoardNotFound
from .find_again import FindAgain, camera_moved
from .kept_trays import KeptTrays, consistent_off
from .markers import find_marker_corners
from .memory import BoardMemory
from .self_reference import SelfReference
from .odds import BAR_SHARE, TILT, Alts, colour_doubt, most_likely, row_odds, to_table
from .tray_trust import TrayTrust
from .blank_patch import blank_patch
from .occlusion import OcclusionParams, occluded_edges, occlusion_score
from .totals import settle_assembled
from .lateral import column_shift
from .reasons import NoReading, not_set_up, occluded, reading_reason
from .assemble import Assembled
from .read import CERTAIN, ColourModel, Profiles, ReadParams, read_view, ring_profiles, settle_with_off
from .size import LEARN_EVERY, LEARN_GAPS, MIN_GAPS, SEARCHES, measure_checker, other_sizes, rim_spacings
from .trays import TrayReading
from .rectify import View, points_out_of_picture, rectify

LAYOUT_FINDS = 3             # checkers more the layout's size must find to overrule a measured size (below) ...
SIZE_CHECKS = 3              # ... on each of a reader's first this many frames read with a measured size
COLUMNS_EVERY = 30          # frames between measurements of the quarters' sideways shift (vision.lateral)
SINGLE_FRAME_OCCLUSION = 2.5  # a single frame, judged without a reference, is refused only when clearly covered


def find_corners(frame: np.ndarray, config: VisionConfig, auto: bool = True) -> tuple[np.ndarray, str]:
    """The playing-area corners and where they came from: "markers", "config" or "auto"
    (the automatic search only when ``auto`` too: it takes most of a second)."""
    if config.markers:
        c = find_marker_corners(frame)
        if c is not None:
            return c, "markers"
    cc = config.corner_array
    if cc is not None:
        return cc, "config"
    if config.auto and auto:
        from .locate import auto_corners
        c = auto_corners(frame)
        if c is not None:
            return c, "auto"
    raise BoardNotFound("board not found: no corner markers, no configured corners, and automatic detection failed"
                        " (check the camera sees the whole board, or give --corners)")


@dataclass
class Reading:
    """One frame's result with its working: the evidence or why there is none."""

    rows: Optional[L.RowReading]
    evidence: Optional[BoardEvidence]
    occluded: bool
    corners: np.ndarray
    view: View
    trays: Optional[TrayReading] = None
    reason: Optional[NoReading] = None  # why there is no evidence (None when there is)
    odds: Optional[list[Alts]] = None   # the absolute reading's odds by rows, when the evidence was built from them


def _covered(assembled: Assembled, params: ReadParams, corners: np.ndarray, view: View,
             reason: NoReading) -> Reading:
    """A covered frame read all the same (``read_occluded``): its rows settled by their totals, at
    confidence 0, no evidence, and why."""
    settled = settle_assembled(assembled, params)
    rows = L.RowReading(settled.rows.top, settled.rows.bottom, settled.rows.bar, 0.0)
    return Reading(rows, None, True, corners, view, reason=reason)


class BoardReader:
    """Reads frames of one board, learning its corners, colours and set-up as it goes."""

    def __init__(self, config: VisionConfig = VisionConfig(), corners: Optional[np.ndarray] = None) -> None:
        self.config = config
        self.corners: Optional[np.ndarray] = None if corners is None else np.asarray(corners, np.float32)
        self._fixed = corners is not None
        self.corner_source = "given" if corners is not None else ""
        self.colours: Optional[ColourModel] = None
        self.setup: Optional[L.SetUp] = None if config.dark_home == "auto" else L.SetUp(config.dark_home)
        self._frames = 0
        self._looks = 0  # calls of locate() (a frame may be located twice: stability, then reading)
        self._searched_at: Optional[int] = None  # the look of the last automatic search, when it failed
        self._trays = KeptTrays()                        # the trays, read when the board's totals change
        self.tray_trust = TrayTrust()                    # how far the trays agreed with the known positions
        self._trays_seen: Optional[tuple[View, Optional[TrayReading]]] = None   # the last view's trays
        self.checker: Optional[float] = config.checker  # the checkers' diameter, pw, once known
        self._spacings: list[float] = []                # rim spacings seen while measuring it
        self._spaced: set[tuple[float, ...]] = set()    # ... from these boards (a still board is counted once)
        self._searches = 0                               # frames that searched other checker sizes
        self._size_votes = [0, 0]                        # frames read better with the measured size, the layout's
        self.memory: Optional[BoardMemory] = None        # this board's learned look (vision.memory)
        self.last_view: Optional[View] = None            # the last frame read, rectified
        self.last_reading: Optional[Reading] = None      # the last frame's working (read())
        self._search = FindAgain()                       # the search for a knocked board (vision.find_again)
        # the quarters' sideways shift (vision.lateral.column_shift): the view and size it was measured
        # at, the frame it was measured on, and the shift
        self._columns: Optional[tuple[tuple[object, ...], int, tuple[float, float, float, float]]] = None

    @property
    def checker_size(self) -> float:
        """The checkers' diameter (pw) the reader counts with now: configured, learned, the
        measurement so far, or the layout's."""
        return self.checker or self._measured() or L.CHECKER

    def _measured(self) -> Optional[float]:
        """The size measured so far from the rim spacings (None: too few), or the layout's once
        frames read with the layout's size have found more checkers than with it on more frames
        than not (:meth:`_measured_or_layout`)."""
        if self._size_votes[1] > self._size_votes[0]:
            return L.CHECKER
        return measure_checker(self._spacings)

    def _read_params(self, view: View, learn: bool = True) -> tuple[ReadParams, Optional[Profiles]]:
        """The reading thresholds with the checkers' size: configured, or measured on the board
        (:mod:`vision.size`): from each new board's rim spacings (looked at every
        :data:`~vision.size.LEARN_EVERY` frames) until :data:`~vision.size.LEARN_GAPS` are
        gathered, then kept; in the meantime the measurement so far, or the layout's size.
        Also the view's rim profiles when the look made them with the same thresholds (the
        read then reuses them)."""
        if self.checker is not None:
            params = (self.config.read if self.checker == self.config.read.checker
                      else replace(self.config.read, checker=self.checker))
            return params, None
        prof = None
        if learn and (self._frames - 1) % LEARN_EVERY == 0:
            prof = ring_profiles(view, self.config.read)
            gaps = self._frame_spacings(view, prof)
            key = tuple(round(g, 2) for g in gaps)
            if key not in self._spaced:
                self._spaced.add(key)
                self._spacings += gaps
        cd = self._measured()
        if cd is not None and len(self._spacings) >= LEARN_GAPS:
            self.checker = cd
        params = replace(self.config.read, checker=cd or L.CHECKER)
        return params, prof if params == self.config.read else None

    def _frame_spacings(self, view: View, prof: Optional[Profiles] = None) -> list[float]:
        """``view``'s rim spacings with the configured rings (``prof``: their profiles, when made);
        when too few, with other sizes' too (:func:`vision.size.other_sizes`), on this reader's
        first :data:`~vision.size.SEARCHES` frames that need it (the checkers may be another size)."""
        gaps = rim_spacings(prof or ring_profiles(view, self.config.read), self.config.read)
        if len(gaps) < MIN_GAPS and self._searches < SEARCHES:
            self._searches += 1
            gaps = other_sizes(view, self.config.read, gaps)
        return gaps

    def locate(self, frame: np.ndarray, force: bool = False) -> np.ndarray:
        """The corners, found once and kept (re-found on ``force`` or every ``relocate_every`` frames)."""
        every = self.config.relocate_every
        if self.corners is None or (not self._fixed and (force or (every and self._frames % every == 0))):
            # markers and configured corners are looked for on every frame; the automatic search
            # (most of a second) at most every ``auto_every`` frames while it finds nothing
            self._looks += 1
            wait = self._searched_at is not None and self._looks - self._searched_at < self.config.auto_every
            try:
                self.corners, self.corner_source = find_corners(frame, self.config, auto=force or not wait)
            except BoardNotFound:
                if not wait:
                    self._searched_at = self._looks
                raise
            self._searched_at = None
        return self.corners

    def inspect(self, frame: np.ndarray, t: float = 0.0, read_occluded: bool = False,
                frame_band: bool = True) -> Reading:
        """Read ``frame`` and return the working (raises :class:`BoardNotFound`).

        A frame with something across the board's frame band gives no rows, unless
        ``read_occluded`` (then the rows come with confidence 0 and ``occluded`` set).
        ``frame_band=False``: a frame taught by itself (:meth:`assume`) is judged covered by its
        own look alone (:meth:`vision.self_reference.SelfReference.covered`), not by a single
        frame's signs (the frame band, a blank patch, a stack of neither colour): a still frame
        the table is about to learn from all the same (:func:`vision.setup_check.unlike_told`).
        """
        self._frames += 1
        corners = self.locate(frame)
        view = rectify(frame, corners, self.config.px, shape=self.config.shape)
        self.last_view = view
        memory = self.memory if self.memory is not None and self.memory.trained else None
        knocked = memory.move(view) if memory is not None else None
        if knocked is not None and not knocked.still and not read_occluded:
            assert memory is not None
            found = self._find_again(frame, memory, corners, view, knocked, t)
            if found is not None:
                corners, view = found
            elif knocked.far(view.px):
                # the board lies further from where its look was learned than a knock, and was not
                # found again: say so rather than compare every slot with its neighbour's look
                return Reading(None, None, False, corners, view, reason=camera_moved(knocked.told(view.px)))
        # with the board's look learned, something over it is what looks like nothing it showed
        # (fittings and logos on the frame then count for nothing); before, the frame band.  A
        # frame teaching itself learned its looks from the very frame an arm may lie over (the
        # arm's own slots among them), so there the frame band is asked too
        covered = memory.covered(view) if memory is not None else False
        if covered and knocked is not None and knocked.tiles < knock.MIN_TILES and not read_occluded \
                and not isinstance(memory, SelfReference):
            # the board's look is foreign and its move could not be told (the tiles disagree): a
            # hand over the board, or a camera knocked further or turned more than a knock is
            # measured; the board looked for again tells which
            assert memory is not None
            found = self._find_again(frame, memory, corners, view, None, t)
            if found is not None:
                corners, view = found
                covered = memory.covered(view)
        # a single frame judged without a learned look: the frame band, the blank patch and the
        # foreign stacks say whether something lies over it
        single = memory is None or isinstance(memory, SelfReference)
        blank = None
        if single and frame_band:
            covered = covered or occlusion_score(view, self._band_params(memory)) > SINGLE_FRAME_OCCLUSION
            # a patch of the rows with no edge at all: a plain arm the band did not see cross
            # (a navy sleeve over a black frame: :mod:`vision.blank_patch`)
            blank = None if covered else blank_patch(view)
            covered = covered or blank is not None
        if covered:
            if not read_occluded:
                return Reading(None, None, True, corners, view, reason=self._occluded(view, memory, blank))
            params = self._read_params(view, learn=False)[0]
            if self.checker is None and not self._spacings:
                # nothing measured on this board yet: the checkers' size from this frame's own
                # rims (those in view), for this read only (a covered frame teaches nothing)
                cd = measure_checker(self._frame_spacings(view))
                if cd is not None:
                    params = replace(self.config.read, checker=cd)
            params = self._on_axes(view, params) if single else params
            return _covered(read_view(view, self.colours, params)[0], params, corners, view,
                            self._occluded(view, memory, blank))
        params, prof = self._read_params(view)
        on_axes = self._on_axes(view, params, prof) if single else params
        params, prof = on_axes, (prof if on_axes is params else None)
        assembled, model = read_view(view, self.colours, params, prof)
        params, assembled, model = self._measured_or_layout(view, params, assembled, model)
        if assembled.foreign and single and frame_band:
            # a stack of a colour neither set shows: something lies over those points (a cup, a
            # sleeve the frame band did not see cross); a learned look tells it by its own slots
            reason = occluded([], assembled.foreign)
            if not read_occluded:
                return Reading(None, None, True, corners, view, reason=reason)
            return _covered(assembled, params, corners, view, reason)
        # more than 15 of a colour: the most likely reading with possible totals, its changed
        # points unsure (:mod:`vision.totals`)
        raw, assembled = assembled, settle_assembled(assembled, params)
        by_totals = assembled is not raw
        if not assembled.plausible:
            # impossible totals (a hinge read as a checker...): the odds may still tell which of
            # the positions a roll allows it is (the wrong point counts against each alike)
            if self.setup is None:
                return Reading(assembled.rows, None, False, corners, view, reason=assembled.reason or not_set_up())
            implausible, by_rows = self._with_odds(assembled.rows, view, t, None, assembled.margins,
                                                   assembled.odd, assembled.bar_confidence)
            return Reading(assembled.rows, implausible, False, corners, view, odds=by_rows)
        if model is not None and self.colours is None:
            self.colours = model
        rows = assembled.rows
        if self.setup is None:
            self.setup = L.infer_setup(rows)
        trays = off = None
        if self.config.trays and assembled.model is not None:
            trays = self._trays.read(frame, corners, assembled, self.config.shape)
            off = consistent_off(trays, assembled.totals)
            if off is None and trays is not None and trays.sure:
                settled = settle_with_off(assembled, (trays.dark, trays.light))
                off = consistent_off(trays, settled.totals)
                if off is not None:  # the trays and a stack's next likeliest count add up to 15 a colour
                    rows = settled.rows
                    self._trays.keep(assembled.totals, corners, trays)
        ev: Optional[BoardEvidence] = None
        odds: Optional[list[Alts]] = None
        if self.setup is not None and (rows.confidence >= self.config.min_confidence or by_totals):
            # a reading settled by its totals is never sure as a whole, but its odds still tell the plays apart
            ev, odds = self._with_odds(rows, view, t, off, assembled.margins, assembled.odd,
                                       assembled.bar_confidence)
            self._trays_seen = (view, trays)
            tray = self.tray_trust.odds(trays)
            if ev is not None and ev.odds and tray is not None:
                # the trays, as far as this board's known positions taught to trust them
                # (vision.tray_trust): the borne-off checkers tell a bear-off's plays apart where the
                # deepest point's tall stack cannot (referee.turn.trays.tray_logs)
                ev = replace(ev, odds=ev.odds + tuple(tuple(a) for a in tray))
        why = None if ev is not None else reading_reason(rows, None, self.setup is not None,
                                                          self.config.min_confidence, CERTAIN)
        return Reading(rows, ev, False, corners, view, trays, why, odds)

    def _on_axes(self, view: View, params: ReadParams, prof: Optional[Profiles] = None) -> ReadParams:
        """``params`` with each quarter's points' axes where the board shows them: corners clicked a
        little off lay a quarter's points a fifth to two fifths of a point beside the layout's columns,
        beyond the reading's sideways search (:func:`vision.lateral.column_shift`).  Measured again
        every :data:`COLUMNS_EVERY` frames at the same corners and checker size (it costs about
        as much as a read), at once when they change.  Only while no look of the board is learned
        (:meth:`inspect` asks it then: the absolute reading alone, or a frame teaching itself): a learned
        look's odds are only tilted by the absolute reading, and in the table's games on real boards
        (``bench/vision_game.py``, unseen6 dev seeds 1-8) the shifted tilts cost 10 true plays of 4,345
        (image039, image043), while the frame teaching itself gained (unseen3 130 -> 145 of 160)."""
        key = (view.px, view.x0, view.y0, params.checker,
               None if self.corners is None else self.corners.tobytes())
        kept = self._columns
        if kept is None or kept[0] != key or self._frames - kept[1] >= COLUMNS_EVERY:
            kept = self._columns = (key, self._frames, column_shift(view, params, self.config.shape.height, prof))
        shift = kept[2]
        return replace(params, columns=shift) if any(shift) else params

    def _measured_or_layout(self, view: View, params: ReadParams, assembled: Assembled,
                            model: Optional[ColourModel]) -> tuple[ReadParams, Assembled, Optional[ColourModel]]:
        """While the checkers' size is measured and not yet kept, a size other than the layout's is
        checked against it on each frame: the rims of a stack lie one diameter apart only where the
        camera looks straight down; from a seat, or with the board's height set shorter than the
        board's, a stack's checkers overlap in the view and their spacing is less than their width
        (a real aluminium case photographed from a player's seat measured 0.79 and lost eight dark
        checkers of 15; the layout's 0.9 read all 24 points).  Rings too small find too few rims, not
        too many, so when the layout's size finds every checker of both colours on the board (15 each,
        points and bar: a board before the bear-off) and :data:`LAYOUT_FINDS` or more than the
        measured one, its reading is taken, and once it has been the better on more frames than not
        the reader keeps to it (:meth:`_measured`).  A reader checks so on its first
        :data:`SIZE_CHECKS` frames read with a measured size (each costs a second read).  (Finding
        more alone is not enough: on a real case whose checkers do measure 0.8, the layout's rings
        read a dark five as seven.)"""
        if self.checker is not None or params.checker == L.CHECKER or sum(self._size_votes) >= SIZE_CHECKS:
            return params, assembled, model
        layout = replace(params, checker=L.CHECKER)
        other, other_model = read_view(view, self.colours, layout)
        if other.totals == (L.PER_SIDE, L.PER_SIDE) and sum(other.totals) >= sum(assembled.totals) + LAYOUT_FINDS:
            self._size_votes[1] += 1
            return layout, other, other_model
        self._size_votes[0] += 1
        return params, assembled, model

    def _find_again(self, frame: np.ndarray, memory: BoardMemory, corners: np.ndarray, view: View,
                    far: Optional[knock.Move], t: float = 0.0) -> Optional[tuple[np.ndarray, View]]:
        """The board found again after the camera was knocked (:meth:`vision.find_again.FindAgain.find`;
        ``far``: the move ``view`` shows, None when it could not be told): the new corners and the
        view at them, taken as the reader's, or None."""
        found = self._search.find(frame, memory, corners, view, far, self.config, self._frames, t)
        if found is not None:
            self.corners, self.corner_source = found[0], "found again"
            self.last_view = found[1]
        return found

    def _occluded(self, view: View, memory: Optional[BoardMemory], blank: Optional[str] = None) -> NoReading:
        """The reason of a covered frame: the frame band's edges crossed (none named once the
        board's look is learned: then it is the places that look like nothing the board showed),
        or the point under a patch of the rows showing no board (``blank``: :mod:`vision.blank_patch`)."""
        if blank is not None:
            return occluded([], (blank,))
        if memory is not None:
            return occluded([])
        return occluded(occluded_edges(view, self.config.occlusion, SINGLE_FRAME_OCCLUSION))

    def _band_params(self, memory: Optional[BoardMemory]) -> OcclusionParams:
        """The frame band's check for a single frame: a frame teaching itself (its own look counts a
        hand's foreign slots too) takes a thing at the bar's end no wider than it for a fitting
        (:class:`vision.occlusion.OcclusionParams` ``bar_fittings``); the absolute reading alone does not."""
        if isinstance(memory, SelfReference):
            return replace(self.config.occlusion, bar_fittings=True)
        return self.config.occlusion

    def _with_odds(self, rows: L.RowReading, view: View, t: float, off: Optional[tuple[int, int]],
                   margins: tuple[float, ...] = (), odd: tuple[bool, ...] = (),
                   bar_confidence: Optional[float] = None) -> tuple[BoardEvidence, Optional[list[Alts]]]:
        """The evidence for a reading, with its odds (the absolute reading's, times the learned
        look of this board's slots once the table has seen a known position), and the absolute
        reading's odds by rows when they are the evidence's (no look learned; ``bgtable read``
        reports them, :func:`vision.cli.reported_odds`).  ``margins``: each point's colour margin
        (:attr:`vision.assemble.Assembled.margins`), for how surely its colour is read
        (:func:`vision.odds.colour_doubt`); ``odd``: the points holding a checker whose hue neither
        colour shows (:attr:`~vision.assemble.Assembled.odd`); ``bar_confidence``: the bar count's own."""
        assert self.setup is not None
        memory = self.memory if self.memory is not None and self.memory.trained else None
        learned = memory.odds(view) if memory is not None else None
        per = memory.geo.per_point if memory is not None else 6
        doubts = [colour_doubt(m) for m in margins] if len(margins) == 24 else None
        # looks of other points' checkers (the frame teaching itself, a learned slot's stand-ins)
        # cannot tell the colour of one whose hue neither colour shows (glare washing a red checker
        # pink): only its count
        blind = None
        if memory is not None and len(odd) == 24 and any(odd):
            blind = [o and not t for o, t in zip(odd, memory.colours_taught().tolist())]
        # a single frame's point that the picture leaves out in part (a camera or a photo cut at the
        # playing area) tells nothing; a learned look compares the slot with its own pixels, cut or not
        cut = points_out_of_picture(view) if memory is None or isinstance(memory, SelfReference) else (False,) * 24
        by_rows = row_odds(rows, learned, per, memory.tilt if memory is not None else TILT, doubts, blind=blind,
                           bar_share=memory.bar_share if memory is not None else BAR_SHARE,
                           bar_confidence=bar_confidence, unseen=cut)
        if memory is None:  # the absolute reading as it is, with its odds
            return replace(self.setup.to_evidence(rows, t, off), odds=to_table(by_rows, self.setup)), by_rows
        pts, bar = most_likely(by_rows)
        conf = min(a[0][2] for i, a in enumerate(by_rows) if i >= 24 or not cut[i])
        fused = L.RowReading(tuple(pts[:12]), tuple(pts[12:]), bar, conf)
        return replace(self.setup.to_evidence(fused, t, off), odds=to_table(by_rows, self.setup)), None

    def learn(self, ev: BoardEvidence, view: Optional[View] = None) -> bool:
        """Learn this board's look from a frame whose position is known (``ev``, table
        numbering; ``view``: that frame rectified, by default the last frame inspected).
        False when there is nothing to learn from (no frame yet, no set-up), or when the camera
        moved further than a knock since the look was learned (:meth:`BoardMemory.learn`)."""
        view = view if view is not None else self.last_view
        if view is None or self.setup is None:
            return False
        if ev.off is not None and self._trays_seen is not None and self._trays_seen[0] is view:
            self.tray_trust.check(self._trays_seen[1], ev.off)   # what the trays read there, against the truth
        if self.memory is None:
            if self.checker is None:  # a known position is the best frame to measure the checkers on
                self._spacings += self._frame_spacings(view)
            self.memory = BoardMemory(self.checker_size, self.config.shape.height)
        top, bottom = self.setup.to_rows(ev)
        return self.memory.learn(view, L.RowReading(tuple(top), tuple(bottom), ev.bar, 1.0), self.corners)

    def assume(self, before: BoardEvidence, view: Optional[View] = None,
               dice: Optional[tuple[int, int]] = None, before_base: bool = True) -> bool:
        """With no reference frame: learn the board's look from the frame itself (``view``, by
        default the last inspected), under ``before``, the position before the move, leaving each
        point out of its own look (:mod:`vision.self_reference`); ``dice``, the roll when known,
        bounds how many checkers the move changed on a point; ``before_base``: the rows' checkers may
        begin before the points' bases (:data:`vision.self_reference.SELF_STARTS`; the set-up check,
        which asks whether the frame shows a position at all, gives a wrong position no such room).  The
        next :meth:`inspect` of that frame then carries odds the referee's likelihood verdict can use.
        False when there is no frame or no set-up yet."""
        view = view if view is not None else self.last_view
        if view is None or self.setup is None:
            return False
        top, bottom = self.setup.to_rows(before)
        rows = L.RowReading(tuple(top), tuple(bottom), before.bar, 1.0)
        taught = SelfReference(view, rows, self.checker_size, self.config.shape.height, dice, before_base)
        if self.checker is None and abs(self.checker_size - L.CHECKER) > 0.02:
            # a size measured on this one frame may be misread (a rim taken for a checker's edge):
            # the layout's size is tried too, and the frame keeps the slots that fit it better
            # (fewer slots looking like another state than the position before says)
            plain = SelfReference(view, rows, L.CHECKER, self.config.shape.height, dice, before_base)
            if plain.misfits < taught.misfits:
                taught = plain
        self.memory = taught
        return True

    def read(self, frame: np.ndarray, t: float = 0.0, covered_rows: bool = False) -> Optional[BoardEvidence]:
        """Board evidence for one frame, or None when occluded, implausible or not yet set up
        (the working stays in :attr:`last_reading`; with ``covered_rows`` a covered frame is
        read too, its rows kept there)."""
        self.last_reading = None
        try:
            self.last_reading = self.inspect(frame, t, read_occluded=covered_rows)
        except BoardNotFound:
            return None
        return None if self.last_reading.occluded else self.last_reading.evidence
