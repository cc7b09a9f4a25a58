"""Journal lines to club messages: the journal is the source of truth.

A :class:`Translator` is fed a table journal's events in order (``feed(event)``) and returns
the messages each gives: the referee is rebuilt from the journaled inputs (as the table does
after a crash), so the messages are the same however often the journal is read, which is what
lets the publisher start again from its own offset without losing or changing anything.

* ``match`` -> an ``event`` message ``match_start`` (players, match length);
* ``input`` -> one ``event`` message ``decision`` per decision the referee makes (one that
  puts something at the top of the director's page has ``waiting`` and ``led_to``: the
  decisions before it), then the ``state`` (the table view, the clock) when it changed;
* ``action`` with a ``game_end`` -> ``game_end`` (winner, points, the score after); the
  referee's ``match_over`` -> ``match_end`` (the final score);
* ``director`` (a director action the table journaled) -> ``director`` (who sent what);
* ``analysis`` (GNU Backgammon's verdict after the match, :mod:`.analysis`) -> ``analysis``.
"""
from __future__ import annotations

from typing import Any, Optional

from referee import events as ev
from referee.clock import Clock, ClockConfig
from referee.records.record import RuleSettings
from referee.settings import Settings
from referee.table.club.messages import Message, topic
from referee.turn.referee import Referee

# decisions that put something at the top of the director's page, with the words it shows
WAITING: dict[str, str] = {
    "illegal_move": "dispute: illegal move",
    "ambiguous": "dispute: the camera cannot tell the move",
    "correction_demanded": "dispute: a legal move is demanded",
    "director": "director called",
    "wait_board": "the camera cannot read the board",
    "reader_fault": "dice reader fault",
    "camera": "camera report",
    "confirm_roll": "the players must confirm a roll",
}


def settings_from_match(line: dict[str, Any], base: Optional[Settings] = None) -> Settings:
    """The referee's settings for a journal's ``match`` line (``base`` supplies what the
    line does not carry: the camera and dice-reader settings)."""
    rules = RuleSettings.from_dict(line.get("rules", {}))
    players = line.get("players") or ["Dark", "Light"]
    kw: dict[str, Any] = dict(match_to=int(line.get("match_length", 0)), names=(str(players[0]), str(players[1])),
                              crawford=rules.crawford, jacoby=rules.jacoby, beavers=rules.beavers,
                              automatic_doubles=rules.automatic_doubles, cube_limit=rules.cube_limit,
                              early_roll=rules.early_roll, landing=rules.landing)
    if base is None:
        return Settings(**kw)
    from dataclasses import replace  # noqa: PLC0415
    return replace(base, **kw)


class Translator:
    """Folds one table's journal events into club messages (see the module docstring)."""

    def __init__(self, club: str, table: str, base: Optional[Settings] = None,
                 clock: ClockConfig = ClockConfig()) -> None:
        self.club, self.table = club, table
        self.base = base
        self.clock_config = clock
        self.clock = Clock.start(clock)
        self.referee: Optional[Referee] = None
        self.now = 0.0
        self.seq = 0
        self.last_state: Optional[dict[str, Any]] = None
        self.match_ended = False
        self.recent: list[dict[str, Any]] = []  # the last decisions (what led to a dispute)

    def _msg(self, kind: str, n: int, body: dict[str, Any]) -> Message:
        full = {"table": self.table, "seq": self.seq, "n": n, **body}
        return Message(topic(self.club, self.table, kind), full, retain=kind in ("state", "health"))

    def feed(self, line: dict[str, Any]) -> list[Message]:
        """The messages of one journal event (its ``seq`` names them)."""
        self.seq = int(line.get("seq", self.seq + 1))
        kind = line.get("event")
        out: list[Message] = []
        if kind == "match":
            self.referee = Referee(settings_from_match(line, self.base), lambda: self.now)
            self.clock = Clock.start(self.clock_config)
            self.match_ended = False
            out.append(self._msg("event", 0, {"type": "match_start", "players": list(line.get("players", [])),
                                              "match_length": int(line.get("match_length", 0))}))
            out += self._state(len(out))
        elif kind == "input" and self.referee is not None:
            event = ev.from_dict(line["data"])
            self.now = float(getattr(event, "t", self.now) or self.now)
            for d in self.referee.handle(event):
                body = {"type": "decision", "decision": d.to_dict(), "t": self.now}
                resumed = d.kind == "director" and self.referee.state != "director"
                if d.kind in WAITING and not resumed:
                    body["waiting"] = WAITING[d.kind]
                self.recent = (self.recent + [body])[-12:]
                if "waiting" in body:  # the page shows what led to it (with the camera's last frame)
                    body["led_to"] = [b["decision"] for b in self.recent[:-1]]
                out.append(self._msg("event", len(out), body))
            if self.referee.state == "match_over" and not self.match_ended:
                self.match_ended = True
                v = self.referee.view()
                out.append(self._msg("event", len(out), {"type": "match_end", "players": list(v.names),
                                                         "score": list(v.score), "match_length": v.match_length}))
            out += self._state(len(out))
        elif kind == "action" and isinstance(line.get("action"), dict) and line["action"].get("type") == "game_end":
            a = line["action"]
            score = list(self.referee.view().score) if self.referee is not None else []
            out.append(self._msg("event", 0, {"type": "game_end", "game": line.get("game"),
                                              "winner": a.get("player"), "points": a.get("points"),
                                              "reason": a.get("reason"), "score": score}))
        elif kind == "analysis":
            out.append(self._msg("event", 0, {"type": "analysis", "summary": line.get("summary", ""),
                                              "players": line.get("players", []), "biggest": line.get("biggest", [])}))
        elif kind == "director":
            out.append(self._msg("event", 0, {"type": "director", "action": line.get("action"),
                                              "by": line.get("by"), "id": line.get("id")}))
        return out

    def _state(self, n: int) -> list[Message]:
        assert self.referee is not None
        view = self.referee.view()
        self.clock = self.clock.follow(view, self.now)
        state = {"view": view.to_dict(), "clock": self.clock.to_dict(self.now)}
        if state == self.last_state:
            return []
        self.last_state = state
        return [self._msg("state", n, {**state, "t": self.now})]


__all__ = ["Translator", "WAITING", "settings_from_match"]
