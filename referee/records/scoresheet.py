"""A chouette session's scoresheet: who was box and captain each game, every member's cube
actions, and each player's points per game and running total (CSV and JSON).

The two-player match record of a chouette holds only the board plays and the result
against the captain (:mod:`referee.turn.chouette`); the per-member cubes and scores live in the
referee's decisions.  :func:`scoresheet` folds those decisions into a
:class:`Scoresheet`; :func:`scoresheet_from_journal` gets them by replaying a table
journal's input events through a fresh referee with the session's settings (the journal
keeps the inputs, and the referee is a pure function of them).

The CSV has one row per game (``game, box, captain, winner, cube actions``, then one
column per player with that game's points) and a last ``total`` row; the JSON form holds
the same games, each with its cube actions (member, action, value, time) and the running
totals.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Optional, Union

from referee.decisions import Decision
from referee.settings import Settings


@dataclass(frozen=True)
class CubeAction:
    """One chouette cube action: ``member``'s cube was doubled / taken / passed."""

    member: str
    action: str  # "double", "take" or "pass"
    by: str      # the player who acted (the box or the member)
    value: Optional[int] = None  # the cube value after a take
    t: float = 0.0

    def __str__(self) -> str:
        if self.action == "double":
            return f"{self.by} doubles {self.member}" if self.by != self.member else f"{self.member} doubles"
        what = "takes" if self.action == "take" else "passes"
        return f"{self.by} {what}" + (f" ({self.member}'s cube at {self.value})" if self.value else
                                      ("" if self.by == self.member else f" {self.member}'s double"))


@dataclass(frozen=True)
class GameLine:
    """One game of the session: the box, the captain and team at its start, the winning
    side, the cube actions, each player's points and the running totals after it."""

    game: int
    box: str
    captain: str
    team: tuple[str, ...]
    winner: str  # "box", "team" or "" (undecided)
    cube_actions: tuple[CubeAction, ...] = ()
    points: tuple[tuple[str, int], ...] = ()
    totals: tuple[tuple[str, int], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The game's line as a JSON-ready dict."""
        return {"game": self.game, "box": self.box, "captain": self.captain, "team": list(self.team),
                "winner": self.winner,
                "cube_actions": [{"member": c.member, "action": c.action, "by": c.by, "value": c.value, "t": c.t}
                                 for c in self.cube_actions],
                "points": dict(self.points), "totals": dict(self.totals)}


@dataclass(frozen=True)
class Scoresheet:
    """A chouette session's scoresheet (see the module docstring)."""

    players: tuple[str, ...]
    games: tuple[GameLine, ...] = ()

    def totals(self) -> dict[str, int]:
        """Each player's total after the last game (0 for everyone before the first)."""
        return dict(self.games[-1].totals) if self.games else {p: 0 for p in self.players}

    def to_dict(self) -> dict[str, Any]:
        """The scoresheet as a JSON-ready dict, with the totals."""
        return {"players": list(self.players), "games": [g.to_dict() for g in self.games], "totals": self.totals()}

    def to_json(self) -> str:
        """The scoresheet as indented JSON."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)

    def to_csv(self) -> str:
        """One row per game, one column of points per player, and a ``total`` row."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["game", "box", "captain", "winner", "cube actions", *self.players])
        for g in self.games:
            pts = dict(g.points)
            w.writerow([g.game, g.box, g.captain, g.winner, "; ".join(str(c) for c in g.cube_actions),
                        *(pts.get(p, 0) for p in self.players)])
        tot = self.totals()
        w.writerow(["total", "", "", "", "", *(tot.get(p, 0) for p in self.players)])
        return buf.getvalue()

    def save(self, path: Union[str, Path]) -> None:
        """Write the sheet as .csv or .json (by extension)."""
        p = Path(path)
        ext = p.suffix.lower()
        if ext not in (".csv", ".json"):
            raise ValueError(f"scoresheet {str(p)!r}: the extension must be .csv or .json, not {ext!r}")
        p.write_text(self.to_csv() if ext == ".csv" else self.to_json() + "\n", encoding="utf-8")


@dataclass
class _Game:
    box: str
    team: list[str]
    actions: list[CubeAction] = field(default_factory=list)


def scoresheet(decisions: Iterable[Decision], settings: Settings) -> Scoresheet:
    """The scoresheet the referee's decisions of a chouette session give."""
    if not settings.chouette:
        raise ValueError("a scoresheet is for a chouette session: settings.chouette names no players")
    players = tuple(settings.chouette)
    box_colour = settings.box_colour
    box, team = players[0], list(players[1:])
    totals = {p: 0 for p in players}
    cur = _Game(box, list(team))
    pending_box_double = False
    lines: list[GameLine] = []
    for d in decisions:
        member = d.get("member")
        if d.kind == "double":
            if d.player == box_colour:
                pending_box_double = True
                for m in d.get("members", ()) or ():
                    cur.actions.append(CubeAction(m, "double", cur.box, None, d.t))
            elif member:
                pending_box_double = False
                cur.actions.append(CubeAction(member, "double", member, None, d.t))
        elif d.kind == "chouette" and member:
            action = "take" if d.get("value") is not None else "pass"
            by = member if pending_box_double else cur.box
            cur.actions.append(CubeAction(member, action, by, d.get("value"), d.t))
        elif d.kind == "game_over":
            scores = dict(d.get("scores", ()) or ())
            points = {p: scores.get(p, totals[p]) - totals[p] for p in players}
            totals = {p: scores.get(p, totals[p]) for p in players}
            if d.player is not None:
                winner = "box" if d.player == box_colour else "team"
            elif cur.actions and cur.actions[-1].action == "pass":  # ended on the cube: who passed last lost
                winner = "team" if cur.actions[-1].by == cur.box else "box"
            else:
                winner = ""
            lines.append(GameLine(len(lines) + 1, cur.box, cur.team[0] if cur.team else "", tuple(cur.team),
                                  winner, tuple(cur.actions), tuple(points.items()), tuple(totals.items())))
            pending_box_double = False
            cur = _Game(cur.box, list(cur.team))
        elif d.kind == "chouette" and d.get("box") is not None:  # the rotation after a game
            cur = _Game(d.get("box"), list(d.get("team", ()) or ()))
    return Scoresheet(players, tuple(lines))


__all__ = ["CubeAction", "GameLine", "Scoresheet", "scoresheet"]
