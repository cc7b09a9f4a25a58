"""The referee's settings: the optional rules and club customs, one frozen value.

Validated on construction; a bad value raises :class:`SettingsError` naming the key,
the value and what is allowed.  The table's TOML sets them in its ``[rules]`` table
(:mod:`referee.table.config`; the names from ``[players]``, ``min_confidence`` from
``[vision] sure``); ``Settings.from_dict`` reads a plain dict (a script's settings line,
``bgtable referee --set``; unknown keys are an error, not silently ignored).
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from referee.colour import COLOURS
from referee.errors import RefereeError

EARLY_ROLL = ("stands", "void")
DIE_ON_CHECKER = ("reroll", "stands")
LANDING = ("board", "tray")
ROTATIONS = ("standard", "box_rotates")


class SettingsError(RefereeError, ValueError):
    """A referee setting has a bad value; the message names the key and the value."""


@dataclass(frozen=True)
class Settings:
    """What the referee enforces (RULES.md sections 7-9).

    * ``match_to``: match length in points; 0 = money play (a session).
    * ``crawford``: the Crawford rule in matches (on by default).
    * ``jacoby``, ``beavers``, ``automatic_doubles`` (most per game, 0 = off):
      money-play rules, refused in a match.
    * ``cube_limit``: highest cube value (0 = no limit).
    * ``early_roll``: ``"stands"`` (the mover may still change the move, then the
      early roll is played) or ``"void"`` (the early roll is thrown again).
    * ``die_on_checker``: ``"reroll"`` or ``"stands"`` for a die resting flat on a checker.
    * ``landing``: ``"board"`` (each thrower's right-hand half) or ``"tray"`` (a dice tower or
      tray: the reference dice reader reports its dice in zone ``"tray"``).
    * ``dice_reader``: False for a camera-only table: the roll is inferred from the move.
    * ``min_confidence``: below it a point of a board reading counts as uncertain.
    * ``names``: (dark player, light player).
    * ``chouette``: three or more names turn on chouette (money only); the first is the
      first box, the rest the team in order (the first of them captains).
      ``chouette_rotation``: ``"standard"`` (RULES.md 8.5) or ``"box_rotates"`` (the box
      passes to the captain after every game).  ``box_colour``: the colour the box plays.
    """

    match_to: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    cube_limit: int = 0
    early_roll: str = "stands"
    die_on_checker: str = "reroll"
    landing: str = "board"
    dice_reader: bool = True
    min_confidence: float = 0.6
    names: tuple[str, str] = ("Dark", "Light")
    chouette: tuple[str, ...] = ()
    chouette_rotation: str = "standard"
    box_colour: str = "dark"

    def __post_init__(self) -> None:
        def bad(key: str, why: str) -> SettingsError:
            return SettingsError(f"setting {key} = {getattr(self, key)!r}: {why}")

        for key in ("crawford", "jacoby", "beavers", "dice_reader"):
            if not isinstance(getattr(self, key), bool):
                raise bad(key, "must be true or false")
        for key in ("match_to", "automatic_doubles", "cube_limit"):
            v = getattr(self, key)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise bad(key, "must be a whole number >= 0")
        if self.cube_limit and (self.cube_limit < 2 or self.cube_limit & (self.cube_limit - 1)):
            raise bad("cube_limit", "must be 0 (no limit) or a cube value 2, 4, 8, ...")
        for key, allowed in (("early_roll", EARLY_ROLL), ("die_on_checker", DIE_ON_CHECKER),
                             ("landing", LANDING), ("chouette_rotation", ROTATIONS), ("box_colour", COLOURS)):
            if getattr(self, key) not in allowed:
                raise bad(key, "must be one of " + ", ".join(repr(a) for a in allowed))
        if not isinstance(self.min_confidence, (int, float)) or not 0.0 <= self.min_confidence <= 1.0:
            raise bad("min_confidence", "must be a number in 0..1")
        object.__setattr__(self, "names", tuple(self.names))
        if len(self.names) != 2 or not all(isinstance(n, str) and n for n in self.names):
            raise bad("names", "must be two non-empty names (dark, light)")
        object.__setattr__(self, "chouette", tuple(self.chouette))
        if self.match_to:
            for key in ("jacoby", "beavers"):
                if getattr(self, key):
                    raise bad(key, f"is a money-play rule; set match_to = 0 or turn {key} off")
            if self.automatic_doubles:
                raise bad("automatic_doubles", "is a money-play rule; set match_to = 0 or automatic_doubles = 0")
            if self.chouette:
                raise bad("chouette", "chouette is money play; set match_to = 0")
        if self.chouette:
            if len(self.chouette) < 3 or not all(isinstance(n, str) and n for n in self.chouette):
                raise bad("chouette", "needs three or more player names")
            if len(set(self.chouette)) != len(self.chouette):
                raise bad("chouette", "player names must differ")

    @property
    def money(self) -> bool:
        """Whether this is money play (no match length)."""
        return self.match_to == 0

    def to_dict(self) -> dict[str, Any]:
        """The settings as a JSON-ready dict (tuples as lists)."""
        return {f.name: (list(v) if isinstance(v := getattr(self, f.name), tuple) else v) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Settings":
        """Settings from a plain dict (a TOML table); unknown keys raise SettingsError."""
        if not isinstance(d, dict):
            raise SettingsError(f"referee settings must be a table of key = value, not {d!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise SettingsError(f"unknown referee setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        args = dict(d)
        for key in ("names", "chouette"):
            if isinstance(args.get(key), list):
                args[key] = tuple(args[key])
        return cls(**args)
