"""GNU Backgammon's SGF (``GM[6]``): a writer and a forgiving reader (FORMATS.md section 5).

One game tree per game.  The root node holds ``MI[length:L][game:g][ws:a][bs:b]``,
``PW``/``PB``, ``RU[Crawford]`` (``Crawford:CrawfordGame`` in the Crawford game),
``RE[W+2]`` (suffix ``R`` = resignation) and, in the first game, ``DT``/``EV``/``RO``/``PC``.
Move nodes are ``;W[<dice><from><to>...]`` with one letter pair per checker step
in absolute coordinates (``a``..``x`` = W's points 1..24 = B's 24..1, ``y`` bar,
``z`` off); cube nodes ``;B[double]``, ``;W[take]``, ``;W[drop]``; a roll that was
not played (then a resignation) is the setup node ``;PL[W]DI[51]``.  W is player 0.
Analysis properties (``A``, ``GS``, ``C``...) are skipped when reading.  Like .mat,
SGF has no place for re-rolls, corrections or accepted illegal plays (written as played).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

from .notation import BAR_POINT, OFF_POINT
from .record import (Action, Beaver, Double, GameRecord, IllegalAccepted, MatchRecord, Move, Pass, Problem, Roll,
                     RuleSettings, Take, crawford_flags, layout)
from .replay import GameReplayer, replay_game

APP = "bgtable:0.1"


def _letter(player: int, point: int) -> str:
    if point == BAR_POINT:
        return "y"
    if point == OFF_POINT:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("a") + 24 - point)


def _point(player: int, ch: str) -> int:
    if ch == "y":
        return BAR_POINT
    if ch == "z":
        return OFF_POINT
    i = ord(ch) - ord("a")
    return i + 1 if player == 0 else 24 - i


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


# ---------------------------------------------------------------------------- writer


def write_sgf(record: MatchRecord) -> str:
    """The record as gnubg saves a match (``save match``), without analysis."""
    out = []
    sides = "WB"
    for gi, g in enumerate(record.games):
        rep = replay_game(g, record.match_length, record.rules)
        root = [f"FF[4]GM[6]CA[UTF-8]AP[{APP}]",
                f"MI[length:{record.match_length}][game:{g.number - 1}][ws:{g.score_before[0]}][bs:{g.score_before[1]}]",
                f"PW[{_esc(record.players[0])}]PB[{_esc(record.players[1])}]"]
        if gi == 0:
            date = record.meta_value("EventDate")
            if date:
                root.append(f"DT[{_esc(date.replace('.', '-'))}]")
            for key, prop in (("Event", "EV"), ("Round", "RO"), ("Site", "PC")):
                v = record.meta_value(key)
                if v:
                    root.append(f"{prop}[{_esc(v)}]")
        rules = []
        if record.match_length and record.rules.crawford:
            rules.append("Crawford:CrawfordGame" if g.crawford else "Crawford")
        if not record.match_length and record.rules.jacoby:
            rules.append("Jacoby")
        if rules:
            root.append("RU[" + ":".join(rules) + "]")
        res = g.result
        if res is not None:
            root.append(f"RE[{sides[res.winner]}+{res.points}{'R' if res.reason == 'resign' else ''}]")
        nodes = ["(;" + "".join(root)]
        acts = g.actions
        for i, a in enumerate(acts):
            side = sides[a.player]
            if isinstance(a, (Move, IllegalAccepted)):
                play = rep.resolved.get(i)
                if play is not None:
                    pts = [(st.src, st.dst) for st in play.steps]
                else:
                    pts = _written_steps(a.play)
                body = "".join(_letter(a.player, s) + _letter(a.player, d) for s, d in pts)
                nodes.append(f";{side}[{a.dice[0]}{a.dice[1]}{body}]")
            elif isinstance(a, Roll):
                nxt = next((b for b in acts[i + 1:] if b.TYPE not in ("reroll", "correction")), None)
                if not (isinstance(nxt, (Move, IllegalAccepted)) and nxt.player == a.player):
                    nodes.append(f";PL[{side}]DI[{a.dice[0]}{a.dice[1]}]")
            elif isinstance(a, Double):
                nodes.append(f";{side}[double]")
            elif isinstance(a, Beaver):
                nodes.append(f";{side}[beaver]")
            elif isinstance(a, Take):
                nodes.append(f";{side}[take]")
            elif isinstance(a, Pass):
                nodes.append(f";{side}[drop]")
        out.append("\n".join(nodes) + ")\n")
    return "".join(out)


def _written_steps(text: str) -> list[tuple[int, int]]:
    from .notation import parse_play
    try:
        w = parse_play(text)
    except ValueError:
        return []
    out: list[tuple[int, int]] = []
    for mv in w.moves:
        for _ in range(mv.count):
            out.extend(zip(mv.points, mv.points[1:]))
    return out


def save_sgf(record: MatchRecord, path: Union[str, Path]) -> None:
    Path(path).write_text(write_sgf(record), encoding="utf-8")


# ---------------------------------------------------------------------------- reader

_PROP = re.compile(r"([A-Za-z]+)((?:\s*\[(?:\\.|[^\]\\])*\])+)", re.S)
_VAL = re.compile(r"\[((?:\\.|[^\]\\])*)\]", re.S)


@dataclass
class SgfRead:
    """A record read from an SGF file, and the problems met reading it."""

    record: MatchRecord
    problems: list[Problem] = field(default_factory=list)
    notes: list[Problem] = field(default_factory=list)


def _unesc(v: str) -> str:
    return re.sub(r"\\(.)", r"\1", v, flags=re.S)


def _trees(text: str) -> list[list[list[tuple[str, list[str]]]]]:
    """Split SGF text into game trees, each a list of nodes (lists of (prop, values)).
    Only the main line is kept (variations are skipped)."""
    trees: list[list[list[tuple[str, list[str]]]]] = []
    i, n = 0, len(text)
    depth = 0
    cur: Optional[list[list[tuple[str, list[str]]]]] = None
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
            i += 1
            node: list[tuple[str, list[str]]] = []
            while True:
                m = _PROP.match(text, i)
                if not m:
                    ws = re.match(r"\s*", text[i:])
                    if ws and ws.end() and i + ws.end() < n and text[i + ws.end()].isalpha():
                        i += ws.end()
                        continue
                    break
                node.append((m.group(1), [_unesc(v) for v in _VAL.findall(m.group(2))]))
                i = m.end()
                ws = re.match(r"\s*", text[i:])
                i += ws.end() if ws else 0
            if cur is not None and depth == 1:
                cur.append(node)
        elif c == "[":  # stray value: skip it
            m = _VAL.match(text, i)
            i = m.end() if m else i + 1
        else:
            i += 1
    return trees


def read_sgf(text: Union[str, bytes]) -> SgfRead:
    """Read gnubg SGF forgivingly: the record and the problems met."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    problems: list[Problem] = []
    notes: list[Problem] = []
    games: list[tuple[int, tuple[int, int], list[Action]]] = []
    players = ("Player 1", "Player 2")
    length = 0
    meta: list[tuple[str, str]] = []
    crawford_rule = False
    jacoby = False
    for ti, nodes in enumerate(_trees(text)):
        if not nodes:
            continue
        root = dict((k, v) for k, v in nodes[0])
        number = ti + 1
        if root.get("GM", ["6"])[0] != "6":
            problems.append(Problem(number, 0, f"GM[{root['GM'][0]}]", "not a backgammon game (GM[6])"))
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
            problems.append(Problem(number, 0, str(root.get("MI")), "MI values must be numbers"))
            score = (0, 0)
        if "PW" in root and "PB" in root:
            players = (root["PW"][0], root["PB"][0])
        if ti == 0:
            for prop, key in (("PC", "Site"), ("EV", "Event"), ("RO", "Round"), ("DT", "EventDate")):
                if prop in root:
                    v = root[prop][0]
                    meta.append((key, v.replace("-", ".") if prop == "DT" else v))
        ru = ":".join(root.get("RU", []))
        crawford_rule = crawford_rule or "crawford" in ru.lower()
        jacoby = jacoby or "jacoby" in ru.lower()
        games.append((number, score, [], ))
        rules = RuleSettings(crawford=crawford_rule, jacoby=jacoby)
        r = GameReplayer(number, length, rules)
        acts: list[Action] = games[-1][2]

        def feed(a: Action, acts: list[Action] = acts, r: GameReplayer = r) -> None:
            acts.append(a)
            r.feed(a, layout(acts)[-1][0], len(acts) - 1)

        for node in nodes[1:]:
            props = dict(node)
            if "AE" in props or "AB" in props or "AW" in props:
                problems.append(Problem(number, 0, "AE/AB/AW", "position set-up nodes are not supported; skipped"))
                continue
            if "DI" in props and "PL" in props:
                pl = props["PL"][0].upper()
                d = props["DI"][0]
                if pl in ("W", "B") and len(d) == 2 and d.isdigit():
                    feed(Roll(0 if pl == "W" else 1, (int(d[0]), int(d[1]))))
                continue
            for side in ("W", "B"):
                if side not in props:
                    continue
                p = 0 if side == "W" else 1
                v = props[side][0].strip()
                low = v.lower()
                if low == "double":
                    feed(Double(p, r.cube * 2))
                elif low == "take":
                    feed(Take(p))
                elif low in ("drop", "pass"):
                    feed(Pass(p))
                elif low == "beaver":
                    feed(Beaver(p, (r.pending[1] * 2) if r.pending else r.cube * 4))
                elif re.fullmatch(r"[1-6]{2}(?:[a-z]{2})*", low):
                    pairs = [(_point(p, low[k]), _point(p, low[k + 1])) for k in range(2, len(low), 2)]
                    text_play = " ".join(f"{s}/{d}" for s, d in pairs)
                    feed(Move(p, (int(low[0]), int(low[1])), text_play))
                elif low in ("resign", ""):
                    continue
                else:
                    problems.append(Problem(number, layout(acts)[-1][0] if acts else 0, v,
                                            "unreadable move node (expected dice and letter pairs, double, take "
                                            "or drop)"))
        re_ = root.get("RE", [""])[0].strip()
        m = re.fullmatch(r"([WB])\+(\d+)(R?)", re_)
        if m:
            w = 0 if m.group(1) == "W" else 1
            end, note = r.end_actions(w, int(m.group(2)), bool(m.group(3)))
            if note:
                notes.append(Problem(number, 0, f"RE[{re_}]", note))
            for a in end:
                feed(a)
        elif re_:
            problems.append(Problem(number, 0, f"RE[{re_}]", "unreadable result (expected e.g. W+2 or B+1R)"))
    rules = RuleSettings(crawford=crawford_rule, jacoby=jacoby)
    flags = crawford_flags(length, [s for _, s, _ in games], rules.crawford)
    record = MatchRecord(players, length, rules,
                         tuple(GameRecord(n, s, f, tuple(a)) for (n, s, a), f in zip(games, flags)), tuple(meta))
    return SgfRead(record, problems, notes)


def load_sgf(path: Union[str, Path]) -> SgfRead:
    return read_sgf(Path(path).read_bytes())
