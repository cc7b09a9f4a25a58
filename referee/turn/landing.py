"""The landing rules (RULES.md 9.1), pure: where each player's dice must land, what is wrong
with a throw's dice, and whose throw it was by where the dice lie.

:func:`landing_faults` is the one judgement of a throw's dice, for the opening roll and
for every throw after it.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from referee.events import DiceSeen, DieReading, RollSettled
from referee.colour import other


class LandingFault(NamedTuple):
    """One thing wrong with one die: its index in the throw, the cause (a re-roll cause of the
    record: ``outside``, ``cocked``, ``on_checker``, ``unread``) and what is wrong, in words
    that follow the die's name ("is cocked")."""

    die: int
    cause: str
    words: str


def thrower_zone(landing: str, colour: str) -> str:
    """Where ``colour``'s dice must land: the tray, or their own right-hand half."""
    if landing == "tray":
        return "tray"
    return "right" if colour == "dark" else "left"


def landing_faults(dice: Sequence[DieReading], zone: Optional[str], die_on_checker: str,
                   thrower_name: str = "") -> list[LandingFault]:
    """Every landing fault of ``dice`` (in order, die by die).  ``zone`` is where the dice
    must land (None: any landing area will do, as for the opening roll, whose zones say
    whose die it is); ``die_on_checker`` is the setting (``"reroll"`` makes it a fault);
    ``thrower_name`` names whose right-hand half it is."""
    faults: list[LandingFault] = []
    for i, die in enumerate(dice):
        if die.zone == "outside":
            faults.append(LandingFault(i, "outside", "landed outside the landing area"))
        elif zone is not None and die.zone != zone:
            where = "in the tray" if zone == "tray" else f"on {thrower_name}'s right-hand half"
            faults.append(LandingFault(i, "outside", f"is not {where}"))
        if not die.flat:
            faults.append(LandingFault(i, "cocked", "is cocked"))
        if die.on_checker and die_on_checker == "reroll":
            faults.append(LandingFault(i, "on_checker", "rests on a checker"))
        if die.value is None and die.flat and die.zone != "outside":
            faults.append(LandingFault(i, "unread", "cannot be read"))
    return faults


def first_fault(die: DieReading, die_on_checker: str) -> Optional[LandingFault]:
    """The first landing fault of one die of the opening roll (None: it counts)."""
    faults = landing_faults([die], None, die_on_checker)
    return faults[0] if faults else None


def die_names(dice: Sequence[DieReading], thrower: str) -> list[str]:
    """How the players tell the dice apart, as ``thrower`` sees them."""
    if len(dice) == 1:
        return ["the die"]
    a, b = dice[0], dice[1]
    if a.x == b.x:
        return ["the first die", "the second die"]
    left_first = (a.x < b.x) if thrower == "dark" else (a.x > b.x)
    return ["the left die", "the right die"] if left_first else ["the right die", "the left die"]


def fault_words(roll: RollSettled, faults: Sequence[LandingFault], thrower: str) -> str:
    """The faults as one sentence part: "the left die is cocked; the right die ..."."""
    names = die_names(roll.dice, thrower)
    return "; ".join(f"{names[f.die]} {f.words}" for f in faults)


def roll_owner(roll: RollSettled, expected: str, landing: str) -> str:
    """Who threw: the player whose half holds all the dice (the expected thrower otherwise)."""
    if landing == "tray":
        return expected
    zones = {d.zone for d in roll.dice}
    o = other(expected)
    if zones == {thrower_zone(landing, o)}:
        return o
    return expected


def early_thrower(roll: RollSettled, mover: str, landing: str) -> Optional[str]:
    """Who threw while ``mover``'s dice are down: the mover when every die is on the
    mover's half; the opponent when a die is on the opponent's half (or in the tray:
    the mover's dice are on the board); None when no die says (all outside)."""
    if landing == "tray":
        return other(mover)
    zones = {d.zone for d in roll.dice}
    if zones == {thrower_zone(landing, mover)}:
        return mover
    if thrower_zone(landing, other(mover)) in zones:
        return other(mover)
    return None


def camera_differences(camera: DiceSeen, roll: Optional[Sequence[int]], reader_faults: Sequence[str],
                       zone: Optional[str], die_on_checker: str, thrower: str, thrower_name: str = "") -> list[str]:
    """How the camera's view of two dice at rest differs from the dice reader's throw (``roll``: its
    values, None when unread; ``reader_faults``: the causes the reader's throw was re-rolled for,
    empty when it counted), in words ("the camera reads 5-4 where the dice reader read 5-3").  Only
    what the camera is sure of counts: an unsure value says nothing, and where it is unsure of a die
    (it may be no die at all) or sees any count of dice but two, nothing of the landing either."""
    if len(camera.dice) != 2:
        return []
    out: list[str] = []
    seen = [v for v in camera.values if v is not None]
    if roll is not None and seen:
        left = list(roll)
        for v in seen:
            if v in left:
                left.remove(v)
            else:
                shown = "-".join(str(v) if v is not None else "?" for v in camera.values)
                out.append(f"the camera reads {shown} where the dice reader read {'-'.join(map(str, roll))}")
                break
    if not camera.sure:
        return out
    faults = [f for f in landing_faults(camera.dice, zone, die_on_checker, thrower_name) if f.cause != "unread"]
    if faults and not reader_faults:
        names = die_names(camera.dice, thrower)
        out.append("the camera sees " + "; ".join(f"{names[f.die]} {f.words}" for f in faults)
                   + " where the dice reader saw a good throw")
    elif not faults and reader_faults:
        out.append(f"the camera sees both dice land well where the dice reader saw a fault ({reader_faults[0]})")
    return out
