"""Plays as text: GNU Backgammon's notation, parsed forgivingly and written canonically.

A :class:`Step` is one checker moving one die (``from``/``to`` in the mover's own
numbering, 25 = bar, 0 = off).  A :class:`Play` is the steps of a turn.
``str(play)`` gives gnubg's notation (``24/18 13/11*``, ``bar/22``, ``6/off``,
``8/5(2)``, ``24/21*/18``); :func:`parse_play` reads that and the variants found in
real match files (``Bar/22``, ``25/22``, ``6/0``, ``3/Off``, ``(2)`` repeats, ``*`` hits,
moves written as one long step or as single steps, ``Cannot Move``).  A parsed
play is a :class:`WrittenPlay`: what the text says, to be checked against the
legal plays by :func:`referee.rules.moves.match_play`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

from referee.errors import NotationError

BAR_POINT = 25
OFF_POINT = 0


class Step(NamedTuple):
    """One die's move of one checker: ``src`` to ``dst`` (25 = bar, 0 = off), ``hit`` if it hit a blot."""

    src: int
    dst: int
    hit: bool = False


def point_text(p: int, as_source: bool) -> str:
    """A point in a play's text: ``bar`` as a source, ``off`` as a destination, else its number."""
    if p == BAR_POINT and as_source:
        return "bar"
    if p == OFF_POINT and not as_source:
        return "off"
    return str(p)


_SRC_TEXT = tuple(point_text(p, True) for p in range(BAR_POINT + 1))
_DST_TEXT = tuple(point_text(p, False) for p in range(BAR_POINT + 1))


def format_steps(steps: Sequence[Step]) -> str:
    """gnubg's notation for a sequence of single-die steps (in play order)."""
    if not steps:
        return ""
    if isinstance(steps, tuple):
        try:
            return path_text(steps)
        except TypeError:  # steps that do not hash: written out below
            pass
    return _format_steps(steps)


_PATH_TEXT: dict[tuple[Step, ...], str] = {}
_PATH_TEXT_KEPT = 1 << 15   # about 4 MB at most


def path_text(steps: tuple[Step, ...]) -> str:
    """:func:`format_steps` of a tuple of steps, kept: the plays of a batch of positions repeat
    many step paths (about half of those of 5,000 random positions and rolls)."""
    text = _PATH_TEXT.get(steps)
    if text is None:
        if len(_PATH_TEXT) >= _PATH_TEXT_KEPT:
            _PATH_TEXT.clear()
        text = _PATH_TEXT[steps] = _format_steps(steps)
    return text


def _format_steps(steps: Sequence[Step]) -> str:
    chains: list[list[Step]] = []
    for st in steps:
        src = st[0]
        for chain in reversed(chains):
            if chain[-1][1] == src and src != BAR_POINT and src != OFF_POINT:
                chain.append(st)
                break
        else:
            chains.append([st])
    parts: list[tuple[int, int, str]] = []
    dst_text = _DST_TEXT
    for chain in chains:
        text = _SRC_TEXT[chain[0][0]]
        for st in chain[:-1]:
            if st[2]:
                text += "/" + dst_text[st[1]] + "*"
        last = chain[-1]
        text += "/" + dst_text[last[1]] + ("*" if last[2] else "")
        parts.append((chain[0][0], last[1], text))
    if len(parts) > 1:
        parts.sort(key=lambda t: (-t[0], -t[1]))
    out: list[str] = []
    i = 0
    while i < len(parts):
        j = i
        while j + 1 < len(parts) and parts[j + 1][2] == parts[i][2]:
            j += 1
        n = j - i + 1
        out.append(parts[i][2] + (f"({n})" if n > 1 else ""))
        i = j + 1
    return " ".join(out)


class Play(NamedTuple):
    """The steps of one turn, in the order played.  ``str()`` is gnubg's notation."""

    steps: tuple[Step, ...]

    def __str__(self) -> str:
        return format_steps(self.steps)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"

    def __len__(self) -> int:
        return len(self.steps)

    @staticmethod
    def parse(text: str) -> "WrittenPlay":
        """A play from its text, e.g. ``Play.parse('24/18 13/11*')`` (see :func:`parse_play`)."""
        return parse_play(text)


class WrittenMove(NamedTuple):
    """One written move: the points a checker passes through (first = from, last = to),
    which of them are marked as hits, and how many checkers made it."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]  # parallel to points[1:]
    count: int = 1  # type: ignore[assignment]  # the field shadows tuple.count on purpose: 'how many'


@dataclass(frozen=True)
class WrittenPlay:
    """A play as written in text, before it is checked against a position."""

    text: str
    moves: tuple[WrittenMove, ...]

    def __hash__(self) -> int:
        # the text's hash (kept by the string): equal plays have equal texts, and the
        # replay's caches look plays up far more often than they make them
        return hash(self.text)

    @property
    def is_empty(self) -> bool:
        """Whether the play moves nothing (no legal play: the turn is lost)."""
        return not self.moves

    def __str__(self) -> str:
        return self.text


_EMPTY = {"", "cannot move", "can't move", "no move", "none", "-", "(no move)", "cannotmove"}
_TOKEN = re.compile(r"^(bar|b|\d{1,2})((?:/(?:bar|off|o|\d{1,2})\*?)+)(?:\((\d)\))?$", re.IGNORECASE)
_SEG = re.compile(r"/(bar|off|o|\d{1,2})(\*?)", re.IGNORECASE)


def _point(tok: str, text: str, as_source: bool) -> int:
    t = tok.lower()
    if t in ("bar", "b"):
        if not as_source:
            raise NotationError(f"play {text!r}: a checker cannot move to the bar")
        return BAR_POINT
    if t in ("off", "o"):
        if as_source:
            raise NotationError(f"play {text!r}: a checker cannot move from off")
        return OFF_POINT
    n = int(t)
    if as_source and not 1 <= n <= 25:
        raise NotationError(f"play {text!r}: source point {n} is not 1..24 or 25 (bar)")
    if not as_source and not 0 <= n <= 24:
        raise NotationError(f"play {text!r}: destination point {n} is not 0 (off) .. 24")
    return n


def parse_play(text: str) -> WrittenPlay:
    """Parse a play's text (any of the notations in real match files).  Raises
    :class:`NotationError` quoting the text when it is malformed."""
    if not isinstance(text, str):
        raise NotationError(f"play {text!r} is not text")
    norm = text.strip().rstrip(".")
    if norm.lower() in _EMPTY:
        return WrittenPlay(text, ())
    moves: list[WrittenMove] = []
    known = _TOKENS
    for tok in _SPLIT(norm):
        if not tok:
            continue
        mv = known.get(tok)
        if mv is None:
            mv = _parse_token(tok, text)
            if len(known) >= _TOKENS_KEPT:
                known.clear()
            known[tok] = mv
        moves.append(mv)
    if sum(m.count for m in moves) > 4 * 4:
        raise NotationError(f"play {text!r} has too many moves")
    return WrittenPlay(text, tuple(moves))


_SPLIT = re.compile(r"[\s,]+").split
#: the moves of the tokens read so far ("24/18", "8/5(2)"): a token reads the same in any play
_TOKENS: dict[str, WrittenMove] = {}
_TOKENS_KEPT = 1 << 14


def _parse_token(tok: str, text: str) -> WrittenMove:
    """One written move of the play ``text`` (for the error messages), e.g. ``24/21*/18``."""
    m = _TOKEN.match(tok)
    if not m:
        raise NotationError(
            f"play {text!r}: cannot read {tok!r}; "
            "expected moves like '24/18', 'bar/22', '6/off', '8/5(2)', '24/21*/18'")
    pts = [_point(m.group(1), text, True)]
    hits: list[bool] = []
    for seg in _SEG.finditer(m.group(2)):
        pts.append(_point(seg.group(1), text, False))
        hits.append(bool(seg.group(2)))
    for a, b in zip(pts, pts[1:]):
        if b >= a:
            raise NotationError(f"play {text!r}: {tok!r} moves backwards ({a} to {b}); "
                                "checkers move from higher to lower points")
    count = int(m.group(3)) if m.group(3) else 1
    if not 1 <= count <= 4:
        raise NotationError(f"play {text!r}: repeat count ({count}) must be 1..4")
    return WrittenMove(tuple(pts), tuple(hits), count)


#: :func:`parse_play` memoised: written plays repeat a lot ("24/18 13/11") and a
#: :class:`WrittenPlay` is immutable, so readers and the replay parse each text once
parse_play_cached = lru_cache(maxsize=16384)(parse_play)


def steps_from_pairs(pairs: Iterable[Sequence[int]]) -> WrittenPlay:
    """A written play from ``[[from, to], ...]`` pairs (as in plays.jsonl)."""
    moves = tuple(WrittenMove((int(a), int(b)), (False,), 1) for a, b in pairs)
    text = " ".join(f"{point_text(int(a), True)}/{point_text(int(b), False)}" for a, b in pairs)
    return WrittenPlay(text, moves)
