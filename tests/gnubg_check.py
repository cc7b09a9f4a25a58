"""Load files into GNU Backgammon and compare what it reaches with the table's positions.

:func:`run_gnubg` loads many files in one ``gnubg -t -q`` process (``import mat`` /
``load match``) and returns, per file, gnubg's own view of the match
(``gnubg.match(boards=1)``) and the program's output (a warning is a failure).
:func:`expected` lists, for one game of a bgtable record, what gnubg should hold for it
in each format -- moves with the position before and after, the rolls not played, the
set-up positions and the cube actions -- from replaying the record; :func:`seen` lists
the same from gnubg's answer, so a test compares the two lists.  Used by
tests/referee/records/test_records_trust.py and bench/records_gnubg.py.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Sequence

from referee.records.matfile import writable_actions
from referee.rules.position import Position
from referee.records.actions import Double, IllegalAccepted, Move, Pass, Roll, Take
from referee.records.problems import layout
from referee.records.record import GameRecord, MatchRecord
from referee.records.replay import GameReplayer

SCRIPT = r'''
import gnubg, json
jobs = json.load(open(JOBS))
out = {}
for key, cmd, path in jobs:
    gnubg.command('%s "%s"' % (cmd, path))
    out[key] = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
json.dump(out, open(RESULT, "w"))
'''


def gnubg_exe() -> str:
    exe = shutil.which("gnubg") or "/usr/games/gnubg"
    assert Path(exe).exists(), "GNU Backgammon (Debian package gnubg) must be installed"
    return exe


def run_gnubg(tmp: Path, jobs: Sequence[tuple[str, str, Path]], timeout: float = 600) -> tuple[dict[str, Any], str]:
    """Load each ``(key, "import mat" | "load match", path)``; gnubg's matches by key, and its output."""
    (tmp / "jobs.json").write_text(json.dumps([[k, c, str(p)] for k, c, p in jobs]))
    script = tmp / "gnubg_script.py"
    script.write_text(f"JOBS = {str(tmp / 'jobs.json')!r}\nRESULT = {str(tmp / 'result.json')!r}\n" + SCRIPT)
    proc = subprocess.run([gnubg_exe(), "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL)
    output = proc.stdout + proc.stderr
    assert (tmp / "result.json").exists(), output[-3000:]
    return json.loads((tmp / "result.json").read_text()), output


def _who(player: int) -> str:
    return "X" if player == 0 else "O"  # gnubg.match() names player 0 X


def _after(before: Position, pairs: Sequence[Sequence[int]]) -> Position:
    """The mover's position after gnubg's (from, to) pairs (mover still on roll)."""
    me, opp = list(before.me), list(before.opp)
    for s, d in pairs:
        me[24 if s == 25 else s - 1] -= 1
        if d > 0:
            me[d - 1] += 1
            if opp[24 - d] == 1:
                opp[24 - d] = 0
                opp[24] += 1
    return Position(me, opp)


def expected(record: MatchRecord, g: GameRecord, fmt: str) -> list[tuple]:
    """What gnubg should hold for game ``g`` written as ``fmt`` ("mat" or "sgf")."""
    acts = writable_actions(g) if fmt == "mat" else g.actions
    r = GameReplayer(g.number, record.match_length, record.rules, g.crawford)
    out: list[tuple] = []
    for i, (a, (line, _c)) in enumerate(zip(acts, layout(acts))):
        before = r.mover_position(a.player)
        r.feed(a, line, i)
        if isinstance(a, Move):
            after = r.mover_position(a.player)
            out.append(("move", _who(a.player), tuple(sorted(a.dice)), before.position_id(), after.position_id()))
        elif isinstance(a, IllegalAccepted):
            out.append(("dice", _who(a.player), tuple(sorted(a.dice))))
            out.append(("board", r.mover_position(1 - a.player).position_id()))
        elif isinstance(a, Roll):
            nxt = next((b for b in acts[i + 1:] if b.TYPE not in ("reroll", "correction")), None)
            if not (isinstance(nxt, (Move, IllegalAccepted)) and nxt.player == a.player):
                out.append(("dice", _who(a.player), tuple(sorted(a.dice))))
        elif isinstance(a, (Double, Take, Pass)):
            out.append(({"double": "double", "take": "take", "pass": "drop"}[a.TYPE], _who(a.player)))
    if fmt == "mat":  # gnubg's .mat import keeps a roll before a resignation only sometimes
        out = [x for x in out if x[0] != "dice"]
    return out


def seen(game: dict[str, Any], fmt: str) -> list[tuple]:
    """What gnubg holds for one game (``gnubg.match()["games"][i]``), as :func:`expected` lists it."""
    out: list[tuple] = []
    for t in game["game"]:
        kind = t["action"]
        if kind == "move":
            before = Position.from_position_id(t["board"])
            out.append(("move", t["player"], tuple(sorted(t["dice"])), t["board"],
                        _after(before, t["move"]).position_id()))
        elif kind == "set" and "dice" in t:
            out.append(("dice", t["player"], tuple(sorted(t["dice"]))))
        elif kind == "set" and "board" in t:
            out.append(("board", t["board"]))
        elif kind in ("double", "take", "drop"):
            out.append((kind, t["player"]))
    if fmt == "mat":
        out = [x for x in out if x[0] != "dice"]
    return out


def compare(record: MatchRecord, match: dict[str, Any], fmt: str) -> list[str]:
    """Every difference between what gnubg holds and the record's table positions (empty = none)."""
    diffs: list[str] = []
    games = match["games"]
    if len(games) != len(record.games):
        return [f"{len(games)} games in gnubg, {len(record.games)} in the record"]
    for g, gg in zip(record.games, games):
        want, got = expected(record, g, fmt), seen(gg, fmt)
        for k, (w, s) in enumerate(zip(want, got)):
            if w != s:
                diffs.append(f"game {g.number}, gnubg action {k}: expected {w}, gnubg has {s}")
                break
        if len(want) != len(got):
            diffs.append(f"game {g.number}: {len(want)} actions expected, gnubg has {len(got)}")
        res, info = g.result, gg["info"]
        if res is not None and info.get("winner") != _who(res.winner):
            diffs.append(f"game {g.number}: winner {_who(res.winner)} expected, gnubg has {info.get('winner')}")
        if res is not None and fmt == "sgf" and info.get("points-won") != res.points:
            diffs.append(f"game {g.number}: {res.points} points expected, gnubg has {info.get('points-won')}")
    return diffs
