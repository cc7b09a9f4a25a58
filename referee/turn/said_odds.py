"""Likelihood ratios as the players read them, in the referee's questions: "about 4 to 1".

The verdicts weigh evidence in nats (natural logs of likelihood ratios: :mod:`referee.turn.likelihood`);
a club player reads odds.  Pure.
"""
from __future__ import annotations

import math

__all__ = ["apart", "odds_words"]


def odds_words(nats: float) -> str:
    """A likelihood ratio of ``nats`` (at least 0) as odds: "about 4.1 to 1", "about 67 to 1"."""
    ratio = math.exp(min(max(nats, 0.0), 50.0))
    n = f"{ratio:.1f}" if ratio < 10 else f"{ratio:,.0f}" if ratio < 1e6 else "a million"
    return f"about {n} to 1"


def apart(nats: float, other: str) -> str:
    """How surely a reading tells the move's board from ``other`` (``nats`` in its favour): "told
    apart only at about 2.2 to 1", or "``other`` fits better, about 2.5 to 1" when that is the likelier."""
    return f"told apart only at {odds_words(nats)}" if nats >= 0 else f"{other} fits better, {odds_words(-nats)}"
