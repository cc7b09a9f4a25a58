"""Merge the two independent labellings (labeller_a/, labeller_b/) into labels.json.

Run from this folder: ``python3 merge.py``. Corners and bar boxes are averaged; the bar's width and
the board's height in point widths are measured from them (clamped to what the reader takes). A
point the two labellers disagree on is listed in ``disputed`` and takes the lead's decision
(``DECIDED``: looked at again, zoomed in); a photo either labeller found no whole board is left out.
"""
import json
import os

import cv2
import numpy as np

SPLIT = json.load(open("split.json"))
NAMES = SPLIT["dev"] + SPLIT["held_out"]
# (name, row, index) -> [count, colour]: disagreements decided by the lead, by eye (see README.md)
DECIDED: dict[tuple[str, str, int], list] = {}
# (name, "bar"|"off") -> {"dark": n, "light": n}.  image019's bar stacks show a face and side bands only (1 to 3
# each): labeller b's one of each, as the photo's own checker boxes count them (14 dark, 13 light in all); labeller
# a's 2 and 3 made 15 of each.  The bar is 'hidden' (not scored), the board not judged as moves
DECIDED_OTHER: dict[tuple[str, str], dict] = {("image019", "bar"): {"dark": 1, "light": 1}}
HIDDEN_EXTRA = {"image019": ["bar"]}
# why points are hidden where no arm lies over the board (bench/vision_real.py's arm frames are the others)
HIDDEN_WHY = {"image019": "the bar's stacks seen from above, a face and side bands: not countable",
              "image040": "the near row's base checkers behind the frame's lip, a sliver of each showing"}
# drawings, not photographs (both labellers said so in their notes): not real boards
DRAWINGS = {"image010": "a computer drawing of a board", "image013": "a flat drawing (stock vector) of a board"}
# the bar box of a board turned some degrees is wider than its bar: measured by eye on the view rectified
# with the merged corners instead (point widths of each half against the bar's strip)
# (image039, turned about 93 degrees: its boxes made the bar 1.41 pw, which laid the points of the half beyond it
# 0.3-0.45 pw off their triangles; 0.55 is the hinge strip between the halves on `bgtable read --show`'s picture,
# where every quarter's triangles then lie on the board's; session 42)
BAR_SEEN = {"IMG_2602": 0.67, "image046": 0.63, "image039": 0.55}
# ... and a board's height by eye where its checker boxes mislead: image039's, rectified with the bar 0.55, measure
# 12.01 pw, which draws the points' tips 0.25 pw past the board's on `bgtable read --show`'s picture; at 12.84 (what
# they gave with the bar 1.41) the drawn tips lie within 0.15 pw of the board's
HEIGHT_SEEN = {"image039": 12.84}
# 3D renderings (both labellers said so): boards nobody here made, but not real: a split of their own, apart
# from the real photos' dev and held-out halves
RENDERS = {"image021", "image023", "image025"}
PHOTOS = "../vision/photos-yolo"
REPO, PATH = "Dhracyr/BackgammonBoardDetection", "data/dataset01"


def cell(p):
    return (p[0], p[1] if p[0] else None)


def shape(corners, box):
    c = np.array(corners, dtype=np.float64)
    w_img = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    h_img = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    H = cv2.getPerspectiveTransform(c.astype(np.float32), np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]))
    x0, y0, x1, y1 = box
    pts = np.float32([[[x0, y0]], [[x0, y1]], [[x1, y0]], [[x1, y1]], [[(x0 + x1) / 2, (y0 + y1) / 2]]])
    u = cv2.perspectiveTransform(pts, H)[:, 0, 0].astype(float)
    # the bar runs across the rows: its two sides along edge 1->2 are the box's x sides, or its y sides on a turned board
    f = max(abs((u[2] + u[3]) / 2 - (u[0] + u[1]) / 2), abs((u[1] + u[3]) / 2 - (u[0] + u[2]) / 2))
    bar = 12 * f / (1 - f)
    height = h_img / w_img * (12 + bar)
    return float(bar), float(height)


def yolo_height(n: str, corners, bar: float) -> tuple[float, int]:
    """The board's height in point widths from the photo's own checker boxes (the labelling project's,
    ``PHOTOS/NAME.txt``): the exports are stretched (640x640 whatever the photo was), so the picture's
    proportions do not tell the board's; a checker is round, so its box's height against its width in
    the view rectified at 11 point widths tells how far to stretch that view back."""
    w, h0 = 12 + bar, 11.0
    M = cv2.getPerspectiveTransform(np.float32(corners), np.float32([[0, 0], [w, 0], [w, h0], [0, h0]]))
    ratios = []
    for line in open(f"{PHOTOS}/{n}.txt"):
        v = line.split()
        if v[0] not in ("2", "4"):   # dark checker, light checker
            continue
        f = [float(x) * 640 for x in v[1:]]
        if len(f) == 4:
            cx, cy, bw, bh = f
        else:   # a polygon: its box
            xs, ys = f[0::2], f[1::2]
            cx, cy, bw, bh = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)
        pts = np.float32([[[cx - bw / 2, cy]], [[cx + bw / 2, cy]], [[cx, cy - bh / 2]], [[cx, cy + bh / 2]]])
        u = cv2.perspectiveTransform(pts, M)[:, 0]
        if np.ptp(u[:, 0]) > 0:
            ratios.append(float(np.ptp(u[:, 1]) / np.ptp(u[:, 0])))
    return h0 / float(np.median(ratios)), len(ratios)


def main() -> None:
    out = {"source": f"real photos of physical boards from a public labelling project ({REPO}, {PATH}, MIT licence; "
                     "the same 640x640 exports as tests/data/vision/photos-yolo, where bench/vision_real.py reads them: "
                     "--image-dir tests/data/vision/photos-yolo); nobody on the team had run the point reader on them",
           "how": "labelled twice independently by eye (labeller_a/, labeller_b/), merged: corners averaged; "
                  "disagreements listed in each image's 'disputed' and decided by the lead by zooming in; 'hidden' "
                  "points either labeller could not see",
           "split": {"dev": [], "held_out": [], "renders": []}, "images": {}, "left_out": {}}
    for n in NAMES:
        fa, fb = f"labeller_a/{n}.json", f"labeller_b/{n}.json"
        if not (os.path.exists(fa) and os.path.exists(fb)):
            out["left_out"][n] = "not labelled by both"
            continue
        a, b = json.load(open(fa)), json.load(open(fb))
        if not (a.get("board") and b.get("board")):
            out["left_out"][n] = "no whole board: " + " / ".join(x.get("notes", "")[:200] for x in (a, b) if not x.get("board"))
            continue
        if n in DRAWINGS:
            out["left_out"][n] = "not a photograph: " + DRAWINGS[n]
            continue
        lab = {"image": f"{n}.jpg", "board": True}
        ca, cb = np.array(a["corners"], float), np.array(b["corners"], float)
        dist = float(np.linalg.norm(ca - cb, axis=1).max())
        lab["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in (ca + cb) / 2]
        box = [(p + q) / 2 for p, q in zip(a["bar_box"], b["bar_box"])]
        bar, _ = shape(lab["corners"], box)
        bar = BAR_SEEN.get(n, bar)
        height, boxes = yolo_height(n, lab["corners"], bar)
        height = HEIGHT_SEEN.get(n, height)
        lab["bar_width"] = round(min(3.0, max(0.5, bar)), 2)
        lab["board_height"] = round(min(14.0, max(10.2, height)), 2)
        lab["shape_note"] = (f"bar {bar:.2f} pw " + ("by eye (BAR_SEEN in merge.py)" if n in BAR_SEEN else
                                                      "from the merged corners and bar box")
                             + f", height {height:.2f} pw " + ("by eye (HEIGHT_SEEN in merge.py)" if n in HEIGHT_SEEN else
                                                             f"from {boxes} checker boxes' proportions") + " "
                             f"(corners differ by up to {dist:.0f} px)")
        if (lab["bar_width"], lab["board_height"]) != (round(bar, 2), round(height, 2)):
            lab["shape_note"] += f"; {lab['bar_width']} and {lab['board_height']} used, the nearest the reader takes"
        disputed = []
        for row in ("top", "bottom"):
            lab[row] = []
            for i, (x, y) in enumerate(zip(a[row], b[row])):
                pick = list(cell(x))
                if cell(x) != cell(y):
                    disputed.append([row, i, list(cell(x)), list(cell(y))])
                    pick = DECIDED.get((n, row, i), pick)
                lab[row].append(pick)
        for k in ("bar", "off"):
            if a[k] != b[k]:
                disputed.append([k, a[k], b[k]])
            lab[k] = DECIDED_OTHER.get((n, k), a[k])
        lab["dark_is"], lab["light_is"] = a["dark_is"], a["light_is"]
        lab["dice"] = a.get("dice", [])
        hid = {f"{h[0]} {int(h[1]) + 1}" for h in (a.get("hidden") or []) + (b.get("hidden") or [])}
        lab["hidden"] = sorted(hid | set(HIDDEN_EXTRA.get(n, [])))   # as tests/data/vision_real's: "top 3" counts from 1
        if n in HIDDEN_WHY:
            lab["hidden_why"] = HIDDEN_WHY[n]
        lab["disputed"] = disputed
        lab["totals"] = {c: sum(p[0] for row in ("top", "bottom") for p in lab[row] if p[1] == c)
                         + lab["bar"][c] + lab["off"][c] for c in ("dark", "light")}
        lab["source"] = {"repo": REPO, "path": f"{PATH}/{n}.jpg", "licence": "MIT (the repository's)"}
        out["images"][n] = lab
        out["split"]["renders" if n in RENDERS else "dev" if n in SPLIT["dev"] else "held_out"].append(n)
        print(n, "corners differ", round(dist), "bar", round(bar, 2), "height", round(height, 2), "totals",
              lab["totals"], "disputed", disputed, "hidden", lab["hidden"])
    for n, why in out["left_out"].items():
        print(n, "left out:", why[:160])
    json.dump(out, open("labels.json", "w"), indent=1)


if __name__ == "__main__":
    main()
