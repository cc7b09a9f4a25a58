"""A Mosquitto broker for tests and benches: started on the loopback from the club's files.

:class:`LocalBroker` writes the club's broker files (:mod:`.acl`) into a directory, starts
``mosquitto -c`` on a free loopback port, and can stop and start it again (its persistence
keeps retained states and QoS 1 sessions across the restart, as on a club's server).  With
the club's ``tls`` on, its listener speaks TLS with the club's ``broker_cert``/``broker_key``;
:func:`make_certificates` makes a throw-away CA and certificates for that with ``openssl``.
"""
from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from referee.table.club.acl import write_broker_files
from referee.table.club.config import Club


def mosquitto_path() -> Optional[str]:
    """Where the ``mosquitto`` program is (Debian puts it in /usr/sbin), or None."""
    return shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin:/usr/local/sbin")


def free_port() -> int:
    """A loopback TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Certificates:
    """A throw-away CA with a broker certificate (for 127.0.0.1 and localhost) and a client one."""

    ca: Path
    broker_cert: Path
    broker_key: Path
    client_cert: Path
    client_key: Path


def _openssl(*args: str, cwd: Path) -> None:
    exe = shutil.which("openssl")
    if exe is None:
        raise FileNotFoundError("openssl is not installed (apt-get install openssl)")
    proc = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError(f"openssl {' '.join(args[:2])} failed: {proc.stderr.strip()[-500:]}")


def make_certificates(directory: Path, name: str = "bgtable test CA") -> Certificates:
    """A new CA in ``directory`` and, signed by it, a broker certificate for 127.0.0.1 and
    localhost and a client certificate (EC P-256 keys, valid 2 days; for tests and benches)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    _openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", f"/CN={name}",
             "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
             cwd=d)
    for who, ext in (("broker", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth"),
                     ("client", "extendedKeyUsage=clientAuth")):
        _openssl("req", *ec, "-keyout", f"{who}.key", "-out", f"{who}.csr", "-subj", f"/CN=bgtable {who}", cwd=d)
        (d / f"{who}.ext").write_text(ext + "\n")
        _openssl("x509", "-req", "-in", f"{who}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                 "-out", f"{who}.pem", "-days", "2", "-extfile", f"{who}.ext", cwd=d)
    return Certificates(d / "ca.pem", d / "broker.pem", d / "broker.key", d / "client.pem", d / "client.key")


class LocalBroker:
    """``mosquitto`` on 127.0.0.1 for the club ``club`` (its port replaced by a free one)."""

    def __init__(self, club: Club, directory: Path) -> None:
        exe = mosquitto_path()
        if exe is None:
            raise FileNotFoundError("mosquitto is not installed (apt-get install mosquitto)")
        self.exe = exe
        self.club = replace(club, broker="127.0.0.1", port=free_port())
        self.directory = Path(directory)
        write_broker_files(self.club, self.directory, run_as=getpass.getuser())
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.log = self.directory / "mosquitto.log"

    def start(self, timeout: float = 10.0) -> None:
        """Start the broker and wait until it accepts connections."""
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([self.exe, "-c", str(self.directory / "mosquitto.conf"), "-v"],
                                         stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"mosquitto stopped at start (exit {self.proc.returncode}); see {self.log}")
            try:
                with socket.create_connection(("127.0.0.1", self.club.port), timeout=0.2):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on port {self.club.port} in {timeout} s; see {self.log}")

    def stop(self) -> None:
        """Stop the broker (SIGTERM: it saves its persistence file first)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def denied(self) -> list[str]:
        """The broker's log lines for publishes its ACL denied."""
        try:
            return [x for x in self.log.read_text(errors="replace").splitlines() if "Denied PUBLISH" in x]
        except FileNotFoundError:
            return []


__all__ = ["LocalBroker", "Certificates", "make_certificates", "mosquitto_path", "free_port"]
