"""Event streams for the referee: what a table's devices would report for a game.

Used by the simulated table, the tests and ``bench/referee.py``:

* :func:`throw`, :func:`opening_throw`, :func:`reading` -- single input events;
* :func:`real_match_streams` -- the games of ``tests/data/matches/plays.jsonl.gz``
  (one row per action of real matches) as input events, with the recorded results;
* :func:`random_game` -- a random legal game (the rules engine picks the plays) as
  input events with the actions a faithful record must contain.

Conventions are those of :mod:`referee.turn.referee`: Dark's throws land in zone
``"right"``, Light's in ``"left"``; table numbering is Dark's.
"""
from __future__ import annotations

import gzip
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

from referee.board import for_side, reading_of
from referee.colour import DARK, LIGHT, other
from referee.events import BoardEvidence, DiceLifted, DieReading, PlayerInput, RollSettled
from referee.records.builder import RecordBuilder
from referee.records.record import MatchRecord
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.rules.scoring import game_result

ZONE = {"dark": "right", "light": "left"}


def throw(dice: Sequence[Optional[int]], thrower: str, *, tray: bool = False, cocked: int = -1,
          on_checker: int = -1, zone: Optional[str] = None, roll_id: int = 0, t: float = 0.0) -> RollSettled:
    """A throw by ``thrower``: both dice in the thrower's right-hand half (or the tray);
    ``cocked``/``on_checker`` name a die index with that fault; ``zone`` overrides."""
    z = "tray" if tray else (zone or ZONE[thrower])
    sign = 1 if thrower == "dark" else -1
    dice_ev = tuple(DieReading(v, flat=(i != cocked), zone=z, on_checker=(i == on_checker),
                               x=sign * (60.0 + 40 * i), y=10.0 * i) for i, v in enumerate(dice))
    return RollSettled(dice_ev, roll_id=roll_id, t=t)


def opening_throw(dark: Optional[int], light: Optional[int], *, tray: bool = False, roll_id: int = 0,
                  t: float = 0.0) -> RollSettled:
    """Both opening dice in one event: Dark's in zone ``right``, Light's in ``left``."""
    return RollSettled((DieReading(dark, zone="tray" if tray else "right", x=80.0),
                        DieReading(light, zone="tray" if tray else "left", x=-80.0)), roll_id=roll_id, t=t)


def reading(pos_dark: Position, *, show_off: bool = True, t: float = 0.0) -> BoardEvidence:
    """A perfect stable board reading of a position given with Dark on roll."""
    return reading_of(pos_dark, show_off=show_off, t=t)


def as_dark(pos: Position, on_roll: str) -> Position:
    """A position given with ``on_roll`` on roll, as Dark sees it (:func:`referee.board.for_side`)."""
    return for_side(pos, on_roll)


# ---------------------------------------------------------------------------- real matches


@dataclass
class GameStream:
    """One real game as input events, with what the record says happened."""

    file: str
    game: int
    match_length: int
    score_before: tuple[int, int]  # (dark = X, light = O)
    crawford: bool
    events: list[Any] = field(default_factory=list)
    winner: Optional[str] = None
    points: int = 0
    # (event index, position ID with the mover on roll) to check the referee's position
    checks: list[tuple[int, str]] = field(default_factory=list)


def _colour(xo: str) -> str:
    return DARK if xo == "X" else LIGHT


def real_match_streams(path: Path, files: Optional[set[str]] = None) -> dict[str, list[GameStream]]:
    """The games of ``plays.jsonl.gz`` as event streams, per file, in order.

    X plays Dark, O plays Light.  Each move becomes a throw (the opening: one die each),
    a perfect reading of the position after the play and a lift; cube actions and
    resignations become player inputs (a resignation's kind is its points over the cube).
    """
    out: dict[str, list[GameStream]] = {}
    first = True
    with gzip.open(path, "rt") as fh:
        for line in fh:
            r = json.loads(line)
            if files is not None and r["file"] not in files:
                continue
            games = out.setdefault(r["file"], [])
            if not games or games[-1].game != r["game"]:
                sx = r.get("score_XO", [0, 0])
                games.append(GameStream(r["file"], r["game"], r.get("match_length") or 0, (sx[0], sx[1]),
                                        bool(r.get("crawford_game"))))
                first = True
            g = games[-1]
            act = r["action"]
            if act == "game_end":
                g.winner, g.points = _colour(r["winner"]), r["points_won"]
                continue
            who = _colour(r["player"])
            if act == "move":
                d1, d2 = r["dice"]
                if first:
                    hi, lo = max(d1, d2), min(d1, d2)
                    g.events.append(opening_throw(hi if who == "dark" else lo, lo if who == "dark" else hi))
                else:
                    g.events.append(throw((d1, d2), who))
                first = False
                g.checks.append((len(g.events) - 1, r["position_id"]))
                after = Position.from_position_id(r["played_position_id"])  # the mover on roll
                g.events.append(reading(as_dark(after, who)))
                g.events.append(DiceLifted())
            elif act == "set":
                g.events.append(throw(tuple(r["dice"]), who))
                first = False
            elif act == "double":
                g.events.append(PlayerInput(who, "double"))
            elif act == "take":
                g.events.append(PlayerInput(who, "take"))
            elif act == "drop":
                g.events.append(PlayerInput(who, "pass"))
            elif act == "resign":
                g.events.append(("resign", who))  # completed below, once the points are known
    for games in out.values():
        for g in games:
            cube = 1
            evs: list[Any] = []
            for ev in g.events:
                if isinstance(ev, PlayerInput) and ev.action == "take":
                    cube *= 2
                if isinstance(ev, tuple):
                    kind = max(1, min(3, g.points // cube))
                    name = {1: "resign_single", 2: "resign_gammon", 3: "resign_backgammon"}[kind]
                    evs.append(PlayerInput(ev[1], name))
                    evs.append(PlayerInput(other(ev[1]), "accept_resignation"))
                else:
                    evs.append(ev)
            g.events = evs
    return out


# ---------------------------------------------------------------------------- random games


@dataclass
class RandomGame:
    """A random legal game: input events and the (player, dice, play) of every move."""

    events: list[Any]
    moves: list[tuple[str, tuple[int, int], str]]
    winner: str
    kind: int
    final: Position  # Dark on roll


def random_game(rng: random.Random, max_moves: int = 400) -> RandomGame:
    """A whole game with random dice and random legal plays, as the devices would report it."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        events: list[Any] = [opening_throw(a, b)]
        if a != b:
            break
    turn = "dark" if a > b else "light"
    dice = (max(a, b), min(a, b))
    pos = Position.start()  # with `turn` on roll (symmetric)
    moves = []
    for _ in range(max_moves):
        plays = legal_plays(pos, *dice)
        if plays:
            lp = rng.choice(plays)
            play, after = str(lp.play), lp.result
        else:
            play, after = "", pos.swap()
        moves.append((turn, dice, play))
        events.append(reading(as_dark(after, other(turn))))
        events.append(DiceLifted())
        res = game_result(after)
        if res is not None:
            winner = turn if res[0] == "opponent" else other(turn)
            return RandomGame(events, moves, winner, int(res[1]), as_dark(after, other(turn)))
        pos, turn = after, other(turn)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        events.append(throw(dice, turn))
    raise RuntimeError("random game did not finish")  # pragma: no cover


def iter_events(streams: dict[str, list[GameStream]]) -> Iterator[Any]:
    """Every event of every game stream, in order."""
    for games in streams.values():
        for g in games:
            yield from g.events


# ---------------------------------------------------------------------------- a scripted table


class Table:
    """A referee driven like a real table, for scripts and tests: ``throw``, ``play``,
    ``lift``, ``press``.  Every call returns the decisions it caused; ``self.log`` keeps
    all of them and ``self.events`` every event sent; :meth:`record` is the match record
    of what the referee recorded (the journal's fold, without a journal)."""

    def __init__(self, referee: Any) -> None:
        self.ref = referee
        self.events: list[Any] = []
        self.log: list[Any] = []
        self.builder = RecordBuilder()

    def record(self) -> MatchRecord:
        """The match record so far, folded from the record entries the referee emitted."""
        return self.builder.take(self.ref.new_record_actions()).record()

    def send(self, *events: Any) -> list[Any]:
        """Hand each event to the referee; the decisions they caused."""
        out = []
        for ev in events:
            self.events.append(ev)
            out += self.ref.handle(ev)
        self.log += out
        return out

    def opening(self, dark: int, light: int) -> list[Any]:
        """The opening throw: dark throws ``dark``, light throws ``light``."""
        return self.send(opening_throw(dark, light))

    def throw(self, dice: Sequence[Optional[int]], thrower: Optional[str] = None, **kw: Any) -> list[Any]:
        """A throw of ``dice`` by ``thrower`` (the player on roll by default)."""
        return self.send(throw(dice, thrower or self.ref.turn or "dark", **kw))

    def board(self, pos_dark: Position, **kw: Any) -> list[Any]:
        """Hands over the board, then a stable reading of ``pos_dark``."""
        from referee.events import HandOverBoard
        return self.send(HandOverBoard(), reading(pos_dark, **kw))

    def move(self, text: str) -> list[Any]:
        """The mover plays ``text`` (a legal play of the current dice) on the board."""
        from referee.rules.moves import match_play
        mover = self.ref.turn
        assert self.ref.t.dice is not None, "move() needs a roll that counts first"
        d1, d2 = self.ref.t.dice
        lp = match_play(self.ref.mover_position(), d1, d2, text)
        return self.board(as_dark(lp.result, other(mover)))

    def place(self, *moves: tuple[int, int]) -> list[Any]:
        """The mover shifts checkers as it likes: ``(from, to)`` pairs in its own numbering
        (25 = bar, 0 = off), legal or not; hits are not made."""
        mover = self.ref.turn
        me = list(self.ref.mover_position().me)
        opp = list(self.ref.mover_position().opp)
        for src, dst in moves:
            me[24 if src == 25 else src - 1] -= 1
            if dst:
                me[dst - 1] += 1
        return self.board(as_dark(Position(me, opp), mover))

    def lift(self) -> list[Any]:
        """The player picks up the dice, ending the turn."""
        return self.send(DiceLifted())

    def play(self, dice: Sequence[int], text: str) -> list[Any]:
        """Throw, move and lift: one whole ordinary turn of the player on turn."""
        return self.throw(dice) + self.move(text) + self.lift()

    def press(self, player: str, action: str, choice: Optional[int] = None) -> list[Any]:
        """``player`` presses the button for ``action`` (``choice``: which of the offered choices)."""
        return self.send(PlayerInput(player, action, choice))
