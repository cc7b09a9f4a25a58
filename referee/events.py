"""The referee's input types: what the table's devices report.

These are the contract between the edges (``vision``, ``firmware_bridge``,
``hardware``) and the referee.  The edge packages import them from here and
never from each other.  Every type is an immutable value with a one-line JSON
text form (:func:`to_json` / :func:`from_json`), so a journal line, a test
script line and a log line are the same thing.

Conventions
-----------
* Colours are ``"dark"`` and ``"light"``; which player plays which colour is
  configuration, not something the devices know.
* **Table numbering.** Physical points are numbered 1..24 in *Dark's* own
  numbering: Dark's home board is 1..6 and Dark moves from 24 towards 1.  Light's
  point ``p`` is table point ``25 - p``.  Vision maps the camera image to this
  numbering from its set-up; the referee maps it to the player on roll.
* **Dice zones** are named as seen from Dark's seat: ``"left"`` and ``"right"``
  halves of the playing surface, ``"outside"`` (off the landing area or off the
  board) and ``"tray"`` (a dice tower / tray, when the table uses one).  The
  thrower's right-hand half is ``"right"`` for Dark and ``"left"`` for Light.
* Times are seconds from an injected clock (float), never read here.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal, Optional, Union

from referee.colour import COLOURS

Zone = Literal["left", "right", "outside", "tray"]
ZONES: tuple[str, ...] = ("left", "right", "outside", "tray")


class EventError(ValueError):
    """An event's text form or field values are malformed; the message names the value."""


# --------------------------------------------------------------------------- dice


@dataclass(frozen=True)
class DieReading:
    """One die as the dice reader saw it come to rest.

    ``value`` is the top face 1..6, or ``None`` when unreadable.  ``flat`` is
    False for a cocked (tilted) die.  ``x``/``y`` are its position on the board
    surface in millimetres from the centre of the board, x towards Dark's right,
    y away from Dark.  ``on_checker`` is True when it rests on a checker (the
    camera may also tell the referee so).
    """

    value: Optional[int]
    flat: bool = True
    zone: str = "right"
    on_checker: bool = False
    x: float = 0.0
    y: float = 0.0
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if self.value is not None and (not isinstance(self.value, int) or not 1 <= self.value <= 6):
            raise EventError(f"die value {self.value!r} is not 1..6 or None (unreadable)")
        if self.zone not in ZONES:
            raise EventError(f"die zone {self.zone!r} is not one of {', '.join(ZONES)}")


@dataclass(frozen=True)
class RollStarted:
    """The dice reader saw dice moving in the landing area."""

    roll_id: int = 0
    t: float = 0.0
    kind: str = field(default="roll_started", init=False)


@dataclass(frozen=True)
class RollSettled:
    """The dice have come to rest.  One die (opening roll) or two.

    ``source`` identifies the reader (e.g. its boot id) so a reconnecting link
    can never deliver the same roll twice: (source, roll_id) is unique.
    """

    dice: tuple[DieReading, ...]
    roll_id: int = 0
    source: str = ""
    t: float = 0.0
    kind: str = field(default="roll_settled", init=False)

    def __post_init__(self) -> None:
        if not 1 <= len(self.dice) <= 2:
            raise EventError(f"a settled roll has 1 or 2 dice, not {len(self.dice)}")
        object.__setattr__(self, "dice", tuple(self.dice))

    @property
    def values(self) -> tuple[Optional[int], ...]:
        """The dice's values (None for a die that could not be read)."""
        return tuple(d.value for d in self.dice)


@dataclass(frozen=True)
class DiceLifted:
    """The dice were picked up from the landing area (the turn-completion signal)."""

    roll_id: int = 0
    t: float = 0.0
    kind: str = field(default="dice_lifted", init=False)


@dataclass(frozen=True)
class ReaderFault:
    """The dice reader reports a fault (a sensor failed, the link was lost...)."""

    message: str
    t: float = 0.0
    kind: str = field(default="reader_fault", init=False)


# --------------------------------------------------------------------------- board


@dataclass(frozen=True)
class PointReading:
    """What the camera sees on one point: a count and a colour (None when empty)."""

    count: int
    colour: Optional[str] = None
    confidence: float = 1.0

    def __post_init__(self) -> None:
        if self.count < 0:
            raise EventError(f"checker count {self.count} is negative")
        if self.count and self.colour not in COLOURS:
            raise EventError(f"colour {self.colour!r} must be 'dark' or 'light' for {self.count} checkers")
        if not self.count and self.colour is not None:
            object.__setattr__(self, "colour", None)


def _checked_alt(alt: object) -> bool:
    """One odds alternative already in its checked form: a tuple (count 0..15, colour, probability
    0..1 as a float); anything else goes through the full check (and its error)."""
    return (type(alt) is tuple and len(alt) == 3 and type(alt[0]) is int and 0 <= alt[0] <= 15
            and type(alt[2]) is float and 0.0 <= alt[2] <= 1.0)


@dataclass(frozen=True)
class BoardEvidence:
    """A stable camera reading of the board, in table numbering (Dark's points).

    ``points[i]`` is table point ``i + 1``.  ``bar`` and ``off`` are counts per
    colour; ``off`` is ``None`` when the trays are not visible.  ``confidence``
    is the reading's overall confidence in 0..1.

    ``odds`` (optional, empty for a reading without them) gives what the camera thinks may
    lie at each location: 26 entries, the 24 points then the bar's dark and light checkers,
    each a tuple of ``(count, colour, probability)`` alternatives (colour ``None`` for an
    empty point; for the bar entries the colour is that entry's), or 28: then Dark's and
    Light's borne-off checkers too, when the camera trusts its trays (:mod:`vision.tray_trust`).  The referee scores the
    positions a roll allows by them (:mod:`referee.turn.likelihood`); ``points`` and ``bar`` are
    then the most likely reading.
    """

    points: tuple[PointReading, ...]
    bar: tuple[int, int] = (0, 0)  # (dark, light)
    off: Optional[tuple[int, int]] = None  # (dark, light) or unknown
    confidence: float = 1.0
    t: float = 0.0
    odds: tuple[tuple[tuple[int, Optional[str], float], ...], ...] = ()
    kind: str = field(default="board", init=False)

    def __post_init__(self) -> None:
        if len(self.points) != 24:
            raise EventError(f"board evidence needs 24 points, got {len(self.points)}")
        object.__setattr__(self, "points", tuple(
            p if isinstance(p, PointReading) else PointReading(**p) if isinstance(p, dict) else PointReading(*p)
            for p in self.points))
        object.__setattr__(self, "bar", tuple(self.bar))
        if self.off is not None:
            object.__setattr__(self, "off", tuple(self.off))
        if self.odds:
            if len(self.odds) not in (26, 28):
                raise EventError(f"board odds need 26 locations (24 points, bar dark, bar light) or 28 (then off "
                                 f"dark, off light), got {len(self.odds)}")
            odds = []
            for k, alts in enumerate(self.odds):
                if type(alts) is tuple and all(_checked_alt(alt) for alt in alts):
                    odds.append(alts)  # already as it would be rebuilt (a reading's odds: every frame, twice)
                    continue
                row = []
                for alt in alts:
                    if not isinstance(alt, (list, tuple)) or len(alt) != 3:
                        raise EventError(f"board odds at location {k + 1}: {alt!r} is not [count, colour, probability]")
                    n, c, p = alt
                    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 15 \
                            or not isinstance(p, (int, float)) or not 0 <= p <= 1:
                        raise EventError(f"board odds at location {k + 1}: {alt!r} needs a count 0..15 and a "
                                         "probability 0..1")
                    row.append((n, c, float(p)))
                odds.append(tuple(row))
            object.__setattr__(self, "odds", tuple(odds))

    def counts(self, colour: str) -> list[int]:
        """Checkers of ``colour`` on table points 1..24 (index 0 = point 1)."""
        return [p.count if p.colour == colour else 0 for p in self.points]


@dataclass(frozen=True)
class HandOverBoard:
    """The camera sees something moving over the board: no stable reading now."""

    t: float = 0.0
    kind: str = field(default="hand_over_board", init=False)


# --------------------------------------------------------------------------- players

PLAYER_ACTIONS: tuple[str, ...] = (
    "double", "take", "pass", "beaver",
    "accept_move", "demand_legal_move",
    "resign_single", "resign_gammon", "resign_backgammon",
    "accept_resignation", "reject_resignation",
    "call_director", "confirm",
)


@dataclass(frozen=True)
class PlayerInput:
    """A player pressed a button (or the director entered an action).

    ``player`` is the colour of the player who acted.  ``choice`` carries a
    value for ``confirm`` (e.g. the index of a roll offered for confirmation).
    """

    player: str
    action: str
    choice: Optional[int] = None
    t: float = 0.0
    kind: str = field(default="player", init=False)

    def __post_init__(self) -> None:
        if self.player not in COLOURS:
            raise EventError(f"player {self.player!r} must be 'dark' or 'light'")
        if self.action not in PLAYER_ACTIONS:
            raise EventError(f"player action {self.action!r} is not one of {', '.join(PLAYER_ACTIONS)}")


InputEvent = Union[RollStarted, RollSettled, DiceLifted, ReaderFault, BoardEvidence, HandOverBoard, PlayerInput]

_KINDS: dict[str, type] = {
    "roll_started": RollStarted,
    "roll_settled": RollSettled,
    "dice_lifted": DiceLifted,
    "reader_fault": ReaderFault,
    "board": BoardEvidence,
    "hand_over_board": HandOverBoard,
    "player": PlayerInput,
}


def _plain(v: Any) -> Any:
    """Plain JSON values: numpy scalars (from vision) become Python numbers, tuples lists."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if hasattr(v, "item") and not isinstance(v, (str, bytes)):
        return v.item()
    return v


def to_dict(event: Any) -> dict[str, Any]:
    """The event as a plain dict (JSON-ready) with its ``kind`` first."""
    d = _plain(asdict(event))
    if "odds" in d and not d["odds"]:
        del d["odds"]  # a reading without odds keeps the text form it always had
    return {"kind": d.pop("kind"), **d}


def to_json(event: Any) -> str:
    """The canonical one-line JSON text form of an event."""
    return json.dumps(to_dict(event), separators=(",", ":"))


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and v == v and abs(v) != float("inf")


def _need(ok: bool, kind: str, name: str, value: Any, expected: str) -> None:
    if not ok:
        raise EventError(f"event {kind!r}: {name} {json.dumps(value) if _jsonable(value) else repr(value)} "
                         f"must be {expected}")


def _jsonable(v: Any) -> bool:
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


def _check_fields(kind: str, a: dict[str, Any]) -> None:
    """EventError naming the field, its value and what it must be, for text from outside
    (scripts, journals); the dataclasses then check the values' meaning."""
    if "t" in a:
        _need(_is_num(a["t"]), kind, "t", a["t"], "a time in seconds (a number)")
    if "roll_id" in a:
        _need(_is_int(a["roll_id"]) and a["roll_id"] >= 0, kind, "roll_id", a["roll_id"], "a whole number >= 0")
    for name in ("source", "message"):
        if name in a:
            _need(isinstance(a[name], str), kind, name, a[name], "a string")
    if "confidence" in a:
        _need(_is_num(a["confidence"]), kind, "confidence", a["confidence"], "a number from 0 to 1")
    if kind == "roll_settled":
        dice = a.get("dice", ())
        _need(isinstance(dice, list) and 1 <= len(dice) <= 2, kind, "dice", dice, "a list of one or two dice")
        for i, die in enumerate(dice):
            if not isinstance(die, dict):
                _need(die is None or _is_int(die), kind, f"dice[{i}]", die, "a die object or a value 1..6")
                continue
            v = die.get("value")
            _need(v is None or _is_int(v), kind, f"dice[{i}].value", v, "a value 1..6 or null (unreadable)")
            for b in ("flat", "on_checker"):
                if b in die:
                    _need(isinstance(die[b], bool), kind, f"dice[{i}].{b}", die[b], "true or false")
            if "zone" in die:
                _need(isinstance(die["zone"], str), kind, f"dice[{i}].zone", die["zone"],
                      f"one of {', '.join(ZONES)}")
            for f in ("x", "y"):
                if f in die:
                    _need(_is_num(die[f]), kind, f"dice[{i}].{f}", die[f], "a number (millimetres)")
            if "confidence" in die:
                _need(_is_num(die["confidence"]), kind, f"dice[{i}].confidence", die["confidence"],
                      "a number from 0 to 1")
    elif kind == "board":
        points = a.get("points", ())
        _need(isinstance(points, list) and len(points) == 24, kind, "points", points if len(str(points)) < 80
              else f"{type(points).__name__} of {len(points) if hasattr(points, '__len__') else '?'}",
              "a list of 24 point readings")
        for i, p in enumerate(points):
            if isinstance(p, list):
                p = dict(zip(("count", "colour", "confidence"), p))
            _need(isinstance(p, dict), kind, f"points[{i}]", p, 'an object {"count": n, "colour": "dark"}')
            c = p.get("count")
            _need(_is_int(c) and 0 <= c <= 15, kind, f"points[{i}].count", c, "a whole number 0..15")
            col = p.get("colour")
            _need(col is None or col in COLOURS, kind, f"points[{i}].colour", col, '"dark", "light" or null')
            if "confidence" in p:
                _need(_is_num(p["confidence"]), kind, f"points[{i}].confidence", p["confidence"],
                      "a number from 0 to 1")
        for name in ("bar", "off"):
            if name not in a or (name == "off" and a[name] is None):
                continue
            v = a[name]
            _need(isinstance(v, list) and len(v) == 2 and all(_is_int(n) and 0 <= n <= 15 for n in v), kind, name, v,
                  "two checker counts 0..15 [dark, light]" + (" or null (trays not seen)" if name == "off" else ""))
    elif kind == "player":
        for name in ("player", "action"):
            if name in a:
                _need(isinstance(a[name], str), kind, name, a[name], "a string")
        if a.get("choice") is not None:
            _need(_is_int(a["choice"]) and a["choice"] >= 0, kind, "choice", a["choice"], "a whole number >= 0 or null")


def from_dict(d: dict[str, Any]) -> Any:
    """Rebuild an event from :func:`to_dict` output (or a hand-written script line)."""
    if not isinstance(d, dict):
        raise EventError(f"an event must be a JSON object, not {d!r}")
    kind = d.get("kind")
    cls = _KINDS.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise EventError(f"unknown event kind {kind!r}; expected one of {', '.join(_KINDS)}")
    names = {f.name for f in fields(cls) if f.init}
    unknown = set(d) - names - {"kind"}
    if unknown:
        raise EventError(f"unknown field(s) {', '.join(sorted(unknown))} for event {kind!r}")
    args = {k: v for k, v in d.items() if k != "kind"}
    _check_fields(kind, args)  # type: ignore[arg-type]
    try:
        if cls is RollSettled:
            args["dice"] = tuple(DieReading(**x) if isinstance(x, dict) else DieReading(x)
                                 for x in args.get("dice", ()))
        if cls is BoardEvidence:
            args["points"] = tuple(PointReading(**p) if isinstance(p, dict) else PointReading(*p)
                                   for p in args.get("points", ()))
            if "bar" in args:
                args["bar"] = tuple(args["bar"])
            if args.get("off") is not None:
                args["off"] = tuple(args["off"])
        return cls(**args)
    except TypeError as exc:
        raise EventError(f"bad fields for event {kind!r}: {exc}") from None


def from_json(line: str) -> Any:
    """An event from one JSON line (EventError quoting the line when it is not one)."""
    try:
        d = json.loads(line)
    except json.JSONDecodeError as exc:
        raise EventError(f"not JSON: {line.strip()[:80]!r} ({exc.msg})") from None
    return from_dict(d)


# --------------------------------------------------------------------------- the camera on the dice


@dataclass(frozen=True)
class DiceSeen:
    """What the camera sees of the dice at rest on the board, once they are still: one
    :class:`DieReading` per die (``value`` None where the camera is not sure of it, ``zone`` as
    seen from Dark's seat, ``on_checker``; ``flat`` True, as the camera cannot see a die tilt), and
    none when it sees no dice any more (they were lifted).

    On a table without a dice reader a sure pair is the roll; with a dice reader it only
    cross-checks the reader's roll (:mod:`referee.turn.camera_only`)."""

    dice: tuple[DieReading, ...] = ()
    t: float = 0.0
    kind: str = field(default="dice_seen", init=False)

    def __post_init__(self) -> None:
        dice = tuple(d if isinstance(d, DieReading) else DieReading(**d) if isinstance(d, dict) else DieReading(d)
                     for d in self.dice)
        if len(dice) > 6:
            raise EventError(f"the camera sees at most 6 dice, not {len(dice)}")
        object.__setattr__(self, "dice", dice)

    @property
    def values(self) -> tuple[Optional[int], ...]:
        """The dice's values (None for a die the camera is not sure of)."""
        return tuple(d.value for d in self.dice)

    @property
    def sure(self) -> bool:
        """True when the camera sees one or two dice and is sure of every value."""
        return 1 <= len(self.dice) <= 2 and None not in self.values


_KINDS["dice_seen"] = DiceSeen


@dataclass(frozen=True)
class CameraReport:
    """The camera reports something the players or the director should know: no frames, what it
    had learned of the board lost, or the board found again at new corners after the camera or
    the board moved (play goes on; the players check the board the screen shows)."""

    message: str
    t: float = 0.0
    kind: str = field(default="camera", init=False)


_KINDS["camera"] = CameraReport


# the officials' events (the clock's time-out, the director's actions) register their kinds here
from referee import officials as _officials  # noqa: E402,F401
