"""Differential test: our legal plays against GNU Backgammon's own move generator."""
from __future__ import annotations

import gnubg_nn
import pytest

from referee.rules.moves import legal_plays
from tests.positions import KINDS, sample

CASES = sample(seed=20261129, n=2400)


def gnubg_results(position, d1, d2):
    keys = gnubg_nn.moves((list(position.opp), list(position.me)), d1, d2, 0)
    out = set()
    for key in keys:
        opp, me = gnubg_nn.boardfromkey(key)
        out.add((tuple(me), tuple(opp)))
    return out


def gnubg_steps(position, d1, d2):
    """gnubg's plays: result -> its steps as sorted (from, to) pairs (25 = bar, 0 = off)."""
    out = {}
    for key, steps in gnubg_nn.moves((list(position.opp), list(position.me)), d1, d2, 1):
        opp, me = gnubg_nn.boardfromkey(key)
        out[(tuple(me), tuple(opp))] = sorted(tuple(s) for s in steps)
    return out


@pytest.mark.parametrize("chunk", range(8))
def test_same_results_as_gnubg(chunk):
    mismatches = []
    for position, d1, d2 in CASES[chunk::8]:
        ours = {(lp.result.opp, lp.result.me) for lp in legal_plays(position, d1, d2)}
        theirs = gnubg_results(position, d1, d2)
        if ours != theirs:
            mismatches.append((position.position_id(), d1, d2, len(ours), len(theirs)))
    assert not mismatches, mismatches[:5]


@pytest.mark.parametrize("chunk", range(2))
def test_each_play_is_written_with_the_steps_gnubg_gives(chunk):
    """Where several step sequences reach one result, we pick the same checker
    steps as gnubg (order aside), so the notation agrees, not only the result."""
    differ = []
    checked = 0
    for position, d1, d2 in CASES[chunk::4]:
        theirs = gnubg_steps(position, d1, d2)
        for lp in legal_plays(position, d1, d2):
            ours = sorted((st.src, st.dst) for st in lp.play.steps)
            checked += 1
            if ours != theirs[(lp.result.opp, lp.result.me)]:
                differ.append((position.position_id(), d1, d2, str(lp.play)))
    assert checked > 5000
    assert not differ, differ[:5]


def test_sample_covers_every_kind_and_roll():
    rolls = {(d1, d2) for _, d1, d2 in CASES}
    assert len(rolls) == 21
    assert len(CASES) >= 2000
    assert len(KINDS) == 6
    # the sample really exercises bar checkers, no-play rolls and bear-offs
    assert sum(1 for p, _, _ in CASES if p.me[24]) > 300
    assert sum(1 for p, a, b in CASES if not legal_plays(p, a, b)) > 20
    assert sum(1 for p, a, b in CASES if any(st.dst == 0 for lp in legal_plays(p, a, b) for st in lp.play.steps)) > 300


def test_result_keys_round_trip_and_find_the_same_plays_as_the_values() -> None:
    """The generator's packed result keys unpack to the positions legal_plays
    returns, and plays_to finds each play from either side on roll."""
    from referee.rules.movegen import generate, key_of, sides_of
    from referee.rules.moves import plays_to, results

    checked = 0
    for position, d1, d2 in sample(424242, 300):
        assert sides_of(key_of(position.me, position.opp)) == (position.me, position.opp)
        keys, paths = generate(position.me, position.opp, max(d1, d2), min(d1, d2))
        plays = legal_plays(position, d1, d2)
        assert len(keys) == len(paths) == len(plays)
        assert [sides_of(k) for k in keys] == [(lp.result.opp, lp.result.me) for lp in plays]
        assert results(position, d1, d2) == ({lp.result for lp in plays} or {position.swap()})
        for lp in plays[:3]:
            assert plays_to(position, d1, d2, lp.result) == [lp]
            assert plays_to(position, d1, d2, lp.result.swap()) == [lp]
            checked += 1
    assert checked > 500
