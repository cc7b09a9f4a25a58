"""Where a record is wrong, and how it says so: the .mat numbering of its actions
(:func:`layout`: ``k)`` and left/right column), :class:`Problem` ``(game, move, text,
reason)`` -- how every reader and the replay report what is wrong -- and
:func:`action_text`, an action's .mat text.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from referee.records.actions import (NOT_PLAYS, Action, Beaver, Correction, Double, GameEnd, IllegalAccepted, Move,
                                     Pass, Reroll, Resign, Roll, Take)


#: action types that take a column in a .mat move line
COLUMN_TYPES = frozenset({"roll", "move", "double", "take", "pass", "beaver", "illegal_accepted"})


def layout(actions: Iterable[Action]) -> list[tuple[int, int]]:
    """For each action, ``(move number, column)`` as a .mat file lays it out.

    Actions that take no column (re-rolls, corrections, resignations and their
    answers, the result: gnubg writes none of them) get the number of the line
    they follow and column -1.  A Roll
    followed by the same player's Move shares the Move's cell.
    """
    acts = list(actions)
    return _lay(acts, 0, len(acts), _START)[0]


_Where = tuple[int, int, tuple[int, int]]  # the line, the column and the last cell so far
_START: _Where = (1, 0, (1, -1))


def _lay(acts: Sequence[Action], start: int, stop: int, where: _Where) -> tuple[list[tuple[int, int]], _Where]:
    """:func:`layout` of ``acts[start:stop]`` from ``where`` (a roll looks ahead in all of ``acts``)."""
    out: list[tuple[int, int]] = []
    line, col, last = where
    n = len(acts)
    for i in range(start, stop):
        a = acts[i]
        if a.TYPE not in COLUMN_TYPES:
            out.append((last[0], -1))
            continue
        if a.TYPE == "roll":
            j = i + 1
            while j < n and acts[j].TYPE in NOT_PLAYS:
                j += 1
            nxt = acts[j] if j < n else None
            if isinstance(nxt, (Move, IllegalAccepted)) and nxt.player == a.player:
                # shares the cell of its move: numbered as the move will be
                c, ln = col, line
                if a.player < c:
                    ln, c = ln + 1, 0
                out.append((ln, a.player))
                continue
        if a.player < col:
            line, col = line + 1, 0
        out.append((line, a.player))
        last = (line, a.player)
        col = a.player + 1
        if col == 2:
            line, col = line + 1, 0
    return out, (line, col, last)


class MoveNumbers:
    """The move numbers of a list of actions while a reader appends to it: :meth:`last` is
    ``layout(actions)[-1][0]`` without laying out the whole list again at every action."""

    def __init__(self) -> None:
        self._done = 0  # the actions laid out for good: those before the last play or cube action
        self._where = _START

    def last(self, actions: Sequence[Action]) -> int:
        """The move number of the last of ``actions`` (the same list each time, only appended to)."""
        j = len(actions) - 1
        while j > self._done and actions[j].TYPE in NOT_PLAYS:
            j -= 1
        if j > self._done:  # every roll before ``j`` has its next play or cube action: laid out for good
            self._where = _lay(actions, self._done, j, self._where)[1]
            self._done = j
        return _lay(actions, self._done, len(actions), self._where)[0][-1][0]


# ---------------------------------------------------------------------------- problems and text


@dataclass(frozen=True)
class Problem:
    """Something wrong in a record: game (1-based; 0 = the match), .mat move number
    (0 = the game as a whole), the recorded text, why it is wrong and (when read from a
    file) the file's line."""

    game: int
    move: int
    text: str
    reason: str
    line: int = 0  # the file's line (1-based) when the reader knows it, else 0

    def to_dict(self) -> dict[str, Any]:
        """The problem as a JSON-ready dict: game, move, text, reason (and the file line when known)."""
        d: dict[str, Any] = {"game": self.game, "move": self.move, "text": self.text, "reason": self.reason}
        if self.line:
            d["line"] = self.line
        return d

    def __str__(self) -> str:
        where = f"game {self.game}" + (f", move {self.move}" if self.move else "")
        return f"{where}: {self.text!r}: {self.reason}" if self.text else f"{where}: {self.reason}"


def action_text(a: Action) -> str:
    """The action as a .mat cell would show it (used in problem reports)."""
    if isinstance(a, Move):
        return f"{a.dice[0]}{a.dice[1]}: {a.play}".rstrip()
    if isinstance(a, Roll):
        return f"{a.dice[0]}{a.dice[1]}:"
    if isinstance(a, IllegalAccepted):
        return f"{a.dice[0]}{a.dice[1]}: {a.play} (illegal, accepted)"
    if isinstance(a, Correction):
        return f"{a.dice[0]}{a.dice[1]}: {a.rejected} (taken back)"
    if isinstance(a, Double):
        return f"Doubles => {a.value}"
    if isinstance(a, Beaver):
        return f"Beavers => {a.value}"
    if isinstance(a, Take):
        return "Takes"
    if isinstance(a, Pass):
        return "Drops"
    if isinstance(a, GameEnd):
        return f"Wins {a.points} point{'s' if a.points != 1 else ''}"
    if isinstance(a, Resign):
        return f"Resigns {('single', 'gammon', 'backgammon')[a.kind - 1]}"
    if isinstance(a, Reroll):
        return f"re-roll ({a.cause})"
    return a.TYPE.replace("_", " ")
