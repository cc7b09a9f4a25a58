"""How many camera pixels a point width needs: the reading against the board's size in the frame.

    python3 bench/vision_scale.py [--scales 1,0.65,0.5] [--rendered N] [--real-cases N] [--modes plain,made]
                                  [--labels FILE --image-dir DIR]

A camera further from the board, a wider lens or a lower resolution shows each point width in fewer
pixels.  The reader always works on a view of ``VisionConfig.px`` (32) pixels a point width, so what
changes is how much of the board's detail reaches it.  This bench scales the frames down (OpenCV's
``INTER_AREA``, as a camera's sensor averages) with their corners, and prints per scale the median
pixels per point width in the frame and:

- *rendered* (``--rendered N``, :func:`vision.render.render_scene`, the reader given the true corners):
  boards and points read exactly, with the defaults and with :meth:`RenderParams.real_table`;
- *real* (the labelled real sets, ``bench/vision_real.py``'s measure, its labels' corners scaled with
  the picture): points right and wrong points reported sure, then the verdicts of each ``--modes``
  (``--real-cases`` cases per image, quadrant and mover).

For choosing the camera and its height: the README's hardware table quotes the figures.  A scale of 1
is each picture as labelled (the tournament stream's frames at about 52 px a point width).
"""
from __future__ import annotations

import argparse
import copy
import io
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from vision import layout as L  # noqa: E402
from vision.config import VisionConfig  # noqa: E402
from vision.reader import BoardReader  # noqa: E402
from vision.rectify import point_pixels  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402


def scaled(img: np.ndarray, scale: float) -> np.ndarray:
    """``img`` at ``scale`` of its size (a sensor averages: INTER_AREA); itself at 1."""
    return img if scale == 1 else cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def rendered(n: int, scale: float, real_table: bool) -> tuple[int, int, float]:
    """Boards and points read exactly of ``n`` rendered boards at ``scale``, and the median px a point width."""
    from vision_accuracy import points_exact, position_for   # bench/, beside this script
    exact = points = 0
    ppw = []
    for s in range(n):
        pos = position_for(s, 100000)
        params = RenderParams.real_table() if real_table else RenderParams()
        r = render_scene(pos, params, seed=s)
        corners = np.asarray(r.corners, np.float32) * np.float32(scale)
        ppw.append(point_pixels(corners, params.shape))
        reading = BoardReader(VisionConfig(bar_width=params.shape.bar), corners=corners).inspect(scaled(r.image, scale))
        ev = reading.evidence if reading is not None else None
        if ev is not None:
            exact += L.same_board(ev, pos)
            points += points_exact(ev, pos)
    return exact, points, float(np.median(ppw))


def real(scale: float, argv: list[str]) -> str:
    """``bench/vision_real.py``'s report (its ``argv``) with every picture and its labels at ``scale``."""
    import vision_real as VR   # bench/, beside this script
    load_image, load_labels = VR.load_image, VR.load_labels

    def labels() -> dict[str, Any]:
        d = copy.deepcopy(load_labels())
        for lab in d["images"].values():
            if lab.get("corners"):
                lab["corners"] = [[x * scale, y * scale] for x, y in lab["corners"]]
            for die in lab.get("dice") or []:
                if "x" in die and "y" in die:
                    die["x"], die["y"] = die["x"] * scale, die["y"] * scale
        return d

    VR.load_image = lambda name: scaled(load_image(name), scale)
    VR.load_labels = labels
    out = io.StringIO()
    try:
        with redirect_stdout(out):
            VR.main(argv)
    finally:
        VR.load_image, VR.load_labels = load_image, load_labels
    return out.getvalue()


def real_ppw(argv: list[str]) -> float:
    """The median px a point width of the labelled pictures (as labelled)."""
    import vision_real as VR
    if "--labels" in argv:
        VR.set_labels(argv[argv.index("--labels") + 1], argv[argv.index("--image-dir") + 1])
    vals = [point_pixels(np.asarray(lab["corners"]), L.BoardShape(bar=lab.get("bar_width", L.BAR_WIDTH),
                                                                 height=lab.get("board_height", L.HEIGHT)))
            for lab in VR.load_labels()["images"].values() if lab.get("corners")]
    return float(np.median(vals))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scales", default="1,0.65,0.5", help="frame scales, comma-separated (default 1,0.65,0.5)")
    ap.add_argument("--rendered", type=int, default=60, help="rendered boards per scale and kind (0: none)")
    ap.add_argument("--real-cases", type=int, default=1, help="vision_real's --cases (0: the real sets left out)")
    ap.add_argument("--modes", default="plain,made", help="vision_real's --modes")
    ap.add_argument("--labels", help="another labelled set (vision_real's --labels)")
    ap.add_argument("--image-dir", help="its images (vision_real's --image-dir)")
    args = ap.parse_args()
    try:
        scales = [float(s) for s in args.scales.split(",")]
    except ValueError:
        ap.error(f"--scales {args.scales!r}: expected numbers, e.g. 1,0.65,0.5")
    if any(not 0.1 <= s <= 1 for s in scales):
        ap.error(f"--scales {args.scales!r}: each must lie in 0.1..1 (a share of the picture's size)")
    if bool(args.labels) != bool(args.image_dir):
        ap.error("--labels and --image-dir go together")
    extra = ["--labels", args.labels, "--image-dir", args.image_dir] if args.labels else []
    for kind in ("defaults", "real tables") if args.rendered else ():
        print(f"== rendered ({kind}), true corners, {args.rendered} boards a scale", flush=True)
        for s in scales:
            exact, points, ppw = rendered(args.rendered, s, kind == "real tables")
            print(f"  scale {s:.2f} ({ppw:.0f} px a point width): boards exact {exact}/{args.rendered}, "
                  f"points {points}/{24 * args.rendered} = {points / 24 / args.rendered:.2%}", flush=True)
    if args.real_cases:
        ppw = real_ppw(extra)
        for s in scales:
            print(f"== real, scale {s:.2f} (median {ppw * s:.0f} px a point width)", flush=True)
            text = real(s, ["--cases", str(args.real_cases), "--modes", args.modes, "--split", "all", *extra])
            for line in text.splitlines():
                if line.startswith("==") or "reading:" in line or line.startswith("  verdicts"):
                    print("  " + line.strip(), flush=True)


if __name__ == "__main__":
    main()
