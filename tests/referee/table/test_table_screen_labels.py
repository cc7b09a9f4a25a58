"""The table screen keeps few drawn labels (issue 19): enough that a frame drawn again draws none
anew, few enough that a match's new labels (pips, plays, messages) do not pile up (512 kept were
17-20 MB by a match's third game)."""
from __future__ import annotations

import pygame

from hardware.samples import sample_views
from hardware.screen import draw, text


def _labels_drawn_anew(surface: pygame.Surface, view: object) -> int:
    before = text._rendered.cache_info().misses
    draw(surface, view)  # type: ignore[arg-type]
    return text._rendered.cache_info().misses - before


def test_a_frame_drawn_again_draws_no_label_anew_even_the_fullest() -> None:
    surface = pygame.Surface((1280, 720))
    views = dict(sample_views())
    fullest = 0
    for name in ("chouette", "opening_roll", "illegal_move", "game_over"):
        text._rendered.cache_clear()
        drawn = _labels_drawn_anew(surface, views[name])
        assert drawn > 0, name
        assert _labels_drawn_anew(surface, views[name]) == 0, name  # every label found again
        fullest = max(fullest, drawn)
    # two frames' worth (the frame before and the frame now both fit; a chouette of five shows
    # about 60), not a match's worth
    assert 2 * fullest <= text.KEPT_LABELS <= 4 * fullest


def test_new_labels_do_not_pile_up() -> None:
    surface = pygame.Surface((1280, 720))
    view = dict(sample_views())["illegal_move"]
    text._rendered.cache_clear()
    for n in range(2 * text.KEPT_LABELS):  # every frame a new message
        draw(surface, view.replace(message=f"message {n}: " + "x" * (n % 50)))
        assert text._rendered.cache_info().currsize <= text.KEPT_LABELS
    assert text._rendered.cache_info().currsize == text.KEPT_LABELS
    assert _labels_drawn_anew(surface, view.replace(message="message 0: ")) == 1  # the old message went
