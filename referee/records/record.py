"""The match record: who played, under which rules, and every game's actions in order.

A record holds only what happened at the table -- dice, plays, cube and resignation
actions, re-rolls, corrections and results (:mod:`referee.records.actions`) -- never
positions: positions are recomputed by replaying (:mod:`referee.records.replay`).  It is
what the .mat and SGF codecs (:mod:`referee.records.matfile`, :mod:`referee.records.sgf`)
read and write and what one fold (:mod:`referee.records.builder`) builds from the
referee's record entries or the live journal's lines (:mod:`referee.records.journal`).
Everything here is a frozen value with a JSON form that round-trips
(``MatchRecord.to_json()`` / ``MatchRecord.from_json``).

A :class:`GameRecord` is ``(number, score_before, crawford, actions)``; its result is
its last action when that is a ``GameEnd`` (``None`` while the game is unfinished).
A :class:`MatchRecord` is ``(players, match_length, rules, games, meta)``;
``match_length == 0`` is a money session (scores are then the running totals).

How problems in a record are numbered and reported is :mod:`referee.records.problems`;
:func:`crawford_flags` marks the Crawford game from the scores.  The record is checked
with :func:`referee.records.replay.replay_match`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from itertools import repeat
from typing import Any, Iterable, Optional

from referee.errors import RecordError
from referee.records.actions import Action, GameEnd, Penalty, ScoreCorrection, action_from_dict
from referee.rules.match import add_points, crawford_flags as crawford_flags  # re-exported: the records' name for it

EARLY_ROLL_RULES: tuple[str, ...] = ("stands", "void")


@dataclass(frozen=True)
class RuleSettings:
    """The optional rules in force (RULES.md section 8 and 9.4).

    ``automatic_doubles`` is the most automatic doubles per game (0 = off);
    ``cube_limit`` the highest cube value (0 = no limit).
    """

    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 0
    early_roll: str = "stands"
    landing: str = "board"  # where the dice must land: "board" (the right-hand half) or "tray"

    def __post_init__(self) -> None:
        if self.early_roll not in EARLY_ROLL_RULES:
            raise RecordError(f"early_roll {self.early_roll!r} must be 'stands' or 'void'")
        if self.landing not in ("board", "tray"):
            raise RecordError(f"landing {self.landing!r} must be 'board' or 'tray'")
        if not isinstance(self.automatic_doubles, int) or self.automatic_doubles < 0:
            raise RecordError(f"automatic_doubles {self.automatic_doubles!r} must be a count >= 0")
        if not isinstance(self.cube_limit, int) or self.cube_limit < 0:
            raise RecordError(f"cube_limit {self.cube_limit!r} must be 0 (none) or a cube value")

    def to_dict(self) -> dict[str, Any]:
        """The JSON form; ``landing`` only when it is a tray (older records have no such key)."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        if d["landing"] == "board":
            del d["landing"]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "RuleSettings":
        """The rule settings in ``d`` (as :meth:`to_dict` writes them); RecordError naming any unknown field."""
        names = {f.name for f in fields(cls)}
        extra = set(d) - names
        if extra:
            raise RecordError(f"rule settings have unknown field(s) {', '.join(sorted(extra))}")
        return cls(**d)


@dataclass(frozen=True)
class GameRecord:
    """One game: its 1-based number, the score before it, whether it is the Crawford
    game, and its actions in order (ending with a GameEnd when finished)."""

    number: int
    score_before: tuple[int, int] = (0, 0)
    crawford: bool = False
    actions: tuple[Action, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "score_before", tuple(self.score_before))
        object.__setattr__(self, "actions", tuple(self.actions))
        if not all(map(isinstance, self.actions, repeat(Action))):  # checked in C; the first bad one named
            for a in self.actions:
                if not isinstance(a, Action):
                    raise RecordError(f"game {self.number}: {a!r} is not an action")

    @property
    def result(self) -> Optional[GameEnd]:
        """The game's result (its last action, a GameEnd), or None while the game is unfinished."""
        last = self.actions[-1] if self.actions else None
        return last if isinstance(last, GameEnd) else None

    @property
    def finished(self) -> bool:
        """True when the game has a result."""
        return self.result is not None

    def score_after(self) -> tuple[int, int]:
        """The score after the game as recorded: the score before, its penalties and its result
        (the director's corrections set it; while unfinished, without a result)."""
        score = (self.score_before[0], self.score_before[1])
        for a in self.actions:
            if isinstance(a, ScoreCorrection):
                score = a.score
            elif isinstance(a, Penalty):
                score = add_points(score, a.gainer, a.points)
            elif isinstance(a, GameEnd):
                score = add_points(score, a.winner, a.points)
        return score

    def with_actions(self, actions: Iterable[Action]) -> "GameRecord":
        """The same game with ``actions`` in place of its own."""
        return GameRecord(self.number, self.score_before, self.crawford, tuple(actions))

    def to_dict(self) -> dict[str, Any]:
        """The game as a JSON-ready dict: number, score before, Crawford, actions."""
        return {"number": self.number, "score_before": list(self.score_before), "crawford": self.crawford,
                "actions": [a.to_dict() for a in self.actions]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "GameRecord":
        """The game in ``d`` (as :meth:`to_dict` writes it); RecordError naming a missing field."""
        try:
            return cls(int(d["number"]), tuple(d.get("score_before", (0, 0))), bool(d.get("crawford", False)),
                       tuple(action_from_dict(a) for a in d.get("actions", ())))
        except KeyError as exc:
            raise RecordError(f"game {d!r} lacks field {exc}") from None


@dataclass(frozen=True)
class MatchRecord:
    """A match (``match_length`` > 0) or money session (0) and its games.

    ``meta`` holds header pairs such as ``("Event", "...")``, ``("Site", ...)``,
    ``("EventDate", "2022.08.14")``, ``("Round", ...)`` in order.
    """

    players: tuple[str, str] = ("Player 0", "Player 1")
    match_length: int = 0
    rules: RuleSettings = field(default_factory=RuleSettings)
    games: tuple[GameRecord, ...] = ()
    meta: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "games", tuple(self.games))
        object.__setattr__(self, "meta", tuple((str(k), str(v)) for k, v in self.meta))
        if len(self.players) != 2:
            raise RecordError(f"a match has two players, got {self.players!r}")
        if not isinstance(self.match_length, int) or self.match_length < 0:
            raise RecordError(f"match length {self.match_length!r} must be 0 (money) or a number of points")

    @property
    def is_money(self) -> bool:
        """True for a money session (match length 0), false for a match to N points."""
        return self.match_length == 0

    def meta_value(self, key: str, default: str = "") -> str:
        """The header tag ``key`` (any case: ``Event``, ``Round``...), or ``default`` when absent."""
        for k, v in self.meta:
            if k.lower() == key.lower():
                return v
        return default

    def final_score(self) -> tuple[int, int]:
        """The score after the last game (as recorded)."""
        if not self.games:
            return (0, 0)
        return self.games[-1].score_after()

    def winner(self) -> Optional[int]:
        """The match winner, when a match has been played out."""
        if self.is_money:
            return None
        a, b = self.final_score()
        if a >= self.match_length:
            return 0
        if b >= self.match_length:
            return 1
        return None

    def replace_games(self, games: Iterable[GameRecord]) -> "MatchRecord":
        """The same match with ``games`` in place of its own."""
        return MatchRecord(self.players, self.match_length, self.rules, tuple(games), self.meta)

    def to_dict(self) -> dict[str, Any]:
        """The match as a JSON-ready dict: players, length, rules, header tags, games."""
        return {"players": list(self.players), "match_length": self.match_length,
                "rules": self.rules.to_dict(), "meta": [list(kv) for kv in self.meta],
                "games": [g.to_dict() for g in self.games]}

    def to_json(self) -> str:
        """The match as JSON text (the record's JSON form, ``bgtable convert ... match.json``)."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "MatchRecord":
        """The match in ``d`` (as :meth:`to_dict` writes it); missing players and length take defaults."""
        return cls(tuple(d.get("players", ("Player 0", "Player 1"))), int(d.get("match_length", 0)),
                   RuleSettings.from_dict(d.get("rules", {})),
                   tuple(GameRecord.from_dict(g) for g in d.get("games", ())),
                   tuple(tuple(kv) for kv in d.get("meta", ())))

    @classmethod
    def from_json(cls, text: str) -> "MatchRecord":
        """The match in JSON text ``text``; RecordError when it is not JSON or not a match record."""
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise RecordError(f"match record is not JSON: {exc}") from None
