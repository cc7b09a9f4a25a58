"""pygame, imported without ``pkg_resources`` and without its sound modules.

``pygame.pkgdata`` uses setuptools' ``pkg_resources`` when it can import it, only to open
pygame's own data files (the default font), and opens them from pygame's folder when it
cannot.  Importing ``pkg_resources`` costs the table process 6-10 MB and half a second at
start-up (it scans every installed distribution), so it is hidden while pygame loads: the
same files, opened from the same folder.  A ``pkg_resources`` already imported is left as it is.

The table makes no sound, and ``pygame.mixer`` (with ``mixer_music`` and ``sndarray``) loads
SDL_mixer and its 35 libraries (FluidSynth, GLib, PulseAudio, FLAC, Vorbis, Opus...): 3.9 MB
of the table process, so they are hidden too; pygame then puts its own placeholder in
``pygame.mixer`` (it says "mixer module not available" if used) and everything else loads as usual.
"""
from __future__ import annotations

import os
import sys

__all__ = ["pygame", "HIDDEN"]

#: what is kept from pygame's import: nothing of the table needs it
HIDDEN = ("pkg_resources", "pygame.mixer_music", "pygame.mixer", "pygame.sndarray")

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
if "pygame" in sys.modules:
    import pygame
else:
    hidden = [name for name in HIDDEN if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # an ImportError where pygame imports it
    try:
        import pygame
    finally:
        for name in hidden:
            del sys.modules[name]
