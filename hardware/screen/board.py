"""The board, the checkers, the dice and the cube, drawn on the table screen."""
from __future__ import annotations

import os
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from referee.colour import COLOURS, Colour  # noqa: E402
from referee.view import TableView  # noqa: E402

from .layout import Layout  # noqa: E402
from .text import draw_text, font  # noqa: E402
from .theme import Theme  # noqa: E402


def draw_checker(surf: pygame.Surface, theme: Theme, colour: str, centre: tuple[int, int], d: int,
                 label: str = "") -> None:
    """One ``colour`` checker of diameter ``d`` at ``centre``, with an optional ``label`` (a count)."""
    r = d // 2
    pygame.draw.circle(surf, theme.checker(colour), centre, r)
    pygame.draw.circle(surf, theme.outline(colour), centre, r, max(1, d // 16))
    if label:
        tc = theme.light_checker if colour == "dark" else theme.dark_checker
        f = font(max(8, d * 45 // 100), True)
        img = f.render(label, True, tc)
        surf.blit(img, img.get_rect(center=centre))


def _stack(surf: pygame.Surface, theme: Theme, colour: str, count: int, rect: pygame.Rect, d: int,
           from_top: bool) -> None:
    """Up to five checkers from one edge of ``rect``; the fifth carries the count when there are more."""
    shown = min(count, 5)
    step = min(d, (rect.h - 2) // max(shown, 1)) if shown else d
    for i in range(shown):
        cy = rect.y + d // 2 + i * step if from_top else rect.bottom - d // 2 - i * step
        label = str(count) if count > 5 and i == shown - 1 else ""
        draw_checker(surf, theme, colour, (rect.centerx, cy), d, label)


#: the felt drawn once per layout and theme (:func:`_felt`); a table has one screen
_FELT: dict[tuple[object, ...], pygame.Surface] = {}


def _frame_rect(lay: Layout) -> pygame.Rect:
    """The board's wooden frame: the board and a tenth of a point's width all round."""
    return lay.board.inflate(lay.point_w // 5, lay.point_w // 5)


def _felt_rect(lay: Layout) -> pygame.Rect:
    """What the points cover: the board and the row below it (the lower points' bases)."""
    return pygame.Rect(lay.board.x, lay.board.y, lay.board.w, lay.board.h + 1)


def _draw_felt(surf: pygame.Surface, lay: Layout, theme: Theme) -> None:
    """The felt, its 24 points, the bar and the bear-off trays (what a frame's checkers lie on),
    on the frame."""
    b = lay.board
    pygame.draw.rect(surf, theme.frame, _frame_rect(lay))
    pygame.draw.rect(surf, theme.felt, b)
    for p in range(1, 25):
        r = lay.point_rect(p)
        fill = theme.point_a if p % 2 else theme.point_b
        if lay.point_top(p):
            tri = [(r.x + 1, r.y), (r.right - 1, r.y), (r.centerx, r.bottom)]
        else:
            tri = [(r.x + 1, r.bottom), (r.right - 1, r.bottom), (r.centerx, r.y)]
        pygame.draw.polygon(surf, fill, tri)
    pygame.draw.rect(surf, theme.frame, lay.bar)
    for tray in lay.trays.values():
        pygame.draw.rect(surf, theme.tray, tray.inflate(-2, -2))


def _felt(lay: Layout, theme: Theme) -> pygame.Surface:
    """:func:`_draw_felt` on an 8-bit surface of the screen's size, drawn once for ``lay`` and
    ``theme``: its five colours are in the palette exactly, so blitting its frame's region gives
    the pixels drawing it gives (0.3 ms a frame instead of 1.5-5; 0.9 MB at 1280x720)."""
    colours = [theme.frame, theme.felt, theme.point_a, theme.point_b, theme.tray]
    key = (lay.size, lay.bottom, tuple(lay.board), lay.point_w, lay.row_h, tuple(lay.bar),
           tuple(tuple(t) for t in lay.trays.values()), tuple(tuple(c) for c in colours))
    felt = _FELT.get(key)
    if felt is None:
        felt = pygame.Surface(lay.size, 0, 8)
        felt.set_palette([tuple(c) for c in colours] + [(0, 0, 0)] * (256 - len(colours)))
        _draw_felt(felt, lay, theme)
        _FELT.clear()
        _FELT[key] = felt
    return felt


def draw_board(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme, *, cached: bool = True) -> None:
    """The board: points and their numbers, the checkers on them, the bar and the bear-off trays.
    The felt under the checkers (points, bar, trays) is blitted from :func:`_felt` (``cached``),
    or drawn: the same pixels, since no checker reaches beyond its own point."""
    b = lay.board
    if cached and _frame_rect(lay).contains(_felt_rect(lay)):  # (the frame covers the points' bases: any real screen)
        surf.blit(_felt(lay, theme), _frame_rect(lay), _frame_rect(lay))
    else:
        _draw_felt(surf, lay, theme)
    num_px = max(9, min(lay.point_w * 30 // 100, (lay.panel.y + lay.panel.h - b.bottom) * 80 // 100))
    for p in range(1, 25):
        r = lay.point_rect(p)
        # point number just outside the felt, in the frame
        nr = pygame.Rect(r.x, 0, r.w, num_px)
        if lay.point_top(p):
            nr.bottom = b.y - lay.point_w // 10
        else:
            nr.top = b.bottom + lay.point_w // 10
        draw_text(surf, str(p), num_px * 9 // 10, theme.dim_text, nr, align="centre")
        for col, counts in (("dark", view.dark), ("light", view.light)):
            if counts[p - 1]:
                _stack(surf, theme, col, counts[p - 1], r, lay.checker_d, from_top=lay.point_top(p))
    for i, colour in enumerate(COLOURS):
        n = view.bar[i]
        if n:
            half = lay.bar_halves[colour]
            toward_centre = half.y < lay.bar.centery  # top half stacks down to the centre
            rect = half.inflate(0, -lay.checker_d // 2)
            _stack(surf, theme, colour, n, rect, lay.checker_d, from_top=not toward_centre)
        off = view.off[i]
        if off:
            tray = lay.trays[colour].inflate(-4, -4)
            slab_h = max(3, min(tray.h // 16, lay.checker_d // 3))
            is_top = tray.y < lay.board.centery
            for k in range(off):
                y = tray.y + k * slab_h if is_top else tray.bottom - (k + 1) * slab_h
                slab = pygame.Rect(tray.x + 2, y, tray.w - 4, slab_h - 1)
                pygame.draw.rect(surf, theme.checker(colour), slab)
                pygame.draw.rect(surf, theme.outline(colour), slab, 1)
            lbl = pygame.Rect(tray.x, tray.bottom - tray.h // 8 if is_top else tray.y, tray.w, tray.h // 8)
            draw_text(surf, str(off), lay.point_w * 35 // 100, theme.text, lbl, align="centre", bold=True)


_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),), 2: ((0.25, 0.25), (0.75, 0.75)), 3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def _draw_die(surf: pygame.Surface, theme: Theme, colour: str, value: Optional[int], rect: pygame.Rect) -> None:
    face = theme.checker(colour)
    pip = theme.light_checker if colour == "dark" else theme.die_pip
    pygame.draw.rect(surf, face, rect, border_radius=rect.w // 6)
    pygame.draw.rect(surf, theme.outline(colour), rect, max(1, rect.w // 25), border_radius=rect.w // 6)
    if value is None:
        draw_text(surf, "?", rect.h * 6 // 10, pip, rect, align="centre", bold=True)
        return
    for fx, fy in _PIPS[value]:
        pygame.draw.circle(surf, pip, (rect.x + int(fx * rect.w), rect.y + int(fy * rect.h)), max(2, rect.w // 11))


def draw_dice(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    """The dice showing, in the dice region: the opening roll's in each player's colour, else the mover's."""
    if not view.dice:
        return
    size = min(lay.dice.h * 80 // 100, lay.dice.w * 42 // 100)
    gap = size // 5
    total = len(view.dice) * size + (len(view.dice) - 1) * gap
    x = lay.dice.centerx - total // 2
    y = lay.dice.centery - size // 2
    for i, value in enumerate(view.dice):
        if view.state == "opening_roll":
            colour: str = Colour.from_number(i)
            if value is None:
                continue
        else:
            colour = view.turn or "dark"
        _draw_die(surf, theme, colour, value, pygame.Rect(x + i * (size + gap), y, size, size))


def draw_cube(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    """The cube at its owner's box (or in the middle); a pending double shows the offered value in the middle."""
    offered = view.cube_offered_by is not None
    rect = lay.cube_rect(None if offered else view.cube_owner)
    if view.crawford:
        pygame.draw.rect(surf, theme.dim_text, rect, max(2, rect.w // 20), border_radius=rect.w // 8)
        draw_text(surf, "Crawford", rect.h * 22 // 100, theme.text, rect.inflate(-6, 0), align="centre", bold=True)
        return
    pygame.draw.rect(surf, theme.cube_face, rect, border_radius=rect.w // 8)
    value = view.cube_offered_value if offered else 64 if view.cube_value == 1 else view.cube_value
    draw_text(surf, str(value), rect.h * 42 // 100, theme.cube_text, rect.inflate(-rect.w // 8, 0),
          align="centre", bold=True)
    if offered:
        pygame.draw.rect(surf, theme.offer_accent, rect.inflate(8, 8), max(3, rect.w // 14), border_radius=rect.w // 6)
        draw_text(surf, "double?", rect.h * 30 // 100, theme.offer_accent, lay.dice, align="centre", bold=True)
