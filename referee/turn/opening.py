"""The opening roll: each player throws one die, the higher starts with both dice; a tie is
thrown again (an automatic double in money play, if the settings allow); a new game after
the last one starts here.

Conventions: one ``RollSettled`` with two dice, Dark's die in zone ``"right"`` and Light's
in ``"left"``, or two single-die events whose zone says whose die it is; with
``landing = "tray"`` the first die is Dark's.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from referee.events import RollSettled
from referee.records import actions as rec
from referee.colour import other
from referee.rules.cube import Cube
from referee.rules.position import Position
from referee.turn.landing import first_fault
from referee.turn.rolling import accept_roll
from referee.turn.states import State
from referee.turn.table_state import TableState, TurnFacts


def next_game(t: TableState, ev: RollSettled) -> None:
    """The throw after a game's end: a new game's opening roll."""
    start_game(t)
    opening_roll(t, ev)


def start_game(t: TableState) -> None:
    """Set the table up for the next game."""
    t.game += 1
    t.actions = []
    t.pos = Position.start()
    t.cube = Cube()
    t.auto_doubles = 0
    t.turn = None
    t.t = TurnFacts()
    t.opening = {"dark": None, "light": None}
    t.last_plays = []
    t.enter(State.OPENING_ROLL)
    t.cube_policy.new_game(t)


def opening_roll(t: TableState, ev: RollSettled) -> None:
    """A throw of the opening roll: one die each (or both at once)."""
    tray = t.settings.landing == "tray"
    on_checker = t.settings.die_on_checker
    if len(ev.dice) == 2:
        if tray:
            owners = ["dark", "light"]
        else:
            owners = ["dark" if d.zone == "right" else "light" if d.zone == "left" else "?" for d in ev.dice]
            if owners[0] == owners[1]:
                side = {"dark": f"{t.names['dark']}'s", "light": f"{t.names['light']}'s"}.get(owners[0])
                why = f"both dice landed on {side} right-hand half" if side else "the dice landed outside"
                _reroll_opening(t, None, f"Re-roll the opening: {why}; each player throws one die "
                                         "onto their own right-hand half", "outside")
                return
            if "?" in owners:
                owners = [o if o != "?" else other(owners[1 - i]) for i, o in enumerate(owners)]
        found = [first_fault(d, on_checker) for d in ev.dice]
        faults = [f"{t.names[o]}'s die {f.words}" for o, f in zip(owners, found) if f]
        if faults:
            cause = next((f.cause for f in found[:2] if f), "other")
            _reroll_opening(t, None, "Re-roll the opening: " + "; ".join(faults), cause)
            return
        for o, d in zip(owners, ev.dice):
            t.opening[o] = d.value
    else:
        d = ev.dice[0]
        if tray:
            owner = "dark" if t.opening["dark"] is None else "light"
        elif d.zone in ("right", "left"):
            owner = "dark" if d.zone == "right" else "light"
        else:
            t.decide("reroll", None, "Re-throw: the opening die landed outside the landing area",
                     cause="outside")
            return
        f = first_fault(d, on_checker)
        if f:
            t.decide("reroll", owner, f"Re-throw: {t.names[owner]}'s die {f.words}", cause=f.cause)
            return
        if t.opening[owner] is not None:
            t.decide("refused", owner, f"{t.names[owner]} already threw a {t.opening[owner]}; "
                     f"waiting for {t.names[other(owner)]}'s die")
            return
        t.opening[owner] = d.value
    dv, lv = t.opening["dark"], t.opening["light"]
    if dv is None or lv is None:
        who = "dark" if dv is None else "light"
        have = "dark" if dv is not None else "light"
        t.decide("opening_die", have, f"{t.names[have]} threw a {t.opening[have]}; "
                 f"waiting for {t.names[who]}'s die", die=t.opening[have])
        return
    if dv == lv:
        _tie(t, dv, lv)
        return
    starter = "dark" if dv > lv else "light"
    high, low = max(dv, lv), min(dv, lv)
    t.opening = {"dark": None, "light": None}
    t.turn = starter
    t.decide("opening_won", starter, f"{t.names['dark']} {dv}, {t.names['light']} {lv}: "
             f"{t.names[starter]} starts and plays {high}-{low}", dice=(high, low))
    accept_roll(t, starter, (high, low))


def _tie(t: TableState, dv: int, lv: int) -> None:
    t.opening = {"dark": None, "light": None}
    s = t.settings
    auto = s.money and t.auto_doubles < s.automatic_doubles and \
        (not s.cube_limit or 2 * t.cube.value <= s.cube_limit)
    t.act(rec.Reroll(0, "opening_tie", (dv, lv)))
    if auto:
        t.auto_doubles += 1
        t.cube = replace(t.cube, value=2 * t.cube.value)
        t.cube_policy.automatic_double()
        t.decide("opening_tie", None, f"Both threw {dv}: automatic double, the cube is at "
                 f"{t.cube.value} in the middle; throw again", die=dv, cube=t.cube.value)
    else:
        t.decide("opening_tie", None, f"Both threw {dv}: throw again", die=dv)


def _reroll_opening(t: TableState, player: Optional[str], reason: str, cause: str) -> None:
    t.opening = {"dark": None, "light": None}
    t.act(rec.Reroll(0, cause))
    t.decide("reroll", player, reason, cause=cause)
