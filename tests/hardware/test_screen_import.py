"""The screen loads pygame without setuptools' pkg_resources (6-10 MB and half a second of the
table process, issue 19), and pygame still finds its own font."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_screen_imports_pygame_without_pkg_resources() -> None:
    code = ("import sys, hardware.runner, pygame; pygame.font.init(); pygame.font.Font(None, 20); "
            "print('pkg_resources' in sys.modules, 'pkg_resources' in sys.modules and sys.modules['pkg_resources'])")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False"], out.stdout


def test_a_pkg_resources_already_imported_is_left_alone() -> None:
    code = ("import sys, pkg_resources, hardware.screen; print(sys.modules['pkg_resources'] is pkg_resources)")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "True"
