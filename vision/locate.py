"""Finding the playing area without markers or configured corners.

Two pure stages:

1. :func:`board_quad` - the board against the table: pixels unlike the colour of the
   image border, closed into one blob, its outline reduced to four corners (the whole
   image when the board fills it).
2. :func:`playing_area` - inside the rectified board, the frame is the colour of the
   board's outer ring; rows and columns that are mostly *not* frame colour are playing
   surface.  The two widest runs of such columns are the halves either side of the bar
   (a bear-off tray is a narrow run and is left out); their span, and the rows' span, is
   the playing area.

The result is ordered top-left, top-right, bottom-right, bottom-left as seen, with the
rows of points running along the longer side.
"""
from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from . import layout as L

WORK = 480  # longer side of the working image, pixels


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points as TL, TR, BR, BL (as seen)."""
    pts = np.asarray(pts, np.float32).reshape(4, 2)
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates, starting near -pi (left)
    k = int(np.argmin(pts.sum(axis=1)))  # top-left has the smallest x + y
    return np.roll(pts, -k, axis=0)


def _quad_from_edges(img: np.ndarray) -> Optional[np.ndarray]:
    """The largest convex four-sided outline among the image's edge contours, or None."""
    h, w = img.shape[:2]
    grey = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    edges = cv2.Canny(grey, 30, 90)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    best, best_area = None, 0.2 * h * w
    for c in contours:
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if area <= best_area or area > 0.98 * h * w:
            continue
        approx = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx) and cv2.contourArea(approx) > 0.9 * area:
            best, best_area = approx.reshape(4, 2).astype(np.float32), area
    return None if best is None else order_corners(best)


def board_quad(img: np.ndarray) -> np.ndarray:
    """The board's outline in ``img`` (TL, TR, BR, BL); the image's own corners when unsure.

    First the largest four-sided edge outline; failing that, the blob of pixels unlike
    the image border's colour (lightness weighed less, so shadows stay background).
    """
    h, w = img.shape[:2]
    whole = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    q = _quad_from_edges(img)
    if q is not None:
        return q
    lab = cv2.cvtColor(cv2.GaussianBlur(img, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3), lab[:, :4].reshape(-1, 3), lab[:, -4:].reshape(-1, 3)])
    wgt = np.array([0.35, 1.0, 1.0], np.float32)
    bg = np.median(border, axis=0)
    spread = float(np.median(np.linalg.norm((border - bg) * wgt, axis=1)))
    if spread > 14:  # the border is not one background: the board fills the picture
        return whole
    mask = (np.linalg.norm((lab - bg) * wgt, axis=2) > max(14.0, 4 * spread)).astype(np.uint8) * 255
    k = max(3, int(min(h, w) * 0.02)) | 1
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return whole
    cnt = max(contours, key=cv2.contourArea)
    if cv2.contourArea(cnt) < 0.15 * h * w:
        return whole
    hull = cv2.convexHull(cnt)
    peri = cv2.arcLength(hull, True)
    for eps in (0.01, 0.02, 0.03, 0.05):
        approx = cv2.approxPolyDP(hull, eps * peri, True)
        if len(approx) == 4:
            return order_corners(approx.reshape(4, 2))
    return order_corners(cv2.boxPoints(cv2.minAreaRect(hull)))


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    out, start = [], None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            out.append((start, i))
            start = None
    return out


def playing_area(board: np.ndarray) -> Optional[tuple[float, float, float, float]]:
    """In a rectified board image (rows along x), the playing area as (x0, y0, x1, y1), or None."""
    h, w = board.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(board, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    ring = max(2, int(0.02 * min(h, w)))
    edge = np.concatenate([lab[:ring].reshape(-1, 3), lab[-ring:].reshape(-1, 3), lab[:, :ring].reshape(-1, 3), lab[:, -ring:].reshape(-1, 3)])
    frame = np.median(edge, axis=0)
    spread = float(np.median(np.linalg.norm(edge - frame, axis=1)))
    off = np.linalg.norm(lab - frame, axis=2) > max(20.0, 3 * spread)
    col = off.mean(axis=0)
    row = off.mean(axis=1)
    cols = _runs(cv2.GaussianBlur(col.astype(np.float32)[None], (1, 0), 2)[0] > 0.45 if False else col > 0.45)
    rows = _runs(row > 0.3)
    if not cols or not rows:
        return None
    # merge tiny gaps (a light triangle tip), then take the widest pair of runs
    min_gap = max(2, int(0.01 * w))
    merged: list[list[int]] = []
    for a, b in cols:
        if merged and a - merged[-1][1] <= min_gap:
            merged[-1][1] = b
        else:
            merged.append([a, b])
    wide = sorted(merged, key=lambda r: r[1] - r[0], reverse=True)
    if len(wide) >= 2 and (wide[1][1] - wide[1][0]) > 0.5 * (wide[0][1] - wide[0][0]):
        pair = sorted(wide[:2])
        x0, x1 = pair[0][0], pair[1][1]
    else:
        x0, x1 = wide[0]
    y0, y1 = max(rows, key=lambda r: r[1] - r[0])
    if (x1 - x0) < 0.4 * w or (y1 - y0) < 0.4 * h:
        return None
    return float(x0), float(y0), float(x1), float(y1)


def board_likeness(frame: np.ndarray, corners: np.ndarray) -> float:
    """How much the quad looks like a playing area: alternating point colours along both rows.

    Each row's points alternate two colours; the score is the colour difference between
    odd and even points over the spread within each group (a blank or random area scores
    about 1 or less, a board several).
    """
    from .rectify import rectify
    view = rectify(frame, corners, px=12, margin=0.0)
    lab = cv2.cvtColor(view.image, cv2.COLOR_BGR2Lab).astype(np.float32)
    scores = []
    for y0, y1 in ((1.6, 3.2), (L.HEIGHT - 3.2, L.HEIGHT - 1.6)):
        means = []
        for i in range(12):
            x = L.column_x(i)
            patch = lab[int(y0 * 12):int(y1 * 12), int((x - 0.12) * 12):int((x + 0.12) * 12) + 1].reshape(-1, 3)
            means.append(np.median(patch, axis=0))
        m = np.array(means)
        even, odd = m[0::2], m[1::2]
        gap = float(np.linalg.norm(even.mean(axis=0) - odd.mean(axis=0)))
        spread = float(np.linalg.norm(even.std(axis=0)) + np.linalg.norm(odd.std(axis=0))) / 2
        scores.append(gap / (spread + 6.0))
    return min(scores)


def _candidates(small: np.ndarray) -> list[np.ndarray]:
    """Playing-area candidates: inside the board's outline, the outline itself, the whole image."""
    h, w = small.shape[:2]
    out = []
    quad = board_quad(small)
    e = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    long_x = (e[0] + e[2]) >= (e[1] + e[3])
    bw, bh = (int(max(e[0], e[2])), int(max(e[1], e[3]))) if long_x else (int(max(e[1], e[3])), int(max(e[0], e[2])))
    if bw >= 40 and bh >= 30:
        src = quad if long_x else np.roll(quad, -1, axis=0)  # rows of points along the longer side
        dst = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], np.float32)
        Hm = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
        pa = playing_area(cv2.warpPerspective(small, Hm, (bw, bh)))
        if pa is not None:
            x0, y0, x1, y1 = pa
            pts = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
            out.append(cv2.perspectiveTransform(pts[None], np.linalg.inv(Hm))[0])
        out.append(src.astype(np.float32))
    m = 0.03
    whole = np.array([[w * m, h * m], [w * (1 - m), h * m], [w * (1 - m), h * (1 - m)], [w * m, h * (1 - m)]], np.float32)
    out.append(whole if w >= h else np.roll(whole, -1, axis=0))
    return out


def auto_corners(frame: np.ndarray, min_likeness: float = 1.5) -> Optional[np.ndarray]:
    """The playing area's corners in ``frame`` (first corner at the start of the "top" row),
    or None when nothing there looks like a board."""
    if frame is None or frame.size == 0:
        return None
    h, w = frame.shape[:2]
    s = min(1.0, WORK / max(h, w))
    small = cv2.resize(frame, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA) if s < 1 else frame
    best, best_score = None, min_likeness
    for c0 in _candidates(small):
        for c in (c0, np.roll(c0, -1, axis=0)):  # rows of points along either side
            sc = board_likeness(small, c)
            if sc > best_score:
                best, best_score = c, sc
    return None if best is None else (best / s).astype(np.float32)
