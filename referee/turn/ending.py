"""The end of a game: resignations (offered, accepted, rejected), a game won by bearing off or
on a pass, the score after it, and the end of the match.  How the points are counted is the
cube policy's (:mod:`referee.turn.cube` heads-up, :mod:`referee.turn.chouette`).
"""
from __future__ import annotations

from typing import Optional

from referee.events import PlayerInput
from referee.records import actions as rec
from referee.colour import other
from referee.rules.scoring import GameKind
from referee.turn.states import State
from referee.turn.table_state import TableState

RESIGN_KINDS = {"resign_single": 1, "resign_gammon": 2, "resign_backgammon": 3}


def resign(t: TableState, ev: PlayerInput) -> None:
    """A player offers to resign a single game, a gammon or a backgammon."""
    kind = RESIGN_KINDS[ev.action]
    t.resigner, t.resign_kind, t.resign_return = ev.player, kind, t.state
    t.enter(State.RESIGNATION_OFFERED)
    t.act(rec.Resign(t.pi(ev.player), kind))
    t.decide("resign_offered", ev.player, f"{t.n(ev.player)} offers to resign "
             f"{str(GameKind(kind))}: {t.n(other(ev.player))} accepts or rejects",
             choices=("accept_resignation", "reject_resignation"), resign=kind)


def accept_resignation(t: TableState, ev: PlayerInput) -> None:
    """The opponent accepts: the game ends at the resigned value."""
    t.act(rec.AcceptResign(t.pi(ev.player)))
    t.decide("resign_accepted", ev.player, f"{t.n(ev.player)} accepts the resignation")
    end_game(t, ev.player, GameKind(t.resign_kind), "resign")


def reject_resignation(t: TableState, ev: PlayerInput) -> None:
    """The opponent rejects: play goes on where it was."""
    t.act(rec.RejectResign(t.pi(ev.player)))
    t.enter(t.resign_return)
    t.decide("resign_rejected", ev.player, f"{t.n(ev.player)} rejects the resignation: play on")


def end_game(t: TableState, winner: str, kind: GameKind, reason: str, points: Optional[int] = None) -> None:
    """The game is over (``reason``: ``bearoff``, ``resign``, ``pass`` or ``timeout``); the cube policy scores it."""
    t.cube_policy.end_game(t, winner, kind, reason, points)


def heads_up_end(t: TableState, winner: str, kind: GameKind, reason: str, points: Optional[int]) -> None:
    """A two-player game's end: the points (the cube, Jacoby), the score, the match's end."""
    if points is None:
        points = t.board_points(kind)
    t.close_game(winner, points, int(kind), reason)
    t.score = t.score.after_game(winner, points)
    word = {"bearoff": {1: "a single game", 2: "a gammon", 3: "a backgammon"}[int(kind)],
            "resign": f"by resignation ({kind})", "pass": "on a pass", "timeout": "on time"}[reason]
    t.enter(State.GAME_OVER)
    t.turn = None
    t.decide("game_over", winner, f"{t.n(winner)} wins {word}: {points} point{'s' if points > 1 else ''}. "
             f"Score: {t.score.text((t.names['dark'], t.names['light']))}",
             points=points, result=int(kind), end=reason, score=t.score.points)
    w = t.score.winner
    if w is not None:
        t.enter(State.MATCH_OVER)
        a, b = t.score.points
        t.decide("match_over", w, f"{t.n(w)} wins the match {max(a, b)}-{min(a, b)}",
                 score=t.score.points)
    elif t.score.crawford_game:
        t.decide("game_over", None, "The next game is the Crawford game: no doubling")
