"""Real games' moves judged on a rendered real table (``bench/verdicts.py --real-games``): every
move as a player made it, through the bear-off, never a wrong verdict.  A seeded sample of
the bench's sweep: the last moves of real games that end in a bear-off, the table having learned
its board from the position before the first of them."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.rules.position import Position

ROOT = Path(__file__).resolve().parents[2]
sys.path.append(str(ROOT / "bench"))   # (appended: bench/referee.py must not stand for the package)

import verdicts as V  # noqa: E402


def _tally() -> dict:
    return {"moves": 0, "right": 0, "asked": 0, "wrong": 0, "illegal_moves": 0, "read_ms": [], "render_ms": []}


def test_real_games_are_drawn_from_the_start_whole_and_in_order() -> None:
    games = V.real_games(V.MATCHES, 5, seed=7)
    assert len(games) == 5
    for g in games:
        moves = [r for r in g if r["action"] == "move"]
        assert Position.from_position_id(moves[0]["position_id"]) in (Position.start(), Position.start().swap())
        assert [r["n"] for r in moves] == sorted(r["n"] for r in moves)
        assert not any(r["action"] == "set" for r in g)
    assert V.real_games(V.MATCHES, 5, seed=7) == games   # seeded


def test_phases_of_a_game() -> None:
    start = Position.start()
    assert V.phase_of(start, start, 3) == "opening"
    assert V.phase_of(start, start, 9) == "middle"
    race = Position.from_points({6: 5, 5: 5, 4: 5}, {6: 5, 5: 5, 4: 5})
    assert not race.is_contact()
    assert V.phase_of(race, race, 30) == "race"
    off = Position.from_points({6: 5, 5: 5, 4: 4}, {6: 5, 5: 5, 4: 5})
    assert V.phase_of(race, off, 31) == "bear-off"   # the mover bore a checker off


@pytest.mark.parametrize("seed", [960000, 960001])
def test_a_real_bear_off_is_judged_never_wrongly(seed: int) -> None:
    games = V.real_games(V.MATCHES, 40, seed=seed)
    game = next(g for g in games if sum(Position.from_position_id(r["played_position_id"]).off[0]
                                        for r in g if r["action"] == "move") > 0)
    moves = [r for r in game if r["action"] == "move"]
    tally, detail = _tally(), []
    V.play_real_game(seed, game, tally, detail, from_move=max(0, len(moves) - 10))
    assert not any("left at play" in d for d in detail), detail
    assert tally["moves"] >= 6
    assert tally["phases"].get("bear-off", {}).get("moves", 0) >= 3
    assert tally["wrong"] == 0 and tally["first"]["wrong"] == 0, detail
    assert sum(tally["first"].values()) == tally["moves"]      # every move judged at the first look ...
    assert tally["right"] == tally["first"]["right"] + tally.get("lifted", 0)   # ... and again once the dice were lifted
    assert tally["right"] >= tally["moves"] // 2, detail
