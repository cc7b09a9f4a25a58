"""The board as the reader lays it out, drawn over the photo: to check a table's set-up by eye.

A table is set up with the playing area's corners, the bar's width and the board's height (``[vision]``
in the table's config; ``bgtable read``'s ``--corners``, ``--bar-width``, ``--board-height``).  When they
are a little off, the points the reader lays out lie between the board's own triangles, and it reads the
checkers of two points as one's, surely: on a real photo whose corners, one outside the picture, laid two
quarters' points 0.45 and 0.3 of a point off their triangles, the learned look accepted illegal moves
(docs/measurements.md, session 42, ``image039``).  No number the reader gives shows that as plainly as
the picture does.  ``bgtable read IMAGE --show OUT.png`` draws over the photo:

* each point as the reader lays it: a triangle on its base, a point wide and :data:`~vision.layout.POINT_LEN`
  long, alternately yellow and cyan (they should lie on the board's triangles, whatever their colours);
* the bar's edges (white) and the playing area's outline (magenta);
* each point's reading at its tip (``5d``: five dark checkers, ``3l``: three light; nothing when empty),
  green when sure (p 0.6 or more), orange when not; the bar's counts on the bar;
* each die found on the board: a ring round it, its value beside it when read surely.

Pure: a picture and the reading's ``--json`` result in, a new picture out.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence

import cv2
import numpy as np

from . import layout as L
from .rectify import FrameMap

SURE = 0.6                      # a point's reading drawn as sure from this probability (as bench/vision_real.py counts)
OUTLINE = (255, 0, 255)         # BGR: the playing area
POINTS = ((0, 255, 255), (255, 255, 0))   # alternate points: yellow, cyan
BAR = (255, 255, 255)
SURE_TEXT = (0, 200, 0)
UNSURE_TEXT = (0, 140, 255)
DIE = (0, 0, 255)


def _line(img: np.ndarray, pts: np.ndarray, colour: tuple[int, int, int], width: int, closed: bool = True) -> None:
    cv2.polylines(img, [np.round(pts).astype(np.int32).reshape(-1, 1, 2)], closed, colour, width, cv2.LINE_AA)


def _label(img: np.ndarray, text: str, at: tuple[float, float], colour: tuple[int, int, int], scale: float) -> None:
    """``text`` centred on ``at`` (picture px), on a dark band so that it reads on any board."""
    thick = max(1, int(round(scale * 2)))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    x, y = int(round(at[0] - w / 2)), int(round(at[1] + h / 2))
    cv2.rectangle(img, (x - 2, y - h - 2), (x + w + 2, y + base), (0, 0, 0), -1)
    cv2.putText(img, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thick, cv2.LINE_AA)


def point_triangle(row: str, col: int) -> np.ndarray:
    """A point's triangle (layout pw): its base's two ends on the row's edge, its tip
    :data:`~vision.layout.POINT_LEN` in."""
    x = L.column_x(col)
    if row == "top":
        return np.array([[x - 0.5, 0.0], [x + 0.5, 0.0], [x, L.POINT_LEN]])
    return np.array([[x - 0.5, L.HEIGHT], [x + 0.5, L.HEIGHT], [x, L.HEIGHT - L.POINT_LEN]])


def _reading(cell: Sequence[Any]) -> str:
    n, colour = int(cell[0]), cell[1]
    return f"{n}{colour[0]}" if n and colour else ""


def draw_layout(img: np.ndarray, corners: np.ndarray, shape: L.BoardShape = L.BoardShape(),
                result: Optional[dict[str, Any]] = None) -> np.ndarray:
    """``img`` (BGR) with the board laid out over it as a board of ``shape`` at ``corners`` (TL, TR, BR,
    BL, picture px), and ``result``'s reading (``bgtable read --json``'s dict: ``top``, ``bottom``,
    ``bar``, ``p``, ``dice``) when given."""
    out = img.copy()
    size = (img.shape[0], img.shape[1])
    layout = FrameMap(np.asarray(corners, np.float32), shape, size)
    own = FrameMap(np.asarray(corners, np.float32), shape, size, own=True)

    def pic(m: FrameMap, pts: np.ndarray) -> np.ndarray:
        u, v, _ = m.to_picture(pts[:, 0], pts[:, 1])
        return np.stack([u, v], axis=1)

    ends = pic(own, np.array([[0.0, shape.height / 2], [shape.width, shape.height / 2]]))
    px = float(np.linalg.norm(ends[1] - ends[0])) / shape.width   # picture px a point width, across the middle
    width = max(1, int(round(px / 30)))
    scale = float(np.clip(px / 70, 0.3, 1.5))
    edge = np.array([[0, 0], [shape.width, 0], [shape.width, shape.height], [0, shape.height]], np.float64)
    _line(out, pic(own, edge), OUTLINE, width + 1)
    for x in (L.BAR_LEFT, L.BAR_LEFT + shape.bar):
        _line(out, pic(own, np.array([[x, 0.0], [x, shape.height]])), BAR, width, closed=False)
    p = (result or {}).get("p") or {}
    for row in ("top", "bottom"):
        cells = (result or {}).get(row) or []
        sure = p.get(row) or []
        for col in range(12):
            _line(out, pic(layout, point_triangle(row, col)), POINTS[col % 2], width)
            text = _reading(cells[col]) if col < len(cells) else ""
            if text:
                y = L.POINT_LEN + 0.4 if row == "top" else L.HEIGHT - L.POINT_LEN - 0.4
                at = pic(layout, np.array([[L.column_x(col), y]]))[0]
                ok = col < len(sure) and sure[col] is not None and sure[col] >= SURE
                _label(out, text, (float(at[0]), float(at[1])), SURE_TEXT if ok else UNSURE_TEXT, scale)
    bar = (result or {}).get("bar") or {}
    for colour, y in (("dark", 0.3), ("light", 0.7)):
        if bar.get(colour):
            at = pic(own, np.array([[L.BAR_LEFT + shape.bar / 2, y * shape.height]]))[0]
            _label(out, f"{bar[colour]}{colour[0]}", (float(at[0]), float(at[1])), SURE_TEXT, scale)
    for die in (result or {}).get("dice") or []:
        if not die.get("image"):
            continue
        cx, cy = die["image"]
        cv2.circle(out, (int(round(cx)), int(round(cy))), int(round(0.4 * px)), DIE, width, cv2.LINE_AA)
        if die.get("value"):
            _label(out, str(die["value"]), (cx + 0.7 * px, cy), DIE, scale)
    return out


def note(img: np.ndarray, text: str) -> np.ndarray:
    """``img`` with ``text`` along its top (a photo with no board found: why)."""
    out = img.copy()
    scale = float(np.clip(img.shape[1] / 1400, 0.4, 1.5))
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    _label(out, text, (min(img.shape[1] / 2, w / 2 + 4), h + 6), UNSURE_TEXT, scale)
    return out


__all__ = ["SURE", "draw_layout", "note", "point_triangle"]
