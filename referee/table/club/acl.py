"""The broker's security files from the club's table list: passwords, ACL, a Mosquitto config.

``bgtable club broker-files`` writes into a directory:

* ``passwords``: one ``user:$7$101$SALT$HASH`` line per table, the director and the page
  server (PBKDF2-SHA512, Mosquitto 2's ``mosquitto_passwd`` format; no plain password kept);
* ``acl``: each table may write only its own ``state``, ``event``, ``health`` and ``frame`` topics and
  read only its own ``director`` topic; the page server and the director read every table and
  write the ``director`` topics; anonymous clients (spectators) may only read;
* ``mosquitto.conf``: a listener using both, with persistence (retained states and QoS 1
  sessions survive a broker restart), TLS when the club's ``tls`` is on.
"""
from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path
from typing import Optional, Union

from referee.table.club.config import SERVER_USER, Club

ITERATIONS = 101  # mosquitto_passwd's default for $7$ (PBKDF2-SHA512)
SALT_BYTES = 12


def password_hash(password: str, salt: Optional[bytes] = None) -> str:
    """A Mosquitto 2 password-file hash of ``password``."""
    s = salt if salt is not None else os.urandom(SALT_BYTES)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), s, ITERATIONS)
    return f"$7${ITERATIONS}${base64.b64encode(s).decode()}${base64.b64encode(digest).decode()}"


def check_password(password: str, hashed: str) -> bool:
    """True when ``password`` matches a ``$7$`` hash line's hash."""
    parts = hashed.split("$")
    if len(parts) != 5 or parts[1] != "7":
        return False
    salt = base64.b64decode(parts[3])
    return hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, int(parts[2])) == base64.b64decode(parts[4])


def acl_text(club: Club) -> str:
    """The Mosquitto ACL file for the club (format: ``topic [read|write|readwrite] TOPIC``
    lines, anonymous clients first, then a ``user NAME`` block per login)."""
    c = club.name
    lines = [f"# bgtable club {c}: written by 'bgtable club broker-files' from the club's table list",
             "# anonymous clients (spectators) may only read"]
    lines += [f"topic read bgtable/{c}/+/{k}" for k in ("state", "event", "health", "frame")]
    for t in club.tables:
        lines += ["", f"user {t.name}"]
        lines += [f"topic write bgtable/{c}/{t.name}/{k}" for k in ("state", "event", "health", "frame")]
        lines += [f"topic read bgtable/{c}/{t.name}/director"]
    for user in (SERVER_USER, club.director):
        lines += ["", f"user {user}", f"topic read bgtable/{c}/#", f"topic write bgtable/{c}/+/director"]
    return "\n".join(lines) + "\n"


def passwords_text(club: Club, salt: Optional[bytes] = None) -> str:
    """The Mosquitto password file: every table, the page server and the director."""
    logins = [(t.name, t.password) for t in club.tables]
    logins += [(SERVER_USER, club.server_password), (club.director, club.director_password)]
    return "".join(f"{u}:{password_hash(p, salt)}\n" for u, p in logins if p)


def conf_text(club: Club, directory: Path, certfile: str = "", keyfile: str = "", run_as: str = "") -> str:
    """A Mosquitto configuration using the files in ``directory`` (``run_as``: the user a
    broker started as root runs as; it must be able to read the files)."""
    d = directory.resolve()
    lines = ["# bgtable club broker: written by 'bgtable club broker-files'", "per_listener_settings false",
             *([f"user {run_as}"] if run_as else []),
             "persistence true", f"persistence_location {d}/", f"listener {club.port} {club.broker}",
             "allow_anonymous true", f"password_file {d / 'passwords'}", f"acl_file {d / 'acl'}",
             "max_queued_messages 100000"]
    if club.tls:  # the listener speaks TLS only; require_certificate: clients need a certificate from cafile
        cert = certfile or club.broker_cert or "/etc/mosquitto/certs/server.crt"
        key = keyfile or club.broker_key or "/etc/mosquitto/certs/server.key"
        lines += [f"cafile {club.ca_file or '/etc/ssl/certs/ca-certificates.crt'}", f"certfile {cert}",
                  f"keyfile {key}", f"require_certificate {'true' if club.require_certificate else 'false'}"]
    return "\n".join(lines) + "\n"


def write_broker_files(club: Club, directory: Union[str, Path], run_as: str = "") -> list[Path]:
    """Write ``passwords`` (mode 600: chown it to the broker's user), ``acl`` and
    ``mosquitto.conf`` into ``directory``."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    out = []
    for name, text, mode in (("passwords", passwords_text(club), 0o600), ("acl", acl_text(club), 0o644),
                             ("mosquitto.conf", conf_text(club, d, run_as=run_as), 0o644)):
        p = d / name
        tmp = p.with_name(name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, mode)
        os.replace(tmp, p)
        out.append(p)
    return out


__all__ = ["acl_text", "passwords_text", "conf_text", "write_broker_files", "password_hash", "check_password"]
