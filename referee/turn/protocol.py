"""The turn protocol: what a tournament director does, as an explicit state machine.

``Referee(settings, clock)`` consumes the input events of :mod:`referee.events` one at a
time (``handle(event) -> list[Decision]``) and keeps the game, the cube and the score.
It is pure: no threads, no devices; the clock only stamps decisions.  Replaying the
same input events gives the same state and decisions (:meth:`Referee.replay`), which is
how the table process rebuilds it after a crash.

States and transitions are declared in :data:`STATES` and :data:`TRANSITIONS`: for each
state, the triggers it accepts (an event kind, or ``player:<action>``), the named guards
that must pass (each returns ``None`` or the refusal reason) and the handler.  An event a
state has no entry for gives a ``not_accepted`` decision naming the event and the state;
a failed guard gives a ``refused`` decision with the guard's reason.  Nothing raises.

Interface
---------
* ``Referee(settings=Settings(), clock=lambda: 0.0, score=(0, 0), crawford_done=None,
  crawford_game=False)`` -- ``score`` etc. resume a match under way.
* ``handle(event) -> list[Decision]`` (:mod:`referee.decisions`); ``view() -> TableView``
  (:mod:`referee.view`) for the screen and the cube display; ``new_record_actions()`` -> the
  :mod:`referee.records.record` actions since the last call (for the journal); ``match_record()`` ->
  the :class:`~referee.records.record.MatchRecord` so far (``referee.records.replay.replay_match`` checks it).
* ``Referee.replay(settings, events, clock, **kw)`` rebuilds a referee from its ``inputs``;
  ``setup(position, turn)`` starts from a director's position (kept in ``inputs``).
* ``state`` (a key of :data:`STATES`), ``turn``, ``pos`` (Dark on roll), ``cube``
  (:class:`referee.rules.cube.Cube`), ``score`` (:class:`referee.rules.match.Score`), ``chouette``.
* Settings: :class:`referee.settings.Settings`; the matching rule for board readings:
  :mod:`referee.turn.matching`; camera-only roll inference and illegal-move reasons:
  :mod:`referee.rules.infer`; chouette: :mod:`referee.turn.chouette`; event streams for simulations
  and tests: :mod:`referee.table.streams`.

Conventions (documented for the device packages)
------------------------------------------------
* **Opening roll.**  One dice reader serves both players.  Either one ``RollSettled``
  with two dice, Dark's die being the one in zone ``"right"`` and Light's the one in
  ``"left"`` (each throws onto their own right-hand half); or two single-die events,
  whose zone says whose die it is.  With ``landing = "tray"`` the zones cannot tell:
  in a two-dice event the first die is Dark's, and single dice are Dark's then Light's.
* **Whose roll.**  On the board, a throw whose dice are both on the half of the player
  not on turn is that player's throw (otherwise a throw in the wrong half: re-roll).
  While the mover's dice are down, a throw with a die on the opponent's half is the
  opponent's (an early roll; with a landing fault, the opponent's re-roll), one with
  every die on the mover's half is the mover's (refused: the first roll stands), and
  one with every die outside names nobody.  With a tray, a throw while the mover's dice
  are down is the opponent's.
* **Early rolls** (``early_roll = "stands"``) wait until the mover's move is settled: an
  illegal move made before the lift still goes to the opponent's choice (RULES 9.4); a
  throw after the lift accepts it (9.3).
* **Checkers moved before a roll** (tables with a dice reader): a clear reading of
  another position than the referee's while the player on turn has not thrown is
  reported (``unseen_roll``) and throws are refused until the checkers are back
  (``board_in_place``; RULES 10).
* **Turn completion** is ``DiceLifted``.  With ``dice_reader = False`` (camera only) the
  mover ends the turn with ``PlayerInput(mover, "confirm")`` (or a ``DiceLifted`` from
  any source) and the roll is inferred from the move.
* **Choosing** among offered choices (an ambiguous reading, rolls to confirm) is
  ``PlayerInput(player, "confirm", choice=i)``, ``i`` indexing the decision's ``choices``.
* **Correction.**  After ``demand_legal_move`` the mover fixes the checkers; each stable
  reading is judged and the first legal one is accepted (the mover may also lift the
  dice or press confirm to have the current reading judged and hear what is wrong).
* **Director.**  ``call_director`` pauses play; ``confirm`` or ``call_director`` resumes.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Optional, Sequence

from referee.records import record as rec
from referee.rules.cube import Cube, beaver_refusal, double_refusal, other
from referee.decisions import Decision
from referee.events import (BoardEvidence, DiceLifted, DieReading, EventError, HandOverBoard, PlayerInput, ReaderFault,
                     RollSettled)
from referee.events import from_dict as events_from_dict
from referee.events import to_json as events_to_json
from referee.rules.infer import ROLLS, describe_change, explain_illegal, opponent_change
from referee.rules.match import Score
from referee.turn.matching import evidence_position, layout_of, match_reading
from referee.rules.moves import LegalPlay, legal_plays
from referee.rules.position import Position
from referee.rules.scoring import GameKind, game_result, points_won
from referee.settings import Settings
from referee.view import TableView

COLOURS = ("dark", "light")

#: The referee's states and what each means.
STATES: dict[str, str] = {
    "opening_roll": "each player throws one die; the higher starts",
    "waiting_for_roll": "the player on turn may double or throw",
    "reroll": "the last throw did not count; the player on turn throws again",
    "moving": "the roll counts; the mover moves and lifts the dice",
    "waiting_for_board": "the dice are lifted; waiting for a clear board reading to judge the move",
    "ambiguous": "several legal moves fit the reading; the players confirm one or fix the checkers",
    "confirm_roll": "no dice reader: several rolls explain the move; the players confirm one",
    "illegal_move": "the move is illegal or incomplete; the opponent accepts it or demands a legal move",
    "correcting": "the mover is correcting an illegal move",
    "double_offered": "a double (or beaver) is pending",
    "resignation_offered": "a resignation is pending",
    "game_over": "the game is over; the next throw is the next game's opening roll",
    "match_over": "the match is over",
    "director": "the director was called; play is paused",
}

#: How each state is shown on the table screen (``referee.view.STATES``).
VIEW_STATE: dict[str, str] = {
    "opening_roll": "opening_roll", "waiting_for_roll": "waiting_for_roll", "reroll": "reroll",
    "moving": "moving", "waiting_for_board": "waiting_for_board", "ambiguous": "waiting_for_board",
    "confirm_roll": "waiting_for_board", "illegal_move": "illegal_move", "correcting": "illegal_move",
    "double_offered": "double_offered", "resignation_offered": "resignation_offered",
    "game_over": "game_over", "match_over": "match_over", "director": "director",
}

RESIGN_KINDS = {"resign_single": 1, "resign_gammon": 2, "resign_backgammon": 3}
_RESIGN = {f"player:{a}": ("resign", ("game_running",)) for a in RESIGN_KINDS}
_QUIET = {"roll_started": ("ignore", ()), "hand_over_board": ("hands", ()), "board": ("note_board", ()),
          "reader_fault": ("reader_fault", ()), "player:call_director": ("call_director", ())}
_BEFORE_ROLL = {
    **_QUIET, **_RESIGN,
    "board": ("board_before_roll", ()),
    "roll_settled": ("roll", ("board_in_place",)),
    "dice_lifted": ("ignore", ()),
    "player:double": ("double", ("on_turn", "not_thrown", "cube_available")),
    "player:confirm": ("camera_turn_end", ("camera_only", "on_turn")),
}

#: state -> trigger -> (handler, guards).  Handlers are ``Referee._h_<name>``, guards ``_g_<name>``.
TRANSITIONS: dict[str, dict[str, tuple[str, tuple[str, ...]]]] = {
    "opening_roll": {**_QUIET, "roll_settled": ("opening_roll", ()), "dice_lifted": ("ignore", ())},
    "waiting_for_roll": {**_BEFORE_ROLL, "dice_lifted": ("lift_before_roll", ())},
    "reroll": dict(_BEFORE_ROLL),
    "moving": {**_QUIET, **_RESIGN,
               "roll_settled": ("roll_while_moving", ()),
               "dice_lifted": ("lift", ()),
               "player:double": ("double_after_roll", ())},
    "waiting_for_board": {**_QUIET, **_RESIGN,
                          "board": ("judge_reading", ()),
                          "roll_settled": ("roll_while_moving", ()),
                          "dice_lifted": ("ignore", ())},
    "ambiguous": {**_QUIET, **_RESIGN,
                  "board": ("judge_reading", ()),
                  "roll_settled": ("roll_while_moving", ()),
                  "dice_lifted": ("ignore", ()),
                  "player:confirm": ("pick_play", ("valid_choice",))},
    "confirm_roll": {**_QUIET, "dice_lifted": ("ignore", ()),
                     "player:confirm": ("pick_roll", ("valid_choice",))},
    "illegal_move": {**_QUIET,
                     "player:accept_move": ("accept_illegal", ("not_mover",)),
                     "player:demand_legal_move": ("demand_legal", ("not_mover", "dice_known")),
                     "roll_settled": ("roll_accepts_illegal", ()),
                     "player:double": ("double_accepts_illegal", ("not_mover", "cube_available")),
                     "dice_lifted": ("ignore", ())},
    "correcting": {**_QUIET,
                   "board": ("judge_correction", ()),
                   "dice_lifted": ("correction_now", ()),
                   "player:confirm": ("correction_now", ("mover",))},
    "double_offered": {**_QUIET,
                       "player:take": ("take", ("responder",)),
                       "player:pass": ("pass_", ("responder",)),
                       "player:beaver": ("beaver", ("responder", "beaver_allowed")),
                       "dice_lifted": ("ignore", ())},
    "resignation_offered": {**_QUIET,
                            "player:accept_resignation": ("accept_resignation", ("not_resigner",)),
                            "player:reject_resignation": ("reject_resignation", ("not_resigner",)),
                            "dice_lifted": ("ignore", ())},
    "game_over": {**_QUIET, "board": ("ignore", ()), "dice_lifted": ("ignore", ()),
                  "roll_settled": ("next_game", ())},
    "match_over": {"roll_started": ("ignore", ()), "hand_over_board": ("ignore", ()),
                   "board": ("ignore", ()), "dice_lifted": ("ignore", ())},
    "director": {"roll_started": ("ignore", ()), "hand_over_board": ("hands", ()), "board": ("note_board", ()),
                 "player:call_director": ("resume", ()), "player:confirm": ("resume", ())},
}


def _trigger(event: Any) -> str:
    if isinstance(event, PlayerInput):
        return f"player:{event.action}"
    return str(getattr(event, "kind", type(event).__name__))


def _to_dark(pos: Position, on_roll: str) -> Position:
    """A position given with ``on_roll`` on roll, as Dark on roll."""
    return pos if on_roll == "dark" else pos.swap()


def _roll_text(dice: Sequence[int]) -> str:
    return "-".join(str(d) for d in dice)


@dataclass(frozen=True)
class Setup:
    """A director's set-up (:meth:`Referee.setup`) among the inputs: position (Dark on roll)
    and the player to throw."""

    position_id: str
    turn: str
    kind: str = field(default="setup", init=False)


@dataclass
class _Turn:
    """The current turn's facts (reset when the turn passes)."""

    dice: Optional[tuple[int, int]] = None
    plays: Sequence[LegalPlay] = field(default_factory=list)
    candidates: list[Position] = field(default_factory=list)  # dark perspective, parallel to plays
    pending: list[int] = field(default_factory=list)  # ambiguous candidates offered
    pending_rolls: list[tuple[int, int]] = field(default_factory=list)
    inferred_after: Optional[Position] = None
    illegal_after: Optional[Position] = None  # dark perspective
    illegal_text: str = ""  # the mover's own checkers' change, as a play (the record's text)
    illegal_words: str = ""  # the whole change in words (the opponent's checkers too)
    early: Optional[RollSettled] = None  # the opponent's roll waiting to be played
    early_was_early: bool = False
    last_wait: str = ""
    unseen: str = ""  # the report of checkers moved with no roll seen (RULES 10), while it stands


class Referee:
    """The referee of one table (see the module docstring)."""

    def __init__(self, settings: Optional[Settings] = None, clock: Callable[[], float] = lambda: 0.0,
                 score: tuple[int, int] = (0, 0), crawford_done: Optional[bool] = None,
                 crawford_game: bool = False) -> None:
        """``score`` (dark, light) resumes a match already under way; ``crawford_game``
        says the first game is the Crawford game; ``crawford_done`` defaults to whether a
        player already stands at match_to - 1 (and that game is not the Crawford game)."""
        self.settings = settings or Settings()
        self.clock = clock
        self.names = {"dark": self.settings.names[0], "light": self.settings.names[1]}
        self.inputs: list[Any] = []
        self.state = "opening_roll"
        self.resume_state = "opening_roll"
        self.turn: Optional[str] = None
        self.pos = Position.start()
        self.cube = Cube()
        n = self.settings.match_to
        if crawford_done is None:
            # resuming at match point: the Crawford game is taken as played, except in a new
            # 1-point match, whose first game is the Crawford game (as gnubg has it)
            crawford_done = bool(n) and max(score) >= n - 1 and not crawford_game and tuple(score) != (0, 0)
        first_is_crawford = bool(n) and max(score) >= n - 1 and not crawford_done
        self.score = Score(n, (score[0], score[1]), self.settings.crawford,
                           (crawford_game or first_is_crawford) and self.settings.crawford, crawford_done)
        self.game = 1
        self.auto_doubles = 0
        self.opening: dict[str, Optional[int]] = {"dark": None, "light": None}
        self.t = _Turn()
        self.reading: Optional[BoardEvidence] = None
        self.fresh = False
        self.resigner: Optional[str] = None
        self.resign_kind = 1
        self.resign_return = "waiting_for_roll"
        self.last_plays: list[str] = []
        self.message = "Opening roll: each player throws one die"
        self.choices: tuple[str, ...] = ()
        self.games: list[rec.GameRecord] = []
        self.actions: list[rec.Action] = []
        self._new_actions: list[rec.Action] = []
        self._out: list[Decision] = []
        self.chouette = None
        if self.settings.chouette:
            from referee.turn.chouette import Chouette
            self.chouette = Chouette(self.settings)
            self.names = self.chouette.colour_names()

    # ------------------------------------------------------------------ public

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
        self._out = []
        trig = _trigger(event)
        entry = TRANSITIONS[self.state].get(trig)
        if entry is None:
            self._decide("not_accepted", getattr(event, "player", None),
                         f"{self._event_words(event)} is not accepted now: {STATES[self.state]}",
                         event=trig, state=self.state)
        else:
            handler, guards = entry
            for g in guards:
                why = getattr(self, f"_g_{g}")(event)
                if why:
                    self._decide("refused", getattr(event, "player", None), why, guard=g, event=trig,
                                 state=self.state)
                    break
            else:
                getattr(self, f"_h_{handler}")(event)
        out = self._out
        self._out = []
        for d in out:
            self.message = d.reason
            if d.kind not in ("not_accepted", "refused"):
                self.choices = d.choices
        return out

    def new_record_actions(self) -> list[rec.Action]:
        """The record actions produced since the last call (for the journal)."""
        out, self._new_actions = self._new_actions, []
        return out

    def match_record(self) -> rec.MatchRecord:
        """The match so far as a :class:`referee.records.record.MatchRecord`."""
        games = list(self.games)
        if self.actions and not (games and games[-1].number == self.game):
            games.append(self._game_record())
        s = self.settings
        rules = rec.RuleSettings(crawford=s.crawford, jacoby=s.jacoby, beavers=s.beavers,
                                 automatic_doubles=s.automatic_doubles, cube_limit=s.cube_limit,
                                 early_roll=s.early_roll)
        return rec.MatchRecord((s.names[0], s.names[1]), s.match_to, rules, tuple(games))

    def view(self) -> TableView:
        """What the screen and the cube display show now."""
        lay = layout_of(self.pos)
        if self.state == "opening_roll":
            dice: tuple[Optional[int], ...] = (self.opening["dark"], self.opening["light"])
            if dice == (None, None):
                dice = ()
        else:
            dice = tuple(self.t.dice) if self.t.dice else ()
        cube = self.cube
        if self.chouette is not None:
            cube = self.chouette.captain_cube(cube)
        return TableView(
            dark=lay.dark, light=lay.light, bar=lay.bar, off=lay.off, dice=dice,
            cube_value=cube.value, cube_owner=cube.owner,
            cube_offered_by=cube.offered_by, cube_offered_value=cube.offered_value,
            crawford=self.score.crawford_game, match_length=self.settings.match_to,
            score=self.score.points, names=(self.names["dark"], self.names["light"]), game=self.game,
            turn=self.turn, state=VIEW_STATE[self.state], message=self.message, choices=self.choices,
            last_plays=tuple(self.last_plays[-6:]))

    def setup(self, position: Position, turn: str) -> None:
        """Start play from ``position`` (Dark on roll) with ``turn`` to throw: the director's
        set-up for an adjourned game, and the tests' way to reach a position.  Kept in
        :attr:`inputs` as a :class:`Setup` so a replay reproduces it."""
        self.inputs.append(Setup(position.position_id(), turn))
        self.pos, self.turn, self.state, self.t = position, turn, "waiting_for_roll", _Turn()

    def mover_position(self) -> Position:
        """The position with the player on turn on roll (Dark when nobody is on turn)."""
        return self.pos.swap() if self.turn == "light" else self.pos

    # ------------------------------------------------------------------ helpers

    def _decide(self, kind: str, player: Optional[str], reason: str, choices: Sequence[str] = (),
                **data: Any) -> Decision:
        d = Decision(kind, player, reason, tuple(choices), tuple(data.items()), self.clock())
        self._out.append(d)
        return d

    def _act(self, action: rec.Action) -> None:
        self.actions.append(action)
        self._new_actions.append(action)

    def _game_record(self) -> rec.GameRecord:
        return rec.GameRecord(self.game, self.score.points, self.score.crawford_game, tuple(self.actions))

    def _event_words(self, event: Any) -> str:
        if isinstance(event, PlayerInput):
            return f"{self.names[event.player]}'s {event.action.replace('_', ' ')}"
        return {"roll_settled": "A throw of the dice", "dice_lifted": "Lifting the dice",
                "board": "A board reading", "reader_fault": "A dice reader fault",
                "roll_started": "A throw", "hand_over_board": "A hand over the board"}.get(
                    _trigger(event), _trigger(event))

    @staticmethod
    def _pi(colour: str) -> int:
        return COLOURS.index(colour)

    def _n(self, colour: Optional[str]) -> str:
        return self.names[colour] if colour else "?"

    def _thrower_zone(self, colour: str) -> str:
        if self.settings.landing == "tray":
            return "tray"
        return "right" if colour == "dark" else "left"

    def _die_names(self, dice: Sequence[DieReading], thrower: str) -> list[str]:
        if len(dice) == 1:
            return ["the die"]
        a, b = dice[0], dice[1]
        if a.x == b.x:
            return ["the first die", "the second die"]
        left_first = (a.x < b.x) if thrower == "dark" else (a.x > b.x)
        return ["the left die", "the right die"] if left_first else ["the right die", "the left die"]

    def _landing_faults(self, roll: RollSettled, thrower: str) -> list[tuple[str, str]]:
        """(cause, words) for each landing fault of a throw by ``thrower`` (RULES.md 9.1)."""
        faults: list[tuple[str, str]] = []
        names = self._die_names(roll.dice, thrower)
        zone = self._thrower_zone(thrower)
        for name, die in zip(names, roll.dice):
            if die.zone == "outside":
                faults.append(("outside", f"{name} landed outside the landing area"))
            elif die.zone != zone:
                where = "in the tray" if zone == "tray" else f"on {self._n(thrower)}'s right-hand half"
                faults.append(("outside", f"{name} is not {where}"))
            if not die.flat:
                faults.append(("cocked", f"{name} is cocked"))
            if die.on_checker and self.settings.die_on_checker == "reroll":
                faults.append(("on_checker", f"{name} rests on a checker"))
            if die.value is None and die.flat and die.zone != "outside":
                faults.append(("unread", f"{name} cannot be read"))
        return faults

    def _roll_owner(self, roll: RollSettled, expected: str) -> str:
        """Who threw: the player whose half holds all the dice (the expected thrower otherwise)."""
        if self.settings.landing == "tray":
            return expected
        zones = {d.zone for d in roll.dice}
        o = other(expected)
        if zones == {self._thrower_zone(o)}:
            return o
        return expected

    # ------------------------------------------------------------------ guards

    def _g_on_turn(self, ev: PlayerInput) -> Optional[str]:
        if ev.player != self.turn:
            return f"{self._n(ev.player)} cannot {ev.action.replace('_', ' ')}: it is {self._n(self.turn)}'s turn"
        return None

    def _g_not_thrown(self, ev: PlayerInput) -> Optional[str]:
        if self.state == "reroll":
            return f"{self._n(ev.player)} cannot double: the dice were already thrown (the re-roll is still due)"
        return None

    def _g_cube_available(self, ev: PlayerInput) -> Optional[str]:
        if self.chouette is not None:
            return self.chouette.double_refusal(self, ev)
        return double_refusal(self.cube, ev.player, money=self.settings.money,
                              crawford_game=self.score.crawford_game, cube_limit=self.settings.cube_limit,
                              names=self.names)

    def _g_board_in_place(self, ev: RollSettled) -> Optional[str]:
        moved = self._moved_before_roll()
        if moved:
            return (f"the throw does not count: {moved}, and no roll was seen before. Put the checkers back, "
                    f"then {self._n(self.turn)} throws again (or call the director)")
        return None

    def _g_camera_only(self, ev: Any) -> Optional[str]:
        if self.settings.dice_reader:
            return "this table reads the dice: the turn starts with a throw"
        return None

    def _g_game_running(self, ev: PlayerInput) -> Optional[str]:
        return None

    def _g_valid_choice(self, ev: PlayerInput) -> Optional[str]:
        if ev.choice is None or not 0 <= ev.choice < len(self.choices):
            return (f"{self._n(ev.player)}'s confirm needs a choice 0..{len(self.choices) - 1} "
                    f"({', '.join(self.choices)})")
        return None

    def _g_not_mover(self, ev: PlayerInput) -> Optional[str]:
        if ev.player == self.turn:
            return f"the choice is {self._n(other(self.turn))}'s, not {self._n(ev.player)}'s"
        return None

    def _g_mover(self, ev: PlayerInput) -> Optional[str]:
        if ev.player != self.turn:
            return f"only {self._n(self.turn)}, who is correcting the move, can confirm it"
        return None

    def _g_dice_known(self, ev: PlayerInput) -> Optional[str]:
        if self.t.dice is None:
            return "the roll is unknown (no dice reader), so no legal move can be demanded; accept the move"
        return None

    def _g_responder(self, ev: PlayerInput) -> Optional[str]:
        if self.chouette is not None:
            return self.chouette.responder_refusal(self, ev)
        if ev.player != self.cube.responder:
            return f"the double is {self._n(self.cube.responder)}'s to answer"
        return None

    def _g_beaver_allowed(self, ev: PlayerInput) -> Optional[str]:
        if self.chouette is not None:
            return "beavers are not played in chouette here"
        return beaver_refusal(self.cube, ev.player, money=self.settings.money, beavers=self.settings.beavers,
                              cube_limit=self.settings.cube_limit, names=self.names)

    def _g_not_resigner(self, ev: PlayerInput) -> Optional[str]:
        if ev.player == self.resigner:
            return f"the resignation is {self._n(other(self.resigner or 'dark'))}'s to answer"
        return None

    # ------------------------------------------------------------------ quiet events

    def _h_ignore(self, ev: Any) -> None:
        pass

    def _h_hands(self, ev: HandOverBoard) -> None:
        self.fresh = False

    def _h_note_board(self, ev: BoardEvidence) -> None:
        self.reading, self.fresh = ev, True

    def _h_board_before_roll(self, ev: BoardEvidence) -> None:
        """RULES 10: checkers that move before a roll is seen are reported, and the game waits
        until they are back (a camera-only table reads the move before the roll: no check)."""
        self.reading, self.fresh = ev, True
        if not self.settings.dice_reader:
            return
        moved = self._moved_before_roll()
        if moved and moved != self.t.unseen:
            self.t.unseen = moved
            seen = "no roll that counts" if self.state == "reroll" else "no roll"
            self._decide("unseen_roll", self.turn, f"{moved[0].upper()}{moved[1:]}, but {seen} was seen: put them "
                         f"back, then {self._n(self.turn)} throws (or call the director)")
        elif not moved and self.t.unseen and self._board_verdict() == "match":
            self.t.unseen = ""
            self._decide("board_in_place", self.turn, f"The checkers are back in place: {self._n(self.turn)} "
                         "throws")

    def _board_verdict(self) -> str:
        """The last stable reading against the referee's position: ``match``, ``illegal``
        (clearly another position) or why it cannot say."""
        if self.reading is None:
            return "none"
        return match_reading(self.reading, self.pos, [self.pos], self.turn or "dark",
                             self.settings.min_confidence).kind

    def _moved_before_roll(self) -> str:
        """What moved since the position the referee holds, when the last stable reading
        clearly shows another position on a table with a dice reader ("" otherwise)."""
        if not self.settings.dice_reader or self.reading is None or self._board_verdict() != "illegal":
            return ""
        mover = self.turn or "dark"
        now = evidence_position(self.reading)
        before_m, after_m = self.mover_position(), (now if mover == "dark" else now.swap())
        own, _ = describe_change(before_m, after_m)
        theirs = opponent_change(before_m, after_m)
        words = ", ".join(w for w in (own and f"{self._n(mover)} {own}", theirs and f"{self._n(other(mover))} "
                                      f"{theirs}") if w)
        return f"the checkers have moved ({words})" if words else "the checkers have moved"

    def _h_reader_fault(self, ev: ReaderFault) -> None:
        self._decide("reader_fault", None, f"The dice reader reports a fault: {ev.message}. "
                     "Call the director if it persists")

    def _h_call_director(self, ev: PlayerInput) -> None:
        self.resume_state = self.state
        self.state = "director"
        self._decide("director", ev.player, f"{self._n(ev.player)} called the director: play is paused",
                     choices=("confirm",))

    def _h_resume(self, ev: PlayerInput) -> None:
        self.state = self.resume_state
        self._decide("director", ev.player, f"Play resumes: {STATES[self.state]}")

    # ------------------------------------------------------------------ opening roll

    def _h_next_game(self, ev: RollSettled) -> None:
        self._start_game()
        self._h_opening_roll(ev)

    def _start_game(self) -> None:
        self.game += 1
        self.actions = []
        self.pos = Position.start()
        self.cube = Cube()
        self.auto_doubles = 0
        self.turn = None
        self.t = _Turn()
        self.opening = {"dark": None, "light": None}
        self.last_plays = []
        self.state = "opening_roll"
        if self.chouette is not None:
            self.chouette.start_game()
            self.names = self.chouette.colour_names()

    def _h_opening_roll(self, ev: RollSettled) -> None:
        tray = self.settings.landing == "tray"
        if len(ev.dice) == 2:
            if tray:
                owners = ["dark", "light"]
            else:
                owners = ["dark" if d.zone == "right" else "light" if d.zone == "left" else "?" for d in ev.dice]
                if owners[0] == owners[1]:
                    side = {"dark": f"{self.names['dark']}'s", "light": f"{self.names['light']}'s"}.get(owners[0])
                    why = f"both dice landed on {side} right-hand half" if side else "the dice landed outside"
                    self._reroll_opening(None, f"Re-roll the opening: {why}; each player throws one die "
                                               "onto their own right-hand half", "outside")
                    return
                if "?" in owners:
                    owners = [o if o != "?" else other(owners[1 - i]) for i, o in enumerate(owners)]
            faults = []
            for o, d in zip(owners, ev.dice):
                f = self._opening_faults(d, o)
                if f:
                    faults.append(f"{self.names[o]}'s die {f}")
            if faults:
                self._reroll_opening(None, "Re-roll the opening: " + "; ".join(faults),
                                     self._cause_of(ev.dice[0]) or self._cause_of(ev.dice[1]) or "other")
                return
            for o, d in zip(owners, ev.dice):
                self.opening[o] = d.value
        else:
            d = ev.dice[0]
            if tray:
                owner = "dark" if self.opening["dark"] is None else "light"
            elif d.zone in ("right", "left"):
                owner = "dark" if d.zone == "right" else "light"
            else:
                self._decide("reroll", None, "Re-throw: the opening die landed outside the landing area",
                             cause="outside")
                return
            f = self._opening_faults(d, owner)
            if f:
                self._decide("reroll", owner, f"Re-throw: {self.names[owner]}'s die {f}",
                             cause=self._cause_of(d) or "other")
                return
            if self.opening[owner] is not None:
                self._decide("refused", owner, f"{self.names[owner]} already threw a {self.opening[owner]}; "
                             f"waiting for {self.names[other(owner)]}'s die")
                return
            self.opening[owner] = d.value
        dv, lv = self.opening["dark"], self.opening["light"]
        if dv is None or lv is None:
            who = "dark" if dv is None else "light"
            have = "dark" if dv is not None else "light"
            self._decide("opening_die", have, f"{self.names[have]} threw a {self.opening[have]}; "
                         f"waiting for {self.names[who]}'s die", die=self.opening[have])
            return
        if dv == lv:
            self.opening = {"dark": None, "light": None}
            s = self.settings
            auto = s.money and self.auto_doubles < s.automatic_doubles and \
                (not s.cube_limit or 2 * self.cube.value <= s.cube_limit)
            self._act(rec.Reroll(0, "opening_tie", (dv, lv)))
            if auto:
                self.auto_doubles += 1
                self.cube = replace(self.cube, value=2 * self.cube.value)
                if self.chouette is not None:
                    self.chouette.automatic_double()
                self._decide("opening_tie", None, f"Both threw {dv}: automatic double, the cube is at "
                             f"{self.cube.value} in the middle; throw again", die=dv, cube=self.cube.value)
            else:
                self._decide("opening_tie", None, f"Both threw {dv}: throw again", die=dv)
            return
        starter = "dark" if dv > lv else "light"
        high, low = max(dv, lv), min(dv, lv)
        self.opening = {"dark": None, "light": None}
        self.turn = starter
        self._decide("opening_won", starter, f"{self.names['dark']} {dv}, {self.names['light']} {lv}: "
                     f"{self.names[starter]} starts and plays {high}-{low}", dice=(high, low))
        self._accept_roll(starter, (high, low))

    def _opening_faults(self, d: DieReading, owner: str) -> str:
        if d.zone == "outside":
            return "landed outside the landing area"
        if not d.flat:
            return "is cocked"
        if d.on_checker and self.settings.die_on_checker == "reroll":
            return "rests on a checker"
        if d.value is None:
            return "cannot be read"
        return ""

    def _cause_of(self, d: DieReading) -> str:
        if d.zone == "outside":
            return "outside"
        if not d.flat:
            return "cocked"
        if d.on_checker and self.settings.die_on_checker == "reroll":
            return "on_checker"
        if d.value is None:
            return "unread"
        return ""

    def _reroll_opening(self, player: Optional[str], reason: str, cause: str) -> None:
        self.opening = {"dark": None, "light": None}
        self._act(rec.Reroll(0, cause))
        self._decide("reroll", player, reason, cause=cause)

    # ------------------------------------------------------------------ rolling

    def _h_roll(self, ev: RollSettled) -> None:
        mover = self.turn or "dark"
        thrower = self._roll_owner(ev, mover)
        if thrower != mover:
            self._decide("wrong_turn", thrower, f"Both dice are on {self._n(thrower)}'s side: if "
                         f"{self._n(thrower)} threw, it is {self._n(mover)}'s turn and the throw does not count; "
                         f"if {self._n(mover)} threw, throw again onto your right-hand half", thrower=thrower)
            return
        self._throw(ev, mover)

    def _throw(self, ev: RollSettled, mover: str) -> None:
        """A throw by the player on turn: the landing rules, then the roll counts."""
        if len(ev.dice) != 2:
            self._decide("reroll", mover, f"Re-roll: only one die was seen; {self._n(mover)} throws both dice",
                         cause="other")
            self._act(rec.Reroll(self._pi(mover), "other"))
            self.state = "reroll"
            return
        faults = self._landing_faults(ev, mover)
        if faults:
            words = "; ".join(w for _, w in faults)
            vals = ev.values
            dice = (vals[0], vals[1]) if len(vals) == 2 and None not in vals else None
            self._act(rec.Reroll(self._pi(mover), faults[0][0], dice))  # type: ignore[arg-type]
            self._decide("reroll", mover, f"Re-roll: {words}. {self._n(mover)} throws both dice again",
                         cause=faults[0][0])
            self.state = "reroll"
            return
        vals = ev.values
        self._accept_roll(mover, (int(vals[0]), int(vals[1])))  # type: ignore[arg-type]

    def _accept_roll(self, mover: str, dice: tuple[int, int]) -> None:
        self.turn = mover
        before = self.mover_position()
        plays = legal_plays(before, *dice)
        cands = [_to_dark(lp.result, other(mover)) for lp in plays]
        self.t = _Turn(dice=dice, plays=plays, candidates=cands)
        self.state = "moving"
        self._act(rec.Roll(self._pi(mover), dice))
        if plays:
            self._decide("roll_accepted", mover, f"{self._n(mover)} rolled {_roll_text(dice)}: move, then lift "
                         "the dice", dice=dice, legal_plays=len(plays))
        else:
            self._decide("roll_accepted", mover, f"{self._n(mover)} rolled {_roll_text(dice)}: no legal move; "
                         "lift the dice", dice=dice, legal_plays=0)

    def _h_roll_while_moving(self, ev: RollSettled) -> None:
        mover = self.turn or "dark"
        opp = other(mover)
        thrower = self._early_thrower(ev, mover)
        if thrower == mover:
            self._decide("refused", mover, f"{self._n(mover)} threw again: the first roll "
                         f"{_roll_text(self.t.dice or ())} stands; move and lift the dice")
            return
        if thrower is None:  # RULES 9.5: say what was seen, blame nobody
            down = self.state == "moving"
            self._decide("reroll", None, f"A throw landed outside the landing area while {self._n(mover)}'s "
                         f"{'dice are down' if down else 'move is judged'}: it does not count. {self._n(mover)}'s "
                         f"roll {_roll_text(self.t.dice or ())} stands; {self._n(opp)} throws "
                         f"{f'after {self._n(mover)} lifts the dice' if down else 'again'}", cause="outside")
            return
        if self.t.early is not None:
            self._decide("refused", opp, f"{self._n(opp)} already threw; that roll is waiting")
            return
        early = self.state == "moving"
        vals = ev.values
        dice = (vals[0], vals[1]) if len(vals) == 2 and None not in vals else None
        if early and self.settings.early_roll == "void":
            self._act(rec.Reroll(self._pi(opp), "early_roll", dice))  # type: ignore[arg-type]
            self._decide("early_roll", opp, f"Early roll: {self._n(opp)} threw before {self._n(mover)} lifted "
                         f"the dice. The roll is void; {self._n(opp)} throws again after {self._n(mover)}'s turn",
                         rule="void")
            return
        faults = self._landing_faults(ev, opp) if len(ev.dice) == 2 else [("other", "only one die was seen")]
        if faults:  # RULES 9.1: the opponent's own throw landed badly; the opponent throws again
            self._act(rec.Reroll(self._pi(opp), faults[0][0], dice))  # type: ignore[arg-type]
            self._decide("reroll", opp, f"Re-roll: {'; '.join(w for _, w in faults)}. {self._n(opp)} throws "
                         "both dice again", cause=faults[0][0])
            return
        self.t.early, self.t.early_was_early = ev, early
        if early:
            self._decide("early_roll", opp, f"Early roll: {self._n(opp)} threw before {self._n(mover)} lifted "
                         f"the dice. The roll stands; {self._n(mover)} may still change the move, then lifts "
                         "the dice", rule="stands")
        else:
            self._decide("early_roll", opp, f"{self._n(opp)}'s throw waits until {self._n(mover)}'s move "
                         "is judged", rule="waiting")

    def _early_thrower(self, roll: RollSettled, mover: str) -> Optional[str]:
        """Who threw while ``mover``'s dice are down: the mover when every die is on the
        mover's half; the opponent when a die is on the opponent's half (or in the tray:
        the mover's dice are on the board); None when no die says (all outside)."""
        if self.settings.landing == "tray":
            return other(mover)
        zones = {d.zone for d in roll.dice}
        if zones == {self._thrower_zone(mover)}:
            return mover
        if self._thrower_zone(other(mover)) in zones:
            return other(mover)
        return None

    def _h_double_after_roll(self, ev: PlayerInput) -> None:
        if ev.player == self.turn:
            self._decide("refused", ev.player, f"{self._n(ev.player)} cannot double after rolling: "
                         "a double comes before the throw")
        else:
            self._decide("refused", ev.player, f"{self._n(ev.player)} may double only at the start of "
                         f"their own turn, after {self._n(self.turn)} lifts the dice")

    # ------------------------------------------------------------------ judging a move

    def _h_lift(self, ev: DiceLifted) -> None:
        # the last stable reading counts unless a hand has been over the board since
        if not self.fresh or self.reading is None:
            self.state = "waiting_for_board"
            self._wait("no stable reading of the board since the last movement")
            return
        self._judge(self.reading)

    def _h_judge_reading(self, ev: BoardEvidence) -> None:
        self.reading, self.fresh = ev, True
        self._judge(ev)

    def _wait(self, why: str, text: str = "") -> None:
        text = text or f"Waiting for a clear view of the board to check {self._n(self.turn)}'s move: {why}"
        if text != self.t.last_wait:
            self.t.last_wait = text
            self._decide("wait_board", self.turn, text)

    def _judge(self, ev: BoardEvidence) -> None:
        mover = self.turn or "dark"
        cands = self.t.candidates or [self.pos]
        v = match_reading(ev, self.pos, cands, mover, self.settings.min_confidence)
        if v.kind == "match":
            self._play_accepted(v.indices[0])
        elif v.kind == "ambiguous":
            self.t.pending = list(v.indices)
            self.state = "ambiguous"
            opts = [str(self.t.plays[i].play) for i in v.indices]
            self._decide("ambiguous", mover, f"{v.reason}: {' or '.join(opts)}. Fix the checkers so the "
                         "camera sees them, or confirm which was played", choices=opts)
        elif v.kind == "illegal":
            assert v.position is not None
            self._illegal(v.position)
        else:
            self.state = "waiting_for_board"
            self._wait(v.reason, self._hit_not_on_bar(ev, cands) if v.kind == "misread" else "")

    def _hit_not_on_bar(self, ev: BoardEvidence, cands: Sequence[Position]) -> str:
        """RULES 4: a hit checker goes to the bar.  When the reading lacks some of the
        opponent's checkers and putting them on the bar makes it a position the camera can
        judge, the players are told so ("" otherwise: a real misreading)."""
        mover = self.turn or "dark"
        opp = other(mover)
        side = 0 if opp == "dark" else 1
        lay = layout_of(self.pos)
        before = lay.dark if opp == "dark" else lay.light
        short = sum(before) + lay.bar[side] - sum(ev.counts(opp)) - ev.bar[side]
        table = [i + 1 for i in range(24) if before[i] == 1 and ev.points[i].colour == mover]  # blots hit
        if short <= 0 or len(table) < short:
            return ""
        bar = list(ev.bar)
        bar[side] += short
        fixed = replace(ev, bar=(bar[0], bar[1]))
        if match_reading(fixed, self.pos, cands, mover, self.settings.min_confidence).kind not in (
                "match", "ambiguous", "illegal"):
            return ""
        points = sorted((p if mover == "dark" else 25 - p for p in table), reverse=True)
        where = " and ".join(str(p) for p in points)
        what = "checker" if short == 1 else "checkers"
        on = f"the {where} point{'s' if len(points) > 1 else ''}"
        return f"{self._n(mover)} hit {self._n(opp)}'s {what} on {on}: put {'it' if short == 1 else 'them'} on the bar"

    def _play_accepted(self, k: int) -> None:
        mover = self.turn or "dark"
        play = str(self.t.plays[k].play) if self.t.plays else ""
        self._finish_move(mover, rec.Move(self._pi(mover), self.t.dice or (1, 1), play),
                          self.t.candidates[k] if self.t.plays else self.pos,
                          f"{self._n(mover)} plays {_roll_text(self.t.dice or ())}: {play or 'no move'}", play)

    def _finish_move(self, mover: str, action: rec.Action, after: Position, words: str, play: str,
                     kind: str = "move_accepted") -> None:
        self._act(action)
        self.pos = after
        dice = getattr(action, "dice", None)
        self.last_plays.append(f"{self._n(mover)} {''.join(map(str, dice or ()))}: {play or 'no move'}")
        self._decide(kind, mover, words, play=play, dice=dice)
        early = self.t.early
        res = game_result(_to_dark(after, "dark"))
        if res is not None:
            winner = "dark" if res[0] == "on_roll" else "light"
            self._end_game(winner, res[1], "bearoff")
            return
        self.turn = other(mover)
        self.t = _Turn()
        self.state = "waiting_for_roll"
        if early is not None:
            self._throw(early, self.turn)

    def _illegal(self, after: Position) -> None:
        mover = self.turn or "dark"
        opp = other(mover)
        before_m = self.mover_position()
        after_m = after if mover == "dark" else after.swap()
        text, _ = describe_change(before_m, after_m)
        moved = opponent_change(before_m, after_m)
        if self.t.dice is None:
            why = (f"{self._n(mover)} moved {self._n(opp)}'s checkers ({self._n(opp)}'s {moved})" if moved
                   else f"{text or 'the change'}: no roll allows it")
        else:
            why = explain_illegal(before_m, after_m, *self.t.dice, (self._n(mover), self._n(opp)))
        self.t.illegal_after, self.t.illegal_text = after, text
        self.t.illegal_words = ", ".join(w for w in (text, moved and f"{self._n(opp)}'s checkers {moved}") if w)
        if self.t.early is not None and not self.t.early_was_early:
            # RULES 9.3: the opponent threw after the dice were lifted, which accepts the move
            self._decide("illegal_move", mover, f"Illegal: {why}. {self._n(opp)} threw after {self._n(mover)} "
                         "lifted the dice, which accepts the move as played", play=text)
            self._accept_illegal_move()
            return
        self.state = "illegal_move"
        if self.t.dice:
            # RULES 9.4: an early roll lets the mover change the move; it is not the acceptance
            waits = f" ({self._n(opp)}'s early roll is played after)" if self.t.early is not None else ""
            self._decide("illegal_move", mover, f"Illegal: {why}. {self._n(opp)} may accept the move or ask "
                         f"for a legal one{waits}", choices=("accept_move", "demand_legal_move"), play=text)
        else:
            self._decide("illegal_move", mover, f"Illegal: {why}. The roll is unknown, so {self._n(opp)} may "
                         "accept the move as played or call the director", choices=("accept_move", "call_director"),
                         play=text)

    def _accept_illegal_move(self) -> None:
        mover = self.turn or "dark"
        after = self.t.illegal_after
        assert after is not None
        dice = self.t.dice
        assert dice is not None
        stood = after if mover == "light" else after.swap()  # as it stands, the next player on roll
        self._finish_move(mover, rec.IllegalAccepted(self._pi(mover), dice, self.t.illegal_text,
                                                     stood.position_id()), after,
                          f"{self._n(other(mover))} accepts {self._n(mover)}'s move as played: "
                          f"{self.t.illegal_words or 'no change'}", self.t.illegal_text, kind="illegal_accepted")

    def _h_accept_illegal(self, ev: PlayerInput) -> None:
        if self.t.dice is None:  # camera only: the record needs the roll that was thrown
            self.t.pending_rolls = list(ROLLS)
            self.state = "confirm_roll"
            mover = self.turn or "dark"
            self._decide("confirm_roll", mover, f"{self._n(ev.player)} accepts the move. For the record, "
                         f"confirm the roll {self._n(mover)} threw", choices=[_roll_text(r) for r in ROLLS])
            return
        self._accept_illegal_move()

    def _h_roll_accepts_illegal(self, ev: RollSettled) -> None:
        mover = self.turn or "dark"
        thrower = other(mover) if self.settings.landing == "tray" else self._roll_owner(ev, other(mover))
        if thrower == mover:
            self._decide("refused", mover, f"{self._n(mover)} threw, but the choice is "
                         f"{self._n(other(mover))}'s: accept the move or demand a legal one")
            return
        if self.t.early is not None:
            self._early_waits(other(mover))
            return
        self.t.early = ev
        if self.t.dice is None:  # camera only: the roll waits while the mover's roll is confirmed
            self._h_accept_illegal(PlayerInput(other(mover), "accept_move"))
            return
        self._accept_illegal_move()

    def _h_double_accepts_illegal(self, ev: PlayerInput) -> None:
        if self.t.early is not None:
            self._early_waits(ev.player)
            return
        if self.t.dice is None:  # camera only: confirm the mover's roll first, then double again
            self._h_accept_illegal(ev)
            return
        self._accept_illegal_move()
        if self.state == "waiting_for_roll":
            self._handle_inner(ev)

    def _early_waits(self, opp: str) -> None:
        """The opponent threw early (RULES 9.4): that roll is theirs, so no throw or double
        now accepts the move; the choice is still to accept it or to demand a legal one."""
        self._decide("refused", opp, f"{self._n(opp)} already threw early and that roll waits: "
                     f"{self._n(opp)} accepts {self._n(self.turn)}'s move or demands a legal one")

    def _handle_inner(self, ev: Any) -> None:
        """Handle a follow-on trigger inside the current event (e.g. a double that also accepts)."""
        entry = TRANSITIONS[self.state].get(_trigger(ev))
        if entry is None:
            return
        handler, guards = entry
        for g in guards:
            why = getattr(self, f"_g_{g}")(ev)
            if why:
                self._decide("refused", getattr(ev, "player", None), why, guard=g)
                return
        getattr(self, f"_h_{handler}")(ev)

    def _h_demand_legal(self, ev: PlayerInput) -> None:
        mover = self.turn or "dark"
        self._act(rec.Correction(self._pi(mover), self.t.dice or (1, 1), self.t.illegal_text))
        self.state = "correcting"
        self.fresh = False
        self.t.last_wait = ""
        self._decide("correction_demanded", mover, f"{self._n(ev.player)} demands a legal move: "
                     f"{self._n(mover)} plays {_roll_text(self.t.dice or ())} again legally")

    def _h_judge_correction(self, ev: BoardEvidence) -> None:
        self.reading, self.fresh = ev, True
        self._correction(ev, quiet=True)

    def _h_correction_now(self, ev: Any) -> None:
        if self.reading is None or not self.fresh:
            self._decide("wait_board", self.turn, "Waiting for a clear view of the corrected move")
            return
        self._correction(self.reading, quiet=False)

    def _correction(self, ev: BoardEvidence, quiet: bool) -> None:
        mover = self.turn or "dark"
        v = match_reading(ev, self.pos, self.t.candidates or [self.pos], mover, self.settings.min_confidence)
        if v.kind == "match":
            self._play_accepted(v.indices[0])
            return
        if quiet:
            return
        if v.kind == "illegal" and v.position is not None:
            before_m = self.mover_position()
            after_m = v.position if mover == "dark" else v.position.swap()
            why = explain_illegal(before_m, after_m, *(self.t.dice or (1, 1)), (self._n(mover), self._n(other(mover))))
            self._decide("illegal_move", mover, f"Still illegal: {why}. {self._n(mover)} must play a legal move")
        elif v.kind == "ambiguous":
            opts = [str(self.t.plays[i].play) for i in v.indices]
            self._decide("wait_board", mover, f"{v.reason}: {' or '.join(opts)}; fix the checkers so the camera "
                         "sees them")
        else:
            hint = self._hit_not_on_bar(ev, self.t.candidates or [self.pos]) if v.kind == "misread" else ""
            self._decide("wait_board", mover, hint or f"Waiting for a clear view of the corrected move: {v.reason}")

    def _h_pick_play(self, ev: PlayerInput) -> None:
        k = self.t.pending[int(ev.choice or 0)]
        self._play_accepted(k)

    # ------------------------------------------------------------------ camera-only tables

    def _h_lift_before_roll(self, ev: DiceLifted) -> None:
        if not self.settings.dice_reader:
            self._h_camera_turn_end(ev)

    def _h_camera_turn_end(self, ev: Any) -> None:
        mover = self.turn or "dark"
        if self.reading is None or not self.fresh:
            self._decide("wait_board", mover, "Waiting for a clear view of the board to read the move")
            return
        before_m = self.mover_position()
        by_pos: dict[Position, list[tuple[int, int]]] = {}
        for r in ROLLS:
            plays = legal_plays(before_m, *r)
            res = [lp.result for lp in plays] or [before_m.swap()]
            for p in res:
                by_pos.setdefault(_to_dark(p, other(mover)), []).append(r)
        cands = list(by_pos)
        v = match_reading(self.reading, self.pos, cands, mover, self.settings.min_confidence)
        if v.kind == "match":
            after = cands[v.indices[0]]
            rolls = by_pos[after]
            self.t = _Turn(inferred_after=after)
            if len(rolls) == 1:
                self._inferred(rolls[0])
            else:
                self.t.pending_rolls = rolls
                self.state = "confirm_roll"
                self._decide("confirm_roll", mover, f"Several rolls explain {self._n(mover)}'s move: "
                             f"{', '.join(_roll_text(r) for r in rolls)}. Confirm the roll thrown",
                             choices=[_roll_text(r) for r in rolls])
        elif v.kind == "illegal" and v.position is not None:
            self.t = _Turn()
            self._illegal(v.position)
        elif v.kind == "ambiguous":
            self._decide("wait_board", mover, "Several moves fit the reading; fix the checkers so the camera "
                         "sees them, then confirm again")
        else:
            self._decide("wait_board", mover, f"Waiting for a clear view of the board: {v.reason}")

    def _inferred(self, dice: tuple[int, int]) -> None:
        mover = self.turn or "dark"
        after = self.t.inferred_after
        assert after is not None
        before_m = self.mover_position()
        plays = legal_plays(before_m, *dice)
        target = after if mover == "light" else after.swap()  # with the opponent on roll
        play = next((str(lp.play) for lp in plays if lp.result == target), "")
        self._decide("roll_inferred", mover, f"{self._n(mover)}'s roll was {_roll_text(dice)}", dice=dice)
        self.t.dice = dice
        self._act(rec.Roll(self._pi(mover), dice))
        self._finish_move(mover, rec.Move(self._pi(mover), dice, play), after,
                          f"{self._n(mover)} plays {_roll_text(dice)}: {play or 'no move'}", play)

    def _h_pick_roll(self, ev: PlayerInput) -> None:
        dice = self.t.pending_rolls[int(ev.choice or 0)]
        if self.t.illegal_after is not None:  # an accepted illegal move on a camera-only table
            self.t.dice = dice
            self._act(rec.Roll(self._pi(self.turn or "dark"), dice))
            self._accept_illegal_move()
            return
        self._inferred(dice)

    # ------------------------------------------------------------------ the cube

    def _h_double(self, ev: PlayerInput) -> None:
        if self.chouette is not None:
            self.chouette.double(self, ev)
            return
        self.cube = self.cube.offer(ev.player)
        self.state = "double_offered"
        self._act(rec.Double(self._pi(ev.player), self.cube.offered_value or 2))
        choices = ("take", "pass", "beaver") if (self.settings.money and self.settings.beavers) else ("take", "pass")
        self._decide("double", ev.player, f"{self._n(ev.player)} doubles to {self.cube.offered_value}: "
                     f"{self._n(other(ev.player))} takes or passes", choices=choices,
                     value=self.cube.offered_value)

    def _h_take(self, ev: PlayerInput) -> None:
        if self.chouette is not None:
            self.chouette.answer(self, ev, take=True)
            return
        beaver = self.cube.beavered
        self.cube = self.cube.take()
        self._act(rec.Take(self._pi(ev.player)))
        self.state = "waiting_for_roll"
        self._decide("take", ev.player, f"{self._n(ev.player)} takes: the cube is at {self.cube.value}, "
                     f"{self._n(self.cube.owner)} owns it{' (beaver)' if beaver else ''}; "
                     f"{self._n(self.turn)} throws", value=self.cube.value)

    def _h_pass_(self, ev: PlayerInput) -> None:
        if self.chouette is not None:
            self.chouette.answer(self, ev, take=False)
            return
        value = self.cube.pass_value()
        doubler = other(ev.player)
        self._act(rec.Pass(self._pi(ev.player)))
        self._decide("pass", ev.player, f"{self._n(ev.player)} passes: {self._n(doubler)} wins {value} "
                     f"point{'s' if value > 1 else ''}", points=value)
        self.cube = replace(self.cube, offered_by=None, offered_value=None)
        self._end_game(doubler, GameKind.SINGLE, "pass", points=value)

    def _h_beaver(self, ev: PlayerInput) -> None:
        self.cube = self.cube.beaver()
        self._act(rec.Beaver(self._pi(ev.player), self.cube.offered_value or 4))
        self._decide("beaver", ev.player, f"{self._n(ev.player)} beavers: the cube is at {self.cube.offered_value}, "
                     f"{self._n(ev.player)} keeps it; {self._n(other(ev.player))} takes or passes",
                     choices=("take", "pass"), value=self.cube.offered_value)

    # ------------------------------------------------------------------ resignations and the end

    def _h_resign(self, ev: PlayerInput) -> None:
        kind = RESIGN_KINDS[ev.action]
        self.resigner, self.resign_kind, self.resign_return = ev.player, kind, self.state
        self.state = "resignation_offered"
        self._act(rec.Resign(self._pi(ev.player), kind))
        self._decide("resign_offered", ev.player, f"{self._n(ev.player)} offers to resign "
                     f"{str(GameKind(kind))}: {self._n(other(ev.player))} accepts or rejects",
                     choices=("accept_resignation", "reject_resignation"), resign=kind)

    def _h_accept_resignation(self, ev: PlayerInput) -> None:
        self._act(rec.AcceptResign(self._pi(ev.player)))
        self._decide("resign_accepted", ev.player, f"{self._n(ev.player)} accepts the resignation")
        self._end_game(ev.player, GameKind(self.resign_kind), "resign")

    def _h_reject_resignation(self, ev: PlayerInput) -> None:
        self._act(rec.RejectResign(self._pi(ev.player)))
        self.state = self.resign_return
        self._decide("resign_rejected", ev.player, f"{self._n(ev.player)} rejects the resignation: play on")

    def _end_game(self, winner: str, kind: GameKind, reason: str, points: Optional[int] = None) -> None:
        s = self.settings
        if self.chouette is not None:
            pts = points if points is not None else points_won(kind, self.cube.value)
            self._act(rec.GameEnd(self._pi(winner), pts, int(kind), reason))
            self.games.append(self._game_record())
            self.chouette.end_game(self, winner, kind, reason)
            self.state = "game_over"
            return
        if points is None:
            points = points_won(kind, self.cube.value, jacoby=s.money and s.jacoby, cube_turned=self.cube.turned)
        self._act(rec.GameEnd(self._pi(winner), points, int(kind), reason))
        self.games.append(self._game_record())
        self.score = self.score.after_game(winner, points)
        word = {"bearoff": {1: "a single game", 2: "a gammon", 3: "a backgammon"}[int(kind)],
                "resign": f"by resignation ({kind})", "pass": "on a pass"}[reason]
        self.state = "game_over"
        self.turn = None
        self._decide("game_over", winner, f"{self._n(winner)} wins {word}: {points} point{'s' if points > 1 else ''}. "
                     f"Score: {self.score.text((self.names['dark'], self.names['light']))}",
                     points=points, result=int(kind), end=reason, score=self.score.points)
        w = self.score.winner
        if w is not None:
            self.state = "match_over"
            a, b = self.score.points
            self._decide("match_over", w, f"{self._n(w)} wins the match {max(a, b)}-{min(a, b)}",
                         score=self.score.points)
        elif self.score.crawford_game:
            self._decide("game_over", None, "The next game is the Crawford game: no doubling")
