"""The state banner: the headline for the state, the referee's message and the choices to answer."""
from __future__ import annotations

import os
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from referee.view import TableView  # noqa: E402

from .chouette import double_title  # noqa: E402
from .layout import Layout  # noqa: E402
from .text import draw_text  # noqa: E402
from .theme import Theme  # noqa: E402

ACTION_LABELS: dict[str, str] = {
    "double": "Double", "take": "Take", "pass": "Pass", "beaver": "Beaver",
    "accept_move": "Accept as played", "demand_legal_move": "Demand a legal move",
    "resign_single": "Resign single", "resign_gammon": "Resign gammon", "resign_backgammon": "Resign backgammon",
    "accept_resignation": "Accept resignation", "reject_resignation": "Reject resignation",
    "call_director": "Call the director", "confirm": "Confirm", "roll": "Roll",
}

# the start of the table core's message while the journal cannot be written (referee.table.process.PAUSED)
JOURNAL_PAUSED = "the journal cannot be written"


def state_title(view: TableView) -> str:
    """The banner's headline for the view's state."""
    who = view.name(view.turn) if view.turn else ""
    s = view.state
    if view.message.startswith(JOURNAL_PAUSED):
        return "Paused: nothing is recorded"
    if s == "opening_roll":
        return "Opening roll"
    if s == "waiting_for_roll":
        return f"{who} to roll" if who else "Waiting for the roll"
    if s == "moving":
        dice = "-".join(str(d) for d in view.dice if d is not None)
        return f"{who} to move {dice}".strip()
    if s == "reroll":
        return "Re-roll"
    if s == "illegal_move":
        return "Illegal move"
    if s == "double_offered":
        chouette = double_title(view)
        if chouette:
            return chouette
        by = view.name(view.cube_offered_by) if view.cube_offered_by else "Double"
        return f"{by} doubles to {view.cube_offered_value}" if view.cube_offered_by else "Double offered"
    if s == "resignation_offered":
        return "Resignation offered"
    if s == "game_over":
        return "Game over"
    if s == "match_over":
        return "Match over"
    if s == "waiting_for_board":
        return "Waiting for the board"
    return "Director called"


#: at most this many choices side by side in the banner; more scroll with the highlight
MAX_CHOICES_SHOWN = 5


def shown_choices(count: int, highlight: Optional[int], limit: int = MAX_CHOICES_SHOWN) -> range:
    """Which of ``count`` choices the banner shows: all when they fit, else ``limit`` of them
    around the highlighted one (the first ones when nothing is highlighted)."""
    if count <= limit:
        return range(count)
    first = 0 if highlight is None else min(max(0, highlight - limit // 2), count - limit)
    return range(first, first + limit)


def draw_banner(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme,
                highlight: Optional[int] = None) -> None:
    """The state banner: its headline, the referee's message and the choices (``highlight`` lit)."""
    r = lay.banner
    pygame.draw.rect(surf, theme.banners[view.state], r)
    inner = r.inflate(-r.h // 4, -r.h // 8)
    title_h = inner.h * 48 // 100
    title_r = pygame.Rect(inner.x, inner.y, inner.w, title_h)
    choices_w = inner.w * 45 // 100 if view.choices else 0
    title = state_title(view)
    window = shown_choices(len(view.choices), highlight)
    if len(window) < len(view.choices):  # say where in the list the players are
        title += (f"  ({(highlight or 0) + 1}/{len(view.choices)})" if highlight is not None
                  else f"  ({len(view.choices)} choices)")
    draw_text(surf, title, title_h * 80 // 100, theme.text,
          pygame.Rect(title_r.x, title_r.y, title_r.w - choices_w, title_r.h), bold=True)
    msg_r = pygame.Rect(inner.x, inner.y + title_h, inner.w, inner.h - title_h)
    if view.message:
        draw_text(surf, view.message, msg_r.h * 55 // 100, theme.text, msg_r)
    if view.choices:
        n = len(window)
        gap = inner.h // 10
        cw = (choices_w - (n - 1) * gap) // n
        for k, i in enumerate(window):
            c = view.choices[i]
            cr = pygame.Rect(inner.right - choices_w + k * (cw + gap), inner.y, cw, title_h)
            lit = i == highlight
            pygame.draw.rect(surf, theme.turn_accent if lit else theme.text, cr, border_radius=cr.h // 4)
            if lit:  # the highlighted choice: accent fill and a frame in the text colour
                pygame.draw.rect(surf, theme.text, cr.inflate(gap, gap), width=max(2, gap // 2),
                                 border_radius=cr.h // 4)
            draw_text(surf, ACTION_LABELS.get(c, c), cr.h * 42 // 100, theme.banners[view.state],
                  cr.inflate(-cr.h // 3, 0), align="centre", bold=True)
