"""``bgtable club``: bad input is one line and exit 2; broker-files writes the broker's files."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli import main

EXAMPLE = Path(__file__).resolve().parents[4] / "referee" / "table" / "club" / "club.example.toml"


def test_broker_files_from_the_example_club_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["club", "broker-files", "--config", str(EXAMPLE), "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["acl", "mosquitto.conf", "passwords"]
    assert (tmp_path / "passwords").stat().st_mode & 0o077 == 0
    assert "change-me" not in (tmp_path / "passwords").read_text()  # hashes only
    assert "user t2\ntopic write bgtable/riverside/t2/state" in (tmp_path / "acl").read_text()


@pytest.mark.parametrize("argv, words", [
    (["club"], "serve, broker-files or publish"),
    (["club", "serve", "--config", "/nonexistent.toml"], "does not exist"),
    (["club", "publish", "--config", str(EXAMPLE), "--table", "t9", "--journal", "j"], "not in the club's table list"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], words: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


def test_a_bad_club_file_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "club.toml"
    f.write_text('[club]\nname = "rv"\nprot = 1883\n')
    assert main(["club", "serve", "--config", str(f)]) == 2
    assert "prot" in capsys.readouterr().err
