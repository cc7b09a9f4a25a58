"""The speed work changes no reading: rendered boards read as the base commit read them.

``tests/data/vision/speed_readings.json`` was recorded by ``python3 tests/vision/test_speed_equivalence.py
record`` on commit b1b8704 (before the read and stability work of issue 19), again on 3ec7678
(the absolute reading's second looks against the bare points changed readings on purpose), and
again when the kept warp became a float remap of the same grid (branch fastread3: 97 of the 200
readings moved in a confidence, none in a count, colour, bar, tray or evidence; the accuracy
figures held), recorded on the merge of both, and again on branch absread4 (a board with 5+
unsure points keeps only its firm points sure: 15 of the 200 readings moved in a confidence, none
in a count, colour, bar, tray or evidence): every point's count,
colour and confidence, the bar, the board's confidence, the trays and the evidence, for
:data:`CASES` rendered boards, each read by one reader three times (the first read warps, later
ones remap and know the colours; the third is a fresh frame of the same board) and once by a
reader that finds the markers and measures the checkers' size.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from referee.events import BoardEvidence, PointReading  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.reader import BoardReader, Reading  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402

DATA = ROOT / "tests" / "data" / "vision" / "speed_readings.json"
CASES = 50
SEED0 = 5000


def _params(k: int) -> RenderParams:
    """Every third board with checkers of another size than the layout's (the size is measured)."""
    return RenderParams(checker=(0.8, 0.95)) if k % 3 == 2 else RenderParams()


def summary(r: Reading, reader: BoardReader) -> dict[str, Any]:
    """A reading as plain JSON values: everything the reader hands on."""
    out: dict[str, Any] = {"occluded": r.occluded, "checker": round(reader.checker_size, 6)}
    if r.rows is not None:
        rows = r.rows
        out["rows"] = [[p.count, p.colour, p.confidence] for p in rows.top + rows.bottom]
        out["bar"] = list(rows.bar)
        out["confidence"] = rows.confidence
    t = r.trays
    out["trays"] = None if t is None else [t.dark, t.light, t.sure, list(t.sides)]
    ev = r.evidence
    out["evidence"] = None if ev is None else {
        "points": [[p.count, p.colour, p.confidence] for p in ev.points], "bar": list(ev.bar),
        "off": None if ev.off is None else list(ev.off), "confidence": ev.confidence}
    return out


def read_case(k: int) -> list[dict[str, Any]]:
    """Case ``k``'s four readings (see the module docstring)."""
    seed = SEED0 + k
    pos = L.random_position(np.random.default_rng(seed))
    sc = render_scene(pos, _params(k), seed=seed)
    later = render_scene(pos, _params(k), seed=seed, frame=1).image
    reader = BoardReader(VisionConfig(), corners=sc.corners)
    out = [summary(reader.inspect(img, read_occluded=True), reader) for img in (sc.image, sc.image, later)]
    markers = BoardReader(VisionConfig())
    try:
        out.append(summary(markers.inspect(sc.image, read_occluded=True), markers))
    except Exception as exc:  # noqa: BLE001  (recorded as it was: BoardNotFound)
        out.append({"error": type(exc).__name__})
    return out


def _recorded() -> Optional[dict[str, Any]]:
    return json.loads(DATA.read_text()) if DATA.exists() else None


@pytest.mark.parametrize("k", range(CASES))
def test_readings_are_those_of_the_base_commit(k: int) -> None:
    rec = _recorded()
    assert rec is not None, f"{DATA} is missing (record it on the base commit)"
    assert read_case(k) == rec["cases"][k]


def main(argv: list[str]) -> int:
    if argv[1:] != ["record"]:
        print("usage: python3 tests/vision/test_speed_equivalence.py record", file=sys.stderr)
        return 2
    import subprocess
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    cases = [read_case(k) for k in range(CASES)]
    DATA.write_text(json.dumps({"commit": commit, "cases": cases}, separators=(",", ":")) + "\n")
    print(f"wrote {DATA}: {CASES} cases from {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))


# --------------------------------------------------------------------------- the still board


class _CountingReader(BoardReader):
    """A real reader that counts its full reads."""

    def __init__(self, corners: Optional[np.ndarray] = None, config: VisionConfig = VisionConfig()) -> None:
        super().__init__(config, corners=corners)
        self.reads = 0

    def read(self, frame: np.ndarray, t: float = 0.0) -> Optional[BoardEvidence]:
        self.reads += 1
        return super().read(frame, t)


def _moved_one(pos: BoardEvidence) -> BoardEvidence:
    """``pos`` with one checker of its first stack of two or more taken to the bar."""
    pts = list(pos.points)
    i = next(k for k, p in enumerate(pts) if p.count >= 2)
    pts[i] = PointReading(pts[i].count - 1, pts[i].colour)
    dark = pts[i].colour == "dark"
    return BoardEvidence(points=tuple(pts), bar=(pos.bar[0] + dark, pos.bar[1] + (not dark)), off=pos.off)


def _sequence(k: int) -> list[np.ndarray]:
    """A still board (fresh sensor noise every frame), then the same board with one checker
    moved (no hand seen: the worst case for skipping reads), then a hand, then still again."""
    from vision.render import SCHEMES
    seed = 600 + k
    pos = L.random_position(np.random.default_rng(seed))
    p = RenderParams(scheme=SCHEMES[k % len(SCHEMES)].name)
    moved = _moved_one(pos)
    frames = [render_scene(pos, p, seed=seed, frame=f + 1).image for f in range(8)]
    frames += [render_scene(moved, p, seed=seed, frame=f + 20).image for f in range(8)]
    frames += [render_scene(moved, p, seed=seed, hand=True, frame=40).image]
    frames += [render_scene(pos, p, seed=seed, frame=f + 50).image for f in range(8)]
    return frames


def _events(frames: list[np.ndarray], corners: np.ndarray, config: VisionConfig, **kw: int) -> tuple[list[Any], int]:
    from vision.stability import StabilityFilter
    reader = _CountingReader(corners, config)
    sf = StabilityFilter(reader, **kw)
    out = []
    for t, f in enumerate(frames):
        ev = sf.feed(f, t=t)
        out.append(None if ev is None else (type(ev).__name__, getattr(ev, "points", None), getattr(ev, "bar", None),
                                            getattr(ev, "off", None), getattr(ev, "confidence", None)))
    return out, reader.reads


def _news(events: list[Any]) -> list[Any]:
    """The events but re-reports of the same board read more surely (a skipping filter gives
    those up to ``unsure_every`` frames later): hands, and each new board where it came."""
    out, last = [], None
    for e in events:
        if e is not None and e[0] == "BoardEvidence":
            if last is not None and _board(last) == _board(e):
                e = None
            else:
                last = e
        out.append(e)
    return out


def _board(e: Any) -> Any:
    return None if e is None else (e[0], None if e[1] is None else [(p.count, p.colour) for p in e[1]], e[2], e[3])


@pytest.mark.parametrize("k", range(6))
def test_a_still_board_is_not_read_again_and_reports_what_full_reads_would(k: int) -> None:
    from vision.render import SCHEMES
    seed = 600 + k
    corners = render_scene(L.random_position(np.random.default_rng(seed)),
                           RenderParams(scheme=SCHEMES[k % len(SCHEMES)].name), seed=seed).corners
    frames = _sequence(k)
    # the checkers' size given: a reader that measures it learns every few reads, so fewer reads
    # learn it later and the confidences differ a little (the boards do not: below)
    cfg = VisionConfig(checker=L.CHECKER)
    every, every_reads = _events(frames, corners, cfg, reread_every=1, unsure_every=1)   # a full read every quiet frame
    skipping, reads = _events(frames, corners, cfg)
    assert _news(skipping) == _news(every)        # each new board at the same frame, read the same (confidences too)
    assert any(e is not None and e[0] == "BoardEvidence" for e in _news(every)[8:16])  # the moved checker was reported
    assert reads < every_reads
    every, _ = _events(frames, corners, VisionConfig(), reread_every=1, unsure_every=1)
    skipping, _ = _events(frames, corners, VisionConfig())
    assert [_board(e) for e in _news(skipping)] == [_board(e) for e in _news(every)]   # measuring the size: the same boards


def test_still_frames_are_read_only_every_reread_every_frames() -> None:
    from vision.stability import StabilityFilter
    pos = L.start_position()
    sc = render_scene(pos, RenderParams(scheme="walnut"), seed=3)
    frames = [render_scene(pos, RenderParams(scheme="walnut"), seed=3, frame=f + 1).image for f in range(40)]
    reader = _CountingReader(sc.corners)
    sf = StabilityFilter(reader, reread_every=10, unsure_every=10)
    reads_at = []
    for t, f in enumerate(frames):
        before = reader.reads
        sf.feed(f, t=t)
        if reader.reads > before:
            reads_at.append(t)
    assert sf.last is not None and L.same_board(sf.last, pos)
    first_stable = reads_at[1]    # two quiet frames, then two equal readings
    assert reads_at[:2] == [2, 3] and reads_at[2:] == list(range(first_stable + 10, 40, 10))


def test_a_reading_that_could_get_surer_is_read_again_sooner() -> None:
    from dataclasses import replace

    from vision.stability import can_get_surer
    pos = replace(L.start_position(), confidence=0.9)
    sure = replace(pos, points=tuple(replace(p, confidence=0.9) for p in pos.points))
    assert not can_get_surer(sure)
    assert can_get_surer(replace(sure, confidence=0.5))
    assert can_get_surer(replace(sure, off=None))
    assert can_get_surer(replace(sure, points=(replace(sure.points[0], confidence=0.2),) + sure.points[1:]))


def test_a_filter_refuses_a_reread_period_under_one() -> None:
    from vision.stability import StabilityFilter
    with pytest.raises(ValueError, match="reread_every 0"):
        StabilityFilter(BoardReader(VisionConfig()), reread_every=0)


# --------------------------------------------------------------------------- read --batch


def test_batch_keeps_one_reader_per_camera_and_reads_as_one_off_reads_do(tmp_path: Path) -> None:
    import cv2

    from vision.cli import read_image
    jobs = []
    for k, seed in enumerate((77, 77, 77, 78)):     # three pictures from one camera, one from another
        sc = render_scene(L.random_position(np.random.default_rng(k)), seed=seed)
        path = tmp_path / f"{k}.png"
        cv2.imwrite(str(path), sc.image)
        jobs.append((str(path), " ".join(f"{x:.1f},{y:.1f}" for x, y in sc.corners)))
    readers: dict[tuple, Any] = {}
    kept = [read_image(p, c, readers=readers) for p, c in jobs]
    assert len(readers) == 2
    for (p, c), res in zip(jobs, kept):
        alone = read_image(p, c)
        assert {k: res[k] for k in ("top", "bottom", "bar", "off", "corners")} == \
            {k: alone[k] for k in ("top", "bottom", "bar", "off", "corners")}


# --------------------------------------------------------------------------- moves --batch


def _bit_by_bit_id(first: list[int], second: list[int]) -> str:
    """gnubg's Position ID packed one bit at a time (FORMATS.md section 0), for reference."""
    import base64
    bits: list[int] = []
    for side in (first, second):
        for n in side:
            bits += [1] * n + [0]
    bits += [0] * (80 - len(bits))
    data = bytes(sum(bits[8 * i + j] << j for j in range(8)) for i in range(10))
    return base64.b64encode(data).decode("ascii")[:14]


def test_the_position_id_codec_writes_what_packing_bit_by_bit_writes() -> None:
    import random

    from referee.rules.position import Position, counts_to_id, key_to_id
    rng = random.Random(19)
    for _ in range(3000):
        sides = [[0] * 25, [0] * 25]
        for side in sides:
            for _ in range(rng.randint(0, 15)):
                side[rng.randrange(25)] += 1
        want = _bit_by_bit_id(*sides)
        assert key_to_id(*sides) == want
        assert counts_to_id(int.from_bytes(bytes(sides[0] + sides[1]), "little")) == want
        pos = Position(sides[1], sides[0])
        assert pos.position_id() == want and Position.from_position_id(want) == pos


def test_kept_play_texts_are_the_texts_written_afresh() -> None:
    from referee.rules.movegen import generate
    from referee.rules.notation import _format_steps, format_steps, path_text
    from tests.positions import sample
    for pos, d1, d2 in sample(7, 400):
        for path in generate(pos.me, pos.opp, max(d1, d2), min(d1, d2))[1]:
            assert path_text(path) == _format_steps(list(path)) == format_steps(list(path)) == path_text(path)


def test_moves_json_written_directly_is_json_dumps_of_the_answer() -> None:
    from referee.cli.moves import _answer, _answer_json
    from referee.rules.position import Position
    from tests.positions import sample
    closed = Position.from_points({"bar": 1, 13: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})   # no legal play
    cases = [(p, (a, b), p.position_id()) for p, a, b in sample(11, 300)]
    cases += [(closed, (6, 6), closed.position_id()), (Position.start(), (1, 3), " Position ID: 4HPwATDgc/ABMA\t")]
    for pos, dice, pid in cases:
        assert _answer_json(pos, dice, pid) == json.dumps(_answer(pos, dice, pid))


def test_the_histogram_median_is_numpys() -> None:
    from vision.stability import small_median
    rng = np.random.default_rng(19)
    for k in range(400):
        lo = (0, -255)[k % 2]
        n = (17324, 17325, 1, 2, int(rng.integers(3, 300)))[k % 5]
        narrow = k % 3 == 0   # most values equal (a still board's differences)
        a = rng.integers(max(lo, -3) if narrow else lo, 4 if narrow else lo + 511, size=n).astype(np.int16)
        assert small_median(a, lo) == float(np.median(a))


def test_the_one_partition_percentile_is_numpys() -> None:
    from vision.read import _percentile
    rng = np.random.default_rng(97)
    for k in range(2000):
        n = int(rng.integers(1, 2000)) if k % 10 else 44265
        a = (rng.random(n, dtype=np.float32) * float(rng.choice([1.0, 100.0, 1e4]))).astype(np.float32)
        if k % 7 == 0:
            a = np.round(a)   # ties
        q = 97.0 if k % 2 else float(rng.uniform(0, 100))
        assert _percentile(a, q) == float(np.percentile(a, q))
