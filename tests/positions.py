"""Seeded random positions of every kind, for differential tests and benchmarks."""
from __future__ import annotations

import random

from referee.rules.position import Position

KINDS = ("contact", "race", "bar", "closed_board", "bearoff_contact", "bearoff_race")


def _place(rng: random.Random, n: int, lo: int, hi: int) -> list[int]:
    side = [0] * 25
    for _ in range(n):
        side[rng.randint(lo, hi)] += 1
    return side


def random_position(rng: random.Random, kind: str) -> Position:
    """A valid random position of the given kind (player on roll = ``me``)."""
    while True:
        if kind == "contact":
            me = _place(rng, rng.randint(8, 15), 0, 23)
            opp = _place(rng, rng.randint(8, 15), 0, 23)
        elif kind == "race":
            me = _place(rng, rng.randint(3, 15), 0, 11)
            opp = _place(rng, rng.randint(3, 15), 0, 11)
        elif kind == "bar":
            me = _place(rng, rng.randint(6, 13), 0, 23)
            me[24] += rng.randint(1, 2)
            opp = _place(rng, rng.randint(8, 15), 0, 23)
        elif kind == "closed_board":
            me = _place(rng, rng.randint(6, 12), 0, 23)
            me[24] += rng.randint(1, 3)
            opp = [0] * 25
            for i in rng.sample(range(6), rng.choice((4, 5, 6))):
                opp[i] = 2
            extra = _place(rng, rng.randint(0, 15 - sum(opp)), 0, 23)
            opp = [a + b for a, b in zip(opp, extra)]
        elif kind == "bearoff_contact":
            me = _place(rng, rng.randint(2, 15), 0, 5)
            opp = _place(rng, rng.randint(2, 10), 0, 23)
            opp[rng.randint(18, 24)] += 1
        else:  # bearoff_race
            me = _place(rng, rng.randint(1, 15), 0, 5)
            opp = _place(rng, rng.randint(1, 15), 0, 5)
        for i in range(24):  # no point held by both sides
            if me[i] and opp[23 - i]:
                if rng.random() < 0.5:
                    me[i] = 0
                else:
                    opp[23 - i] = 0
        if sum(me) and sum(opp) and sum(me) <= 15 and sum(opp) <= 15:
            return Position(me, opp)


def sample(seed: int, n: int) -> list[tuple[Position, int, int]]:
    """``n`` (position, d1, d2) cases cycling through all kinds and all 21 rolls."""
    rng = random.Random(seed)
    rolls = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
    out = []
    for i in range(n):
        kind = KINDS[i % len(KINDS)]
        d1, d2 = rolls[i % len(rolls)]
        out.append((random_position(rng, kind), d1, d2))
    return out
