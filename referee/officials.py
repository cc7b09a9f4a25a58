"""The table's officials as input events: the clock (a player's reserve ran out) and the
tournament director (an action with who did it, why, and the director's key).

They are events like the devices' and the players' (:mod:`referee.events`: the same one-line JSON
form, journaled and replayed alike); this module registers their kinds with that codec.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from referee.colour import COLOURS
from referee.events import _KINDS, EventError, _is_int, _is_num


# --------------------------------------------------------------------------- the tournament clock


TIME_OUT_OUTCOMES: tuple[str, ...] = ("lose_match", "penalty")


@dataclass(frozen=True)
class ClockTimeOut:
    """A player's reserve on the table's clock ran out (``[clock] timeout`` says what it costs):
    ``lose_match`` (the opponent wins the match) or ``penalty`` (``points`` to the opponent)."""

    player: str
    outcome: str = "lose_match"
    points: int = 0
    t: float = 0.0
    kind: str = field(default="time_out", init=False)

    def __post_init__(self) -> None:
        if self.player not in COLOURS:
            raise EventError(f"time-out player {self.player!r} must be 'dark' or 'light'")
        if self.outcome not in TIME_OUT_OUTCOMES:
            raise EventError(f"time-out outcome {self.outcome!r} is not one of {', '.join(TIME_OUT_OUTCOMES)}")
        if not _is_int(self.points) or self.points < 0 or (self.outcome == "penalty" and self.points < 1):
            raise EventError(f"time-out points {self.points!r} must be a whole number (1 or more with a penalty)")


_KINDS["time_out"] = ClockTimeOut


# --------------------------------------------------------------------------- the director

#: what the director may do at a table (:mod:`referee.turn.director` says what each does)
DIRECTOR_ACTIONS: tuple[str, ...] = ("undo", "setup", "score", "accept_move", "reject_move", "end_match",
                                     "learn_board")
#: how the director showed the key: the director's button held down, the PIN entered on the
#: buttons, the director's login on the club page, a script the director runs (``bgtable
#: referee --script``); "" = no key (the action is refused)
DIRECTOR_KEYS: tuple[str, ...] = ("", "button", "pin", "login", "script")


@dataclass(frozen=True)
class DirectorAction:
    """The tournament director acted at the table (from the buttons or the club page).

    ``by`` names the director and ``why`` says why (both go into the journal with the
    action); ``key`` is how the director's key was shown (:data:`DIRECTOR_KEYS`: without
    one the referee refuses the action).  The rest is the action's own:

    * ``setup``: ``position`` is a gnubg Position ID (``ID`` or ``ID:MatchID``) or an XGID,
      ``match_id`` an optional gnubg Match ID (cube, who is on roll, score); ``colour``
      is who is on roll when neither says (default Dark);
    * ``score``: ``score`` is the corrected score (dark, light);
    * ``end_match``: ``colour`` the player the match is awarded to ("" = it ends at the score
      as it stands).
    * ``learn_board``: the board, as it stands, shows the referee's position: the camera learns
      its look from the next still frame whatever it reads there (a board it reads poorly).
    """

    action: str
    by: str = "director"
    why: str = ""
    key: str = ""
    position: str = ""
    match_id: str = ""
    colour: str = ""
    score: Optional[tuple[int, int]] = None
    t: float = 0.0
    kind: str = field(default="director", init=False)

    def __post_init__(self) -> None:
        if self.action not in DIRECTOR_ACTIONS:
            raise EventError(f"director action {self.action!r} is not one of {', '.join(DIRECTOR_ACTIONS)}")
        for name in ("by", "why", "key", "position", "match_id", "colour"):
            v = getattr(self, name)
            if not isinstance(v, str):
                raise EventError(f"event 'director': {name} {v!r} must be a string")
        if self.key not in DIRECTOR_KEYS:
            raise EventError(f"director key {self.key!r} is not one of {', '.join(repr(k) for k in DIRECTOR_KEYS)}")
        if self.colour not in ("",) + COLOURS:
            raise EventError(f"director action colour {self.colour!r} must be 'dark', 'light' or empty")
        if not _is_num(self.t):
            raise EventError(f"event 'director': t {self.t!r} must be a time in seconds (a number)")
        if self.score is not None:
            s = self.score
            if not isinstance(s, (list, tuple)) or len(s) != 2 or not all(_is_int(n) and n >= 0 for n in s):
                raise EventError(f"director score {s!r} must be two points totals [dark, light], each >= 0")
            object.__setattr__(self, "score", (s[0], s[1]))


_KINDS["director"] = DirectorAction
