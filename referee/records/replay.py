"""Replaying a match record through the rules: every play, cube action and result checked.

:func:`replay_match` walks a :class:`~referee.records.record.MatchRecord` game by game and
returns a :class:`MatchReplay`: the problems found (each with game, .mat move
number, the recorded text and why), the number of plays checked, the final score,
and per game the resolved plays (gnubg steps) and final position the writers use.
:class:`GameReplayer` is the incremental core: feed it one action at a time (the
.mat reader does, to tell a bear-off from a resignation).

Checks: each play legal for its dice (a fast die-by-die path,
:mod:`referee.rules.fastcheck`, falling back to :func:`referee.rules.moves.match_play`, with
the legal alternatives named when it is illegal); players alternating; cube actions
legal (turn, owner, value, no double in the Crawford game, cube limit, beavers only
in money play with beavers on, the right player answering, the game ending after a
pass); resignations answered by the opponent; each result consistent with the final
position, the cube and the Jacoby rule; scores and the Crawford flag consistent (the score
sequence counts each game's penalties, and a game the director corrected the score of is
played at the corrected score: :func:`score_after`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from referee.records.actions import GameEnd, Penalty, ScoreCorrection
from referee.records.problems import Problem, layout
from referee.records.record import GameRecord, MatchRecord, RuleSettings
from referee.rules.match import add_points, crawford_flags
from referee.records.replay_state import GameReplay, KnownReplay, ReplayState
from referee.records.replayer import GameReplayer

__all__ = ["GameReplay", "GameReplayer", "KnownReplay", "MatchReplay", "ReplayState", "replay_game", "replay_match",
           "score_after"]


@dataclass
class MatchReplay:
    """What replaying a whole record found."""

    games: list[GameReplay] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    score: tuple[int, int] = (0, 0)

    @property
    def plays(self) -> int:
        """The number of plays replayed, over all games."""
        return sum(g.plays for g in self.games)

    @property
    def clean(self) -> bool:
        """Whether the replay found no problem."""
        return not self.problems


def replay_game(game: GameRecord, match_length: int = 0, rules: RuleSettings = RuleSettings(),
                crawford: Optional[bool] = None) -> GameReplay:
    """Replay one game; ``crawford`` overrides the game's own flag (the match computes it)."""
    r = GameReplayer(game.number, match_length, rules, game.crawford if crawford is None else crawford)
    for i, (a, (move, _col)) in enumerate(zip(game.actions, layout(game.actions))):
        r.feed(a, move, i)
    return r.finish()


def score_after(game: GameRecord, score: tuple[int, int]) -> tuple[int, int]:
    """The score after ``game`` played from ``score``: its score corrections, penalties and
    result in order (a correction sets the score; a penalty or the result adds to it)."""
    if tuple(game.score_before) != score:
        game = GameRecord(game.number, score, game.crawford, game.actions)
    return game.score_after()


def _corrected(game: GameRecord) -> Optional[tuple[int, int]]:
    """The score the director's last correction in ``game`` set (the game's score before), or None."""
    return next((a.score for a in reversed(game.actions) if isinstance(a, ScoreCorrection)), None)


_SCORED = (GameEnd, Penalty, ScoreCorrection)


def _plain_after(game: GameRecord, score: tuple[int, int]) -> Optional[tuple[int, int]]:
    """:func:`score_after` of a game without score notes (no penalty, no correction) and with
    at most one result, its last action -- nearly every game -- from the kinds of its actions
    alone; None for any other game (the full fold)."""
    kinds = list(map(type, game.actions))
    if any(issubclass(k, _SCORED) and k is not GameEnd for k in set(kinds)):
        return None
    ends = kinds.count(GameEnd)
    if ends == 0:
        return (score[0], score[1])
    if ends == 1 and kinds[-1] is GameEnd:
        end = game.actions[-1]
        assert isinstance(end, GameEnd)
        return add_points(score, end.winner, end.points)
    return None


def replay_match(record: MatchRecord, known: Sequence[Optional[KnownReplay]] = ()) -> MatchReplay:
    """Replay every game of a record; never stops at the first problem.  ``known[i]``,
    when given, is game ``i`` as a reader already replayed it: it is used instead of
    replaying the game again whenever it :meth:`~KnownReplay.fits`."""
    out = MatchReplay()
    score = (0, 0)
    L = record.match_length
    expected_scores: list[tuple[int, int]] = []
    afters: list[tuple[int, int]] = []  # the score after each game (the second walk below reaches the same)
    plain: list[bool] = []  # the games without score notes (_plain_after): no correction, no penalty
    score = tuple(record.games[0].score_before) if record.games else (0, 0)  # type: ignore[assignment]
    for g in record.games:
        quick = _plain_after(g, score)
        plain.append(quick is not None)
        if quick is None:
            score = g.score_before if _corrected(g) is not None else score
            quick = score_after(g, score)
        expected_scores.append(score)
        afters.append(quick)
        score = quick
    flags = crawford_flags(L, expected_scores, record.rules.crawford)
    # a record may start at a score other than 0-0 (a partial match): take the first game's
    score = tuple(record.games[0].score_before) if record.games else (0, 0)  # type: ignore[assignment]
    match_over = False
    for idx, (g, craw) in enumerate(zip(record.games, flags)):
        gp: list[Problem] = []
        if match_over:
            gp.append(Problem(g.number, 0, "", f"the match was already won ({score[0]}-{score[1]} "
                                                f"in a {L}-point match)"))
        if g.number != idx + 1:
            gp.append(Problem(g.number, 0, "", f"game number {g.number} out of order (expected {idx + 1})"))
        corrected = None if plain[idx] else _corrected(g)
        if corrected is not None:  # the director corrected the score: the game is played at it
            if tuple(g.score_before) != corrected:
                gp.append(Problem(g.number, 0, f"{g.score_before[0]}-{g.score_before[1]}",
                                  f"the director corrected the score to {corrected[0]}-{corrected[1]}"))
            score = tuple(g.score_before)  # type: ignore[assignment]
        elif tuple(g.score_before) != score:
            gp.append(Problem(g.number, 0, f"{g.score_before[0]}-{g.score_before[1]}",
                              f"the score before this game is {score[0]}-{score[1]}"))
        if g.crawford != craw and L > 0:
            gp.append(Problem(g.number, 0, "", "this is the Crawford game" if craw else
                              "this is not the Crawford game"))
        k = known[idx] if idx < len(known) else None
        rep = k.copy() if k is not None and k.fits(g, L, record.rules, craw) else replay_game(g, L, record.rules, craw)
        rep.problems[:0] = gp
        if not g.finished and idx != len(record.games) - 1:
            rep.problems.append(Problem(g.number, 0, "", "the game has no result but another game follows"))
        if L > 0 and not plain[idx] and any(
                isinstance(a, Penalty) and max(score_after(g.with_actions(g.actions[:i + 1]), score)) >= L
                for i, a in enumerate(g.actions)):
            rep.problems.append(Problem(g.number, 0, "", f"a penalty reaches the {L}-point match's end: "
                                                         "the game ends there (a timeout result), play cannot go on"))
        out.games.append(rep)
        out.problems.extend(rep.problems)
        score = afters[idx]
        if L > 0 and max(score) >= L:
            match_over = True
    out.score = score
    return out
