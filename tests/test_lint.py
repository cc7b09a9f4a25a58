"""ruff (configured in ``[tool.ruff]`` of pyproject.toml) finds nothing in the packages held clean.

The ruff version is pinned in the ``test`` extra.  ``TEMPORARILY_UNCHECKED`` lists files other
branches are editing; the lead empties it when merging their fixes (as the matching block of
``[tool.mypy]``).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CLEAN = ["referee", "firmware_bridge", "hardware", "vision"]
TEMPORARILY_UNCHECKED: list[str] = []

pytest.importorskip("ruff", reason="ruff is in the test extra: pip install -e '.[test]'")


def _ruff(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)


def test_ruff_finds_nothing_in_the_clean_packages() -> None:
    excluded = ["--extend-exclude", ",".join(TEMPORARILY_UNCHECKED)] if TEMPORARILY_UNCHECKED else []
    run = _ruff(*excluded, *CLEAN)
    assert run.returncode == 0, run.stdout[-4000:]


def test_ruff_reports_a_fault(tmp_path: Path) -> None:
    """The same configuration does catch an unused import and a long line (the check can fail)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nx = '" + "a" * 130 + "'\n")
    run = _ruff("--config", str(ROOT / "pyproject.toml"), str(bad))
    assert run.returncode == 1, run.stdout
    assert "F401" in run.stdout and "E501" in run.stdout, run.stdout
