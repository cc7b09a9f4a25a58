"""Rows read as pyramids on real boards: how often the tall-stack pass judges a labelled row of 4-6 taller.

The reader's tall-stack pass (:func:`vision.stacks.count_point`) fits the rim pattern along a full row
against stacks of 5..15.  On the renderer it was tuned on it is right; on real boards a row's grain, a
face's rings or the shading between checkers look like a second layer.  For every labelled real board
(``--labels FILE --image-dir DIR`` as :mod:`bench.vision_real` takes them; default the repository's
tuned set), each point labelled with 4 to 6 checkers: whether the pass judged it taller
(``PointCount.row`` set: the rims' own row kept beside the pattern's count), at the checkers' size
measured on the board or the layout's (a reader tries both on a new board), and the count the whole
reading ends with (the totals settle a colour over 15: :func:`vision.assemble.settle_tall`).

``python3 bench/vision_tall_rows.py [--labels FILE --image-dir DIR]`` (repeatable pairs not needed: run it
once per set).
"""
from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import bench.vision_real as V  # noqa: E402
from vision import layout as L  # noqa: E402
from vision.read import pick_checkers, ring_profiles  # noqa: E402
from vision.reader import BoardReader  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--labels", default=V.LABELS)
    p.add_argument("--image-dir", default="")
    a = p.parse_args()
    if a.labels != V.LABELS or a.image_dir:
        V.set_labels(a.labels, a.image_dir or os.path.join(os.path.dirname(a.labels), "images"))
    rows = taller = right = right_taller = 0
    for name, lab in V.load_labels()["images"].items():
        if not lab.get("board", True) or "top" not in lab:
            continue
        try:
            img = V.load_image(name)
        except FileNotFoundError as exc:
            print(f"  {name}: {exc}")
            continue
        reader = BoardReader(V.config_for(lab), corners=L.parse_corners(L.format_corners(lab["corners"])))
        r = reader.inspect(img, read_occluded=True)
        if r.view is None or r.rows is None:
            continue
        # at the size measured on the board and at the layout's: a reader tries both on a new board
        founds = [pick_checkers(ring_profiles(r.view, q), q)
                  for q in {replace(reader.config.read, checker=c) for c in (reader.checker_size, L.CHECKER)}]
        hidden = V.hidden_cells(lab)
        for row in ("top", "bottom"):
            for i in range(12):
                n = lab[row][i][0]
                if not 4 <= n <= 6 or (row, i) in hidden:
                    continue
                pcs = [f.per_axis[f"{row}{i}"] for f in founds]
                final = getattr(r.rows, row)[i]
                tall = [pc for pc in pcs if pc.row is not None and pc.count > pc.row]
                judged = bool(tall)
                rows += 1
                taller += judged
                right += final.count == n
                right_taller += judged and final.count == n
                if judged:
                    print(f"  {name:14s} {row} {i + 1:2d}: a row of {n} judged "
                          f"{' / '.join(f'{pc.count} (rims {pc.row})' for pc in tall)}; "
                          f"read {final.count} at {final.confidence:.2f}")
    print(f"rows of 4-6: {rows}; judged taller by the pattern {taller}; read right in the end {right} "
          f"(of the judged ones {right_taller})")


if __name__ == "__main__":
    main()
