"""The simulated table: two simulated players at a table of simulated devices.

:class:`SimulatedTable` runs a whole match through the real table core
(:class:`~referee.table.process.TableCore`: journal, referee, outputs).  At each step
the players look at the referee's state and act at the table -- throw the dice,
move checkers (the camera sees a hand, then the new board), lift the dice, press
buttons -- and the devices' events go to the referee one at a time.

Determinism: every choice a player makes comes from ``Random((seed, n))`` where
``n`` counts the referee's decisions so far.  Decisions are a function of the
journaled input events, so a run resumed from its journal after ``kill -9`` makes
the same choices from the same point and ends with the same record.

A match ends when a player reaches its length; a money or chouette session after
``games`` games.  On a table without a dice reader (``Settings.dice_reader`` False, the
dice seen by :class:`~referee.table.simdevices.CameraDice`) a throw the camera did not
read is played anyway and the mover confirms the move, so the roll is inferred from it;
when several rolls explain it the players confirm the roll they threw.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence

from referee.board import for_side
from referee.colour import Colour, other
from referee.decisions import Decision
from referee.rules.cube import double_refusal
from referee.events import PlayerInput
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.turn.referee import Referee
from referee.table.process import TableCore
from referee.table.simdevices import SimError

ZONE = {"dark": "right", "light": "left"}


@dataclass(frozen=True)
class Rates:
    """How often the simulated players do each thing (per opportunity)."""

    double: float = 0.08
    take: float = 0.7
    illegal: float = 0.05
    accept_illegal: float = 0.5
    cocked: float = 0.04
    outside: float = 0.03
    on_checker: float = 0.02
    early_roll: float = 0.03
    director: float = 0.0
    beaver: float = 0.3  # (only where beavers are played)
    #: when the roll can be played with and without hitting, how often the player keeps to the plays
    #: that do not hit (else it picks among all the legal plays at random, as it always does at 0: a
    #: random player hits about one turn in three and its games last 80 to 300 throws; at 0.8 they
    #: last 40 to 90, near a club game's)
    careful: float = 0.0


@dataclass
class Stats:
    """What a simulated run did: steps, boards the director read, and how often each decision came."""

    steps: int = 0
    director_readings: int = 0
    decisions: dict[str, int] = field(default_factory=dict)

    def count(self, decisions: Sequence[Decision]) -> None:
        """Count each decision by its kind."""
        for d in decisions:
            self.decisions[d.kind] = self.decisions.get(d.kind, 0) + 1


class SimulatedTable:
    """Simulated players acting on simulated devices, refereed by the real table core."""

    def __init__(self, core: TableCore, dice: Any, camera: Any, buttons: Any, *, seed: int = 0,
                 rates: Rates = Rates(), progress: Optional[Callable[[str], None]] = None,
                 max_steps: int = 20000, director_camera: Any = None,
                 pause_wait: Callable[[], None] = lambda: time.sleep(0.05),
                 games: Optional[int] = None) -> None:
        self.core = core
        self.dice = dice
        self.camera = camera
        self.buttons = buttons
        self.seed = seed
        self.rates = rates
        self.progress = progress
        self.max_steps = max_steps
        self.director_camera = director_camera  # board readings the director enters by hand
        self.pause_wait = pause_wait  # while play is paused (a full disk): how the players wait before a retry
        self.games = games  # a money or chouette session ends after this many games
        self.stats = Stats()
        self._thrown: Optional[tuple[int, int]] = None  # the dice the mover threw (camera-only tables)
        ref = core.referee
        # the physical board starts as the referee believes it (a resumed journal included)
        self.board: Position = ref.pos
        self._stall = 0
        self._last_games = -1
        self._told: Optional[Position] = None  # the last position the camera was told the board shows

    # ------------------------------------------------------------------ plumbing

    @property
    def referee(self) -> Referee:
        """The referee inside the table core."""
        return self.core.referee

    def feed(self, events: Sequence[Any]) -> list[Decision]:
        """Hand each event to the table core (waiting while the journal cannot be written); the decisions."""
        out: list[Decision] = []
        for e in events:
            ds = self.core.handle(e)
            self.stats.count(ds)
            out += ds
            while self.core.paused is not None:  # the journal cannot be written: the players wait
                self.pause_wait()
                ds = self.core.retry()
                self.stats.count(ds)
                out += ds
            self._tell_camera()
        return out

    def _tell_camera(self) -> None:
        """When the referee's position changed, tell the camera the board shows it (the camera
        learns the board's look from known positions: vision.memory)."""
        known = getattr(self.camera, "known", None)
        if known is not None and self._told != self.referee.pos:
            self._told = self.referee.pos
            known(self._told)

    def rng(self) -> random.Random:
        """The random source of the players' next choice, fixed by the seed and the decisions so far."""
        return random.Random(f"{self.seed}/{self.core.decisions}/{self._stall}")

    def look(self, hand: bool = False) -> list[Decision]:
        """The camera looks at the board (``hand``: a hand over it); the decisions its events cause."""
        return self.feed(self.camera.show(self.board, hand))

    # ------------------------------------------------------------------ the match

    @property
    def finished(self) -> bool:
        """The match is over, or the session has played its ``games``."""
        if self.core.match_over:
            return True
        return (self.games is not None and self.referee.state == "game_over"
                and self.referee.score.games >= self.games)

    def run(self) -> Stats:
        """Play until the match is over, the session has played its ``games`` (or ``max_steps``)."""
        if self.games is None and self.referee.settings.money:
            raise SimError("a money session never ends by itself: give SimulatedTable(games=N)")
        self.look()
        while not self.finished:
            if self.stats.steps >= self.max_steps:
                raise SimError(f"the simulated match did not finish in {self.max_steps} steps "
                               f"(referee state {self.referee.state!r})")
            before = self._progress()
            self.step()
            self.stats.steps += 1
            self._stall = self._stall + 1 if self._progress() == before else 0
            if self._stall > 20:
                raise SimError(f"the simulated table is stuck in state {self.referee.state!r}: "
                               f"{self.referee.message}")
            self._report()
        return self.stats

    def _progress(self) -> tuple[Any, ...]:
        """What changes when play moves on: the state, the position, the record."""
        ref = self.referee
        return ref.state, ref.pos, ref.game, ref.recorded, ref.turn

    def _director_reads(self) -> bool:
        """After two steps without progress the director reads the board by hand (the
        camera cannot count it, e.g. a stack taller than it can see)."""
        if self._stall >= 2 and self.director_camera is not None:
            self.stats.director_readings += 1
            self.feed(self.director_camera.show(self.board, True))
            self.feed(self.director_camera.show(self.board, False))
            return True
        return False

    def _report(self) -> None:
        games = self.referee.score.games
        if self.progress and games != self._last_games:
            self._last_games = games
            v = self.referee.view()
            self.progress(f"game {v.game}, score {v.names[0]} {v.score[0]} - {v.score[1]} {v.names[1]}")

    def step(self) -> None:
        """One thing the players do, chosen from the referee's state."""
        ref = self.referee
        rng = self.rng()
        state = ref.state
        if state in ("opening_roll", "game_over"):
            if state == "game_over" or self.board != Position.start():
                self.board = Position.start()  # set up the checkers for the next game
                self.look(hand=True)
                self.look()
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            self.feed(self.dice.throw([a, b], ["right", "left"], [False, False], [False, False]))
        elif state in ("waiting_for_roll", "reroll"):
            self._before_roll(rng)
        elif state == "double_offered":
            self._answer_double(rng)
        elif state == "moving":
            self._move(rng)
        elif state in ("waiting_for_board", "ambiguous"):
            # take the hands away and let the camera see the board again; when the camera
            # still cannot read it (a stack taller than it can count), the director looks
            # and enters the board, as a human director would
            if not self._director_reads():
                self.look(hand=True)
                self.look()
            if ref.state == "ambiguous":
                self.feed([PlayerInput(ref.turn or "dark", "confirm", choice=0)])
        elif state == "illegal_move":
            judge = other(ref.turn or "dark")
            action = "accept_move" if rng.random() < self.rates.accept_illegal else "demand_legal_move"
            if ref.t.dice is None:  # the roll is unknown (no dice reader): a legal move cannot be demanded
                action = "accept_move"
            self.feed(self.buttons.press(judge, action))
        elif state == "correcting":
            self._correct(rng)
        elif state == "resignation_offered":
            self.feed([PlayerInput(other(ref.resigner or "dark"), "accept_resignation")])
        elif state == "director":
            self.feed(self.buttons.press(ref.turn or "dark", "call_director"))
        elif state == "confirm_roll":
            self.feed([PlayerInput(ref.turn or "dark", "confirm", choice=self._thrown_choice())])
        else:
            raise SimError(f"the simulated players do not know what to do in state {state!r}")

    # ------------------------------------------------------------------ the cube

    def _answer_double(self, rng: random.Random) -> None:
        """The player the double is for takes, passes or (where beavers are played) beavers; in a
        chouette each team member answers the box's double in turn (``choice`` = place in the team)."""
        ref = self.referee
        ch = ref.chouette
        if ch is not None:
            action = "take" if rng.random() < self.rates.take else "pass"
            if ch.offer is not None and ch.offer[0] == "box" and ch.pending:
                member = ch.team.index(ch.pending[0])
                self.feed([PlayerInput(ch.team_colour, action, choice=member)])
            else:
                self.feed(self.buttons.press(ch.box_colour, action))
            return
        cube = ref.cube
        responder = other(cube.offered_by) if cube.offered_by else other(ref.turn or "dark")
        action = "take" if rng.random() < self.rates.take else "pass"
        if (action == "take" and ref.settings.beavers and not cube.beavered
                and rng.random() < self.rates.beaver):
            self.feed(self.press(responder, "beaver"))
            return
        self.feed(self.buttons.press(responder, action))

    def press(self, colour: str, action: str) -> list[Any]:
        """The button for ``action`` when the table has one, else the player's input as the screen
        takes it (the example layout has no beaver or confirm button)."""
        try:
            pressed: list[Any] = self.buttons.press(colour, action)
            return pressed
        except SimError:
            return [PlayerInput(colour, action)]

    # ------------------------------------------------------------------ turns

    def _can_double(self, colour: str) -> bool:
        """The cube rules allow it (the referee's own check), and in a match the cube is not
        already dead for this player."""
        ref = self.referee
        if ref.state != "waiting_for_roll":
            return False
        if ref.chouette is not None:
            return ref.chouette.double_refusal(ref, PlayerInput(colour, "double")) is None
        if double_refusal(ref.cube, colour, money=ref.settings.money, crawford_game=ref.score.crawford_game,
                          cube_limit=ref.settings.cube_limit, names=ref.names):
            return False
        n = ref.settings.match_to
        if n:
            needs = n - ref.score.points[Colour.parse(colour).number]
            return ref.cube.value < needs
        return ref.cube.value < 16

    def _throw_for(self, colour: str, rng: random.Random, early: bool = False) -> list[Decision]:
        r = self.rates
        pick_up = getattr(self.dice, "pick_up", None)
        if pick_up is not None and not early:
            pick_up()  # the dice lying on the board (a re-rolled throw) are picked up first
        dice = [rng.randint(1, 6), rng.randint(1, 6)]
        zones = [ZONE[colour], ZONE[colour]]
        cocked = [False, False]
        on_checker = [False, False]
        x = rng.random()
        i = rng.randrange(2)
        if x < r.cocked:
            cocked[i] = True
        elif x < r.cocked + r.outside:
            zones[i] = "outside"
        elif x < r.cocked + r.outside + r.on_checker:
            on_checker[i] = True
        self._thrown = (dice[0], dice[1]) if zones == [ZONE[colour]] * 2 and not any(on_checker) else None
        return self.feed(self.dice.throw(dice, zones, cocked, on_checker))

    def _before_roll(self, rng: random.Random) -> None:
        ref = self.referee
        mover = ref.turn or "dark"
        if self._can_double(mover) and rng.random() < self.rates.double:
            self.feed(self.buttons.press(mover, "double"))
            return
        if self.rates.director and rng.random() < self.rates.director:
            self.feed(self.buttons.press(mover, "call_director"))
            return
        self._throw_for(mover, rng)
        if not ref.settings.dice_reader and ref.state in ("waiting_for_roll", "reroll") and self._thrown:
            self._move_unseen(mover, self._thrown, rng)

    def _move_unseen(self, mover: str, dice: tuple[int, int], rng: random.Random) -> None:
        """A camera-only table whose camera could not read the throw: the mover plays the roll
        thrown and confirms the move; the referee infers the roll from it."""
        me_first = self.referee.pos if mover == "dark" else self.referee.pos.swap()
        plays = legal_plays(me_first, *dice)
        after = self._choose(plays, rng).result if plays else me_first.swap()
        self.board = after.swap() if mover == "dark" else after
        self.look(hand=True)
        self.look()
        self.feed(self.press(mover, "confirm"))

    def _thrown_choice(self) -> int:
        """The index of the roll the mover threw among the rolls offered to confirm (0 if absent)."""
        if self._thrown is not None:
            want = sorted(self._thrown)
            for i, text in enumerate(self.referee.choices):
                if sorted(int(x) for x in text.split("-") if x.isascii() and x.isdigit()) == want:
                    return i
        return 0

    def _move(self, rng: random.Random) -> None:
        ref = self.referee
        mover = ref.turn or "dark"
        dice = ref.t.dice
        before = ref.pos  # Dark on roll
        me_first = for_side(before, mover)
        plays = legal_plays(me_first, *dice) if dice else []
        after: Optional[Position] = None
        if plays and dice and rng.random() < self.rates.illegal:
            after = self._illegal_result(me_first, dice, rng)
        if after is None and plays:
            after = self._choose(plays, rng).result  # opponent on roll
        if after is not None:
            dark_first = for_side(after, other(mover))
            self.board = dark_first
            self.look(hand=True)
            self.look()
        if rng.random() < self.rates.early_roll:
            self._throw_for(other(mover), rng, early=True)
        self.feed(self.dice.lift())

    def _choose(self, plays: Sequence[Any], rng: random.Random) -> Any:
        """The play the mover makes: one at random, at ``Rates.careful`` one that does not hit."""
        if self.rates.careful > 0:  # (at 0 no draw: the same choices as ever for a seed)
            quiet = [lp for lp in plays if "*" not in str(lp.play)]
            if quiet and len(quiet) < len(plays) and rng.random() < self.rates.careful:
                return rng.choice(quiet)
        return rng.choice(plays)

    @staticmethod
    def _illegal_result(pos: Position, dice: Sequence[int], rng: random.Random) -> Optional[Position]:
        """A result some other roll allows but this one does not (a classic misplay)."""
        legal = {lp.result for lp in legal_plays(pos, *dice)}
        rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1) if {a, b} != set(dice)]
        rng.shuffle(rolls)
        for a, b in rolls[:6]:
            wrong = [lp.result for lp in legal_plays(pos, a, b) if lp.result not in legal]
            if wrong:
                return rng.choice(wrong)
        return None

    def _correct(self, rng: random.Random) -> None:
        ref = self.referee
        mover = ref.turn or "dark"
        before = ref.pos
        me_first = for_side(before, mover)
        plays = legal_plays(me_first, *ref.t.dice) if ref.t.dice else []
        after = rng.choice(plays).result if plays else me_first.swap()
        self.board = for_side(after, other(mover))
        if not self._director_reads():
            self.look(hand=True)
            self.look()
        if ref.state == "correcting":
            # the lift has the reading judged; a camera that saw no dice on the board: confirm
            if not self.feed(self.dice.lift()) and ref.state == "correcting" and not ref.settings.dice_reader:
                self.feed(self.press(mover, "confirm"))
