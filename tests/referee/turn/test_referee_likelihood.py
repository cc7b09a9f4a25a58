"""Verdicts by likelihood over the legal successors (referee.turn.likelihood), rule by rule."""
from __future__ import annotations

from dataclasses import replace
from typing import Optional

from referee.events import BoardEvidence, from_json, to_json
from referee.turn.likelihood import cells_of, judge
from referee.turn.matching import match_reading
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.table.streams import reading

START = Position.start()  # Dark on roll
Cell = tuple[int, Optional[str]]


def cands(dice=(3, 1), pos: Position = START) -> list[Position]:
    return [lp.result.swap() for lp in legal_plays(pos, *dice)]  # Dark perspective


def odds(pos: Position, p: float = 0.97, **at: dict[Cell, float]) -> BoardEvidence:
    """A reading of ``pos`` with odds: each location its true cell at ``p`` and the next counts
    at the rest; ``at={"p6": {(5, "dark"): 0.5, ...}}`` sets a location's odds outright."""
    out = []
    for k, (n, c) in enumerate(cells_of(pos)):
        key = f"p{k + 1}" if k < 24 else ("bar_dark" if k == 24 else "bar_light")
        if key in at:
            out.append(tuple((m, col, q) for (m, col), q in at[key].items()))
            continue
        colour = c if k < 24 else ("dark" if k == 24 else "light")
        alts = [(n, c, p)]
        for m in (n - 1, n + 1):
            if m >= 0:
                alts.append((m, (colour if m else None) if k < 24 else colour, (1 - p) / 2))
        out.append(tuple(alts))
    return replace(reading(pos), odds=tuple(out))


def test_odds_round_trip_through_the_text_form() -> None:
    ev = odds(cands()[2])
    assert from_json(to_json(ev)) == ev
    assert "odds" not in to_json(reading(START))  # a plain reading keeps the form it always had


def test_the_true_successor_is_accepted_when_clearly_most_likely() -> None:
    c = cands()
    for k, true in enumerate(c):
        v = match_reading(odds(true), START, c, "dark")
        assert v.kind == "match" and c[v.indices[0]] == true, (k, v)


def test_a_sure_but_wrong_point_no_candidate_changes_does_not_block_the_verdict() -> None:
    # point 2 read as a dark checker (p 0.9, the true empty only 0.02): every candidate is
    # wrong there alike, so the error cancels and the move is still told
    c = cands()
    true = c[4]
    ev = odds(true, p2={(1, "dark"): 0.9, (0, None): 0.02, (2, "dark"): 0.08})
    v = match_reading(ev, START, c, "dark")
    assert v.kind == "match" and c[v.indices[0]] == true
    # the exact matching rule (no odds) cannot say so: a surely read point disagrees with all
    from referee.events import PointReading
    pts = list(ev.points)
    pts[1] = PointReading(1, "dark")
    plain = replace(ev, points=tuple(pts), odds=())
    assert match_reading(plain, START, c, "dark").kind != "match"


def test_two_moves_the_reading_cannot_tell_apart_are_asked_naming_the_points() -> None:
    # 3-1 from the start: 8/5 6/5 vs 24/21 24/23... pick two plays that differ on few points
    c = cands()
    a, b = c[0], c[1]
    differ = [k for k, (x, y) in enumerate(zip(cells_of(a), cells_of(b))) if x != y]
    at = {}
    for k in differ:
        ca, cb = cells_of(a)[k], cells_of(b)[k]
        at[f"p{k + 1}" if k < 24 else ("bar_dark" if k == 24 else "bar_light")] = {ca: 0.5, cb: 0.5}
    v = match_reading(odds(a, **at), START, c, "dark")
    assert v.kind == "ambiguous" and {c[i] for i in v.indices} == {a, b}
    for k in differ:
        if k < 24:
            assert str(k + 1) in v.reason


def test_illegal_only_when_the_reading_surely_shows_another_real_position() -> None:
    # Dark plays 13/8 with 3-1 (5 pips for 4): surely read -> illegal, naming the points
    bad = Position([0, 0, 0, 0, 0, 5, 0, 4, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], START.opp)
    c = cands()
    assert bad not in c
    v = match_reading(odds(bad, p=0.99), START, c, "dark")
    assert v.kind == "illegal" and v.position == bad
    assert "points 8, 9" in v.reason  # where it differs from the closest legal move (13/9)
    # the same reading held less surely: never "illegal", the table waits or asks
    v = match_reading(odds(bad, p=0.6), START, c, "dark")
    assert v.kind in ("uncertain", "ambiguous")


def test_no_move_made_read_surely_is_illegal() -> None:
    c = cands()
    v = match_reading(odds(START, p=0.99), START, c, "dark")
    assert v.kind == "illegal" and v.position == START


def test_an_impossible_reading_still_tells_the_move_among_the_candidates() -> None:
    # a hinge read as two dark checkers on the bar: 17 dark in all, yet the move is clear
    c = cands()
    true = c[3]
    ev = odds(true, bar_dark={(2, "dark"): 0.85, (0, "dark"): 0.05, (1, "dark"): 0.1})
    v = match_reading(ev, START, c, "dark")
    assert v.kind == "match" and c[v.indices[0]] == true


def test_the_only_play_no_move_is_matched() -> None:
    # Dark closed out with a 6-6 to enter: the only candidate is the position itself
    pos = Position(START.me[:24] + (1,), (2, 2, 2, 2, 2, 2) + (0,) * 17 + (0, 0))
    c = cands((6, 6), pos) or [pos]
    v = judge(odds(pos), pos, c, "dark")
    assert v.kind == "match"
