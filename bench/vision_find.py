"""Board finding without markers: rendered boards and the 49 labelled real photos.

Run: python3 bench/vision_find.py [N=200] [SEED_BASE=300000] [FOLDER].

Part 1 renders N boards without markers (random positions, every colour scheme, the
renderer's perspective, lens, light, glare, shadow and noise variation, a quarter seen
upside down) and counts boards whose found playing area is right: every corner within
2 % of the board's width of the truth (corners compared as seen, the first at the top
left), and boards read exactly with the found corners against the true ones.  Part 2 runs :func:`vision.locate.find_board` on the real photos and scores the
found area against the labelled board (class 1) and bar (class 0) boxes: IoU of the
found area's bounding box with the board box (the box includes the frame, so a perfect
playing area scores about 0.75..0.95), and whether the found bar's centre line lies in
the bar box (1 % of the image's side of slack); for every best fit, and for those
:func:`vision.locate.auto_corners` reports (evidence at least ``MIN_EVIDENCE``).
Part 3 counts boards "found" in images with no board.  Part 4 times
:func:`vision.locate.find_board`, best of 3 calls per image, on 5 rendered 1280x720 frames
and 3 real 640x640 photos (the median in part 1 is of single calls; the machine's cores
are shared, so timings are noisy).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.locate import auto_corners, find_board, order_corners  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.photos import score_board_finding  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402


def corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """Largest corner distance as a share of the truth's top edge, both ordered as seen."""
    a, b = order_corners(found), order_corners(truth)
    return float(np.abs(a - b).max() / np.linalg.norm(b[1] - b[0]))


def read_exact(img: np.ndarray, corners: np.ndarray, flipped: bool, pos) -> bool:
    """Whether the reader, given these corners, reads the board exactly (with the player's set-up)."""
    reader = BoardReader(VisionConfig(markers=False, auto=False), corners=corners)
    reader.setup = L.SetUp("top-left") if flipped else L.SetUp()
    ev = reader.read(img)
    return ev is not None and L.same_board(ev, pos)


def rendered(n: int, base: int, debug: bool = False) -> None:
    ok = none = 0
    exact = {"true": 0, "found": 0}
    errs = []
    fails = []
    for s in range(n):
        rng = np.random.default_rng(base + s)
        pos = L.start_position() if s % 10 == 0 else L.random_position(rng)
        r = render_scene(pos, RenderParams(markers=False), seed=base + s)
        t = time.perf_counter()
        c = auto_corners(r.image)
        errs.append(time.perf_counter() - t)
        exact["true"] += read_exact(r.image, r.corners, False, pos)  # the texture's order: no flip
        if c is None:
            none += 1
            fails.append((s, None))
            continue
        e = corner_error(c, r.corners)
        if e < 0.02:
            ok += 1
        else:
            fails.append((s, round(e, 3)))
        exact["found"] += read_exact(r.image, c, r.flipped, pos)
    print(f"rendered, no markers: {n} boards, seeds {base}..: right playing area {ok / n:.1%},"
          f" none found {none}, wrong {n - ok - none}; {np.median(errs) * 1000:.0f} ms median per frame")
    print(f"  boards read exactly: with the found corners {exact['found'] / n:.1%},"
          f" with the true corners {exact['true'] / n:.1%}")
    if debug:
        print("  failures (seed offset, error):", fails[:40])


def photos(folder: Path, debug: bool = False) -> None:
    rows = score_board_finding(folder)
    n = len(rows)
    for label, sel in (("best fit, before the board/no-board decision", rows),
                       ("reported as a board (auto_corners)", [r for r in rows if r.reported])):
        print(f"real photos, {label}: {len(sel)} of {n}; IoU with the board box >= 0.7: "
              f"{sum(r.iou >= 0.7 for r in sel)}, >= 0.5: {sum(r.iou >= 0.5 for r in sel)}; "
              f"bar centre line inside the bar box: {sum(r.bar_inside for r in sel)}; both: "
              f"{sum(1 for r in sel if r.iou >= 0.7 and r.bar_inside)}; IoU < 0.5 (wrong area): {sum(r.iou < 0.5 for r in sel)}")
    if debug:
        print("   name:IoU[B = bar inside][* = reported](evidence)")
        print("  ", " ".join(f"{r.name}:{r.iou:.2f}{'B' if r.bar_inside else ''}{'*' if r.reported else ''}({r.evidence:.1f})"
                             for r in rows))


def no_board_images(k: int = 40, seed: int = 77) -> list[np.ndarray]:
    """Images without a backgammon board: plain, noise, random shapes, stripes, a chessboard."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(k):
        kind = i % 5
        if kind == 0:
            img = np.full((480, 640, 3), rng.integers(0, 255, 3), np.uint8)
        elif kind == 1:
            img = rng.integers(0, 255, (480, 640, 3), dtype=np.uint8)
        elif kind == 2:  # a random scene: blurred blobs, lines and rectangles
            img = cv2.GaussianBlur(rng.integers(0, 255, (48, 64, 3), dtype=np.uint8), (0, 0), 2)
            img = cv2.resize(img, (640, 480), interpolation=cv2.INTER_CUBIC)
            for _ in range(12):
                p = rng.integers(0, 640, 2), rng.integers(0, 480, 2)
                cv2.rectangle(img, (int(p[0][0]), int(p[1][0])), (int(p[0][1]), int(p[1][1])),
                              tuple(int(v) for v in rng.integers(0, 255, 3)), int(rng.integers(-1, 6)))
        elif kind == 3:  # stripes of a random period and angle (a shirt, a blind)
            ys, xs = np.mgrid[0:480, 0:640].astype(np.float32)
            ang, period = rng.uniform(0, np.pi), rng.uniform(12, 60)
            wave = (np.sin((xs * np.cos(ang) + ys * np.sin(ang)) * 2 * np.pi / period) > 0).astype(np.float32)
            a, b = rng.integers(0, 255, 3), rng.integers(0, 255, 3)
            img = (wave[..., None] * a + (1 - wave[..., None]) * b).astype(np.uint8)
        else:  # a chessboard filling most of the picture
            img = np.full((480, 640, 3), rng.integers(0, 255, 3), np.uint8)
            sq = int(rng.integers(30, 55))
            x0, y0 = int(rng.integers(0, 640 - 8 * sq)), int(rng.integers(0, max(1, 480 - 8 * sq)))
            for r in range(8):
                for c in range(8):
                    col = (235, 235, 225) if (r + c) % 2 else (40, 60, 90)
                    cv2.rectangle(img, (x0 + c * sq, y0 + r * sq), (x0 + (c + 1) * sq - 1, y0 + (r + 1) * sq - 1), col, -1)
        out.append(img)
    return out


def blanks(debug: bool = False) -> None:
    imgs = no_board_images()
    found = [auto_corners(img) is not None for img in imgs]
    print(f"images without a board: {len(imgs)} (plain, noise, random shapes, stripes, chessboards);"
          f" a board found in {sum(found)}")
    if debug:
        fits = [find_board(img) for img in imgs]
        print("   evidence of the best fits:", " ".join("-" if f is None else f"{f.evidence:.2f}" for f in fits))


def timing(folder: Path) -> None:
    frames = [render_scene(L.random_position(np.random.default_rng(s)), RenderParams(markers=False), seed=s).image
              for s in range(900000, 900005)]
    photos_ = [cv2.imread(str(p)) for p in sorted(folder.glob("*.jpg"))[:3]]
    for label, imgs in (("rendered 1280x720", frames), ("real photos", photos_)):
        best = []
        for img in imgs:
            ts = []
            for _ in range(3):
                t = time.perf_counter()
                find_board(img)
                ts.append(time.perf_counter() - t)
            best.append(min(ts))
        print(f"time per call, best of 3, {label}: " + " ".join(f"{b * 1000:.0f}" for b in best)
              + f" ms (mean {np.mean(best) * 1000:.0f} ms)")


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "-v"]
    debug = "-v" in sys.argv
    n = int(args[0]) if args else 200
    base = int(args[1]) if len(args) > 1 else 300000
    folder = Path(args[2]) if len(args) > 2 else ROOT / "tests" / "data" / "vision" / "photos-yolo"
    rendered(n, base, debug)
    photos(folder, debug)
    blanks(debug)
    timing(folder)


if __name__ == "__main__":
    main()
