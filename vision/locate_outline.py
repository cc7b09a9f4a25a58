"""The board's outline in a picture (:func:`board_quad`), corner ordering, and a quick
likeness test of a quad (:func:`board_likeness`); used by :mod:`vision.locate`."""
from __future__ import annotations

from typing import Optional

import cv2
import numpy as np

from . import layout as L

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
        x, y, cw, ch = cv2.boundingRect(c)
        if cw * ch <= best_area:
            continue
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
    border = np.concatenate([lab[:4].reshape(-1, 3), lab[-4:].reshape(-1, 3),
                             lab[:, :4].reshape(-1, 3), lab[:, -4:].reshape(-1, 3)])
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
