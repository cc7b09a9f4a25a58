"""Vision: the checkers' size measured on the board (vision.size) and used by the reader."""
from __future__ import annotations

import numpy as np
import pytest

from vision import layout as L
from vision.config import VisionConfig
from vision.errors import ConfigError
from vision.read import ring_profiles
from vision.reader import BoardReader
from vision.rectify import rectify
from vision.render import RenderParams, render_scene
from dataclasses import replace

import vision.size as size_mod
from vision.params import ReadParams
from vision.size import LEARN_GAPS, MIN_GAPS, frame_spacings, measure_checker, rim_spacings


def _exact(ev, pos) -> bool:
    return ev is not None and ev.bar == pos.bar and all(
        a.count == b.count and a.colour == b.colour for a, b in zip(ev.points, pos.points))


def test_the_start_position_shows_small_checkers() -> None:
    size = 0.8
    for seed in (5100, 5101, 5102, 5103):
        r = render_scene(L.start_position(), RenderParams(checker=(size, size)), seed=seed)
        gaps = rim_spacings(ring_profiles(rectify(r.image, r.corners)))
        assert len(gaps) >= 15
        got = measure_checker(gaps)
        assert got is not None and abs(got - size) <= 0.03, f"seed {seed}: measured {got} for {size}"


def test_rings_of_the_wrong_size_look_again_with_other_sizes() -> None:
    """Rings of 1.1 on checkers of 0.8 miss most rims of the start position; the rings of the
    sizes searched find them, and the spacings measure the checkers."""
    r = render_scene(L.start_position(), RenderParams(checker=(0.8, 0.8)), seed=6001)
    view = rectify(r.image, r.corners)
    wrong = replace(ReadParams(), checker=1.1)
    assert len(rim_spacings(ring_profiles(view, wrong), wrong)) < MIN_GAPS    # (else this tests nothing)
    gaps = frame_spacings(view, wrong)
    assert len(gaps) >= MIN_GAPS
    got = measure_checker(gaps)
    assert got is not None and abs(got - 0.8) <= 0.03, got


def _spacings_by_size(monkeypatch: pytest.MonkeyPatch, found: dict[float, list[float]]) -> list[float]:
    """frame_spacings where the rings of each size find ``found[size]`` (the profiles not made)."""
    monkeypatch.setattr(size_mod, "ring_profiles", lambda view, params: params.checker)
    monkeypatch.setattr(size_mod, "rim_spacings", lambda prof, params: found.get(round(prof, 2), []))
    # other sizes' looks: the rim rows alone, the view's maps made once
    monkeypatch.setattr(size_mod, "rim_maps", lambda view: None)
    monkeypatch.setattr(size_mod, "rim_rows", lambda view, params, maps: (params.checker, None))
    monkeypatch.setattr(size_mod, "row_spacings", lambda full, dist, params: found.get(round(full, 2), []))
    return frame_spacings(None, ReadParams())  # type: ignore[arg-type]


def test_other_sizes_are_taken_only_when_they_find_twice_as_many(monkeypatch: pytest.MonkeyPatch) -> None:
    # a felt board whose checkers fill the point: the layout's rings find one spacing, 1.0's seven,
    # and rings at what those seven measure (1.07) ten
    assert _spacings_by_size(monkeypatch, {0.9: [1.07], 1.0: [1.07] * 7, 1.07: [1.07] * 10}) == [1.07] * 10
    # the layout's rings finding enough are never second-guessed
    assert _spacings_by_size(monkeypatch, {0.9: [0.9] * 10, 1.0: [1.0] * 20}) == [0.9] * 10
    # two more with other rings: the scatter of faint rims, the rings' own kept
    assert _spacings_by_size(monkeypatch, {0.9: [0.86] * 9, 1.0: [0.82] * 11, 0.82: [0.82] * 11}) == [0.86] * 9
    # twice as many but still too few to measure with: the rings' own
    assert _spacings_by_size(monkeypatch, {0.9: [1.0] * 2, 1.0: [1.0] * 6}) == [1.0] * 2


def test_a_measurement_near_the_layouts_size_or_from_few_spacings_is_the_layouts() -> None:
    assert measure_checker([0.92] * 20) == L.CHECKER
    assert measure_checker([0.8, 0.95, 1.05]) is None                     # too few to say
    scattered = [0.78, 1.05, 0.95, 1.1, 0.8, 1.0, 1.08, 0.9, 0.99, 1.06]  # median 0.995, but scattered
    assert measure_checker(scattered) == L.CHECKER
    assert measure_checker([0.8 + 0.01 * (k % 3) for k in range(20)]) == pytest.approx(0.81)


def test_a_reader_learns_small_checkers_from_the_start_and_reads_the_game_right() -> None:
    params = RenderParams(checker=(0.8, 0.8))
    rng = np.random.default_rng(77)
    learned = fixed = 0
    for k in range(6):
        seed = 5200 + k
        reader = BoardReader(VisionConfig())
        reader.read(render_scene(L.start_position(), params, seed=seed).image)
        assert abs(reader.checker_size - 0.8) <= 0.03, reader.checker_size
        pos = L.random_position(rng, tall=0.5)
        img = render_scene(pos, params, seed=seed).image
        learned += _exact(reader.read(img), pos)
        fixed += _exact(BoardReader(VisionConfig(checker=L.CHECKER)).read(img), pos)
    assert learned >= 5, f"{learned}/6 read exactly with the measured size"
    assert fixed < learned, "boards of small checkers should be misread with the layout's size (else this tests nothing)"


def test_large_checkers_are_learned_over_a_few_boards() -> None:
    """One frame of large checkers (0.95) is not enough to tell them from the layout's 0.9;
    the spacings of a few different boards are, and the reader then keeps the size."""
    params = RenderParams(checker=(0.95, 0.95))
    rng = np.random.default_rng(5)
    reader = BoardReader(VisionConfig())
    boards = [L.start_position()] + [L.random_position(rng, tall=0.0) for _ in range(12)]
    for pos in boards:
        img = render_scene(pos, params, seed=5400).image
        for _ in range(10):  # the reader looks at the spacings every tenth frame
            reader.read(img)
        if reader.checker is not None:
            break
    assert reader.checker is not None and abs(reader.checker - 0.95) <= 0.03, reader.checker


def test_a_still_board_is_counted_once_while_learning() -> None:
    r = render_scene(L.random_position(np.random.default_rng(3), tall=0.0), seed=5300)
    reader = BoardReader(VisionConfig())
    reader.read(r.image)
    first = len(reader._spacings)
    for _ in range(25):
        reader.read(r.image)
    assert len(reader._spacings) == first < LEARN_GAPS
    assert reader.checker is None


def test_a_reader_looks_with_other_sizes_on_a_few_learning_looks_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A board of few stacks gives few spacings on every look: the other sizes are looked with on
    the first SEARCHES looks that need it, not on every tenth frame of the game."""
    import vision.reader as reader_mod
    from vision.size import SEARCHES
    calls = []
    monkeypatch.setattr(reader_mod, "other_sizes", lambda view, params, own: calls.append(len(own)) or own)
    rng = np.random.default_rng(8)
    for k in range(20):   # a board whose stacks give too few spacings (one in three random boards)
        r = render_scene(L.random_position(rng, tall=0.0), seed=5500 + k)
        if len(rim_spacings(ring_profiles(rectify(r.image, r.corners)))) < MIN_GAPS:
            break
    reader = BoardReader(VisionConfig())
    for _ in range(80):   # eight learning looks
        reader.read(r.image)
    assert len(calls) == SEARCHES and all(n < MIN_GAPS for n in calls)


def test_the_configured_size_is_checked_and_used() -> None:
    assert VisionConfig.from_dict({"checker": 0.85}).read.checker == 0.85
    assert BoardReader(VisionConfig(checker=0.85)).checker == 0.85
    with pytest.raises(ConfigError, match="checker 38"):
        VisionConfig(checker=38)


def _start_reader(monkeypatch: pytest.MonkeyPatch, measured: float, found: dict[float, tuple[int, int]]):
    """A reader of a rendered start position whose rim spacings measure ``measured`` and whose
    reading with rings of a size finds ``found[size]`` checkers of each colour (the rows as read;
    only the counts differ): a measured size that misses rims, as on a real case seen from a seat."""
    import vision.reader as reader_mod
    real = reader_mod.read_view
    calls: list[float] = []

    def read_view(view, model=None, params=ReadParams(), prof=None):
        calls.append(round(params.checker, 3))
        assembled, learned = real(view, model, params, prof)
        return replace(assembled, totals=found.get(round(params.checker, 3), assembled.totals)), learned

    monkeypatch.setattr(reader_mod, "read_view", read_view)
    monkeypatch.setattr(reader_mod, "measure_checker", lambda gaps: measured)
    r = render_scene(L.start_position(), seed=7002)
    cs = " ".join(f"{x:.1f},{y:.1f}" for x, y in np.asarray(r.corners))
    return BoardReader(VisionConfig(markers=False, corners=cs, trays=False)), r.image, calls


def test_a_measured_size_that_finds_fewer_checkers_than_the_layouts_gives_way(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.reader import LAYOUT_FINDS
    reader, img, calls = _start_reader(monkeypatch, 0.79, {0.79: (7, 15), 0.9: (15, 15)})
    reader.inspect(img)
    assert calls == [0.79, 0.9]                       # read with the measured size, then the layout's
    assert reader.checker_size == L.CHECKER and reader._size_votes == [0, 1]
    reader.inspect(img)                               # the layout's size kept: one read a frame again
    assert calls[2:] == [0.9]
    # the layout's reading finding fewer than LAYOUT_FINDS more, or not every checker of both
    # colours (more than 15 of one, or fewer: a bear-off's board can tell nothing): kept as measured
    for found in ({0.79: (15, 14), 0.9: (15, 15)}, {0.79: (15, 15), 0.9: (15, 14)},
                  {0.79: (13, 10), 0.9: (16, 15)}, {0.79: (7, 12), 0.9: (15, 14)},
                  {0.79: (15 - LAYOUT_FINDS + 1, 15), 0.9: (15, 15)}):
        reader, img, calls = _start_reader(monkeypatch, 0.79, found)
        reader.inspect(img)
        assert calls == [0.79, 0.9] and reader.checker_size == 0.79 and reader._size_votes == [1, 0], found


def test_no_second_read_with_the_layouts_size_when_the_size_is_the_layouts_or_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    reader, img, calls = _start_reader(monkeypatch, L.CHECKER, {})
    reader.inspect(img)
    assert calls == [0.9]
    reader, img, calls = _start_reader(monkeypatch, 0.79, {0.79: (7, 15), 0.9: (15, 15)})
    reader.checker = 0.79                             # kept (learned or configured): never second-guessed
    reader.inspect(img)
    assert calls == [0.79]


def test_a_measured_size_is_checked_on_a_readers_first_few_frames_only(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.reader import SIZE_CHECKS
    reader, img, calls = _start_reader(monkeypatch, 0.79, {0.79: (15, 15), 0.9: (15, 14)})
    for _ in range(SIZE_CHECKS + 2):
        reader.inspect(img)
    assert calls == [0.79, 0.9] * SIZE_CHECKS + [0.79, 0.79]
    assert reader.checker_size == 0.79 and reader._size_votes == [SIZE_CHECKS, 0]


def test_the_other_sizes_rim_rows_are_the_profiles_own() -> None:
    # other_sizes reads the whole-rim rows alone, the view's gradient maps made once for every size: the same
    # scores, to the bit, as each size's whole profile
    from dataclasses import replace

    import numpy as np

    from vision.render import render_scene
    from vision.rims import rim_maps, rim_rows, ring_profiles
    from vision.reader import BoardReader
    from vision.config import VisionConfig
    scene = render_scene(L.random_position(np.random.default_rng(3)), seed=77)
    reader = BoardReader(VisionConfig(), corners=scene.corners)
    reader.inspect(scene.image)
    view = reader.last_view
    assert view is not None
    maps = rim_maps(view)
    for size in (0.8, 0.93, 1.1):
        params = replace(ReadParams(), checker=size)
        full, dist = rim_rows(view, params, maps)
        prof = ring_profiles(view, params)
        assert np.array_equal(full, prof.full) and np.array_equal(dist, prof.dist)
