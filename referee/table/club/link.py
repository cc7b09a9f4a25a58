"""The club link as one more output of the table process, fed from the journal.

:func:`open_link` turns a table's ``[club]`` section into a :class:`ClubSink` (``None``
without a broker: the table works alone).  The sink goes in :class:`TableCore`'s sinks; it is
shown every view after its events are on disk, and then journals the director actions that
arrived and publishes what the journal gained.  A broker that is away never slows or stops
the table: the publisher only reads the journal and catches up later.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Optional, Sequence, Union

from referee.clock import ClockConfig
from referee.table.club.broker import Broker, connect
from referee.table.club.config import ClubLink
from referee.table.club.director import DirectorInbox
from referee.table.club.publisher import Publisher
from referee.table.club.translate import Translator

log = logging.getLogger("bgtable.club")


#: the page's director actions that are the director's powers at the table (referee.turn.director)
POWERS = {"undo": "undo", "set_position": "setup", "score": "score", "end_match": "end_match",
          "learn_board": "learn_board"}


def director_input(entry: dict[str, Any], view: Any, t: float = 0.0) -> Optional[Any]:
    """The referee's input for a journaled director action, or None when it needs none now
    (or its data is malformed: logged).  ``pause`` calls the director (play stops, the clock
    pauses), ``resume`` lets play go on; ``undo``, ``set_position`` (data ``position``: a
    gnubg Position ID or XGID, or ``id`` / ``xgid``; optional ``match_id`` and ``turn``),
    ``score`` (data ``score``: [dark, light]), ``override`` (data ``verdict``: ``accept`` the
    move called illegal or ``reject`` the last move accepted), ``end_match`` (data
    ``winner``, optional) and ``learn_board`` (the camera learns the board as it stands, as the
    referee's position) are the director's powers, applied at the table with the login as
    the director's key (``key="login"``); the data's ``why`` says why.  ``note`` is only journaled."""
    from referee.events import EventError, PlayerInput  # noqa: PLC0415
    from referee.officials import DirectorAction  # noqa: PLC0415

    action = entry.get("action")
    paused = getattr(view, "state", "") == "director"
    who = getattr(view, "turn", None) or "dark"
    if action == "pause" and not paused or action == "resume" and paused:
        return PlayerInput(who, "call_director", t=t)
    raw = entry.get("data")
    data: dict[str, Any] = raw if isinstance(raw, dict) else {}
    if action == "override":
        verdict = data.get("verdict")
        if verdict not in ("accept", "reject"):
            log.warning("director %s: override needs verdict 'accept' or 'reject', not %r; ignored",
                        entry.get("by"), verdict)
            return None
        power = "accept_move" if verdict == "accept" else "reject_move"
    elif action in POWERS:
        power = POWERS[str(action)]
    else:
        return None
    try:
        position = data.get("position") or data.get("xgid") or data.get("id") or ""
        return DirectorAction(power, by=str(entry.get("by") or "director"),
                              why=str(data.get("why") or "from the club page"), key="login", position=str(position),
                              match_id=str(data.get("match_id") or ""),
                              colour=str(data.get("turn") or data.get("winner") or ""),
                              score=data.get("score"), t=t)
    except EventError as exc:
        log.warning("director %s: %s %s: %s; ignored", entry.get("by"), action, data, exc)
        return None


class ClubSink:
    """Publishes the journal after each view the table shows; journals director actions."""

    def __init__(self, journal: Any, broker: Broker, link: ClubLink, clock: ClockConfig = ClockConfig(),
                 on_director: Callable[[dict[str, Any]], None] = lambda entry: None) -> None:
        self.journal = journal
        self.broker = broker
        self.inbox = DirectorInbox(broker, link.club, link.table, DirectorInbox.seen_in(journal.read.events))
        self.publisher = Publisher(journal.path, broker, Translator(link.club, link.table, clock=clock))
        self.on_director = on_director

    def show(self, view: Any, decisions: Sequence[Any]) -> None:
        """After each view the table shows, publish what the journal has new."""
        self.pump()

    def pump(self) -> None:
        """Journal what the director sent (then hand it to ``on_director``), publish new lines."""
        for entry in self.inbox.journal(self.journal):
            log.info("director %s: %s (journaled)", entry["by"], entry["action"])
            self.on_director(entry)
        self.publisher.pump()

    def health(self, parts: dict[str, Any]) -> None:
        """Publish the table's health (``{"camera": "ok", "dice": "no reader"}``...)."""
        if self.broker.connected:
            self.publisher.health(parts)

    def close(self) -> None:
        """Publish what is left, then disconnect from the broker."""
        try:
            self.publisher.pump()
        finally:
            self.broker.close()


def open_link(section: Union[ClubLink, dict[str, Any], None], journal: Any, clock: ClockConfig = ClockConfig(),
              on_director: Callable[[dict[str, Any]], None] = lambda entry: None) -> Optional[ClubSink]:
    """The club sink for a table's ``[club]`` section (as read, or its TOML table), or None
    when no broker is set."""
    link = section if isinstance(section, ClubLink) else ClubLink.from_toml(section or {})
    if not link.enabled:
        return None
    broker = connect(link.broker, link.port, link.table, link.password, client_id=f"{link.club}-{link.table}",
                     tls=link.tls, ca_file=link.ca_file, keepalive=link.keepalive,
                     cert_file=link.cert_file, key_file=link.key_file)
    return ClubSink(journal, broker, link, clock, on_director)


__all__ = ["ClubSink", "open_link", "director_input"]
