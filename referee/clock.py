"""The table as the tournament clock: a reserve per player plus a delay per move.

Pure values, no threads and no wall clock: every call takes ``now`` (seconds, from the
table's injected clock) and returns a new :class:`Clock`.  A player's clock runs while
that player must act; the first ``delay`` seconds of each turn are free (a simple
"US delay": unused delay is not banked), the rest comes off the reserve.  The mover
stops the clock by lifting the dice, which starts the opponent's.  A director call
pauses it; a reserve run down to zero is a time-out (:attr:`Clock.flagged`), whose
consequence the ``[clock]`` section names (lose the match, or a point penalty).

:meth:`Clock.follow` drives the clock from the referee's :class:`~referee.view.TableView`
(whose turn, which state), so the table needs no extra wiring: every view the table shows
is also a clock tick.

``[clock]`` in the table's TOML::

    [clock]
    reserve = 600        # seconds per player for the match (0 = no clock)
    delay = 12           # free seconds per move
    timeout = "lose_match"   # or "penalty"
    penalty_points = 1   # with timeout = "penalty": points to the opponent, the reserve restarts
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Optional

from referee.colour import COLOURS
from referee.errors import RefereeError

TIMEOUTS: tuple[str, str] = ("lose_match", "penalty")

# the view's states in which the player on turn acts (their clock runs)
_TURN_STATES = frozenset({"opening_roll", "waiting_for_roll", "reroll", "moving", "illegal_move",
                          "waiting_for_board"})
# states in which the opponent of the player on turn acts (takes or passes, accepts or rejects)
_ANSWER_STATES = frozenset({"double_offered", "resignation_offered"})


class ClockError(RefereeError, ValueError):
    """A ``[clock]`` setting or a clock call is wrong; the message names the value and the fix."""


@dataclass(frozen=True)
class ClockConfig:
    """The ``[clock]`` section: reserve and delay in seconds, what a time-out costs."""

    reserve: float = 0.0
    delay: float = 0.0
    timeout: str = "lose_match"
    penalty_points: int = 1

    def __post_init__(self) -> None:
        for name in ("reserve", "delay"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
                raise ClockError(f"[clock] {name} = {v!r}: expected seconds, a number of 0 or more")
        if self.timeout not in TIMEOUTS:
            raise ClockError(f"[clock] timeout = {self.timeout!r}: expected one of {', '.join(map(repr, TIMEOUTS))}")
        p = self.penalty_points
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise ClockError(f"[clock] penalty_points = {p!r}: expected a whole number of points, 1 or more")

    @property
    def enabled(self) -> bool:
        """False when no reserve is set: the table keeps no clock."""
        return self.reserve > 0

    @classmethod
    def from_toml(cls, section: dict[str, Any]) -> "ClockConfig":
        """The section as read from TOML; unknown keys are an error naming the key."""
        if not isinstance(section, dict):
            raise ClockError(f"[clock] must be a table of settings, not {section!r}")
        known = {"reserve", "delay", "timeout", "penalty_points"}
        unknown = sorted(set(section) - known)
        if unknown:
            raise ClockError(f"[clock] unknown key(s) {', '.join(unknown)}; expected {', '.join(sorted(known))}")
        return cls(**section)


@dataclass(frozen=True)
class TimeOut:
    """A player's reserve ran out: who, when, and what the settings make of it."""

    player: str
    at: float
    outcome: str  # "lose_match" or "penalty"
    points: int = 0  # with "penalty": points to the opponent

    def __str__(self) -> str:
        if self.outcome == "lose_match":
            return f"{self.player} ran out of time and loses the match"
        return f"{self.player} ran out of time: {self.points} point(s) to the opponent"


@dataclass(frozen=True)
class Clock:
    """Both players' clocks (a value).  ``running`` is the colour whose clock runs (None:
    both stopped), ``since`` when its current turn began, ``paused_at`` set while a
    director call holds it.  Reserves are what was left when the current turn began."""

    config: ClockConfig = field(default_factory=ClockConfig)
    reserve: tuple[float, float] = (0.0, 0.0)
    running: Optional[str] = None
    since: float = 0.0
    paused_at: Optional[float] = None
    flagged: Optional[TimeOut] = None
    moves: tuple[tuple[str, float], ...] = ()  # (colour, seconds taken) of each finished turn

    @classmethod
    def start(cls, config: ClockConfig) -> "Clock":
        """A fresh clock: both reserves full, nothing running."""
        return cls(config, (float(config.reserve), float(config.reserve)))

    # ------------------------------------------------------------ reading

    def elapsed(self, now: float) -> float:
        """Seconds the running player has used in this turn (paused time excluded)."""
        if self.running is None:
            return 0.0
        end = self.paused_at if self.paused_at is not None else now
        return max(0.0, end - self.since)

    def remaining(self, colour: str, now: float) -> float:
        """The reserve ``colour`` has left at ``now`` (never below 0)."""
        i = _index(colour)
        left = self.reserve[i]
        if self.running == colour:
            left -= max(0.0, self.elapsed(now) - self.config.delay)
        return max(0.0, left)

    def delay_left(self, now: float) -> float:
        """The free seconds left in the running player's turn (0 when none runs)."""
        if self.running is None:
            return 0.0
        return max(0.0, self.config.delay - self.elapsed(now))

    def to_dict(self, now: float) -> dict[str, Any]:
        """What the screen and the director's page show: reserves left, who runs, paused."""
        return {"enabled": self.config.enabled, "running": self.running, "paused": self.paused_at is not None,
                "remaining": [round(self.remaining(c, now), 1) for c in COLOURS],
                "delay_left": round(self.delay_left(now), 1),
                "flagged": None if self.flagged is None else {"player": self.flagged.player,
                                                              "outcome": self.flagged.outcome,
                                                              "points": self.flagged.points}}

    def texts(self, now: float) -> tuple[str, str]:
        """(dark, light) reserves left as the table screen shows them ("9:45"; "paused" added)."""
        tail = " paused" if self.paused_at is not None else ""
        return (_mmss(self.remaining("dark", now)) + (tail if self.running == "dark" else ""),
                _mmss(self.remaining("light", now)) + (tail if self.running == "light" else ""))

    def __str__(self) -> str:
        mmss = _mmss
        run = f", {self.running} to act" if self.running else ""
        pause = ", paused" if self.paused_at is not None else ""
        return f"Dark {mmss(self.reserve[0])} Light {mmss(self.reserve[1])}{run}{pause}"

    # ------------------------------------------------------------ changing

    def switch(self, colour: Optional[str], now: float) -> "Clock":
        """The turn passes to ``colour`` (None: stop both): the running player's turn is
        charged (time beyond the delay) and recorded in :attr:`moves`."""
        if colour is not None:
            _index(colour)
        if colour == self.running:
            return self
        c = self.check(now)
        reserve = list(c.reserve)
        moves = c.moves
        if c.running is not None:
            used = c.elapsed(now)
            i = _index(c.running)
            reserve[i] = max(0.0, reserve[i] - max(0.0, used - c.config.delay))
            moves = moves + ((c.running, round(used, 3)),)
        paused = now if c.paused_at is not None else None
        return replace(c, reserve=(reserve[0], reserve[1]), running=colour, since=now, paused_at=paused,
                       moves=moves)

    def lifted(self, colour: str, now: float) -> "Clock":
        """``colour`` lifted the dice: their turn ends and the opponent's clock starts."""
        return self.switch(COLOURS[1 - _index(colour)], now)

    def pause(self, now: float) -> "Clock":
        """A director call: the running clock stops where it is (again: no change)."""
        if self.paused_at is not None:
            return self
        return replace(self.check(now), paused_at=now)

    def resume(self, now: float) -> "Clock":
        """The director lets play go on: the running clock goes on from where it stopped."""
        if self.paused_at is None:
            return self
        if now < self.paused_at:
            raise ClockError(f"resume at {now} is before the pause at {self.paused_at}; the table's clock "
                             "must not go backwards")
        return replace(self, since=self.since + (now - self.paused_at), paused_at=None)

    def check(self, now: float) -> "Clock":
        """The clock at ``now`` with :attr:`flagged` set if the running player's reserve ran
        out (when, exactly, is computed, not the time of the check).  With ``penalty`` the
        reserve starts again full after the penalty."""
        if not self.config.enabled or self.running is None or self.flagged is not None:
            return self
        if self.remaining(self.running, now) > 0:
            return self
        at = self.since + self.config.delay + self.reserve[_index(self.running)]
        cfg = self.config
        out = TimeOut(self.running, at, cfg.timeout, cfg.penalty_points if cfg.timeout == "penalty" else 0)
        if cfg.timeout == "penalty":
            reserve = list(self.reserve)
            # a full reserve from `at` on: remaining(now) = reserve - (now - at)
            reserve[_index(self.running)] = float(cfg.reserve) + self.reserve[_index(self.running)]
            # the flag is reported once; a later time-out is a new one
            return replace(self, reserve=(reserve[0], reserve[1]), flagged=out)
        return replace(self, flagged=out)

    def clear_flag(self) -> "Clock":
        """The time-out was acted on (a penalty applied): the next one can be reported."""
        return replace(self, flagged=None) if self.flagged is not None else self

    def follow(self, view: Any, now: float) -> "Clock":
        """The clock after the table shows ``view``: it runs for whoever must act, stops at
        the end of a game or match, and pauses while the director is called."""
        state = getattr(view, "state", "")
        turn = getattr(view, "turn", None)
        c = self
        if state == "director":
            return c.pause(now)
        if c.paused_at is not None:
            c = c.resume(now)
        if state in _TURN_STATES and turn in COLOURS:
            return c.switch(turn, now)
        if state in _ANSWER_STATES and turn in COLOURS:
            return c.switch(COLOURS[1 - _index(turn)], now)
        if state in ("game_over", "match_over"):
            return c.switch(None, now)
        return c


def _mmss(seconds: float) -> str:
    s = int(seconds + 0.999)
    return f"{s // 60}:{s % 60:02d}"


def _index(colour: str) -> int:
    try:
        return COLOURS.index(colour)
    except ValueError:
        raise ClockError(f"player {colour!r} is not 'dark' or 'light'") from None


__all__ = ["Clock", "ClockConfig", "ClockError", "TimeOut", "TIMEOUTS"]
