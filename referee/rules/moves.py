"""Legal plays for a position and a roll (RULES.md sections 3-5), and checking a play.

:func:`legal_plays` returns one :class:`LegalPlay` per distinct resulting position,
each with its play in GNU Backgammon's notation and the resulting position with
the opponent on roll.  The generator (:mod:`referee.rules.movegen`) is an unchecked inner
loop over gnubg-style lists; :func:`match_play` and :func:`plays_to` are the checked entry points the
match records and the referee use.
"""
from __future__ import annotations

import gc
from functools import lru_cache
from collections.abc import Sequence as SequenceABC
from typing import Iterator, NamedTuple, Optional, Sequence, Union, overload

from referee.errors import DiceError, IllegalPlay
from referee.rules.notation import BAR_POINT, OFF_POINT, Play, WrittenPlay, parse_play
from referee.rules.movegen import Path, generate, key_of, sides_of
from referee.rules.position import Position


class LegalPlay(NamedTuple):
    """A legal play and the position after it (the opponent on roll)."""

    play: Play
    result: Position

    def __str__(self) -> str:
        return str(self.play)


def check_dice(d1: object, d2: object) -> tuple[int, int]:
    """The dice as a pair, checked: each an int 1-6 (else DiceError naming the die)."""
    for d in (d1, d2):
        if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6:
            raise DiceError(f"die {d!r} is out of range: each die must be 1-6")
    return d1, d2  # type: ignore[return-value]


def parse_dice(text: Union[str, Sequence[int]]) -> tuple[int, int]:
    """Dice from ``"31"``, ``"3-1"``, ``"3 1"`` or a pair of ints."""
    if not isinstance(text, str):
        if len(text) != 2:
            raise DiceError(f"dice {list(text)!r}: expected two dice, each 1-6")
        return check_dice(text[0], text[1])
    t = text.strip().replace("-", "").replace(" ", "").replace(",", "")
    if len(t) != 2 or not (t.isascii() and t.isdigit()):
        raise DiceError(f"dice {text!r} are malformed: expected two digits 1-6 like '31' or '3-1'")
    return check_dice(int(t[0]), int(t[1]))


# ---------------------------------------------------------------------------- generator


@lru_cache(maxsize=4096)
def _cached(me: tuple[int, ...], opp: tuple[int, ...], d1: int, d2: int) -> tuple[tuple[int, ...], tuple[Path, ...]]:
    """The raw legal plays: result keys (:func:`referee.rules.movegen.key_of`) and step paths."""
    # a burst of small tuples: the collector would only walk them (they hold no
    # cycles), and its full passes were the slowest cases' outliers (4-10 ms).
    # The pause is process-wide but under a millisecond, and is undone on any
    # exit; a caller that has disabled the collector keeps it disabled.
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        keys, paths = generate(me, opp, d1, d2)
        return tuple(keys), tuple(paths)
    finally:
        if collecting:
            gc.enable()


def _raw(position: Position, d1: int, d2: int) -> tuple[tuple[int, ...], tuple[Path, ...]]:
    check_dice(d1, d2)
    if d1 < d2:
        d1, d2 = d2, d1
    return _cached(position.me, position.opp, d1, d2)


_ME = (1 << 200) - 1  # the mover's part of a result key


def _result(key: int) -> Position:
    """The position after a play (opponent on roll) from its result key."""
    me, opp = sides_of(key)
    return Position._raw(opp, me)


def _legal(position: Position, keys: Sequence[int], paths: Sequence[Path]) -> list[LegalPlay]:
    """LegalPlay values for raw plays from ``position``; the opponent's side is
    shared with ``position`` by every play that hits nothing."""
    new = tuple.__new__
    opp = position.opp
    unchanged = int.from_bytes(bytes(opp), "little")
    out: list[LegalPlay] = []
    add = out.append
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        for key, path in zip(keys, paths):
            o = key >> 200
            add(new(LegalPlay, (new(Play, (path,)), new(Position, (
                opp if o == unchanged else tuple(o.to_bytes(25, "little")),
                tuple((key & _ME).to_bytes(25, "little")))))))
    finally:
        if collecting:
            gc.enable()
    return out


class LegalPlays(SequenceABC[LegalPlay]):
    """The legal plays of one position and roll, one per distinct result: a lazy view
    (like python-chess's ``board.legal_moves``) over the generator's raw plays.

    ``len()``, truth, indexing and iteration work as on a list (and it compares
    equal to a list of the same plays); a play's :class:`LegalPlay` value is built
    when it is asked for, so a caller that needs one play, the count, or the
    results (:meth:`results`, :meth:`producing`) does not pay for the rest.
    """

    __slots__ = ("position", "dice", "_keys", "_paths", "_values")

    def __init__(self, position: Position, dice: tuple[int, int],
                 keys: Sequence[int], paths: Sequence[Path]) -> None:
        self.position = position
        self.dice = dice
        self._keys = keys
        self._paths = paths
        self._values: Optional[list[LegalPlay]] = None

    def __len__(self) -> int:
        return len(self._keys)

    def __bool__(self) -> bool:
        return bool(self._keys)

    @overload
    def __getitem__(self, i: int) -> LegalPlay: ...

    @overload
    def __getitem__(self, i: slice) -> list[LegalPlay]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[LegalPlay, list[LegalPlay]]:
        if self._values is not None:
            return self._values[i]
        if isinstance(i, slice):
            return self._build(range(len(self._keys))[i])
        return _legal(self.position, (self._keys[i],), (self._paths[i],))[0]

    def _build(self, idx: Sequence[int]) -> list[LegalPlay]:
        return _legal(self.position, [self._keys[i] for i in idx], [self._paths[i] for i in idx])

    def __iter__(self) -> Iterator[LegalPlay]:
        if self._values is None:
            self._values = _legal(self.position, self._keys, self._paths)
        return iter(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (LegalPlays, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        d1, d2 = self.dice
        shown = ", ".join(repr(str(lp.play)) for lp in self)
        return f"<LegalPlays {self.position.position_id()} {d1}-{d2}: [{shown}]>"

    def results(self) -> set[Position]:
        """The positions (opponent on roll) the plays lead to."""
        return {_result(k) for k in self._keys}

    def producing(self, result: Position) -> list[LegalPlay]:
        """The play(s) leading to ``result`` (given with either player on roll)."""
        want = {key_of(result.opp, result.me), key_of(result.me, result.opp)}
        return self._build([i for i, k in enumerate(self._keys) if k in want])

    def moving_to(self, me: Sequence[int]) -> list[LegalPlay]:
        """The play(s) after which the mover's side is ``me`` (25 counts)."""
        want = int.from_bytes(bytes(me), "little")
        return self._build([i for i, k in enumerate(self._keys) if k & _ME == want])


def legal_plays(position: Position, d1: int, d2: int) -> LegalPlays:
    """Every legal play for ``position`` and the roll ``d1-d2``, one per distinct result
    (a lazy :class:`LegalPlays` view; ``list()`` it for a list).

    Empty means no legal play: the turn is lost (the position passes to the
    opponent unchanged).
    """
    keys, paths = _raw(position, d1, d2)  # checks the dice
    return LegalPlays(position, (d1, d2), keys, paths)


def results(position: Position, d1: int, d2: int) -> set[Position]:
    """The positions (opponent on roll) the roll allows; the unchanged position,
    swapped, when no play is possible."""
    plays = legal_plays(position, d1, d2)
    return plays.results() if plays else {position.swap()}


def plays_to(position: Position, d1: int, d2: int, result: Position) -> list[LegalPlay]:
    """The legal play(s) producing ``result`` (opponent on roll), or [] if none does.

    ``result`` may also be given with the mover still on roll; both are accepted.
    """
    plays = legal_plays(position, d1, d2)
    if not plays:
        if result in (position.swap(), position):
            return [LegalPlay(Play(()), position.swap())]
        return []
    return plays.producing(result)


# ---------------------------------------------------------------------------- checking text


def _apply_written(position: Position, written: WrittenPlay) -> tuple[Optional[list[int]], Optional[str], set[int]]:
    """Move my checkers as the text says (ignoring legality); returns my side
    afterwards, or a reason it cannot be done, and the hit points written."""
    me = list(position.me)
    hits: set[int] = set()
    for mv in written.moves:
        for _ in range(mv.count):
            src, dst = mv.points[0], mv.points[-1]
            idx = 24 if src == BAR_POINT else src - 1
            if me[idx] <= 0:
                where = "on the bar" if src == BAR_POINT else f"on the {src} point"
                return None, f"there is no checker of the player on roll {where}", hits
            me[idx] -= 1
            if dst != OFF_POINT:
                me[dst - 1] += 1
        for p, h in zip(mv.points[1:], mv.hits):
            if h:
                hits.add(p)
    return me, None, hits


def _why_illegal(position: Position, d1: int, d2: int, written: WrittenPlay, plays: Sequence[LegalPlay]) -> str:
    me, reason, _ = _apply_written(position, written)
    if reason:
        return reason
    steps = [(mv.points, mv.count) for mv in written.moves]
    for pts, _count in steps:
        for p in pts[1:]:
            if p != OFF_POINT and position.opp[24 - p] >= 2:
                return f"it lands on the {p} point, held by the opponent ({position.opp[24 - p]} checkers)"
    if position.me[24]:
        entering = sum(c for pts, c in steps if pts[0] == BAR_POINT)
        if entering < position.me[24] and any(pts[0] != BAR_POINT for pts, _ in steps):
            return f"{position.me[24]} checker(s) on the bar must enter before any other checker moves"
    if any(pts[-1] == OFF_POINT for pts, _ in steps) and sum(position.me[6:25]) > 0:
        return "it bears off while checkers are still outside the home board"
    pips = sum((pts[0] - pts[-1]) * c for pts, c in steps)
    allowed = 4 * d1 if d1 == d2 else d1 + d2
    max_dice = max((len(lp.play) for lp in plays), default=0)
    if not plays:
        return "no checker can move: the turn is lost"
    if pips > allowed and not any(pts[-1] == OFF_POINT for pts, _ in steps):
        return f"it moves {pips} pips but the roll {d1}-{d2} gives {allowed}"
    if pips < allowed and max_dice > 0 and written.is_empty:
        return f"a legal play exists, so the roll must be played (e.g. {plays[0].play})"
    if max_dice and pips < allowed:
        return (f"it does not use the roll fully: the rules require playing as much of "
                f"{d1}-{d2} as possible ({max_dice} dice can be played)")
    return f"it is not one of the {len(plays)} legal plays for {d1}-{d2}"


def _written_landings(written: WrittenPlay) -> dict[int, int]:
    out: dict[int, int] = {}
    for mv in written.moves:
        for p in mv.points[1:]:
            out[p] = out.get(p, 0) + mv.count
    return out


def _landings(play: Play) -> dict[int, int]:
    out: dict[int, int] = {}
    for st in play.steps:
        out[st.dst] = out.get(st.dst, 0) + 1
    return out


def _contains(have: dict[int, int], need: dict[int, int]) -> bool:
    return all(have.get(p, 0) >= n for p, n in need.items())


def match_play(position: Position, d1: int, d2: int, text: Union[str, WrittenPlay]) -> LegalPlay:
    """The legal play that ``text`` describes.  Raises NotationError for malformed
    text and IllegalPlay naming the play, dice and position (and why) otherwise."""
    written = parse_play(text) if isinstance(text, str) else text
    check_dice(d1, d2)
    plays = legal_plays(position, d1, d2)
    if written.is_empty:
        if not plays:
            return LegalPlay(Play(()), position.swap())
        raise IllegalPlay(
            f"play {written.text!r} with {d1}-{d2} in position {position.position_id()}: "
            f"{_why_illegal(position, d1, d2, written, plays)}")
    me, reason, hits = _apply_written(position, written)
    candidates = [] if me is None else plays.moving_to(me)
    if len(candidates) > 1:
        landed = _written_landings(written)
        via = [lp for lp in candidates if _contains(_landings(lp.play), landed)]
        candidates = via or candidates
    if len(candidates) > 1:
        exact = [lp for lp in candidates if {st.dst for st in lp.play.steps if st.hit} == hits]
        if len(exact) == 1:
            candidates = exact
        elif not hits:
            quiet = [lp for lp in candidates if not any(st.hit for st in lp.play.steps)]
            candidates = quiet or candidates
        if len(candidates) > 1:
            raise IllegalPlay(
                f"play {written.text!r} with {d1}-{d2} in position {position.position_id()} is ambiguous: it could be "
                + " or ".join(repr(str(c.play)) for c in candidates) + "; mark the hits with '*'")
    if candidates:
        return candidates[0]
    why = reason or _why_illegal(position, d1, d2, written, plays)
    raise IllegalPlay(f"play {written.text!r} with {d1}-{d2} in position {position.position_id()} is illegal: {why}")
