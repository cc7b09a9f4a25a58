"""The real table's camera thread watches the dice (issue 15): once the board is still it looks
for dice only where the board changed, and puts the camera's view of them on the queue when it
changes (the dice thrown, then none when they are lifted)."""
from __future__ import annotations

import queue
from dataclasses import replace

from referee.events import DiceSeen
from referee.rules.position import Position
from referee.table.config import TableConfig
from referee.table.devices import CameraThread
from referee.table.simdevices import board_evidence
from vision.config import VisionConfig
from vision.render import RenderParams, render_scene
from vision.render_props import Die

SEED = 41
PARAMS = RenderParams(flip_prob=0.0, glare_prob=0.0, shadow_prob=0.0)


def _frame(k: int, dice: list[Die]):
    return render_scene(board_evidence(Position.start()), PARAMS, seed=SEED, frame=k, dice=dice)


def _camera(corners, dice: bool = True) -> tuple[CameraThread, "queue.Queue"]:
    pts = tuple((float(x), float(y)) for x, y in corners)
    config = replace(TableConfig(), vision=VisionConfig(corners=pts, dice=dice))
    events: "queue.Queue" = queue.Queue()
    return CameraThread(None, config, events, None, start=False), events


def _seen(events: "queue.Queue") -> list[DiceSeen]:
    out = []
    while not events.empty():
        e = events.get_nowait()
        if isinstance(e, DiceSeen):
            out.append(e)
    return out


def test_the_camera_thread_says_the_dice_thrown_and_lifted_once_each() -> None:
    thrown = [Die(5, 9.0, 5.0, angle=20.0, size=0.4), Die(3, 10.6, 6.2, angle=-10.0, size=0.4)]
    first = _frame(0, [])
    cam, events = _camera(first.corners)
    k = 0
    for dice in ([], thrown, thrown, []):  # the empty board, the throw (still for a while), the lift
        for _ in range(4):
            cam.step(_frame(k, dice).image, float(k))
            k += 1
    seen = _seen(events)
    assert [len(s.dice) for s in seen] == [2, 0], seen
    (a, b) = seen[0].dice
    assert sorted(v for v in (a.value, b.value) if v is not None) in ([3, 5], [3], [5]), seen[0]
    assert {a.zone, b.zone} == {"right"}  # Dark's right-hand half (Dark sits at the bottom)
    assert cam.dice_watch.looks <= 3  # looked once per still spell with a change, not every frame


def test_without_dice_watching_in_the_config_the_camera_says_nothing_of_dice() -> None:
    first = _frame(0, [])
    cam, events = _camera(first.corners, dice=False)
    for k in range(8):
        cam.step(_frame(k, [] if k < 4 else [Die(4, 9.0, 5.0, size=0.4)]).image, float(k))
    assert cam.dice_watch is None and _seen(events) == []


def test_the_dice_seen_are_told_to_the_learned_board_and_forgotten_when_lifted() -> None:
    """The learned board (vision.memory) hears of the dice the watch sees, so their slots' strange
    look is a die's, not an arm's; once the dice are lifted it hears that none lie there."""
    thrown = [Die(5, 9.0, 5.0, angle=20.0, size=0.4), Die(3, 10.6, 6.2, angle=-10.0, size=0.4)]
    first = _frame(0, [])
    cam, events = _camera(first.corners)
    k = 0
    under = []
    for dice in ([], thrown, thrown, []):
        for _ in range(4):
            cam.step(_frame(k, dice).image, float(k))
            if k == 3:
                cam.known(Position.start())
            k += 1
        memory = cam.filter.reader.memory
        under.append(None if memory is None else int(memory.under_dice.sum()))
    assert under[0] is None  # learned from the next frame on
    assert under[1] and under[2], under  # the slots the two dice lie over
    assert under[3] == 0, under
    assert [len(s.dice) for s in _seen(events)] == [2, 0]
