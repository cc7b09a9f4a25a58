"""The whole table's configuration: one TOML file, read and validated here only.

:func:`load` (a path) and :func:`loads` (TOML text) return a frozen :class:`TableConfig`;
each package owns the dataclass of its own section and takes it as a value, never
re-reading the file:

=================  ==============================================  ===================
section            dataclass                                       read by
=================  ==============================================  ===================
``[players]``      :class:`hardware.config.PlayersConfig`          seats, screen, names
``[camera]``       :class:`vision.config.CameraConfig`             the frame source
``[vision]``       :class:`vision.config.VisionConfig`             the board reader
``[dice]``         :class:`firmware_bridge.config.DiceConfig`      the dice link
``[rules]``        :class:`referee.settings.Settings`              the referee
``[chouette]``     :class:`ChouetteConfig` (into ``[rules]``)      the referee, screen
``[cube_display]`` :class:`hardware.config.CubeDisplayConfig`      the cube display
``[buttons]``      :class:`hardware.config.ButtonsConfig`          the buttons
``[screen]``       :class:`hardware.config.ScreenConfig`           the table screen
``[match]``        :class:`MatchConfig`                            every record's header
``[journal]``      :class:`JournalConfig`                          the table process
=================  ==============================================  ===================

The players' names are in ``[players]`` (they are also the seats), or, at a chouette, in
``[chouette] players`` (rotation order; the first is the first box, the second the first
captain): then ``[players]`` gives only the seats and checker colours, and names given there
too are not used (:attr:`TableConfig.notes` says so, and ``bgtable run`` logs it).  ``[match]`` names the
event, the round, the table and the place, which go into every record: the journal's
match line, the .mat header (``; [Event "..."]``) and the SGF root (``EV``, ``RO``, ``PC``).

Every error is a :class:`referee.sections.ConfigError` naming the dotted key and the bad
value (``cube_display.i2c_address = 300: ...``).  Unknown keys and sections are errors too,
with a "did you mean" hint, so a typo is never silently ignored.  Every section is optional
and has the defaults shown in ``hardware/table.example.toml``.
"""
from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from firmware_bridge.config import DiceConfig, dice_section
from hardware.config import (HardwareConfig, buttons_section, check_pins, cube_display_section, players_section,
                             screen_section)
from referee.clock import ClockConfig
from referee.table.club.config import ClubLink
from referee.sections import ConfigError, Section, boolean, choice, integer, string
from referee.colour import COLOURS
from referee.settings import DIE_ON_CHECKER, EARLY_ROLL, LANDING, ROTATIONS, Settings
from vision.config import CameraConfig, VisionConfig, camera_section, vision_section

import hardware

EXAMPLE = Path(hardware.__file__).with_name("table.example.toml")
"""The shipped example config, every key documented."""

__all__ = ["ChouetteConfig", "ConfigError", "JournalConfig", "MatchConfig", "TableConfig", "EXAMPLE", "load", "loads",
           "from_dict"]

# the [rules] keys: the Settings fields a table's file sets (names come from [players],
# min_confidence from [vision] sure, dice_reader from whether the reader answers)
RULES = ("match_to", "crawford", "jacoby", "beavers", "automatic_doubles", "cube_limit", "early_roll",
         "die_on_checker", "landing")


@dataclass(frozen=True)
class JournalConfig:
    """Where the table keeps its journal (and the match files)."""

    directory: str = "journal"


@dataclass(frozen=True)
class MatchConfig:
    """What the records say about the match besides the players: event, round, table, place."""

    event: str = ""   # e.g. "Club championship 2026"
    round: str = ""   # e.g. "Round 2", "Final"
    table: str = ""   # the table's number or name at the club, e.g. "3"
    site: str = ""    # the place, e.g. "The Crown, Leeds"

    def header(self, started: datetime) -> tuple[tuple[str, str], ...]:
        """The record's header tags (as gnubg's .mat header names them) for a match started at
        ``started``: Site, Event, Round, EventDate, EventTime, Table (empty ones left out)."""
        tags = (("Site", self.site), ("Event", self.event), ("Round", self.round),
                ("EventDate", started.strftime("%Y.%m.%d")), ("EventTime", started.strftime("%H.%M")),
                ("Table", self.table))
        return tuple((k, v) for k, v in tags if v)


def _header_text(limit: int) -> Callable[[str, Any], str]:
    def check(key: str, v: Any) -> str:
        if isinstance(v, int) and not isinstance(v, bool):
            v = str(v)  # table = 3
        text = string(key, v).strip()
        if len(text) > limit:
            raise ConfigError(key, text, f"must be at most {limit} characters")
        if '"' in text or any(ord(c) < 32 for c in text):
            raise ConfigError(key, text, "must be one line without double quotes (the .mat header quotes it)")
        return text
    return check


def _match(s: Section) -> MatchConfig:
    d = MatchConfig()
    c = MatchConfig(event=s.get("event", d.event, _header_text(80)), round=s.get("round", d.round, _header_text(40)),
                    table=s.get("table", d.table, _header_text(12)), site=s.get("site", d.site, _header_text(80)))
    s.finish(("event", "round", "table", "site"))
    return c


@dataclass(frozen=True)
class ChouetteConfig:
    """A chouette table (RULES.md 8.5): the players in rotation order (none: heads-up), the
    colour the box plays, and how the box rotates after each game."""

    players: tuple[str, ...] = ()  # the first is the first box, the second the first captain
    box_colour: str = "dark"
    rotation: str = "standard"  # "standard" | "box_rotates"

    @property
    def on(self) -> bool:
        """Whether the table plays a chouette."""
        return bool(self.players)

    def names(self) -> tuple[str, str]:
        """The first game's (dark, light) names: the box on its colour, the captain on the other."""
        box, captain = self.players[0], self.players[1]
        return (box, captain) if self.box_colour == "dark" else (captain, box)


CHOUETTE_KEYS = ("players", "box_colour", "rotation")


def _chouette_players(key: str, v: Any) -> tuple[str, ...]:
    example = 'e.g. players = ["Ann", "Bob", "Cid"] (the first is the first box)'
    if not isinstance(v, list) or not all(isinstance(n, str) for n in v):
        raise ConfigError(key, v, f"must be a list of player names, {example}")
    names = tuple(n.strip() for n in v)
    if len(names) < 3:
        raise ConfigError(key, list(names), f"a chouette needs three or more players, {example}; "
                                            "for two players remove [chouette] and name them in [players]")
    for n in names:
        if not n or len(n) > 24:
            raise ConfigError(key, list(names), f"{n!r}: a player name must be 1..24 characters")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ConfigError(key, list(names), f"{', '.join(twice)} is named twice: every player needs a different name")
    return names


def chouette_section(s: Section) -> ChouetteConfig:
    """The ``[chouette]`` table: the players in rotation order, the box's colour, the rotation."""
    d = ChouetteConfig()
    if s.table and "players" not in s.table:
        raise ConfigError(s.key("players"), "<missing>", 'name the chouette\'s players, e.g. players = ["Ann", '
                          '"Bob", "Cid"] (the first is the first box), or remove [chouette] for a heads-up table')
    c = ChouetteConfig(players=s.get("players", d.players, _chouette_players),
                       box_colour=s.get("box_colour", d.box_colour, choice(COLOURS)),
                       rotation=s.get("rotation", d.rotation, choice(ROTATIONS)))
    s.finish(CHOUETTE_KEYS)
    return c


@dataclass(frozen=True)
class TableConfig(HardwareConfig):
    """The whole table: one value per section (players, cube_display, buttons, screen from
    :class:`hardware.config.HardwareConfig`)."""

    camera: CameraConfig = field(default_factory=CameraConfig)
    vision: VisionConfig = field(default_factory=VisionConfig)
    dice: DiceConfig = field(default_factory=DiceConfig)
    rules: Settings = field(default_factory=Settings)
    chouette: ChouetteConfig = field(default_factory=ChouetteConfig)
    match: MatchConfig = field(default_factory=MatchConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    clock: ClockConfig = field(default_factory=ClockConfig)
    club: ClubLink = field(default_factory=ClubLink)
    source: str = ""  # the file it came from, for messages
    notes: tuple[str, ...] = ()  # what the file says that is not used, and why (logged by bgtable run)


def rules_section(s: Section, names: tuple[str, str], sure: float,
                  chouette: ChouetteConfig = ChouetteConfig()) -> Settings:
    """The ``[rules]`` table as the referee's :class:`~referee.settings.Settings` (with the
    chouette's players, box colour and rotation when ``chouette`` names players)."""
    d = Settings()
    match_to = s.get("match_to", d.match_to, integer(0, 99))
    money = dict(jacoby=s.get("jacoby", d.jacoby, boolean), beavers=s.get("beavers", d.beavers, boolean),
                 automatic_doubles=s.get("automatic_doubles", d.automatic_doubles, integer(0, 10)))
    cube_limit = s.get("cube_limit", d.cube_limit, integer(0))
    rest = dict(crawford=s.get("crawford", d.crawford, boolean),
                early_roll=s.get("early_roll", d.early_roll, choice(EARLY_ROLL)),
                die_on_checker=s.get("die_on_checker", d.die_on_checker, choice(DIE_ON_CHECKER)),
                landing=s.get("landing", d.landing, choice(LANDING)))
    s.finish(RULES)
    if cube_limit and (cube_limit < 2 or cube_limit & (cube_limit - 1)):
        raise ConfigError(s.key("cube_limit"), cube_limit, "must be 0 (no limit) or a power of two >= 2")
    if match_to:
        for k, v in money.items():
            if v:
                raise ConfigError(s.key(k), v, "is a money-play rule; turn it off or set rules.match_to = 0")
    if not chouette.on:
        return Settings(match_to=match_to, cube_limit=cube_limit, names=names, min_confidence=sure,
                        **money, **rest)  # type: ignore[arg-type]
    if match_to:
        raise ConfigError(s.key("match_to"), match_to, "a chouette is money play: set rules.match_to = 0 "
                          "(or remove [chouette] for a match)")
    if money["beavers"]:
        raise ConfigError(s.key("beavers"), True, "beavers are not played in a chouette: set rules.beavers = false")
    return Settings(match_to=0, cube_limit=cube_limit, names=chouette.names(), min_confidence=sure,
                    chouette=chouette.players, box_colour=chouette.box_colour,
                    chouette_rotation=chouette.rotation, **money, **rest)  # type: ignore[arg-type]


def _chouette_notes(data: dict[str, Any], chouette: ChouetteConfig) -> tuple[str, ...]:
    """What a chouette's file says that is not used: names in ``[players]``."""
    given = [k for k in ("dark", "light") if isinstance(data.get("players"), dict) and k in data["players"]]
    if not chouette.on or not given:
        return ()
    keys = " and ".join(f"players.{k}" for k in given)
    return (f"{keys} not used: at a chouette the names come from chouette.players "
            f"({', '.join(chouette.players)}; the box {chouette.players[0]} plays {chouette.box_colour}); "
            f"remove {keys} to silence this",)


def _journal(s: Section) -> JournalConfig:
    c = JournalConfig(directory=s.get("directory", JournalConfig().directory, string))
    s.finish(("directory",))
    if not c.directory:
        raise ConfigError(s.key("directory"), c.directory, "must name a directory for the journal")
    return c


# section name -> its reader, in the example file's order ([rules] is read after [players], [vision]
# and [chouette])
_SECTIONS: dict[str, Callable[[Section], Any]] = {
    "players": players_section, "camera": camera_section, "vision": vision_section, "dice": dice_section,
    "rules": lambda s: s, "chouette": chouette_section, "cube_display": cube_display_section,
    "buttons": buttons_section,
    "screen": screen_section, "match": _match, "journal": _journal,
    "clock": lambda s: ClockConfig.from_toml(s.table), "club": lambda s: ClubLink.from_toml(s.table),
}


def from_dict(data: dict[str, Any], source: str = "") -> TableConfig:
    """Validate parsed TOML data into a :class:`TableConfig`."""
    for k in data:
        if k not in _SECTIONS:
            close = difflib.get_close_matches(k, list(_SECTIONS), n=1)
            hint = f"; did you mean [{close[0]}]?" if close else f"; sections: {', '.join(_SECTIONS)}"
            raise ConfigError(k, data[k] if not isinstance(data[k], dict) else "[...]", "unknown section" + hint)
    parts = {name: read(Section(name, data.get(name, {}))) for name, read in _SECTIONS.items()}
    players, vision = parts["players"], parts["vision"]
    parts["rules"] = rules_section(parts["rules"], (players.dark, players.light), vision.sure, parts["chouette"])
    config = TableConfig(**parts, source=source, notes=_chouette_notes(data, parts["chouette"]))
    check_pins(config)
    return config


def loads(text: str, source: str = "<string>") -> TableConfig:
    """Parse and validate TOML text."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(source, "<toml>", f"not valid TOML: {exc}") from None
    return from_dict(data, source)


def load(path: str | Path) -> TableConfig:
    """Read and validate a table config file."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError("config file", str(p), "is a directory; name the TOML file (e.g. table.toml)")
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("config file", str(p),
                          f"cannot be read ({exc.strerror}); copy hardware/table.example.toml") from None
    except UnicodeDecodeError as exc:
        raise ConfigError("config file", str(p),
                          f"is not a UTF-8 text file (byte {exc.start} is 0x{exc.object[exc.start]:02x});"
                          " a config is TOML text: copy hardware/table.example.toml") from None
    return loads(text, str(p))
