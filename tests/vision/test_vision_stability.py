"""The stability filter: hands over the board never give a stable reading; still boards do."""
from __future__ import annotations

import numpy as np
from referee.events import BoardEvidence, HandOverBoard

from vision import layout as L
from vision.config import VisionConfig
from vision.reader import BoardReader
from vision.render import SCHEMES, RenderParams, render
from vision.stability import State, StabilityFilter


def _frames(pos: BoardEvidence, scheme: str, seed: int, hands: list[bool]) -> list[np.ndarray]:
    out = []
    for k, h in enumerate(hands):
        img = render(pos, RenderParams(scheme=scheme), seed=seed, hand=h)
        noise = np.random.default_rng(k).integers(0, 3, img.shape, dtype=np.uint8)
        out.append(np.clip(img.astype(np.int16) + noise, 0, 255).astype(np.uint8))
    return out


def test_still_board_then_hand_then_still_again() -> None:
    bad = 0
    for s in range(6):
        pos = L.random_position(np.random.default_rng(40 + s))
        hands = [False] * 4 + [True] * 4 + [False] * 4
        sf = StabilityFilter(BoardReader(VisionConfig()))
        events = [sf.feed(f, t=k) for k, f in enumerate(_frames(pos, SCHEMES[s % len(SCHEMES)].name, 300 + s, hands))]
        boards = [k for k, e in enumerate(events) if isinstance(e, BoardEvidence)]
        assert all(not hands[k] for k in boards)  # never while a hand is over the board
        first = next(e for e in events if isinstance(e, BoardEvidence))
        bad += not L.same_board(first, pos)
        assert any(isinstance(e, HandOverBoard) for e in events[4:8])
        assert sf.state == State.STABLE
    assert bad <= 1


def test_the_same_board_is_said_again_once_still_after_a_hand() -> None:
    # a hand that changed nothing (or lifted the dice off the board): the referee was told of the
    # hand and waits for a still board, so the board is said again once still, then not again
    pos = L.random_position(np.random.default_rng(41))
    hands = [False] * 6 + [True] * 3 + [False] * 10
    sf = StabilityFilter(BoardReader(VisionConfig()))
    events = [sf.feed(f, t=k) for k, f in enumerate(_frames(pos, "walnut", 301, hands))]
    boards = [k for k, e in enumerate(events) if isinstance(e, BoardEvidence)]
    assert len(boards) == 2 and boards[0] < 6 < 9 <= boards[1], boards
    assert L.same_board(events[boards[0]], events[boards[1]])


def test_the_same_board_is_said_again_when_the_dice_vanish_between_two_frames() -> None:
    # the dice picked up too fast for a hand to be seen: the picture changed, the board reads the
    # same; the referee waiting for the board without the dice is told once
    from vision.render_props import Die
    pos = L.start_position()
    dice = [Die(5, L.BAR_RIGHT + 1.5, L.HEIGHT / 2 + 0.3, angle=20, size=0.4),
            Die(3, L.BAR_RIGHT + 3.5, L.HEIGHT / 2 - 0.2, angle=50, size=0.4)]
    sf = StabilityFilter(BoardReader(VisionConfig()))
    params = RenderParams(flip_prob=0.0, glare_prob=0.0, shadow_prob=0.0, noise_max=2.0)
    events = [sf.feed(render(pos, params, seed=3, frame=k, dice=dice if k < 8 else []), t=k) for k in range(16)]
    boards = [k for k, e in enumerate(events) if isinstance(e, BoardEvidence)]
    assert len(boards) == 2 and boards[0] < 8 <= boards[1], boards
    assert not any(isinstance(e, HandOverBoard) for e in events)
    assert L.same_board(events[boards[0]], events[boards[1]])


def test_a_reading_must_repeat_before_it_is_reported() -> None:
    pos = L.start_position()
    frames = _frames(pos, "walnut", 5, [False] * 5)
    sf = StabilityFilter(BoardReader(VisionConfig(stable_frames=2, repeat=2)))
    events = [sf.feed(f, t=k) for k, f in enumerate(frames)]
    kinds = [type(e).__name__ if e else None for e in events]
    # frame 0 has no previous frame, 1 and 2 are quiet, readings on 2 and 3 agree
    assert kinds == [None, None, None, "BoardEvidence", None]
    assert L.same_board(events[3], pos)


def test_a_moved_checker_gives_a_new_reading() -> None:
    a = L.start_position()
    pts = list(a.points)
    pts[5] = type(pts[5])(4, "dark")
    pts[4] = type(pts[4])(1, "dark")
    b = BoardEvidence(points=tuple(pts), bar=(0, 0), off=(0, 0))
    sf = StabilityFilter(BoardReader(VisionConfig()))
    seq = _frames(a, "felt-green", 8, [False] * 4) + _frames(a, "felt-green", 8, [True] * 2) + _frames(b, "felt-green", 8, [False] * 4)
    got = [e for e in (sf.feed(f, t=k) for k, f in enumerate(seq)) if isinstance(e, BoardEvidence)]
    assert len(got) == 2 and L.same_board(got[0], a) and L.same_board(got[1], b)


def test_a_whole_stack_cleared_at_once_is_read_after_it_stays_still() -> None:
    a = L.start_position()
    pts = list(a.points)
    pts[12] = type(pts[12])(0)       # Dark's five on point 13 ...
    pts[9] = type(pts[9])(5, "dark")  # ... now on point 10
    b = BoardEvidence(points=tuple(pts), bar=(0, 0), off=(0, 0))
    sf = StabilityFilter(BoardReader(VisionConfig()))
    seq = _frames(a, "walnut", 21, [False] * 4) + _frames(b, "walnut", 21, [False] * 16)
    got = [e for e in (sf.feed(f, t=k) for k, f in enumerate(seq)) if isinstance(e, BoardEvidence)]
    assert len(got) == 2 and L.same_board(got[1], b)


class _ScriptedReader(BoardReader):
    """The real quiet check on real frames, but readings from a script (to steer confidences)."""

    def __init__(self, corners: np.ndarray, readings: list[BoardEvidence]) -> None:
        super().__init__(VisionConfig(), corners=corners)
        self.script = list(readings)

    def read(self, frame: np.ndarray, t: float = 0.0):  # type: ignore[override]
        return self.script.pop(0) if len(self.script) > 1 else self.script[0]


def _with_conf(ev: BoardEvidence, board: float, point: float) -> BoardEvidence:
    pts = tuple(type(p)(p.count, p.colour, point) for p in ev.points)
    return BoardEvidence(points=pts, bar=ev.bar, off=ev.off, confidence=board)


def test_the_same_board_read_more_surely_is_reported_again() -> None:
    from vision.render import render_scene
    from vision.stability import surer
    pos = L.start_position()
    sc = render_scene(pos, RenderParams(scheme="walnut"), seed=3)
    unsure, sure = _with_conf(pos, 0.3, 0.9), _with_conf(pos, 0.9, 0.9)
    assert surer(sure, unsure) and not surer(unsure, sure) and not surer(sure, sure)
    sf = StabilityFilter(_ScriptedReader(sc.corners, [unsure, unsure, unsure, sure]))
    got = [e for e in (sf.feed(sc.image, t=k) for k in range(10)) if isinstance(e, BoardEvidence)]
    assert [e.confidence for e in got] == [0.3, 0.9]  # once unsure, once sure, then quiet


def test_a_still_board_with_fresh_sensor_noise_each_frame_settles() -> None:
    settled = 0
    for s in range(4):
        pos = L.random_position(np.random.default_rng(60 + s))
        sf = StabilityFilter(BoardReader(VisionConfig()))
        params = RenderParams(scheme=SCHEMES[s % len(SCHEMES)].name, noise_max=6.0)
        events = [sf.feed(render(pos, params, seed=700 + s, frame=k + 1), t=k) for k in range(6)]
        settled += any(isinstance(e, BoardEvidence) for e in events)
    assert settled >= 3


def test_the_same_board_with_its_trays_now_read_is_surer() -> None:
    from dataclasses import replace

    from vision.stability import surer
    pos = L.random_position(np.random.default_rng(3))
    without = replace(pos, off=None, confidence=0.9)
    assert surer(replace(pos, confidence=0.9), without)
    assert not surer(without, replace(pos, confidence=0.9))
    assert not surer(replace(pos, confidence=0.3), without)   # an unsure board is not surer for its trays


def test_the_thumbnail_is_the_plain_warp_and_its_read_ahead_covers_what_the_warp_reads() -> None:
    """Reading the frame ahead (speed only) changes no pixel of the thumbnail, and the part read
    ahead holds every source pixel of the warp (and the neighbour it blends), in the frame."""
    import cv2

    from vision.rectify import homography
    from vision.render import render_scene
    from vision.thumbnail import THUMB_MARGIN, THUMB_PX, THUMB_SIZE, touched_part
    sc = render_scene(L.start_position(), RenderParams(scheme="walnut"), seed=3)
    sf = StabilityFilter(BoardReader(VisionConfig(), corners=sc.corners))
    H = homography(sc.corners, THUMB_PX, THUMB_MARGIN)
    plain = cv2.warpPerspective(sc.image, H, THUMB_SIZE, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    assert np.array_equal(sf._thumb(sc.image).image, plain) and sf._touch is not None
    assert np.array_equal(sf._thumb(sc.image[:, :, :].copy()).image, plain)
    y0, y1, b0, b1 = sf._touch
    h, w = sc.image.shape[:2]
    inv = np.linalg.inv(H)
    ys, xs = np.mgrid[0:THUMB_SIZE[1], 0:THUMB_SIZE[0]]
    q = inv @ np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)])
    sx, sy = np.clip(q[0] / q[2], 0, w - 1), np.clip(q[1] / q[2], 0, h - 1)
    assert y0 <= sy.min() and np.minimum(np.floor(sy) + 1, h - 1).max() < y1
    assert b0 <= 3 * np.floor(sx.min()) and 3 * (np.minimum(np.floor(sx) + 1, w - 1).max() + 1) <= b1
    assert touched_part(np.zeros((3, 3)), (720, 1280, 3)) is None   # no warp: nothing to read ahead


def _still(img: np.ndarray, n: int) -> list[np.ndarray]:
    """``n`` frames of one still scene, each with its own sensor noise."""
    return [np.clip(img.astype(np.int16) + np.random.default_rng(k).integers(0, 3, img.shape, dtype=np.uint8),
                    0, 255).astype(np.uint8) for k in range(n)]


def test_a_hand_held_still_over_the_board_is_shown_to_the_reader_and_never_read() -> None:
    # a big still change the thumbnail calls covered is shown to the reader every REBASE_FRAMES
    # frames (it could be a knocked camera): a hand is refused there, and the corners stay
    pos = L.random_position(np.random.default_rng(7))
    sf = StabilityFilter(BoardReader(VisionConfig()))
    board = _still(render(pos, RenderParams(scheme="walnut"), seed=7), 6)
    hand = _still(render(pos, RenderParams(scheme="walnut"), seed=7, hand=True), 45)
    events = [sf.feed(f, t=k) for k, f in enumerate(board + hand)]
    corners = sf.reader.corners
    assert any(isinstance(e, BoardEvidence) for e in events[:6])
    assert not any(isinstance(e, BoardEvidence) for e in events[6:])
    assert sf.state == State.MOVING and sf.reader.corners is corners


def test_a_big_still_change_near_the_limit_is_taken_as_the_board_once_still() -> None:
    # a board set up afresh whose change from the last still board is near the limit, in camera noise: its
    # frames fall over the limit and just under it by turns; counted as one big still change until a frame is
    # clearly back (under half the limit), it becomes the board after REBASE_FRAMES frames, with one hand said
    from vision.stability import REBASE_FRAMES
    a = L.start_position()
    pts = list(a.points)
    pts[12], pts[9] = type(pts[12])(0), type(pts[9])(5, "dark")   # Dark's five on point 13 now on point 10
    b = BoardEvidence(points=tuple(pts), bar=(0, 0), off=(0, 0))
    sf = StabilityFilter(BoardReader(VisionConfig()))
    first = [sf.feed(f, t=k) for k, f in enumerate(_still(render(a, RenderParams(scheme="walnut"), seed=7), 8))]
    assert any(isinstance(e, BoardEvidence) for e in first)
    ref_a, real = sf._ref, sf._changed_a_lot
    share_of_limit = iter([1.2, 0.8] * 20)   # the change from the first board, as a share of the limit

    def near_the_limit(grey: np.ndarray, ref: np.ndarray, share: float = 1.0) -> bool:
        return next(share_of_limit) > share if ref is ref_a else real(grey, ref, share)
    sf._changed_a_lot = near_the_limit  # type: ignore[method-assign]
    frames = _still(render(b, RenderParams(scheme="walnut"), seed=7), REBASE_FRAMES + 8)
    events = [sf.feed(f, t=8 + k) for k, f in enumerate(frames)]
    boards = [e for e in events if isinstance(e, BoardEvidence)]
    assert len(boards) == 1 and L.same_board(boards[0], b)
    assert sum(isinstance(e, HandOverBoard) for e in events) == 1
    assert events.index(boards[0]) >= REBASE_FRAMES - 1   # not before it is taken as the board


def test_a_knocked_real_camera_settles_on_the_board_found_again() -> None:
    # a real frame of the wtc2022 table, learned; then the camera knocked 40 px: the thumbnail
    # sees the frame band crossed, so before, the table stayed "moving" for ever and the reader
    # (which finds the board again) was never asked
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import vision_real as VR
    from vision import photo_edit as P
    data = VR.load_labels()
    labels, tables = data["images"], data["tables"]
    reader = VR.learned_reader("test9", labels, tables)
    corners = np.asarray(reader.corners, np.float32).copy()
    img = VR.load_image("test9")
    sf = StabilityFilter(reader)
    first = [sf.feed(f, t=k) for k, f in enumerate(_still(img, 6))]
    before = next(e for e in first if isinstance(e, BoardEvidence))
    knocked = [sf.feed(f, t=6 + k) for k, f in enumerate(_still(P.moved(img, corners, dx=40), 20))]
    assert reader.corner_source == "found again"
    assert np.abs(np.asarray(reader.corners) - (corners + np.float32([40, 0]))).max() < 2.0
    assert sf.state == State.STABLE
    # the same board, said once more when still again (the knock was a movement the table was told of)
    again = [e for e in knocked if isinstance(e, BoardEvidence)]
    assert len(again) <= 1 and all(L.same_board(e, before) for e in again)
    assert sf.last is not None and L.same_board(sf.last, before)
