"""GNU Backgammon's SGF (``GM[6]``): a writer and a forgiving reader (FORMATS.md section 5).

One game tree per game.  The root node holds ``MI[length:L][game:g][ws:a][bs:b]``,
``PW``/``PB``, ``RU[Crawford]`` (``Crawford:CrawfordGame`` in the Crawford game),
``RE[W+2]`` (suffix ``R`` = resignation), ``CV[2]`` when automatic doubles turned the cube
(as gnubg writes them) and, in the first game, ``DT``/``EV``/``RO``/``PC``/``AN`` and every
other header tag of the record (Match ID, EventTime, Variation, ...) as the private
property ``HT[key:value]...`` (gnubg ignores it; :func:`read_sgf` reads it back).
Move nodes are ``;W[<dice><from><to>...]`` with one letter pair per checker step
in absolute coordinates (``a``..``x`` = W's points 1..24 = B's 24..1, ``y`` bar,
``z`` off), steps in gnubg's canonical order (as it sorts .mat steps: by source, then
destination, high to low); cube nodes ``;B[double]``, ``;W[take]``, ``;W[drop]``; a roll
that was not played (then a resignation) is the setup node ``;PL[W]DI[51]``.  W is player 0.
An accepted illegal play is its roll (``;PL[B]DI[42]``) then the position as it stood,
gnubg's set-board node ``;PL[W]AE[a:y]AW[..]AB[..]C[Light 42, accepted illegal play: 24/18]``
(``PL`` last when B plays next: see :func:`_board_node`), which the reader turns back
into the accepted play.  The director's set-up (``SetUp``) is a set-board node with no roll
before it, ``PL`` naming the player on roll and ``C[set up by the director]``; the reader takes
any such node (gnubg writes one for an edited position) as a set-up, with the cube from
``CV[value]``/``CP[w|b|c]`` in that node or in the cube-only nodes gnubg writes after it
(``;CV[4]`` ``;CP[b]``); a cube-only node elsewhere (gnubg's edited cube) is a set-up of the
position where it stands.  Every node carries the time of its action as ``TS[seconds]``
(the journal's clock; a private property gnubg ignores).
Analysis properties (``A``, ``GS``...) are skipped when reading.  SGF has no place for
re-rolls and corrections (the journal and the JSON form keep them).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional, Union

from referee.rules.notation import BAR_POINT, OFF_POINT
from referee.records.actions import (Action, Beaver, Double, IllegalAccepted, Move, Pass, Reroll, Roll, SetUp,
                                     Take)
from referee.records.problems import MoveNumbers, Problem
from referee.records.record import GameRecord, MatchRecord, RuleSettings, crawford_flags
from referee.rules.position import Position
from referee.records.replay import GameReplayer, KnownReplay

#: the application name the writer puts in ``AP[]``, and the comment that names an accepted
#: illegal play (the writer writes it, the reader reads the play from it)
APP = "bgtable:0.1"
ILLEGAL_NOTE = "accepted illegal play: "

# the writer, re-exported (``from referee.records.sgf import write_sgf`` keeps working) and
# imported when first asked for: reading and replaying a file never needs it
_WRITER_NAMES = ("save_sgf", "write_sgf")
if TYPE_CHECKING:
    from referee.records.sgfwriter import save_sgf, write_sgf  # noqa: F401


def __getattr__(name: str) -> Any:
    """The writer's names (:mod:`referee.records.sgfwriter`), imported on first use."""
    if name in _WRITER_NAMES:
        from referee.records import sgfwriter  # noqa: PLC0415

        return getattr(sgfwriter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["APP", "ILLEGAL_NOTE", "SgfRead", "read_sgf", "load_sgf", "write_sgf", "save_sgf"]


def _point(player: int, ch: str) -> int:
    if ch == "y":
        return BAR_POINT
    if ch == "z":
        return OFF_POINT
    i = ord(ch) - ord("a")
    return i + 1 if player == 0 else 24 - i



# a value is [...] with \] and \\ escaped, as runs of plain characters between escapes (one
# pattern step per run, not per character: the analysed files' comments are long)
_PROP = re.compile(r"([A-Za-z]+)((?:\s*\[[^\]\\]*(?:\\.[^\]\\]*)*\])+)", re.S)
_VAL = re.compile(r"\[([^\]\\]*(?:\\.[^\]\\]*)*)\]", re.S)
_WS = re.compile(r"\s*")  # matched at a position (a slice of the rest would copy it)


@dataclass
class SgfRead:
    """A record read from an SGF file, and the problems met reading it."""

    record: MatchRecord
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)
    lines: dict[tuple[int, int], int] = field(default_factory=dict)  # (game, move number) -> file line
    #: per game, its replay while reading (None when it found a problem), for
    #: :func:`referee.records.replay.replay_match` to use instead of replaying the game again
    known: tuple[Optional[KnownReplay], ...] = ()


def _unesc(v: str) -> str:
    # most values have no escape: returned as they are, without the substitution's template
    return _ESCAPED(r"\1", v) if "\\" in v else v


_ESCAPED = re.compile(r"\\(.)", re.S).sub


Node = list[tuple[str, list[str]]]


def _trees(text: str) -> list[list[tuple[int, Node]]]:
    """Split SGF text into game trees, each a list of ``(line, node)`` (a node is a list of
    (prop, values)).  Only the main line is kept (variations are skipped)."""
    trees: list[list[tuple[int, Node]]] = []
    i, n = 0, len(text)
    depth = 0
    line, counted = 1, 0
    cur: Optional[list[tuple[int, Node]]] = None
    while i < n:
        c = text[i]
        if c == "(":
            depth += 1
            if depth == 1:
                cur = []
                trees.append(cur)
            i += 1
        elif c == ")":
            depth -= 1
            i += 1
        elif c == ";":
            line += text.count("\n", counted, i)
            counted = i
            i += 1
            node: Node = []
            while True:
                m = _PROP.match(text, i)
                if not m:
                    e = _WS.match(text, i).end()  # type: ignore[union-attr]  # \s* always matches
                    if e > i and e < n and text[e].isalpha():
                        i = e
                        continue
                    break
                node.append((m.group(1), [_unesc(v) for v in _VAL.findall(m.group(2))]))
                i = _WS.match(text, m.end()).end()  # type: ignore[union-attr]
            if cur is not None and depth == 1:
                cur.append((line, node))
        elif c == "[":  # stray value: skip it
            m = _VAL.match(text, i)
            i = m.end() if m else i + 1
        else:
            i += 1
    return trees


def _float(v: Optional[list[str]]) -> Optional[float]:
    try:
        return float(v[0]) if v else None
    except ValueError:
        return None


def _is_board(props: dict[str, list[str]]) -> bool:
    return "AE" in props or "AB" in props or "AW" in props


def _board(props: dict[str, list[str]]) -> Optional[Position]:
    """The position a set-board node ``AE[a:y]AW..AB..`` gives (player 0 on roll); None
    when it does not clear the whole board first (bgtable and gnubg always do)."""
    if props.get("AE") != ["a:y"]:
        return None
    me, opp = [0] * 25, [0] * 25
    for prop, side, player in (("AW", me, 0), ("AB", opp, 1)):
        for v in props.get(prop, []):
            if len(v) != 1 or not "a" <= v <= "y":
                return None
            pt = _point(player, v)
            side[24 if pt == BAR_POINT else pt - 1] += 1
    if sum(me) > 15 or sum(opp) > 15:
        return None
    try:
        return Position(me, opp)
    except ValueError:
        return None


_OWNERS = {"w": 0, "b": 1, "c": None, "": None}


def _is_cube_only(props: dict[str, list[str]]) -> bool:
    """A node that only sets the cube (gnubg writes ``;CV[4]`` then ``;CP[w]`` after a set-board)."""
    return bool(props) and set(props) <= {"CV", "CP", "TS", "C"} and ("CV" in props or "CP" in props)


def _setup_cube(props: dict[str, list[str]], cube: int, owner: Optional[int]) -> tuple[int, Optional[int], str]:
    """The cube value and owner a node's ``CV[value]``/``CP[w|b|c]`` give (starting from ``cube``
    and ``owner``), and the bad value when one is unreadable ('' when all read)."""
    bad = ""
    if "CV" in props:
        v = props["CV"][0].strip()
        if v.isascii() and v.isdigit() and int(v) >= 1 and int(v) & (int(v) - 1) == 0:
            cube = int(v)
        else:
            bad = f"CV[{v}]"
    if "CP" in props:
        v = props["CP"][0].strip().lower()
        if v in _OWNERS:
            owner = _OWNERS[v]
        else:
            bad = bad or f"CP[{v}]"
    return cube, owner, bad


def _illegal_text(props: dict[str, list[str]]) -> Optional[str]:
    note = " ".join(props.get("C", []))
    m = re.search(re.escape(ILLEGAL_NOTE) + r"(.*)$", note)
    return m.group(1).strip() if m else None


def read_sgf(text: Union[str, bytes]) -> SgfRead:
    """Read gnubg SGF forgivingly: the record and the problems met (an empty or binary
    file, or one with no backgammon game, is a problem)."""
    problems: list[Problem] = []
    notes: list[Problem] = []
    if isinstance(text, bytes):
        data = text
        if b"\0" in data:
            problems.append(Problem(0, 0, "", "a binary file, not SGF text", 1))
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(Problem(0, 0, "", f"not UTF-8 text (byte {exc.start}); is this an SGF file?",
                                    data[:exc.start].count(b"\n") + 1))
            text = data.decode("utf-8", errors="replace")
    games: list[tuple[int, tuple[int, int], list[Action]]] = []
    replayers: list[GameReplayer] = []
    players = ("Player 1", "Player 2")
    length = 0
    meta: list[tuple[str, str]] = []
    crawford_rule = False
    jacoby = False
    autodoubles = 0
    lines: dict[tuple[int, int], int] = {}
    line = 0
    trees = _trees(text)
    for ti, nodes in enumerate(trees):
        if not nodes:
            continue
        root_line, root_node = nodes[0]
        line = root_line
        root = dict((k, v) for k, v in root_node)
        number = ti + 1
        if root.get("GM", ["6"])[0] != "6":
            problems.append(Problem(number, 0, f"GM[{root['GM'][0]}]", "not a backgammon game (GM[6])", root_line))
            continue
        mi = {}
        for v in root.get("MI", []):
            if ":" in v:
                k, _, val = v.partition(":")
                mi[k.strip()] = val.strip()
        try:
            length = int(mi.get("length", length))
            number = int(mi["game"]) + 1 if "game" in mi else number
            score = (int(mi.get("ws", 0)), int(mi.get("bs", 0)))
        except ValueError:
            problems.append(Problem(number, 0, str(root.get("MI")), "MI values must be numbers", root_line))
            score = (0, 0)
        if "PW" in root and "PB" in root:
            players = (root["PW"][0], root["PB"][0])
        if ti == 0:
            for prop, key in (("PC", "Site"), ("EV", "Event"), ("RO", "Round"), ("DT", "EventDate"),
                              ("AN", "Transcriber")):
                if prop in root:
                    v = root[prop][0]
                    meta.append((key, v.replace("-", ".") if prop == "DT" else v))
            for v in root.get("HT", []):
                k, sep, val = v.partition(":")
                if sep and k.strip():
                    meta.append((k.strip(), val))
                else:
                    problems.append(Problem(number, 0, f"HT[{v}]", "a header tag must be key:value", root_line))
        ru = ":".join(root.get("RU", []))
        crawford_rule = crawford_rule or "crawford" in ru.lower()
        jacoby = jacoby or "jacoby" in ru.lower()
        games.append((number, score, [], ))
        acts: list[Action] = games[-1][2]
        cv = root.get("CV", ["1"])[0].strip()
        auto = 0
        if cv.isascii() and cv.isdigit() and int(cv) > 1 and int(cv) & (int(cv) - 1) == 0:
            auto = int(cv).bit_length() - 1
        elif cv != "1":
            problems.append(Problem(number, 0, f"CV[{cv}]", "the cube value must be a power of two", root_line))
        autodoubles = max(autodoubles, auto)
        rules = RuleSettings(crawford=crawford_rule, jacoby=jacoby, automatic_doubles=autodoubles)
        r = GameReplayer(number, length, rules, crawford_flags(length, [s for _, s, _ in games], crawford_rule)[-1])
        replayers.append(r)

        numbers = MoveNumbers()

        def feed(a: Action, acts: list[Action] = acts, r: GameReplayer = r, number: int = number,
                 numbers: MoveNumbers = numbers) -> None:
            acts.append(a)
            move = numbers.last(acts)
            lines.setdefault((number, move), line)
            r.feed(a, move, len(acts) - 1)

        for _ in range(auto):  # the opening ties that turned the cube
            feed(Reroll(0, "opening_tie"))
        ni = 1
        while ni < len(nodes):
            line, node = nodes[ni]
            ni += 1
            props = dict(node)
            t = _float(props.get("TS"))
            here = numbers.last(acts) if acts else 0
            if "DI" in props and "PL" in props and not _is_board(props):
                pl = props["PL"][0].upper()
                d = props["DI"][0]
                if not (pl in ("W", "B") and len(d) == 2 and d.isdigit() and "1" <= min(d) and max(d) <= "6"):
                    problems.append(Problem(number, here, f"PL[{pl}]DI[{d}]", "unreadable roll", line))
                    continue
                p, dice = (0 if pl == "W" else 1), (int(d[0]), int(d[1]))
                nxt = dict(nodes[ni][1]) if ni < len(nodes) else {}
                if _is_board(nxt):
                    # the roll of an accepted illegal play, then the position as it stood
                    played, board = _illegal_text(nxt), _board(nxt)
                    if played is None:  # a roll, then the director's set-up (read as the next node)
                        feed(Roll(p, dice, t=t))
                        continue
                    ni += 1
                    if board is None:
                        problems.append(Problem(number, here, "AE/AB/AW", "the position after an accepted "
                                                "illegal play must clear the board (AE[a:y]) and place 15 or "
                                                "fewer checkers a side on points a..y; the roll is kept",
                                                nodes[ni - 1][0]))
                        feed(Roll(p, dice, t=t))
                        continue
                    # the board that stood is the record; the play text names it (and gives it, mostly)
                    trial = GameReplayer(number, length, rules, False)
                    trial.pos0, trial.to_act, trial.moved = r.pos0, p, True
                    trial.feed(IllegalAccepted(p, dice, played), 0)
                    stood = "" if not r.broken and not trial.broken and trial.pos0 == board else (
                        board.swap() if p == 0 else board).position_id()
                    feed(IllegalAccepted(p, dice, played, stood, t=t))
                    continue
                feed(Roll(p, dice, t=t))
                continue
            if _is_board(props) or _is_cube_only(props):
                # the director's set-up (gnubg: an edited position); a cube alone: set where the game stands
                if _is_board(props):
                    board, cube, owner = _board(props), 1, None
                    if board is None:
                        problems.append(Problem(number, here, "AE/AB/AW", "a set-board node must clear the board "
                                                "(AE[a:y]) and place 15 or fewer checkers a side on points a..y; "
                                                "skipped", line))
                        continue
                    pl = props.get("PL", [""])[0].strip().upper()
                    on_roll = 0 if pl == "W" else 1 if pl == "B" else (r.to_act if r.to_act is not None else 0)
                else:
                    if r.broken or r.to_act is None:
                        problems.append(Problem(number, here, "CV/CP", "a cube setting with no position to set "
                                                "it in (before the opening roll, or after an unreadable play); "
                                                "skipped", line))
                        continue
                    board, cube, owner, on_roll = r.pos0, r.cube, r.owner, r.to_act
                cube, owner, bad = _setup_cube(props, cube, owner)
                while ni < len(nodes) and _is_cube_only(dict(nodes[ni][1])):  # gnubg: ;CV[4] ;CP[b]
                    cube, owner, more = _setup_cube(dict(nodes[ni][1]), cube, owner)
                    bad = bad or more
                    ni += 1
                if bad:
                    problems.append(Problem(number, here, bad, "the cube of a set-up must be CV[1, 2, 4 ...] "
                                            "owned CP[w], CP[b] or CP[c] (centred); read as far as it goes",
                                            line))
                seen = board if on_roll == 0 else board.swap()  # the ID is seen by the player on roll
                feed(SetUp(on_roll, seen.position_id(), cube, None if cube == 1 else owner, t=t))
                continue
            for side in ("W", "B"):
                if side not in props:
                    continue
                p = 0 if side == "W" else 1
                v = props[side][0].strip()
                low = v.lower()
                if low == "double":
                    feed(Double(p, r.cube * 2, t=t))
                elif low == "take":
                    feed(Take(p, t=t))
                elif low in ("drop", "pass"):
                    feed(Pass(p, t=t))
                elif low == "beaver":
                    feed(Beaver(p, (r.pending[1] * 2) if r.pending else r.cube * 4, t=t))
                elif re.fullmatch(r"[1-6]{2}(?:[a-y][a-z])*", low):
                    pairs = [(_point(p, low[j]), _point(p, low[j + 1])) for j in range(2, len(low), 2)]
                    text_play = " ".join(f"{s}/{d}" for s, d in pairs)
                    feed(Move(p, (int(low[0]), int(low[1])), text_play, t=t))
                elif low in ("resign", ""):
                    continue
                else:
                    problems.append(Problem(number, here, v, "unreadable move node (expected dice and letter "
                                            "pairs, double, take or drop)", line))
        re_ = root.get("RE", [""])[0].strip()
        m = re.fullmatch(r"([WB])\+(\d+)(R?)", re_)
        if m:
            w = 0 if m.group(1) == "W" else 1
            end, note = r.end_actions(w, int(m.group(2)), bool(m.group(3)))
            if note:
                notes.append(Problem(number, 0, f"RE[{re_}]", note, root_line))
            for a in end:
                feed(a)
        elif re_:
            problems.append(Problem(number, 0, f"RE[{re_}]", "unreadable result (expected e.g. W+2 or B+1R)",
                                    root_line))
    if not games and not problems:
        what = "an empty file" if not text.strip() else "no backgammon game found"
        problems.append(Problem(0, 0, "", f"{what}: expected SGF game trees '(;FF[4]GM[6]...)'", 1))
    rules = RuleSettings(crawford=crawford_rule, jacoby=jacoby, automatic_doubles=autodoubles)
    flags = crawford_flags(length, [s for _, s, _ in games], rules.crawford)
    record = MatchRecord(players, length, rules,
                         tuple(GameRecord(n, s, f, tuple(a)) for (n, s, a), f in zip(games, flags)), tuple(meta))
    known = tuple(None if r.out.problems else r.known(g.actions) for r, g in zip(replayers, record.games))
    return SgfRead(record, problems, notes, lines, known)


def load_sgf(path: Union[str, Path]) -> SgfRead:
    """Read the SGF file at ``path`` forgivingly: the record and the problems met."""
    return read_sgf(Path(path).read_bytes())
