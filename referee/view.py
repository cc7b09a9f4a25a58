"""What the table shows: the referee's output for the screen and the cube display.

:class:`TableView` is one immutable snapshot of everything the players look at:
the board as the referee believes it, the dice, the cube, the score, whose turn,
the protocol state and a one-line message a club player understands.  The
referee produces one after every event; ``hardware`` (the pygame screen and the
cube display) only consumes it.  Like the input events (``referee.events``) it
has a one-line JSON text form that round-trips (:meth:`TableView.to_json` /
:meth:`TableView.from_json`), so a journal line, a test and a screenshot fixture
are the same thing.  Standard library only.

Conventions (the same as ``referee.events``)
-------------------------------------------
* Colours are ``"dark"`` and ``"light"``; pairs are always ``(dark, light)``.
* Board counts are in **table numbering** (Dark's points): ``dark[i]`` and
  ``light[i]`` are the checkers of that colour on table point ``i + 1``.  Dark
  moves from 24 towards 1 (home 1..6); Light moves from 1 towards 24 (home 19..24).
* ``dice``: the dice showing, in the order thrown, ``()`` when none.  In the
  ``"opening_roll"`` state they are ``(dark's die, light's die)`` with ``None``
  for a die not yet thrown; otherwise they belong to the player on turn.
  ``None`` elsewhere means an unreadable die.
* ``cube_value`` is the stake (1 at the start: the cube in the middle shows 64);
  ``cube_owner`` is ``None`` while the cube is in the middle.  A pending double
  is ``cube_offered_by`` (the doubler) and ``cube_offered_value`` (what the
  cube will show if taken; twice the value unless a beaver made it more).
* ``match_length`` 0 means money play (no match length).
* ``chouette`` (None heads-up): who is the box, who captains, and each team member's own
  cube against the box with its state, plus every player's running score
  (:class:`ChouetteView`).  ``names`` are then the box (on the box's colour) and the captain;
  the cube fields show the captain's cube.  It is left out of the text form when None, so a
  heads-up view's JSON is unchanged.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Optional, cast

from referee.colour import COLOURS

#: The protocol states the screen knows how to show, with what each means.
STATES: dict[str, str] = {
    "opening_roll": "each player throws one die; the higher starts",
    "waiting_for_roll": "the player on turn may double or throw the dice",
    "reroll": "the last throw does not count; the message says why",
    "moving": "the dice are accepted; the player on turn moves and lifts the dice",
    "illegal_move": "the move just completed is not legal; the opponent chooses",
    "double_offered": "a double is pending; the opponent takes or passes",
    "resignation_offered": "a resignation is pending; the opponent accepts or rejects",
    "game_over": "the game is finished; the message gives the result",
    "match_over": "the match is finished",
    "waiting_for_board": "the referee waits for a readable board (hands away, fix the checkers)",
    "director": "the director was called; play is paused",
}

# Start of a game in table numbering: Dark 2 on 24, 5 on 13, 3 on 8, 5 on 6;
# Light the same from its side (its point p is table point 25 - p).
START_DARK: tuple[int, ...] = tuple(
    {24: 2, 13: 5, 8: 3, 6: 5}.get(p, 0) for p in range(1, 25))
START_LIGHT: tuple[int, ...] = tuple(
    {1: 2, 12: 5, 17: 3, 19: 5}.get(p, 0) for p in range(1, 25))


class ViewError(ValueError):
    """A table view's text form or field values are malformed; the message names the value."""


#: A chouette team member's state this game, with what each means on the screen.
MEMBER_STATES: dict[str, str] = {
    "playing": "in the game with their own cube",
    "to_answer": "the box doubled: this member takes or passes",
    "doubling": "this member doubled the box: the box takes or passes",
    "passed": "passed the box's double: paid and out of this game",
    "cashed": "the box passed this member's double: paid by the box and out of this game",
}
CUBE_HOLDERS = ("box", "member")


@dataclass(frozen=True)
class MemberView:
    """One chouette team member: their cube against the box (value, holder: ``"box"``,
    ``"member"`` or None in the middle) and their state this game (:data:`MEMBER_STATES`)."""

    name: str
    cube_value: int = 1
    cube_owner: Optional[str] = None
    state: str = "playing"

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ViewError(f"chouette member name {self.name!r} must be a non-empty string")
        v = self.cube_value
        if not isinstance(v, int) or isinstance(v, bool) or v < 1 or v & (v - 1):
            raise ViewError(f"{self.name}'s cube_value {v!r} must be a power of two >= 1")
        if self.cube_owner is not None and self.cube_owner not in CUBE_HOLDERS:
            raise ViewError(f"{self.name}'s cube_owner {self.cube_owner!r} must be 'box', 'member' or None")
        if self.state not in MEMBER_STATES:
            raise ViewError(f"{self.name}'s state {self.state!r} is not one of {', '.join(MEMBER_STATES)}")


@dataclass(frozen=True)
class ChouetteView:
    """A chouette on the screen: the box (and the colour it plays), the captain, the team in
    line order, and every player's running score (name, points), when known."""

    box: str
    box_colour: str
    captain: str
    members: tuple[MemberView, ...]
    scores: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        members = tuple(m if isinstance(m, MemberView) else MemberView(**m) for m in self.members)
        object.__setattr__(self, "members", members)
        object.__setattr__(self, "scores", tuple((str(n), int(p)) for n, p in self.scores))
        _colour("chouette box_colour", self.box_colour)
        if self.box_colour is None:
            raise ViewError("chouette box_colour None must be 'dark' or 'light'")
        names = [m.name for m in members]
        if len(names) < 2 or len(set(names)) != len(names) or self.box in names:
            raise ViewError(f"chouette team {names!r} must be two or more different players besides the box "
                            f"{self.box!r}")
        if self.captain not in names:
            raise ViewError(f"chouette captain {self.captain!r} is not in the team {names!r}")

    @property
    def team_colour(self) -> str:
        """The colour the captain plays for the team."""
        return "light" if self.box_colour == "dark" else "dark"

    def score(self, name: str) -> Optional[int]:
        """``name``'s running score, None when the view has no scores."""
        return dict(self.scores).get(name)

    @classmethod
    def from_dict(cls, d: Any) -> "ChouetteView":
        """A chouette view from its JSON form (ViewError naming what is wrong)."""
        if not isinstance(d, dict):
            raise ViewError(f"chouette {d!r} must be a JSON object")
        known = {f.name for f in fields(cls)}
        if set(d) - known:
            raise ViewError(f"unknown chouette field(s) {', '.join(sorted(set(d) - known))}")
        try:
            members = tuple(MemberView(**m) for m in d.get("members", ()))
            return cls(**{**d, "members": members, "scores": tuple(tuple(x) for x in d.get("scores", ()))})
        except TypeError as exc:
            raise ViewError(f"chouette {d!r}: {exc}") from None


def pip_counts(dark: tuple[int, ...], light: tuple[int, ...],
               bar: tuple[int, int] = (0, 0)) -> tuple[int, int]:
    """(Dark's, Light's) pip counts: the pips each needs to bear everything off."""
    d = sum(n * (i + 1) for i, n in enumerate(dark)) + 25 * bar[0]
    l_ = sum(n * (24 - i) for i, n in enumerate(light)) + 25 * bar[1]
    return d, l_


def _pair(name: str, value: Any, kind: type = int) -> tuple[Any, Any]:
    try:
        a, b = value
    except (TypeError, ValueError):
        raise ViewError(f"{name} {value!r} must be a (dark, light) pair") from None
    for x in (a, b):
        if not isinstance(x, kind) or (isinstance(x, int) and (isinstance(x, bool) or x < 0)):
            raise ViewError(f"{name} {value!r}: {x!r} is not a {'count >= 0' if kind is int else kind.__name__}")
    return a, b


def _colour(name: str, value: Any) -> Optional[str]:
    if value is not None and value not in COLOURS:
        raise ViewError(f"{name} {value!r} must be 'dark', 'light' or None")
    return cast(Optional[str], value)


@dataclass(frozen=True)
class TableView:
    """One snapshot of what the table shows (see the module docstring for conventions)."""

    dark: tuple[int, ...] = START_DARK
    light: tuple[int, ...] = START_LIGHT
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    pips: Optional[tuple[int, int]] = None  # computed from the board when None
    dice: tuple[Optional[int], ...] = ()
    cube_value: int = 1
    cube_owner: Optional[str] = None
    cube_offered_by: Optional[str] = None
    cube_offered_value: Optional[int] = None  # 2 * cube_value by default when offered
    crawford: bool = False
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    names: tuple[str, str] = ("Dark", "Light")
    game: int = 1
    turn: Optional[str] = None
    state: str = "opening_roll"
    message: str = ""
    choices: tuple[str, ...] = ()
    last_plays: tuple[str, ...] = ()  # oldest first, e.g. "Dark 31: 8/5 6/5"
    chouette: Optional[ChouetteView] = None  # the box, captain and members' cubes (None heads-up)

    def __post_init__(self) -> None:
        def set_(k: str, v: object) -> None:  # a frozen dataclass stores its normalised fields so
            object.__setattr__(self, k, v)
        for name in ("dark", "light"):
            counts = tuple(getattr(self, name))
            if len(counts) != 24 or any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in counts):
                raise ViewError(f"{name} must be 24 checker counts >= 0 (table points 1..24), got {counts!r}")
            set_(name, counts)
        set_("bar", _pair("bar", self.bar))
        set_("off", _pair("off", self.off))
        set_("score", _pair("score", self.score))
        set_("names", _pair("names", self.names, str))
        set_("pips", pip_counts(self.dark, self.light, self.bar) if self.pips is None else _pair("pips", self.pips))
        dice = tuple(self.dice)
        if len(dice) > 2 or any(d is not None and (not isinstance(d, int) or not 1 <= d <= 6) for d in dice):
            raise ViewError(f"dice {dice!r} must be at most two values 1..6 (None for unreadable)")
        set_("dice", dice)
        v = self.cube_value
        if not isinstance(v, int) or v < 1 or v & (v - 1):
            raise ViewError(f"cube_value {v!r} must be a power of two >= 1 (1 = cube in the middle)")
        _colour("cube_owner", self.cube_owner)
        _colour("cube_offered_by", self.cube_offered_by)
        _colour("turn", self.turn)
        if self.cube_offered_by is None:
            set_("cube_offered_value", None)
        else:
            ov = self.cube_offered_value if self.cube_offered_value is not None else 2 * v
            if not isinstance(ov, int) or ov <= v or ov & (ov - 1):
                raise ViewError(f"cube_offered_value {ov!r} must be a power of two above cube_value {v}")
            set_("cube_offered_value", ov)
        if self.state not in STATES:
            raise ViewError(f"state {self.state!r} is not one of {', '.join(STATES)}")
        if not isinstance(self.match_length, int) or self.match_length < 0:
            raise ViewError(f"match_length {self.match_length!r} must be >= 0 (0 = money play)")
        set_("choices", tuple(str(c) for c in self.choices))
        set_("last_plays", tuple(str(p) for p in self.last_plays))
        if self.chouette is not None and not isinstance(self.chouette, ChouetteView):
            raise ViewError(f"chouette {self.chouette!r} must be a ChouetteView or None")

    # ------------------------------------------------------------ helpers

    @property
    def money(self) -> bool:
        """True for money play (no match length)."""
        return self.match_length == 0

    def name(self, colour: str) -> str:
        """The name of the player playing ``colour``."""
        return self.names[COLOURS.index(colour)]

    def replace(self, **changes: Any) -> "TableView":
        """A copy with some fields changed (pips are recomputed unless given)."""
        if "pips" not in changes and any(k in changes for k in ("dark", "light", "bar")):
            changes["pips"] = None
        return replace(self, **changes)

    # ------------------------------------------------------------ text form

    def to_dict(self) -> dict[str, Any]:
        """The view as plain JSON-ready data (tuples become lists)."""
        d = {"kind": "table_view", **asdict(self)}
        if self.chouette is None:
            del d["chouette"]  # a heads-up view's text form stays as it was
        return d

    def to_json(self) -> str:
        """The canonical one-line JSON text form."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TableView":
        """Rebuild a view from :meth:`to_dict` output; unknown keys are an error."""
        if not isinstance(d, dict):
            raise ViewError(f"a table view must be a JSON object, not {d!r}")
        d = dict(d)
        kind = d.pop("kind", "table_view")
        if kind != "table_view":
            raise ViewError(f"kind {kind!r} is not 'table_view'")
        names = {f.name for f in fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ViewError(f"unknown field(s) {', '.join(sorted(unknown))} for a table view")
        for k in ("dark", "light", "bar", "off", "pips", "dice", "score", "names", "choices", "last_plays"):
            if isinstance(d.get(k), list):
                d[k] = tuple(d[k])
        if d.get("chouette") is not None:
            d["chouette"] = ChouetteView.from_dict(d["chouette"])
        return cls(**d)

    @classmethod
    def from_json(cls, line: str) -> "TableView":
        """A view from one JSON line (ViewError quoting the line when it is not one)."""
        try:
            d = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ViewError(f"not JSON: {line.strip()[:80]!r} ({exc.msg})") from None
        return cls.from_dict(d)
