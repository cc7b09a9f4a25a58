"""The referee's output: decisions for the players, each an immutable value with a text form.

A :class:`Decision` says what the referee decided (``kind``), whom it concerns
(``player``: ``"dark"``/``"light"`` or None for both), why in words a club player
understands (``reason``), and what the players may do next (``choices``).  ``data``
carries machine-readable details (dice, the play, the cause of a re-roll...) as
sorted ``(key, value)`` pairs.  ``str(decision)`` is the line ``bgtable referee``
prints; ``to_json``/``from_json`` round-trip.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from referee.colour import COLOURS
from referee.errors import RefereeError

#: Every decision kind, with what it means.
KINDS: dict[str, str] = {
    "opening_die": "one opening die was read; waiting for the other player's die",
    "opening_tie": "the opening dice are equal: both throw again",
    "opening_won": "the higher opening die starts, playing both dice",
    "reroll": "the roll does not count; both dice are thrown again (the reason says why)",
    "roll_accepted": "the roll counts; the player on turn moves, then lifts the dice",
    "wrong_turn": "a roll or action by the player not on turn; it does not count",
    "early_roll": "the opponent rolled before the mover lifted the dice",
    "move_accepted": "the move as played is legal and recorded",
    "illegal_move": "the move is illegal or incomplete; the opponent chooses",
    "illegal_accepted": "the opponent accepted an illegal move as played",
    "correction_demanded": "the opponent demands a legal move; the mover corrects it",
    "wait_board": "the referee waits for a clear board reading",
    "unseen_roll": "checkers moved with no roll seen (RULES 10): they go back before the throw",
    "board_in_place": "the checkers moved with no roll seen are back in place; play goes on",
    "ambiguous": "two or more legal moves fit the reading; the players confirm or fix the checkers",
    "confirm_roll": "no dice reader: several rolls explain the move; the players confirm one",
    "roll_inferred": "no dice reader: the roll was inferred from the move",
    "double": "a double is offered",
    "take": "the double is taken",
    "pass": "the double is passed: the game ends",
    "beaver": "the doubled player beavers (redoubles keeping the cube)",
    "resign_offered": "a resignation is offered",
    "resign_accepted": "the resignation is accepted: the game ends",
    "resign_rejected": "the resignation is rejected: play goes on",
    "game_over": "the game is over; the reason gives the result and the score",
    "match_over": "the match is over",
    "director": "the director was called, or play resumes",
    "refused": "the action is not allowed now (the reason names the rule)",
    "not_accepted": "the event cannot be accepted in the referee's present state",
    "reader_fault": "the dice reader reports a fault",
    "camera": "the camera reports: no frames, its learned board lost, or the board found again after it moved",
    "dice_disagree": "the camera sees the dice otherwise than the dice reader; the reader's throw stands",
    "dice_unsure": "no dice reader: the camera cannot read the dice surely; they are not taken as the roll",
    "chouette": "chouette: per-player cube answers, rotation and scores",
}
# the table's clock (referee.turn.timeout)
KINDS["time_out"] = "a player's reserve ran out: the match is lost, or penalty points go to the opponent"


def _freeze(v: Any) -> Any:
    """Lists (from JSON) become tuples, all the way down, so decisions stay hashable values."""
    if isinstance(v, (list, tuple)):
        return tuple(_freeze(x) for x in v)
    return v


def _thaw(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_thaw(x) for x in v]
    return v


class DecisionError(RefereeError, ValueError):
    """A decision's text form is malformed; the message quotes it."""


@dataclass(frozen=True)
class Decision:
    """One decision of the referee (see the module docstring)."""

    kind: str
    player: Optional[str] = None
    reason: str = ""
    choices: tuple[str, ...] = ()
    data: tuple[tuple[str, Any], ...] = field(default=())
    t: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise DecisionError(f"decision kind {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.player is not None and self.player not in COLOURS:
            raise DecisionError(f"decision player {self.player!r} must be 'dark', 'light' or None")
        object.__setattr__(self, "choices", tuple(self.choices))
        items = self.data.items() if isinstance(self.data, dict) else self.data
        object.__setattr__(self, "data", tuple(sorted((str(k), _freeze(v)) for k, v in items)))

    def get(self, key: str, default: Any = None) -> Any:
        """A value from ``data``."""
        for k, v in self.data:
            if k == key:
                return v
        return default

    def __str__(self) -> str:
        who = f" [{self.player}]" if self.player else ""
        tail = f"  (choices: {', '.join(self.choices)})" if self.choices else ""
        return f"{self.kind}{who}: {self.reason}{tail}"

    def to_dict(self) -> dict[str, Any]:
        """The decision as a JSON-ready dict."""
        return {"kind": self.kind, "player": self.player, "reason": self.reason,
                "choices": list(self.choices),
                "data": {k: _thaw(v) for k, v in self.data}, "t": self.t}

    def to_json(self) -> str:
        """The decision as one compact JSON line."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> "Decision":
        """A decision from its JSON line (the inverse of :meth:`to_json`)."""
        try:
            d = json.loads(text)
            return cls(d["kind"], d.get("player"), d.get("reason", ""), tuple(d.get("choices", ())),
                       tuple(d.get("data", {}).items()), float(d.get("t", 0.0)))
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
            raise DecisionError(f"decision {text.strip()[:80]!r} is malformed: {exc}") from None
