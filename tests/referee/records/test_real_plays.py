"""Every recorded checker play of the real matches is legal and produces the recorded position."""
from __future__ import annotations

import gzip
import json

import pytest

from referee.rules.moves import legal_plays, match_play, plays_to
from referee.rules.notation import steps_from_pairs
from referee.rules.position import Position
from tests.conftest import MATCHES


def _plays():
    with gzip.open(MATCHES / "plays.jsonl.gz", "rt") as fh:
        return [d for d in map(json.loads, fh) if d["action"] == "move"]


PLAYS = _plays()


def test_there_are_many_real_plays():
    assert len(PLAYS) > 45000


@pytest.mark.parametrize("chunk", range(6))
def test_every_real_play_is_legal_and_lands_on_the_recorded_position(chunk):
    problems = []
    for d in PLAYS[chunk::6]:
        position = Position.from_position_id(d["position_id"])
        d1, d2 = d["dice"]
        try:
            lp = match_play(position, d1, d2, steps_from_pairs(d["played"]))
        except ValueError as exc:
            problems.append((d["file"], d["game"], d["n"], str(exc)))
            continue
        if lp.result.swap().position_id() != d["played_position_id"]:
            problems.append((d["file"], d["game"], d["n"], str(lp.play), d["played_position_id"]))
    assert not problems, problems[:5]


def test_which_play_produced_this_position_on_real_plays():
    for d in PLAYS[::97]:
        position = Position.from_position_id(d["position_id"])
        after = Position.from_position_id(d["played_position_id"]).swap()
        found = plays_to(position, *d["dice"], after)
        assert found, d
        assert all(lp.result == after for lp in found)
        # and a position the roll cannot produce gives none
        others = {lp.result for lp in legal_plays(Position.start(), 6, 5)}
        if after not in others:
            assert not plays_to(Position.start(), 6, 5, after)
