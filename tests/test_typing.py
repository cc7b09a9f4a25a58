"""The packages' public API is typed (each ships ``py.typed``): mypy finds no error.

The configuration (which packages, which stubs are missing) is ``[tool.mypy]`` in
pyproject.toml; the mypy version is pinned in the ``test`` extra, so a new mypy
release cannot break the run by itself.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_type_error(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:]
    assert "Success: no issues found" in run.stdout
