"""The table screen's colours, one frozen value (the checker colours come from ``[players]``)."""
from __future__ import annotations

from dataclasses import dataclass, field

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
