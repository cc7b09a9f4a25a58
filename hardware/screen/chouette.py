"""A chouette on the table screen: who is the box, who captains, each team member's own cube
(value, holder, take / pass / out) and every player's running score.

The text is made by pure functions (:func:`team_rows`, :func:`player_tag`, :func:`title`,
:func:`double_title`) so tests and the log can read what the screen shows; :func:`draw_team`
draws the rows as a table in the panel, under the players' boxes::

    Chouette           cube              this game        score
    Ann (box)          plays dark                          +2
    Bob (captain)      2: Bob's                            -1
    Cid                1: middle         take or pass?     -1
    Dan                2: the box's      passed, out        0
"""
from __future__ import annotations

import os
from typing import Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from referee.view import ChouetteView, MemberView, TableView  # noqa: E402

from .layout import Layout  # noqa: E402
from .text import draw_text  # noqa: E402
from .theme import RGB, Theme  # noqa: E402

#: what each member state says in the "this game" column
STATE_WORDS: dict[str, str] = {
    "playing": "", "to_answer": "take or pass?", "doubling": "doubles the box",
    "passed": "passed, out", "cashed": "box passed, out",
}
#: the table's columns: heading and share of the width
COLUMNS: tuple[tuple[str, int], ...] = (("Chouette", 32), ("cube", 24), ("this game", 31), ("score", 13))


def _score(c: ChouetteView, name: str) -> str:
    p = c.score(name)
    return "" if p is None else f"{p:+d}" if p else "0"


def cube_words(c: ChouetteView, m: MemberView) -> str:
    """Where ``m``'s cube is: ``"1: middle"``, ``"2: Bob's"`` (the member's) or ``"4: the box's"``."""
    holder = "middle" if m.cube_owner is None else f"{m.name}'s" if m.cube_owner == "member" else "the box's"
    return f"{m.cube_value}: {holder}"


def team_rows(view: TableView) -> list[tuple[str, str, str, str]]:
    """The chouette table's rows (name, cube, this game, score): the box, then the team in line
    order, the captain marked; empty heads-up."""
    c = view.chouette
    if c is None:
        return []
    rows = [(f"{c.box} (box)", f"plays {c.box_colour}", "", _score(c, c.box))]
    for m in c.members:
        name = f"{m.name} (captain)" if m.name == c.captain else m.name
        rows.append((name, cube_words(c, m), STATE_WORDS[m.state], _score(c, m.name)))
    return rows


def player_tag(view: TableView, colour: str) -> str:
    """What a player's box says at a chouette instead of a match score: ``"box +2"``, ``"captain -1"``."""
    c = view.chouette
    if c is None:
        return ""
    name = c.box if colour == c.box_colour else c.captain
    role = "box" if colour == c.box_colour else "captain"
    score = _score(c, name)
    return f"{role} {score}".strip()


def title(view: TableView) -> str:
    """The score bar at a chouette: ``"Chouette: Ann (box) v Bob (captain), Cid, Dan"``."""
    c = view.chouette
    if c is None:
        return ""
    rest = [m.name for m in c.members if m.name != c.captain]
    return f"Chouette: {c.box} (box) v {', '.join([f'{c.captain} (captain)', *rest])}"


def double_title(view: TableView) -> Optional[str]:
    """The banner's headline for a chouette double: who doubles whom (None when none is pending)."""
    c = view.chouette
    if c is None or view.state != "double_offered":
        return None
    answering = [m.name for m in c.members if m.state == "to_answer"]
    if answering:
        return f"{c.box} doubles {', '.join(answering)}"
    doubling = [m for m in c.members if m.state == "doubling"]
    if doubling:
        return f"{doubling[0].name} doubles {c.box} to {2 * doubling[0].cube_value}"
    return None


def _row_colour(theme: Theme, state: str) -> RGB:
    if state in ("to_answer", "doubling"):
        return theme.offer_accent
    return theme.dim_text if state in ("passed", "cashed") else theme.text


def draw_team(surf: pygame.Surface, lay: Layout, view: TableView, theme: Theme) -> Optional[pygame.Rect]:
    """The chouette table in the panel under the players' boxes; the rect it took (None heads-up)."""
    rows = team_rows(view)
    c = view.chouette
    r = lay.plays
    if c is None or r.h < 20:
        return None
    line_h = max(12, min(r.h // (len(rows) + 1), lay.size[1] // 26))
    xs, x = [], r.x
    for _, share in COLUMNS:
        xs.append((x, r.w * share // 100))
        x += r.w * share // 100
    px = line_h * 62 // 100
    for (word, _), (cx, cw) in zip(COLUMNS, xs):
        draw_text(surf, word, line_h * 60 // 100, theme.dim_text, pygame.Rect(cx, r.y, cw - 4, line_h),
                  align="right" if word == "score" else "left")
    states = ["playing"] + [m.state for m in c.members]
    for i, (row, state) in enumerate(zip(rows, states)):
        y = r.y + (i + 1) * line_h
        if y + line_h > r.bottom + 1:
            break
        colour = _row_colour(theme, state)
        for k, (cell, (cx, cw)) in enumerate(zip(row, xs)):
            if cell:
                bold = k == 0 and ("(captain)" in cell or "(box)" in cell)
                draw_text(surf, cell, px, colour, pygame.Rect(cx, y, cw - 4, line_h),
                          align="right" if k == 3 else "left", bold=bold)
    return pygame.Rect(r.x, r.y, r.w, min(r.h, (len(rows) + 1) * line_h))
