"""The unseen sets' labels (tests/data/vision_unseen*): two labellings that agree, merged, adding up.

The images are not kept here (their repositories carry no licence); the labels are checked alone.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = ["vision_unseen", "vision_unseen3", "vision_unseen4", "vision_unseen5"]


@pytest.mark.parametrize("folder", SETS)
def test_the_two_labellings_agree_and_the_merge_adds_up(folder: str) -> None:
    data = json.loads((DATA / folder / "labels.json").read_text())
    names = [n for half in data["split"].values() for n in half]
    assert sorted(names) == sorted(data["images"])
    for name, lab in data["images"].items():
        a = json.loads((DATA / folder / "labeller_a" / f"{name}.json").read_text())
        b = json.loads((DATA / folder / "labeller_b" / f"{name}.json").read_text())
        for row in ("top", "bottom"):
            assert len(lab[row]) == 12, (name, row)
            for x, y, m in zip(a[row], b[row], lab[row]):
                assert (x[0], x[1] if x[0] else None) == (y[0], y[1] if y[0] else None) == (m[0], m[1]), (name, row)
        totals = {c: sum(p[0] for row in ("top", "bottom") for p in lab[row] if p[1] == c)
                  + lab["bar"][c] + lab["off"][c] for c in ("dark", "light")}
        assert totals == lab["totals"] and totals in ({"dark": 15, "light": 15}, {"dark": 0, "light": 0}), name
        assert len(lab["corners"]) == 4 and 0.3 <= lab["bar_width"] <= 3.0 and 7.0 <= lab["board_height"] <= 16.0, name
        src = lab["source"]
        assert src["url"] == f"https://raw.githubusercontent.com/{src['repo']}/{src['commit']}/{src['path']}", name
