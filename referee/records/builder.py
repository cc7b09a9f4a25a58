"""The one place a match record is built: a fold over record entries.

The referee emits record entries (``Referee.new_record_actions()``): a :class:`MatchStart`
when it is made, a :class:`GameStart` just before each game's first action, and the
game's actions (:mod:`referee.records.actions`) as they happen.  The journal keeps each
entry as one line (:func:`entry_event`: ``{"event": "match" | "game" | "action", ...}``,
see :mod:`referee.records.journal`).  :class:`RecordBuilder` folds entries, or those
lines, into the :class:`~referee.records.record.MatchRecord`: the live journal's record,
a journal read back after a crash, a script's or a test's record alike.  The referee
itself keeps no record: what it needs to decide (the score, the game number, Crawford,
the cube) is its own state.

Which fold an entry takes is a table (:data:`FOLDS`, by the entry's ``TYPE``; an action
without an entry there is appended to the game under way), and so is how a journal line
becomes an entry (:data:`DECODERS`, by the line's ``event``): a new kind is one entry in
each.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterable, Optional, Union

from referee.errors import RecordError
from referee.records.actions import SCORE_NOTES, Action, GameEnd, action_from_dict
from referee.records.record import GameRecord, MatchRecord, RuleSettings


@dataclass(frozen=True)
class MatchStart:
    """The match's header: the players, the length (0 = money), the rules, the header tags."""

    TYPE: ClassVar[str] = "match"
    players: tuple[str, str] = ("Player 0", "Player 1")
    match_length: int = 0
    rules: RuleSettings = field(default_factory=RuleSettings)
    meta: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class GameStart:
    """A game begins: its 1-based number, the score before it, whether it is the Crawford game."""

    TYPE: ClassVar[str] = "game"
    number: int
    score_before: tuple[int, int] = (0, 0)
    crawford: bool = False


#: what the referee emits and the journal keeps, one line each
RecordEntry = Union[MatchStart, GameStart, Action]

def entry_event(entry: RecordEntry, game: int) -> dict[str, Any]:
    """The journal event of one record entry (an action is journaled as one of game ``game``)."""
    if isinstance(entry, MatchStart):
        return {"event": "match", "players": list(entry.players), "match_length": entry.match_length,
                "rules": entry.rules.to_dict(), "meta": [list(kv) for kv in entry.meta]}
    if isinstance(entry, GameStart):
        return {"event": "game", "game": entry.number, "score_before": list(entry.score_before),
                "crawford": entry.crawford}
    return {"event": "action", "game": game, "action": entry.to_dict()}


def record_entries(record: MatchRecord) -> list[RecordEntry]:
    """The entries that rebuild ``record`` (to journal an imported match, and for tests)."""
    out: list[RecordEntry] = [MatchStart(record.players, record.match_length, record.rules, record.meta)]
    for g in record.games:
        out.append(GameStart(g.number, g.score_before, g.crawford))
        out.extend(g.actions)
    return out


def journal_lines(record: MatchRecord) -> list[dict[str, Any]]:
    """The journal events that rebuild ``record`` (to journal an imported match, and for tests)."""
    out, game = [], 0
    for e in record_entries(record):
        game = e.number if isinstance(e, GameStart) else game
        out.append(entry_event(e, game))
    return out


# ---------------------------------------------------------------------------- journal lines -> entries


def _match_entry(b: "RecordBuilder", ev: dict[str, Any]) -> MatchStart:
    rules = RuleSettings.from_dict(ev.get("rules", {}))
    if len(ev.get("players", ())) != 2:
        raise RecordError(f"event {ev.get('seq')}: a match needs two players")
    return MatchStart(tuple(ev["players"]), int(ev.get("match_length", 0)), rules,
                      tuple(tuple(kv) for kv in ev.get("meta", ())))


def _game_entry(b: "RecordBuilder", ev: dict[str, Any]) -> GameStart:
    g = int(ev["game"])
    if b.games and g != b.games[-1][0] + 1 or not b.games and g < 1:
        raise RecordError(f"event {ev.get('seq')}: game {g} does not follow game {b.game}")
    return GameStart(g, tuple(ev.get("score_before", (0, 0))), bool(ev.get("crawford", False)))


def _action_entry(b: "RecordBuilder", ev: dict[str, Any]) -> Action:
    if not b.games or int(ev.get("game", -1)) != b.game:
        raise RecordError(f"event {ev.get('seq')}: an action for game {ev.get('game')!r}, "
                          f"but the current game is {b.game or 'none'}")
    return action_from_dict(ev["action"])


#: how each record event of a journal becomes an entry (checked against the record so far)
DECODERS: dict[str, Callable[["RecordBuilder", dict[str, Any]], Any]] = {
    "match": _match_entry,
    "game": _game_entry,
    "action": _action_entry,
}


# ---------------------------------------------------------------------------- entries -> the record


def _start_match(b: "RecordBuilder", e: MatchStart) -> None:
    b.players, b.match_length, b.rules, b.meta = e.players, e.match_length, e.rules, e.meta


def _start_game(b: "RecordBuilder", e: GameStart) -> None:
    b.games.append((e.number, e.score_before, e.crawford, b.pending))  # a correction made between games first
    b.pending = []


def _append(b: "RecordBuilder", a: Action) -> None:
    if not b.games:
        raise RecordError(f"action {a.to_json()} comes before any game started")
    b.games[-1][3].append(a if a.t is not None or b.clock is None else a.at(b.clock))


def _undo(b: "RecordBuilder", a: Action) -> None:
    """The director's undo: the game's last action is taken back (it never reaches .mat or SGF);
    a score note after it (a penalty, a score correction) stays: the table's undo keeps the score."""
    acts = b.games[-1][3] if b.games else []
    for i in range(len(acts) - 1, -1, -1):
        if acts[i].TYPE not in SCORE_NOTES:
            del acts[i]
            return


def _score(b: "RecordBuilder", a: Action) -> None:
    """The director's score correction, kept in the record: the game under way is played at the
    corrected score (its score before); one made between games is the next game's first action."""
    if not b.games:
        raise RecordError(f"action {a.to_json()} comes before any game started")
    n, _, crawford, acts = b.games[-1]
    if acts and isinstance(acts[-1], GameEnd):
        b.pending.append(a if a.t is not None or b.clock is None else a.at(b.clock))
        return
    score = getattr(a, "score")
    b.games[-1] = (n, (score[0], score[1]), crawford, acts)
    _append(b, a)


#: how each kind of entry is folded in (an action kind not named here is appended to its game)
FOLDS: dict[str, Callable[["RecordBuilder", Any], None]] = {
    MatchStart.TYPE: _start_match,
    GameStart.TYPE: _start_game,
    "undo": _undo,    # referee.turn.director
    "score": _score,
}


class RecordBuilder:
    """Folds record entries (or a journal's events) into a match record."""

    def __init__(self) -> None:
        self.players: tuple[str, str] = ("Player 0", "Player 1")
        self.match_length = 0
        self.rules = RuleSettings()
        self.meta: tuple[tuple[str, str], ...] = ()
        self.games: list[tuple[int, tuple[int, int], bool, list[Action]]] = []
        self.pending: list[Action] = []  # score corrections made between games: the next game's first actions
        self.clock: Optional[float] = None  # the last input event's time: stamps the actions it caused
        self.entries = 0  # the record entries folded in so far

    @property
    def game(self) -> int:
        """The number of the game under way (the last one started; 0 before the first)."""
        return self.games[-1][0] if self.games else 0

    def add(self, entry: RecordEntry) -> None:
        """Fold one record entry in (RecordError when an action comes before any game)."""
        FOLDS.get(entry.TYPE, _append)(self, entry)
        self.entries += 1

    def take(self, entries: Iterable[RecordEntry]) -> "RecordBuilder":
        """Fold ``entries`` in, in order; the builder itself."""
        for e in entries:
            self.add(e)
        return self

    def check(self, ev: dict[str, Any]) -> Optional[RecordEntry]:
        """The record entry a journal event holds (None for other events), checked against
        the record so far, which does not change; RecordError naming the event when it does not fit."""
        kind = ev.get("event")
        decode = DECODERS.get(kind) if isinstance(kind, str) else None
        if decode is None:
            return None
        try:
            entry: RecordEntry = decode(self, ev)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RecordError):
                raise
            raise RecordError(f"event {ev.get('seq')}: malformed {kind!r} event: {exc!r}") from None
        return entry

    def apply(self, ev: dict[str, Any]) -> None:
        """Fold one journal event in; RecordError naming the event when it does not fit.
        An input event's time stamps the actions that follow it."""
        entry = self.check(ev)
        if entry is not None:
            self.add(entry)
        elif ev.get("event") == "input" and isinstance(ev.get("data"), dict):
            t = ev["data"].get("t")
            if isinstance(t, (int, float)) and not isinstance(t, bool):
                self.clock = float(t)

    def record(self) -> MatchRecord:
        """The match record built from the entries folded in so far."""
        return MatchRecord(self.players, self.match_length, self.rules,
                           tuple(GameRecord(n, s, c, tuple(a)) for n, s, c, a in self.games), self.meta)


def build_record(entries: Iterable[RecordEntry]) -> MatchRecord:
    """The match record of ``entries`` (e.g. everything a referee emitted: ``ref.new_record_actions()``)."""
    return RecordBuilder().take(entries).record()
