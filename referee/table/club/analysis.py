"""Analysis after each match: GNU Backgammon (``gnubg -t``) on the match file.

:func:`analyse` imports a finished match's ``.mat`` into ``gnubg -t -q`` with a Python
command file, runs ``analyse match`` (0-ply by default: a few seconds on a Pi; ``plies=2`` for
a closer look) and returns an :class:`Analysis`: each player's error rate (gnubg's mEMG per
unforced decision, chequer play and cube together, and chequer play alone), the counts of
gnubg's marks, and the biggest errors (game, dice, the play made, gnubg's best, the equity
lost).  :meth:`Analysis.save` keeps it beside the match files (``STEM-analysis.json`` and
gnubg's own text export ``STEM-analysis.txt``); :func:`journal_line` is the journal event
that carries its summary to the club (the publisher sends it as an ``analysis`` event and
the page shows it).
"""
from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Optional, Union

from referee.errors import RefereeError

SCRIPT = r'''
import gnubg, json
gnubg.command("set analysis chequerplay evaluation plies %d" % PLIES)
gnubg.command("set analysis cubedecision evaluation plies %d" % PLIES)
gnubg.command('import mat "%s"' % MAT)
gnubg.command("analyse match")
m = gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)
json.dump(m, open(RESULT, "w"))
gnubg.command('export match text "%s"' % TEXT)
'''


class AnalysisError(RefereeError, RuntimeError):
    """GNU Backgammon is missing or could not analyse the match; the message says which."""


def gnubg_path() -> Optional[str]:
    """Where ``gnubg`` is (Debian puts it in /usr/games), or None."""
    return shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")


@dataclass(frozen=True)
class BigError:
    """One of a player's worst decisions: where, what was played, what gnubg prefers, the cost."""

    player: str
    game: int
    dice: tuple[int, ...]
    played: str
    best: str
    loss: float  # equity lost (gnubg's evaluation)


@dataclass(frozen=True)
class PlayerStats:
    """A player's error rates (mEMG per unforced decision; lower is better) and marks."""

    name: str
    error_rate: float
    chequer_error_rate: float
    unforced_moves: int
    marks: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Analysis:
    """GNU Backgammon's verdict on a match (see the module docstring)."""

    players: tuple[PlayerStats, PlayerStats]
    biggest: tuple[BigError, ...]
    plies: int
    text: str = ""  # gnubg's text export of the analysed match

    def to_dict(self) -> dict[str, Any]:
        """The analysis as a JSON-ready dict, without its full text."""
        d = asdict(self)
        d.pop("text")
        return d

    def summary(self) -> str:
        """One line a player reads on the screen."""
        return "; ".join(f"{p.name}: error rate {p.error_rate:.1f} mEMG" for p in self.players)

    def save(self, directory: Union[str, Path], stem: str = "match") -> list[Path]:
        """Keep it beside the match files: ``STEM-analysis.json`` and ``STEM-analysis.txt``."""
        d = Path(directory)
        j, t = d / f"{stem}-analysis.json", d / f"{stem}-analysis.txt"
        j.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        t.write_text(self.text, encoding="utf-8")
        return [j, t]


def _move_text(pairs: Any) -> str:
    return " ".join(f"{'bar' if s == 25 else s}/{'off' if e <= 0 else e}" for s, e in pairs or [])


def from_gnubg(m: dict[str, Any], plies: int, text: str = "", top: int = 3) -> Analysis:
    """An :class:`Analysis` from ``gnubg.match(analysis=1, statistics=1)``'s answer."""
    info = m.get("match-info", {})
    stats = m.get("stats") or {}
    players = []
    for side in ("X", "O"):  # gnubg's X is the match file's first player (Dark)
        s = stats.get(side, {})
        mv, cube = s.get("moves", {}), s.get("cube", {})
        unforced = int(mv.get("unforced-moves", 0))
        close = int(cube.get("close-cube", 0))
        cube_err = sum(v for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill"))
        chq = float(mv.get("error-skill", 0.0))
        rate = 1000 * (chq + cube_err) / max(1, unforced + close)
        players.append(PlayerStats(str(info.get(side, {}).get("name", side)), round(rate, 1),
                                   round(1000 * chq / max(1, unforced), 1), unforced,
                                   {k: int(v) for k, v in (mv.get("marked") or {}).items()}))
    errors: list[BigError] = []
    for gi, g in enumerate(m.get("games", []), 1):
        for a in g.get("game", []):
            an = a.get("analysis") or {}
            moves, i = an.get("moves"), an.get("imove")
            if a.get("action") != "move" or not moves or i is None or i >= len(moves):
                continue
            loss = float(moves[0].get("score", 0.0)) - float(moves[i].get("score", 0.0))
            if loss > 1e-6:
                who = players[0 if a.get("player") == "X" else 1].name
                errors.append(BigError(who, gi, tuple(a.get("dice", ())), _move_text(a.get("move")),
                                       _move_text(moves[0].get("move")), round(loss, 3)))
    biggest: list[BigError] = []
    for p in players:
        biggest += sorted((e for e in errors if e.player == p.name), key=lambda e: -e.loss)[:top]
    return Analysis((players[0], players[1]), tuple(biggest), plies, text)


def analyse(mat: Union[str, Path], plies: int = 0, timeout: float = 600, exe: Optional[str] = None) -> Analysis:
    """Analyse a ``.mat`` match file with ``gnubg -t``; AnalysisError saying why it could not."""
    program = exe or gnubg_path()
    if program is None:
        raise AnalysisError("GNU Backgammon is not installed (apt-get install gnubg); the match is not analysed")
    mat = Path(mat).resolve()
    if not mat.is_file():
        raise AnalysisError(f"match file {str(mat)!r} does not exist")
    with tempfile.TemporaryDirectory(prefix="bgtable-analysis-") as tmp:
        t = Path(tmp)
        script = t / "analyse.py"
        result, text = t / "result.json", t / "analysis.txt"
        script.write_text(f"PLIES = {int(plies)}\nMAT = {str(mat)!r}\nRESULT = {str(result)!r}\nTEXT = {str(text)!r}\n"
                          + SCRIPT, encoding="utf-8")
        try:
            proc = subprocess.run([program, "-t", "-q", "-p", str(script)], capture_output=True, text=True,
                                  timeout=timeout, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise AnalysisError(f"gnubg took more than {timeout:.0f} s on {mat.name}; try fewer plies") from None
        if not result.exists():
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
            raise AnalysisError(f"gnubg could not analyse {mat.name} (exit {proc.returncode}): {' / '.join(tail)}")
        return from_gnubg(json.loads(result.read_text()), plies,
                          text.read_text(errors="replace") if text.exists() else "")


def journal_line(a: Analysis, files: list[Path]) -> dict[str, Any]:
    """The journal event carrying the analysis's summary to the club (kept, not part of the record)."""
    return {"event": "analysis", "summary": a.summary(), "players": [asdict(p) for p in a.players],
            "biggest": [asdict(e) for e in a.biggest], "plies": a.plies, "files": [p.name for p in files]}


__all__ = ["Analysis", "AnalysisError", "BigError", "PlayerStats", "analyse", "from_gnubg", "journal_line",
           "gnubg_path"]
