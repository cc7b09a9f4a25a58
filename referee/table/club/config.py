"""The ``[club]`` section of a table's TOML, and the club's own file (``bgtable club``).

A table's ``[club]`` (no section, or no ``broker``: the table works alone)::

    [club]
    broker = "club.local"     # the club's MQTT broker (Mosquitto)
    port = 1883               # 8883 is usual with tls = true
    club = "riverside"
    table = "t3"
    password = "..."          # this table's broker password (the user name is the table's name)
    tls = false               # true: TLS to the broker, checked against ca_file
    ca_file = ""              # the club's CA certificate (tls = true)

The club's file (``bgtable club --config club.toml``)::

    [club]
    name = "riverside"
    broker = "127.0.0.1"
    port = 1883
    tls = false
    ca_file = ""
    http = "127.0.0.1:8080"   # where the director's page is served
    director = "director"     # the director's login (broker user and page login)
    director_password = "..."
    server_password = "..."   # the page server's own broker login (user "club-server")

    [[tables]]
    name = "t1"
    password = "..."
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from referee.errors import RefereeError
from referee.table.club.messages import MessageError, check_name

SERVER_USER = "club-server"


class ClubConfigError(RefereeError, ValueError):
    """A ``[club]`` setting is wrong; the message names the key, the value and the fix."""


def _take(section: dict[str, Any], where: str, known: dict[str, type]) -> dict[str, Any]:
    if not isinstance(section, dict):
        raise ClubConfigError(f"{where} must be a table of settings, not {section!r}")
    unknown = sorted(set(section) - set(known))
    if unknown:
        raise ClubConfigError(f"{where}: unknown key(s) {', '.join(unknown)}; expected {', '.join(sorted(known))}")
    out = {}
    for k, v in section.items():
        t = known[k]
        if not isinstance(v, t) or (t is int and isinstance(v, bool)):
            raise ClubConfigError(f"{where} {k} = {v!r}: expected {t.__name__}")
        out[k] = v
    return out


def _names(where: str, **names: str) -> None:
    for k, v in names.items():
        try:
            check_name(k, v)
        except MessageError as exc:
            raise ClubConfigError(f"{where} {k}: {exc}") from None


def _port(where: str, port: int) -> None:
    if not 1 <= port <= 65535:
        raise ClubConfigError(f"{where} port = {port}: expected 1..65535 (1883, or 8883 with TLS)")


@dataclass(frozen=True)
class ClubLink:
    """A table's ``[club]`` section: which broker, which club and table, its login, TLS."""

    broker: str = ""
    port: int = 1883
    club: str = "club"
    table: str = "table"
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    keepalive: int = 30

    @property
    def enabled(self) -> bool:
        """False without a broker: the table works alone."""
        return bool(self.broker)

    @classmethod
    def from_toml(cls, section: dict[str, Any]) -> "ClubLink":
        """The section as read from TOML; ClubConfigError naming a bad key or value."""
        kw = _take(section, "[club]", {"broker": str, "port": int, "club": str, "table": str, "password": str,
                                       "tls": bool, "ca_file": str, "keepalive": int})
        link = cls(**kw)
        if link.enabled:
            _names("[club]", club=link.club, table=link.table)
            _port("[club]", link.port)
            if link.tls and link.ca_file and not Path(link.ca_file).is_file():
                raise ClubConfigError(f"[club] ca_file = {link.ca_file!r} does not exist; name the club's CA "
                                      "certificate, or leave it empty to use the system's")
        return link


@dataclass(frozen=True)
class TableEntry:
    """One table of the club: its name (its broker user) and its broker password."""

    name: str
    password: str


@dataclass(frozen=True)
class Club:
    """The club's file for ``bgtable club``: the broker, the page, the director, the tables."""

    name: str = "club"
    broker: str = "127.0.0.1"
    port: int = 1883
    tls: bool = False
    ca_file: str = ""
    http: str = "127.0.0.1:8080"
    director: str = "director"
    director_password: str = ""
    server_password: str = ""
    tables: tuple[TableEntry, ...] = field(default_factory=tuple)

    @property
    def http_address(self) -> tuple[str, int]:
        """(host, port) of the page server."""
        host, _, port = self.http.rpartition(":")
        return host or "127.0.0.1", int(port)

    def link(self, table: str) -> ClubLink:
        """The ``[club]`` section a table of this club uses."""
        for t in self.tables:
            if t.name == table:
                return ClubLink(self.broker, self.port, self.name, t.name, t.password, self.tls, self.ca_file)
        raise ClubConfigError(f"table {table!r} is not in the club's table list "
                              f"({', '.join(x.name for x in self.tables)})")

    @classmethod
    def from_toml(cls, data: dict[str, Any], where: str = "club file") -> "Club":
        """The club's file as read from TOML; ClubConfigError naming a bad key or value."""
        extra = sorted(set(data) - {"club", "tables"})
        if extra:
            raise ClubConfigError(f"{where}: unknown section(s) {', '.join(extra)}; expected [club] and [[tables]]")
        kw = _take(data.get("club", {}), f"{where} [club]",
                   {"name": str, "broker": str, "port": int, "tls": bool, "ca_file": str, "http": str,
                    "director": str, "director_password": str, "server_password": str})
        tables = []
        seen: set[str] = set()
        for i, t in enumerate(data.get("tables", [])):
            tk = _take(t, f"{where} [[tables]] #{i + 1}", {"name": str, "password": str})
            if "name" not in tk or not tk.get("password"):
                raise ClubConfigError(f"{where} [[tables]] #{i + 1}: needs a name and a password (its broker login)")
            _names(f"{where} [[tables]] #{i + 1}", table=tk["name"])
            if tk["name"] in seen or tk["name"] in (SERVER_USER, kw.get("director", "director")):
                raise ClubConfigError(f"{where} [[tables]] #{i + 1}: the name {tk['name']!r} is already used")
            seen.add(tk["name"])
            tables.append(TableEntry(tk["name"], tk["password"]))
        club = cls(**kw, tables=tuple(tables))
        _names(f"{where} [club]", club=club.name)
        _port(f"{where} [club]", club.port)
        host, colon, port = club.http.rpartition(":")
        if not colon or not port.isdigit():
            raise ClubConfigError(f"{where} [club] http = {club.http!r}: expected HOST:PORT, e.g. 127.0.0.1:8080")
        return club

    @classmethod
    def load(cls, path: Union[str, Path]) -> "Club":
        """Read and check the club's TOML file."""
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ClubConfigError(f"club file {str(p)!r} does not exist") from None
        except tomllib.TOMLDecodeError as exc:
            raise ClubConfigError(f"club file {str(p)!r} is not valid TOML: {exc}") from None
        return cls.from_toml(data, str(p))


__all__ = ["ClubLink", "Club", "TableEntry", "ClubConfigError", "SERVER_USER"]
