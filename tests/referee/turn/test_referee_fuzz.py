"""Random event sequences: the referee never raises, always gives a valid view, and replaying
its inputs rebuilds the same state (whatever the devices and players throw at it)."""
from __future__ import annotations

import random

import pytest

from referee.events import (PLAYER_ACTIONS, DiceLifted, DieReading, HandOverBoard, PlayerInput, ReaderFault,
                            RollSettled, RollStarted)
from referee.rules.moves import legal_plays
from referee.turn.referee import STATES, Referee
from referee.records.builder import build_record
from referee.settings import Settings
from referee.table.streams import as_dark, other, reading


def random_event(rng: random.Random, ref: Referee):
    r = rng.random()
    if r < 0.3:
        n = rng.choice([1, 2, 2, 2])
        zones = ["left", "right", "outside", "tray"]
        return RollSettled(tuple(DieReading(rng.choice([None, 1, 2, 3, 4, 5, 6, 6]), flat=rng.random() > 0.1,
                                            zone=rng.choice(zones), on_checker=rng.random() < 0.05,
                                            x=rng.uniform(-200, 200)) for _ in range(n)))
    if r < 0.45 and ref.t.dice and ref.turn:
        plays = legal_plays(ref.mover_position(), *ref.t.dice)
        if plays:
            return reading(as_dark(rng.choice(plays).result, other(ref.turn)))
        return reading(ref.pos)
    if r < 0.5:
        return reading(ref.pos)
    if r < 0.65:
        return DiceLifted()
    if r < 0.7:
        return rng.choice([HandOverBoard(), RollStarted(), ReaderFault("sensor 3 dark")])
    return PlayerInput(rng.choice(["dark", "light"]), rng.choice(PLAYER_ACTIONS),
                       rng.choice([None, 0, 1, 2, 5, -1]))


@pytest.mark.parametrize("seed", range(16))
def test_random_event_sequences_never_crash(seed: int) -> None:
    rng = random.Random(seed)
    settings = rng.choice([Settings(), Settings(match_to=3), Settings(beavers=True, jacoby=True, automatic_doubles=2),
                           Settings(early_roll="void", die_on_checker="stands"), Settings(dice_reader=False),
                           Settings(landing="tray"), Settings(chouette=("a", "b", "c"))])
    ref = Referee(settings)
    seen = set()
    for _ in range(400):
        ev = random_event(rng, ref)
        for d in ref.handle(ev):
            assert d.reason
        assert ref.state in STATES
        seen.add(ref.state)
        ref.view()
    clone = Referee.replay(settings, ref.inputs)
    assert clone.view() == ref.view() and build_record(clone.new_record_actions()) == build_record(ref.new_record_actions())
    assert len(seen) >= 2


def test_random_play_reaches_every_state_and_no_state_is_a_dead_end() -> None:
    """The declared machine checked by driving it: random events under every kind of settings reach
    every state (but ``ambiguous``, which needs a reading that fits two plays equally and is made
    by hand in test_turn_protocol), and leave every state but ``match_over``."""
    kinds = [Settings(), Settings(match_to=3), Settings(beavers=True, jacoby=True, automatic_doubles=2),
             Settings(early_roll="void", die_on_checker="stands"), Settings(dice_reader=False),
             Settings(landing="tray"), Settings(chouette=("a", "b", "c"))]
    reached, left = set(), set()
    for seed in range(70):
        rng = random.Random(1000 + seed)
        ref = Referee(kinds[seed % len(kinds)])
        for _ in range(400):
            before = ref.state
            ref.handle(random_event(rng, ref))
            reached.add(ref.state)
            if ref.state != before:
                left.add(before)
    assert set(STATES) - reached <= {"ambiguous"}, set(STATES) - reached
    assert set(STATES) - left <= {"ambiguous", "match_over"}, set(STATES) - left
