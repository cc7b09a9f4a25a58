"""ArUco corner markers: the dictionary, the ids, finding them, and a printable sheet.

Dictionary ``DICT_4X4_50``; ids 0, 1, 2, 3 go on the top-left, top-right, bottom-right
and bottom-left corners of the playing area (as the camera should read it: "top" is the
edge whose row the reader reports as ``top``).  Each marker is printed upright with a
white border a quarter of its side wide; stick the sheet's square so that the *outer
edge of the white border* touches the playing-area corner, the square lying outside the
playing area on the frame.  The playing-area corner is then the marker's inner corner
moved towards the playing area by the border width along both marker edges.
"""
from __future__ import annotations

import functools
from typing import Optional

import cv2
import numpy as np

DICTIONARY = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
MARKER_SIZE = 0.9     # marker side (black square) in point widths, as the renderer draws it
MARKER_BORDER = 0.125 # white border, as a share of the marker side


@functools.lru_cache(maxsize=32)
def marker_image(marker_id: int, side: int) -> np.ndarray:
    """A grey image ``side`` px square: marker ``marker_id`` inside its white border."""
    inner = int(round(side / (1 + 2 * MARKER_BORDER)))
    m = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), marker_id, inner)
    out = np.full((side, side), 255, np.uint8)
    o = (side - inner) // 2
    out[o:o + inner, o:o + inner] = m
    return out


@functools.lru_cache(maxsize=1)
def _detector() -> "cv2.aruco.ArucoDetector":
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def find_marker_corners(image: np.ndarray) -> Optional[np.ndarray]:
    """The playing area's corners TL, TR, BR, BL from the markers, or None when fewer than three are seen.

    With three, the fourth corner comes from the homography their corners and squares fit
    (:func:`_fourth_corner`).
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found: dict[int, np.ndarray] = {}
    for attempt in range(2):  # then again with local contrast evened out (glare, deep shadow)
        img = grey if attempt == 0 else cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8)).apply(grey)
        corners, ids, _ = _detector().detectMarkers(img)
        for c, i in zip(corners, ids.ravel() if ids is not None else []):
            if int(i) in MARKER_IDS and int(i) not in found:
                found[int(i)] = c.reshape(4, 2)
        if len(found) == 4:
            break
    if len(found) < 3:
        return None
    out: list[Optional[np.ndarray]] = []
    for slot, mid in enumerate(MARKER_IDS):
        quad = found.get(mid)
        if quad is None:
            out.append(None)
            continue
        k = (slot + 2) % 4  # the marker corner nearest the playing area
        ck, prev, nxt = quad[k], quad[(k - 1) % 4], quad[(k + 1) % 4]
        out.append(ck + MARKER_BORDER * ((ck - prev) + (ck - nxt)))
    if any(p is None for p in out):  # one hidden (glare, a sleeve): from the other three
        hidden = next(j for j, p in enumerate(out) if p is None)
        out[hidden] = _fourth_corner(hidden, out, found)
    return np.array(out, np.float32)


def _marker_square_pw(slot: int, side: float, area: np.ndarray) -> np.ndarray:
    """Where the black square of the marker at corner ``slot`` lies, in board coordinates
    (pw), for a marker ``side`` pw wide: outside the playing area, its white border's outer
    corner on the area's corner, printed upright (corners in ArUco order TL, TR, BR, BL)."""
    cx, cy = area[slot]
    sx, sy = ((-1, -1), (1, -1), (1, 1), (-1, 1))[slot]
    b = MARKER_BORDER * side
    x0 = cx + (b if sx > 0 else -side - b)
    y0 = cy + (b if sy > 0 else -side - b)
    return np.array([[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float64)


def _fourth_corner(hidden: int, out: list[Optional[np.ndarray]], found: dict[int, np.ndarray]) -> np.ndarray:
    """The hidden corner from the three seen markers: the board-to-image homography that best
    fits their three playing-area corners and the twelve corners of their squares (the
    markers' printed size, unknown, is searched), applied to the hidden corner.  A camera
    seen at an angle makes the board a general quadrilateral: completing a parallelogram
    puts the corner tens of pixels off."""
    from .layout import playing_corners_pw
    area = playing_corners_pw().astype(np.float64)
    seen = [k for k in range(4) if k != hidden]
    dst = np.vstack([np.asarray(out[k], np.float64)[None] for k in seen] +
                    [found[MARKER_IDS[k]].astype(np.float64) for k in seen])
    best: tuple[float, Optional[np.ndarray]] = (np.inf, None)
    for side in np.geomspace(0.3, 3.0, 41):   # the marker's side in point widths
        src = np.vstack([area[seen]] + [_marker_square_pw(k, side, area) for k in seen])
        H, _ = cv2.findHomography(src, dst, 0)
        if H is None:
            continue
        proj = cv2.perspectiveTransform(src[None], H)[0]
        err = float(np.mean(np.linalg.norm(proj - dst, axis=1)))
        if err < best[0]:
            best = (err, H)
    a, b, c3 = out[(hidden + 1) % 4], out[(hidden + 2) % 4], out[(hidden + 3) % 4]
    assert a is not None and b is not None and c3 is not None  # three markers were found
    if best[1] is None:
        return a + c3 - b   # degenerate: the parallelogram
    return cv2.perspectiveTransform(area[hidden][None, None], best[1])[0, 0].astype(np.float32)


def marker_sheet(side_mm: float = 30.0, dpi: int = 300) -> np.ndarray:
    """A printable grey image: the four markers with their borders, ids and placement labels."""
    px = int(round(side_mm * (1 + 2 * MARKER_BORDER) / 25.4 * dpi))
    gap = px // 2
    names = ("0 top-left", "1 top-right", "2 bottom-right", "3 bottom-left")
    sheet = np.full((2 * px + 3 * gap + 60, 2 * px + 3 * gap), 255, np.uint8)
    for k, mid in enumerate(MARKER_IDS):
        r, c = divmod(k, 2)
        y, x = gap + r * (px + gap + 30), gap + c * (px + gap)
        sheet[y:y + px, x:x + px] = marker_image(mid, px)
        cv2.rectangle(sheet, (x, y), (x + px - 1, y + px - 1), 180, 1)
        cv2.putText(sheet, names[k], (x, y + px + 25), cv2.FONT_HERSHEY_SIMPLEX, max(0.4, px / 400), 0, 1, cv2.LINE_AA)
    cv2.putText(sheet, f"bgtable corner markers: ArUco DICT_4X4_50, marker side {side_mm:g} mm; cut on the grey line,"
                " white border's outer corner on the playing-area corner",
                (10, sheet.shape[0] - 12), cv2.FONT_HERSHEY_SIMPLEX, max(0.3, px / 900), 0, 1, cv2.LINE_AA)
    return sheet
