"""``bgtable screen``: show the table screen.

* ``--demo`` cycles through the sample states (``hardware.samples``);
* ``--views FILE`` cycles through TableView JSON lines from a file (``-`` = stdin);
* ``--screenshot DIR`` writes one PNG per sample state, headless (SDL dummy driver);
* ``--frames N`` / ``--seconds S`` bound the run (for tests and kiosks that restart).

The ``bgtable`` dispatcher builds the parser (:func:`add_screen_arguments`), reads
``--config`` with the table's loader and calls :func:`run_screen` with it; bad input is
``parser.error`` (one line, exit 2).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Optional

from referee.colour import COLOURS
from referee.view import TableView, ViewError

from .config import HardwareConfig

PROG = "bgtable screen"


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (160 <= w <= 8192 and 120 <= h <= 8192):
        raise ValueError(f"size {text!r} is out of range (160x120 .. 8192x8192)")
    return w, h


def add_screen_arguments(p: argparse.ArgumentParser) -> None:
    """``bgtable screen``'s options."""
    p.description = "Show the table screen (the board as the referee believes it)."
    p.add_argument("--config", metavar="FILE", help="table config (TOML): names, colours, screen size, driver")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--demo", action="store_true", help="cycle through sample states")
    what.add_argument("--views", metavar="FILE", help="cycle through TableView JSON lines from FILE ('-' = stdin)")
    what.add_argument("--screenshot", metavar="DIR", help="write a PNG of every sample state to DIR and exit")
    p.add_argument("--size", metavar="WxH", help="screen or screenshot size (default: the config's, 1280x720)")
    p.add_argument("--bottom", choices=COLOURS, help="whose home board is drawn at the bottom")
    p.add_argument("--interval", type=float, default=3.0, metavar="S", help="seconds per state (default 3)")
    p.add_argument("--frames", type=int, metavar="N", help="stop after N frames")
    p.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds")
    p.add_argument("--windowed", action="store_true", help="a window even if the config says full screen")


def _read_views(path: str) -> list[TableView]:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ViewError(f"{path}: not a text file of table views (one JSON object per line, UTF-8)") from None
    except OSError as exc:
        raise ViewError(f"{path}: cannot be read ({exc.strerror or exc}); give a file of table views") from None
    views = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                views.append(TableView.from_json(line))
            except ViewError as exc:
                raise ViewError(f"{path}:{n}: {exc}") from None
    if not views:
        raise ViewError(f"{path}: no table views (one JSON object per line)")
    return views


def run_screen(args: argparse.Namespace, p: argparse.ArgumentParser, config: Optional[HardwareConfig] = None) -> int:
    """``bgtable screen``; ``config``: the table's config read from ``--config`` (None: the defaults)."""
    from hardware.errors import HardwareError  # noqa: PLC0415 (keep --help fast)

    try:
        size = _size(args.size) if args.size else None
    except ValueError as exc:
        p.error(str(exc))
    cfg = config or HardwareConfig()
    screen_cfg = cfg.screen
    bottom = args.bottom or screen_cfg.bottom
    names = (cfg.players.dark, cfg.players.light) if config is not None else ("Ann", "Bob")

    from hardware.samples import sample_views  # noqa: PLC0415
    from hardware.screen import Theme  # noqa: PLC0415
    theme = Theme(dark_checker=cfg.players.dark_colour, light_checker=cfg.players.light_colour)

    if args.screenshot:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        import pygame  # noqa: PLC0415
        from hardware.screen import render  # noqa: PLC0415
        out = Path(args.screenshot)
        out.mkdir(parents=True, exist_ok=True)
        for name, view in sample_views(names):
            path = out / f"{name}.png"
            pygame.image.save(render(view, size or screen_cfg.size, theme=theme, bottom=bottom), str(path))
            print(path)
        return 0

    if not (args.demo or args.views):
        p.error("say what to show: --demo, --views FILE or --screenshot DIR")
    try:
        views = _read_views(args.views) if args.views else [v for _, v in sample_views(names)]
    except (OSError, ViewError) as exc:
        p.error(str(exc))

    from dataclasses import replace  # noqa: PLC0415
    from hardware.runner import ScreenRunner  # noqa: PLC0415
    if args.windowed:
        screen_cfg = replace(screen_cfg, fullscreen=False,
                             driver="auto" if screen_cfg.driver == "kmsdrm" else screen_cfg.driver)
    try:
        runner = ScreenRunner(replace(screen_cfg, bottom=bottom), theme=theme, size=size)
    except HardwareError as exc:
        p.error(str(exc))
    start, frames, shown = time.monotonic(), 0, -1
    try:
        while runner.pump():
            elapsed = time.monotonic() - start
            index = int(elapsed / max(args.interval, 0.05)) % len(views)
            if index != shown:
                runner.show(views[index])
                shown = index
            frames += 1
            if args.frames is not None and frames >= args.frames:
                break
            if args.seconds is not None and elapsed >= args.seconds:
                break
            runner.wait_frame()
    finally:
        w, h = runner.surface.get_size()
        runner.close()
    print(f"{PROG}: {frames} frames, {len(views)} views, driver {runner.driver}, {w}x{h}")
    return 0
