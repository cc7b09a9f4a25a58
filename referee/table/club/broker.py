"""The broker behind one small interface: paho-mqtt for the real one, memory for tests.

A :class:`Broker` publishes (``publish(message) -> Ack``; ``Ack.done()`` once the broker
acknowledged it, QoS 1), subscribes (``subscribe(pattern, callback)``: the callback gets
``(topic, payload)``), and says whether it is ``connected``.  :class:`MemoryBroker` is the
fake: a hub keeping retained messages, checking a per-user ACL (as Mosquitto does) and able
to go down and come back, with :class:`MemoryClient` the per-user connection a test hands to
a publisher or a server.  :class:`PahoBroker` wraps ``paho.mqtt.client`` (imported only
when a broker is configured).
"""
from __future__ import annotations

import logging
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol

from referee.errors import RefereeError
from referee.table.club.messages import Message

log = logging.getLogger("bgtable.club")

Callback = Callable[[str, bytes], None]


class BrokerError(RefereeError, ConnectionError):
    """The club broker cannot be reached or refuses us; the message names the broker and the fix."""


def connection_problem(exc: BaseException, host: str, port: int, tls: bool = False, ca_file: str = "") -> str:
    """What a failed connection to the broker means, for a club's organiser (the fix included)."""
    where = f"the club broker {host}:{port}"
    ca = f"ca_file {ca_file!r}" if ca_file else "the system's CA certificates (no ca_file set)"
    if isinstance(exc, ssl.SSLCertVerificationError):
        why = str(getattr(exc, "verify_message", "") or exc.reason or exc)
        if "hostname" in why.lower() or "ip address mismatch" in why.lower():
            return (f"TLS to {where} refused: its certificate is not for the name {host!r} ({why}); connect by "
                    "the name in the broker's certificate, or give the broker a certificate for this name")
        return (f"TLS to {where} refused: the broker's certificate is not signed by {ca} ({why}); set "
                "ca_file to the CA certificate that signed the broker's certificate")
    if isinstance(exc, ssl.SSLError):
        return (f"TLS to {where} failed ({exc.reason or exc}): is port {port} the broker's TLS listener "
                "(usually 8883), and is the client certificate (cert_file, key_file) one the broker accepts?")
    if isinstance(exc, ConnectionRefusedError):
        return f"{where} refuses connections: is Mosquitto running, and listening on port {port}?"
    if isinstance(exc, OSError) and tls and "certificate" in str(exc).lower():
        return f"TLS to {where}: {exc}; check ca_file, cert_file and key_file"
    return f"{where} cannot be reached: {exc}"


class Ack(Protocol):
    """The broker's acknowledgement of one publish."""

    def done(self) -> bool:
        """True once the broker has acknowledged the message."""
        ...


class Broker(Protocol):
    """What the publisher and the server need of a broker connection."""

    @property
    def connected(self) -> bool:
        """True while the connection to the broker is up."""
        ...

    def publish(self, message: Message) -> Ack:
        """Send ``message``; the returned Ack says when the broker has it."""
        ...

    def subscribe(self, pattern: str, callback: Callback) -> None:
        """Call ``callback(topic, payload)`` for every message on topics matching ``pattern`` (retained ones too)."""
        ...

    def close(self) -> None:
        """Disconnect from the broker."""
        ...


def matches(pattern: str, topic: str) -> bool:
    """MQTT topic matching: ``+`` one level, ``#`` the rest."""
    p, t = pattern.split("/"), topic.split("/")
    for i, part in enumerate(p):
        if part == "#":
            return True
        if i >= len(t) or (part != "+" and part != t[i]):
            return False
    return len(p) == len(t)


@dataclass
class _Done:
    ok: bool = False

    def done(self) -> bool:
        return self.ok


@dataclass
class MemoryBroker:
    """An in-memory broker hub (tests): retained messages, per-user ACLs, outages.

    ``acl`` maps a user to (patterns it may write, patterns it may read); a user not in it
    may do anything.  While :attr:`up` is False nothing is delivered or acknowledged (the
    clients' messages wait, as paho's do); :meth:`restart` brings it back and flushes them."""

    acl: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    up: bool = True
    retained: dict[str, bytes] = field(default_factory=dict)
    log: list[tuple[str, str, bytes]] = field(default_factory=list)  # (user, topic, payload) delivered
    refused: list[tuple[str, str]] = field(default_factory=list)     # (user, topic) denied by the ACL
    clients: list["MemoryClient"] = field(default_factory=list)
    auto_ack: bool = True

    def client(self, user: str = "") -> "MemoryClient":
        """A connection as ``user``."""
        c = MemoryClient(self, user)
        self.clients.append(c)
        return c

    def allowed(self, user: str, topic: str, write: bool) -> bool:
        """True when the ACL lets ``user`` write (``write``) or read ``topic``."""
        if user not in self.acl:
            return True
        pats = self.acl[user][0 if write else 1]
        return any(matches(p, topic) for p in pats)

    def deliver(self, user: str, message: Message) -> None:
        """Take ``user``'s publish: dropped when the ACL denies it, else kept (retained) and sent to subscribers."""
        payload = message.payload
        if not self.allowed(user, message.topic, True):
            # Mosquitto acknowledges and drops a publish the ACL denies
            self.refused.append((user, message.topic))
            return
        self.log.append((user, message.topic, payload))
        if message.retain:
            self.retained[message.topic] = payload
        for c in list(self.clients):
            for pattern, cb in list(c.subs):
                if matches(pattern, message.topic) and self.allowed(c.user, message.topic, False):
                    cb(message.topic, payload)

    def stop(self) -> None:
        """The broker goes away: nothing is delivered or acknowledged until :meth:`restart`."""
        self.up = False

    def restart(self) -> None:
        """The broker is back: every client's waiting messages go through, in order."""
        self.up = True
        for c in list(self.clients):
            c.flush()


@dataclass
class MemoryClient:
    """One connection to a :class:`MemoryBroker`."""

    hub: MemoryBroker
    user: str
    subs: list[tuple[str, Callback]] = field(default_factory=list)
    waiting: list[tuple[Message, _Done]] = field(default_factory=list)
    closed: bool = False

    @property
    def connected(self) -> bool:
        """True while the hub is up and this client is not closed."""
        return self.hub.up and not self.closed

    def publish(self, message: Message) -> Ack:
        """Queue ``message``, delivered (and acknowledged) at once when the hub is up and acknowledges by itself."""
        ack = _Done()
        self.waiting.append((message, ack))
        if self.hub.up and self.hub.auto_ack:
            self.flush()
        return ack

    def flush(self) -> None:
        """Deliver and acknowledge what waits (the hub calls it when it comes back)."""
        while self.waiting and self.hub.up and not self.closed:
            message, ack = self.waiting.pop(0)
            self.hub.deliver(self.user, message)
            ack.ok = True

    def subscribe(self, pattern: str, callback: Callback) -> None:
        """Subscribe ``callback`` to ``pattern``, handing it at once the retained messages this user may read."""
        self.subs.append((pattern, callback))
        for t, payload in list(self.hub.retained.items()):
            if matches(pattern, t) and self.hub.allowed(self.user, t, False):
                callback(t, payload)

    def close(self) -> None:
        """Disconnect: what was not yet acknowledged is lost with the connection."""
        self.closed = True
        self.waiting.clear()


@dataclass
class _PahoAck:
    ok: bool = False

    def done(self) -> bool:
        return self.ok


class PahoBroker:
    """A paho-mqtt connection (QoS 1; a persistent session, so paho resends what the broker
    did not acknowledge after a reconnect).  ``user``/``password`` log in; ``tls`` checks the
    broker's certificate against ``ca_file`` (empty: the system's CAs) and may present a client
    certificate (``cert_file``, ``key_file``).  The network loop runs in paho's own thread; why
    the last connection failed is :attr:`failure` (logged once per new reason)."""

    def __init__(self, host: str, port: int = 1883, user: str = "", password: str = "", client_id: str = "",
                 tls: bool = False, ca_file: str = "", keepalive: int = 30, cert_file: str = "",
                 key_file: str = "") -> None:
        import paho.mqtt.client as mqtt  # noqa: PLC0415 (only when a broker is configured)

        self._mqtt = mqtt
        self.host, self.port, self.user = host, port, user
        self.tls, self.ca_file = tls, ca_file
        self.failure = ""        # why the last connection attempt failed ("" once connected)
        self.lasting = False     # True when retrying cannot help (a certificate or a login refused)
        self._subs: list[tuple[str, Callback]] = []
        self._lock = threading.Lock()
        self._connected = threading.Event()
        self._pending: dict[int, _PahoAck] = {}  # message id -> its ack, until the broker's PUBACK
        self._early: set[int] = set()            # PUBACKs that came before publish() returned
        self._asked: set[int] = set()            # subscriptions sent, until the broker's SUBACK
        self._granted: set[int] = set()          # SUBACKs that came before subscribe() noted the id
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id or "",
                                  clean_session=not client_id)
        self.client.max_queued_messages_set(0)  # queue while the broker is away (the offset bounds it)
        self.client.max_inflight_messages_set(100)
        if user:
            self.client.username_pw_set(user, password or None)
        if tls:
            try:
                self.client.tls_set(ca_certs=ca_file or None, certfile=cert_file or None, keyfile=key_file or None)
            except (OSError, ValueError) as exc:
                raise BrokerError(f"TLS to the club broker {host}:{port}: the certificate files cannot be used "
                                  f"(ca_file {ca_file!r}, cert_file {cert_file!r}, key_file {key_file!r}): {exc}; "
                                  "name PEM files this user can read") from None
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.client.on_publish = self._on_publish
        self.client.on_subscribe = self._on_subscribe
        self.client.reconnect_delay_set(min_delay=1, max_delay=5)
        self.client.connect_async(host, port, keepalive)
        self.client.loop_start()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        if getattr(reason, "is_failure", False):
            self._failed(f"the club broker {self.host}:{self.port} refused the login of {self.user or 'anonymous'!r}: "
                         f"{reason}; check the password (the club file's table list)", lasting=True)
            return
        self.failure, self.lasting = "", False
        with self._lock:  # subscribed again before anyone sees the connection up
            for pattern, _ in self._subs:
                self._ask(pattern)
            self._connected.set()

    def _failed(self, why: str, lasting: bool) -> None:
        if why != self.failure:
            log.error("%s", why)
        self.failure, self.lasting = why, lasting

    def _on_connect_fail(self, client: Any, userdata: Any) -> None:
        # paho calls this inside its ``except OSError`` around the connection attempt
        exc = sys.exc_info()[1]
        if exc is not None:
            self._failed(connection_problem(exc, self.host, self.port, self.tls, self.ca_file),
                         lasting=isinstance(exc, ssl.SSLCertVerificationError))

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any = None) -> None:
        self._connected.clear()

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self._lock:
            subs = list(self._subs)
        for pattern, cb in subs:
            if matches(pattern, msg.topic):
                try:
                    cb(msg.topic, bytes(msg.payload))
                except Exception as exc:  # a bad message must never stop the loop
                    log.error("club message on %s not handled: %s", msg.topic, exc)

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any = None, props: Any = None) -> None:
        with self._lock:
            ack = self._pending.pop(mid, None)
            if ack is None:
                self._early.add(mid)
            else:
                ack.ok = True

    def _ask(self, pattern: str) -> None:
        """Send one subscription and note it until the broker grants it (under the lock)."""
        _, mid = self.client.subscribe(pattern, qos=1)
        if mid is None:
            return
        if mid in self._granted:
            self._granted.discard(mid)
        else:
            self._asked.add(mid)

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, reasons: Any = None, props: Any = None) -> None:
        with self._lock:
            if mid in self._asked:
                self._asked.discard(mid)
            else:
                self._granted.add(mid)

    def wait_subscribed(self, timeout: float, step: float = 0.02) -> bool:
        """True once connected and every subscription so far is granted by the broker (within
        ``timeout`` seconds): messages published after that reach this client."""
        end = time.monotonic() + timeout
        while True:
            with self._lock:
                ready = self.connected and not self._asked
            if ready or time.monotonic() >= end:
                return ready
            time.sleep(step)

    @property
    def connected(self) -> bool:
        """True while the MQTT connection is up."""
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        """True once connected (within ``timeout`` seconds)."""
        return self._connected.wait(timeout)

    def wait_failure(self, timeout: float, step: float = 0.05) -> str:
        """"" once connected within ``timeout`` seconds, else why not (:attr:`failure`, or "no answer")."""
        end = time.monotonic() + timeout
        while not self._connected.wait(step):
            if self.lasting or time.monotonic() >= end:
                return self.failure or f"the club broker {self.host}:{self.port} did not answer in {timeout:g} s"
        return ""

    def publish(self, message: Message) -> Ack:
        """Send with QoS 1; done once the broker acknowledged it.  Sent while the connection is
        down, paho keeps it and sends it after the reconnect (so it is acknowledged then)."""
        info = self.client.publish(message.topic, message.payload, qos=1, retain=message.retain)
        ack = _PahoAck()
        with self._lock:
            if info.mid in self._early:
                self._early.discard(info.mid)
                ack.ok = True
            else:
                self._pending[info.mid] = ack
        return ack

    def subscribe(self, pattern: str, callback: Callback) -> None:
        """Subscribe ``callback`` to ``pattern`` (again on every reconnection); QoS 1."""
        with self._lock:
            self._subs.append((pattern, callback))
            if self.connected:
                self._ask(pattern)

    def close(self) -> None:
        """Disconnect from the broker and stop the network thread."""
        self.client.disconnect()
        self.client.loop_stop()


def connect(host: str, port: int = 1883, user: str = "", password: str = "", client_id: str = "",
            tls: bool = False, ca_file: str = "", keepalive: int = 30, cert_file: str = "",
            key_file: str = "") -> Broker:
    """A real broker connection (paho-mqtt); TLS when ``tls`` (see :class:`PahoBroker`)."""
    return PahoBroker(host, port, user, password, client_id, tls, ca_file, keepalive, cert_file, key_file)


__all__ = ["Broker", "Ack", "BrokerError", "MemoryBroker", "MemoryClient", "PahoBroker", "connect", "matches",
           "connection_problem"]
