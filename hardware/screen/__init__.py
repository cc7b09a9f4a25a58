"""The table screen: draw a :class:`~referee.view.TableView` onto a pygame Surface.

:func:`draw` is pure (a surface and a view in, pixels out; no display needed) and
returns the :class:`Layout` it drew with, so tests can look at named regions.
:func:`layout` computes the same regions for any screen size.  The window /
KMS runner is :mod:`hardware.runner`.  One module per part: :mod:`.theme` (colours),
:mod:`.layout` (regions), :mod:`.text` (fonts), :mod:`.board` (board, dice, cube),
:mod:`.panel` (score bar, players, last plays), :mod:`.banner` (state banner, choices),
:mod:`.chouette` (a chouette's box, captain, members' cubes and scores).

What is where (1280x720 shown; everything scales with the height)::

    +------------------------------------------------------------+
    | score bar: names, score, match length, Crawford, game no.  |
    +--------------------------------------------+---------------+
    |  13 .. 18  | bar |  19 .. 24   | off       | top player    |
    |            |     |             |           | dice   cube   |
    |  12 ..  7  | bar |   6 ..  1   | off       | bottom player |
    |                                            | last plays    |
    |                                            | (a chouette:  |
    |                                            |  its team)    |
    +--------------------------------------------+---------------+
    | state banner: title, message, choices (colour by state)    |
    +------------------------------------------------------------+

The board is drawn from the ``bottom`` colour's side (its home board bottom right).
"""
from __future__ import annotations

import os
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from ._pygame import pygame  # noqa: E402  (without pkg_resources: 6-10 MB less)

from referee.view import TableView  # noqa: E402

from .banner import ACTION_LABELS, JOURNAL_PAUSED, MAX_CHOICES_SHOWN, draw_banner, shown_choices, state_title  # noqa: E402
from .board import draw_board, draw_cube, draw_dice  # noqa: E402
from .chouette import draw_team, team_rows  # noqa: E402
from .layout import Layout, layout  # noqa: E402
from .panel import draw_players, draw_plays, draw_score  # noqa: E402
from .theme import DEFAULT_THEME, RGB, Theme  # noqa: E402

__all__ = ["ACTION_LABELS", "DEFAULT_THEME", "JOURNAL_PAUSED", "MAX_CHOICES_SHOWN", "RGB", "Layout", "Theme", "draw",
           "layout", "render", "shown_choices", "state_title",
           "team_rows"]


def draw(surface: pygame.Surface, view: TableView, *, theme: Theme = DEFAULT_THEME,
         bottom: str = "dark", clock: Optional[tuple[str, str]] = None, highlight: Optional[int] = None) -> Layout:
    """Draw ``view`` over the whole ``surface``; returns the layout used.  ``clock``: the
    tournament clock's (dark, light) reserves as text ("9:45"), shown beside each player's pips;
    ``highlight``: the index of the choice the buttons' "next" has stepped to
    (``hardware.chooser``), if any."""
    lay = layout(surface.get_size(), bottom, chouette=view.chouette is not None)
    surface.fill(theme.background)
    draw_score(surface, lay, view, theme)
    draw_board(surface, lay, view, theme)
    draw_players(surface, lay, view, theme, clock)
    draw_dice(surface, lay, view, theme)
    draw_cube(surface, lay, view, theme)
    draw_plays(surface, lay, view, theme, above=draw_team(surface, lay, view, theme))
    draw_banner(surface, lay, view, theme, highlight)
    return lay


def render(view: TableView, size: tuple[int, int] = (1280, 720), **kw: object) -> pygame.Surface:
    """A new off-screen surface with ``view`` drawn on it (no display needed)."""
    surf = pygame.Surface(size)
    draw(surf, view, **kw)  # type: ignore[arg-type]
    return surf
