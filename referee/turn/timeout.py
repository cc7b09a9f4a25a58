"""A time-out on the table's clock, applied as the tournament's rules say (``[clock] timeout``).

The table's clock (:mod:`referee.clock`, run by the table process) reports a reserve run out
as a :class:`~referee.officials.ClockTimeOut` input, so the journal has it and a replay applies it
again:

* ``lose_match``: the game under way ends with the opponent winning the points they still
  need for the match (the record's result has the reason ``timeout``); in money play the
  opponent wins the game at its value;
* ``penalty``: ``points`` to the opponent; the score changes and play goes on where it was
  (a penalty that reaches the match length wins the match, as a ``timeout`` result).  The
  record gets a :class:`~referee.records.actions.Penalty` (a score note: the director's undo
  keeps it, as it keeps the score);
* in a chouette (money, the box against the team) the side out of time loses the game, each
  member's cube settled as for a single game (the cube policy's end of the game); a penalty
  there changes only the running score the record keeps.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from referee.colour import other
from referee.officials import ClockTimeOut
from referee.records.actions import Penalty
from referee.records.builder import GameStart
from referee.rules.match import add_points
from referee.rules.scoring import GameKind
from referee.turn import ending
from referee.turn.table_state import TableState


def _needed(t: TableState, winner: str) -> Optional[int]:
    """The points ``winner`` still needs for the match (None in money play: the game's value)."""
    n = t.score.match_to
    return max(1, n - t.score.get(winner)) if n else None


def _record_penalty(t: TableState, penalty: Penalty) -> None:
    """The penalty into the record, outside the game's undoable actions (the game's start first)."""
    if t.recorded_game != t.game:
        t.new_actions.append(GameStart(t.game, t.score.points, t.score.crawford_game))
        t.recorded_game = t.game
    t.new_actions.append(penalty)


def time_out(t: TableState, ev: ClockTimeOut) -> None:
    """A player's reserve ran out: the match (or the game) is lost, or a penalty goes to the opponent."""
    loser, winner = ev.player, other(ev.player)
    if ev.outcome == "penalty" and t.score.get(winner) + ev.points < (t.score.match_to or 10 ** 9):
        _record_penalty(t, Penalty(t.pi(loser), ev.points, "timeout", t=ev.t))
        i = t.pi(winner)
        t.score = replace(t.score, points=add_points(t.score.points, i, ev.points))
        t.decide("time_out", loser, f"{t.n(loser)} ran out of time: {ev.points} penalty point"
                 f"{'s' if ev.points > 1 else ''} to {t.n(winner)}. Score: "
                 f"{t.score.text((t.names['dark'], t.names['light']))}. Play on",
                 outcome="penalty", points=ev.points, score=t.score.points)
        return
    points = _needed(t, winner) if ev.outcome == "lose_match" else ev.points
    word = "the match" if t.score.match_to else "the game"
    t.decide("time_out", loser, f"{t.n(loser)} ran out of time and loses {word}", outcome=ev.outcome,
             points=points or 0)
    # the cube policy scores it (heads-up: the points, the score, the match's end; a chouette: every cube)
    ending.end_game(t, winner, GameKind(1), "timeout", points)
