"""pygame, imported without ``pkg_resources``.

``pygame.pkgdata`` uses setuptools' ``pkg_resources`` when it can import it, only to open
pygame's own data files (the default font), and opens them from pygame's folder when it
cannot.  Importing ``pkg_resources`` costs the table process 6-10 MB and half a second at
start-up (it scans every installed distribution), so it is hidden while pygame loads: the
same files, opened from the same folder.  A ``pkg_resources`` already imported is left as it is.
"""
from __future__ import annotations

import os
import sys

__all__ = ["pygame"]

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
if "pygame" in sys.modules or "pkg_resources" in sys.modules:
    import pygame
else:
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # an ImportError inside pygame.pkgdata
    try:
        import pygame
    finally:
        del sys.modules["pkg_resources"]
