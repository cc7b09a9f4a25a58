"""The frame teaching itself (vision/self_reference.py): what it must not believe.

On the dev frame test1 (tests/data/vision_real): a checker's look floating above a base that
looks empty (a dice cup, a hand) is not a checker; a point read further from what it held
before than any move goes tells nothing, and says so for every count of either colour, in
the reader's evidence too (the absolute reading only tilts it).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402

from referee.cli.judge import rows_evidence  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.rectify import View  # noqa: E402
from vision.self_reference import SelfReference  # noqa: E402

EMPTY_POINT = 9    # test1: top row, column 10, empty
STACK = 11         # test1: top row, column 12, three dark checkers (the cup's look)
BOTTOM_STACK = 17  # test1: bottom row, column 6, three dark checkers


def _test1() -> tuple[BoardReader, L.RowReading, View]:
    lab = VR.load_labels()["images"]["test1"]
    reader = BoardReader(VR.config_for(lab, "bottom-right"), corners=np.asarray(lab["corners"], np.float32))
    reader.inspect(VR.load_image("test1"), read_occluded=True)
    assert reader.last_view is not None and reader.setup is not None
    top, bottom = reader.setup.to_rows(rows_evidence(lab, "bottom-right"))
    return reader, L.RowReading(tuple(top), tuple(bottom), (0, 0), 1.0), reader.last_view


def _with_cup(view: View, geo_centres: np.ndarray, side: float, per: int) -> View:
    """The view with the pixels of STACK's three dark checkers laid one slot up the empty
    point EMPTY_POINT (its base slot left bare): a dark thing lying over the point, above its
    base, that looks just like this board's dark checkers."""
    img = view.image.copy()
    half = int(round(side * view.px / 2))

    def box(i: int) -> tuple[int, int]:
        x, y = geo_centres[i]
        return int(round((x - view.x0) * view.px)), int(round((y - view.y0) * view.px))

    for k in range(3):
        sx, sy = box(STACK * per + k)
        tx, ty = box(EMPTY_POINT * per + k + 1)
        img[ty - half:ty + half, tx - half:tx + half] = view.image[sy - half:sy + half, sx - half:sx + half]
    return View(img, view.px, view.margin, view.origin)


def _first(alts: list[tuple[int, object, float]]) -> tuple[int, object]:
    return alts[0][0], alts[0][1]


def test_checkers_looks_floating_above_a_bare_base_are_not_read_as_checkers() -> None:
    reader, rows, view = _test1()
    assert rows.top[EMPTY_POINT].count == 0 and (rows.top[STACK].count, rows.top[STACK].colour) == (3, "dark")
    plain = SelfReference(view, rows, reader.checker_size, reader.config.shape.height)
    cupped = _with_cup(view, plain.geo.centres, plain.geo.side, plain.geo.per_point)
    m = SelfReference(cupped, rows, reader.checker_size, reader.config.shape.height)
    per = m.geo.per_point
    slots = slice(EMPTY_POINT * per, (EMPTY_POINT + 1) * per)
    looks = m._looks_likelihoods(cupped)[slots]
    assert looks[0].argmax() == 0 and (looks[1:4].argmax(axis=1) == 1).all()  # bare base, dark looks above
    assert m._floating(m._looks_likelihoods(cupped))[slots][1:4].all()
    assert _first(m.odds(cupped)[0][EMPTY_POINT]) == (0, None)   # the base tells: nothing there
    assert _first(m.odds(cupped)[0][STACK])[1] == "dark"          # the real stack still reads dark
    assert _first(plain.odds(view)[0][EMPTY_POINT]) == (0, None)


def test_a_point_read_further_than_a_move_goes_tells_nothing_for_every_count() -> None:
    # the real three dark checkers of BOTTOM_STACK, said to have been two light ones before: no
    # move turns two light checkers into three dark (five checkers changed): the looks are wrong there
    reader, rows, view = _test1()
    bottom = list(rows.bottom)
    assert (bottom[BOTTOM_STACK - 12].count, bottom[BOTTOM_STACK - 12].colour) == (3, "dark")
    bottom[BOTTOM_STACK - 12] = L.PointReading(2, "light", 1.0)
    before = L.RowReading(rows.top, tuple(bottom), (0, 0), 1.0)
    m = SelfReference(view, before, reader.checker_size, reader.config.shape.height)
    assert m._misread(m._read_slots(view)[0])[BOTTOM_STACK]
    alts = m.odds(view)[0][BOTTOM_STACK]
    per = m.geo.per_point
    assert len(alts) == 2 * per + 1                     # every count of either colour, and empty
    assert {(n, c) for n, c, _ in alts} >= {(0, None), (1, "dark"), (1, "light")}
    assert max(p for *_, p in alts) == min(p for *_, p in alts)
    # told the truth before, the same point reads as it is
    m_true = SelfReference(view, rows, reader.checker_size, reader.config.shape.height)
    assert not m_true._misread(m_true._read_slots(view)[0])[BOTTOM_STACK]
    assert _first(m_true.odds(view)[0][BOTTOM_STACK]) == (3, "dark")


def test_a_plain_roll_moves_at_most_two_checkers_to_or_from_a_point() -> None:
    # the real three dark checkers of BOTTOM_STACK, said to have been empty before: a double's
    # four steps could bring three, a plain roll's two cannot (a dice cup lying on a stack's top
    # reads as more checkers so: unseen4's leather_lace)
    reader, rows, view = _test1()
    bottom = list(rows.bottom)
    bottom[BOTTOM_STACK - 12] = L.PointReading(0, None, 1.0)
    before = L.RowReading(rows.top, tuple(bottom), (0, 0), 1.0)
    size, height = reader.checker_size, reader.config.shape.height

    def misread(dice: object) -> bool:
        m = SelfReference(view, before, size, height, dice)  # type: ignore[arg-type]
        return bool(m._misread(m._read_slots(view)[0])[BOTTOM_STACK])

    assert not misread(None) and not misread((4, 4))
    assert misread((5, 3)) and misread((1, 2))
    # two checkers brought to a point that held one: a plain roll does that
    bottom[BOTTOM_STACK - 12] = L.PointReading(1, "dark", 1.0)
    before = L.RowReading(rows.top, tuple(bottom), (0, 0), 1.0)
    assert not misread((5, 3))


def test_the_move_limit_by_roll_and_a_roll_no_die_shows() -> None:
    import pytest

    from vision.errors import ConfigError
    from vision.self_reference import MOVE_MAX, move_max
    assert (move_max(None), move_max((6, 6)), move_max((3, 1))) == (MOVE_MAX, 4, 2)
    with pytest.raises(ConfigError, match=r"\(7, 1\)"):
        move_max((7, 1))


def test_a_point_that_tells_nothing_keeps_every_alternative_in_the_evidence() -> None:
    # the referee scores each legal position by the odds the evidence lists, and one it does not
    # list counts as all but impossible: the absolute reading (which only tilts the learned odds)
    # must not cut a point that tells nothing down to its own six likeliest, or the point would
    # tell, surely, against a position the frame never ruled out
    from vision.odds import SELF_TILT, TILT
    reader, rows, view = _test1()
    bottom = list(rows.bottom)
    bottom[BOTTOM_STACK - 12] = L.PointReading(2, "light", 1.0)   # three dark checkers now: no move does it
    assert reader.setup is not None
    before = reader.setup.to_evidence(L.RowReading(rows.top, tuple(bottom), (0, 0), 1.0))
    assert reader.assume(before, view)
    ev = reader.inspect(VR.load_image("test1")).evidence
    assert ev is not None
    point = next(p for p in range(1, 25) if reader.setup.slot(p) == ("bottom", BOTTOM_STACK - 12))
    alts = ev.odds[point - 1]
    per = reader.memory.geo.per_point if reader.memory is not None else 0
    assert {(n, c) for n, c, _ in alts} >= {(n, c) for c in ("dark", "light") for n in range(1, per + 1)} | {(0, None)}
    ps = [p for *_, p in alts]
    assert reader.memory is not None and reader.memory.tilt == SELF_TILT < TILT
    assert min(ps) >= SELF_TILT * max(ps) * (1 - 1e-3)   # tilted by the absolute reading, no more ...
    assert min(ps) < TILT * max(ps)   # ... though further than a look learned from known frames

