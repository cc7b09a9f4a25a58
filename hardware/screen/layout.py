"""Where everything is on the table screen: named regions for any size and orientation."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from referee.colour import other  # noqa: E402


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


def layout(size: tuple[int, int], bottom: str = "dark", chouette: bool = False) -> Layout:
    """The regions for a screen of ``size`` with ``bottom``'s home board at the bottom right
    (``chouette``: the bottom player's box moves up, leaving the team's table more room)."""
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
               bottom: pygame.Rect(panel.x, panel.y + mid_h * (38 if chouette else 50) // 100, panel.w, box_h)}
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
