"""The state of one game under replay, and what a replay found: the values and the base
the replayer's parts share (:mod:`referee.records.replayer` puts them together).

:class:`GameReplay` is what replaying one game found; :class:`KnownReplay` a game a reader
already replayed; :class:`ReplayState` the game's state while its actions are fed (the
position, the cube, the pending offer or resignation, the turn) with the helpers every
action's check uses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from referee.colour import Colour
from referee.rules.cube import Cube
from referee.rules.moves import legal_plays
from referee.rules.notation import Play
from referee.rules.position import Position
from referee.records.actions import Action, GameEnd
from referee.records.problems import Problem, action_text
from referee.records.record import GameRecord, RuleSettings
from referee.rules.scoring import points_won

_KIND_NAMES = {1: "single", 2: "gammon", 3: "backgammon"}
_new = tuple.__new__


def _pname(p: int) -> str:
    return f"player {p} ({'left/W' if p == 0 else 'right/B'})"


@dataclass
class GameReplay:
    """What replaying one game found."""

    number: int
    plays: int = 0
    problems: list[Problem] = field(default_factory=list)
    resolved: dict[int, Play] = field(default_factory=dict)  # action index -> legal play (gnubg steps)
    final: Position = field(default_factory=Position.start)  # player 0 on roll
    cube: int = 1
    crawford: bool = False


@dataclass(frozen=True)
class KnownReplay:
    """A game a reader already replayed while reading it, with what it was replayed under.

    :func:`referee.records.replay.replay_match` takes it instead of replaying the game again when it
    :meth:`fits` the game: the same actions, match length, rules and Crawford flag,
    and no problem found (a reader feeds its file's move numbers, which problems
    name; the validator numbers moves by :func:`~referee.records.record.layout`)."""

    actions: tuple[Action, ...]
    match_length: int
    rules: RuleSettings
    crawford: bool
    replay: "GameReplay"

    def fits(self, game: GameRecord, match_length: int, rules: RuleSettings, crawford: bool) -> bool:
        """Whether this replay is what replaying ``game`` under these settings gives."""
        return (not self.replay.problems and self.match_length == match_length and self.crawford == crawford
                and self.replay.number == game.number and self.rules == rules
                and (self.actions is game.actions or self.actions == game.actions))

    def copy(self) -> "GameReplay":
        """A fresh copy of the replay (the caller may add problems to it)."""
        out = object.__new__(GameReplay)  # every field copied (dataclasses.replace, without its checks)
        out.__dict__.update(self.replay.__dict__)
        out.problems, out.resolved = [], dict(self.replay.resolved)
        return out


class ReplayState:
    """The state of one game while its actions are fed in order (the replayer's base).

    ``pos0`` is the position with player 0 on roll (player 0's side is ``me``).
    """

    def __init__(self, number: int, match_length: int = 0, rules: RuleSettings = RuleSettings(),
                 crawford: bool = False) -> None:
        self.number = number
        self.match_length = match_length
        self.rules = rules
        self.crawford = crawford
        # the position now with player ``_on`` on roll: kept as the last play left it (the next
        # player on roll), so a game of alternating plays never swaps sides (:attr:`pos0`)
        self._pos = Position.start()
        self._on = 0
        # the cube (referee.rules.cube); while a double (or a beaver) is pending, ``standing``
        # is the cube as it was before the offer: what the game is played for if the offer
        # is never answered (a record that goes on, or ends, without the answer)
        self.cube_state = Cube()
        self.standing: Optional[Cube] = None
        self.resign: Optional[tuple[int, int]] = None  # (player, kind)
        self.resign_accepted = False
        self.to_act: Optional[int] = None  # None before the opening roll
        self.rolled: Optional[tuple[int, tuple[int, int]]] = None
        self.correction: Optional[tuple[int, tuple[int, int]]] = None
        self.passed: Optional[tuple[int, int]] = None  # (passer, points)
        self.autodoubles = 0
        self.moved = False
        self.over = False
        self.broken = False  # a play could not be applied: later positions are unknown
        self.ended: Optional[GameEnd] = None
        self.out = GameReplay(number, crawford=crawford)

    # ----------------------------------------------------------------- helpers

    def problem(self, move: int, a: Optional[Action], reason: str) -> None:
        """Note a problem at ``move`` of this game (with the action's text)."""
        self.out.problems.append(Problem(self.number, move, action_text(a) if a is not None else "", reason))

    @property
    def pos0(self) -> Position:
        """The position now with player 0 on roll (player 0's side is ``me``)."""
        pos = self._pos
        return pos if self._on == 0 else _new(Position, (pos[1], pos[0]))

    @pos0.setter
    def pos0(self, position: Position) -> None:
        self._pos, self._on = position, 0

    def mover_position(self, p: int) -> Position:
        """The position now, seen by player ``p`` (0 Dark, 1 Light)."""
        pos = self._pos
        return pos if self._on == p else _new(Position, (pos[1], pos[0]))  # swap(), without its checks

    def legal_exists(self, p: int, dice: tuple[int, int]) -> bool:
        """Whether ``p`` has a legal play for ``dice`` now (False once positions are unknown)."""
        return not self.broken and bool(legal_plays(self.mover_position(p), dice[0], dice[1]))

    def _set_after(self, p: int, result: Position) -> None:
        self._pos, self._on = result, 1 - p  # ``result`` has the opponent on roll
        self.over = result.is_game_over()

    def _check_turn(self, move: int, a: Action) -> None:
        if self.to_act is not None and a.player != self.to_act:
            self.problem(move, a, f"it is {_pname(self.to_act)}'s turn, not {_pname(a.player)}'s")

    @property
    def _stake(self) -> Cube:
        """The cube the game is played for now: an unanswered offer counts for nothing."""
        return self.standing if self.standing is not None else self.cube_state

    @property
    def cube(self) -> int:
        """The cube's value now (an unanswered offer not counted)."""
        return self._stake.value

    @property
    def owner(self) -> Optional[int]:
        """The cube's owner now (record player 0/1), None when centred."""
        owner = self._stake.owner
        return None if owner is None else Colour(owner).number

    @property
    def pending(self) -> Optional[tuple[int, int, bool]]:
        """The unanswered offer: (offered by, the value if taken, whether it is a beaver)."""
        c = self.cube_state
        if not c.pending:
            return None
        assert c.offered_by is not None and c.offered_value is not None
        return Colour(c.offered_by).number, c.offered_value, c.beavered

    def _drop_offer(self) -> None:
        """Forget an unanswered offer: the cube stands as it was before it."""
        if self.standing is not None:
            self.cube_state, self.standing = self.standing, None

    def _kind_points(self, kind: int) -> int:
        return points_won(kind, self.cube, jacoby=self.match_length == 0 and self.rules.jacoby,  # type: ignore[arg-type]
                          cube_turned=self._stake.turned)
