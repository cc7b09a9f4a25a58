"""The table as the clock: :class:`ClockSink`, one more output of the table core.

It follows every view the table shows (:meth:`referee.clock.Clock.follow`, time from the
table's injected clock) and journals the time of each finished turn, so the records carry
it: ``{"event": "clock", "player": "dark", "seconds": 14.2, "remaining": [585.8, 600.0]}``.
A time-out is journaled once (``{"event": "clock", "timeout": {...}}``) and handed to
``on_timeout`` (the table shows it and hands the referee :func:`timeout_event`, which
applies the tournament's rule: :mod:`referee.turn.timeout`).  Resuming, the
reserves are taken up from the journal's last ``clock`` line.  ``[clock]`` with no reserve:
no clock, nothing journaled.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from referee.clock import Clock, ClockConfig, TimeOut
from referee.officials import ClockTimeOut


def timeout_event(flag: TimeOut) -> ClockTimeOut:
    """The referee's input for a time-out the clock reported (journaled like any input)."""
    return ClockTimeOut(flag.player, flag.outcome, flag.points, t=flag.at)


class ClockSink:
    """Runs the tournament clock from the table's views and journals each turn's time."""

    def __init__(self, journal: Any, config: ClockConfig, clock: Callable[[], float],
                 on_timeout: Callable[[TimeOut], None] = lambda t: None) -> None:
        self.journal = journal
        self.now = clock
        self.on_timeout = on_timeout
        self.clock = Clock.start(config)
        read = getattr(journal, "read", None)
        for e in reversed(getattr(read, "events", []) or []):
            if e.get("event") == "clock" and isinstance(e.get("remaining"), list) and len(e["remaining"]) == 2:
                self.clock = replace(self.clock, reserve=(float(e["remaining"][0]), float(e["remaining"][1])))
                break
        self._journaled = 0

    def show(self, view: Any, decisions: Sequence[Any]) -> None:
        """Follow the tournament clock through ``view`` and journal the time of each turn just ended."""
        if not self.clock.config.enabled:
            return
        now = self.now()
        self.clock = self.clock.follow(view, now).check(now)
        for colour, seconds in self.clock.moves[self._journaled:]:
            self.journal.append({"event": "clock", "player": colour, "seconds": seconds,
                                 "remaining": [round(r, 3) for r in self.clock.reserve]})
        self._journaled = len(self.clock.moves)
        flag = self.clock.flagged
        if flag is not None:
            self.journal.append({"event": "clock", "timeout": {"player": flag.player, "at": flag.at,
                                                               "outcome": flag.outcome, "points": flag.points}})
            self.clock = self.clock.clear_flag() if flag.outcome == "penalty" else self.clock
            self.on_timeout(flag)
            if flag.outcome != "penalty":  # the match is lost: the clock stops
                self.clock = replace(self.clock.switch(None, now), flagged=None,
                                     config=replace(self.clock.config, reserve=0))


__all__ = ["ClockSink"]
