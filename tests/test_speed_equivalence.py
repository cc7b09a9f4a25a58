"""The speed work changes no reading: rendered boards read as the base commit read them.

``tests/data/vision/speed_readings.json`` was recorded by ``python3 tests/test_speed_equivalence.py
record`` on commit b1b8704 (before the read and stability work of issue 19): every point's count,
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

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

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
        print("usage: python3 tests/test_speed_equivalence.py record", file=sys.stderr)
        return 2
    import subprocess
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    cases = [read_case(k) for k in range(CASES)]
    DATA.write_text(json.dumps({"commit": commit, "cases": cases}, separators=(",", ":")) + "\n")
    print(f"wrote {DATA}: {CASES} cases from {commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
