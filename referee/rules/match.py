"""Match and money-session scores: points per game, the Crawford rule, the end of a match.

:class:`Score` is immutable; :meth:`Score.after_game` gives the score after a game and
says whether the next game is the Crawford game.  Money sessions keep running totals.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Optional

COLOURS = ("dark", "light")


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
        return self.points[COLOURS.index(colour)]

    def after_game(self, winner: str, points: int) -> "Score":
        """The score after ``winner`` won ``points``; the next game's Crawford flag set."""
        pts = list(self.points)
        pts[COLOURS.index(winner)] += points
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
        a, b = self.points
        if not self.match_to:
            return f"{names[0]} {a - b:+d}, {names[1]} {b - a:+d}"
        return f"{names[0]} {a}, {names[1]} {b} (match to {self.match_to})"
