"""The `bgtable moves` command-line contract."""
from __future__ import annotations

import json
import subprocess
import sys

from referee.cli import main


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "referee.cli", "moves", *args], input=stdin,
                          capture_output=True, text=True, timeout=60)


def test_json_output_for_the_opening_31(capsys):
    assert main(["moves", "4HPwATDgc/ABMA", "3-1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["position"] == "4HPwATDgc/ABMA" and out["dice"] == [3, 1]
    assert {"play": "8/5 6/5", "result": "sGfwATDgc/ABMA"} in out["plays"]
    assert len(out["plays"]) == 16


def test_plain_output_one_line_per_play(capsys):
    assert main(["moves", "4HPwATDgc/ABMA", "31"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 16 and any(l.split()[-1] == "sGfwATDgc/ABMA" and "8/5 6/5" in l for l in lines)


def test_no_legal_play_gives_an_empty_list(capsys):
    # player on roll: 1 on the bar, opponent's home board closed
    from referee import Position
    pos = Position.from_points({"bar": 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert main(["moves", pos.position_id(), "66", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["plays"] == []


def test_batch_mode_answers_in_order():
    lines = "\n".join(json.dumps({"position": "4HPwATDgc/ABMA", "dice": d}) for d in ([3, 1], [6, 6], [2, 1]))
    res = run("--batch", stdin=lines + "\n")
    assert res.returncode == 0, res.stderr
    out = [json.loads(l) for l in res.stdout.splitlines()]
    assert [o["dice"] for o in out] == [[3, 1], [6, 6], [2, 1]]
    assert all(o["plays"] for o in out)


def test_bad_input_is_one_line_exit_2_no_traceback():
    for args, fragment in [(("4HPwATDgc/ABM", "31"), "'4HPwATDgc/ABM'"), (("4HPwATDgc/ABMA", "71"), "die 7"),
                           (("4HPwATDgc/ABMA", "3x"), "'3x'"), (("4HPwATDgc/ABMA", "31", "--frobnicate"), "--frobnicate")]:
        res = run(*args)
        assert res.returncode == 2
        assert len(res.stderr.strip().splitlines()) == 1 and fragment in res.stderr, res.stderr
        assert "Traceback" not in res.stderr
    res = run("--batch", stdin='{"position": "4HPwATDgc/ABMA", "dice": [0, 1]}\n')
    assert res.returncode == 2 and "line 1" in res.stderr and "die 0" in res.stderr


def test_a_reader_that_goes_away_stops_the_command_quietly() -> None:
    """`bgtable moves --batch ... | head -1`: no traceback when the pipe closes."""
    import subprocess
    import sys
    import threading

    line = b'{"position": "4HPwATDgc/ABMA", "dice": [6, 6]}\n'
    proc = subprocess.Popen([sys.executable, "-m", "referee.cli", "moves", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def feed() -> None:
        try:
            for _ in range(5000):
                proc.stdin.write(line)
            proc.stdin.close()
        except (BrokenPipeError, OSError):
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    first = proc.stdout.readline()
    proc.stdout.close()  # the reader goes away after one answer
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    writer.join(timeout=120)
    assert first.startswith(b'{"position": "4HPwATDgc/ABMA"')
    assert "Traceback" not in err, err
    assert proc.returncode == 1
