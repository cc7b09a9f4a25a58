"""The ``bgtable`` dispatcher: every command it lists is run by a plain import (no importlib),
and an edge's command reports bad input as one line, exit 2, through the parser it is given."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee import cli

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", list(cli.COMMANDS))
def test_every_listed_command_runs_and_shows_its_help(name: str, capsys: pytest.CaptureFixture) -> None:
    assert cli.main([name, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: bgtable {name} ")


def test_the_dispatcher_imports_what_it_runs_without_importlib() -> None:
    tree = ast.parse((ROOT / "referee" / "cli" / "__init__.py").read_text(encoding="utf-8"))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "importlib" not in names and not any("import_module" in ast.unparse(n) for n in ast.walk(tree)
                                                 if isinstance(n, ast.Call))
    assert {"vision", "firmware_bridge", "hardware", "hardware.firmware", "referee.table"} <= names


def test_an_edge_commands_bad_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["markers", str(tmp_path / "sheet.txt")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"bgtable markers: error: {str(tmp_path / 'sheet.txt')!r}: the sheet is an image; "
                   "name it .png (or .jpg)"]
    assert cli.main(["read", "--side-mm", "3"]) == 2  # argparse's own error, through the same parser
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_an_unknown_command_names_it() -> None:
    assert cli.main(["dance"]) == 2
