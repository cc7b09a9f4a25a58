"""The ``[club]`` section of a table's TOML, and the club's own file (``bgtable club``).

A table's ``[club]`` (no section, or no ``broker``: the table works alone)::

    [club]
    broker = "club.local"     # the club's MQTT broker (Mosquitto)
    port = 1883               # 8883 is usual with tls = true
    club = "riverside"
    table = "t3"
    password = "..."          # this table's broker password (the user name is the table's name)
    tls = false               # true: TLS to the broker, checked against ca_file
    ca_file = ""              # the club's CA certificate (tls = true; empty: the system's CAs)
    cert_file = ""            # optional: this table's client certificate (PEM), with key_file
    key_file = ""             # its private key (PEM)

The club's file (``bgtable club --config club.toml``)::

    [club]
    name = "riverside"
    broker = "127.0.0.1"
    port = 1883
    tls = false               # true: the broker listens with TLS (port 8883 is usual)
    ca_file = ""              # the club's CA certificate: checks the broker's certificate
    broker_cert = ""          # the broker's certificate and key (for broker-files' mosquitto.conf)
    broker_key = ""
    require_certificate = false   # true: every client needs a certificate signed by ca_file
    cert_file = ""            # optional: the page server's client certificate, with key_file
    key_file = ""
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


def _tls_files(where: str, ca_file: str, cert_file: str, key_file: str) -> None:
    """ClubConfigError when a TLS file named does not exist, or a client certificate comes without its key."""
    if bool(cert_file) != bool(key_file):
        raise ClubConfigError(f"{where} cert_file = {cert_file!r}, key_file = {key_file!r}: a client certificate "
                              "needs both (the certificate and its private key), or neither")
    for key, value, fix in (("ca_file", ca_file, "name the club's CA certificate, or leave it empty to use the "
                             "system's"), ("cert_file", cert_file, "name the client certificate (PEM)"),
                            ("key_file", key_file, "name the client certificate's private key (PEM)")):
        if value and not Path(value).is_file():
            raise ClubConfigError(f"{where} {key} = {value!r} does not exist; {fix}")


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
    cert_file: str = ""
    key_file: str = ""

    @property
    def enabled(self) -> bool:
        """False without a broker: the table works alone."""
        return bool(self.broker)

    @classmethod
    def from_toml(cls, section: dict[str, Any]) -> "ClubLink":
        """The section as read from TOML; ClubConfigError naming a bad key or value."""
        kw = _take(section, "[club]", {"broker": str, "port": int, "club": str, "table": str, "password": str,
                                       "tls": bool, "ca_file": str, "keepalive": int, "cert_file": str,
                                       "key_file": str})
        link = cls(**kw)
        if link.enabled:
            _names("[club]", club=link.club, table=link.table)
            _port("[club]", link.port)
            if link.tls:
                _tls_files("[club]", link.ca_file, link.cert_file, link.key_file)
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
    broker_cert: str = ""
    broker_key: str = ""
    require_certificate: bool = False
    cert_file: str = ""
    key_file: str = ""
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
                    "director": str, "director_password": str, "server_password": str, "broker_cert": str,
                    "broker_key": str, "require_certificate": bool, "cert_file": str, "key_file": str})
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
        if club.tls:
            _tls_files(f"{where} [club]", club.ca_file, club.cert_file, club.key_file)
            if bool(club.broker_cert) != bool(club.broker_key):
                raise ClubConfigError(f"{where} [club] broker_cert and broker_key: the broker's certificate needs "
                                      "both (the certificate and its private key), or neither (Mosquitto's "
                                      "/etc/mosquitto/certs/server.crt and server.key)")
        host, colon, port = club.http.rpartition(":")
        if not colon or not (port.isascii() and port.isdigit()):
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
