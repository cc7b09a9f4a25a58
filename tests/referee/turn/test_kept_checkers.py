"""The likeliest board a player can leave keeps every checker (referee.turn.kept_checkers)."""
from __future__ import annotations

from tests.referee.turn.test_referee_likelihood import START, cands, odds

from referee.rules.position import Position
from referee.turn.kept_checkers import kept_checkers_cells
from referee.turn.likelihood import cells_of, log_likelihood, most_likely_cells, odds_table
from referee.turn.matching import match_reading


def _count(cells, colour: str) -> int:
    return sum(n for n, c in cells[:24] if c == colour) + (cells[24][0] if colour == "dark" else cells[25][0])


def test_the_board_found_keeps_the_opponents_checkers_as_they_were() -> None:
    true = cands()[4]
    # Dark's 8 point read two at 0.7 (three 0.2): the guess loses a dark checker; Light's 19
    # point read six at 0.7 (five 0.2): the guess gains a light one no move of Dark's brings
    table = odds_table(odds(true, p8={(2, "dark"): 0.7, (3, "dark"): 0.2, (4, "dark"): 0.1},
                            p19={(6, "light"): 0.7, (5, "light"): 0.2, (4, "light"): 0.1}))
    guess = most_likely_cells(table)
    assert _count(guess, "dark") == 14 and _count(guess, "light") == 16
    kept = kept_checkers_cells(table, START, "dark", cells_of(true))
    assert kept is not None
    # Light's as they were; Dark's fifteen on the board, or a few borne off (the trays unread)
    assert kept[18] == (5, "light") and kept[25] == (0, "light") and _count(kept, "light") == 15
    assert 11 <= _count(kept, "dark") <= 15
    # at least as likely as the board it was given beside the reading's cells, never more than the guess
    assert log_likelihood(table, cells_of(true)) <= log_likelihood(table, kept) <= log_likelihood(table, guess)


def test_a_blot_hit_is_on_its_bar_and_checkers_borne_off_are_at_most_four() -> None:
    # Light's blot on Dark's 4 point (Light's 21), hit from Dark's 6 point: the board with Dark's
    # checker there has Light's bar one more, though the bar is read unsurely
    before = Position(START.me, (0,) * 20 + (1, 0, 0, 2) + (0,))
    me = list(START.me)
    me[5], me[3] = 4, 1
    after = Position(me, (0,) * 20 + (0, 0, 0, 2) + (1,))
    ev = odds(after, bar_light={(1, "light"): 0.5, (0, "light"): 0.45, (2, "light"): 0.05})
    kept = kept_checkers_cells(odds_table(ev), before, "dark")
    assert kept == cells_of(after)
    # a dark checker read on the blot's point with none gone from anywhere is no hit: the board
    # found keeps Dark's fifteen, so the blot stays
    ev = odds(before, p4={(1, "dark"): 0.9, (1, "light"): 0.1})
    kept = kept_checkers_cells(odds_table(ev), before, "dark")
    assert kept is not None and kept[3] == (1, "light") and kept[25] == (0, "light")
    # all of Dark's checkers home, its 1 and 2 points read bare (five checkers): more than one
    # move bears off, so the board found keeps one of them on the board
    pos = Position([2, 3, 0, 0, 5, 5] + [0] * 19, START.opp)
    table = odds_table(odds(pos, p1={(0, None): 0.9, (2, "dark"): 0.1}, p2={(0, None): 0.9, (3, "dark"): 0.1}))
    kept = kept_checkers_cells(table, pos, "dark")
    assert kept is not None and _count(kept, "dark") >= 11


def test_misreads_of_the_opponents_stacks_no_move_makes_do_not_stop_the_verdict() -> None:
    # Light's 19 and 17 points read one more each, fairly surely (0.75 against 0.1, 2 nats each:
    # not sure enough to call Light's checkers moved), Dark's 8 point one short at 0.7: the
    # reading's own guess beats every move by more than 4.6 nats, but a board a player leaves
    # keeps its checkers, and the likeliest such board is the move's
    c = cands()
    true = c[4]
    one_more = {"p19": {(6, "light"): 0.75, (5, "light"): 0.1, (4, "light"): 0.15},
                "p17": {(4, "light"): 0.75, (3, "light"): 0.1, (2, "light"): 0.15}}
    short = {(2, "dark"): 0.7, (3, "dark"): 0.25, (4, "dark"): 0.05}
    ev = odds(true, p8=short, **one_more)
    table = odds_table(ev)
    assert log_likelihood(table, most_likely_cells(table)) - log_likelihood(table, cells_of(true)) > 4.6
    v = match_reading(ev, START, c, "dark")
    assert v.kind == "match" and c[v.indices[0]] == true, v
    # the same misreads beside a checker played a pip too far (13/9 6/5 for 3-1's 13/10 6/5):
    # never accepted
    bad = Position([0, 0, 0, 0, 1, 4, 0, 3, 1, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0], START.opp)
    for p in (0.6, 0.8, 0.9, 0.97):
        v = match_reading(odds(bad, p=p, **one_more), START, c, "dark")
        assert v.kind != "match", (p, v)


def test_light_moving_the_board_found_keeps_darks_checkers_and_lights_fifteen() -> None:
    from referee.rules.moves import legal_plays
    c = [lp.result for lp in legal_plays(START.swap(), 3, 1)]   # Light's plays, the boards Dark on roll
    true = c[4]
    # (24/23 13/10 in Light's count.) Dark's 6 and 8 points read one more each (0.75 against 0.1: no
    # move of Light's does that), Light's 19 point one short at 0.7: the guess beats the move by 5 nats
    one_more = {"p6": {(6, "dark"): 0.75, (5, "dark"): 0.1, (4, "dark"): 0.15},
                "p8": {(4, "dark"): 0.75, (3, "dark"): 0.1, (2, "dark"): 0.15},
                "p19": {(4, "light"): 0.7, (5, "light"): 0.25, (6, "light"): 0.05}}
    ev = odds(true, **one_more)
    table = odds_table(ev)
    assert log_likelihood(table, most_likely_cells(table)) - log_likelihood(table, cells_of(true)) > 4.6
    kept = kept_checkers_cells(table, START, "light", cells_of(true))
    assert kept is not None and kept[5] == (5, "dark") and kept[7] == (3, "dark") and kept[24] == (0, "dark")
    assert 11 <= _count(kept, "light") <= 15 and _count(kept, "dark") == 15
    v = match_reading(ev, START, c, "light")
    assert v.kind == "match" and c[v.indices[0]] == true, v
