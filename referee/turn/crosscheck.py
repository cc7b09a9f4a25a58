"""The camera's view of the dice against the dice reader's throw (tables with a dice reader): the
reader's values and landing stand, and a difference is said (``dice_disagree``), never resolved.

The camera and the reader race: the camera's view of a settled throw (a
:class:`~referee.events.DiceSeen`) may come before the reader's ``RollSettled`` or after it.

* **After** the reader read the throw (its dice are down: :attr:`TableState.reader_dice_down`),
  a view is checked at once against that throw: the roll that counts, or the call to throw again.
* **Before** it, the latest view is kept (:attr:`TableState.camera_dice`) and checked once the
  reader's throw of the player to throw is decided.  The reader's next throw takes the kept view,
  checked or not, and a pick-up (the reader's ``DiceLifted``, or the camera seeing no dice any
  more) drops it, so a stale view never checks a later roll.  A throw starting (``RollStarted``)
  does not drop it: the reader may deliver a throw's start late, together with its settle, after
  the camera's view of the same throw; it only says the reader's last throw is off the board.

Only the throw of the player to throw is checked this way (the opening roll, a throw, a re-throw,
the throw that accepts an illegal move); a kept view is dropped, unchecked, at an opponent's early
throw.  Every view is a journaled input, so a resumed table keeps and checks the same views.
"""
from __future__ import annotations

from typing import Any, Optional

from referee.events import DiceLifted, DiceSeen, RollSettled, RollStarted
from referee.records import actions as rec
from referee.turn.landing import camera_differences, thrower_zone
from referee.turn.states import State
from referee.turn.table_state import TableState, roll_text

#: the states whose throw is the player to throw's (a view kept before it checks it)
THROWING = frozenset({State.OPENING_ROLL, State.WAITING_FOR_ROLL, State.REROLL, State.GAME_OVER,
                      State.ILLEGAL_MOVE})


def camera_view(t: TableState, ev: DiceSeen) -> None:
    """The camera's view with a dice reader: checked against the reader's throw when its dice are
    down, kept for the reader's throw otherwise; no dice is a pick-up."""
    if not ev.dice:
        t.camera_dice, t.reader_dice_down = None, False
    elif t.reader_dice_down:
        check(t, ev)
    else:
        t.camera_dice = ev


def after_event(t: TableState, ev: Any, before: State) -> None:
    """After each event at a table with a dice reader (``before``: the state it arrived in): the
    reader's throw takes the kept view (and checks it, when it was the thrower's); a pick-up drops it."""
    if not t.settings.dice_reader:
        return
    if isinstance(ev, RollSettled):
        if _opening_half_thrown(t):  # one opening die in: the throw under way goes on
            t.reader_dice_down = False
            return
        view, t.camera_dice, t.reader_dice_down = t.camera_dice, None, True
        if view is not None and before in THROWING:
            check(t, view)
    elif isinstance(ev, DiceLifted):
        t.camera_dice, t.reader_dice_down = None, False
    elif isinstance(ev, RollStarted):
        t.reader_dice_down = False


def _opening_half_thrown(t: TableState) -> bool:
    return t.state == State.OPENING_ROLL and sum(v is not None for v in t.opening.values()) == 1


def _reader_throw(t: TableState) -> Optional[tuple[Any, list[str], str]]:
    """The reader's throw down on the board to check: (its values or None, the causes it was
    re-rolled for, how the players name it); None when there is none (not yet, or lifted)."""
    last = t.actions[-1] if t.actions else None
    if isinstance(last, rec.Reroll) and t.state in (State.REROLL, State.OPENING_ROLL):
        faults = [] if last.cause in ("opening_tie", "early_roll") else [last.cause]
        return last.dice, faults, "call (throw again)"
    if t.t.dice is not None and t.state == State.MOVING:
        return t.t.dice, [], f"roll {roll_text(t.t.dice)}"
    return None


def check(t: TableState, ev: DiceSeen) -> None:
    """The camera's view against the dice reader's throw down: a difference is said; the
    reader's throw stands."""
    found = _reader_throw(t)
    if found is None:
        return
    roll, faults, what = found
    rolls = sum(isinstance(a, rec.Roll) for a in t.actions)
    last = t.actions[-1] if t.actions else None
    thrower = t.turn or "dark"
    opening = t.state == State.OPENING_ROLL or rolls <= 1 and not isinstance(last, rec.Reroll)
    zone = None if opening else thrower_zone(t.settings.landing, thrower)
    diffs = camera_differences(ev, roll, faults, zone, t.settings.die_on_checker, thrower, t.n(thrower))
    if diffs:
        words = "; ".join(diffs)
        t.decide("dice_disagree", None if opening else thrower,
                 f"{words[0].upper()}{words[1:]}: the dice reader's {what} stands; call the director if it is wrong",
                 camera="-".join(str(v) if v is not None else "?" for v in ev.values))
