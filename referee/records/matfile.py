"""Jellyfish match files (.mat / .txt): a forgiving reader and a strict, gnubg-style writer.

:func:`read_mat` accepts every variant found in real archives (FORMATS.md section 4):
``; [Key "Value"]`` headers, a UTF-8 BOM or Latin-1 text, ``Bar/22`` and ``25/22``,
``6/off`` and ``6/0``, ``(2)`` repeats, ``Cannot Move``, empty moves, ``DD: ????``
(rolled, then resigned), ``Concedes``, ``Doubles => 2``, ``Takes``, ``Drops``,
``Wins N point(s) [and the match]`` under the winner's column, money sessions
(``0 point match``).  It never stops at a bad line: it returns the record and the
problems it met, each with its game and move number.  Because the format does not
say whether a game that stops early was resigned, the reader replays each game
(:class:`referee.records.replay.GameReplayer`) to tell a bear-off, a pass and a resignation
apart, and records an accepted resignation where gnubg would; those replays come back
in :attr:`MatRead.known`, so that :func:`referee.records.replay.replay_match` walks each game once.

:func:`write_mat` writes the form GNU Backgammon 1.07 exports (``export match mat``):
one checker step per die, bar as 25 and off as 0, ``*`` after hits, 28-column cells,
plus every header tag the record holds (Match ID, EventTime, Variation, ...; gnubg drops
all but four on its own export, and ignores them on import).
The format has no place for re-rolls, corrections, rejected resignations, times or
accepted illegal plays.  A game with an accepted illegal play is written up to that
play's roll and then its result (gnubg imports it as the roll and a resignation for
those points, with no warning), so every position gnubg shows stood on the table; the
journal, the record's JSON and the SGF export (which sets up the position that stood)
keep the rest of the game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from referee.errors import NotationError, RecordError
from referee.rules.notation import parse_play_cached
from referee.records.actions import Action, Beaver, Double, Move, Pass, Resign, Roll, Take, move_unchecked
from referee.records.problems import Problem
from referee.records.record import GameRecord, MatchRecord, RuleSettings, crawford_flags
from referee.records.replay import GameReplayer, KnownReplay
from referee.records.mattags import GNUBG_TAGS, header_lines, ordered_meta, rule_tags, rules_from_meta

_HEADER = re.compile(r'^;\s*\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH = re.compile(r"^(\d+)\s+point\s+match\b", re.IGNORECASE)
_GAME = re.compile(r"^Game\s+(\d+)\s*$", re.IGNORECASE)
_SCORE = re.compile(r"^\s*(.*?\S)\s*:\s*(\d+)\s+(\S.*?)\s*:\s*(\d+)\s*$")
_MOVELINE = re.compile(r"^\s*(\d+)\)(.*)$")
#: a move line of two rolls in ASCII without "s" or "=" (the common line, as :meth:`_Reader.cells`
#: tests it): its move number and its two cells, each from its roll's two digits and colon
_PLAIN = r"[\x00-\x39\x3b\x3c\x3e-\x52\x54-\x72\x74-\x7f]*"  # ASCII but ":", "=", "S" and "s"
_TWO_ROLLS = re.compile(rf"[ \t\n\r\f\v]*([0-9]+)\){_PLAIN}([0-9][0-9]:{_PLAIN})([0-9][0-9]:{_PLAIN})\Z")
# the look-ahead only lets the scan skip, fast, the columns where no action can start
_ACTION = re.compile(
    r"(?=[\dbcdprtw])(\d\d:|Doubles\s*=>\s*\d+|Beavers?\s*=>\s*\d+|Takes|Drops|Passes|Concedes|Resigns|"
    r"Wins\s+\d+\s+points?(?:\s+and\s+the\s+match)?)", re.IGNORECASE)
_WINS = re.compile(r"Wins\s+(\d+)\s+points?", re.IGNORECASE)
_VALUE = re.compile(r"=>\s*(\d+)")
_ROLL = re.compile(r"\d\d:")
_CONCEDES = re.compile(r"(?i)concedes|resigns")


#: per player, the moves of the cells read so far ("52: 13/8 6/4" -> its Move): a move is a
#: value, and the same cells come back in every match
_PLAYED: tuple[dict[str, Move], dict[str, Move]] = ({}, {})
_PLAYED_KEPT = 1 << 14


@dataclass
class MatRead:
    """A record read from a match file, the problems met reading it, and notes on
    what the reader normalised (as gnubg does) without it being an error."""

    record: MatchRecord
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    lines: dict[tuple[int, int], int] = field(default_factory=dict)  # (game, move number) -> file line
    #: per game, its replay while reading (None when it found a problem), for
    #: :func:`referee.records.replay.replay_match` to use instead of replaying the game again
    known: tuple[Optional[KnownReplay], ...] = ()


def decode(data: bytes) -> str:
    """Text of a match file: UTF-8 (with or without BOM), else Latin-1."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load_mat(path: Union[str, Path]) -> MatRead:
    """Read the .mat file at ``path`` forgivingly: the record, the problems met and the notes."""
    return read_mat(decode(Path(path).read_bytes()))






class _GameBuilder:
    """Collects one game's actions while feeding them to a replayer."""

    def __init__(self, number: int, line: int) -> None:
        self.number = number
        self.line = line
        self.score: Optional[tuple[int, int]] = None
        self.names: Optional[tuple[str, str]] = None
        self.right_offset = 33
        self.actions: list[Action] = []
        self.replayer: Optional[GameReplayer] = None
        self.held: Optional[tuple[Move, int]] = None  # an empty move: a roll before a resignation?
        self.last_move = 0
        self.ended = False


class _Reader:
    def __init__(self) -> None:
        self.meta: list[tuple[str, str]] = []
        self.length: Optional[int] = None
        self.games: list[_GameBuilder] = []
        self.problems: list[Problem] = []
        self.notes: list[Problem] = []
        self.skipped = 0
        self.rules = RuleSettings()
        self.g: Optional[_GameBuilder] = None
        self.lineno = 0
        self.lines: dict[tuple[int, int], int] = {}
        #: (match length, Crawford rule), the games before the last looked at, whether one needed a point
        self.crawford_seen: tuple[tuple[int, bool], int, bool] = ((0, True), 0, False)

    def problem(self, move: int, text: str, reason: str) -> None:
        self.problems.append(Problem(self.g.number if self.g else 0, move, text.strip(), reason, self.lineno))

    def read(self, text: str) -> MatRead:
        if text.startswith("\ufeff"):
            text = text[1:]
        if "\0" in text:
            self.problems.append(Problem(0, 0, "", "a binary file, not match text", 1))
            return MatRead(MatchRecord(), self.problems)
        self._lines(text)
        self.close_game()
        players = ("Player 1", "Player 2")
        for g in self.games:
            if g.names:
                players = g.names
                break
        else:
            p1 = next((v for k, v in self.meta if k.lower() == "player 1"), None)
            p2 = next((v for k, v in self.meta if k.lower() == "player 2"), None)
            if p1 and p2:
                players = (p1, p2)
        if self.skipped > 20:
            self.problems.append(Problem(0, 0, "", f"{self.skipped - 20} more unreadable line(s) not listed"))
        if not self.games:
            what = "an empty file" if not text.strip() else "no games found"
            self.problems.append(Problem(0, 0, "", f"{what}: expected ' Game 1' and move lines "
                                                   "(is this a Jellyfish .mat file?)", max(1, self.lineno)))
        length = self.length if self.length is not None else 0
        if self.length is None:
            self.problems.append(Problem(0, 0, "", "no 'N point match' line: read as a money session"))
        scores = [g.score or (0, 0) for g in self.games]
        flags = crawford_flags(length, scores, self.rules.crawford)
        games = tuple(GameRecord(g.number, g.score or (0, 0), f, tuple(g.actions))
                      for g, f in zip(self.games, flags))
        known = tuple(None if g.replayer is None or g.replayer.out.problems else g.replayer.known(rec.actions)
                      for g, rec in zip(self.games, games))
        return MatRead(MatchRecord(players, length, self.rules, games, tuple(self.meta)), self.problems, self.notes,
                       self.lines, known)

    # --------------------------------------------------------------- lines

    def _lines(self, text: str) -> None:
        """Read every line (:meth:`line`); a game's common move line, two rolls whose cells were
        read before, is read here without the calls (:meth:`move_line`, :meth:`cells`, :meth:`cell`)."""
        played0, played1 = _PLAYED
        two = _TWO_ROLLS.match
        match = _MOVELINE.match
        lines = self.lines
        lineno = 0
        for lineno, raw in enumerate(text.splitlines(), 1):
            line = raw.rstrip()
            g = self.g
            if g is None:
                self.lineno = lineno
                self.line(line)
                continue
            m = two(line)
            if m is not None:  # the common line in ASCII: the cells' test below, in one match
                num, text0, text1 = m.groups()
                move = int(num)
                g.last_move = move
                lines.setdefault((g.number, move), lineno)
                text0 = text0.strip()  # text1 ends the line, which is stripped
            else:
                self.lineno = lineno
                m = match(line)
                if m is None:
                    self.line(line)
                    continue
                move = int(m.group(1))  # :meth:`move_line`
                g.last_move = move
                lines.setdefault((g.number, move), lineno)
                rest = m.group(2)
                c1 = rest.find(":")  # :meth:`cells`' test of its common line
                c2 = rest.find(":", c1 + 1)
                if not (c1 >= 2 and c2 > 0 and rest.find(":", c2 + 1) < 0 and rest[c1 - 2:c1].isdigit()
                        and rest[c2 - 2:c2].isdigit() and "s" not in rest and "S" not in rest and "=" not in rest
                        and rest.isascii()):
                    self.cells(line, m.start(2), rest, move)
                    continue
                text0, text1 = rest[c1 - 2:c2 - 2].strip(), rest[c2 - 2:].strip()
            # :meth:`cell` for each side (a new cell's play by :meth:`new_move`, else :meth:`action`)
            for p, text, played in ((0, text0, played0), (1, text1, played1)):
                if g.ended or g.held is not None:
                    self.lineno = lineno
                    self.action(p, text, move)
                    continue
                known = played.get(text)
                if known is not None:
                    acts = g.actions
                    acts.append(known)
                    g.replayer.feed(known, move, len(acts) - 1)  # type: ignore[union-attr]
                elif not self.new_move(g, p, text, move):
                    self.lineno = lineno
                    self.action(p, text, move)
        if lineno:
            self.lineno = lineno

    def line(self, line: str) -> None:
        s = line.strip()
        if not s:
            return
        g = self.g
        if g is not None:  # inside a game a move line is the common case (no other pattern matches it)
            m = _MOVELINE.match(line)
            if m:
                self.move_line(g, line, m)
                return
        m = _HEADER.match(s)
        if m:
            self.meta.append((m.group(1), m.group(2)))
            return
        if s.startswith(";") or s.startswith("#"):
            return
        m = _LENGTH.match(s)
        if m and self.g is None:
            self.length = int(m.group(1))
            self.rules = rules_from_meta(self.meta)
            return
        if self.g is None and "money" in s.lower():
            self.length = 0
            self.rules = rules_from_meta(self.meta)
            return
        m = _GAME.match(s)
        if m:
            self.close_game()
            if self.length is None:
                self.rules = rules_from_meta(self.meta)
            self.g = _GameBuilder(int(m.group(1)), 0)
            self.games.append(self.g)
            self.g.replayer = GameReplayer(self.g.number, self.length or 0, self.rules)
            return
        g = self.g
        if g is None:
            self.unreadable(Problem(0, 0, s, "unreadable line before the first game"))
            return
        m = _MOVELINE.match(line)
        if m:
            self.move_line(g, line, m)
            return
        if g.score is None:
            m = _SCORE.match(line)
            if m:
                # "name,1842": some servers append the rating; gnubg drops it
                g.names = (re.sub(r",\d+$", "", m.group(1)), re.sub(r",\d+$", "", m.group(3)))
                g.score = (int(m.group(2)), int(m.group(4)))
                g.right_offset = m.start(3)
                if not g.actions:  # replay it as the Crawford game it is (or not), to share the replay
                    g.replayer = GameReplayer(g.number, self.length or 0, self.rules, self.crawford_flag())
                return
        if _WINS.search(s):
            self.cells(line, 0, line, g.last_move)
            return
        self.unreadable(Problem(g.number, g.last_move, s, "unreadable line"))

    def new_move(self, g: _GameBuilder, p: int, text: str, move: int) -> bool:
        """A cell of the common line not read before (``52: 13/8 6/4``, :data:`_TWO_ROLLS`: two
        ASCII digits and a colon first, no "s") when it is a readable play, added as
        :meth:`action` adds it; False, with nothing done, for anything else (:meth:`action` then
        reads it: dice out of range, no play, "????", an unreadable play)."""
        d1, d2 = ord(text[0]) - 48, ord(text[1]) - 48
        rest = text[3:].strip()
        if not (0 < d1 < 7 and 0 < d2 < 7) or not rest or rest in ("????", "???", "?"):
            return False
        try:
            parse_play_cached(rest)
        except NotationError:
            return False
        mv = move_unchecked(p, (d1, d2), rest)  # the player, the dice and the text checked above
        played = _PLAYED[p]
        if len(played) >= _PLAYED_KEPT:
            played.clear()
        played[text] = mv
        acts = g.actions  # :meth:`add`, with no roll held
        acts.append(mv)
        g.replayer.feed(mv, move, len(acts) - 1)  # type: ignore[union-attr]
        return True

    def crawford_flag(self) -> bool:
        """Whether the last game is the Crawford game by the scores so far (``crawford_flags``'
        last flag), each earlier game's score looked at once over the file."""
        length, rule = self.length or 0, self.rules.crawford
        key, done, seen = self.crawford_seen
        if key != (length, rule):
            done, seen = 0, False
        earlier = [b.score or (0, 0) for b in self.games[done:-1]]
        seen = seen or any(crawford_flags(length, earlier, rule))  # a game before needed one point
        self.crawford_seen = ((length, rule), len(self.games) - 1, seen)
        last = self.games[-1].score or (0, 0)
        return crawford_flags(length, [(length - 1, 0)] * seen + [last], rule)[-1]

    def move_line(self, g: _GameBuilder, line: str, m: re.Match[str]) -> None:
        move = int(m.group(1))
        g.last_move = move
        self.lines.setdefault((g.number, move), self.lineno)
        self.cells(line, m.start(2), m.group(2), move)

    def unreadable(self, p: Problem) -> None:
        """Report the first unreadable lines; past 20 only count them (not a match file?)."""
        self.skipped += 1
        if self.skipped <= 20:
            self.problems.append(replace(p, line=self.lineno))

    def cells(self, line: str, base: int, rest: str, move: int) -> None:
        g = self.g
        assert g is not None
        # the common line, two rolls ("52: 13/8 6/4     31: 8/5 6/5"), split without the action
        # pattern's scan: every action but a roll has an "s" or "=" (Takes, Doubles => 2, Wins,
        # Concedes...), so in ASCII text without them the actions are exactly the rolls, one
        # before each colon, and with two colons each after two digits they are these two
        c1 = rest.find(":")
        c2 = rest.find(":", c1 + 1)
        if (c1 >= 2 and c2 > 0 and rest.find(":", c2 + 1) < 0 and rest[c1 - 2:c1].isdigit()
                and rest[c2 - 2:c2].isdigit() and "s" not in rest and "S" not in rest and "=" not in rest
                and rest.isascii()):
            self.cell(g, 0, rest[c1 - 2:c2 - 2].strip(), move)
            self.cell(g, 1, rest[c2 - 2:].strip(), move)
            return
        found = list(_ACTION.finditer(rest))
        if len(found) == 2:  # the common line: one cell each side
            s1 = found[1].start()
            left, right = rest[found[0].start():s1].strip(), rest[s1:].strip()
            if not (left.endswith(":") and _CONCEDES.match(right)):
                self.cell(g, 0, left, move)
                self.cell(g, 1, right, move)
                return
        # "62: Concedes" / "62: ????": a roll and what followed it share one cell
        merged: list[tuple[int, str]] = []
        for i, m in enumerate(found):
            end = found[i + 1].start() if i + 1 < len(found) else len(rest)
            text = rest[m.start():end].strip()
            if merged and merged[-1][1].endswith(":") and _CONCEDES.match(text):
                merged[-1] = (merged[-1][0], merged[-1][1] + " " + text)
                continue
            merged.append((base + m.start(), text))
        if not found and rest.strip():
            self.problem(move, rest, "no action found in this move line")
            return
        if len(merged) > 2:
            self.problem(move, rest, f"{len(merged)} actions in one move line (at most 2: left and right)")
        threshold = (6 + g.right_offset) / 2
        for i, (offset, text) in enumerate(merged[:2]):
            if len(merged) >= 2:
                player = i
            else:
                player = 1 if offset > threshold else 0
            self.action(player, text, move)

    def cell(self, g: _GameBuilder, p: int, text: str, move: int) -> None:
        """One cell's action: a move read before is added at once (:meth:`action` otherwise)."""
        known = None if g.ended or g.held is not None else _PLAYED[p].get(text)
        if known is None:
            self.action(p, text, move)
            return
        acts = g.actions
        acts.append(known)
        g.replayer.feed(known, move, len(acts) - 1)  # type: ignore[union-attr]  # :meth:`_append`

    def action(self, p: int, text: str, move: int) -> None:
        g = self.g
        assert g is not None
        if g.ended:
            self.problem(move, text, "an action after the game's result")
            return
        known = _PLAYED[p].get(text)
        if known is not None:  # a cell read before ("52: 13/8 6/4"): the same move again
            self.add(known, move)
            return
        low = text.lower()
        if _ROLL.match(text):
            d1, d2 = int(text[0]), int(text[1])
            rest = text[3:].strip()
            rl = rest.lower()
            if d1 == d2 == 0 and rl in ("????", "???", "?", "concedes", "resigns"):
                if rl in ("concedes", "resigns"):  # "00:": resigned without rolling
                    self.add(Resign(p, 1), move)
                return
            if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
                self.problem(move, text, f"dice {text[:2]} out of range (each die 1-6)")
                return
            if rl in ("????", "???", "?"):
                self.add(Roll(p, (d1, d2)), move)
            elif rl in ("concedes", "resigns"):
                self.add(Roll(p, (d1, d2)), move)
                self.add(Resign(p, 1), move)
            elif rest == "":
                self.flush_held()
                g.held = (Move(p, (d1, d2), ""), move)
            else:
                try:
                    parse_play_cached(rest)
                except NotationError as exc:
                    self.problem(move, text, f"unreadable move: {exc}")
                    self.add(Move(p, (d1, d2), rest), move)
                    return
                mv = move_unchecked(p, (d1, d2), rest)  # the player, the dice and the text checked above
                played = _PLAYED[p]
                if len(played) >= _PLAYED_KEPT:
                    played.clear()
                played[text] = mv
                self.add(mv, move)
            return
        if low.startswith("doubles"):
            self.add(Double(p, int(_VALUE.search(text).group(1))), move)  # type: ignore[union-attr]
        elif low.startswith("beaver"):
            self.add(Beaver(p, int(_VALUE.search(text).group(1))), move)  # type: ignore[union-attr]
        elif low.startswith("takes"):
            self.add(Take(p), move)
        elif low.startswith(("drops", "passes")):
            self.add(Pass(p), move)
        elif low.startswith(("concedes", "resigns")):
            self.add(Resign(p, 1), move)
        elif low.startswith("wins"):
            self.wins(p, int(_WINS.search(text).group(1)), move, text)  # type: ignore[union-attr]
        else:  # pragma: no cover - the action pattern admits nothing else
            self.problem(move, text, "unknown action")

    def flush_held(self, as_roll: bool = False) -> None:
        g = self.g
        assert g is not None
        if g.held is None:
            return
        mv, move = g.held
        g.held = None
        if as_roll:
            self._append(Roll(mv.player, mv.dice), move)
        else:
            self._append(mv, move)

    def add(self, a: Action, move: int) -> None:
        g = self.g
        assert g is not None
        if g.held is not None:
            held_player = g.held[0].player
            self.flush_held(as_roll=isinstance(a, Resign) and a.player == held_player
                            and g.replayer is not None and g.replayer.legal_exists(held_player, g.held[0].dice))
        self._append(a, move)

    def _append(self, a: Action, move: int) -> None:
        g = self.g
        assert g is not None and g.replayer is not None
        g.actions.append(a)
        g.replayer.feed(a, move, len(g.actions) - 1)

    def wins(self, p: int, points: int, move: int, text: str) -> None:
        g = self.g
        assert g is not None and g.replayer is not None
        r = g.replayer
        if g.held is not None:
            # "DD:" then the result: a roll not played (gnubg: set dice, then a resignation)
            # whenever a play existed -- whoever then won
            mv = g.held[0]
            self.flush_held(as_roll=r.legal_exists(mv.player, mv.dice))
        if r.resign is not None and r.resign[0] == 1 - p and not r.resign_accepted:
            # the resignation was written ("Concedes"): give it the kind that was scored
            acts, note = r.end_actions(p, points, True)
            idx = max(i for i, x in enumerate(g.actions) if isinstance(x, Resign))
            g.actions[idx] = Resign(1 - p, r.resign[1])
        else:
            acts, note = r.end_actions(p, points)
        if note:
            self.notes.append(Problem(g.number, move, text, note))
        for x in acts:
            self._append(x, move)
        g.ended = True

    def close_game(self) -> None:
        g = self.g
        if g is None:
            return
        if g.held is not None:
            # a game that stops on "DD:" (an unfinished match): rolled, not yet played
            mv = g.held[0]
            self.flush_held(as_roll=g.replayer is not None and g.replayer.legal_exists(mv.player, mv.dice))
        if g.score is None:
            self.problem(0, f"Game {g.number}", "no score line ('name : score   name : score') after 'Game N'")
        self.g = None


def read_mat(text: Union[str, bytes]) -> MatRead:
    """Read a match file's text forgivingly: the record and the problems met."""
    if isinstance(text, bytes):
        text = decode(text)
    return _Reader().read(text)


# the writer, re-exported (``from referee.records.matfile import write_mat`` keeps working) and
# imported when first asked for: reading and replaying a file never needs it
_WRITER_NAMES = ("gnubg_steps", "save_mat", "writable_actions", "write_mat")
if TYPE_CHECKING:
    from referee.records.matwriter import gnubg_steps, save_mat, writable_actions, write_mat  # noqa: F401


def __getattr__(name: str) -> Any:
    """The writer's names (:mod:`referee.records.matwriter`), imported on first use."""
    if name in _WRITER_NAMES:
        from referee.records import matwriter  # noqa: PLC0415

        return getattr(matwriter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["MatRead", "read_mat", "load_mat", "write_mat", "save_mat", "decode", "gnubg_steps", "RecordError",
           "GNUBG_TAGS", "header_lines", "ordered_meta", "rule_tags", "writable_actions", "rules_from_meta"]
