"""The cube: doubles, takes, passes and beavers, through a :class:`CubePolicy`.

The machine's cube transitions are the same for every table; what a double means is the
policy's: :class:`HeadsUpCube` (one cube between two players, RULES.md 7) or
:class:`referee.turn.chouette.Chouette` (one cube per team member against the box).  The
policy also scores the end of a game and says which cube the display shows.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Protocol

from referee.events import PlayerInput
from referee.records import actions as rec
from referee.colour import other
from referee.rules.cube import Cube, beaver_refusal, double_refusal
from referee.rules.scoring import GameKind
from referee.settings import Settings
from referee.turn.ending import end_game, heads_up_end
from referee.turn.states import State
from referee.view import ChouetteView
from referee.turn.table_state import TableState


class CubePolicy(Protocol):
    """What a double means at this table, and how a game's end is scored."""

    def colour_names(self) -> dict[str, str]:
        """The player named for each colour."""

    def new_game(self, t: TableState) -> None:
        """A new game starts (fresh cubes)."""

    def automatic_double(self) -> None:
        """A tied opening roll turned the cube (money play)."""

    def shown_cube(self, cube: Cube) -> Cube:
        """The cube the table's cube display shows."""

    def chouette_view(self) -> Optional[ChouetteView]:
        """What the screen shows of a chouette (None heads-up)."""

    def double_refusal(self, t: TableState, ev: PlayerInput) -> Optional[str]:
        """Why ``ev.player`` may not double now (None: they may)."""

    def responder_refusal(self, t: TableState, ev: PlayerInput) -> Optional[str]:
        """Why ``ev.player`` may not answer the double (None: they may)."""

    def beaver_refusal(self, t: TableState, ev: PlayerInput) -> Optional[str]:
        """Why ``ev.player`` may not beaver (None: they may)."""

    def double(self, t: TableState, ev: PlayerInput) -> None:
        """Offer the double."""

    def answer(self, t: TableState, ev: PlayerInput, take: bool) -> None:
        """A take or a pass of the double."""

    def end_game(self, t: TableState, winner: str, kind: GameKind, reason: str, points: Optional[int]) -> None:
        """Score the game's end and enter ``game_over`` (or ``match_over``)."""


class HeadsUpCube:
    """One cube between two players (a match or money play)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def colour_names(self) -> dict[str, str]:
        """The players of the settings."""
        return {"dark": self.settings.names[0], "light": self.settings.names[1]}

    def new_game(self, t: TableState) -> None:
        """Nothing to do: the table's cube was centred."""

    def automatic_double(self) -> None:
        """Nothing to do: the table's cube was turned."""

    def shown_cube(self, cube: Cube) -> Cube:
        """The table's cube."""
        return cube

    def chouette_view(self) -> Optional[ChouetteView]:
        """Heads-up: no chouette to show."""
        return None

    def double_refusal(self, t: TableState, ev: PlayerInput) -> Optional[str]:
        """The cube rules (RULES 7): ownership, the Crawford game, the cube limit."""
        s = t.settings
        return double_refusal(t.cube, ev.player, money=s.money, crawford_game=t.score.crawford_game,
                              cube_limit=s.cube_limit, names=t.names)

    def responder_refusal(self, t: TableState, ev: PlayerInput) -> Optional[str]:
        """Only the doubled player answers."""
        if ev.player != t.cube.responder:
            return f"the double is {t.n(t.cube.responder)}'s to answer"
        return None

    def beaver_refusal(self, t: TableState, ev: PlayerInput) -> Optional[str]:
        """Beavers in money play, if the settings allow them."""
        s = t.settings
        return beaver_refusal(t.cube, ev.player, money=s.money, beavers=s.beavers, cube_limit=s.cube_limit,
                              names=t.names)

    def double(self, t: TableState, ev: PlayerInput) -> None:
        """Offer the cube at twice its value."""
        t.cube = t.cube.offer(ev.player)
        t.enter(State.DOUBLE_OFFERED)
        t.act(rec.Double(t.pi(ev.player), t.cube.offered_value or 2))
        s = t.settings
        choices = ("take", "pass", "beaver") if (s.money and s.beavers) else ("take", "pass")
        t.decide("double", ev.player, f"{t.n(ev.player)} doubles to {t.cube.offered_value}: "
                 f"{t.n(other(ev.player))} takes or passes", choices=choices, value=t.cube.offered_value)

    def answer(self, t: TableState, ev: PlayerInput, take: bool) -> None:
        """A take turns the cube over; a pass ends the game at the cube's value."""
        if take:
            beaver = t.cube.beavered
            t.cube = t.cube.take()
            t.act(rec.Take(t.pi(ev.player)))
            t.enter(State.WAITING_FOR_ROLL)
            t.decide("take", ev.player, f"{t.n(ev.player)} takes: the cube is at {t.cube.value}, "
                     f"{t.n(t.cube.owner)} owns it{' (beaver)' if beaver else ''}; "
                     f"{t.n(t.turn)} throws", value=t.cube.value)
            return
        value = t.cube.pass_value()
        doubler = other(ev.player)
        t.act(rec.Pass(t.pi(ev.player)))
        t.decide("pass", ev.player, f"{t.n(ev.player)} passes: {t.n(doubler)} wins {value} "
                 f"point{'s' if value > 1 else ''}", points=value)
        t.cube = replace(t.cube, offered_by=None, offered_value=None)
        end_game(t, doubler, GameKind.SINGLE, "pass", points=value)

    def end_game(self, t: TableState, winner: str, kind: GameKind, reason: str, points: Optional[int]) -> None:
        """The match score after the game (:func:`referee.turn.ending.heads_up_end`)."""
        heads_up_end(t, winner, kind, reason, points)


# ------------------------------------------------------------------ guards (named as in refusals)


def cube_available(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The player may turn the cube now."""
    return t.cube_policy.double_refusal(t, ev)


def responder(t: TableState, ev: PlayerInput) -> Optional[str]:
    """The player is the one to answer the double."""
    return t.cube_policy.responder_refusal(t, ev)


def beaver_allowed(t: TableState, ev: PlayerInput) -> Optional[str]:
    """A beaver is allowed here."""
    return t.cube_policy.beaver_refusal(t, ev)


# ------------------------------------------------------------------ handlers


def double(t: TableState, ev: PlayerInput) -> None:
    """The player on turn doubles before throwing."""
    t.cube_policy.double(t, ev)


def take(t: TableState, ev: PlayerInput) -> None:
    """The double is taken."""
    t.cube_policy.answer(t, ev, take=True)


def pass_(t: TableState, ev: PlayerInput) -> None:
    """The double is passed."""
    t.cube_policy.answer(t, ev, take=False)


def beaver(t: TableState, ev: PlayerInput) -> None:
    """The doubled player beavers: takes, redoubles at once and keeps the cube (money play)."""
    t.cube = t.cube.beaver()
    t.act(rec.Beaver(t.pi(ev.player), t.cube.offered_value or 4))
    t.decide("beaver", ev.player, f"{t.n(ev.player)} beavers: the cube is at {t.cube.offered_value}, "
             f"{t.n(ev.player)} keeps it; {t.n(other(ev.player))} takes or passes",
             choices=("take", "pass"), value=t.cube.offered_value)
