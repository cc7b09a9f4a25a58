"""The match record: who played, under which rules, and every game's actions in order.

A record holds only what happened at the table -- dice, plays, cube and resignation
actions, re-rolls, corrections and results -- never positions: positions are
recomputed by replaying (:mod:`referee.records.replay`).  It is what the .mat and SGF codecs
(:mod:`referee.records.matfile`, :mod:`referee.records.sgf`) read and write and what the live
journal (:mod:`referee.records.journal`) rebuilds.  Everything here is a frozen value with a
JSON form that round-trips (``action.to_json()`` / :func:`action_from_json`,
``MatchRecord.to_json()`` / ``MatchRecord.from_json``).

Players
-------
``player`` is ``0`` or ``1`` everywhere:

* player 0 = the LEFT column of a .mat file = SGF ``W`` = gnubg's player 0 = **dark**
  checkers at the table (``referee.colour.Colour.DARK``, ``Colour.from_number(0)``);
* player 1 = the RIGHT column = SGF ``B`` = gnubg's player 1 = **light** checkers.

Actions (``type`` is the JSON tag)
----------------------------------
``Roll(player, dice)``           ``roll``      dice that landed and count, not yet played.  A
                                               following ``Move`` of the same player with the same
                                               dice plays it; a ``Move`` with no ``Roll`` before it
                                               carries its own (implicit) roll, as in a .mat file.
``Move(player, dice, play)``     ``move``      a roll and its play in gnubg notation ("" = no
                                               legal play / "Cannot Move").  The opening roll is a
                                               ``Move`` with both opening dice.
``Reroll(player, cause, dice)``  ``reroll``    a roll that did not count; ``cause`` is one of
                                               :data:`REROLL_CAUSES`.  An ``opening_tie`` in a
                                               money game with automatic doubles turns the cube.
``Double(player, value)``        ``double``    offers the cube at ``value`` (twice the current value).
``Take(player)`` / ``Pass(player)`` ``take`` / ``pass``  the answer to a double (.mat ``Takes`` /
                                               ``Drops``).  A pass ends the game.
``Beaver(player, value)``        ``beaver``    the doubled player redoubles to ``value`` keeping
                                               the cube (money play, beavers on); the doubler answers.
``Resign(player, kind)``         ``resign``    offers to resign a single (1), gammon (2) or
                                               backgammon (3) game.
``AcceptResign(player)`` / ``RejectResign(player)``  the opponent's answer.
``IllegalAccepted(player, dice, play, position="")`` ``illegal_accepted``  an illegal play
                                               the opponent accepted (RULES.md 9.3); applied as
                                               written, or the board is ``position`` (the gnubg
                                               Position ID as it stood, next player on roll).
``Correction(player, dice, rejected)`` ``correction``  the illegal play ``rejected`` was taken
                                               back on the opponent's demand; the player's next
                                               ``Move`` is the corrected play.
``GameEnd(winner, points, kind, reason)`` ``game_end``  the result: ``reason`` is ``bearoff``,
                                               ``resign`` or ``pass``; ``kind`` 1/2/3.

Every action also has a keyword-only ``t``: when it happened, in seconds on the journal's
clock (the ``t`` of the input event that caused it; ``None`` when unknown, as in a file
read from .mat).  It is kept in the JSON form and in SGF (``TS``) and is not part of
equality, so a record compares equal with or without its times.

An accepted illegal play (``IllegalAccepted``) is what the table really did: the JSON
form and the journal keep it as played; SGF writes its roll and then the position as it
stood (a set-board node naming the play); .mat, which cannot hold it, stops the game at
that roll and writes its result (see :mod:`referee.records.matfile`).

A :class:`GameRecord` is ``(number, score_before, crawford, actions)``; its result is
its last action when that is a ``GameEnd`` (``None`` while the game is unfinished).
A :class:`MatchRecord` is ``(players, match_length, rules, games, meta)``;
``match_length == 0`` is a money session (scores are then the running totals).

:func:`layout` numbers the actions as .mat move lines (``k)`` and left/right column),
the numbering problems are reported with; :class:`Problem` ``(game, move, text, reason)``
is how every reader and the replay report what is wrong; :func:`action_text` gives an
action's .mat text; :func:`crawford_flags` marks the Crawford game from the scores.

A live referee emits, per turn: ``Roll`` when the dice count, then ``Move`` (same dice)
once the play is accepted -- or ``Correction`` then the corrected ``Move``, or
``IllegalAccepted``; ``Reroll`` for every void roll (an opening tie's ``player`` is
the one whose die was read first, by convention 0); cube and resignation actions as
they happen; and ``GameEnd`` last.  The record is checked with
:func:`referee.records.replay.replay_match`.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Iterable, Optional, Union

from referee.colour import COLOURS
from referee.errors import RecordError
from referee.rules.match import add_points, crawford_flags as crawford_flags  # re-exported: the records' name for it
from referee.rules.position import Position

PLAYER_COLOURS = COLOURS  # player 0 = Dark, player 1 = Light (referee.colour)
REROLL_CAUSES: tuple[str, ...] = (
    "cocked",        # a die came to rest tilted
    "outside",       # a die left the landing area / the board
    "on_checker",    # a die rests on a checker (when the club's setting voids it)
    "opening_tie",   # both opening dice equal
    "early_roll",    # rolled before the opponent finished (early_roll = "void")
    "unread",        # the dice reader could not read a die and the players re-rolled
    "other",
)
END_REASONS: tuple[str, ...] = ("bearoff", "resign", "pass", "timeout")  # timeout: referee.turn.timeout
EARLY_ROLL_RULES: tuple[str, ...] = ("stands", "void")


def _check_player(p: object, what: str = "player") -> None:
    if p not in (0, 1) or isinstance(p, bool):
        raise RecordError(f"{what} {p!r} must be 0 (left / W / dark) or 1 (right / B / light)")


def _check_dice(dice: object) -> tuple[int, int]:
    if type(dice) is tuple and len(dice) == 2:  # the common case, checked fast
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6:
            return dice
    if (not isinstance(dice, (tuple, list)) or len(dice) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise RecordError(f"dice {dice!r} must be two integers 1-6")
    return (dice[0], dice[1])


def _check_cube(value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 2 or value & (value - 1):
        raise RecordError(f"cube value {value!r} must be a power of two, at least 2")


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """Base of all actions: ``player`` (0/1) acts.  ``to_json()`` is one JSON object."""

    TYPE: ClassVar[str] = ""
    player: int
    #: when it happened, seconds on the journal's clock (None when unknown); not part of equality
    t: Optional[float] = field(default=None, kw_only=True, compare=False)

    def __post_init__(self) -> None:
        _check_player(self.player)
        if self.t is not None and (isinstance(self.t, bool) or not isinstance(self.t, (int, float))):
            raise RecordError(f"time {self.t!r} must be a number of seconds")

    def to_dict(self) -> dict[str, Any]:
        """The action as a JSON-ready dict: its ``type`` and its fields (the time left out when unknown)."""
        d: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "t" and v is None:
                continue
            d[f.name] = list(v) if isinstance(v, tuple) else v
        return d

    def at(self, t: Optional[float]) -> "Action":
        """The same action stamped with time ``t`` (seconds on the journal's clock)."""
        return replace(self, t=t)

    def to_json(self) -> str:
        """The action as one compact line of JSON."""
        return json.dumps(self.to_dict(), separators=(",", ":"))


@dataclass(frozen=True)
class Roll(Action):
    """Dice that landed and count, not yet played."""

    TYPE: ClassVar[str] = "roll"
    dice: tuple[int, int] = (1, 1)

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "dice", _check_dice(self.dice))


@dataclass(frozen=True)
class Move(Action):
    """A roll and its play (gnubg notation; "" = no legal play)."""

    TYPE: ClassVar[str] = "move"
    dice: tuple[int, int] = (1, 1)
    play: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "dice", _check_dice(self.dice))
        if not isinstance(self.play, str):
            raise RecordError(f"play {self.play!r} must be text in gnubg notation")


@dataclass(frozen=True)
class Reroll(Action):
    """A roll that did not count, and why (one of REROLL_CAUSES); ``dice`` if they were read."""

    TYPE: ClassVar[str] = "reroll"
    cause: str = "other"
    dice: Optional[tuple[int, int]] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.cause not in REROLL_CAUSES:
            raise RecordError(f"re-roll cause {self.cause!r} is not one of {', '.join(REROLL_CAUSES)}")
        if self.dice is not None:
            object.__setattr__(self, "dice", _check_dice(self.dice))


@dataclass(frozen=True)
class Double(Action):
    """Offers the cube at ``value``."""

    TYPE: ClassVar[str] = "double"
    value: int = 2

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_cube(self.value)


@dataclass(frozen=True)
class Take(Action):
    """Accepts a double (.mat ``Takes``): the game goes on at the doubled value, the taker owning the cube."""

    TYPE: ClassVar[str] = "take"


@dataclass(frozen=True)
class Pass(Action):
    """Declines a double (.mat ``Drops``): the game ends at the value before the double."""

    TYPE: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Beaver(Action):
    """The doubled player redoubles to ``value`` at once, keeping the cube."""

    TYPE: ClassVar[str] = "beaver"
    value: int = 4

    def __post_init__(self) -> None:
        super().__post_init__()
        _check_cube(self.value)


@dataclass(frozen=True)
class Resign(Action):
    """Offers to resign: kind 1 single, 2 gammon, 3 backgammon."""

    TYPE: ClassVar[str] = "resign"
    kind: int = 1

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.kind not in (1, 2, 3):
            raise RecordError(f"resignation kind {self.kind!r} must be 1 (single), 2 (gammon) or 3 (backgammon)")


@dataclass(frozen=True)
class AcceptResign(Action):
    """The opponent accepts the resignation offered: the game ends at its points."""

    TYPE: ClassVar[str] = "accept_resign"


@dataclass(frozen=True)
class RejectResign(Action):
    """The opponent rejects the resignation offered: play goes on."""

    TYPE: ClassVar[str] = "reject_resign"


@dataclass(frozen=True)
class IllegalAccepted(Action):
    """An illegal play the opponent accepted; replay applies it as written.

    ``position`` (optional) is the board as it stood after it, as a gnubg Position ID
    from the side of the player to roll next: when given, replay takes the board from it
    instead of applying ``play`` (for changes no play text can say, such as checkers of
    the opponent's moved)."""

    TYPE: ClassVar[str] = "illegal_accepted"
    dice: tuple[int, int] = (1, 1)
    play: str = ""
    position: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "dice", _check_dice(self.dice))
        if not isinstance(self.position, str):
            raise RecordError(f"position {self.position!r} must be a gnubg Position ID (text)")
        if self.position:
            try:
                Position.from_position_id(self.position)
            except ValueError as exc:
                raise RecordError(f"accepted play's position {self.position!r}: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        """As :meth:`Action.to_dict`, leaving out ``position`` when none was given."""
        d = super().to_dict()
        if not self.position:
            del d["position"]
        return d


@dataclass(frozen=True)
class Correction(Action):
    """The illegal play ``rejected`` was taken back; the player's next Move replaces it."""

    TYPE: ClassVar[str] = "correction"
    dice: tuple[int, int] = (1, 1)
    rejected: str = ""

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "dice", _check_dice(self.dice))


@dataclass(frozen=True)
class GameEnd(Action):
    """The result.  ``player`` is the winner (``winner`` is an alias)."""

    TYPE: ClassVar[str] = "game_end"
    points: int = 1
    kind: int = 1
    reason: str = "bearoff"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.points, int) or isinstance(self.points, bool) or self.points < 1:
            raise RecordError(f"points {self.points!r} must be a positive integer")
        if self.kind not in (1, 2, 3):
            raise RecordError(f"game kind {self.kind!r} must be 1 (single), 2 (gammon) or 3 (backgammon)")
        if self.reason not in END_REASONS:
            raise RecordError(f"game end reason {self.reason!r} is not one of {', '.join(END_REASONS)}")

    @property
    def winner(self) -> int:
        """The winner of the game (the same as ``player``)."""
        return self.player


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls for cls in (Roll, Move, Reroll, Double, Take, Pass, Beaver, Resign, AcceptResign,
                              RejectResign, IllegalAccepted, Correction, GameEnd)
}
AnyAction = Union[Roll, Move, Reroll, Double, Take, Pass, Beaver, Resign, AcceptResign,
                  RejectResign, IllegalAccepted, Correction, GameEnd]


# ---------------------------------------------------------------------------- the director's actions
# (referee.turn.director; how the journal folds them: referee.records.journal.RecordBuilder)


@dataclass(frozen=True)
class SetUp(Action):
    """The director set up ``position`` (gnubg Position ID, ``player`` on roll, to throw) with
    the cube at ``cube`` owned by ``owner`` (None: centred); play goes on from there.  SGF
    writes a set-board node; .mat cannot hold it and writes the game up to it, then its result."""

    TYPE: ClassVar[str] = "setup"
    position: str = "4HPwATDgc/ABMA"
    cube: int = 1
    owner: Optional[int] = None

    def __post_init__(self) -> None:
        super().__post_init__()
        try:
            Position.from_position_id(self.position)
        except (ValueError, TypeError, AttributeError) as exc:
            raise RecordError(f"set-up position {self.position!r}: {exc}") from None
        if self.cube != 1:
            _check_cube(self.cube)
        if self.owner is not None:
            _check_player(self.owner, "cube owner")


@dataclass(frozen=True)
class Undo(Action):
    """The director took back the game's last action (``undone``: its .mat text); the record
    folds it by removing that action, so the .mat and SGF never show it."""

    TYPE: ClassVar[str] = "undo"
    undone: str = ""


@dataclass(frozen=True)
class ScoreCorrection(Action):
    """The director corrected the score to ``score`` (player 0, player 1): the record folds it
    into the game's score before (the game is played at the corrected score)."""

    TYPE: ClassVar[str] = "score"
    score: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        super().__post_init__()
        s = self.score
        if (not isinstance(s, (tuple, list)) or len(s) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in s)):
            raise RecordError(f"corrected score {s!r} must be two totals >= 0")
        object.__setattr__(self, "score", (s[0], s[1]))


DIRECTOR_TYPES: dict[str, type[Action]] = {cls.TYPE: cls for cls in (SetUp, Undo, ScoreCorrection)}
ACTION_TYPES.update(DIRECTOR_TYPES)


def action_from_dict(d: dict[str, Any]) -> Action:
    """The action a ``to_dict()`` gave; RecordError naming the bad field otherwise."""
    if not isinstance(d, dict):
        raise RecordError(f"action {d!r} must be a JSON object")
    tag = d.get("type")
    cls = ACTION_TYPES.get(tag)  # type: ignore[arg-type]
    if cls is None:
        raise RecordError(f"action type {tag!r} is not one of {', '.join(ACTION_TYPES)}")
    names = {f.name for f in fields(cls)}
    extra = set(d) - names - {"type"}
    if extra:
        raise RecordError(f"action {tag!r} has unknown field(s) {', '.join(sorted(extra))}")
    kwargs = {k: (tuple(v) if isinstance(v, list) else v) for k, v in d.items() if k != "type"}
    try:
        return cls(**kwargs)  # type: ignore[arg-type]  # fields from JSON: a wrong one fails below
    except TypeError as exc:
        raise RecordError(f"action {d!r}: {exc}") from None


def action_from_json(text: str) -> Action:
    """The action a line of JSON describes; RecordError naming the text when it is not JSON or not an action."""
    try:
        return action_from_dict(json.loads(text))
    except json.JSONDecodeError as exc:
        raise RecordError(f"action {text!r} is not JSON: {exc}") from None


# ---------------------------------------------------------------------------- rules, games, match


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
        """The score after the game as recorded (the score before while unfinished)."""
        r = self.result
        a, b = self.score_before
        if r is None:
            return (a, b)
        return add_points((a, b), r.winner, r.points)

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


# ---------------------------------------------------------------------------- .mat numbering

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
    out: list[tuple[int, int]] = []
    line, col = 1, 0
    last = (1, -1)
    for i, a in enumerate(acts):
        if a.TYPE not in COLUMN_TYPES:
            out.append((last[0], -1))
            continue
        if a.TYPE == "roll":
            nxt = next((b for b in acts[i + 1:] if b.TYPE not in ("reroll", "correction")), None)
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
    return out


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
