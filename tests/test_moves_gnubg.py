"""Differential test: our legal plays against GNU Backgammon's own move generator."""
from __future__ import annotations

import gnubg_nn
import pytest

from referee.moves import legal_plays
from tests.positions import KINDS, sample

CASES = sample(seed=20261129, n=2400)


def gnubg_results(position, d1, d2):
    keys = gnubg_nn.moves((list(position.opp), list(position.me)), d1, d2, 0)
    out = set()
    for key in keys:
        opp, me = gnubg_nn.boardfromkey(key)
        out.add((tuple(me), tuple(opp)))
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


def test_sample_covers_every_kind_and_roll():
    rolls = {(d1, d2) for _, d1, d2 in CASES}
    assert len(rolls) == 21
    assert len(CASES) >= 2000
    assert len(KINDS) == 6
    # the sample really exercises bar checkers, no-play rolls and bear-offs
    assert sum(1 for p, _, _ in CASES if p.me[24]) > 300
    assert sum(1 for p, a, b in CASES if not legal_plays(p, a, b)) > 20
    assert sum(1 for p, a, b in CASES if any(st.dst == 0 for lp in legal_plays(p, a, b) for st in lp.play.steps)) > 300
