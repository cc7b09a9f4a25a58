"""The real table's camera thread learns the board from what the referee says it shows, and
keeps it beside the journal (a restart remembers it)."""
from __future__ import annotations

import queue
from dataclasses import replace

import cv2

from referee.table.config import TableConfig
from vision.config import VisionConfig
from referee.events import BoardEvidence
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from referee.table.devices import CameraThread
from referee.table.simdevices import board_evidence
from vision.layout import same_board
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


def _setup_drawn(tmp_path, frame) -> None:
    """The board as the camera laid it out at its first lesson, drawn over the frame it learned from,
    is beside the journal for the director to check (``board-setup.png``), and no half-written file."""
    drawn = cv2.imread(str(tmp_path / "board-setup.png"))
    assert drawn is not None and drawn.shape == frame.shape
    assert int((cv2.absdiff(drawn, frame).max(axis=2) > 30).sum()) > 1000
    assert not list(tmp_path.glob("*.tmp*"))


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
    _setup_drawn(tmp_path, frames[-1].image)
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
    # the same board, said once more when it is still again (the knock was a movement the table was told of)
    boards = [e for e in got if isinstance(e, BoardEvidence)]
    assert len(boards) <= 1 and all(same_board(e, board_evidence(start)) for e in boards), boards
    # the referee shows it as the camera's report, whatever the state
    decided = Referee().handle(told[0])
    assert [d.kind for d in decided] == ["camera"] and decided[0].reason.startswith("The camera: the board moved")


def _still_until(cam: CameraThread, events: "queue.Queue", frames: list,
                 until: float) -> tuple[list[str], float, float | None]:
    """``frames`` shown over and over, half a second apart, until ``until`` seconds: the camera's
    reports said meanwhile, the time reached, and the time after the round of frames in which the
    first report came (None: none came)."""
    from referee.events import CameraReport
    reports: list[str] = []
    t = 0.0
    first_said: float | None = None
    while t < until:
        for f in frames:
            cam.step(f.image, t)
            t += 0.5
        reports += [e.message for e in _drain(events) if isinstance(e, CameraReport)]
        if reports and first_said is None:
            first_said = t
    return reports, t, first_said


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
    reports, t, first_said = _still_until(cam, events, frames, FIRST_PATIENCE + 10)
    assert first_said is None or first_said >= FIRST_PATIENCE - 1   # players may still be setting up: not yet
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


def test_a_start_set_up_with_a_checker_off_is_not_learned_and_the_point_is_named(tmp_path) -> None:
    # the start set up with one of Dark's 6-point checkers on the 4-point: the plain reading is two
    # places off the start, within first_misfits, but the frame's own look under the start shows
    # those points otherwise (vision.setup_check): nothing is learned, and after FIRST_PATIENCE the
    # table names them; the checker put right, the start is learned and nothing more is said
    from referee.events import CameraReport
    from vision.compare_readings import FIRST_PATIENCE
    start = Position.start()
    pts = list(start.me)
    pts[5], pts[3] = 4, 1
    frames = _frames(Position(pts, start.opp), 4)
    cam, events = _camera(tmp_path, frames[0].corners)
    cam.known(start)
    reports, t, _ = _still_until(cam, events, frames, FIRST_PATIENCE + 10)
    assert cam.filter.learned == 0 and not (tmp_path / "board-memory.npz").exists()
    assert len(reports) == 1, reports
    assert reports[0].startswith("the board does not look like the position the referee expects: point ")
    assert "point 6 reads 4 dark (5 dark expected)" in reports[0] or "point 4 reads 1 dark (none expected)" \
        in reports[0], reports[0]
    for k, f in enumerate(_frames(start, 12, start=20)):
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


def _home_boards() -> Position:
    """Every checker of both sides on its own home board: a still board far from the start."""
    home = [0] * 25
    home[:6] = [3, 3, 3, 2, 2, 2]
    return Position(list(home), list(home))


def test_the_directors_order_learns_a_board_the_first_lesson_refused(tmp_path) -> None:
    # the still board reads far off the start told (here it is another position: as a board the
    # camera reads poorly looks to it), so nothing is learned unasked; the director, having
    # checked the set-up, orders the board learned as it stands: the next still frame teaches it,
    # whatever it reads, the table is told once what the camera alone read otherwise, and the
    # look is kept beside the journal
    from referee.events import CameraReport
    frames = _frames(_home_boards(), 8)
    cam, events = _camera(tmp_path, frames[0].corners)
    cam.known(Position.start())
    for k, f in enumerate(frames[:4]):
        cam.step(f.image, float(k))
    assert cam.filter.learned == 0 and not (tmp_path / "board-memory.npz").exists()
    _drain(events)
    cam.learn_as_it_stands(Position.start())
    for k, f in enumerate(frames[4:]):
        cam.step(f.image, 4.0 + k)
    assert cam.filter.learned == 1 and (tmp_path / "board-memory.npz").exists()
    memory = cam.filter.reader.memory
    assert memory is not None and memory.trained
    said = [e.message for e in _drain(events) if isinstance(e, CameraReport)]
    assert len(said) == 1, said
    assert said[0].startswith("the board is learned as it stands, as the referee's position; the camera alone "
                              "read it otherwise: point "), said[0]
    assert "expected" in said[0] and "more" in said[0]


def test_the_directors_order_on_a_learned_still_board_reads_it_afresh_and_learns_once(tmp_path) -> None:
    # a board learned at the start and standing still (its frames are not read again while
    # unchanged): the order is carried out on the next frame, once, and said as read alike
    from referee.events import CameraReport
    start = Position.start()
    frames = _frames(start, 14)
    cam, events = _camera(tmp_path, frames[0].corners)
    cam.known(start)
    for k, f in enumerate(frames[:8]):
        cam.step(f.image, float(k))
    assert cam.filter.learned == 1 and cam.filter.skipped > 0   # learned, then still frames skipped
    memory = cam.filter.reader.memory
    assert memory is not None
    lessons = memory.frames   # the frames the look was learned from
    _drain(events)
    cam.learn_as_it_stands(start)
    cam.step(frames[8].image, 8.0)   # (the order reaches the filter after this frame, on the camera thread)
    cam.step(frames[9].image, 9.0)
    assert cam.filter.learned == 2 and cam.filter.reader.memory is memory and memory.frames == lessons + 1
    said = [e.message for e in _drain(events) if isinstance(e, CameraReport)]
    assert said == ["the board is learned as it stands (the camera read it as the referee's position)"]
    for k, f in enumerate(frames[10:]):   # an order is carried out once: the still board is not learned again
        cam.step(f.image, 10.0 + k)
    assert cam.filter.learned == 2
    assert not [e for e in _drain(events) if isinstance(e, CameraReport)]


def test_the_directors_order_waits_for_a_still_board(tmp_path) -> None:
    # given while a hand is over the board: nothing is learned from the moving frames; the first
    # still board afterwards teaches it
    from vision.render import render
    start = Position.start()
    cam, events = _camera(tmp_path, _frames(start, 1)[0].corners)
    cam.learn_as_it_stands(start)
    for k in range(4):
        frame = render(board_evidence(start), RenderParams(flip_prob=0.0), seed=SEED + k, hand=True, frame=50 + k)
        cam.step(frame, float(k))
    assert cam.filter.learned == 0
    for k, f in enumerate(_frames(start, 6, start=60)):
        cam.step(f.image, 10.0 + k)
    assert cam.filter.learned == 1


class _Shown:
    """An output of the table core keeping every decision shown."""

    def __init__(self) -> None:
        self.decisions: list = []

    def show(self, view, decisions) -> None:
        self.decisions += decisions


def test_learn_board_goes_from_the_director_through_the_run_loop_to_the_camera(tmp_path) -> None:
    # bgtable run's own wiring: the director's order (journaled), the loop hands it to the camera
    # thread, the next still frames teach the board, and the camera's report reaches the screen;
    # a table resumed from the journal does not carry out the order again
    import threading

    from referee.officials import DirectorAction
    from referee.settings import Settings
    from referee.table.devices import Devices
    from referee.table.process import TableCore
    from referee.table.run import loop
    from referee.table.sdnotify import Notifier

    frames = _frames(_home_boards(), 12)
    cam, events = _camera(tmp_path, frames[0].corners)
    shown = _Shown()
    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3), [shown])
    dev = Devices(camera=cam)

    def run() -> None:
        loop(core, events, dev, Notifier({}), threading.Event(), max_seconds=0)

    run()   # the loop tells the camera the game's start
    for k, f in enumerate(frames[:5]):
        cam.step(f.image, float(k))
    assert cam.filter.learned == 0   # read too far off the start to be learned unasked
    [d] = core.handle(DirectorAction("learn_board", by="Carol", why="set-up checked", key="pin"))
    assert d.kind == "director"
    run()
    for k, f in enumerate(frames[5:]):
        cam.step(f.image, 5.0 + k)
    assert cam.filter.learned == 1 and (tmp_path / "board-memory.npz").exists()
    while not events.empty():
        run()
    said = [x for x in shown.decisions if x.kind == "camera"]
    assert said and "the board is learned as it stands" in said[-1].reason
    assert core.referee.state == "opening_roll"
    core.close()

    class Camera:   # records what the resumed loop asks of the camera
        def __init__(self) -> None:
            self.told: list = []
            self.ordered: list = []

        def known(self, board) -> None:
            self.told.append(board)

        def learn_as_it_stands(self, board) -> None:
            self.ordered.append(board)

    again = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3), [])
    assert again.referee.board_lessons == 1
    camera = Camera()
    loop(again, events, Devices(camera=camera), Notifier({}), threading.Event(), max_seconds=0)
    assert camera.told == [Position.start()] and camera.ordered == []
    again.close()


def test_an_order_not_carried_out_before_play_goes_on_is_dropped_and_said(tmp_path) -> None:
    # the director orders the board learned between turns, but hands stay over the board and the
    # player throws: the loop drops the order (the next still frame would show the move under
    # way, not the referee's position), the camera learns nothing and the table is told once
    import threading

    from referee.events import CameraReport
    from referee.officials import DirectorAction
    from referee.settings import Settings
    from referee.table.devices import Devices
    from referee.table.process import TableCore
    from referee.table.run import loop
    from referee.table.sdnotify import Notifier
    from referee.table.streams import Table
    from vision.lessons import ORDER_DROPPED

    start = Position.start()
    frames = _frames(start, 8)
    cam, events = _camera(tmp_path, frames[0].corners)
    core = TableCore.open(tmp_path / "current.jsonl", Settings(match_to=3), [])
    t = Table(core.referee)
    t.send = lambda *evs: [d for e in evs for d in core.handle(e)]  # type: ignore[method-assign]
    dev = Devices(camera=cam)

    def run() -> None:
        loop(core, events, dev, Notifier({}), threading.Event(), max_seconds=0)

    run()   # the table is running
    t.opening(3, 1)
    t.move("8/5 6/5")
    t.lift()
    assert core.referee.state == "waiting_for_roll"
    t.send(DirectorAction("learn_board", by="Carol", key="pin"))
    run()
    assert dev.order_open
    cam.step(frames[0].image, 0.0)      # the order reaches the camera thread (a first frame: not yet still)
    t.throw((6, 5))                     # play goes on before the board was seen still
    run()
    assert not dev.order_open
    for k, f in enumerate(frames[1:]):
        cam.step(f.image, 1.0 + k)
    said = [e.message for e in _drain(events) if isinstance(e, CameraReport)]
    assert said == [ORDER_DROPPED]
    assert cam.filter.learned == 0 and not (tmp_path / "board-memory.npz").exists()
    core.close()


def test_an_order_is_dropped_when_the_referee_tells_another_position_first(tmp_path) -> None:
    # the filter itself: an order for the start, then the referee's position changes (a set-up)
    # before a still frame: the order is dropped and said; the new position is learned as usual
    from referee.events import CameraReport
    from vision.lessons import ORDER_DROPPED
    start = Position.start()
    cam, events = _camera(tmp_path, _frames(start, 1)[0].corners)
    cam.learn_as_it_stands(start)
    cam.known(_home_boards())
    cam.step(_frames(start, 1)[0].image, 0.0)
    said = [e.message for e in _drain(events) if isinstance(e, CameraReport)]
    assert said == [ORDER_DROPPED]
    assert not cam.filter._ordered and cam.filter._known is not None


def test_an_order_the_memory_refuses_is_said_with_the_fix(tmp_path, monkeypatch) -> None:
    # the board lies further from where its look was learned than a knock (the memory refuses the
    # lesson, vision.memory.BoardMemory.learn): the director is told why and what to do
    from referee.events import CameraReport
    from vision.compare_readings import LEARN_REFUSED
    start = Position.start()
    frames = _frames(start, 6)
    cam, events = _camera(tmp_path, frames[0].corners)
    monkeypatch.setattr(cam.filter.reader, "learn", lambda *a, **k: False)
    cam.learn_as_it_stands(start)
    for k, f in enumerate(frames):
        cam.step(f.image, float(k))
    said = [e.message for e in _drain(events) if isinstance(e, CameraReport)]
    assert said == [LEARN_REFUSED] and "set the corners again" in said[0]
    assert not cam.filter._ordered
