"""Answering the referee's prompts with two buttons: "next" steps, "confirm" picks.

The referee asks by showing choices (``TableView.choices``: roll to confirm, moves that fit
the reading, take or pass, accept or reject a resignation ...) and takes the answer as a
:class:`referee.events.PlayerInput`: the choice's own action (``take``, ``accept_move``
...) or ``confirm`` with ``choice=i`` (a move or a roll).  Which choice is highlighted is
the table's business, not the referee's, and lives here in :class:`Chooser`:

* a prompt appears: nothing is highlighted (a ``confirm`` now is a plain confirm, as before);
* ``next`` highlights the first choice, then the next, wrapping around;
* ``confirm`` sends the highlighted choice as the presser's input, and the highlight goes.
  The referee's guards still decide whether that player may answer (a refusal is shown);
* with no prompt, ``next`` opens the presser's menu (:data:`MENU`: resign single, gammon
  or backgammon, call the director, back); ``confirm`` by the menu's owner picks the
  highlighted entry.  A confirm of the other player leaves the menu and goes through.

**The director's menu** (issue 15): with the director's key button held down, ``next``
opens it (whatever is asked); without the key, the player's menu and the paused table (a
player called the director) offer "Director", and the action picked then asks for the
director's PIN, entered digit by digit (``next`` changes the digit, ``confirm`` enters it).
The menu's actions (:data:`DIRECTOR_MENU`: undo, accept or reject the move, end the match, learn the board)
go to the referee as :class:`referee.officials.DirectorAction` with the key that was shown:
``"button"``, ``"pin"``, or ``""`` for a wrong PIN or a table with no key configured, which
the referee refuses (and the journal keeps).  Set-ups and score corrections need more than
two buttons: the club page or ``bgtable referee --script`` give them.

A chouette box's double is answered member by member: the choices become
``"Ann: take"``, ``"Ann: pass"``, ... for every member still to answer (``members``
tells the chooser the team and who is pending), sent as the team's input with
``choice`` = the member's place in the team.

The chooser is a sink of the table process (:meth:`show` gets each view and its
decisions) and :meth:`decorate` gives the view the screen draws, with the highlight.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

from referee.decisions import Decision
from referee.events import PLAYER_ACTIONS, PlayerInput
from referee.officials import DirectorAction
from referee.view import TableView

#: the button actions the chooser handles besides the referee's own actions
BUTTON_ACTIONS = ("next",)

#: the menu "next" opens when nothing is asked: (label, action); action None closes it
MENU: tuple[tuple[str, Optional[str]], ...] = (
    ("Resign single", "resign_single"), ("Resign gammon", "resign_gammon"),
    ("Resign backgammon", "resign_backgammon"), ("Call the director", "call_director"), ("Back", None))

#: the director's menu: (label, director action); None closes it
DIRECTOR_MENU: tuple[tuple[str, Optional[str]], ...] = (
    ("Undo the last action", "undo"), ("Accept the move as played", "accept_move"),
    ("Reject the last move", "reject_move"), ("End the match", "end_match"),
    ("Learn the board as it stands", "learn_board"), ("Back", None))
#: the option that opens the director's menu (in the player's menu and on a paused table)
DIRECTOR_ENTRY = "director_menu"

#: states where the resignation menu makes sense (a game is being played)
MENU_STATES = ("waiting_for_roll", "reroll", "moving", "waiting_for_board")

LABELS: dict[str, str] = {
    "take": "Take", "pass": "Pass", "beaver": "Beaver", "accept_move": "Accept as played",
    "demand_legal_move": "Demand a legal move", "accept_resignation": "Accept resignation",
    "reject_resignation": "Reject resignation", "call_director": "Call the director", "confirm": "Confirm",
}

#: ``members()`` -> (the chouette team in order, the members still to answer the box's double)
Members = Callable[[], tuple[Sequence[str], Sequence[str]]]


@dataclass(frozen=True)
class Option:
    """One entry the players can step to: its label on the screen, the action and choice it sends."""

    label: str
    action: Optional[str]  # None: close the menu
    choice: Optional[int] = None

    def input(self, player: str, t: float) -> Optional[PlayerInput]:
        """The player input this option sends for ``player`` (None for "Back")."""
        return None if self.action is None else PlayerInput(player, self.action, self.choice, t)


def prompt_options(view: TableView, members: tuple[Sequence[str], Sequence[str]] = ((), ())) -> tuple[Option, ...]:
    """The options that answer what ``view`` asks (empty when nothing is asked)."""
    team, pending = members
    if view.state == "double_offered" and pending:
        out = []
        for m in pending:
            if m in team:
                i = list(team).index(m)
                out += [Option(f"{m}: take", "take", i), Option(f"{m}: pass", "pass", i)]
        if out:
            return tuple(out)
    out = []
    for i, c in enumerate(view.choices):
        if c in PLAYER_ACTIONS and c != "confirm":
            out.append(Option(LABELS.get(c, c), c))
        else:  # a move, a roll, or "confirm": the referee takes the index
            out.append(Option(LABELS.get(c, c), "confirm", i))
    return tuple(out)


def menu_options(director: bool = False) -> tuple[Option, ...]:
    """The resignation menu's options (with "Director" before "Back" when the table has a director's key)."""
    out = [Option(label, action) for label, action in MENU]
    if director:
        out.insert(len(out) - 1, Option("Director", DIRECTOR_ENTRY))
    return tuple(out)


@dataclass
class DirectorKey:
    """The director's key at the table: a button held down (``held``) and/or a PIN (digits)."""

    pin: str = ""
    held: Callable[[], bool] = lambda: False
    has_button: bool = False

    @property
    def enabled(self) -> bool:
        """Whether the table has a director's key at all (a button or a PIN)."""
        return self.has_button or bool(self.pin)


Input = Union[PlayerInput, DirectorAction]


class Chooser:
    """The highlighted choice of the table's prompts and the players' menu (module doc)."""

    def __init__(self, members: Optional[Members] = None, director: Optional[DirectorKey] = None) -> None:
        self.members: Members = members or (lambda: ((), ()))
        self.director = director or DirectorKey()
        self.director_open = False  # the director's menu is on the screen
        self.pin_for: Optional[str] = None  # the director action waiting for the PIN
        self.pin_digits = ""
        self.view: Optional[TableView] = None
        self.options: tuple[Option, ...] = ()
        self.highlight: Optional[int] = None
        self.menu_owner: Optional[str] = None  # whose menu is open (None: the referee's prompt)
        self.changed = False  # the screen needs drawing again (a "next" press)

    # ------------------------------------------------------------------ the table's sink

    def show(self, view: TableView, decisions: Sequence[Decision] = ()) -> None:
        """A new view from the referee: a changed prompt clears the highlight and closes the menu."""
        options = prompt_options(view, self._members(view))
        if view.state == "director" and self.director.enabled:
            options += (Option("Director", DIRECTOR_ENTRY),)
        if options != self.options or self.view is None or (view.state, view.turn) != (self.view.state, self.view.turn):
            self.highlight, self.menu_owner = None, None
            self.director_open, self.pin_for, self.pin_digits = False, None, ""
        self.view, self.options = view, options

    def _members(self, view: TableView) -> tuple[Sequence[str], Sequence[str]]:
        return self.members() if view.state == "double_offered" else ((), ())

    # ------------------------------------------------------------------ the buttons

    @property
    def shown(self) -> tuple[Option, ...]:
        """The options on the screen now: the PIN's digits, the director's menu, the open menu's, else the prompt's."""
        if self.pin_for is not None:
            return tuple(Option(str(d), None) for d in range(10))
        if self.director_open:
            return tuple(Option(label, action) for label, action in DIRECTOR_MENU)
        return menu_options(self.director.enabled) if self.menu_owner is not None else self.options

    def press(self, player: str, action: str, t: float = 0.0) -> list[Input]:
        """A button's ``next`` or ``confirm`` (other actions pass through); the inputs for the referee."""
        if self.pin_for is not None or self.director_open or action == "next" and self.director.held():
            return self._director_press(player, action, t)
        if action == "next":
            self._next(player)
            return []
        if action != "confirm":
            return [PlayerInput(player, action, None, t)]
        if self.menu_owner is not None and self.menu_owner != player:
            self._close()  # the other player's confirm (ending a camera-only turn) goes through
            return [PlayerInput(player, "confirm", None, t)]
        if self.highlight is None:
            return [PlayerInput(player, "confirm", None, t)]
        option = self.shown[self.highlight]
        self._close()
        if option.action == DIRECTOR_ENTRY:
            self.director_open, self.highlight = True, 0
            return []
        made = option.input(player, t)
        return [made] if made is not None else []

    def _director_press(self, player: str, action: str, t: float) -> list[Input]:
        """``next`` / ``confirm`` in the director's menu or the PIN's entry (other buttons pass through)."""
        if action not in ("next", "confirm"):
            return [PlayerInput(player, action, None, t)]
        self.changed = True
        if not self.director_open and self.pin_for is None:  # the key held: next opens the menu
            self.director_open, self.highlight = True, 0
            return []
        n = len(self.shown)
        if action == "next":
            self.highlight = 0 if self.highlight is None else (self.highlight + 1) % n
            return []
        pick = self.highlight or 0
        if self.pin_for is not None:
            self.pin_digits += str(pick)
            self.highlight = 0
            if len(self.pin_digits) < len(self.director.pin):
                return []
            act, ok = self.pin_for, self.pin_digits == self.director.pin
            self._close()
            return [self._order(act, "pin" if ok else "", t)]
        chosen = DIRECTOR_MENU[pick][1]
        self._close()
        if chosen is None:
            return []
        if self.director.held():
            return [self._order(chosen, "button", t)]
        if self.director.pin:
            self.pin_for, self.pin_digits, self.highlight = chosen, "", 0
            return []
        return [self._order(chosen, "", t)]

    @staticmethod
    def _order(action: str, key: str, t: float) -> DirectorAction:
        how = {"button": "the director's button", "pin": "the director's PIN"}.get(key, "no director's key")
        return DirectorAction(action, by="director at the table", why=f"from the table's buttons ({how})",
                              key=key, t=t)

    def _next(self, player: str) -> None:
        if self.menu_owner is None and not self.options:
            if self.view is None or self.view.state not in MENU_STATES:
                return
            self.menu_owner, self.highlight = player, None
        n = len(self.shown)
        self.highlight = 0 if self.highlight is None else (self.highlight + 1) % n
        self.changed = True

    def _close(self) -> None:
        self.menu_owner, self.highlight, self.changed = None, None, True
        self.director_open, self.pin_for, self.pin_digits = False, None, ""

    # ------------------------------------------------------------------ the screen

    def decorate(self, view: Optional[TableView] = None) -> tuple[Optional[TableView], Optional[int]]:
        """The view the screen draws (the shown options' labels as its choices) and the highlight."""
        view = view or self.view
        if view is None:
            return None, None
        shown = self.shown
        if self.pin_for is not None:
            digit = f"digit {len(self.pin_digits) + 1} of {len(self.director.pin)}"
            view = view.replace(message=f"Director's PIN, {digit}: next changes it, confirm enters it",
                                choices=tuple(o.label for o in shown))
        elif self.director_open:
            view = view.replace(message="Director's menu: next steps, confirm picks",
                                choices=tuple(o.label for o in shown))
        elif self.menu_owner is not None:
            name = view.name(self.menu_owner)
            view = view.replace(message=f"{name}'s menu: next steps, confirm picks",
                                choices=tuple(o.label for o in shown))
        elif shown:
            view = view.replace(choices=tuple(o.label for o in shown))
        return view, self.highlight
