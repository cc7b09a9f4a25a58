"""Matches at a club table: the live journal (``current.jsonl``), what it holds against the
config (players, match length: reported, never silently ignored), and archiving a finished or
abandoned match under a name with the players and the date."""
from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Optional

from referee.records.journal import Journal, read_journal
from referee.settings import Settings
from referee.table.process import TableCore

log = logging.getLogger("bgtable.run")


def journal_path(directory: Path) -> Path:
    """The live journal in ``directory``: ``current.jsonl``."""
    return directory / "current.jsonl"


class HeaderJournal(Journal):
    """A journal whose match line carries the record's header tags (``[match]`` and the date)."""

    def __init__(self, path: Path, header: tuple[tuple[str, str], ...] = (), **kw: Any) -> None:
        super().__init__(path, **kw)
        self.header = header

    def start_match(self, players: tuple[str, str], match_length: int, rules: Any = None,
                    meta: tuple[tuple[str, str], ...] = ()) -> int:
        """The match line, with this journal's header when none is given."""
        from referee.records.record import RuleSettings  # noqa: PLC0415
        return super().start_match(players, match_length, rules if rules is not None else RuleSettings(),
                                   meta or self.header)


@dataclass(frozen=True)
class JournalMatch:
    """What a journal's match line says: the players, the match length, the header tags."""

    players: tuple[str, str]
    match_length: int
    meta: tuple[tuple[str, str], ...] = ()
    inputs: int = 0  # the journal's input events (0: nothing played yet)


def journal_match(path: Path) -> Optional[JournalMatch]:
    """The match in the journal at ``path`` (None when there is no journal or no match line yet)."""
    if not path.exists():
        return None
    read = read_journal(path)
    for e in read.events:
        if e.get("event") == "match":
            return JournalMatch(tuple(e.get("players", ("", ""))), int(e.get("match_length", 0)),
                                tuple(tuple(kv) for kv in e.get("meta", ())),
                                sum(1 for x in read.events if x.get("event") == "input"))
    return None


def _length(n: int) -> str:
    return "money play" if n == 0 else f"a {n}-point match"


def differences(config: Any, settings: Settings, found: JournalMatch) -> list[str]:
    """How the config's match differs from the journal's: players, match length, event, round, table."""
    out = []
    if tuple(settings.names) != tuple(found.players) and not settings.chouette:
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
    """The settings that replay the journal's match: its players and match length (the rest the config's)."""
    if settings.chouette:
        return settings
    return replace(settings, names=found.players, match_to=found.match_length)


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
