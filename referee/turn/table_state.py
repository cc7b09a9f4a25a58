"""What the referee remembers of the table: the position, the turn, the cube, the score, the
game's number, and the facts of the turn under way; with the few helpers every phase uses
(say a decision, record an action, name a player) and :meth:`TableState.enter`, the one
place the machine's state changes.

The referee keeps no record: it emits record entries (:meth:`TableState.act`; the match's
start when it is made, each game's start before the game's first action) and one fold,
:mod:`referee.records.builder`, makes the record of them (the journal's, or a test's).

The phases of a turn (:mod:`referee.turn.opening`, ``rolling``, ``judging``,
``correcting``, ``camera_only``, ``cube``, ``ending``, ``quiet``) are functions of a
``TableState`` and an event; :mod:`referee.turn.transitions` declares which runs when.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from referee.decisions import Decision
from referee.events import BoardEvidence, DiceSeen, PlayerInput, RollSettled
from referee.records import actions as rec
from referee.records.builder import GameStart, MatchStart, RecordEntry
from referee.records.record import RuleSettings
from referee.rules.cube import Cube
from referee.rules.match import Score
from referee.rules.moves import LegalPlay
from referee.rules.scoring import GameKind, points_won
from referee.rules.position import Position
from referee.settings import Settings
from referee.turn.machine import DeclarationError, Transition, trigger_of
from referee.colour import COLOURS
from referee.turn.states import State

if TYPE_CHECKING:  # pragma: no cover
    from referee.turn.cube import CubePolicy



def to_dark(pos: Position, on_roll: str) -> Position:
    """A position given with ``on_roll`` on roll, as Dark on roll."""
    return pos if on_roll == "dark" else pos.swap()


def roll_text(dice: Sequence[int]) -> str:
    """A roll as players say it: ``6-4``."""
    return "-".join(str(d) for d in dice)


def rule_settings(settings: Settings) -> RuleSettings:
    """The optional rules a match record carries, from the referee's settings (the one place)."""
    s = settings
    return RuleSettings(crawford=s.crawford, jacoby=s.jacoby, beavers=s.beavers,
                        automatic_doubles=s.automatic_doubles, cube_limit=s.cube_limit,
                        early_roll=s.early_roll, landing=s.landing)


@dataclass(frozen=True)
class Setup:
    """A director's set-up (:meth:`Referee.setup`) among the inputs: position (Dark on roll)
    and the player to throw."""

    position_id: str
    turn: str
    kind: str = field(default="setup", init=False)


@dataclass
class TurnFacts:
    """The current turn's facts (reset when the turn passes)."""

    dice: Optional[tuple[int, int]] = None
    plays: Sequence[LegalPlay] = field(default_factory=list)
    candidates: list[Position] = field(default_factory=list)  # dark perspective, parallel to plays
    pending: list[int] = field(default_factory=list)  # ambiguous candidates offered
    pending_rolls: list[tuple[int, int]] = field(default_factory=list)
    inferred_after: Optional[Position] = None
    illegal_after: Optional[Position] = None  # dark perspective
    held_illegal: Optional[Position] = None  # an illegal board read at the lift, till the board without the dice
    illegal_text: str = ""  # the mover's own checkers' change, as a play (the record's text)
    illegal_words: str = ""  # the whole change in words (the opponent's checkers too)
    early: Optional[RollSettled] = None  # the opponent's roll waiting to be played
    early_was_early: bool = False
    last_wait: str = ""
    unseen: str = ""  # the report of checkers moved with no roll seen (RULES 10), while it stands


_EVENT_WORDS = {"roll_settled": "A throw of the dice", "dice_lifted": "Lifting the dice",
                "board": "A board reading", "reader_fault": "A dice reader fault", "camera": "A camera report",
                "roll_started": "A throw", "hand_over_board": "A hand over the board",
                "dice_seen": "The camera's view of the dice"}


class TableState:
    """The referee's memory of one table (the phases read and change it)."""

    cube_policy: "CubePolicy"
    chouette: Any

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
        self._state = State.OPENING_ROLL
        self.allowed: Optional[Transition] = None  # the transition running, whose targets may be entered
        self.resume_state = State.OPENING_ROLL
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
        self.t = TurnFacts()
        self.reading: Optional[BoardEvidence] = None
        self.fresh = False
        #: with a dice reader (:mod:`referee.turn.crosscheck`): the camera's latest view of the throw
        #: under way, kept until the reader's throw checks it; and whether the reader's last throw
        #: is still down on the board (its views are checked at once)
        self.camera_dice: Optional[DiceSeen] = None
        self.reader_dice_down = False
        self.resigner: Optional[str] = None
        self.resign_kind = 1
        self.resign_return = State.WAITING_FOR_ROLL
        self.last_plays: list[str] = []
        #: the director's orders to learn the board as it stands, so far (the table's camera carries
        #: out each new one: :func:`referee.turn.director.learn_board`)
        self.board_lessons = 0
        self.message = "Opening roll: each player throws one die"
        self.choices: tuple[str, ...] = ()
        s = self.settings
        #: record entries emitted and not yet taken (:meth:`Referee.new_record_actions`)
        self.new_actions: list[RecordEntry] = [MatchStart((s.names[0], s.names[1]), s.match_to, rule_settings(s))]
        self.recorded = 0       # the actions recorded so far (the simulated table's sign of progress)
        #: the game under way's actions: what the director's undo may take back (the record
        #: itself is built once, by :mod:`referee.records.builder`, from ``new_actions``)
        self.actions: list[rec.Action] = []
        self.recorded_game = 0  # the game whose start is recorded (before its first action)
        self.out: list[Decision] = []
        self.follow_on: Callable[[Any], None] = lambda ev: None  # handles a follow-on trigger (set by Referee)

    # ------------------------------------------------------------------ the state

    @property
    def state(self) -> State:
        """Where the turn stands (a :class:`State`, equal to its name as a string)."""
        return self._state

    def enter(self, target: str) -> None:
        """Move to ``target``: the one place the state changes.  Inside a transition only to
        one of the targets it declares (else DeclarationError naming both)."""
        st = State(target)
        tr = self.allowed
        if tr is not None and st not in tr.targets:
            raise DeclarationError(f"{tr.handler.__name__} (on {tr.trigger!r} in {self._state.value!r}) entered "
                                   f"{st.value!r}, which its transition does not declare: add it to the targets")
        self._state = st

    @contextmanager
    def running(self, tr: Transition) -> Iterator[None]:
        """While ``tr``'s handler runs, :meth:`enter` accepts only its targets."""
        before, self.allowed = self.allowed, tr
        try:
            yield
        finally:
            self.allowed = before

    # ------------------------------------------------------------------ helpers of every phase

    def decide(self, kind: str, player: Optional[str], reason: str, choices: Sequence[str] = (),
               **data: Any) -> Decision:
        """Say a decision (collected for the event being handled)."""
        d = Decision(kind, player, reason, tuple(choices), tuple(data.items()), self.clock())
        self.out.append(d)
        return d

    def act(self, action: rec.Action) -> None:
        """Record an action of the game under way (the game's start first, before its first action)."""
        if self.recorded_game != self.game:
            self.new_actions.append(GameStart(self.game, self.score.points, self.score.crawford_game))
            self.recorded_game = self.game
        self.actions.append(action)
        self.new_actions.append(action)
        self.recorded += 1

    def board_points(self, kind: GameKind) -> int:
        """The board game's points: the table's cube times single, gammon or backgammon, and a
        single game under Jacoby in money play while the cube was never turned."""
        s = self.settings
        return points_won(kind, self.cube.value, jacoby=s.money and s.jacoby, cube_turned=self.cube.turned)

    def close_game(self, winner: str, points: int, kind: int, reason: str) -> None:
        """Record the end of the game."""
        self.act(rec.GameEnd(self.pi(winner), points, kind, reason))

    def event_words(self, event: Any) -> str:
        """An event as a player would name it."""
        if isinstance(event, PlayerInput):
            return f"{self.names[event.player]}'s {event.action.replace('_', ' ')}"
        return _EVENT_WORDS.get(trigger_of(event), trigger_of(event))

    @staticmethod
    def pi(colour: str) -> int:
        """A colour's player index in the record (0 dark, 1 light)."""
        return COLOURS.index(colour)

    def n(self, colour: Optional[str]) -> str:
        """A colour's player name ("?" for nobody)."""
        return self.names[colour] if colour else "?"

    def mover_position(self) -> Position:
        """The position with the player on turn on roll (Dark when nobody is on turn)."""
        return self.pos.swap() if self.turn == "light" else self.pos
