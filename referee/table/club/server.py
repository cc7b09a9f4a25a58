"""``bgtable club``'s core: the club's state from the broker, and the HTTP server of the page.

:class:`ClubState` takes every message the server's subscription brings (``apply(topic,
payload)``): it checks it (:func:`.messages.parse`; a bad one is refused with a log line and
counted, never raised), keeps each ``(table, seq, n)`` once, and holds per table the last
view and clock, the decisions, what is waiting (a dispute, a director call, a camera that
cannot read) with the decisions that led to it, the health, and the standings (each match's
result as it ends).  :meth:`ClubState.snapshot` is what the page polls: the tables with
something waiting first.

:class:`ClubServer` serves the page (``page.html``, one static file), ``/api/state`` (the
snapshot, for everyone: spectators read), and ``POST /api/director`` (a director action:
HTTP Basic login as the club's director, else 401), which it publishes on the table's
``director`` topic with the director's name.  ``/api/frame/TABLE`` is the camera's last frame
at a table (a JPEG, published when something waits there; the snapshot says which).
"""
from __future__ import annotations

import base64
import hmac
import json
import logging
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Optional

from referee.table.club.broker import Broker
from referee.table.club.config import Club
from referee.table.club.messages import DIRECTOR_ACTIONS, MessageError, director_action, parse

log = logging.getLogger("bgtable.club")
PAGE = Path(__file__).with_name("page.html")
# decisions after which nothing waits any more (a "director" decision without "waiting" is play resuming)
CLEARS = frozenset({"move_accepted", "illegal_accepted", "board_in_place", "roll_accepted", "game_over",
                    "match_over", "take", "pass", "director"})
KEEP_DECISIONS = 200
KEEP_SEEN = 20000  # journal lines per table whose messages are remembered for deduplication


class ClubState:
    """Every table of the club as the broker tells it (see the module docstring); thread-safe."""

    def __init__(self, club: str, tables: Optional[tuple[str, ...]] = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.club = club
        self.known = set(tables) if tables else None
        self.clock = clock
        self.tables: dict[str, dict[str, Any]] = {}
        self.standings: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self.duplicates = 0
        self.received = 0
        self.arrivals: list[tuple[str, int, int, float]] = []  # (table, seq, n, when) for the bench
        self.keep_arrivals = False
        self._seen: dict[str, set[tuple[int, int]]] = {}  # per table: the (seq, n) kept
        self._floor: dict[str, int] = {}  # per table: every line at or below it counts as seen
        self.counted: dict[str, int] = {}  # per table: messages kept (each once)
        self.frames: dict[str, bytes] = {}  # per table: the camera's last frame (JPEG)
        self.frames_received = 0  # camera frames taken (not in ``received``: the journal's messages)
        self._lock = threading.Lock()

    def _table(self, name: str) -> dict[str, Any]:
        t = self.tables.get(name)
        if t is None:
            t = self.tables[name] = {"name": name, "view": None, "clock": None, "health": None, "decisions": [],
                                     "waiting": None, "games": [], "match": None, "result": None,
                                     "directors": [], "seq": 0, "analysis": None, "frame": None}
        return t

    def _refuse(self, why: str) -> bool:
        self.refused.append(why)
        del self.refused[:-100]
        log.warning("%s", why)
        return False

    def apply(self, t: str, payload: bytes) -> bool:
        """Take one message from the broker; False (and a log line) when it is refused or a repeat."""
        try:
            club, table, kind, body = parse(t, payload)
        except MessageError as exc:
            return self._refuse(str(exc))
        if club != self.club:
            return self._refuse(f"message on {t!r} refused: not this club's ({self.club!r})")
        if self.known is not None and table not in self.known:
            return self._refuse(f"message on {t!r} refused: table {table!r} is not in the club's table list")
        if kind == "director":
            return False  # our own commands to the tables
        with self._lock:
            tab = self._table(table)
            if kind == "frame":  # the last one wins (retained); never deduplicated with the events
                self.frames[table] = base64.b64decode(body["jpeg"])
                tab["frame"] = {k: body.get(k) for k in ("seq", "what", "t", "width", "height")}
                tab["frame"]["bytes"] = len(self.frames[table])
                self.frames_received += 1
                return True
            self.received += 1
            if kind == "health":
                tab["health"] = body
                return True
            key = (body["seq"], body["n"])
            seen = self._seen.setdefault(table, set())
            if key in seen or body["seq"] <= self._floor.get(table, -1):
                self.duplicates += 1
                return False
            seen.add(key)
            self.counted[table] = self.counted.get(table, 0) + 1
            if len(seen) > 2 * KEEP_SEEN:  # a long day: forget the oldest, far behind any publisher's window
                floor = max(s for s, _ in seen) - KEEP_SEEN
                self._floor[table] = floor
                seen.difference_update({k for k in seen if k[0] <= floor})
            if self.keep_arrivals:
                self.arrivals.append((table, body["seq"], body["n"], self.clock()))
            tab["seq"] = max(tab["seq"], body["seq"])
            if kind == "state":
                if body["seq"] >= tab.get("state_seq", -1):  # a late repeat never goes back in time
                    tab["view"], tab["clock"], tab["state_seq"] = body["view"], body.get("clock"), body["seq"]
                return True
            self._event(tab, body)
            return True

    def _event(self, tab: dict[str, Any], body: dict[str, Any]) -> None:
        typ = body["type"]
        if typ == "decision":
            d = body.get("decision") or {}
            tab["decisions"].append({"seq": body["seq"], "n": body["n"], **d})
            del tab["decisions"][:-KEEP_DECISIONS]
            if body.get("waiting"):
                tab["waiting"] = {"what": body["waiting"], "seq": body["seq"], "decision": d,
                                  "led_to": body.get("led_to", []), "since": self.clock()}
            elif d.get("kind") in CLEARS:
                tab["waiting"] = None
        elif typ == "match_start":
            tab["match"] = {"players": body.get("players"), "match_length": body.get("match_length")}
            tab["games"], tab["result"] = [], None
        elif typ == "game_end":
            tab["games"].append({k: body.get(k) for k in ("game", "winner", "points", "reason", "score")})
        elif typ == "match_end":
            tab["result"] = {"players": body.get("players"), "score": body.get("score"),
                             "match_length": body.get("match_length")}
            self.standings.append({"table": tab["name"], **tab["result"]})
        elif typ == "analysis":
            tab["analysis"] = {k: body.get(k) for k in ("summary", "players", "biggest")}
        elif typ == "director":
            tab["directors"].append({k: body.get(k) for k in ("action", "by", "id", "seq")})

    def keys(self) -> set[tuple[str, int, int]]:
        """Every (table, seq, n) the server remembers having kept."""
        with self._lock:
            return {(t, s, n) for t, seen in self._seen.items() for s, n in seen}

    def decisions(self, table: str) -> list[dict[str, Any]]:
        """Every decision of ``table`` the server kept, oldest first."""
        with self._lock:
            return list(self.tables.get(table, {}).get("decisions", []))

    def frame(self, table: str) -> Optional[bytes]:
        """The camera's last frame at ``table`` (JPEG bytes), or None."""
        with self._lock:
            return self.frames.get(table)

    def snapshot(self) -> dict[str, Any]:
        """What the page shows: every table (those with something waiting first), the standings."""
        with self._lock:
            tabs = [dict(t, decisions=t["decisions"][-12:]) for t in self.tables.values()]
            tabs.sort(key=lambda t: (t["waiting"] is None, t["name"]))
            return {"club": self.club, "tables": tabs, "standings": list(self.standings),
                    "refused": len(self.refused), "duplicates": self.duplicates}


def _check_login(header: Optional[str], user: str, password: str) -> Optional[str]:
    """The director's name when the Basic login is right, else None."""
    if not header or not header.startswith("Basic ") or not password:
        return None
    try:
        got_user, _, got_pw = base64.b64decode(header[6:]).decode("utf-8").partition(":")
    except (ValueError, UnicodeDecodeError):
        return None
    if hmac.compare_digest(got_user, user) and hmac.compare_digest(got_pw, password):
        return got_user
    return None


class ClubServer:
    """The page server: ``/`` the page, ``/api/state`` the snapshot, ``POST /api/director``."""

    def __init__(self, club: Club, state: ClubState, broker: Optional[Broker],
                 address: Optional[tuple[str, int]] = None) -> None:
        self.club, self.state, self.broker = club, state, broker
        self.sent: list[dict[str, Any]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, fmt: str, *args: Any) -> None:
                log.debug("http %s", fmt % args)

            def _send(self, code: int, body: bytes, ctype: str = "application/json",
                      extra: Optional[dict[str, str]] = None, cache: str = "no-store") -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", cache)
                for k, v in (extra or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def _json(self, code: int, obj: Any) -> None:
                self._send(code, json.dumps(obj).encode("utf-8"))

            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path = self.path.split("?")[0]
                if path in ("/", "/index.html"):
                    self._send(200, PAGE.read_bytes(), "text/html; charset=utf-8")
                elif path == "/api/state":
                    self._json(200, server.state.snapshot())
                elif path.startswith("/api/frame/"):
                    jpeg = server.state.frame(path.rsplit("/", 1)[1])
                    if jpeg is None:
                        self._json(404, {"error": "no camera frame from that table yet"})
                    else:
                        # (the page asks for it as /api/frame/TABLE?seq=N: a new frame, a new address)
                        self._send(200, jpeg, "image/jpeg", cache="private, max-age=600")
                elif path.startswith("/api/decisions/"):
                    self._json(200, server.state.decisions(path.rsplit("/", 1)[1]))
                else:
                    self._json(404, {"error": f"no page {path!r}; the page is at /"})

            def do_POST(self) -> None:  # noqa: N802
                if self.path.split("?")[0] != "/api/director":
                    return self._json(404, {"error": f"no action at {self.path!r}; POST /api/director"})
                who = _check_login(self.headers.get("Authorization"), server.club.director,
                                   server.club.director_password)
                if who is None:
                    log.warning("director action refused: no or wrong director login (from %s)",
                                self.client_address[0])
                    return self._json(401, {"error": "the director's login is needed (spectators only read)"})
                try:
                    n = int(self.headers.get("Content-Length") or 0)
                    body = json.loads(self.rfile.read(min(n, 65536)) or b"{}")
                    table, action = body["table"], body["action"]
                    if action not in DIRECTOR_ACTIONS:
                        raise MessageError(f"action {action!r} is not one of {', '.join(DIRECTOR_ACTIONS)}")
                    if server.state.known is not None and table not in server.state.known:
                        raise MessageError(f"table {table!r} is not in the club's table list")
                    msg = director_action(server.club.name, table, action, who, uuid.uuid4().hex,
                                          body.get("data") if isinstance(body.get("data"), dict) else None)
                except (ValueError, KeyError, TypeError) as exc:
                    log.warning("director action refused: %s", exc)
                    return self._json(400, {"error": f"bad director action: {exc}"})
                if server.broker is None or not server.broker.connected:
                    return self._json(503, {"error": "the club broker is not connected; try again"})
                server.broker.publish(msg)
                server.sent.append(msg.body)
                log.info("director %s: %s at table %s (id %s)", who, action, table, msg.body["id"])
                self._json(200, {"id": msg.body["id"], "table": table, "action": action})

        host, port = address or club.http_address
        self.httpd = ThreadingHTTPServer((host, port), Handler)
        self.httpd.daemon_threads = True
        self._thread: Optional[threading.Thread] = None

    @property
    def url(self) -> str:
        """The address the director's page is served at (``http://host:port/``)."""
        host, port = self.httpd.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://{name}:{port}/"

    def start(self) -> None:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="club-http", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop serving the page and close the socket."""
        self.httpd.shutdown()
        self.httpd.server_close()


def subscribe(state: ClubState, broker: Broker) -> None:
    """Feed every message of the club's tables to ``state``."""
    def take(t: str, payload: bytes) -> None:
        state.apply(t, payload)
    broker.subscribe(f"bgtable/{state.club}/#", take)


__all__ = ["ClubState", "ClubServer", "subscribe"]
