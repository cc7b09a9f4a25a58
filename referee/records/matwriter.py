""".mat writer: a match record as GNU Backgammon 1.07 exports it (``export match mat``).

One checker step per die, bar as 25 and off as 0, ``*`` after hits, 28-column cells, plus
every header tag the record holds; what the format cannot hold (re-rolls, corrections,
times, accepted illegal plays) is described in :mod:`referee.records.matfile`, the reader,
which also re-exports :func:`write_mat` and :func:`save_mat`.  The score's notes (a time-out's
penalty, the director's score correction: ``actions.SCORE_NOTES``) are written as nothing: the
format has no comment gnubg reads, and the next game's score line shows them.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional, Union

from referee.records.actions import NOT_PLAYS, Action, Beaver, Double, IllegalAccepted, Move, Pass, Roll, Take
from referee.records.problems import layout
from referee.records.record import GameRecord, MatchRecord
from referee.rules.moves import legal_plays
from referee.rules.notation import Play
from referee.rules.position import Position
from referee.records.replay import GameReplayer, replay_game
from referee.records.mattags import header_lines, rule_tags




def _cell_move(dice: tuple[int, int], steps: list[tuple[int, int, bool]]) -> str:
    body = " ".join(f"{s}/{d}{'*' if h else ''}" for s, d, h in steps)
    return f"{dice[0]}{dice[1]}: " + body + (" " if 0 < len(steps) < 4 else "")


def gnubg_steps(position: Position, play: Play) -> list[tuple[int, int, bool]]:
    """A play's single-die steps in gnubg's export order (sources high to low), with
    hits recomputed in that order.  ``position`` has the mover on roll."""
    order = sorted(((st.src, st.dst) for st in play.steps), key=lambda t: (-t[0], -t[1]))
    opp = list(position.opp)
    out = []
    for s, d in order:
        hit = False
        if d != 0:
            o = 24 - d
            if opp[o] == 1:
                opp[o] = 0
                hit = True
        out.append((s, d, hit))
    return out


def _pad_left(cell: str) -> str:
    """A left cell: 28 columns, and at least one space before the right cell."""
    return cell.ljust(28) if len(cell) < 28 else cell + " "








def write_mat(record: MatchRecord) -> str:
    """The record as GNU Backgammon 1.07 exports a match (``export match mat``), with every
    header tag of the record (gnubg itself keeps only :data:`GNUBG_TAGS`)."""
    out = header_lines(list(record.meta) + rule_tags(record.rules, record.meta))
    out.append(f" {record.match_length} point match")
    out.append("")
    for g in record.games:
        out.extend(_write_game(record, g))
        out.append("")
    return "\n".join(out) + "\n"


def writable_actions(g: GameRecord) -> tuple[Action, ...]:
    """The actions a .mat file can hold: up to an accepted illegal play, which becomes
    its roll (gnubg refuses an illegal play as garbage, and the format cannot set up the
    position that really stood), then the game's result.  A roll never played (the game
    ended after it) whose play is forced is left out: gnubg's import plays a forced roll
    by itself, reaching a position that never stood.  (The roll pending in an unfinished
    game is kept.)"""
    acts = list(g.actions)
    for i, a in enumerate(acts):
        if a.TYPE == "setup":  # the director's set-up: .mat cannot hold it; the game stops there
            acts = acts[:i] + ([g.result] if g.result is not None else [])
            break
        if isinstance(a, IllegalAccepted):
            rest: list[Action] = [g.result] if g.result is not None else []
            before = [b for b in acts[:i] if b.TYPE not in NOT_PLAYS]
            rolled = bool(before) and isinstance(before[-1], Roll) and before[-1].player == a.player
            acts = acts[:i] + ([] if rolled else [Roll(a.player, a.dice, t=a.t)]) + rest
            break
    r = GameReplayer(g.number)
    out: list[Action] = []
    for i, (a, (line, _c)) in enumerate(zip(acts, layout(acts))):
        if isinstance(a, Roll):
            nxt = next((b for b in acts[i + 1:] if b.TYPE not in NOT_PLAYS), None)
            played = isinstance(nxt, (Move, IllegalAccepted)) and nxt.player == a.player
            if (not played and g.finished and not r.broken
                    and len(legal_plays(r.mover_position(a.player), *a.dice)) == 1):
                continue  # never played (the game ended): gnubg's import would play it
        r.feed(a, line, i)
        out.append(a)
    return tuple(out)


def _write_game(record: MatchRecord, g: GameRecord) -> list[str]:
    g = g.with_actions(writable_actions(g))
    rep = replay_game(g, record.match_length, record.rules)
    lines = [f" Game {g.number}",
             " " + f"{record.players[0]} : {g.score_before[0]}".ljust(31)
             + f"{record.players[1]} : {g.score_before[1]}"]
    # replay again to know each mover's position for hit marks
    r = GameReplayer(g.number, record.match_length, record.rules, g.crawford)
    cells: dict[int, list[str]] = {}
    acts = g.actions
    lay = layout(acts)
    last_line, last_col = 0, 1
    for i, (a, (line, col)) in enumerate(zip(acts, lay)):
        text: Optional[str] = None
        if isinstance(a, (Move, IllegalAccepted)):
            play = rep.resolved.get(i)
            if play is not None:
                text = _cell_move(a.dice, gnubg_steps(r.mover_position(a.player), play))
            else:
                text = f"{a.dice[0]}{a.dice[1]}: {a.play.strip()} ".rstrip() + " "
        elif isinstance(a, Roll):
            nxt = next((b for b in acts[i + 1:] if b.TYPE not in NOT_PLAYS), None)
            if not (isinstance(nxt, (Move, IllegalAccepted)) and nxt.player == a.player):
                text = f"{a.dice[0]}{a.dice[1]}: "
        elif isinstance(a, Double):
            text = f" Doubles => {a.value}"
        elif isinstance(a, Beaver):
            text = f" Beavers => {a.value}"
        elif isinstance(a, Take):
            text = " Takes"
        elif isinstance(a, Pass):
            text = " Drops"
        r.feed(a, line, i)
        if text is not None and col >= 0:
            row = cells.setdefault(line, ["", ""])
            row[col] = text
            last_line, last_col = line, col
    kinds: dict[int, list[str]] = {}
    for i, (a, (line, col)) in enumerate(zip(acts, lay)):
        if col >= 0 and line in cells:
            kinds.setdefault(line, ["", ""])[col] = a.TYPE
    for line in sorted(cells):
        left, right = cells[line]
        lines.append(f"{line:3d}) " + _pad_left(left) + right)
    res = g.result
    if res is not None:
        plural = "s" if res.points != 1 else ""
        if res.winner == 1 and last_col == 0 and lines[-1].startswith(f"{last_line:3d}) "):
            left_kind = kinds.get(last_line, ["", ""])[0]
            if left_kind == "roll":  # rolled, then resigned: gnubg writes no separating space
                lines[-1] = lines[-1][:33].ljust(33) + f"Wins {res.points} point{plural}"
            else:  # after "Drops" gnubg ends the line with a space
                tail = " " if left_kind == "pass" else ""
                lines[-1] = lines[-1][:33].ljust(33) + f" Wins {res.points} point{plural}{tail}"
        elif res.winner == 1:
            lines.append(" " * 33 + f" Wins {res.points} point{plural}")
        else:
            lines.append(" " * 5 + f" Wins {res.points} point{plural}")
    return lines


def save_mat(record: MatchRecord, path: Union[str, Path]) -> None:
    """Write ``record`` to ``path`` as a Jellyfish .mat file, as gnubg exports one."""
    Path(path).write_text(write_mat(record), encoding="utf-8")
