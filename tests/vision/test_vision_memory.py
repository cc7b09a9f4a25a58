"""The table learns its own board (vision.memory) and reads a later frame by it."""
from __future__ import annotations

import numpy as np
import pytest

from referee.turn.matching import layout_of, layout_to_evidence, match_reading
from referee.rules.moves import legal_plays
from referee.rules.position import Position
from vision import layout as L
from vision.config import VisionConfig
from vision.memory import BoardMemory
from vision.reader import BoardReader
from vision.render import RenderParams, render_scene


def _ev(pos: Position):
    return layout_to_evidence(layout_of(pos))


def _learned_reader(seed: int, pos: Position = Position.start()) -> tuple[BoardReader, np.ndarray]:
    r0 = render_scene(_ev(pos), RenderParams(), seed=seed)
    reader = BoardReader(VisionConfig(markers=False), corners=r0.corners)
    reader.inspect(r0.image)
    assert reader.learn(_ev(pos))
    return reader, r0.corners


@pytest.mark.parametrize("seed", [3, 11, 27])
def test_after_the_start_position_a_move_is_read_by_the_learned_look(seed: int) -> None:
    reader, _ = _learned_reader(seed)
    start = Position.start()
    cands = [lp.result.swap() for lp in legal_plays(start, 6, 4)]
    true = cands[len(cands) // 2]
    rr = render_scene(_ev(true), RenderParams(), seed=seed, frame=1)
    ev = reader.inspect(rr.image).evidence
    assert ev is not None and len(ev.odds) == 26
    v = match_reading(ev, start, cands, "dark")
    assert v.kind == "match" and cands[v.indices[0]] == true
    # every point's most likely cell is the truth
    got = [(p.count, p.colour) for p in ev.points]
    want = [(p.count, p.colour) for p in rr.truth.points]
    assert got == want


def test_a_hand_over_a_learned_board_is_covered_and_gives_no_reading() -> None:
    covered = 0
    for seed in (4, 5, 6):
        reader, _ = _learned_reader(seed)
        rr = render_scene(L.start_position(), RenderParams(), seed=seed, hand=True, frame=2)
        r = reader.inspect(rr.image)
        covered += r.occluded and r.evidence is None
    assert covered >= 2


def test_a_still_board_is_not_covered() -> None:
    reader, _ = _learned_reader(8)
    rr = render_scene(L.start_position(), RenderParams(), seed=8, frame=3)
    assert reader.memory is not None and not reader.memory.covered(reader.inspect(rr.image).view)


def test_memory_round_trips_through_its_file_and_a_damaged_file_is_named(tmp_path) -> None:
    reader, corners = _learned_reader(9)
    m = reader.memory
    assert m is not None
    path = str(tmp_path / "board-memory.npz")
    m.save(path)
    back = BoardMemory.load(path)
    assert back.frames == m.frames and np.array_equal(back.look, m.look) and np.array_equal(back.seen, m.seen)
    assert np.allclose(back.corners, corners)
    (tmp_path / "bad.npz").write_bytes(b"not a memory")
    with pytest.raises(ValueError, match="bad.npz"):
        BoardMemory.load(str(tmp_path / "bad.npz"))


def test_a_camera_that_moved_starts_afresh() -> None:
    reader, corners = _learned_reader(10)
    m = reader.memory
    assert m is not None and m.trained
    rr = render_scene(L.start_position(), RenderParams(), seed=10, frame=1)
    view = reader.inspect(rr.image).view
    m.learn(view, L.RowReading(*reader.setup.to_rows(L.start_position()), (0, 0)), corners + 30)  # type: ignore[union-attr]
    assert m.frames == 1  # reset, then learned from this frame only
