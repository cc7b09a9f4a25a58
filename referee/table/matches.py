"""Matches at a club table: the live journal (``current.jsonl``), what it holds against the
config (players, match length, the chouette: reported, never silently ignored), and archiving a
finished or abandoned match under a name with the players and the date.

A chouette's match line carries ``"chouette": {"players": [...], "box_colour": ..., "rotation": ...}``
(the players in rotation order); a match line without it is a heads-up match's, or a chouette's
written before the match line kept the chouette.  Such an old journal is told by its play
(:func:`told_chouette`): a chouette's cube actions are not in its record lines, a heads-up
match's are, so the journal's inputs replayed as heads-up and as the config's chouette show which
one made the record lines it holds; with no cube action yet, its players tell (the config
chouette's box and captain).  An old chouette that cannot be told is never resumed as heads-up:
:func:`resumed_settings` refuses it, naming the fix."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional

from referee import events as ev
from referee.records.builder import GameStart, MatchStart, entry_event
from referee.records.journal import Journal, JournalError, read_journal
from referee.settings import Settings, SettingsError
from referee.table.config import ChouetteConfig
from referee.table.process import TableCore
from referee.turn.referee import Referee

log = logging.getLogger("bgtable.run")


def journal_path(directory: Path) -> Path:
    """The live journal in ``directory``: ``current.jsonl``."""
    return directory / "current.jsonl"


def chouette_of(settings: Settings) -> ChouetteConfig:
    """The chouette the referee's settings play (no players: heads-up)."""
    if not settings.chouette:
        return ChouetteConfig()
    return ChouetteConfig(tuple(settings.chouette), settings.box_colour, settings.chouette_rotation)


def chouette_line(chouette: ChouetteConfig) -> dict[str, Any]:
    """The match line's ``chouette`` value: the players in rotation order, the box's colour, the rotation."""
    return {"players": list(chouette.players), "box_colour": chouette.box_colour, "rotation": chouette.rotation}


def chouette_from_line(value: Any, path: Path = Path("current.jsonl")) -> ChouetteConfig:
    """The chouette of a match line's ``chouette`` value (None, no key: heads-up); JournalError
    naming the file and the value when it is not one."""
    if value is None:
        return ChouetteConfig()
    if not isinstance(value, dict) or not isinstance(value.get("players"), list):
        raise JournalError(f"journal {path}: its match line has chouette = {value!r}, not "
                           '{"players": [...], "box_colour": ..., "rotation": ...}; '
                           "start the next match with --new-match")
    d = ChouetteConfig()
    return ChouetteConfig(tuple(str(n) for n in value["players"]), str(value.get("box_colour", d.box_colour)),
                          str(value.get("rotation", d.rotation)))


class HeaderJournal(Journal):
    """A journal whose match line carries the record's header tags (``[match]`` and the date)
    and, at a chouette, the chouette (its players in rotation, the box's colour, the rotation)."""

    def __init__(self, path: Path, header: tuple[tuple[str, str], ...] = (),
                 chouette: ChouetteConfig = ChouetteConfig(), **kw: Any) -> None:
        super().__init__(path, **kw)
        self.header = header
        self.chouette = chouette

    def start_match(self, players: tuple[str, str], match_length: int, rules: Any = None,
                    meta: tuple[tuple[str, str], ...] = ()) -> int:
        """The match line, with this journal's header when none is given (and its chouette)."""
        from referee.records.record import RuleSettings  # noqa: PLC0415
        line = entry_event(MatchStart(players, match_length, rules if rules is not None else RuleSettings(),
                                      meta or self.header), 0)
        if self.chouette.on:
            line["chouette"] = chouette_line(self.chouette)
        return self.append(line)


@dataclass(frozen=True)
class JournalMatch:
    """What a journal's match line says: the players, the match length, the header tags, the
    chouette (no players: a heads-up match)."""

    players: tuple[str, str]
    match_length: int
    meta: tuple[tuple[str, str], ...] = ()
    inputs: int = 0  # the journal's input events (0: nothing played yet)
    chouette: ChouetteConfig = ChouetteConfig()
    #: the match line has no chouette key: heads-up, or a chouette's written before it was kept
    #: (:func:`told_chouette` tells which from ``lines``, the journal's events)
    keyless: bool = False
    lines: tuple[dict[str, Any], ...] = field(default=(), compare=False, repr=False)
    _told: dict[Settings, "Told"] = field(default_factory=dict, compare=False, repr=False)


def journal_match(path: Path) -> Optional[JournalMatch]:
    """The match in the journal at ``path`` (None when there is no journal or no match line yet)."""
    if not path.exists():
        return None
    read = read_journal(path)
    for e in read.events:
        if e.get("event") == "match":
            return JournalMatch(tuple(e.get("players", ("", ""))), int(e.get("match_length", 0)),
                                tuple(tuple(kv) for kv in e.get("meta", ())),
                                sum(1 for x in read.events if x.get("event") == "input"),
                                chouette_from_line(e.get("chouette"), path), "chouette" not in e,
                                tuple(read.events))
    return None


# --------------------------------------------------------------------------- an old journal's chouette


@dataclass(frozen=True)
class Told:
    """What a journal's match is: its chouette (no players: heads-up), how an old journal's was
    told (``note``, for the log), or why it cannot be told (``problem``: it is not resumed)."""

    chouette: ChouetteConfig
    note: str = ""
    problem: str = ""


#: the players' inputs a chouette's record does not keep (a heads-up record keeps them as actions)
_CUBE = frozenset({"double", "take", "pass", "beaver"})


def told_chouette(found: JournalMatch, settings: Settings) -> Told:
    """The chouette of the journal's match (``settings``: the config's): the match line's, or,
    for an old journal without one, told by its play and its players (see the module doc)."""
    if found.lines and found.keyless and found.inputs:
        if settings not in found._told:
            found._told[settings] = _tell(found, settings)
        return found._told[settings]
    return Told(found.chouette)


def _tell(found: JournalMatch, settings: Settings) -> Told:
    config = chouette_of(settings)
    heads_up = ChouetteConfig()
    theirs = config.on and tuple(settings.names) == tuple(found.players)  # its box and captain, in their colours
    cube = any(e.get("event") == "input" and e["data"].get("kind") == "player" and e["data"].get("action") in _CUBE
               for e in found.lines)
    old = (f"the journal's match line ({found.players[0]} - {found.players[1]}) does not say whether it is a "
           "chouette (journals written before the chouette was kept did not)")
    if theirs and (not cube or _fits(found, settings, config)):
        how = "its play replays as" if cube else "its players are the box and captain of"
        return Told(config, note=f"{old}; {how} the config's chouette of {', '.join(config.players)}: "
                                 "resumed as that chouette")
    if not cube or _fits(found, settings, heads_up):
        return Told(heads_up)
    played = _unnamed_chouette(found, settings)
    if played is None:  # nor a chouette's: not for this module to judge (the replay goes on as heads-up)
        return Told(heads_up, note=f"{old}; its play replays neither as a heads-up match nor as a chouette: "
                                   "resumed as heads-up")
    box, captain = played.players[:2]
    tried = (f"nor as the config's chouette of {', '.join(config.players)}" if theirs else
             f"and the config names {_table(settings.names, config)}")
    return Told(heads_up, problem=f"{old}, and its play is a chouette's of {len(played.players)} or more players "
                                  f"({box} the box, {captain} the captain, the others not named), not a heads-up "
                                  f"match, {tried}: it is not resumed. To resume it, name its chouette in "
                                  "[chouette] (players in rotation order, box_colour, rotation) as it was played; "
                                  "to start another match, move the journal aside")


def _unnamed_chouette(found: JournalMatch, settings: Settings) -> Optional[ChouetteConfig]:
    """The smallest chouette, with the journal's box and captain and the other members unnamed,
    whose play makes the journal's record lines (None: no chouette does).  Who is the box and how
    many play are what the record lines depend on (not the names, not the rotation)."""
    places = [e["data"].get("choice") for e in found.lines if e.get("event") == "input"
              and e["data"].get("kind") == "player" and e["data"].get("action") in _CUBE]
    team = max([2] + [c + 1 for c in places if isinstance(c, int)])
    for box_colour in ("dark", "light"):
        box, captain = found.players if box_colour == "dark" else found.players[::-1]
        for n in range(team, team + 3):
            players = (box, captain) + tuple(f"player {i}" for i in range(3, n + 2))
            chouette = ChouetteConfig(players, box_colour)
            if _fits(found, settings, chouette):
                return chouette
    return None


def _settings_for(settings: Settings, found: JournalMatch, chouette: ChouetteConfig) -> Settings:
    return replace(settings, names=found.players, match_to=found.match_length, chouette=chouette.players,
                   box_colour=chouette.box_colour if chouette.on else settings.box_colour,
                   chouette_rotation=chouette.rotation if chouette.on else settings.chouette_rotation)


def _fits(found: JournalMatch, settings: Settings, chouette: ChouetteConfig) -> bool:
    """True when the journal's inputs, replayed as ``chouette`` (none: heads-up) with the config's
    other settings, make the record lines it holds (the replay may make more: the lines of an event
    not yet journaled when the table stopped)."""
    try:
        replay = _settings_for(settings, found, chouette)
    except SettingsError:  # e.g. a chouette of a match to N: not this journal's
        return False
    held = [{k: v for k, v in e.items() if k not in ("seq", "crc")} for e in found.lines
            if e.get("event") in ("game", "action")]
    ref = Referee(replay)
    try:
        for e in found.lines:
            if e.get("event") == "input":
                ref.handle(ev.from_dict(e["data"]))
    except ev.EventError:  # an input this table cannot read: not a match it can resume
        return False
    made, game = [], 0
    for entry in ref.new_record_actions():
        if isinstance(entry, MatchStart):
            continue
        game = entry.number if isinstance(entry, GameStart) else game
        made.append(entry_event(entry, game))
    return made[:len(held)] == held


def _length(n: int) -> str:
    return "money play" if n == 0 else f"a {n}-point match"


def _table(players: tuple[str, str], chouette: ChouetteConfig) -> str:
    if not chouette.on:
        return f"a heads-up match {players[0]} - {players[1]}"
    return f"a chouette of {', '.join(chouette.players)}"


def _chouette_differences(found: ChouetteConfig, want: ChouetteConfig) -> list[str]:
    """How two chouettes differ: the players in rotation, the box's colour, the rotation."""
    out = []
    if found.players != want.players:
        out.append(f"chouette players {', '.join(found.players)} in the journal, "
                   f"{', '.join(want.players)} in the config")
    if found.box_colour != want.box_colour:
        out.append(f"the box plays {found.box_colour} in the journal, {want.box_colour} in the config")
    if found.rotation != want.rotation:
        out.append(f"chouette rotation {found.rotation!r} in the journal, {want.rotation!r} in the config")
    return out


def differences(config: Any, settings: Settings, found: JournalMatch) -> list[str]:
    """How the config's match differs from the journal's: heads-up or chouette, players (at a
    chouette: in rotation, the box's colour, the rotation), match length, event, round, table."""
    told = told_chouette(found, settings)
    out = [told.problem] if told.problem else []
    chouette, theirs = chouette_of(settings), told.chouette
    if chouette.on != theirs.on:
        out.append(f"{_table(found.players, theirs)} in the journal, "
                   f"{_table(settings.names, chouette)} in the config")
    elif chouette.on:
        out += _chouette_differences(theirs, chouette)
    elif tuple(settings.names) != tuple(found.players):
        out.append(f"players {found.players[0]} - {found.players[1]} in the journal, "
                   f"{settings.names[0]} - {settings.names[1]} in the config")
    if settings.match_to != found.match_length:
        out.append(f"{_length(found.match_length)} in the journal, {_length(settings.match_to)} in the config")
    have = {k.lower(): v for k, v in found.meta}
    for key, tag in (("event", "Event"), ("round", "Round"), ("table", "Table"), ("site", "Site")):
        want = getattr(config.match, key, "") if getattr(config, "match", None) is not None else ""
        if want != have.get(tag.lower(), ""):
            out.append(f"{key} {have.get(tag.lower(), '')!r} in the journal, {want!r} in the config")
    return out


def resumed_settings(settings: Settings, found: JournalMatch) -> Settings:
    """The settings that replay the journal's match: its players, match length and chouette (or
    none: heads-up; an old journal's told by :func:`told_chouette`, and logged); the rest the
    config's.  JournalError, naming the fix, for an old chouette that cannot be told."""
    told = told_chouette(found, settings)
    if told.problem:
        raise JournalError(told.problem)
    if told.note:
        log.warning("%s", told.note)
    return _settings_for(settings, found, told.chouette)


def _file_part(name: str) -> str:
    """A player's name as part of a file name (letters, digits, - and _ kept; spaces become _)."""
    out = "".join(c if c.isalnum() or c in "-_" else "_" if c.isspace() else "" for c in name.strip())
    return out or "player"


def archive_stem(record: Any, now: datetime, finished: bool = True) -> str:
    """The kept match's file name: the date (its start, from the header, else ``now``), the time and
    the players, e.g. ``2026-12-01-1930-Ann-Bob`` (``-unfinished`` when abandoned)."""
    date = record.meta_value("EventDate").replace(".", "-") or now.strftime("%Y-%m-%d")
    time_ = record.meta_value("EventTime").replace(".", "") or now.strftime("%H%M")
    stem = f"{date}-{time_}-{_file_part(record.players[0])}-{_file_part(record.players[1])}"
    return stem if finished else f"{stem}-unfinished"


def archive(core: TableCore, directory: Path, now: Optional[datetime] = None,
            on_kept: Optional[Callable[[TableCore, str, list[Path]], list[Path]]] = None) -> list[Path]:
    """Keep the match (finished or abandoned) under a name with its players and date; the next
    match starts a new journal.  The paths kept: the journal, then its exports (and what
    ``on_kept`` made of them, before the journal closes: the analysis)."""
    now = now or datetime.now()
    stem = archive_stem(core.record(), now, core.match_over)
    n = 1
    while any((directory / f"{stem}{'' if n == 1 else f'-{n}'}{ext}").exists() for ext in (".jsonl", ".mat", ".sgf")):
        n += 1  # two matches of the same players started in the same minute
    stem = stem if n == 1 else f"{stem}-{n}"
    paths = core.export(directory, stem=stem)
    paths += on_kept(core, stem, paths) if on_kept is not None else []
    core.close()
    current = journal_path(directory)
    kept = directory / f"{stem}.jsonl"
    current.rename(kept)
    for leftover in (directory / "current.mat", directory / "current.sgf"):
        leftover.unlink(missing_ok=True)  # the stopped match's exports, now kept under its name
    return [kept, *paths]
