"""The real table's camera thread learns the board from what the referee says it shows, and
keeps it beside the journal (a restart remembers it)."""
from __future__ import annotations

import queue
from dataclasses import replace

from referee.table.config import TableConfig
from vision.config import VisionConfig
from referee.events import BoardEvidence
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.table.devices import CameraThread
from referee.table.simdevices import board_evidence
from vision.render import RenderParams, render_scene

SEED = 41


def _frames(pos: Position, n: int, start: int = 0):
    return [render_scene(board_evidence(pos), RenderParams(flip_prob=0.0), seed=SEED, frame=start + k)
            for k in range(n)]


def _drain(q: "queue.Queue") -> list:
    out = []
    while not q.empty():
        out.append(q.get_nowait())
    return out


def _camera(tmp_path, corners, **vision) -> tuple[CameraThread, "queue.Queue"]:
    pts = tuple((float(x), float(y)) for x, y in corners)
    config = replace(TableConfig(), vision=VisionConfig(corners=pts, **vision))
    events: "queue.Queue" = queue.Queue()
    return CameraThread(None, config, events, tmp_path / "board-memory.npz", start=False), events


def test_the_camera_learns_the_start_and_a_restart_remembers_it(tmp_path) -> None:
    start = Position.start()
    frames = _frames(start, 6)
    cam, events = _camera(tmp_path, frames[0].corners)
    cam.known(start)
    for k, f in enumerate(frames):
        cam.step(f.image, float(k))
    assert cam.filter.learned == 1 and (tmp_path / "board-memory.npz").exists()
    got = [e for e in _drain(events) if isinstance(e, BoardEvidence)]
    assert got and got[-1].odds  # readings carry their odds
    # a restart: the same table, a fresh camera thread, the board's look loaded from the file
    again, events2 = _camera(tmp_path, frames[0].corners)
    assert again.filter.reader.memory is not None and again.filter.reader.memory.trained
    after = legal_plays(start, 6, 1)[0].result.swap()
    for k, f in enumerate(_frames(after, 6, start=10)):
        again.step(f.image, float(k))
    boards = [e for e in _drain(events2) if isinstance(e, BoardEvidence)]
    assert boards and [(p.count, p.colour) for p in boards[-1].points] == \
        [(p.count, p.colour) for p in board_evidence(after).points]


def test_a_damaged_memory_file_is_said_and_learned_afresh(tmp_path) -> None:
    (tmp_path / "board-memory.npz").write_bytes(b"garbage")
    frames = _frames(Position.start(), 1)
    cam, events = _camera(tmp_path, frames[0].corners)
    assert cam.filter.reader.memory is None
    fault = events.get_nowait()
    assert "board-memory.npz" in fault.message and "afresh" in fault.message


def test_the_camera_thread_reads_the_board_as_the_config_says_it_is_built(tmp_path) -> None:
    config = replace(TableConfig(), vision=VisionConfig(bar_width=0.75, board_height=12.0, checker=0.95,
                                                      dark_home="top-left"))
    cam = CameraThread(None, config, queue.Queue(), None, start=False)
    vc = cam.filter.reader.config
    assert (vc.bar_width, vc.board_height, vc.checker, vc.dark_home) == (0.75, 12.0, 0.95, "top-left")


def test_a_board_found_again_after_a_knock_is_told_to_the_table(tmp_path) -> None:
    # a table without markers (corners set once), learned; the camera knocked 40 px: the board
    # is found again and the table is told, once, by how much it moved
    import numpy as np

    from referee.events import CameraReport
    from referee.turn.referee import Referee
    from vision import photo_edit as P
    start = Position.start()
    frames = [render_scene(board_evidence(start), RenderParams(flip_prob=0.0, markers=False), seed=SEED, frame=k)
              for k in range(30)]
    cam, events = _camera(tmp_path, frames[0].corners)
    cam.known(start)
    for k, f in enumerate(frames[:6]):
        cam.step(f.image, float(k))
    assert cam.filter.learned == 1
    _drain(events)
    before = np.asarray(cam.filter.reader.corners, np.float32).copy()
    for k, f in enumerate(frames[6:]):
        cam.step(P.moved(f.image, before, dx=40), 6.0 + k)
    got = _drain(events)
    told = [e for e in got if isinstance(e, CameraReport)]
    assert len(told) == 1 and "found again" in told[0].message, got
    moved = float(told[0].message.split("up to ")[1].split(" px")[0])
    assert 36 <= moved <= 48
    assert cam.filter.reader.corner_source == "found again"
    assert not [e for e in got if isinstance(e, BoardEvidence)]  # the same board: nothing new to judge
    # the referee shows it as the camera's report, whatever the state
    decided = Referee().handle(told[0])
    assert [d.kind for d in decided] == ["camera"] and decided[0].reason.startswith("The camera: the board moved")


def test_a_still_board_unlike_the_first_position_told_is_said_once(tmp_path) -> None:
    # the referee says the game starts, but the still board shows another position (a set-up
    # gone wrong): nothing is learned, and after FIRST_PATIENCE seconds of still frames the table
    # is told once which points differ; the start set up afterwards is learned as usual
    from referee.events import CameraReport
    from vision.compare_readings import FIRST_PATIENCE
    start = Position.start()
    home = [0] * 25
    home[:6] = [3, 3, 3, 2, 2, 2]           # every checker of both sides on its own home board
    wrong = Position(list(home), list(home))
    frames = _frames(wrong, 4)
    cam, events = _camera(tmp_path, frames[0].corners)
    cam.known(start)
    reports: list[str] = []
    t = 0.0
    while t < FIRST_PATIENCE + 10:
        for f in frames:
            cam.step(f.image, t)
            t += 0.5
        reports += [e.message for e in _drain(events) if isinstance(e, CameraReport)]
        if t < FIRST_PATIENCE - 1:
            assert not reports   # players may still be setting up: not yet
    assert cam.filter.learned == 0 and not (tmp_path / "board-memory.npz").exists()
    assert len(reports) == 1, reports
    said = reports[0]
    assert said.startswith("the board does not look like the position the referee expects: point ")
    assert "expected" in said and "and " in said and "more" in said   # more than four points differ
    # the board is then set up right: learned, nothing more said
    for k, f in enumerate(_frames(start, 30, start=20)):   # (a big still change waits REBASE_FRAMES)
        cam.step(f.image, t + k)
    assert cam.filter.learned == 1
    assert not [e for e in _drain(events) if isinstance(e, CameraReport)]


def test_with_first_misfits_25_any_still_board_is_learned_as_the_first_position_told(tmp_path) -> None:
    # the director checked the set-up of a board the camera reads poorly and set first_misfits = 25:
    # the still board is learned as the position told however the plain reading differs
    home = [0] * 25
    home[:6] = [3, 3, 3, 2, 2, 2]
    frames = _frames(Position(list(home), list(home)), 6)
    cam, events = _camera(tmp_path, frames[0].corners, first_misfits=25)
    cam.known(Position.start())
    for k, f in enumerate(frames):
        cam.step(f.image, float(k))
    assert cam.filter.learned == 1 and (tmp_path / "board-memory.npz").exists()
