"""The referee of one table: what a tournament director does, as a declared state machine.

``Referee(settings, clock)`` consumes the input events of :mod:`referee.events` one at a
time (``handle(event) -> list[Decision]``) and keeps the game, the cube and the score.
It is pure: no threads, no devices; the clock only stamps decisions.  Replaying the
same input events gives the same state and decisions (:meth:`Referee.replay`), which is
how the table process rebuilds it after a crash.

This module is the facade; the machine is declared in :mod:`referee.turn.transitions`
(states in :mod:`referee.turn.states`), each phase of a turn has its module (see there),
and the cube is a :class:`referee.turn.cube.CubePolicy`: heads-up, or a chouette
(:mod:`referee.turn.chouette`).

Interface
---------
* ``Referee(settings=Settings(), clock=lambda: 0.0, score=(0, 0), crawford_done=None,
  crawford_game=False)`` -- ``score`` etc. resume a match under way.
* ``handle(event) -> list[Decision]`` (:mod:`referee.decisions`); ``view() -> TableView``
  (:mod:`referee.view`) for the screen and the cube display; ``new_record_actions()`` -> the
  record entries since the last call (the match's start, each game's start, the
  :mod:`referee.records.actions`), which the journal keeps and
  :func:`referee.records.builder.build_record` folds into the match record (the referee
  keeps none; ``referee.records.replay.replay_match`` checks it).
* ``Referee.replay(settings, events, clock, **kw)`` rebuilds a referee from its ``inputs``;
  ``setup(position, turn)`` starts from a director's position (kept in ``inputs``);
  ``snapshot()`` / ``Referee.restore(settings, text)`` the same as text.
* ``state`` (a :class:`~referee.turn.states.State`, equal to its name as a string), ``turn``,
  ``pos`` (Dark on roll), ``cube`` (:class:`referee.rules.cube.Cube`), ``score``
  (:class:`referee.rules.match.Score`), ``chouette`` (None heads-up), ``t`` (the turn's facts).

Conventions (documented for the device packages)
------------------------------------------------
* **Opening roll** (:mod:`referee.turn.opening`): one ``RollSettled`` with two dice, Dark's
  die in zone ``"right"``, Light's in ``"left"``, or two single-die events; with a tray the
  first die is Dark's.
* **Whose roll** and **early rolls**: :mod:`referee.turn.rolling`.
* **Checkers moved before a roll** (tables with a dice reader): a clear reading of
  another position than the referee's while the player on turn has not thrown is
  reported (``unseen_roll``) and throws are refused until the checkers are back
  (``board_in_place``; RULES 10).
* **Turn completion** is ``DiceLifted`` (:mod:`referee.turn.judging`).  With
  ``dice_reader = False`` the mover ends the turn with ``PlayerInput(mover, "confirm")``
  (:mod:`referee.turn.camera_only`).
* **Choosing** among offered choices (an ambiguous reading, rolls to confirm) is
  ``PlayerInput(player, "confirm", choice=i)``, ``i`` indexing the decision's ``choices``.
* **Correction** after ``demand_legal_move``: :mod:`referee.turn.correcting`.
* **Director.**  ``call_director`` pauses play; ``confirm`` or ``call_director`` resumes.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Optional

from referee.decisions import Decision
from referee.events import EventError
from referee.events import from_dict as events_from_dict
from referee.events import to_json as events_to_json
from referee.records.builder import RecordEntry
from referee.rules.position import Position
from referee.settings import Settings
from referee.turn.chouette import Chouette
from referee.turn.cube import CubePolicy, HeadsUpCube
from referee.turn import crosscheck, director
from referee.turn.machine import fire
from referee.board import layout_of
from referee.turn.states import STATES, VIEW_STATE, State
from referee.turn.table_state import Setup, TableState, TurnFacts, rule_settings
from referee.turn.transitions import TABLE, TRANSITIONS
from referee.view import TableView

__all__ = ["Referee", "Setup", "State", "STATES", "VIEW_STATE", "TRANSITIONS", "cube_policy", "rule_settings"]


def cube_policy(settings: Settings) -> CubePolicy:
    """The table's cube: a chouette's when the settings name its players, heads-up otherwise."""
    return Chouette(settings) if settings.chouette else HeadsUpCube(settings)


class Referee(TableState):
    """The referee of one table (see the module docstring)."""

    def __init__(self, settings: Optional[Settings] = None, clock: Callable[[], float] = lambda: 0.0,
                 score: tuple[int, int] = (0, 0), crawford_done: Optional[bool] = None,
                 crawford_game: bool = False) -> None:
        """``score`` (dark, light) resumes a match already under way; ``crawford_game``
        says the first game is the Crawford game; ``crawford_done`` defaults to whether a
        player already stands at match_to - 1 (and that game is not the Crawford game)."""
        super().__init__(settings, clock, score, crawford_done, crawford_game)
        self.cube_policy = cube_policy(self.settings)
        self.chouette = self.cube_policy if isinstance(self.cube_policy, Chouette) else None
        self.names = self.cube_policy.colour_names()
        self.follow_on = self._follow_on
        self.undo_marks: list[director.Mark] = []  # what the director's undo restores (referee.turn.director)

    @property
    def state(self) -> State:
        """Where the turn stands (a :class:`State`, equal to its name as a string)."""
        return self._state

    @state.setter
    def state(self, value: str) -> None:
        """A test's or director's override of the state (through :meth:`enter`)."""
        self.enter(value)

    @classmethod
    def replay(cls, settings: Settings, events: Iterable[Any],
               clock: Callable[[], float] = lambda: 0.0, **kwargs: Any) -> "Referee":
        """A referee rebuilt by handling ``events`` in order (the journal's crash recovery).
        ``events`` may include :class:`Setup` entries (from :attr:`inputs`); ``kwargs``
        are the constructor's (``score``, ``crawford_done``)."""
        ref = cls(settings, clock, **kwargs)
        for ev in events:
            if isinstance(ev, Setup):
                ref.setup(Position.from_position_id(ev.position_id), ev.turn)
            else:
                ref.handle(ev)
        return ref

    def snapshot(self) -> str:
        """The referee's inputs as JSON lines (events' text forms; set-ups as ``"setup"``
        lines): with the settings and the constructor's arguments, all that
        :meth:`restore` needs."""
        lines = []
        for ev in self.inputs:
            if isinstance(ev, Setup):
                lines.append(json.dumps({"kind": "setup", "position_id": ev.position_id, "turn": ev.turn}))
            else:
                lines.append(events_to_json(ev))
        return "\n".join(lines) + ("\n" if lines else "")

    @classmethod
    def restore(cls, settings: Settings, text: str, clock: Callable[[], float] = lambda: 0.0,
                **kwargs: Any) -> "Referee":
        """A referee rebuilt from :meth:`snapshot` text (bad lines raise EventError naming them)."""
        evs: list[Any] = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            d = json.loads(line)
            if isinstance(d, dict) and d.get("kind") == "setup":
                evs.append(Setup(d["position_id"], d["turn"]))
            else:
                try:
                    evs.append(events_from_dict(d))
                except EventError as exc:
                    raise EventError(f"snapshot line {n}: {exc}") from None
        return cls.replay(settings, evs, clock, **kwargs)

    def handle(self, event: Any) -> list[Decision]:
        """Handle one input event completely; the decisions it caused, in order."""
        self.inputs.append(event)
        self.out = []
        before = director.mark(self)
        fire(self, TABLE, event)
        crosscheck.after_event(self, event, before.state)
        director.keep(self, before, self.undo_marks, event, self.out)
        out = self.out
        self.out = []
        for d in out:
            self.message = d.reason
            if d.kind not in ("not_accepted", "refused"):
                self.choices = d.choices
        return out

    def _follow_on(self, event: Any) -> None:
        """A follow-on trigger inside the current event (e.g. a double that also accepts a move)."""
        fire(self, TABLE, event, inner=True)

    def new_record_actions(self) -> list[RecordEntry]:
        """The record entries produced since the last call, in order (for the journal; every
        one since the referee was made, on the first call)."""
        out, self.new_actions = self.new_actions, []
        return out

    def view(self) -> TableView:
        """What the screen and the cube display show now."""
        lay = layout_of(self.pos)
        if self.state == State.OPENING_ROLL:
            dice: tuple[Optional[int], ...] = (self.opening["dark"], self.opening["light"])
            if dice == (None, None):
                dice = ()
        else:
            dice = tuple(self.t.dice) if self.t.dice else ()
        cube = self.cube_policy.shown_cube(self.cube)
        return TableView(
            dark=lay.dark, light=lay.light, bar=lay.bar, off=lay.off, dice=dice,
            cube_value=cube.value, cube_owner=cube.owner,
            cube_offered_by=cube.offered_by, cube_offered_value=cube.offered_value,
            crawford=self.score.crawford_game, match_length=self.settings.match_to,
            score=self.score.points, names=(self.names["dark"], self.names["light"]), game=self.game,
            turn=self.turn, state=VIEW_STATE[self.state], message=self.message, choices=self.choices,
            last_plays=tuple(self.last_plays[-6:]),
            chouette=self.cube_policy.chouette_view())

    def setup(self, position: Position, turn: str) -> None:
        """Start play from ``position`` (Dark on roll) with ``turn`` to throw: the director's
        set-up for an adjourned game, and the tests' way to reach a position.  Kept in
        :attr:`inputs` as a :class:`Setup` so a replay reproduces it."""
        self.inputs.append(Setup(position.position_id(), turn))
        self.pos, self.turn, self.t = position, turn, TurnFacts()
        self.enter(State.WAITING_FOR_ROLL)
