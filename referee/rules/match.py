"""Match and money-session scores: points per game, the Crawford rule, the end of a match.

:class:`Score` is immutable; :meth:`Score.after_game` gives the score after a game and
says whether the next game is the Crawford game.  Money sessions keep running totals.
:func:`add_points` and :func:`crawford_flags` are the same arithmetic on a record's
numbered players (0 = Dark, 1 = Light).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable, Optional

from referee.colour import COLOURS, Colour


def add_points(points: tuple[int, int], winner: int, won: int) -> tuple[int, int]:
    """The (dark, light) score after player ``winner`` (0 = Dark, 1 = Light) won ``won`` points."""
    return (points[0] + won, points[1]) if winner == 0 else (points[0], points[1] + won)


def crawford_flags(match_length: int, scores: Iterable[tuple[int, int]], rule: bool = True) -> list[bool]:
    """For games with these scores before them: is each the Crawford game?  (The first
    game in which a player needs exactly one point, when the Crawford rule is on.)"""
    out: list[bool] = []
    seen = False
    for a, b in scores:
        at = match_length > 0 and rule and (a == match_length - 1 or b == match_length - 1)
        out.append(at and not seen)
        seen = seen or at
    return out


@dataclass(frozen=True)
class Score:
    """``points`` = (dark, light); ``match_to`` 0 = money.  ``crawford_game`` is True
    during the Crawford game; ``crawford_done`` once it has been played (or skipped)."""

    match_to: int = 0
    points: tuple[int, int] = (0, 0)
    crawford: bool = True
    crawford_game: bool = False
    crawford_done: bool = False
    games: int = 0

    def get(self, colour: str) -> int:
        """The points ``colour`` ('dark' or 'light') has so far."""
        return self.points[Colour.parse(colour).number]

    def after_game(self, winner: str, points: int) -> "Score":
        """The score after ``winner`` won ``points``; the next game's Crawford flag set."""
        pts = list(add_points(self.points, Colour.parse(winner).number, points))
        done = self.crawford_done or self.crawford_game
        nxt = False
        if self.match_to and self.crawford and not done:
            if max(pts) == self.match_to - 1 and max(pts) < self.match_to:
                nxt = True
        return replace(self, points=(pts[0], pts[1]), crawford_game=nxt,
                       crawford_done=done, games=self.games + 1)

    @property
    def winner(self) -> Optional[str]:
        """The match winner, once a player reached ``match_to`` (never in money play)."""
        if not self.match_to:
            return None
        for c, p in zip(COLOURS, self.points):
            if p >= self.match_to:
                return c
        return None

    def text(self, names: tuple[str, str]) -> str:
        """The score for a player, e.g. ``Dark 3, Light 1 (match to 5)``; money play as +/- points."""
        a, b = self.points
        if not self.match_to:
            return f"{names[0]} {a - b:+d}, {names[1]} {b - a:+d}"
        return f"{names[0]} {a}, {names[1]} {b} (match to {self.match_to})"
