"""The side panel and the score bar: each player's name, pips, clock and score (a chouette's
box and captain); the last plays."""
from __future__ import annotations

import os
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from referee.colour import COLOURS  # noqa: E402
from referee.view import TableView  # noqa: E402

from .board import draw_checker  # noqa: E402
from .chouette import player_tag  # noqa: E402
from .chouette import title as chouette_title  # noqa: E402
from .layout import Layout  # noqa: E402
from .text import draw_text  # noqa: E402
from .theme import Theme  # noqa: E402


def draw_players(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme,
                 clock: Optional[tuple[str, str]] = None) -> None:
    """Each player's box: checker, name, pips, the clock's reserve (if any) and the match score."""
    pips = view.pips
    assert pips is not None  # TableView computes them when not given
    for i, colour in enumerate(COLOURS):
        box = lay.players[colour]
        on_turn = view.turn == colour
        pygame.draw.rect(surf, theme.panel, box, border_radius=8)
        if on_turn:
            pygame.draw.rect(surf, theme.turn_accent, box, max(3, box.h // 18), border_radius=8)
        inner = box.inflate(-box.h // 5, -box.h // 6)
        d = inner.h * 45 // 100
        draw_checker(surf, theme, colour, (inner.x + d // 2, inner.y + inner.h // 4), d)
        name_r = pygame.Rect(inner.x + d + inner.h // 8, inner.y, inner.w // 2 - d, inner.h // 2)
        draw_text(surf, view.names[i], inner.h * 30 // 100, theme.text, name_r, bold=True)
        pips_r = pygame.Rect(inner.x, inner.y + inner.h // 2, inner.w // 2, inner.h // 2)
        draw_text(surf, f"pips {pips[i]}", inner.h * 26 // 100, theme.dim_text, pips_r)
        if clock is not None:  # the tournament clock: this player's reserve left
            clock_r = pygame.Rect(inner.x + inner.w * 30 // 100, inner.y + inner.h // 2, inner.w * 30 // 100,
                                  inner.h // 2)
            draw_text(surf, clock[i], inner.h * 30 // 100, theme.turn_accent if on_turn else theme.dim_text,
                      clock_r, bold=on_turn)
        if not view.money:
            cube = lay.cube_rect(colour)
            score_r = pygame.Rect(inner.x, inner.y, cube.x - inner.x - inner.h // 6, inner.h)
            draw_text(surf, f"{view.score[i]}", inner.h * 50 // 100, theme.text, score_r, align="right", bold=True)
        elif view.chouette is not None:  # the box or the captain, with their running score
            cube = lay.cube_rect(colour)
            tag_r = pygame.Rect(inner.x, inner.y, cube.x - inner.x - inner.h // 6, inner.h // 2)
            draw_text(surf, player_tag(view, colour), inner.h * 30 // 100, theme.turn_accent, tag_r, align="right",
                      bold=True)


def draw_score(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    """The score bar: the names and the score (or money game), Crawford and the game number."""
    r = lay.score_bar
    pygame.draw.rect(surf, theme.panel, r)
    px = r.h * 42 // 100
    left = r.inflate(-r.h // 2, 0)
    if view.chouette is not None:
        score = chouette_title(view)
    elif view.money:
        score = f"{view.names[0]} v {view.names[1]}   money game"
    else:
        score = f"{view.names[0]} {view.score[0]}  -  {view.score[1]} {view.names[1]}   match to {view.match_length}"
    half = pygame.Rect(left.x, left.y, left.w * 70 // 100, left.h)
    draw_text(surf, score, px, theme.text, half, bold=True)
    tags = [f"game {view.game}"]
    if view.crawford:
        tags.insert(0, "CRAWFORD")
    right = pygame.Rect(left.x + left.w * 70 // 100, left.y, left.w * 30 // 100, left.h)
    draw_text(surf, "   ".join(tags), px, theme.turn_accent if view.crawford else theme.dim_text, right,
              align="right", bold=view.crawford)


def draw_plays(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme,
               above: Optional[pygame.Rect] = None) -> None:
    """The last plays, newest last, under the players' boxes (and under ``above``, the
    chouette's table, when it is drawn there)."""
    r = lay.plays
    if above is not None:
        r = pygame.Rect(r.x, above.bottom + 4, r.w, r.bottom - above.bottom - 4)
    if not view.last_plays or r.h < 20 or (above is not None and r.h < 2 * max(14, lay.size[1] // 26)):
        return
    line_h = max(14, min(r.h // 5, lay.size[1] // 26))
    rows = max(1, r.h // line_h - 1)
    draw_text(surf, "last plays", line_h * 60 // 100, theme.dim_text, pygame.Rect(r.x, r.y, r.w, line_h))
    for i, play in enumerate(view.last_plays[-rows:]):
        draw_text(surf, play, line_h * 62 // 100, theme.text, pygame.Rect(r.x, r.y + (i + 1) * line_h, r.w, line_h))
