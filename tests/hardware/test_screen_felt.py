"""The board's felt (points, bar, trays) is drawn once per layout and blitted (issue 19): every
frame is the one drawing it gives, pixel for pixel, and the cache holds one 8-bit surface."""
from __future__ import annotations

import random

import numpy as np
import pygame
import pytest

from hardware.samples import sample_views
from hardware.screen import DEFAULT_THEME, board
from hardware.screen.layout import layout
from referee.settings import Settings
from referee.table import streams
from referee.turn.referee import Referee


def _views() -> list:
    views = [v for _, v in sample_views()]
    ref = Referee(Settings(match_to=3))
    for e in streams.random_game(random.Random(5)).events:  # hits (the bar) and bearing off (the trays)
        ref.handle(e)
        views.append(ref.view())
    return views[::3]


VIEWS = _views()


@pytest.mark.parametrize("size,bottom", [((1280, 720), "dark"), ((800, 480), "light"), ((1920, 1080), "dark"),
                                         ((150, 100), "dark")])
def test_the_blitted_felt_is_the_drawn_felt(size: tuple[int, int], bottom: str) -> None:
    lay = layout(size, bottom)
    fast, slow = pygame.Surface(size), pygame.Surface(size)
    assert any(any(v.bar) for v in VIEWS) and any(any(v.off) for v in VIEWS)
    for view in VIEWS:
        for surf, cached in ((fast, True), (slow, False)):
            surf.fill((1, 2, 3))
            board.draw_board(surf, lay, view, DEFAULT_THEME, cached=cached)
        assert np.array_equal(pygame.surfarray.array3d(fast), pygame.surfarray.array3d(slow))


def test_one_felt_is_kept_and_drawn_again_only_for_a_new_layout() -> None:
    board._FELT.clear()
    a = board._felt(layout((1280, 720)), DEFAULT_THEME)
    assert board._felt(layout((1280, 720)), DEFAULT_THEME) is a and a.get_bitsize() == 8
    b = board._felt(layout((1280, 720), "light"), DEFAULT_THEME)
    assert b is not a and len(board._FELT) == 1
