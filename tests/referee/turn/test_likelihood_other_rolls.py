"""A board another roll leaves must be told apart before a legal move is accepted
(referee.turn.other_rolls, used by referee.turn.likelihood.judge)."""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional

from referee.events import BoardEvidence
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.table.streams import reading
from referee.turn.likelihood import UNSURE, cells_of, odds_table
from referee.turn.matching import match_reading
from referee.turn.other_rolls import OTHER_ROLL, another_roll, other_roll_boards, told_apart

START = Position.start()  # Dark on roll
Cell = tuple[int, Optional[str]]


def results(dice: tuple[int, int], pos: Position = START) -> list[Position]:
    """The boards (Dark on roll) Dark's plays of ``dice`` leave."""
    return [lp.result.swap() for lp in legal_plays(pos, *dice)]


def played(dice: tuple[int, int], text: str, pos: Position = START) -> Position:
    """The board Dark's play ``text`` of ``dice`` leaves (Dark on roll)."""
    return next(lp.result.swap() for lp in legal_plays(pos, *dice) if str(lp.play) == text)


def odds(pos: Position, **at: dict[Cell, float]) -> BoardEvidence:
    """A reading of ``pos``: each location its true cell at 0.97, its neighbours' counts the rest;
    ``p6={(5, "dark"): 0.5, ...}`` sets point 6's odds outright."""
    out = []
    for k, (n, c) in enumerate(cells_of(pos)):
        key = f"p{k + 1}" if k < 24 else ("bar_dark" if k == 24 else "bar_light")
        if key in at:
            out.append(tuple((m, col, q) for (m, col), q in at[key].items()))
            continue
        colour = c if k < 24 else ("dark" if k == 24 else "light")
        alts = [(n, c, 0.97)] + [(m, (colour if m else None) if k < 24 else colour, 0.015)
                                 for m in (n - 1, n + 1) if m >= 0]
        out.append(tuple(alts))
    return replace(reading(pos), odds=tuple(out))


def test_a_play_of_another_roll_read_unsure_at_every_place_it_differs_is_asked() -> None:
    # 5-3 played 13/8 6/3, judged under 4-1 (whose 13/8 is legal): the board differs from 13/8
    # at point 6 (a stack read 4 or 5 at even odds) and point 3 (read empty at 0.69): the reading
    # tells the two boards apart by 0.8 nats.  Before other_rolls this was accepted as 13/8.
    legal = results((4, 1))
    shown = played((5, 3), "13/8 6/3")
    assert shown not in legal
    ev = odds(shown, p6={(5, "dark"): 0.5, (4, "dark"): 0.49, (3, "dark"): 0.01},
              p3={(0, None): 0.69, (1, "dark"): 0.3, (2, "dark"): 0.01})
    v = match_reading(ev, START, legal, "dark")
    assert v.kind == "uncertain", v
    assert "another roll" in v.reason and "5-3: 13/8 6/3" in v.reason and "points 3, 6" in v.reason, v.reason
    # the true roll's own judgement is not touched: 13/8 6/3 read so is accepted under 5-3
    # (another roll's 13/8 differs at the same two places and is told apart no better: asked)
    v = match_reading(ev, START, results((5, 3)), "dark")
    assert v.kind != "match" or results((5, 3))[v.indices[0]] == shown, v


def test_a_sure_place_against_it_is_not_enough_when_an_unsure_place_shows_the_other_roll() -> None:
    # the same boards, point 3 read empty surely (0.95, 20 to 1 against a checker there) but point 6
    # read 4 (the other roll's count) at 0.74 against 5 at 0.165: 4.4 to 1 in all for 13/8, short of
    # the 5 to 1 a board of another roll must be told from.  Before other_rolls: accepted as 13/8.
    legal = results((4, 1))
    shown = played((5, 3), "13/8 6/3")
    ev = odds(shown, p6={(4, "dark"): 0.74, (5, "dark"): 0.165, (3, "dark"): 0.095},
              p3={(0, None): 0.95, (1, "dark"): 0.0485, (2, "dark"): 0.0015})
    v = match_reading(ev, START, legal, "dark")
    assert v.kind == "uncertain" and "another roll" in v.reason, v


def test_the_legal_move_read_clearly_is_still_accepted() -> None:
    legal = results((4, 1))
    true = played((4, 1), "13/8")
    v = match_reading(odds(true), START, legal, "dark")
    assert v.kind == "match" and legal[v.indices[0]] == true, v
    # unsure at both places but clearly for the legal move (3 to 1 at each): 9 to 1 in all, accepted
    ev = odds(true, p6={(5, "dark"): 0.75, (4, "dark"): 0.25}, p3={(0, None): 0.75, (1, "dark"): 0.25})
    v = match_reading(ev, START, legal, "dark")
    assert v.kind == "match" and legal[v.indices[0]] == true, v


def test_other_roll_boards_leave_out_the_legal_ones_and_name_a_roll() -> None:
    legal = results((4, 1))
    boards = other_roll_boards(START, "dark", set(legal))
    assert boards and not set(boards) & set(legal)
    assert boards[played((5, 3), "13/8 6/3")] == (3, 5) or played((5, 3), "13/8 6/3") in boards
    assert all(a <= b for a, b in boards.values())
    # light moving: its boards are given Dark on roll too, each a real position
    light = other_roll_boards(START, "light", set())
    assert light and all(p.is_valid() for p in light)


def test_an_unsure_place_counts_against_the_other_board_at_most_four_to_one() -> None:
    true = played((4, 1), "13/8")
    other = played((5, 3), "13/8 6/3")
    # point 3 read empty at 0.6 but the other roll's checker there at 0.0001: unsure, so 4 to 1 only
    ev = odds(true, p3={(0, None): 0.6, (2, "dark"): 0.3999, (1, "dark"): 0.0001})
    apart, places = told_apart(odds_table(ev), cells_of(true), cells_of(other))
    assert places == [2, 5]
    assert abs(apart - (UNSURE + math.log(0.97 / 0.015))) < 1e-9, apart   # point 6 read surely: in full
    assert another_roll(odds_table(ev), cells_of(true), START, "dark", set(results((4, 1)))) is None
    assert OTHER_ROLL > UNSURE


def test_a_place_read_surely_as_neither_board_counts_at_most_four_to_one() -> None:
    # point 6 read surely empty (0.82: a glossy stack read as the bare point), the legal move's five
    # there at 0.02 and the other roll's four at 0.001: the reading is sure of neither, and the ratio
    # of its two tails (20 to 1) is no evidence between them; at 4 to 1 and point 3's 4 to 1 (read
    # 0.6) the boards are told apart by 16 to 1, not the 1,300 to 1 the tails make of it
    true = played((4, 1), "13/8")
    other = played((5, 3), "13/8 6/3")
    ev = odds(true, p6={(0, None): 0.82, (5, "dark"): 0.02, (4, "dark"): 0.001, (1, "dark"): 0.159},
              p3={(0, None): 0.6, (2, "dark"): 0.3999, (1, "dark"): 0.0001})
    apart, places = told_apart(odds_table(ev), cells_of(true), cells_of(other))
    assert places == [2, 5] and abs(apart - 2 * UNSURE) < 1e-9, apart
    # read surely as the legal move's own count, a place still counts in full
    ev = odds(true, p6={(5, "dark"): 0.9, (4, "dark"): 0.001, (6, "dark"): 0.099},
              p3={(0, None): 0.97, (1, "dark"): 0.03})
    apart, _ = told_apart(odds_table(ev), cells_of(true), cells_of(other))
    assert abs(apart - math.log(0.9 / 0.001) - math.log(0.97 / 0.03)) < 1e-9, apart


def test_the_boards_and_their_changed_places_agree_with_the_plays_for_either_mover() -> None:
    # an asymmetric position (the start is the same from both sides, which hides a side mixed up):
    # a light blot Dark may hit, a dark checker on the bar for Light's roll
    from referee.board import position_of
    from referee.turn.other_rolls import ROLLS, _board, _boards
    dark = [0] * 24
    light = [0] * 24
    for p, n in ((6, 4), (8, 3), (13, 4), (21, 2), (3, 1)):
        dark[p - 1] = n
    for p, n in ((19, 5), (17, 3), (12, 4), (4, 1), (2, 1)):
        light[p - 1] = n
    pos = position_of(dark, light, (0, 1))
    for mover in ("dark", "light"):
        moving = pos if mover == "dark" else pos.swap()
        want: dict[Position, tuple[int, int]] = {}
        for roll in ROLLS:
            for lp in legal_plays(moving, *roll):
                want.setdefault(lp.result.swap() if mover == "dark" else lp.result, roll)
        assert other_roll_boards(pos, mover, set()) == want, mover
        was = cells_of(pos)
        for key, roll, changed in _boards(pos, mover):
            now = cells_of(_board(key, mover))
            assert dict(changed) == {k: now[k] for k in range(26) if now[k] != was[k]}, (mover, roll)


def _bearing_off() -> Position:
    """Dark (on roll) bearing off: 1 on its 7-point, 1 on the 5, 5 on the 6, 4 on the 4, 4 on the 2;
    Light all home, out of the way."""
    me = [0] * 25
    me[6], me[4], me[5], me[3], me[1] = 1, 1, 5, 4, 4
    opp = [0] * 25
    opp[0], opp[1], opp[2] = 5, 5, 5
    return Position(me, opp)


def test_how_many_a_tall_stack_holds_alone_tells_a_board_from_another_rolls_at_most_four_to_one() -> None:
    # as a real photo's game (unseen6 image041, seed 6: 5-3 played 7/2 5/2 where 6-5 was rolled, judged
    # 7/2 5/off): here 5-4 played 7/2 6/2 where 6-5 was rolled, the trays out of sight.  The board
    # differs from 6-5's 7/2 6/off only at the 2-point: six checkers or five.
    # The reading said five at 0.94 (six at 0.046: 20 to 1), the last of a tall stack lying past the
    # row the table learned, and 7/2 5/off was accepted.  The camera counts a tall stack surely and
    # wrong (as "illegal" knows: surely_read), so that count tells the boards apart at most 4 to 1: asked
    pos = _bearing_off()
    legal = results((6, 5), pos)
    shown = played((5, 4), "7/2 6/2", pos)
    best = played((6, 5), "7/2 6/off", pos)
    assert shown not in legal and best in legal
    p2 = {(5, "dark"): 0.94, (6, "dark"): 0.046, (4, "dark"): 0.014}
    ev = replace(odds(best, p2=p2), off=None)
    by, places = told_apart(odds_table(ev)[:26], cells_of(best), cells_of(shown))
    assert places == [1] and by == UNSURE
    v = match_reading(ev, pos, legal, "dark")
    assert v.kind == "uncertain" and "another roll" in v.reason and "5-4: 7/2 6/2" in v.reason, v
    # a short stack read so surely still tells them apart in full (a 2-point of three or two)
    short = {(2, "dark"): 0.94, (3, "dark"): 0.046, (1, "dark"): 0.014}
    by, _ = told_apart(odds_table(odds(best, p2=short))[:26], [(2, "dark") if k == 1 else c for k, c in
                                                             enumerate(cells_of(best))],
                       [(3, "dark") if k == 1 else c for k, c in enumerate(cells_of(best))])
    assert by > 2.9
