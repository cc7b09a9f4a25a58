"""The table screen's window: full screen on a Raspberry Pi without a desktop (KMS/DRM),
a window on a desktop, or headless (SDL's dummy driver) for tests and screenshots.

:func:`choose_driver` is pure (config + environment -> SDL driver name);
:class:`ScreenRunner` opens the display and redraws the latest view.
"""
from __future__ import annotations

import os
import sys
from typing import Mapping, Optional

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
from .screen._pygame import pygame  # noqa: E402  (without pkg_resources: 6-10 MB less)

from referee.view import TableView  # noqa: E402

from .config import ScreenConfig  # noqa: E402
from .errors import DeviceError  # noqa: E402
from .screen import DEFAULT_THEME, Layout, Theme, draw  # noqa: E402


def choose_driver(config: ScreenConfig, env: Mapping[str, str], platform: str = sys.platform,
                  has_dri: Optional[bool] = None) -> Optional[str]:
    """The SDL video driver to use: ``None`` lets SDL pick (a desktop window).

    An ``SDL_VIDEODRIVER`` already in the environment wins; ``auto`` means KMS/DRM on
    Linux when there is no desktop (no ``DISPLAY`` / ``WAYLAND_DISPLAY``) and a
    DRM device exists, otherwise SDL's own choice.
    """
    if env.get("SDL_VIDEODRIVER"):
        return env["SDL_VIDEODRIVER"]
    if config.driver != "auto":
        return config.driver
    if platform.startswith("linux") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY"):
        if has_dri is None:
            has_dri = os.path.exists("/dev/dri/card0") or os.path.exists("/dev/dri/card1")
        if has_dri:
            return "kmsdrm"
    return None


class ScreenRunner:
    """Owns the pygame display; :meth:`show` draws a view, :meth:`pump` handles window events."""

    def __init__(self, config: ScreenConfig = ScreenConfig(), *, theme: Theme = DEFAULT_THEME,
                 size: Optional[tuple[int, int]] = None) -> None:
        driver = choose_driver(config, os.environ)
        if driver:
            os.environ["SDL_VIDEODRIVER"] = driver
        try:
            pygame.display.init()
            pygame.font.init()
        except pygame.error as exc:
            raise DeviceError(f"cannot start the screen with SDL driver {driver or 'default'!r} ({exc}); "
                              "set screen.driver in the config or SDL_VIDEODRIVER") from None
        fullscreen = config.fullscreen or driver == "kmsdrm"
        flags = pygame.FULLSCREEN if fullscreen and driver != "dummy" else 0
        want = size or ((0, 0) if flags else config.size)
        try:
            self.surface = pygame.display.set_mode(want, flags)
        except pygame.error as exc:
            raise DeviceError(f"cannot open a {want[0]}x{want[1]} screen ({exc})") from None
        if want == (0, 0):
            want = self.surface.get_size()
        pygame.display.set_caption("bgtable")
        if fullscreen:
            pygame.mouse.set_visible(False)
        self.driver, self.theme, self.bottom = driver or pygame.display.get_driver(), theme, config.bottom
        self.fps = config.fps
        self.clock = pygame.time.Clock()
        self.view: Optional[TableView] = None
        self.layout: Optional[Layout] = None

    def render(self, view: TableView, highlight: Optional[int] = None) -> None:
        """Draw ``view`` into the back buffer, not shown until :meth:`present` (``highlight``:
        the choice the buttons stepped to)."""
        self.view = view
        self.layout = draw(self.surface, view, theme=self.theme, bottom=self.bottom, highlight=highlight)

    def present(self) -> None:
        """Show what :meth:`render` drew."""
        pygame.display.flip()

    def show(self, view: TableView, highlight: Optional[int] = None) -> None:
        """Draw ``view`` now."""
        self.render(view, highlight)
        self.present()

    def pump(self) -> bool:
        """Handle window events; False when the user closed the window or pressed Escape / q."""
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return False
            if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_q):
                return False
        return True

    def wait_frame(self) -> float:
        """Sleep to the frame rate; the seconds since the last frame."""
        return self.clock.tick(self.fps) / 1000

    def close(self) -> None:
        """Close the table screen's window."""
        pygame.display.quit()
