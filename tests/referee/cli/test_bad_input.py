"""Bad input to every command this suite owns: one line on stderr naming the value, exit 2,
never a traceback.  Generated (hypothesis) and run in process through ``referee.cli.main``.

Commands: ``moves`` (arguments and ``--batch`` lines), ``referee`` (``--set``; a bad script
line is reported with its number and skipped, exit 1, as its docs say), ``read`` and
``markers``, ``demo``, ``run`` (config files and ``[journal] directory``), ``journal``,
and ``screen --config``.  ``dice``, ``dice-sim``, ``firmware-sim``, ``convert`` and ``replay``
have their own tests.
"""
from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee import cli

START = "4HPwATDgc/ABMA"
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
FAST_DEMO = ["--headless", "--camera", "perfect", "--dice", "direct", "--quiet"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)


def run(argv: list[str], stdin: str | bytes | None = None) -> tuple[int, str, str]:
    """``bgtable ARGV`` in process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        raw = stdin.encode("utf-8", "surrogateescape") if isinstance(stdin, str) else stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse's own errors
                code = exc.code if isinstance(exc.code, int) else 2
    finally:
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


def assert_refused(argv: list[str], stdin: str | bytes | None = None, *, names: str | None = None) -> str:
    """Exit 2, exactly one line on stderr (naming ``names`` when given), no traceback."""
    code, _, err = run(argv, stdin)
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, (argv, code, err[-600:])
    assert "Traceback" not in err and "internal error" not in err
    if names is not None:
        assert names in lines[0], (names, lines[0])
    return lines[0]


# ------------------------------------------------------------------------------ moves

def _good_dice(text: str) -> bool:
    t = text.strip().replace("-", "").replace(" ", "").replace(",", "")
    return len(t) == 2 and all(c in "123456" for c in t)


@SETTINGS
@given(st.text(min_size=1, max_size=6).filter(lambda t: not _good_dice(t) and not t.startswith("-")))
def test_moves_bad_dice(dice: str) -> None:
    assert_refused(["moves", START, dice])


@pytest.mark.parametrize("dice", ["0\u00b2", "\u00b2\u00b3", "3\u00b9", "\u0663\u0661", "\uff13\uff11"])
def test_moves_dice_in_other_digits(dice: str) -> None:
    # superscripts, Arabic-Indic and full-width digits pass str.isdigit() (which int() then refuses,
    # or takes as 3 and 1): the roll is two of the digits 1-6 as typed on a keyboard
    assert_refused(["moves", START, dice], names=repr(dice))


@SETTINGS
@given(st.text(min_size=1, max_size=20).filter(lambda t: not re.fullmatch(r"[A-Za-z0-9+/]{14}", t)
                                               and not t.startswith("-")))
def test_moves_bad_position(position: str) -> None:
    assert_refused(["moves", position, "31"])


def _valid_batch_dice(v: object) -> bool:
    if isinstance(v, str):
        return _good_dice(v)
    return (isinstance(v, list) and len(v) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in v))


@SETTINGS
@given(json_values.filter(lambda v: not _valid_batch_dice(v)))
def test_moves_batch_bad_dice(dice: object) -> None:
    line = json.dumps({"position": START, "dice": dice})
    assert_refused(["moves", "--batch"], line + "\n", names="line 1")


@SETTINGS
@given(json_values.filter(lambda v: not (isinstance(v, dict) and "position" in v and "dice" in v)))
def test_moves_batch_bad_line(value: object) -> None:
    assert_refused(["moves", "--batch"], json.dumps(value) + "\n", names="line 1")


def test_moves_batch_the_issue_cases() -> None:
    assert_refused(["moves", "--batch"], '{"position": "%s", "dice": 0}\n' % START, names="dice 0")
    assert_refused(["moves", "--batch"], b"\xff\xfe\n")


# ------------------------------------------------------------------------------ referee

@SETTINGS
@given(st.sampled_from(["names", "match_to", "early_roll", "cube_limit", "crawford", "min_confidence"]),
       json_values)
def test_referee_bad_setting(key: str, value: object) -> None:
    from referee.settings import Settings, SettingsError
    text = value if isinstance(value, str) else json.dumps(value)
    from referee.cli.referee import _parse_set
    try:  # only values the settings refuse (as the command line reads them)
        Settings.from_dict(_parse_set([f"{key}={text}"]))
        valid = True
    except (SettingsError, TypeError, ValueError):
        valid = False
    assume(not valid)
    assert_refused(["referee", "--script", "/dev/null", "--set", f"{key}={text}"])


def test_referee_set_names_is_two_names() -> None:
    assert_refused(["referee", "--script", "/dev/null", "--set", "names=Dark"], names="names=Ann,Bob")
    code, out, _ = run(["referee", "--script", "/dev/null", "--set", "names=Ann,Bob", "--view"])
    assert code == 0 and json.loads(out)["names"] == ["Ann", "Bob"]


def _board(**change: object) -> dict:
    return {"kind": "board", "points": [{"count": 0, "colour": None}] * 24, **change}


BAD_EVENTS = st.one_of(
    st.builds(lambda v: _board(bar=v), json_values.filter(
        lambda v: not (isinstance(v, list) and len(v) == 2 and all(type(n) is int and 0 <= n <= 15 for n in v)))),
    st.builds(lambda v: _board(off=v), json_values.filter(
        lambda v: v is not None and not (isinstance(v, list) and len(v) == 2
                                         and all(type(n) is int and 0 <= n <= 15 for n in v)))),
    st.builds(lambda v: _board(confidence=v), json_values.filter(lambda v: type(v) not in (int, float))),
    st.builds(lambda v: _board(t=v), json_values.filter(lambda v: type(v) not in (int, float))),
    st.builds(lambda n, i: _board(points=[{"count": n if j == i else 0, "colour": "dark" if j == i else None}
                                          for j in range(24)]),
              st.integers(16, 10**4) | st.integers(-10**4, -1), st.integers(0, 23)),
    st.builds(lambda v: {"kind": "roll_settled", "dice": v}, json_values.filter(
        lambda v: not isinstance(v, list) or not 1 <= len(v) <= 2)),
    st.builds(lambda v, f: {"kind": "roll_settled", "dice": [{"value": 3, f: v}]},
              json_values.filter(lambda v: not isinstance(v, bool)), st.sampled_from(["flat", "on_checker"])),
    st.builds(lambda v: {"kind": "dice_lifted", "roll_id": v}, json_values.filter(
        lambda v: not (type(v) is int and v >= 0))),
    st.builds(lambda v: {"kind": "player", "player": "dark", "action": "confirm", "choice": v}, json_values.filter(
        lambda v: v is not None and not (type(v) is int and v >= 0))),
)


@SETTINGS
@given(BAD_EVENTS)
def test_referee_script_bad_event_is_one_line_naming_it(event: dict) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "s.jsonl"
        script.write_text('{"kind":"roll_settled","dice":[{"value":3,"zone":"right"},{"value":1,"zone":"left"}]}\n'
                          + json.dumps(event) + "\n")
        code, out, err = run(["referee", "--script", str(script)])
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 1 and lines[0].startswith("bgtable referee: line 2: "), (event, err)
    assert "Traceback" not in err and out.startswith("1: ")  # the good line was still refereed


def test_referee_script_the_issue_cases(tmp_path) -> None:
    script = tmp_path / "s.jsonl"
    cases = [_board(points=[{"count": 99, "colour": "dark"}] + [{"count": 0}] * 23), _board(off="x"),
             {"kind": "hand_over_board", "t": "now"}, _board(bar="x"), _board(confidence="sure")]
    script.write_text("".join(json.dumps(c) + "\n" for c in cases))
    code, _, err = run(["referee", "--script", str(script)])
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == len(cases)
    for want, line in zip(["count 99", 'off "x"', 't "now"', 'bar "x"', 'confidence "sure"'], lines):
        assert want in line, (want, line)


# ------------------------------------------------------------------------------ read, markers

@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> str:
    import cv2
    p = tmp_path_factory.mktemp("photo") / "board.png"
    cv2.imwrite(str(p), np.full((240, 320, 3), 90, np.uint8))
    return str(p)


corner = st.tuples(st.floats(-1e6, 1e6, allow_nan=False), st.floats(-1e6, 1e6, allow_nan=False))


def _outside_or_flat(cs: list[tuple[float, float]]) -> bool:
    if any(not (-16 <= x <= 336 and -16 <= y <= 256) for x, y in cs):
        return True
    xs, ys = np.array([c[0] for c in cs]), np.array([c[1] for c in cs])
    return 0.5 * abs(np.dot(xs, np.roll(ys, -1)) - np.dot(ys, np.roll(xs, -1))) < 0.01 * 320 * 240


@SETTINGS
@given(st.lists(corner, min_size=4, max_size=4).filter(_outside_or_flat))
def test_read_corners_outside_the_picture_or_enclosing_nothing(photo: str, cs: list) -> None:
    text = " ".join(f"{x!r},{y!r}" for x, y in cs)
    assert_refused(["read", photo, f"--corners={text}"], names="corners")


@SETTINGS
@given(st.text(max_size=30).filter(lambda t: len(re.findall(r"-?\d+(\.\d+)?,-?\d+(\.\d+)?", t)) != 4
                                   and not t.startswith("-")))
def test_read_malformed_corners(photo: str, text: str) -> None:
    assume(text.strip())
    assert_refused(["read", photo, f"--corners={text}"])


@SETTINGS
@given(st.sampled_from(["--checker", "--bar-width", "--board-height"]),
       st.floats(max_value=0.0) | st.just(float("nan")) | st.floats(min_value=100.0) | st.just(float("inf")))
def test_read_bad_numbers(photo: str, option: str, value: float) -> None:
    assert_refused(["read", photo, f"{option}={value!r}"], names=option[2:].replace("-", "_"))


def test_read_paths(tmp_path, photo: str) -> None:
    assert_refused(["read", str(tmp_path)], names="is a directory")
    assert_refused(["read", str(tmp_path / "none.jpg")], names="does not exist")
    (tmp_path / "x.jpg").write_bytes(b"\x00garbage")
    assert_refused(["read", str(tmp_path / "x.jpg")], names="not a readable picture")
    assert_refused(["read", photo, "--corners", "10,10 10,10 10,10 10,10"], names="no area")
    assert_refused(["read", photo, "--corners", "0,0 9000,0 300,200 0,200"], names="outside")


@SETTINGS
@given(st.text(min_size=1, max_size=12).filter(
    lambda t: not t.lower().endswith((".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff")) and not t.startswith("-")))
def test_markers_bad_name(name: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        assert_refused(["markers", str(Path(tmp) / name.replace("/", "_").replace("\0", "_"))])


def test_markers_the_issue_case(tmp_path) -> None:
    assert_refused(["markers", str(tmp_path / "m.txt")], names="m.txt")
    assert_refused(["markers", str(tmp_path / "no" / "dir" / "m.png")], names="cannot write")
    assert_refused(["markers", str(tmp_path / "m.png"), "--dpi", "5"])


# ------------------------------------------------------------------------------ demo

@SETTINGS
@given(st.sampled_from(["--delay", "--match-to", "--illegal-rate", "--double-rate"]),
       st.floats(max_value=-1e-9) | st.floats(min_value=1.0001, max_value=1e9) | st.just(float("nan")))
def test_demo_bad_numbers(option: str, value: float) -> None:
    assume(not (option in ("--delay", "--match-to") and value > 0))
    text = str(int(value)) if option == "--match-to" and abs(value) < 1e300 else repr(value)
    assume(not (option == "--match-to" and text in ("0", "-0")))
    with tempfile.TemporaryDirectory() as tmp:
        assert_refused(["demo", *FAST_DEMO, "--out", str(Path(tmp) / "d"), f"{option}={text}"])


def test_demo_out_and_resume(tmp_path) -> None:
    (tmp_path / "file").write_text("x")
    assert_refused(["demo", *FAST_DEMO, "--out", str(tmp_path / "file")], names="is a file")
    assert_refused(["demo", *FAST_DEMO, "--out", str(tmp_path / "file" / "sub")], names="cannot be created")
    assert_refused(["demo", *FAST_DEMO, "--out", str(tmp_path / "none"), "--resume"], names="no journal")
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "journal.jsonl").write_bytes(b"\x89garbage\n")
    assert_refused(["demo", *FAST_DEMO, "--out", str(tmp_path / "g"), "--resume"], names="no readable event")
    assert_refused(["demo", *FAST_DEMO, "--out", str(tmp_path / "x"), "--delay", "-1"], names="--delay")


# ------------------------------------------------------------------------------ run, screen: config files

@SETTINGS
@given(st.binary(min_size=1, max_size=200))
def test_run_and_screen_config_garbage_names_the_file(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.toml"
        path.write_bytes(data)
        from referee.table.config import load
        try:
            load(path)
            valid = True  # a few bytes can be a valid (empty) config
        except Exception:
            valid = False
        assume(not valid)
        for cmd in (["run", "--headless", "--config", str(path)], ["screen", "--config", str(path), "--demo"]):
            assert_refused(cmd, names=str(path))


def test_run_journal_directory_that_is_a_file_or_cannot_be_created(tmp_path) -> None:
    (tmp_path / "file").write_text("x")
    for directory, says in ((tmp_path / "file", "is a file"), (tmp_path / "file" / "sub", "cannot be created")):
        cfg = tmp_path / "t.toml"
        cfg.write_text(f'[journal]\ndirectory = "{directory}"\n')
        assert_refused(["run", "--headless", "--config", str(cfg)], names=says)
    assert_refused(["run", "--headless", "--config", str(tmp_path)], names="is a directory")


# ------------------------------------------------------------------------------ journal

@SETTINGS
@given(st.binary(min_size=1, max_size=300))
def test_journal_check_of_any_bytes_says_where_it_stops(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.jsonl"
        path.write_bytes(data)
        code, out, err = run(["journal", "check", str(path)])
        assert code in (0, 1) and err == "" and len(out.strip().splitlines()) == 1
        assert (code == 1) == ("line 1 " in out), out
        code, out, err = run(["journal", "repair", str(path)])
        assert code == 0 and err == "" and run(["journal", "check", str(path)])[0] == 0


def test_journal_bad_arguments(tmp_path) -> None:
    assert_refused(["journal", "check", str(tmp_path)], names="is a directory")
    assert_refused(["journal", "check", str(tmp_path / "none")], names="does not exist")
    assert_refused(["journal", "mend", str(tmp_path / "none")], names="mend")
    assert_refused(["journal"])


def test_screen_views_from_a_binary_or_missing_file_is_one_line(tmp_path, capsys) -> None:
    from referee.cli import main
    binary = tmp_path / "views.json"
    binary.write_bytes(bytes(range(256)) * 2)
    for path in (str(binary), str(tmp_path / "missing.json")):
        assert main(["screen", "--views", path]) == 2
        out, err = capsys.readouterr()
        assert len(err.strip().splitlines()) == 1 and path in err and "Traceback" not in err
