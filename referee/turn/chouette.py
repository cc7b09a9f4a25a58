"""Chouette (RULES.md 8.5): a box against a team led by a captain, one cube per team member.

The board game is the box (``settings.box_colour``) against the captain (the other colour);
the referee's turn machine runs it unchanged.  What differs is the cube and the scores,
kept here (:class:`Chouette` is the table's :class:`referee.turn.cube.CubePolicy`):

* each team member has their own cube against the box (value, owner, still playing);
* **the box doubles** every member whose cube it may turn (centred or box-owned) at once;
  each member answers with ``PlayerInput(team colour, "take"|"pass", choice=i)`` where ``i``
  is the member's place in the team (0 = captain).  When the captain passes and others
  take, the first member still playing becomes captain for the rest of the game;
* **a member doubles** with ``PlayerInput(team colour, "double", choice=i)`` before the
  team's throw, if their own cube is centred or theirs; the box answers take or pass;
* at the end every member still playing wins or loses their own cube's points against the
  box; per-player scores are running money totals;
* rotation after each game, by ``settings.chouette_rotation``: ``"standard"`` -- the box
  keeps the box on a win against the (starting) captain, who goes to the end of the line;
  a captain who wins becomes the box and the old box goes to the end of the line;
  ``"box_rotates"`` -- the captain always becomes the box.

Beavers are not played in chouette here.  The two-player match record holds the board
plays and the game's result against the captain; per-member cube actions and scores
are in the decisions (kind ``"chouette"``) and :attr:`Chouette.scores`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from referee.events import PlayerInput
from referee.colour import other
from referee.rules.cube import Cube
from referee.rules.scoring import GameKind, points_won
from referee.settings import Settings
from referee.turn.states import State
from referee.view import ChouetteView, MemberView

if TYPE_CHECKING:  # pragma: no cover
    from referee.turn.table_state import TableState


@dataclass
class MemberCube:
    """One team member's cube against the box."""

    value: int = 1
    owner: Optional[str] = None  # "box", "member" or None (centred)
    playing: bool = True
    turned: bool = False
    out: str = ""  # why the member is out of the game, for the screen: "passed" or "cashed"


class Chouette:
    """The players, the box, the team, the cubes and the scores of a chouette."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.box = settings.chouette[0]
        self.team: list[str] = list(settings.chouette[1:])
        self.scores: dict[str, int] = {n: 0 for n in settings.chouette}
        self.box_colour = settings.box_colour
        self.team_colour = other(settings.box_colour)
        self.cubes: dict[str, MemberCube] = {}
        self.pending: list[str] = []  # members yet to answer the box's double
        self.offer: Optional[tuple[str, str]] = None  # ("box", "") or ("member", name)
        self.captain = self.team[0]
        self.start_captain = self.captain
        self.start_game()

    # ------------------------------------------------------------------ game set-up

    def start_game(self) -> None:
        """A new game: fresh member cubes, no pending double, the first team member captains."""
        self.cubes = {n: MemberCube() for n in self.team}
        self.pending, self.offer = [], None
        self.captain = self.start_captain = self.team[0]

    def new_game(self, t: "TableState") -> None:
        """A new game: fresh cubes, the first of the line is captain."""
        self.start_game()
        t.names = self.colour_names()

    def shown_cube(self, cube: Cube) -> Cube:
        """The captain's cube."""
        return self.captain_cube(cube)

    def beaver_refusal(self, t: "TableState", ev: PlayerInput) -> Optional[str]:
        """No beavers in chouette."""
        return "beavers are not played in chouette here"

    def colour_names(self) -> dict[str, str]:
        """The box's colour names the box, the team's the captain."""
        return {self.box_colour: self.box, self.team_colour: self.captain}

    def automatic_double(self) -> None:
        """An automatic double (equal opening dice) doubles every member's cube."""
        for c in self.cubes.values():
            c.value *= 2

    def captain_cube(self, fallback: Cube) -> Cube:
        """The captain's cube, as the table's cube display shows it."""
        c = self.cubes.get(self.captain)
        if c is None:
            return fallback
        owner = None if c.owner is None else (self.box_colour if c.owner == "box" else self.team_colour)
        offered_by = offered_value = None
        if self.offer and ((self.offer[0] == "box" and self.captain in self.pending) or self.offer[1] == self.captain):
            offered_by = self.box_colour if self.offer[0] == "box" else self.team_colour
            offered_value = 2 * c.value
        return Cube(c.value, owner, offered_by, offered_value, False, c.turned)

    def chouette_view(self) -> ChouetteView:
        """The chouette as the table screen shows it: box, captain, each member's cube and state,
        every player's running score."""
        members = []
        for n in self.team:
            c = self.cubes[n]
            state = c.out or "playing"
            if self.offer is not None and c.playing:
                if self.offer[0] == "box" and n in self.pending:
                    state = "to_answer"
                elif self.offer == ("member", n):
                    state = "doubling"
            members.append(MemberView(n, c.value, c.owner, state))
        return ChouetteView(self.box, self.box_colour, self.captain, tuple(members), tuple(self.scores.items()))

    def _member(self, ev: PlayerInput) -> Optional[str]:
        i = 0 if ev.choice is None else ev.choice
        return self.team[i] if 0 <= i < len(self.team) else None

    def _live(self) -> list[str]:
        return [n for n in self.team if self.cubes[n].playing]

    # ------------------------------------------------------------------ guards

    def double_refusal(self, t: "TableState", ev: PlayerInput) -> Optional[str]:
        """Why ``ev.player`` may not double now (None when the double is allowed)."""
        limit = self.settings.cube_limit
        if ev.player == self.box_colour:
            able = [n for n in self._live() if self.cubes[n].owner in (None, "box")
                    and not (limit and 2 * self.cubes[n].value > limit)]
            return None if able else f"{self.box} cannot double: no team member's cube is the box's to turn"
        m = self._member(ev)
        if m is None:
            return f"team member {ev.choice!r} does not exist: choose 0..{len(self.team) - 1}"
        c = self.cubes[m]
        if not c.playing:
            return f"{m} has passed and is out of this game"
        if c.owner == "box":
            return f"{m} cannot double: {self.box} owns {m}'s cube"
        if limit and 2 * c.value > limit:
            return f"{m} cannot double: the cube limit is {limit}"
        return None

    def responder_refusal(self, t: "TableState", ev: PlayerInput) -> Optional[str]:
        """Why ``ev.player`` may not answer the pending double (None when the answer is allowed)."""
        if self.offer is None:
            return "no double is pending"
        if self.offer[0] == "box":
            if ev.player != self.team_colour:
                return "the double is for the team to answer, member by member"
            m = self._member(ev)
            if m not in self.pending:
                return f"{m if m else repr(ev.choice)} has no double to answer; waiting for {', '.join(self.pending)}"
            return None
        if ev.player != self.box_colour:
            return f"{self.offer[1]}'s double is {self.box}'s to answer"
        return None

    # ------------------------------------------------------------------ cube actions

    def double(self, t: "TableState", ev: PlayerInput) -> None:
        """Offer a double: the box to every member able to take, or a member to the box."""
        t.enter(State.DOUBLE_OFFERED)
        if ev.player == self.box_colour:
            limit = self.settings.cube_limit
            self.pending = [n for n in self._live() if self.cubes[n].owner in (None, "box")
                            and not (limit and 2 * self.cubes[n].value > limit)]
            self.offer = ("box", "")
            who = ", ".join(f"{n} (to {2 * self.cubes[n].value})" for n in self.pending)
            t.decide("double", ev.player, f"{self.box} doubles {who}: each takes or passes",
                        choices=("take", "pass"), members=tuple(self.pending))
        else:
            m = self._member(ev) or self.captain
            self.offer = ("member", m)
            t.decide("double", ev.player, f"{m} doubles {self.box} to {2 * self.cubes[m].value}: "
                        f"{self.box} takes or passes", choices=("take", "pass"), member=m)

    def answer(self, t: "TableState", ev: PlayerInput, take: bool) -> None:
        """A take (``take``) or a drop of the pending double by ``ev.player``."""
        assert self.offer is not None
        if self.offer[0] == "box":
            m = self._member(ev) or self.captain
            c = self.cubes[m]
            self.pending.remove(m)
            if take:
                c.value, c.owner, c.turned = 2 * c.value, "member", True
                t.decide("chouette", ev.player, f"{m} takes: {m}'s cube is at {c.value}, {m} owns it",
                            member=m, value=c.value)
            else:
                self._settle(self.box, m, c.value)
                c.playing, c.out = False, "passed"
                t.decide("chouette", ev.player, f"{m} passes and pays {self.box} {c.value}", member=m)
            if self.pending:
                return
        else:
            m = self.offer[1]
            c = self.cubes[m]
            if take:
                c.value, c.owner, c.turned = 2 * c.value, "box", True
                t.decide("chouette", ev.player, f"{self.box} takes {m}'s double: the cube is at {c.value}, "
                            f"{self.box} owns it", member=m, value=c.value)
            else:
                self._settle(m, self.box, c.value)
                c.playing, c.out = False, "cashed"
                t.decide("chouette", ev.player, f"{self.box} passes {m}'s double and pays {c.value}", member=m)
        self.offer = None
        live = self._live()
        if not live:
            box_won = self.offer_winner_is_box(ev)
            winner = self.box_colour if box_won else self.team_colour
            t.close_game(winner, 1, 1, "pass")
            t.score = t.score.after_game(winner, 1)
            t.enter(State.GAME_OVER)
            t.turn = None
            t.decide("game_over", None, f"Every team member is out: the game is over. {self.score_text()}",
                        scores=tuple(self.scores.items()))
            self._rotate(box_won=box_won, t=t)
            return
        if self.captain not in live:
            self.captain = live[0]
            t.names = self.colour_names()
            t.decide("chouette", self.team_colour, f"{self.captain} is captain for the rest of the game")
        t.enter(State.WAITING_FOR_ROLL)

    def offer_winner_is_box(self, ev: PlayerInput) -> bool:
        """Who won against the starting captain when the game ended on the cube."""
        return ev.player == self.team_colour  # the team passed the box's double

    def _settle(self, winner: str, loser: str, points: int) -> None:
        self.scores[winner] += points
        self.scores[loser] -= points

    # ------------------------------------------------------------------ the end of a game

    def end_game(self, t: "TableState", winner: str, kind: GameKind, reason: str, points: Optional[int]) -> None:
        """Every member still playing wins or loses their own cube against the box; then the rotation."""
        pts = points if points is not None else t.board_points(kind)  # its record keeps a running score
        t.close_game(winner, pts, int(kind), reason)
        t.score = t.score.after_game(winner, pts)
        self._settle_game(t, winner, kind)
        t.enter(State.GAME_OVER)

    def _settle_game(self, t: "TableState", winner: str, kind: GameKind) -> None:
        s = self.settings
        parts = []
        for m in self._live():
            c = self.cubes[m]
            pts = points_won(kind, c.value, jacoby=s.jacoby, cube_turned=c.turned)
            if winner == self.box_colour:
                self._settle(self.box, m, pts)
                parts.append(f"{m} pays {self.box} {pts}")
            else:
                self._settle(m, self.box, pts)
                parts.append(f"{self.box} pays {m} {pts}")
        word = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[int(kind)]
        champion = self.box if winner == self.box_colour else "The team"
        t.turn = None
        t.decide("game_over", winner, f"{champion} wins {word}: {'; '.join(parts)}. {self.score_text()}",
                    scores=tuple(self.scores.items()))
        self._rotate(box_won=winner == self.box_colour, t=t)

    def _rotate(self, box_won: bool, t: "TableState") -> None:
        old_box, captain = self.box, self.start_captain
        line = [n for n in self.team if n != captain]
        if self.settings.chouette_rotation == "box_rotates" or not box_won:
            self.box, self.team = captain, line + [old_box]
            what = f"{captain} becomes the box; {old_box} goes to the end of the line"
        else:
            self.team = line + [captain]
            what = f"{old_box} keeps the box; {captain} goes to the end of the line"
        self.start_game()
        t.names = self.colour_names()
        t.decide("chouette", None, f"Rotation: {what}. Next: {self.box} (box) against "
                    f"{', '.join(self.team)} (captain {self.team[0]})", box=self.box, team=tuple(self.team))

    def score_text(self) -> str:
        """Every player's running score, e.g. ``Scores: Ann +2, Bob -1``."""
        return "Scores: " + ", ".join(f"{n} {p:+d}" for n, p in self.scores.items())
