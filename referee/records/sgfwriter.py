"""GNU Backgammon's SGF writer (``GM[6]``): a match record as gnubg saves a match.

The format, and what each node holds, is described in :mod:`referee.records.sgf` (the
reader, which also re-exports :func:`write_sgf` and :func:`save_sgf`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Union

from referee.rules.notation import BAR_POINT, OFF_POINT
from referee.records.actions import (NOT_PLAYS, Action, Beaver, Double, IllegalAccepted, Move, Pass, Penalty, Roll,
                                     ScoreCorrection, Take)
from referee.records.problems import layout
from referee.records.record import GameRecord, MatchRecord
from referee.records.matwriter import gnubg_steps
from referee.records.mattags import ordered_meta
from referee.rules.position import Position
from referee.records.replay import GameReplayer
from referee.records.sgf import APP, ILLEGAL_NOTE

def _letter(player: int, point: int) -> str:
    if point == BAR_POINT:
        return "y"
    if point == OFF_POINT:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("a") + 24 - point)


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")



#: record meta keys written as standard SGF root properties (the rest go to ``HT``)
_STANDARD = (("Event", "EV"), ("Round", "RO"), ("Site", "PC"), ("Transcriber", "AN"))
SCORE_NOTE = "the director corrected the score to "


def _time(a: Action) -> str:
    return "" if a.t is None else f"TS[{a.t:.3f}]".replace(".000]", "]")


def _board_node(pos0: Position, to_move: int) -> str:
    """A set-board node (gnubg's ``AE[a:y]AW..AB..``) for ``pos0`` (player 0 on roll), after
    a roll of ``1 - to_move``'s, with ``to_move`` to play next."""
    aw = "".join(f"[{_letter(0, BAR_POINT if i == 24 else i + 1)}]" * n for i, n in enumerate(pos0.me))
    ab = "".join(f"[{_letter(1, BAR_POINT if i == 24 else i + 1)}]" * n for i, n in enumerate(pos0.opp))
    board = "AE[a:y]" + (f"AW{aw}" if aw else "") + (f"AB{ab}" if ab else "")
    # gnubg puts AW on the side on roll while it reads the node and turns the board over on
    # PL: so W must be on roll when AW is read -- PL[W] first, or (W just rolled) PL[B] last
    return f"PL[W]{board}" if to_move == 0 else f"{board}PL[B]"


def _root(record: MatchRecord, g: GameRecord, first: bool, auto_cube: int) -> str:
    root = [f"FF[4]GM[6]CA[UTF-8]AP[{APP}]",
            f"MI[length:{record.match_length}][game:{g.number - 1}][ws:{g.score_before[0]}][bs:{g.score_before[1]}]",
            f"PW[{_esc(record.players[0])}]PB[{_esc(record.players[1])}]"]
    if first:
        date = record.meta_value("EventDate")
        if date:
            root.append(f"DT[{_esc(date.replace('.', '-'))}]")
        for key, prop in _STANDARD:
            v = record.meta_value(key)
            if v:
                root.append(f"{prop}[{_esc(v)}]")
        std = {k.lower() for k, _ in _STANDARD} | {"eventdate"}
        extra = [(k, v) for k, v in ordered_meta(record.meta) if k.lower() not in std or not v]
        if extra:
            root.append("HT" + "".join(f"[{_esc(k)}:{_esc(v)}]" for k, v in extra))
    rules = []
    if record.match_length and record.rules.crawford:
        rules.append("Crawford:CrawfordGame" if g.crawford else "Crawford")
    if not record.match_length and record.rules.jacoby:
        rules.append("Jacoby")
    if rules:
        root.append("RU[" + ":".join(rules) + "]")
    if auto_cube > 1:
        root.append(f"CV[{auto_cube}]")
    res = g.result
    if res is not None:
        root.append(f"RE[{'WB'[res.winner]}+{res.points}{'R' if res.reason == 'resign' else ''}]")
        if res.reason == "timeout":  # the table's clock (referee.turn.timeout): SGF's game comment
            root.append(f"GC[{_esc(record.players[1 - res.winner])} ran out of time and loses]")
    return "".join(root)


def _game_nodes(record: MatchRecord, g: GameRecord) -> tuple[list[str], int]:
    """The move nodes of one game and the cube value its automatic doubles left."""
    sides = "WB"
    r = GameReplayer(g.number, record.match_length, record.rules, g.crawford)
    nodes: list[str] = []
    acts = g.actions
    for i, (a, (line, _col)) in enumerate(zip(acts, layout(acts))):
        side = sides[a.player]
        if isinstance(a, Move):
            before = r.mover_position(a.player)
            r.feed(a, line, i)
            play = r.out.resolved.get(i)
            if play is not None:
                pts = [(s, d) for s, d, _h in gnubg_steps(before, play)]
            else:
                pts = _written_steps(a.play)
            body = "".join(_letter(a.player, s) + _letter(a.player, d) for s, d in pts)
            nodes.append(f";{side}[{a.dice[0]}{a.dice[1]}{body}]{_time(a)}")
            continue
        r.feed(a, line, i)
        if isinstance(a, IllegalAccepted):
            # gnubg cannot hold an illegal play: the roll, then the position as it stood
            nodes.append(f";PL[{side}]DI[{a.dice[0]}{a.dice[1]}]{_time(a)}")
            if not r.broken:
                note = f"{record.players[a.player]} {a.dice[0]}{a.dice[1]}, {ILLEGAL_NOTE}{a.play}"
                nodes.append(f";{_board_node(r.pos0, 1 - a.player)}C[{_esc(note)}]{_time(a)}")
        elif isinstance(a, Roll):
            nxt = next((b for b in acts[i + 1:] if b.TYPE not in NOT_PLAYS), None)
            if not (isinstance(nxt, (Move, IllegalAccepted)) and nxt.player == a.player):
                nodes.append(f";PL[{side}]DI[{a.dice[0]}{a.dice[1]}]{_time(a)}")
        elif a.TYPE == "setup":  # the director's set-up: a set-board node, the player on roll to play
            cube, owner = getattr(a, "cube"), getattr(a, "owner")
            cv = f"CV[{cube}]CP[{'c' if owner is None else 'wb'[owner]}]" if cube > 1 else ""
            nodes.append(f";{_board_node(r.pos0, a.player)}{cv}C[set up by the director]{_time(a)}")
        elif isinstance(a, Penalty):  # a score note: a comment node (gnubg shows it, the board stands)
            note = f"{record.players[a.player]} ran out of time: {a.points} penalty point" \
                   f"{'s' if a.points != 1 else ''} to {record.players[a.gainer]}"
            nodes.append(f";C[{_esc(note)}]{_time(a)}")
        elif isinstance(a, ScoreCorrection):
            nodes.append(f";C[{_esc(f'{SCORE_NOTE}{a.score[0]}-{a.score[1]}')}]{_time(a)}")
        elif isinstance(a, Double):
            nodes.append(f";{side}[double]{_time(a)}")
        elif isinstance(a, Beaver):
            nodes.append(f";{side}[beaver]{_time(a)}")
        elif isinstance(a, Take):
            nodes.append(f";{side}[take]{_time(a)}")
        elif isinstance(a, Pass):
            nodes.append(f";{side}[drop]{_time(a)}")
    return nodes, 1 << r.autodoubles


def write_sgf(record: MatchRecord) -> str:
    """The record as gnubg saves a match (``save match``), without analysis.

    Steps are in gnubg's canonical order (sources, then destinations, high to low);
    an accepted illegal play is its roll then a set-board node with the position as it
    stood; automatic doubles are the root's ``CV``; every node carries its time (``TS``)."""
    out = []
    for gi, g in enumerate(record.games):
        nodes, auto_cube = _game_nodes(record, g)
        out.append("\n".join(["(;" + _root(record, g, gi == 0, auto_cube)] + nodes) + ")\n")
    return "".join(out)


def _written_steps(text: str) -> list[tuple[int, int]]:
    from referee.rules.notation import parse_play
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
    """Write ``record`` to ``path`` as gnubg SGF, as gnubg saves a match."""
    Path(path).write_text(write_sgf(record), encoding="utf-8")
