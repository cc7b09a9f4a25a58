"""``bgtable club``: the club server, its broker's files, and a journal's publisher.

    bgtable club serve --config club.toml          the director's page (subscribes to the broker)
    bgtable club broker-files --config club.toml --out DIR [--run-as USER]
                                                   passwords, ACL and mosquitto.conf for the broker
    bgtable club publish --config club.toml --table t1 --journal PATH
                                                   publish one table's journal (follows it)

``serve`` prints the page's address; spectators open it and read; the director logs in on
the page (the club file's ``director`` and ``director_password``) to pause, resume or undo at
a table.  Bad input is one line and exit 2.
"""
from __future__ import annotations

import logging
import signal
import sys
import threading
from pathlib import Path
from typing import Optional, Sequence

from referee.cli.parsing import Parser, fail
from referee.table.club.config import SERVER_USER, Club, ClubConfigError

PROG = "bgtable club"


def _parser() -> Parser:
    p = Parser(prog=PROG, description="The club: the director's page, the broker's files, a table's publisher.")
    sub = p.add_subparsers(dest="what", metavar="{serve,broker-files,publish}")
    s = sub.add_parser("serve", help="serve the director's page from the club's broker")
    s.add_argument("--config", required=True, help="the club's TOML file (its [club] and [[tables]])")
    s.add_argument("--http", default="", help="HOST:PORT for the page (default: the club file's http)")
    b = sub.add_parser("broker-files", help="write the broker's passwords, ACL and mosquitto.conf")
    b.add_argument("--config", required=True)
    b.add_argument("--out", required=True, help="directory for the files")
    b.add_argument("--run-as", default="", help="the user a broker started as root runs as")
    u = sub.add_parser("publish", help="publish one table's journal to the club's broker (follows it)")
    u.add_argument("--config", required=True)
    u.add_argument("--table", required=True, help="the table's name in the club file")
    u.add_argument("--journal", required=True, help="the table's journal (journal.jsonl)")
    u.add_argument("--until-match-over", action="store_true", help="stop once the match end is published")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``bgtable club serve|broker-files|publish``: returns the exit status."""
    args = _parser().parse_args(argv)
    if not args.what:
        return fail(PROG, "name what to do: serve, broker-files or publish (bgtable club --help)")
    logging.basicConfig(level=logging.INFO, format="bgtable club: %(message)s")
    try:
        club = Club.load(args.config)
    except ClubConfigError as exc:
        return fail(PROG, str(exc))
    if args.what == "broker-files":
        from referee.table.club.acl import write_broker_files  # noqa: PLC0415
        for p in write_broker_files(club, args.out, run_as=args.run_as):
            print(p)
        return 0
    from referee.table.club.broker import connect  # noqa: PLC0415
    if args.what == "publish":
        return _publish(club, args)
    from referee.table.club.server import ClubServer, ClubState, subscribe  # noqa: PLC0415
    address = club.http_address
    if args.http:
        host, _, port = args.http.rpartition(":")
        if not (port.isascii() and port.isdigit()):
            return fail(PROG, f"--http {args.http!r}: expected HOST:PORT, e.g. 127.0.0.1:8080")
        address = (host or "127.0.0.1", int(port))
    state = ClubState(club.name, tuple(t.name for t in club.tables) or None)
    broker = connect(club.broker, club.port, SERVER_USER, club.server_password, client_id=f"{club.name}-server",
                     tls=club.tls, ca_file=club.ca_file, cert_file=club.cert_file, key_file=club.key_file)
    problem = _first_connection(broker)
    if problem:
        broker.close()
        return fail(PROG, problem)
    subscribe(state, broker)
    try:
        server = ClubServer(club, state, broker, address)
    except OSError as exc:
        return fail(PROG, f"cannot serve the page on {address[0]}:{address[1]}: {exc.strerror or exc}; "
                          "choose another --http")
    server.start()
    print(f"{PROG}: the director's page is at {server.url} (broker {club.broker}:{club.port})", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    try:
        while not stop.wait(1.0):
            pass
    except KeyboardInterrupt:
        pass
    server.close()
    broker.close()
    return 0


def _first_connection(broker: object, timeout: float = 5.0) -> str:
    """Why the broker refuses us for good (a certificate, a login), else "" (a broker that is
    only away is waited for: the page and the publisher catch up when it is back)."""
    wait = getattr(broker, "wait_failure", None)
    if wait is None:
        return ""
    problem = str(wait(timeout))
    if problem and not getattr(broker, "lasting", False):
        logging.getLogger("bgtable.club").warning("%s; going on, connecting when it is back", problem)
        return ""
    return problem


def _publish(club: Club, args: object) -> int:
    from referee.table.club.broker import connect  # noqa: PLC0415
    from referee.table.club.publisher import Publisher, run_forever  # noqa: PLC0415
    from referee.table.club.translate import Translator  # noqa: PLC0415

    try:
        link = club.link(getattr(args, "table"))
    except ClubConfigError as exc:
        return fail(PROG, str(exc))
    journal = Path(getattr(args, "journal"))
    broker = connect(link.broker, link.port, link.table, link.password, client_id=f"{link.club}-{link.table}",
                     tls=link.tls, ca_file=link.ca_file)
    problem = _first_connection(broker)
    if problem:
        broker.close()
        return fail(PROG, problem)
    pub = Publisher(journal, broker, Translator(link.club, link.table))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *a: stop.set())
    until = bool(getattr(args, "until_match_over"))
    try:
        run_forever(pub, lambda: stop.is_set() or (until and pub.translator.match_ended and pub.lag == 0))
    except KeyboardInterrupt:
        pub.pump()
    broker.close()
    print(f"{PROG}: published {journal} up to line {pub.offset}", file=sys.stderr)
    return 0


__all__ = ["main"]
