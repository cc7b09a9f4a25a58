"""``read --batch``'s read-ahead (vision.batch): the lines in input order, each picture loaded one
line ahead in a thread, errors in their place, the end of input and a broken input handled.

No test waits on the clock: the threads meet on events (the timeouts only stop a broken
read-ahead from hanging the suite)."""
from __future__ import annotations

import io
import json
import sys
import threading
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from vision.batch import Line, keep_freed_memory, parse_job, read_ahead  # noqa: E402
from vision.errors import VisionError  # noqa: E402

GUARD = 30.0   # seconds: only a broken read-ahead ever waits this long


def _job(path: str) -> str:
    return json.dumps({"image": path}) + "\n"


def _load(path: str) -> str:
    if path.startswith("missing"):
        raise FileNotFoundError(f"image {path!r} does not exist")
    if path.startswith("bad"):
        raise VisionError(f"image {path!r} is not a readable picture")
    return "picture of " + path


@pytest.mark.parametrize("ahead", [0, 1, 3])
def test_lines_come_in_input_order_with_errors_in_their_place(ahead: int) -> None:
    lines = [_job(f"{k}.jpg") for k in range(12)]
    lines[3] = "not json\n"
    lines[5] = _job("missing.jpg")
    lines[6] = "\n"                       # blank: skipped, its number kept by the next
    lines[7] = json.dumps([1]) + "\n"
    lines[9] = _job("bad.jpg")
    got = list(read_ahead(iter(lines), _load, ahead))
    assert [ln.n for ln in got] == [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]
    assert got[3].error == "line 4: not JSON (Expecting value)" and got[3].job is None
    assert got[6].error is not None and got[6].error.startswith("line 8: line 8: expected {\"image\"")
    with pytest.raises(FileNotFoundError, match="missing.jpg"):
        got[5].picture()
    with pytest.raises(VisionError, match="bad.jpg"):
        got[8].picture()
    for ln in got:
        if ln.job is not None and ln.failed is None:
            assert ln.picture() == "picture of " + ln.job["image"]


@pytest.mark.parametrize("ahead", [0, 1])
def test_end_of_input_blank_lines_and_no_last_newline(ahead: int) -> None:
    assert list(read_ahead(iter([]), _load, ahead)) == []
    assert list(read_ahead(iter(["\n", "  \n"]), _load, ahead)) == []
    got = list(read_ahead(iter([_job("a.jpg"), "\n", json.dumps({"image": "b.jpg"})]), _load, ahead))
    assert [(ln.n, ln.picture()) for ln in got] == [(1, "picture of a.jpg"), (3, "picture of b.jpg")]


def test_a_broken_input_is_raised_after_the_lines_before_it() -> None:
    def lines() -> Iterator[str]:
        yield _job("a.jpg")
        yield _job("b.jpg")
        raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
    it = read_ahead(lines(), _load, 1)
    assert next(it).n == 1 and next(it).n == 2
    with pytest.raises(UnicodeDecodeError):
        next(it)


def test_the_next_picture_is_loaded_while_this_line_is_read_and_no_further() -> None:
    loaded: list[str] = []
    second = threading.Event()

    def load(path: str) -> str:
        loaded.append(path)
        if path == "2.jpg":
            second.set()
        return path

    it = read_ahead(iter(_job(f"{k}.jpg") for k in range(1, 6)), load, 1)
    first = next(it)
    assert first.picture() == "1.jpg"
    # line 1 is being read: line 2's picture is loaded meanwhile, in another thread...
    assert second.wait(GUARD), "the read-ahead never loaded line 2 while line 1 was read"
    # ...and no more: line 3 waits for line 1 to be done (the thread is blocked on its slot)
    assert loaded == ["1.jpg", "2.jpg"]
    assert [ln.picture() for ln in it] == ["2.jpg", "3.jpg", "4.jpg", "5.jpg"]
    assert loaded == [f"{k}.jpg" for k in range(1, 6)]


def test_a_line_is_handed_over_before_the_next_one_is_written() -> None:
    """A client that writes a line and waits for its answer gets it: the thread, not the
    caller, waits for the next line of input."""
    answered = threading.Event()

    def client() -> Iterator[str]:
        yield _job("1.jpg")
        assert answered.wait(GUARD), "line 1 was not handed over before line 2 was written"
        yield _job("2.jpg")

    it = read_ahead(client(), _load, 1)
    assert next(it).n == 1
    answered.set()
    assert [ln.n for ln in it] == [2]


def test_the_loads_run_in_the_thread_the_reading_in_the_callers() -> None:
    where: list[str] = []
    got = list(read_ahead(iter([_job("a.jpg")]), lambda p: where.append(threading.current_thread().name), 1))
    assert where == ["read-ahead"] and len(got) == 1
    where.clear()
    list(read_ahead(iter([_job("a.jpg")]), lambda p: where.append(threading.current_thread().name), 0))
    assert where == [threading.current_thread().name]


def test_stopping_early_ends_the_thread() -> None:
    it = read_ahead(iter(_job(f"{k}.jpg") for k in range(100)), _load, 1)
    assert next(it).n == 1
    it.close()
    for t in threading.enumerate():
        if t.name == "read-ahead":
            t.join(GUARD)
            assert not t.is_alive()


def test_parse_job_and_bad_ahead() -> None:
    assert parse_job(1, '{"image": "a.jpg", "corners": "1,2 3,4 5,6 7,8"}')["image"] == "a.jpg"
    with pytest.raises(VisionError, match="line 2"):
        parse_job(2, '{"corners": "x"}')
    with pytest.raises(ValueError, match="ahead -1"):
        list(read_ahead(iter([]), _load, -1))
    assert Line(1, error="x").picture() is None


def test_batch_prints_the_same_with_and_without_the_read_ahead(tmp_path: Path, monkeypatch: Any,
                                                               capsys: Any) -> None:
    """The whole ``--batch`` loop on pictures of one camera with bad lines among them: the same
    output, line for line, read ahead or not (the reader learns in the same order)."""
    import cv2

    from vision import layout as L
    from vision.cli import _batch
    from vision.render import render_scene
    lines = []
    for k in range(4):
        sc = render_scene(L.random_position(np.random.default_rng(k)), seed=77)
        path = tmp_path / f"{k}.jpg"
        cv2.imwrite(str(path), sc.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        lines.append(json.dumps({"image": str(path), "corners": L.format_corners(sc.corners)}) + "\n")
    (tmp_path / "notes.txt").write_text("not a picture")
    lines[2:2] = ["not json\n", _job(str(tmp_path / "missing.jpg")), _job(str(tmp_path / "notes.txt"))]
    out = {}
    # a geometry's first picture is warped directly, later ones through its kept maps
    # (vision.rectify, per process): the first run only makes the maps, the two after it compare
    for ahead in (1, 0, 1):
        monkeypatch.setattr(sys, "stdin", io.StringIO("".join(lines)))
        rc = _batch(dice=False, ahead=ahead)
        out[ahead] = (rc, *capsys.readouterr())
    assert out[0] == out[1]   # the second run with the read-ahead against the one without
    rc, stdout, stderr = out[1]
    res = [json.loads(s) for s in stdout.splitlines()]
    assert rc == 2 and len(res) == 7 and len(stderr.splitlines()) == 3
    assert [r["board_found"] for r in res] == [True, True, False, False, False, True, True]
    assert "line 3: not JSON" in res[2]["error"] and "missing.jpg" in res[3]["error"] and "notes.txt" in res[4]["error"]


def test_given_corners_are_checked_once_per_camera_and_handed_out_fresh() -> None:
    from vision.cli import given_corners
    from vision.layout import parse_corners
    text = "10,20 600,22 610,400 8,398"
    a = given_corners(text, 640, 480)
    assert a.dtype == np.float32 and np.array_equal(a, parse_corners(text))
    a[0, 0] = -99.0                                    # a caller's copy: the next line's is untouched
    assert np.array_equal(given_corners(text, 640, 480), parse_corners(text))
    for _ in range(2):                                 # a bad line is refused every time, not remembered
        with pytest.raises(VisionError, match="outside the 300x200 picture"):
            given_corners(text, 300, 200)
        with pytest.raises(VisionError, match="expected four 'x,y' pairs"):
            given_corners("1,2 3,4", 640, 480)


def _game_lines(tmp_path: Path, n: int) -> list[str]:
    """``n`` lines of one camera over a rendered game (dice thrown, checkers moved, dice lifted)."""
    import cv2

    from vision import layout as L
    sys.path.insert(0, str(ROOT / "bench"))
    from dice_camera import game_frames
    lines = []
    for k, r in enumerate(game_frames((n + 2) // 3, 77)[:n]):
        path = tmp_path / f"g{k}.jpg"
        cv2.imwrite(str(path), r.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        lines.append(json.dumps({"image": str(path), "corners": L.format_corners(r.corners)}) + "\n")
    return lines


def test_the_dice_found_in_a_child_process_are_those_found_after_the_checkers(tmp_path: Path, monkeypatch: Any,
                                                                            capsys: Any) -> None:
    """``--batch`` with the dice: each line with corners has its dice found in a child process
    (vision.dice_ahead) while its checkers are read; the output is the same, byte for byte, as
    with the dice found in this process after the checkers, bad lines and a line without corners
    (markers: its dice found here) among them."""
    from vision.cli import _batch
    lines = _game_lines(tmp_path, 7)
    first = json.loads(lines[0])
    lines[3:3] = ["not json\n", _job(str(tmp_path / "missing.jpg")),
                  json.dumps({"image": first["image"], "corners": "1,1 2,2 3,3 4,4"}) + "\n",
                  json.dumps({"image": first["image"], "checker": -1, "corners": first["corners"]}) + "\n",
                  _job(first["image"])]
    out = {}
    for child in (False, True, False):   # the first run makes the warps' maps (per process)
        monkeypatch.setattr(sys, "stdin", io.StringIO("".join(lines)))
        rc = _batch(dice=True, ahead=1, child=child)
        out[child] = (rc, *capsys.readouterr())
    assert out[True] == out[False]
    rc, stdout, stderr = out[True]
    res = [json.loads(s) for s in stdout.splitlines()]
    assert rc == 2 and len(res) == 12 and len(stderr.splitlines()) == 4
    assert "enclose (almost) no area" in res[5]["error"] and "checker -1" in res[6]["error"]
    assert sum(len(r.get("dice") or []) for r in res) >= 4      # the game's dice are found, not left out
    assert all("dice" in r for r in res if r["board_found"])


def test_a_child_that_dies_leaves_the_dice_to_the_caller(tmp_path: Path) -> None:
    import cv2

    from vision.dice_ahead import DiceAhead
    lines = [json.loads(s) for s in _game_lines(tmp_path, 2)]
    with DiceAhead() as finder:
        assert finder.send(1, cv2.imread(lines[0]["image"]), lines[0])
        assert not finder.send(2, cv2.imread(lines[0]["image"]), {"image": "x.jpg"})   # no corners: not sent
        got = finder.take(1)
        assert got is not None and finder.take(2) is None
        assert finder._proc is not None
        finder._proc.kill()
        finder._proc.wait(GUARD)
        finder.send(3, cv2.imread(lines[1]["image"]), lines[1])
        assert finder.take(3) is None and finder.dead
        assert not finder.send(4, cv2.imread(lines[1]["image"]), lines[1])   # the caller finds them from now on



def test_the_pictures_go_to_the_child_through_shared_slots_and_over_the_pipe_when_none_is_free(
        tmp_path: Path) -> None:
    """A line's picture goes to the dice's child in a shared slot (only its place over the pipe), the
    slot free again once the line's answer is read; with every slot holding a line not yet answered,
    the picture itself goes over the pipe: the dice are those found in this process either way."""
    import cv2

    from vision import dice_ahead as A
    from vision.cli import camera_of, dice_found, job_camera, reader_config
    jobs = [json.loads(s) for s in _game_lines(tmp_path, 3)]
    pics = [cv2.imread(job["image"]) for job in jobs]
    class Camera:   # one camera: its carry kept under it (weakly), as the child keeps its own
        pass
    camera = Camera()
    here = []
    for img, job in zip(pics, jobs):
        cs = camera_of(img, *job_camera(job))[1]
        here.append(dice_found(img, cs, reader_config(cs, *job_camera(job)[1:]).shape, camera))
    with A.DiceAhead() as finder:
        sent: list[Any] = []
        put = finder._out.put

        def seen(job: Any) -> None:
            sent.append(job)
            put(job)
        finder._out.put = seen   # type: ignore[method-assign]
        for n in range(1, A.SLOTS + 2):
            assert finder.send(n, pics[(n - 1) % 3], jobs[(n - 1) % 3])
        assert finder._slots is not None
        assert [isinstance(job[1], tuple) for job in sent] == [True] * A.SLOTS + [False]   # the last: pickled
        assert sorted(finder._slots._busy.values()) == list(range(1, A.SLOTS + 1))
        assert finder.take(1) == here[0]
        assert sorted(finder._slots._busy.values()) == list(range(2, A.SLOTS + 1))
        assert finder.take(2) == here[1] and finder.take(3) == here[2] and not finder.dead
    # closed (the loop over): a line the read-ahead loads after starts no child again
    assert not finder.send(A.SLOTS + 2, pics[0], jobs[0]) and finder._proc is None


def test_a_batch_keeps_the_memory_it_frees() -> None:
    """Once a batch has begun (read_ahead), the pictures made and freed line after line (three at a time, as
    the read-ahead holds them) are paged in once, not every line (glibc's allocator keeps what is freed:
    vision.batch.keep_freed_memory; left as it was, some 40,000 page faults here)."""
    import resource
    list(read_ahead(iter([_job("a.jpg")]), _load, 1))
    if not keep_freed_memory():
        pytest.skip("no glibc mallopt here: the allocator left as it is")
    assert keep_freed_memory()   # (once set, the same answer)
    np.ones((720, 1280, 3), np.uint8)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for k in range(20):
        imgs = [np.empty((720, 1280, 3), np.uint8) for _ in range(3)]
        for img in imgs:
            img.fill(k)    # every page written, as a decoded picture's
        del imgs, img
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    assert faults < 60 * 675 // 4, faults   # (paged in afresh each time: 675 pages a picture)
