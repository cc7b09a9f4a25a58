"""Merge the two independent labellings (labeller_a/, labeller_b/) into labels.json.

Run from this folder: ``python3 merge.py``. Corners and bar boxes are averaged; the bar's width and
the board's height in point widths are measured from them (clamped to what the reader takes).
"""
import json

import cv2
import numpy as np

NAMES = ["redblack_crop", "rosewood"]
SRC = {  # from FOUND.md
    "redblack_crop": ("christiancorro/BackgammonCV", "tests/hough_disk_detection/test3.jpg"),
    "rosewood": ("christiancorro/BackgammonCV", "tests/hough_disk_detection/test12.jpg"),
}
COMMITS = {"redblack_crop": "521427285ef4d5844cfc02c3529eb7d66b183762", "rosewood": "521427285ef4d5844cfc02c3529eb7d66b183762"}
EXT: dict[str, str] = {}

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

out = {"source": "2 real images of physical boards from a public GitHub repository (christiancorro/BackgammonCV, tests/hough_disk_detection/: see each image's source); nobody on the team had run the software on them; the images are NOT in this repository (one carries a vendor's 'copying prohibited' mark): bench/vision_real.py --labels this file --image-dir DIR reads them from DIR, fetched from each source url",
       "how": "labelled twice independently by eye (labeller_a/, labeller_b/), merged: corners averaged; disagreements listed in each image's 'disputed' and decided by the lead by zooming in; 'hidden' points either labeller could not see",
       "split": {"unseen5": NAMES}, "images": {}}
problems = []
for n in NAMES:
    a = json.load(open(f"labeller_a/{n}.json"))
    b = json.load(open(f"labeller_b/{n}.json"))
    lab = {"image": f"{n}.{EXT.get(n, 'jpg')}", "board": bool(a["board"] and b["board"])}
    ca, cb = np.array(a["corners"], float), np.array(b["corners"], float)
    dist = np.linalg.norm(ca - cb, axis=1).max()
    lab["corners"] = [[round(float(x), 1), round(float(y), 1)] for x, y in (ca + cb) / 2]
    box = [(p + q) / 2 for p, q in zip(a["bar_box"], b["bar_box"])]
    bar, height = shape(lab["corners"], box)
    lab["bar_width"] = round(min(3.0, max(0.5, bar)), 2)
    lab["board_height"] = round(min(14.0, max(10.2, height)), 2)
    lab["shape_note"] = f"measured bar {bar:.2f} pw, height {height:.2f} pw from the merged corners and bar box (corners differ by up to {dist:.0f} px)" + ("" if (lab["bar_width"], lab["board_height"]) == (round(bar, 2), round(height, 2)) else f"; {lab['bar_width']} and {lab['board_height']} used, the nearest the reader takes (a photo at an angle foreshortens the board)")
    disputed = []
    for row in ("top", "bottom"):
        lab[row] = []
        for i, (x, y) in enumerate(zip(a[row], b[row])):
            if cell(x) != cell(y):
                disputed.append([row, i, list(cell(x)), list(cell(y))])
            lab[row].append(list(cell(x)))
    for k in ("bar", "off"):
        if a[k] != b[k]:
            disputed.append([k, a[k], b[k]])
        lab[k] = a[k]
    lab["dark_is"], lab["light_is"] = a["dark_is"], a["light_is"]
    lab["dice"] = a.get("dice", [])
    hid = {tuple(h) if isinstance(h, list) else (h,) for h in (a.get("hidden") or []) + (b.get("hidden") or [])}
    lab["hidden"] = sorted([list(h) for h in hid], key=str)
    lab["disputed"] = disputed
    lab["totals"] = {c: sum(p[0] for row in ("top", "bottom") for p in lab[row] if p[1] == c) + lab["bar"][c] + lab["off"][c] for c in ("dark", "light")}
    repo, path = SRC[n]
    commit = COMMITS[n]
    lab["source"] = {"repo": repo, "path": path, "commit": commit, "licence": "GPL-3.0 (the repository's; the rosewood photo carries a vendor's 'copying prohibited' mark)",
                     "url": f"https://raw.githubusercontent.com/{repo}/{commit}/{path}"}
    out["images"][n] = lab
    print(n, "corners differ", round(dist), "bar", round(bar, 2), "height", round(height, 2), "totals", lab["totals"], "disputed", disputed, "hidden", lab["hidden"])
json.dump(out, open("labels.json", "w"), indent=1)
