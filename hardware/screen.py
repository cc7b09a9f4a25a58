"""The table screen: draw a :class:`~referee.view.TableView` onto a pygame Surface.

:func:`draw` is pure (a surface and a view in, pixels out; no display needed) and
returns the :class:`Layout` it drew with, so tests can look at named regions.
:func:`layout` computes the same regions for any screen size.  The window /
KMS runner is :mod:`hardware.runner`.

What is where (1280x720 shown; everything scales with the height)::

    +------------------------------------------------------------+
    | score bar: names, score, match length, Crawford, game no.  |
    +--------------------------------------------+---------------+
    |  13 .. 18  | bar |  19 .. 24   | off       | top player    |
    |            |     |             |           | dice   cube   |
    |  12 ..  7  | bar |   6 ..  1   | off       | bottom player |
    |                                            | last plays    |
    +--------------------------------------------+---------------+
    | state banner: title, message, choices (colour by state)    |
    +------------------------------------------------------------+

The board is drawn from the ``bottom`` colour's side (its home board bottom right).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from referee.colour import COLOURS, Colour, other  # noqa: E402
from referee.view import TableView  # noqa: E402

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """The screen's colours (the checker colours come from ``[players]`` in the config)."""

    dark_checker: RGB = (40, 36, 34)
    light_checker: RGB = (236, 226, 204)
    background: RGB = (18, 22, 28)
    frame: RGB = (92, 58, 30)
    felt: RGB = (28, 96, 60)
    point_a: RGB = (150, 40, 36)
    point_b: RGB = (214, 190, 140)
    tray: RGB = (60, 38, 20)
    text: RGB = (240, 240, 240)
    dim_text: RGB = (170, 175, 185)
    panel: RGB = (32, 38, 48)
    turn_accent: RGB = (250, 200, 40)
    die_pip: RGB = (20, 20, 20)
    cube_face: RGB = (250, 250, 245)
    cube_text: RGB = (20, 20, 20)
    offer_accent: RGB = (190, 90, 255)
    banners: dict[str, RGB] = field(default_factory=lambda: {
        "opening_roll": (30, 70, 140), "waiting_for_roll": (30, 70, 140), "moving": (30, 70, 140),
        "reroll": (205, 135, 0), "illegal_move": (185, 28, 28),
        "double_offered": (110, 50, 160), "resignation_offered": (110, 50, 160),
        "game_over": (30, 125, 60), "match_over": (30, 125, 60),
        "waiting_for_board": (95, 95, 100), "director": (215, 95, 20),
    })

    def checker(self, colour: str) -> RGB:
        """The fill colour of a ``colour`` checker."""
        return self.dark_checker if colour == "dark" else self.light_checker

    def outline(self, colour: str) -> RGB:
        """The outline colour drawn round a ``colour`` checker."""
        return (200, 200, 200) if colour == "dark" else (60, 60, 60)


DEFAULT_THEME = Theme()

ACTION_LABELS: dict[str, str] = {
    "double": "Double", "take": "Take", "pass": "Pass", "beaver": "Beaver",
    "accept_move": "Accept as played", "demand_legal_move": "Demand a legal move",
    "resign_single": "Resign single", "resign_gammon": "Resign gammon", "resign_backgammon": "Resign backgammon",
    "accept_resignation": "Accept resignation", "reject_resignation": "Reject resignation",
    "call_director": "Call the director", "confirm": "Confirm", "roll": "Roll",
}


@dataclass(frozen=True)
class Layout:
    """Named screen regions for one size and orientation (all ``pygame.Rect``-compatible tuples)."""

    size: tuple[int, int]
    bottom: str
    score_bar: pygame.Rect
    board: pygame.Rect  # the playing surface including bar and trays
    panel: pygame.Rect
    banner: pygame.Rect
    point_w: int
    row_h: int
    checker_d: int
    bar: pygame.Rect
    trays: dict[str, pygame.Rect]  # colour -> its bear-off tray
    bar_halves: dict[str, pygame.Rect]  # colour -> where its checkers on the bar sit
    players: dict[str, pygame.Rect]  # colour -> its name/pips box in the panel
    dice: pygame.Rect
    cube_slots: dict[Optional[str], pygame.Rect]  # owner (None = middle) -> cube rect
    plays: pygame.Rect

    def point_rect(self, point: int) -> pygame.Rect:
        """The triangle's bounding box for table point 1..24."""
        slot = point if self.bottom == "dark" else 25 - point
        top = slot >= 13
        idx = slot - 13 if top else 12 - slot  # 0..11 from the left edge
        x = self.board.x + idx * self.point_w + (self.point_w if idx >= 6 else 0)
        y = self.board.y if top else self.board.bottom - self.row_h
        return pygame.Rect(x, y, self.point_w, self.row_h)

    def point_top(self, point: int) -> bool:
        """True when ``point`` is drawn in the screen's top row."""
        slot = point if self.bottom == "dark" else 25 - point
        return slot >= 13

    def cube_rect(self, owner: Optional[str]) -> pygame.Rect:
        """Where the cube is drawn: on the side of ``owner``, or in the middle when nobody owns it."""
        return self.cube_slots[owner]


def layout(size: tuple[int, int], bottom: str = "dark") -> Layout:
    """The regions for a screen of ``size`` with ``bottom``'s home board at the bottom right."""
    w, h = size
    pad = max(4, h // 90)
    score_h = h * 9 // 100
    banner_h = h * 18 // 100
    score_bar = pygame.Rect(0, 0, w, score_h)
    banner = pygame.Rect(0, h - banner_h, w, banner_h)
    mid_y, mid_h = score_h + pad, h - score_h - banner_h - 2 * pad
    panel_w = max(w * 27 // 100, 180)
    board_w = w - panel_w - 3 * pad
    point_w = board_w // 14  # 12 points, the bar and the trays
    num_h = max(12, h * 35 // 1000)  # the point numbers above and below the board
    board = pygame.Rect(pad, mid_y + num_h, point_w * 14, mid_h - 2 * num_h)
    row_h = board.h * 42 // 100
    checker_d = max(6, min(point_w - 2, row_h // 5))
    bar = pygame.Rect(board.x + 6 * point_w, board.y, point_w, board.h)
    tray_x = board.x + 13 * point_w
    top_tray = pygame.Rect(tray_x, board.y, point_w, board.h // 2)
    bottom_tray = pygame.Rect(tray_x, board.centery, point_w, board.h - board.h // 2)
    top_player = other(bottom)
    trays = {bottom: bottom_tray, top_player: top_tray}
    top_bar = pygame.Rect(bar.x, bar.y, bar.w, bar.h // 2)
    bottom_bar = pygame.Rect(bar.x, bar.centery, bar.w, bar.h - bar.h // 2)
    bar_halves = {bottom: top_bar, top_player: bottom_bar}  # a checker on the bar faces the home it enters
    panel = pygame.Rect(board.right + 2 * pad, mid_y, w - board.right - 3 * pad, mid_h)
    box_h = mid_h * 20 // 100
    players = {top_player: pygame.Rect(panel.x, panel.y, panel.w, box_h),
               bottom: pygame.Rect(panel.x, panel.y + mid_h * 50 // 100, panel.w, box_h)}
    mid_zone = pygame.Rect(panel.x, players[top_player].bottom + pad, panel.w,
                           players[bottom].y - players[top_player].bottom - 2 * pad)
    dice = pygame.Rect(mid_zone.x, mid_zone.y, mid_zone.w * 62 // 100, mid_zone.h)
    m = max(3, box_h // 12)
    cube_size = min(box_h - 2 * m, mid_zone.h)
    # an owned cube sits at the right end of its owner's box; in the middle, between the boxes
    cube_slots: dict[Optional[str], pygame.Rect] = {
        None: pygame.Rect(mid_zone.right - cube_size - m, mid_zone.centery - cube_size // 2, cube_size, cube_size),
        **{c: pygame.Rect(players[c].right - cube_size - m, players[c].y + m, cube_size, cube_size)
           for c in (top_player, bottom)},
    }
    plays = pygame.Rect(panel.x, players[bottom].bottom + pad, panel.w, panel.bottom - players[bottom].bottom - pad)
    return Layout((w, h), bottom, score_bar, board, panel, banner, point_w, row_h, checker_d, bar, trays,
                  bar_halves, players, dice, cube_slots, plays)


# --------------------------------------------------------------------------- text


@lru_cache(maxsize=64)
def _font(px: int, bold: bool = False) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, max(8, int(px * 1.45)))  # the default font's cap height is ~0.7 of its size
    return f  # the default font (freesansbold) is bold already


def _fit(text: str, px: int, max_w: int, bold: bool = False, min_px: int = 10) -> tuple[pygame.font.Font, str]:
    """A font (shrunk down to ``min_px``) and the text (ellipsised if need be) that fit ``max_w``."""
    while px > min_px and _font(px, bold).size(text)[0] > max_w:
        px -= max(1, px // 10)
    f = _font(px, bold)
    if f.size(text)[0] <= max_w:
        return f, text
    while text and f.size(text + "...")[0] > max_w:
        text = text[:-1]
    return f, text + "..."


def _text(surf: pygame.Surface, text: str, px: int, colour: RGB, rect: pygame.Rect, *, align: str = "left",
          bold: bool = False) -> pygame.Rect:
    f, t = _fit(text, px, rect.w, bold)
    img = f.render(t, True, colour)
    r = img.get_rect()
    r.centery = rect.centery
    if align == "left":
        r.left = rect.left
    elif align == "right":
        r.right = rect.right
    else:
        r.centerx = rect.centerx
    surf.blit(img, r)
    return r


# --------------------------------------------------------------------------- parts


def _draw_checker(surf: pygame.Surface, theme: Theme, colour: str, centre: tuple[int, int], d: int,
                  label: str = "") -> None:
    r = d // 2
    pygame.draw.circle(surf, theme.checker(colour), centre, r)
    pygame.draw.circle(surf, theme.outline(colour), centre, r, max(1, d // 16))
    if label:
        tc = theme.light_checker if colour == "dark" else theme.dark_checker
        f = _font(max(8, d * 45 // 100), True)
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
        _draw_checker(surf, theme, colour, (rect.centerx, cy), d, label)


def _draw_board(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    b = lay.board
    pygame.draw.rect(surf, theme.frame, b.inflate(lay.point_w // 5, lay.point_w // 5))
    pygame.draw.rect(surf, theme.felt, b)
    num_px = max(9, min(lay.point_w * 30 // 100, (lay.panel.y + lay.panel.h - b.bottom) * 80 // 100))
    for p in range(1, 25):
        r = lay.point_rect(p)
        fill = theme.point_a if p % 2 else theme.point_b
        if lay.point_top(p):
            tri = [(r.x + 1, r.y), (r.right - 1, r.y), (r.centerx, r.bottom)]
        else:
            tri = [(r.x + 1, r.bottom), (r.right - 1, r.bottom), (r.centerx, r.y)]
        pygame.draw.polygon(surf, fill, tri)
        # point number just outside the felt, in the frame
        nr = pygame.Rect(r.x, 0, r.w, num_px)
        if lay.point_top(p):
            nr.bottom = b.y - lay.point_w // 10
        else:
            nr.top = b.bottom + lay.point_w // 10
        _text(surf, str(p), num_px * 9 // 10, theme.dim_text, nr, align="centre")
        for col, counts in (("dark", view.dark), ("light", view.light)):
            if counts[p - 1]:
                _stack(surf, theme, col, counts[p - 1], r, lay.checker_d, from_top=lay.point_top(p))
    pygame.draw.rect(surf, theme.frame, lay.bar)
    for tray in lay.trays.values():
        pygame.draw.rect(surf, theme.tray, tray.inflate(-2, -2))
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
            _text(surf, str(off), lay.point_w * 35 // 100, theme.text, lbl, align="centre", bold=True)


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
        _text(surf, "?", rect.h * 6 // 10, pip, rect, align="centre", bold=True)
        return
    for fx, fy in _PIPS[value]:
        pygame.draw.circle(surf, pip, (rect.x + int(fx * rect.w), rect.y + int(fy * rect.h)), max(2, rect.w // 11))


def _draw_dice(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
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


def _draw_cube(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    """The cube at its owner's box (or in the middle); a pending double shows the offered value in the middle."""
    offered = view.cube_offered_by is not None
    rect = lay.cube_rect(None if offered else view.cube_owner)
    if view.crawford:
        pygame.draw.rect(surf, theme.dim_text, rect, max(2, rect.w // 20), border_radius=rect.w // 8)
        _text(surf, "Crawford", rect.h * 22 // 100, theme.text, rect.inflate(-6, 0), align="centre", bold=True)
        return
    pygame.draw.rect(surf, theme.cube_face, rect, border_radius=rect.w // 8)
    value = view.cube_offered_value if offered else 64 if view.cube_value == 1 else view.cube_value
    _text(surf, str(value), rect.h * 42 // 100, theme.cube_text, rect.inflate(-rect.w // 8, 0),
          align="centre", bold=True)
    if offered:
        pygame.draw.rect(surf, theme.offer_accent, rect.inflate(8, 8), max(3, rect.w // 14), border_radius=rect.w // 6)
        _text(surf, "double?", rect.h * 30 // 100, theme.offer_accent, lay.dice, align="centre", bold=True)


def _draw_players(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme,
                  clock: Optional[tuple[str, str]] = None) -> None:
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
        _draw_checker(surf, theme, colour, (inner.x + d // 2, inner.y + inner.h // 4), d)
        name_r = pygame.Rect(inner.x + d + inner.h // 8, inner.y, inner.w // 2 - d, inner.h // 2)
        _text(surf, view.names[i], inner.h * 30 // 100, theme.text, name_r, bold=True)
        pips_r = pygame.Rect(inner.x, inner.y + inner.h // 2, inner.w // 2, inner.h // 2)
        _text(surf, f"pips {pips[i]}", inner.h * 26 // 100, theme.dim_text, pips_r)
        if clock is not None:  # the tournament clock: this player's reserve left
            clock_r = pygame.Rect(inner.x + inner.w * 30 // 100, inner.y + inner.h // 2, inner.w * 30 // 100,
                                  inner.h // 2)
            _text(surf, clock[i], inner.h * 30 // 100, theme.turn_accent if on_turn else theme.dim_text, clock_r,
                  bold=on_turn)
        if not view.money:
            cube = lay.cube_rect(colour)
            score_r = pygame.Rect(inner.x, inner.y, cube.x - inner.x - inner.h // 6, inner.h)
            _text(surf, f"{view.score[i]}", inner.h * 50 // 100, theme.text, score_r, align="right", bold=True)


def _draw_score(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    r = lay.score_bar
    pygame.draw.rect(surf, theme.panel, r)
    px = r.h * 42 // 100
    left = r.inflate(-r.h // 2, 0)
    if view.money:
        score = f"{view.names[0]} v {view.names[1]}   money game"
    else:
        score = f"{view.names[0]} {view.score[0]}  -  {view.score[1]} {view.names[1]}   match to {view.match_length}"
    half = pygame.Rect(left.x, left.y, left.w * 70 // 100, left.h)
    _text(surf, score, px, theme.text, half, bold=True)
    tags = [f"game {view.game}"]
    if view.crawford:
        tags.insert(0, "CRAWFORD")
    right = pygame.Rect(left.x + left.w * 70 // 100, left.y, left.w * 30 // 100, left.h)
    _text(surf, "   ".join(tags), px, theme.turn_accent if view.crawford else theme.dim_text, right, align="right",
          bold=view.crawford)


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


def _draw_banner(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme,
                 highlight: Optional[int] = None) -> None:
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
    _text(surf, title, title_h * 80 // 100, theme.text,
          pygame.Rect(title_r.x, title_r.y, title_r.w - choices_w, title_r.h), bold=True)
    msg_r = pygame.Rect(inner.x, inner.y + title_h, inner.w, inner.h - title_h)
    if view.message:
        _text(surf, view.message, msg_r.h * 55 // 100, theme.text, msg_r)
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
            _text(surf, ACTION_LABELS.get(c, c), cr.h * 42 // 100, theme.banners[view.state],
                  cr.inflate(-cr.h // 3, 0), align="centre", bold=True)


def _draw_plays(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> None:
    r = lay.plays
    if not view.last_plays or r.h < 20:
        return
    line_h = max(14, min(r.h // 5, lay.size[1] // 26))
    rows = max(1, r.h // line_h - 1)
    _text(surf, "last plays", line_h * 60 // 100, theme.dim_text, pygame.Rect(r.x, r.y, r.w, line_h))
    for i, play in enumerate(view.last_plays[-rows:]):
        _text(surf, play, line_h * 62 // 100, theme.text, pygame.Rect(r.x, r.y + (i + 1) * line_h, r.w, line_h))


def draw(surface: pygame.Surface, view: TableView, *, theme: Theme = DEFAULT_THEME,
         bottom: str = "dark", clock: Optional[tuple[str, str]] = None, highlight: Optional[int] = None) -> Layout:
    """Draw ``view`` over the whole ``surface``; returns the layout used.  ``clock``: the
    tournament clock's (dark, light) reserves as text ("9:45"), shown beside each player's pips;
    ``highlight``: the index of the choice the buttons' "next" has stepped to
    (``hardware.chooser``), if any."""
    lay = layout(surface.get_size(), bottom)
    surface.fill(theme.background)
    _draw_score(surface, lay, view, theme)
    _draw_board(surface, lay, view, theme)
    _draw_players(surface, lay, view, theme, clock)
    _draw_dice(surface, lay, view, theme)
    _draw_cube(surface, lay, view, theme)
    _draw_plays(surface, lay, view, theme)
    _draw_banner(surface, lay, view, theme, highlight)
    return lay


def render(view: TableView, size: tuple[int, int] = (1280, 720), **kw: object) -> pygame.Surface:
    """A new off-screen surface with ``view`` drawn on it (no display needed)."""
    surf = pygame.Surface(size)
    draw(surf, view, **kw)  # type: ignore[arg-type]
    return surf
