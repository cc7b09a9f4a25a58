"""The README's examples run as written: every ``console`` block's ``$`` commands give
the output shown under them, and the minimal table config in it loads."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def _examples() -> list[tuple[str, str]]:
    out = []
    for block in _blocks("console"):
        cmd, expected = None, []
        for line in block.splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    out.append((cmd, "\n".join(expected)))
                cmd, expected = line[2:], []
            else:
                expected.append(line)
        if cmd is not None:
            out.append((cmd, "\n".join(expected)))
    return out


EXAMPLES = _examples()


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 4


@pytest.fixture(scope="module")
def shell_env(tmp_path_factory) -> dict[str, str]:
    """PATH with a ``bgtable`` that runs this checkout under this interpreter."""
    bin_dir = tmp_path_factory.mktemp("bin")
    shim = bin_dir / "bgtable"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m referee.cli "$@"\n')
    shim.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = str(ROOT)
    return env


@pytest.mark.parametrize("cmd,expected", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_readme_example(cmd: str, expected: str, shell_env: dict[str, str]) -> None:
    run = subprocess.run(["sh", "-c", cmd], cwd=ROOT, env=shell_env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, timeout=300)
    assert run.stdout.rstrip("\n") == expected.rstrip("\n")


def test_the_minimal_table_config_in_the_readme_loads() -> None:
    from referee.table.config import loads

    minimal = [b for b in _blocks("toml") if "[players]" in b]
    assert minimal, "the README lost its minimal table config"
    config = loads(minimal[0])
    assert (config.players.dark, config.players.light) == ("Ann", "Bob")
    assert config.rules.match_to == 7 and config.rules.landing == "tray"
    assert len(config.buttons.dark) == len(config.buttons.light) == 3
