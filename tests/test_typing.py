"""The packages' public API is typed (each ships ``py.typed``): mypy finds no error,
and ``referee`` and ``firmware_bridge`` are held to ``mypy --strict``'s flags (issue 18).

The configuration (which packages, which stubs are missing) is ``[tool.mypy]`` in
pyproject.toml; the mypy version is pinned in the ``test`` extra, so a new mypy
release cannot break the run by itself.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_type_error(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "Success: no issues found" in run.stdout


def test_referee_and_bridge_are_strict() -> None:
    """The strict flags stay on for the referee and the bridge (a config edit cannot drop them)."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    strict = [o for o in config["overrides"] if "referee.*" in o["module"]]
    assert strict and strict[0].get("disallow_untyped_defs") and strict[0].get("disallow_any_generics"), strict
    assert config.get("warn_redundant_casts") and config.get("warn_unused_ignores")
