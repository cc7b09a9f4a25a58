"""Is the board told apart from what another roll leaves?  (A player who played other dice.)

The commonest illegal move after a miscounted pip is a play of another roll: the dice read
wrong, or a checker of the right roll played as a neighbouring number.  Such a board differs from
the closest legal move at two or three places, often stacks or a point with a die on it, and a
reading can be unsure at every one of them (a stack read 4 or 5 at even odds, a point under a die
read anything at a third each) and still give the legal move a likelihood well above the other
roll's board: a real board (a leather cup beside it) was accepted as 17/12 under 4-1 when 5-3 had
been played 21/18 17/12, the reading telling the two boards apart by 0.85 nats, at a stack it read
4 or 5 at even odds and a stack it read 4 at 0.69.

So the best legal move is accepted only when the reading tells its board apart from every board
another roll leaves (any of the 21 rolls, from the same position, that no play of this roll
leaves) by more than :data:`OTHER_ROLL` nats (5 to 1), where a place the reading is not sure shows
the legal move's cell (under :data:`referee.turn.likelihood.SURE` there) counts against the other
roll's board by at most :data:`referee.turn.likelihood.UNSURE` (4 to 1): a reading that is not sure
what a place shows is no surer what it does not show (a stack of five read 3 or 4 at even odds and
5 at 0.002, a stack of five read 4 at 0.74 and 5 at 0.003: both real boards, both wrong); nor is
one sure of a third thing there (a glossy stack of five read bare at 0.82, four and five both in
its tail: leather_lace, where the tails' ratio let four illegal boards through once the frame
teaching itself laid its slots otherwise).  A place read surely as the legal move's counts in full,
and every place counts in full for the other roll's board.  The players
are asked; the table never records a board it cannot tell from another roll's.
"""
from __future__ import annotations

import gc
import math
import threading
from collections import OrderedDict
from typing import Collection, Optional, Sequence

import numpy as np

from referee.colour import DARK, LIGHT
from referee.rules.movekeys import key_of, sides_of
from referee.rules.moves import _raw as raw_plays, legal_plays
from referee.rules.position import BAR, Position
from referee.turn.likelihood import FLOOR, SURE, TALL, UNSURE, Cell

OTHER_ROLL = math.log(5)  # nats the best legal move's board must beat every other roll's by (5:1; unsure places capped)
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(a, 7))
Boards = tuple[tuple[int, tuple[int, int], tuple[tuple[int, Cell], ...]], ...]  # (result key, roll, changed cells)


def _byte_places(mover: str) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """For a result key (the mover's 25 counts a byte each, then the opponent's:
    :mod:`referee.rules.movekeys`): the location (0-23 a point, 24 Dark's bar, 25 Light's) each
    byte counts at, and for each location the bytes of its Dark and Light counts."""
    # the byte of each side's count at its own index (Dark's numbering is the table's; Light's
    # index j is the table's point 23 - j)
    dark, light = (tuple(range(25)), tuple(range(25, 50))) if mover == DARK else \
        (tuple(range(25, 50)), tuple(range(25)))
    where = [0] * 50
    for k in range(25):
        where[dark[k]] = k
        where[light[k]] = 25 if k == BAR else 23 - k
    return tuple(where), tuple((dark[k], light[23 - k]) for k in range(24)) + ((dark[BAR], -1), (-1, light[BAR]))


_PLACES: dict[str, tuple[tuple[int, ...], tuple[tuple[int, int], ...]]] = {
    DARK: _byte_places(DARK), LIGHT: _byte_places(LIGHT)}


def _mover_key(board: Position, mover: str) -> int:
    """A board (Dark on roll) as a result key of ``mover``'s play."""
    return key_of(board.me, board.opp) if mover == DARK else key_of(board.opp, board.me)


def _board(key: int, mover: str) -> Position:
    """A result key of ``mover``'s play as the board (Dark on roll)."""
    me, opp = sides_of(key)
    return Position(me, opp) if mover == DARK else Position(opp, me)


class _Prepared:
    """Every board some roll's play leaves from one position, in the two forms the rule needs:
    ``keys`` and ``rolls`` (each board's result key and the first roll that leaves it) with a compact
    form for weighing them all at once against a reading (:func:`another_roll`): the distinct changed
    (location, cell) pairs (``pair_places``, ``pair_cells``) and, per board, the pairs it has (``pairs``:
    a row a board, its changed locations in ascending order, padded with ``len(pair_cells)``, a pair
    whose gain is 0).  A reading's gain is then worked out once a pair, not once a board (about 2,000
    boards a real position, a few hundred pairs).  :attr:`boards` (:data:`Boards`, for listing and
    naming them) is made only when asked for: the judgement needs one board, by its row."""

    def __init__(self, keys: list[int], rolls: list[tuple[int, int]], pair_places: list[int],
                 pair_cells: list[Cell], pairs: np.ndarray) -> None:
        self.keys, self.rolls = keys, rolls
        self.index = {key: i for i, key in enumerate(keys)}
        self.pair_places, self.pair_cells, self.pairs = pair_places, pair_cells, pairs
        self._boards: Optional[Boards] = None

    def __len__(self) -> int:
        return len(self.keys)

    def entry(self, i: int) -> tuple[int, tuple[int, int], tuple[tuple[int, Cell], ...]]:
        """Board ``i`` as :data:`Boards` has it."""
        pad = len(self.pair_cells)
        return self.keys[i], self.rolls[i], tuple((self.pair_places[p], self.pair_cells[p])
                                                  for p in self.pairs[i].tolist() if p != pad)

    @property
    def boards(self) -> Boards:
        if self._boards is None:
            self._boards = tuple(self.entry(i) for i in range(len(self.keys)))
        return self._boards


_READY: "OrderedDict[tuple[Position, str], _Prepared]" = OrderedDict()
_BUILDING: dict[tuple[Position, str], threading.Lock] = {}
_GUARD = threading.Lock()
KEPT = 8  # positions whose boards are kept (the table judges one position's readings at a time)


def prepare(before: Position, mover: str) -> None:
    """Build the boards for ``mover``'s move from ``before`` (Dark on roll) now, so that the first
    judgement of the move does not wait for them: they depend only on the position and the mover,
    not the roll or the reading, so the table builds them while the player thinks (the previous move
    accepted, a game's opening position set up).  Safe from any thread: a position is never built
    twice at once, and a judgement that comes first builds it itself (the same boards)."""
    _prepared(before, mover)


def _prepared(before: Position, mover: str) -> _Prepared:
    """The boards for ``mover``'s move from ``before``, built once (:func:`prepare`)."""
    if mover not in _PLACES:
        raise ValueError(f"mover {mover!r}: expected {DARK!r} or {LIGHT!r}")
    at = (before, mover)
    with _GUARD:
        got = _READY.get(at)
        if got is not None:
            _READY.move_to_end(at)
            return got
        building = _BUILDING.setdefault(at, threading.Lock())
    with building:   # a second caller waits for the first one's build, then finds it ready
        with _GUARD:
            got = _READY.get(at)
        if got is None:
            got = _build(before, mover)
            with _GUARD:
                _READY[at] = got
                while len(_READY) > KEPT:
                    _READY.popitem(last=False)
    with _GUARD:
        if _BUILDING.get(at) is building:
            del _BUILDING[at]
    return got


def _boards(before: Position, mover: str) -> Boards:
    """Every board some roll's play leaves from ``before`` (Dark on roll), as the move generator's
    result key, with the first roll that leaves it and the locations (with their cells, in ascending
    order) where it differs from ``before``: a play moves four checkers at most, so a board is
    weighed at a few places only.  Computed once a position (the table judges several readings of
    one move)."""
    return _prepared(before, mover).boards


def _build(before: Position, mover: str) -> _Prepared:
    """:func:`_prepared`'s boards, built."""
    # a burst of small tuples holding no cycles: the collector's full passes over a big process
    # (a camera's frames, a reader's memory) only slow it: 18 ms a position instead of 8 (as moves._cached)
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        return _changed_boards(before, mover)
    finally:
        if collecting:
            gc.enable()


def _changed_boards(before: Position, mover: str) -> _Prepared:
    """:func:`_build`, the collector aside: the counts of every board at once, as arrays."""
    before_m = before if mover == DARK else before.swap()
    seen: dict[int, tuple[int, int]] = {}
    for roll in ROLLS:
        keys, _ = raw_plays(before_m, *roll)   # the generator's own results, no Position built
        for key in keys:
            seen.setdefault(key, roll)
    was = key_of(before_m.me, before_m.opp)
    dark_at, light_at = _COUNT_BYTES[mover]
    n = len(seen)
    # each board's 50 count bytes, then its Dark and Light count at each of the 26 locations
    raw = np.frombuffer(b"".join(key.to_bytes(51, "little") for key in seen), np.uint8).reshape(n, 51)
    dark, light = raw[:, dark_at], raw[:, light_at]   # byte 50 is always 0: a bar has one colour
    was_raw = np.frombuffer(was.to_bytes(51, "little"), np.uint8)
    changed = (dark != was_raw[dark_at]) | (light != was_raw[light_at])
    rows, places = np.nonzero(changed)   # row-major: each board's changed locations, ascending
    code = (places * 256 + dark[rows, places].astype(np.int64)) * 256 + light[rows, places]
    codes, pair_of = np.unique(code, return_inverse=True)
    pair_places = (codes >> 16).tolist()
    pair_cells = [_cell_of(k, (c >> 8) & 0xFF, c & 0xFF) for k, c in zip(pair_places, codes.tolist())]
    per_board = np.bincount(rows, minlength=n)
    width = int(per_board.max()) if n else 0
    pairs = np.full((n, width), len(pair_cells), np.int64)
    starts = np.concatenate(([0], np.cumsum(per_board)[:-1])) if n else np.zeros(0, np.int64)
    pairs[rows, np.arange(len(rows)) - starts[rows]] = pair_of.reshape(-1)
    return _Prepared(list(seen), list(seen.values()), pair_places, pair_cells, pairs)


def _cell_of(k: int, d: int, l_: int) -> Cell:
    """Location ``k``'s cell from its Dark and Light counts."""
    if k == 24:
        return (d, DARK)
    if k == 25:
        return (l_, LIGHT)
    return (d, DARK) if d else (l_, LIGHT) if l_ else (0, None)


def _count_bytes(mover: str) -> tuple[np.ndarray, np.ndarray]:
    """For a result key of ``mover``'s play: the byte of each location's Dark and Light count
    (byte 50, always 0, where a location has no count of that colour: a bar)."""
    _where, counts = _PLACES[mover]
    return (np.array([d if d >= 0 else 50 for d, _ in counts]),
            np.array([l_ if l_ >= 0 else 50 for _, l_ in counts]))


_COUNT_BYTES: dict[str, tuple[np.ndarray, np.ndarray]] = {DARK: _count_bytes(DARK), LIGHT: _count_bytes(LIGHT)}


def other_roll_boards(before: Position, mover: str, legal: Collection[Position]) -> dict[Position, tuple[int, int]]:
    """Every board (Dark on roll) a play of some roll leaves from ``before`` (Dark on roll) that is
    not in ``legal``, with the first roll (low die first) that leaves it."""
    out = {_board(key, mover): roll for key, roll, _ in _boards(before, mover)}
    return {board: roll for board, roll in out.items() if board not in legal}


def _cell(me: Sequence[int], opp: Sequence[int], k: int) -> Cell:
    """Location ``k`` (0-23 a point, 24 Dark's bar, 25 Light's) of a position (Dark on roll) as a cell."""
    if k == 24:
        return (me[BAR], DARK)
    if k == 25:
        return (opp[BAR], LIGHT)
    d, l_ = me[k], opp[23 - k]
    return (d, DARK) if d else (l_, LIGHT) if l_ else (0, None)


class _Gains:
    """How much likelier the reading finds ``cells`` than another cell, location by location, as
    :func:`told_apart` counts it (a place not read surely as ``cells`` has it: at most :data:`UNSURE`);
    computed once each."""

    def __init__(self, table: Sequence[dict[Cell, float]], cells: Sequence[Cell]) -> None:
        self.table, self.cells = table, cells
        self.unsure = [t.get(c, 0.0) < SURE for t, c in zip(table, cells)]
        self.memo: list[dict[Cell, float]] = [{} for _ in table]

    def __call__(self, k: int, other: Cell) -> float:
        memo = self.memo[k]
        if other not in memo:
            t = self.table[k]
            gain = math.log(max(t.get(self.cells[k], 0.0), FLOOR)) - math.log(max(t.get(other, 0.0), FLOOR))
            mine = self.cells[k]
            tall = other[1] == mine[1] and min(other[0], mine[0]) >= TALL   # two counts of one tall stack
            memo[other] = min(gain, UNSURE) if self.unsure[k] or tall else gain
        return memo[other]


def told_apart(table: Sequence[dict[Cell, float]], cells: Sequence[Cell],
               other: Sequence[Cell]) -> tuple[float, list[int]]:
    """How surely the reading prefers ``cells`` to ``other`` (nats; module docstring: a place read
    unsure counts for ``cells`` at most :data:`UNSURE`), and the places where the two differ."""
    gains = _Gains(table, cells)
    places = [k for k, (mine, theirs) in enumerate(zip(cells, other)) if mine != theirs]
    return sum(gains(k, other[k]) for k in places), places


def another_roll(table: Sequence[dict[Cell, float]], cells: Sequence[Cell], before: Position, mover: str,
                 legal: Collection[Position], off_logs: Optional[Sequence[float]] = None
                 ) -> Optional[tuple[float, list[int], tuple[int, int], Position]]:
    """The board another roll leaves that the reading tells least surely from ``cells`` (the best
    legal move's, as :func:`referee.turn.likelihood.cells_of` gives them), when by no more than
    :data:`OTHER_ROLL`: (nats, the places they differ at, the roll, the board); None when every
    other roll's board is told apart.  Every board weighed at once (:class:`_Prepared`); the same
    sums, in the same order, as :func:`_closest_one_by_one`.  ``off_logs``: the trays' log-probability
    of each count of the mover's borne-off checkers (:func:`referee.turn.trays.tray_logs`), when
    read: a board bearing off more or fewer is told apart by them too (as a place: at most
    :data:`~referee.turn.likelihood.UNSURE` when they are not sure of the legal move's count)."""
    ready = _prepared(before, mover)
    gains = _Gains(table, cells)
    was = [_cell(before.me, before.opp, k) for k in range(26)]
    # what the legal move's board is told from the board before the move by, where it moved
    moved = {k: gains(k, was[k]) for k in range(26) if cells[k] != was[k]}
    base = sum(moved.values())
    if not len(ready):
        return None
    # a board differs from the legal move's only where one of the two differs from before
    gain = np.array([gains(k, cell) - moved.get(k, 0.0) for k, cell in zip(ready.pair_places, ready.pair_cells)]
                    + [0.0])
    each = gain[ready.pairs]
    apart = np.zeros(len(ready))
    for j in range(each.shape[1]):   # left to right, as sum() adds them
        apart = apart + each[:, j]
    apart = base + apart
    if off_logs is not None:
        def mine(cell: Cell) -> int:
            return cell[0] if cell[1] == mover else 0
        # each board's checkers of the mover borne off: as before, less what its changed places add
        delta = np.array([mine(cell) - mine(was[k]) for k, cell in zip(ready.pair_places, ready.pair_cells)] + [0])
        off_before = 15 - sum(mine(c) for c in was)
        off = np.clip(off_before - delta[ready.pairs].sum(axis=1), 0, 15)
        apart = apart + _tray_gains(off_logs, 15 - sum(mine(c) for c in cells), off)
    for board in legal:
        i = ready.index.get(_mover_key(board, mover))
        if i is not None:
            apart[i] = math.inf
    i = int(np.argmin(apart))   # the first of the least, as the loop keeps it
    if not apart[i] <= OTHER_ROLL:
        return None
    return _named(float(apart[i]), ready.entry(i), cells, mover)


def _tray_gains(off_logs: Sequence[float], best: int, off: np.ndarray) -> np.ndarray:
    """How much likelier the trays find the legal move's ``best`` borne-off count than each board's
    ``off`` (capped at :data:`~referee.turn.likelihood.UNSURE` when they are not sure of ``best``)."""
    logs = np.asarray(off_logs, np.float64)
    gain: np.ndarray = logs[best] - logs[off]
    return np.minimum(gain, UNSURE) if logs[best] < math.log(SURE) else gain


def _closest_one_by_one(table: Sequence[dict[Cell, float]], cells: Sequence[Cell], before: Position, mover: str,
                        legal: Collection[Position], off_logs: Optional[Sequence[float]] = None
                        ) -> Optional[tuple[float, list[int], tuple[int, int], Position]]:
    """:func:`another_roll` weighed board by board: the straightforward reading of the rule, kept as
    the reference the arrays are checked (tests) and timed (bench/other_rolls.py) against."""
    gains = _Gains(table, cells)
    was = [_cell(before.me, before.opp, k) for k in range(26)]
    moved = {k: gains(k, was[k]) for k in range(26) if cells[k] != was[k]}
    base = sum(moved.values())
    legal_keys = {_mover_key(board, mover) for board in legal}
    best_off = 15 - sum(c[0] for c in cells if c[1] == mover)
    worst: Optional[tuple[float, tuple[int, tuple[int, int], tuple[tuple[int, Cell], ...]]]] = None
    for entry in _boards(before, mover):
        if entry[0] in legal_keys:
            continue
        apart = base + sum(gains(k, cell) - moved.get(k, 0.0) for k, cell in entry[2])
        if off_logs is not None:
            board = _board(entry[0], mover)
            mine_off = board.off[0] if mover == DARK else board.off[1]
            apart += float(_tray_gains(off_logs, best_off, np.array([mine_off]))[0])
        if apart <= OTHER_ROLL and (worst is None or apart < worst[0]):
            worst = (apart, entry)
    return None if worst is None else _named(worst[0], worst[1], cells, mover)


def _named(apart: float, entry: tuple[int, tuple[int, int], tuple[tuple[int, Cell], ...]], cells: Sequence[Cell],
           mover: str) -> tuple[float, list[int], tuple[int, int], Position]:
    """The closest other roll's board as :func:`another_roll` gives it."""
    key, roll, _ = entry
    board = _board(key, mover)
    return apart, [k for k in range(26) if _cell(board.me, board.opp, k) != cells[k]], roll, board


def play_name(before: Position, mover: str, roll: tuple[int, int], board: Position) -> str:
    """The play of ``roll`` from ``before`` that leaves ``board`` (both Dark on roll), in the mover's
    notation, the higher die first ("5-3: 17/12 21/18")."""
    before_m = before if mover == DARK else before.swap()
    plays = legal_plays(before_m, *roll).producing(board)
    dice = f"{max(roll)}-{min(roll)}"  # the higher die first, as players say it
    return f"{dice}: {plays[0].play}" if plays else dice
