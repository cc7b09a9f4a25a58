"""The table screen shows the tournament clock beside each player's pips (and nothing without one)."""
from __future__ import annotations

import pygame

from hardware.screen import render
from referee.view import TableView


def test_the_clock_is_drawn_only_when_given() -> None:
    pygame.font.init()
    view = TableView(state="moving", turn="dark", dice=(3, 1), match_length=5)
    plain = pygame.image.tobytes(render(view), "RGB")
    assert pygame.image.tobytes(render(view, clock=None), "RGB") == plain
    with_clock = render(view, clock=("9:45", "10:00"))
    assert pygame.image.tobytes(with_clock, "RGB") != plain
    other = render(view, clock=("0:05", "10:00"))
    assert pygame.image.tobytes(other, "RGB") != pygame.image.tobytes(with_clock, "RGB")
