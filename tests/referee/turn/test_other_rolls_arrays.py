"""The other-roll rule weighed as arrays (referee.turn.other_rolls.another_roll) gives what a plain
reading of the rule gives, board by board, on many seeded positions and readings; the boards are
built once a position, from any thread."""
from __future__ import annotations

import math
import random
import threading
from typing import Optional

from referee.colour import DARK, LIGHT
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.turn import other_rolls
from referee.turn.likelihood import SURE, UNSURE, Cell, cells_of
from referee.turn.other_rolls import OTHER_ROLL, ROLLS, _closest_one_by_one, _Gains, another_roll


def _positions(rng: random.Random, games: int, moves: int) -> list[tuple[Position, str]]:
    """Positions (Dark on roll) before a move of the mover, from seeded random games."""
    out = []
    for _ in range(games):
        pos, mover = Position.start(), rng.choice((DARK, LIGHT))
        for _ in range(moves):
            out.append((pos, mover))
            moving = pos if mover == DARK else pos.swap()
            plays = legal_plays(moving, rng.randint(1, 6), rng.randint(1, 6))
            if not plays:
                break
            after = rng.choice(list(plays)).result   # the opponent on roll
            pos = after.swap() if mover == DARK else after
            if 15 in (sum(pos.me), sum(pos.opp)) and min(sum(pos.me), sum(pos.opp)) < 15:
                break
            mover = LIGHT if mover == DARK else DARK
    return out


def _results(pos: Position, mover: str, roll: tuple[int, int]) -> list[Position]:
    """The boards (Dark on roll) the mover's plays of ``roll`` leave."""
    moving = pos if mover == DARK else pos.swap()
    return [lp.result.swap() if mover == DARK else lp.result for lp in legal_plays(moving, *roll)]


def _reading(rng: random.Random, truth: list[Cell]) -> list[dict[Cell, float]]:
    """Odds a location: the true cell at a seeded confidence (sure or not), the rest on neighbours."""
    table = []
    for k, (n, colour) in enumerate(truth):
        sure = rng.choice((0.99, 0.97, 0.9, 0.7, 0.5, 0.4))
        fill = colour or rng.choice((DARK, LIGHT)) if k < 24 else (DARK if k == 24 else LIGHT)
        others = [(m, fill if m or k >= 24 else None) for m in (n - 1, n + 1, n + 2) if m >= 0]
        weights = [rng.random() for _ in others]
        odds = {(n, colour): sure}
        for cell, w in zip(others, weights):
            odds[cell] = odds.get(cell, 0.0) + (1 - sure) * w / sum(weights)
        table.append(odds)
    return table


def _plainly(table, cells, pos, mover, legal,
             off_logs=None) -> Optional[tuple[float, list[int], tuple[int, int], Position]]:
    """The rule read plainly: every board any roll leaves, not a legal one, weighed at every place it
    differs from the legal move's board (and, with ``off_logs``, at its checkers borne off as the trays
    say); the least surely told apart (the first such), if within OTHER_ROLL."""
    gains = _Gains(table, cells)
    best_off = 15 - sum(n for n, c in cells if c == mover)
    first: dict[Position, tuple[int, int]] = {}
    for roll in ROLLS:
        for board in _results(pos, mover, roll):
            first.setdefault(board, roll)
    best = None
    for board, roll in first.items():
        if board in legal:
            continue
        now = cells_of(board)
        places = [k for k in range(26) if now[k] != cells[k]]
        apart = sum(gains(k, now[k]) for k in places)
        if off_logs is not None:
            tray = off_logs[best_off] - off_logs[board.off[0] if mover == DARK else board.off[1]]
            apart += min(tray, UNSURE) if off_logs[best_off] < math.log(SURE) else tray
        if apart <= OTHER_ROLL and (best is None or apart < best[0]):
            best = (apart, places, roll, board)
    return best


def test_the_arrays_give_what_the_rule_read_board_by_board_gives() -> None:
    rng = random.Random(20261203)
    found = none = 0
    for pos, mover in _positions(rng, 12, 14):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        legal = _results(pos, mover, roll)
        if not legal or pos in legal:
            continue
        cells = cells_of(rng.choice(legal))
        others = [b for roll_ in ROLLS for b in _results(pos, mover, roll_) if b not in legal]
        for _ in range(3):
            truth = cells if rng.random() < 0.5 or not others else cells_of(rng.choice(others))
            table = _reading(rng, list(truth))
            got = another_roll(table, cells, pos, mover, set(legal))
            # the same sums in the same order as the loop: identical, to the last bit
            assert got == _closest_one_by_one(table, cells, pos, mover, set(legal)), (pos, mover, roll)
            want = _plainly(table, cells, pos, mover, set(legal))
            if want is None:
                assert got is None, (pos, mover, roll, got)
                none += 1
                continue
            assert got is not None and abs(got[0] - want[0]) < 1e-9, (got, want)
            if got[3] != want[3]:   # a tie (to rounding) between two boards: each the first of its sums
                now = cells_of(got[3])
                assert abs(sum(_Gains(table, cells)(k, now[k]) for k in got[1]) - want[0]) < 1e-9
            else:
                assert got[1:] == want[1:], (got, want)
            found += 1
    assert found >= 40 and none >= 40, (found, none)


def test_a_position_is_built_once_however_many_threads_ask_for_it(monkeypatch) -> None:
    builds = []
    entered, release = threading.Event(), threading.Event()
    real = other_rolls._build

    def counted(before: Position, mover: str):
        builds.append((before, mover))
        entered.set()
        release.wait()
        return real(before, mover)

    monkeypatch.setattr(other_rolls, "_build", counted)
    other_rolls._READY.clear()
    pos = _results(Position.start(), DARK, (6, 5))[0]
    got: list[object] = []
    first = threading.Thread(target=lambda: got.append(other_rolls._prepared(pos, LIGHT)))
    first.start()
    entered.wait()
    rest = [threading.Thread(target=lambda: got.append(other_rolls._prepared(pos, LIGHT))) for _ in range(3)]
    for t in rest:
        t.start()
    release.set()
    for t in [first, *rest]:
        t.join()
    assert builds == [(pos, LIGHT)] and len(got) == 4 and all(g is got[0] for g in got)
    assert other_rolls._BUILDING == {}


def test_a_judgement_with_the_boards_prepared_is_the_judgement_without() -> None:
    rng = random.Random(7)
    pos, mover = _positions(rng, 1, 9)[-1]
    legal = _results(pos, mover, (5, 3))
    cells = cells_of(legal[0])
    others = [b for roll in ROLLS for b in _results(pos, mover, roll) if b not in legal]
    table = _reading(rng, list(cells_of(others[0])))
    other_rolls._READY.clear()
    cold = another_roll(table, cells, pos, mover, set(legal))
    other_rolls._READY.clear()
    other_rolls.prepare(pos, mover)
    assert (pos, mover) in other_rolls._READY
    assert another_roll(table, cells, pos, mover, set(legal)) == cold


def test_a_mover_who_is_no_player_is_named() -> None:
    try:
        other_rolls.prepare(Position.start(), "white")
    except ValueError as exc:
        assert "'white'" in str(exc)
    else:
        raise AssertionError("a mover 'white' was accepted")


def _bear_offs(rng: random.Random, n: int) -> list[tuple[Position, str]]:
    """Seeded positions (Dark on roll) of a mover bearing off: its checkers on its home board, some off."""
    out = []
    for _ in range(n):
        mine, theirs = [0] * 25, [0] * 25
        for _ in range(rng.randint(3, 15)):
            mine[rng.randrange(6)] += 1
        for _ in range(15):
            theirs[rng.randrange(0, 18)] += 1   # (off the mover's home board: no point shared)
        mover = rng.choice((DARK, LIGHT))
        out.append((Position(mine, theirs) if mover == DARK else Position(theirs, mine), mover))
    return out


def test_the_trays_weigh_alike_in_the_arrays_and_board_by_board() -> None:
    from referee.turn.likelihood import FLOOR
    from vision.odds import bar_odds
    rng = random.Random(20261204)
    changed = compared = 0
    for pos, mover in _bear_offs(rng, 40):
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        legal = _results(pos, mover, roll)
        if not legal or pos in legal:
            continue
        cells = cells_of(rng.choice(legal))
        best_off = 15 - sum(n for n, c in cells if c == mover)
        table = _reading(rng, list(cells))
        read = min(15, max(0, best_off + rng.choice((0, 0, 1, -1))))
        odds = bar_odds(read, rng.choice((1.0, 0.4)))
        logs = [math.log(max(odds.get(k, 0.0), FLOOR)) for k in range(16)]
        got = another_roll(table, cells, pos, mover, set(legal), logs)
        assert got == _closest_one_by_one(table, cells, pos, mover, set(legal), logs), (pos, mover, roll)
        # ... and the rule read plainly: each other board's places, then its checkers off as the trays say
        want = _plainly(table, cells, pos, mover, set(legal), logs)
        assert (got is None) == (want is None), (got, want)
        if got is not None:
            assert want is not None and abs(got[0] - want[0]) < 1e-9
        changed += got != another_roll(table, cells, pos, mover, set(legal))
        compared += 1
    assert compared >= 25 and changed >= 5, (compared, changed)
