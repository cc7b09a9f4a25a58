"""Text on the table screen: the default font at a pixel height, shrunk or cut to fit a width."""
from __future__ import annotations

import os
from functools import lru_cache

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from .theme import RGB  # noqa: E402


@lru_cache(maxsize=64)
def font(px: int, bold: bool = False) -> pygame.font.Font:
    """The default font at a cap height of about ``px`` pixels (cached)."""
    if not pygame.font.get_init():
        pygame.font.init()
    f = pygame.font.Font(None, max(8, int(px * 1.45)))  # the default font's cap height is ~0.7 of its size
    return f  # the default font (freesansbold) is bold already


def fit(text: str, px: int, max_w: int, bold: bool = False, min_px: int = 10) -> tuple[pygame.font.Font, str]:
    """A font (shrunk down to ``min_px``) and the text (ellipsised if need be) that fit ``max_w``."""
    while px > min_px and font(px, bold).size(text)[0] > max_w:
        px -= max(1, px // 10)
    f = font(px, bold)
    if f.size(text)[0] <= max_w:
        return f, text
    while text and f.size(text + "...")[0] > max_w:
        text = text[:-1]
    return f, text + "..."


#: labels kept drawn: two frames' worth (a chouette of five shows 61, a heads-up match 43).  A
#: label is 32 KB on average (a banner's message up to 160 KB), and the labels met over a match
#: (pips, plays, messages) are new ones: 512 kept were 17-20 MB by a match's third game, 128 are
#: at most 4 MB, and a frame drawn again still finds every label it shows.
KEPT_LABELS = 128


@lru_cache(maxsize=KEPT_LABELS)
def _rendered(text: str, px: int, max_w: int, bold: bool, colour: RGB) -> pygame.Surface:
    """``text`` fitted into ``max_w`` and drawn in ``colour`` (cached: a screen shows the same
    labels frame after frame, and fitting and drawing them was a quarter of a frame's time)."""
    f, t = fit(text, px, max_w, bold)
    return f.render(t, True, colour)


def draw_text(surf: pygame.Surface, text: str, px: int, colour: RGB, rect: pygame.Rect, *,
              align: str = "left", bold: bool = False) -> pygame.Rect:
    """Draw ``text`` fitted into ``rect`` (vertically centred, aligned left, right or centre); its rect."""
    img = _rendered(text, px, rect.w, bold, colour)
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
