"""A seeded small sample of bench/dicelink_faults.py: corrupted frames, and rolls through a lossy,
unplugged line to a reader restarted with its old boot id, on a virtual clock (no sleeps)."""
from __future__ import annotations

import pytest

from firmware_bridge import session
from firmware_bridge.faults import BIT_BUCKETS, frame_trials, run_rolls


def test_random_and_corrupted_frames_never_yield_values_that_were_not_sent() -> None:
    r = frame_trials(6000, seed=5)
    assert r.trials == 6000 and r.random_frames == 1200
    assert all(r.corrupted[name] == 1200 for name, _, _ in BIT_BUCKETS)
    assert r.wrong == 0 and sum(r.v2_missed.values()) == 0


@pytest.mark.parametrize("pace, rolls, seed", [("fast", 60, 3), ("human", 12, 4)])
def test_rolls_through_loss_unplugs_restarts_and_forged_frames_arrive_once_with_their_values(
        pace: str, rolls: int, seed: int) -> None:
    r = run_rolls(rolls, pace, seed=seed, loss=0.2, corrupt=0.02, unplug_every_s=8.0, restarts=2, forged=10)
    assert (r.lost, r.duplicated, r.wrong, r.lifts_lost, r.lifts_duplicated) == (0, 0, 0, 0, 0), r
    assert r.rolls == r.delivered == rolls
    # the faults really happened
    assert r.frames_lost > 0 and r.unplugs >= 1 and r.restarts == 2 and r.new_epochs == 2 and r.held >= 5, r


def test_the_sample_sees_a_poisoned_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the bound on id jumps, forged frames (a CRC miss) make later rolls look like duplicates."""
    monkeypatch.setattr(session, "MAX_ROLL_JUMP", 1 << 17)
    monkeypatch.setattr(session, "MAX_FAULT_JUMP", 1 << 17)
    r = run_rolls(60, "fast", seed=3, loss=0.2, corrupt=0.0, unplug_every_s=1e9, restarts=0, forged=3)
    assert r.lost > 0


def test_a_pace_that_does_not_exist_is_named() -> None:
    with pytest.raises(ValueError, match="'slow'"):
        run_rolls(1, "slow")
