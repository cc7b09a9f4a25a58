"""A record's actions: what happened at the table, one frozen value each, in play order.

Every action is a frozen value with a JSON form that round-trips (``action.to_json()`` /
:func:`action_from_json`); a game's actions are the nodes of the record
(:mod:`referee.records.record`), never positions: positions are recomputed by replaying
(:mod:`referee.records.replay`).

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
                                               ``resign``, ``pass`` or ``timeout``; ``kind`` 1/2/3.
``Penalty(player, points, reason)`` ``penalty``  ``points`` to the opponent of ``player``, the
                                               player penalised, mid-game (``reason``: one of
                                               :data:`PENALTY_REASONS`); play goes on.

The score's notes (:data:`SCORE_NOTES`: a ``Penalty``, the director's ``ScoreCorrection``)
change the score, never the board or the turn: they may come anywhere in a game (between a
roll and its play, while a double is pending), the replay adds them to the score sequence
(:mod:`referee.records.replay`), SGF writes a comment node and .mat nothing (the next game's
score line shows them).

Every action also has a keyword-only ``t``: when it happened, in seconds on the journal's
clock (the ``t`` of the input event that caused it; ``None`` when unknown, as in a file
read from .mat).  It is kept in the JSON form and in SGF (``TS``) and is not part of
equality, so a record compares equal with or without its times.

An accepted illegal play (``IllegalAccepted``) is what the table really did: the JSON
form and the journal keep it as played; SGF writes its roll and then the position as it
stood (a set-board node naming the play); .mat, which cannot hold it, stops the game at
that roll and writes its result (see :mod:`referee.records.matfile`).

A live referee emits, per turn: ``Roll`` when the dice count, then ``Move`` (same dice)
once the play is accepted -- or ``Correction`` then the corrected ``Move``, or
``IllegalAccepted``; ``Reroll`` for every void roll (an opening tie's ``player`` is
the one whose die was read first, by convention 0); cube and resignation actions as
they happen; and ``GameEnd`` last (see :mod:`referee.records.builder` for how they
become a record).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from typing import Any, ClassVar, Optional, Union

from referee.colour import COLOURS
from referee.errors import RecordError
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
PENALTY_REASONS: tuple[str, ...] = ("timeout",)  # timeout: the table's clock (referee.turn.timeout)
#: the actions that change the score and nothing on the board: a penalty, the director's score correction
SCORE_NOTES: tuple[str, ...] = ("penalty", "score")
#: the actions a roll's play may come after (its roll's cell is the play's): void rolls, corrections, notes
NOT_PLAYS: tuple[str, ...] = ("reroll", "correction") + SCORE_NOTES


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


_object_new = object.__new__


def move_unchecked(player: int, dice: tuple[int, int], play: str) -> Move:
    """``Move(player, dice, play)`` from values the caller has checked (player 0 or 1, dice a
    tuple of two ints 1-6, play text): the same value without the dataclass's checks, for a
    reader's inner loop (a .mat file's every new cell)."""
    m = _object_new(Move)
    d = m.__dict__  # the fields in Move.__init__'s order
    d["player"] = player
    d["t"] = None
    d["dice"] = dice
    d["play"] = play
    return m


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


@dataclass(frozen=True)
class Penalty(Action):
    """``points`` penalty points to the opponent of ``player`` (the player penalised), mid-game;
    play goes on where it was (``reason``: one of PENALTY_REASONS)."""

    TYPE: ClassVar[str] = "penalty"
    points: int = 1
    reason: str = "timeout"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.points, int) or isinstance(self.points, bool) or self.points < 1:
            raise RecordError(f"penalty points {self.points!r} must be a positive integer")
        if self.reason not in PENALTY_REASONS:
            raise RecordError(f"penalty reason {self.reason!r} is not one of {', '.join(PENALTY_REASONS)}")

    @property
    def gainer(self) -> int:
        """The player the penalty points go to (the opponent of the player penalised)."""
        return 1 - self.player


ACTION_TYPES: dict[str, type[Action]] = {
    cls.TYPE: cls for cls in (Roll, Move, Reroll, Double, Take, Pass, Beaver, Resign, AcceptResign,
                              RejectResign, IllegalAccepted, Correction, GameEnd, Penalty)
}
AnyAction = Union[Roll, Move, Reroll, Double, Take, Pass, Beaver, Resign, AcceptResign,
                  RejectResign, IllegalAccepted, Correction, GameEnd, Penalty]


# ---------------------------------------------------------------------------- the director's actions
# (referee.turn.director; how the journal folds them: referee.records.builder.FOLDS)


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
    """The director corrected the score to ``score`` (player 0, player 1).  The record keeps it
    in the game (a score note, so the replay accepts the score it sets) and folds it into the
    game's score before (the game is played at the corrected score); one made between games is
    the next game's first action (:mod:`referee.records.builder`)."""

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
