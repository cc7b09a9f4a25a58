"""From playing-area corners to a rectified top-down view, in point widths.

A rectified view is ``px`` pixels per point width with a ``margin`` (pw) of frame
around the playing area, so pixel ``(x, y)`` shows board point ``(x/px - margin,
y/px - margin)`` in the coordinates of :mod:`vision.layout`.

The camera and the board stand still between frames, so the pixel maps of a warp are
kept per (corners, frame size, scale, region) and each frame is one remap.  The maps are
OpenCV's fixed-point grid (1/32 pixel) held as floats: OpenCV's float remap of four channels
is vectorised (about 0.6 ms for the board's view), of three channels or with fixed-point maps
not (2-4 ms); on that grid it gives the fixed-point remap's pixels but where a value lies
exactly half-way (rounded to even, not up: one level, about 1 % of the values).  A colour
frame is remapped as BGRA, only the part of the frame the warp reads.  :func:`rectify_region`
warps any rectangle of board coordinates (the trays lie outside the playing area).

A board of another shape than the layout's (:class:`vision.layout.BoardShape`: a wider bar,
a taller area) is warped onto the layout's: the view is in layout coordinates, the bar and the
gap between the rows stretched or squeezed (its maps are built on first use).  A view in the
board's own coordinates (``own=True``) is warped without that: one scale all over, so a die in
the gap between the rows stays square (the dice finder's, :mod:`vision.dice`); for the layout's
own shape the two are the same view.

Where the view reaches past the picture (a camera or a photo that cuts off part of the frame)
its pixels repeat the picture's edge: they show nothing of the board.  A view made here knows
the picture it was cut from (:class:`FrameMap`), so a check can ask which board places it
really shows (:meth:`View.in_frame`) and leave the others unjudged.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from . import layout as L
from .buffers import mapped_afresh, scratch


@dataclass(frozen=True)
class View:
    """A rectified image with its scale and margin (the pw at pixel 0 is ``-margin`` on both axes,
    unless ``origin`` says otherwise: the board coordinates (x, y) shown at pixel (0, 0))."""

    image: np.ndarray
    px: int
    margin: float
    origin: tuple[float, float] | None = None
    frame: "FrameMap | None" = field(default=None, compare=False)   # the picture it was cut from

    def in_frame(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Whether each board point (``x``, ``y``: layout pw, arrays of one shape) lies inside the
        picture this view was cut from (True everywhere when the view does not know it)."""
        if self.frame is None:
            return np.ones(np.shape(x), bool)
        return self.frame.inside(x, y)

    def sees_all(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the board rectangle ``x0..x1, y0..y1`` (layout pw) lies wholly inside the picture
        (its corners do: a rectangle of the board is a convex shape in the picture)."""
        return bool(self.in_frame(np.array([x0, x1, x1, x0]), np.array([y0, y0, y1, y1])).all())

    @property
    def x0(self) -> float:
        """The board x coordinate (pw) shown at pixel column 0."""
        return -self.margin if self.origin is None else self.origin[0]

    @property
    def y0(self) -> float:
        """The board y coordinate (pw) shown at pixel row 0."""
        return -self.margin if self.origin is None else self.origin[1]

    def to_px(self, x: float, y: float) -> tuple[float, float]:
        """The pixel of board coordinates (``x``, ``y``) in point widths."""
        return (x - self.x0) * self.px, (y - self.y0) * self.px


@dataclass(frozen=True)
class FrameMap:
    """Where a view's board places lie in the picture it was cut from: the playing area's
    ``corners`` (TL, TR, BR, BL, picture px) of a board of ``shape``, and the picture's ``size``
    (height, width)."""

    corners: np.ndarray
    shape: L.BoardShape
    size: tuple[int, int]
    own: bool = False   # the view's coordinates are the board's own pw, not the layout's

    @cached_property
    def _to_picture(self) -> np.ndarray:
        """The homography from the board's own pw to picture px."""
        h = cv2.getPerspectiveTransform(self.shape.corners_pw(), np.asarray(self.corners, np.float32))
        return np.asarray(h, np.float64)

    def to_picture(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Board points (layout pw; the board's own with ``own``) in picture px (u, v), and whether
        each lies in front of the camera (a point behind it has no place in the picture)."""
        x = np.asarray(x, np.float64)
        y = np.asarray(y, np.float64)
        if not self.shape.default and not self.own:
            x, y = self.shape.to_real(x, y)
        h = self._to_picture
        w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
        ok = w > 1e-9
        w = np.where(ok, w, 1.0)
        return (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w, (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w, ok

    def inside(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """Whether each board point (layout pw; the board's own with ``own``) lies inside the picture
        (its pixel centres' span)."""
        u, v, ok = self.to_picture(x, y)
        rows, cols = self.size
        return ok & (u >= 0) & (u <= cols - 1) & (v >= 0) & (v <= rows - 1)

    def outside(self, px: float, x0: float, y0: float, size: tuple[int, int]) -> np.ndarray | None:
        """Which pixels of a grid of ``size`` (height, width), ``px`` a pw, its corner at layout
        (``x0``, ``y0``), lie past the picture (judged at each pixel's centre); None when none does
        (the usual case: told from the grid's four corners, a rectangle of the board being a convex
        shape in the picture)."""
        h, w = size
        x1, y1 = x0 + w / px, y0 + h / px
        if bool(self.inside(np.array([x0, x1, x1, x0]), np.array([y0, y0, y1, y1])).all()):
            return None
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
        out = ~self.inside((xs + 0.5) / px + x0, (ys + 0.5) / px + y0)
        return out if out.any() else None


def point_pixels(corners: np.ndarray, shape: L.BoardShape) -> float:
    """How many picture pixels a point width spans on a playing area of ``shape`` at ``corners`` (TL, TR,
    BR, BL, picture px): its top and bottom edges' mean length over its width in point widths."""
    c = np.asarray(corners, np.float64)
    return float(np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2 / shape.width


def pixels_per_point(view: View) -> float | None:
    """:func:`point_pixels` of the picture ``view`` was cut from; None when the view does not know it.
    The reader works on a view of its own scale, so this says how much of the board's detail reaches
    it (``bench/vision_scale.py``)."""
    return None if view.frame is None else point_pixels(view.frame.corners, view.frame.shape)


def points_out_of_picture(view: View) -> tuple[bool, ...]:
    """Per point (image rows: top 0..11, then bottom 0..11) whether the picture ``view`` was cut from
    leaves out part of the point's first five checkers' place (a camera or a photo cut at the playing
    area): its pixels there repeat the picture's edge, and what it holds is not seen."""
    if view.frame is None or view.sees_all(0.0, 0.0, L.WIDTH, L.HEIGHT):
        return (False,) * 24
    half = L.CHECKER / 2
    sides = np.array([L.column_x(c) + dx for c in range(12) for dx in (-half, half)])   # (24,): 12 points' two sides
    out: list[bool] = []
    for ends in ((0.0, L.POINT_LEN), (L.HEIGHT - L.POINT_LEN, L.HEIGHT)):   # the top row's, the bottom row's
        seen = view.in_frame(np.tile(sides, 2), np.repeat(ends, len(sides))).reshape(2, 12, 2)
        out += [bool(c) for c in np.asarray(~seen.all(axis=(0, 2))).ravel()]
    return tuple(out)


def homography(corners: np.ndarray, px: int, margin: float) -> np.ndarray:
    """The image-to-rectified homography for playing-area corners TL, TR, BR, BL."""
    dst = (L.playing_corners_pw() + margin) * px
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst.astype(np.float32))


def region_homography(corners: np.ndarray, px: int, x0: float, y0: float) -> np.ndarray:
    """Image to a rectified view whose pixel (0, 0) shows board point (x0, y0) (pw)."""
    dst = (L.playing_corners_pw() - np.array([x0, y0], np.float32)) * px
    return cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst.astype(np.float32))


@dataclass(frozen=True)
class Warp:
    """A kept warp: float maps (x and y per pixel, two planes) into the frame's part ``x0..x1,
    y0..y1`` that it reads (its pixel and the next on both axes), relative to that part's corner.
    (OpenCV remaps a BGRA picture about 5 % faster with two planes than with one map of x, y
    pairs, to the same pixels.)"""

    mx: np.ndarray
    my: np.ndarray
    x0: int
    y0: int
    x1: int
    y1: int


_MAPS: "OrderedDict[tuple, Warp]" = OrderedDict()
_MAPS_KEPT = 16


_SEEN: "OrderedDict[tuple, None]" = OrderedDict()
_STRIP = 16_384   # map pixels built at a time (whole rows): the float64 working arrays stay about 1 MB


def warp_maps(corners: np.ndarray, frame_shape: tuple[int, ...], px: int, x0: float, y0: float,
          size: tuple[int, int], shape: L.BoardShape = L.BoardShape(), own: bool = False) -> Warp | None:
    """The remap table of one warp, built the second time a geometry is seen (a
    one-off read is faster with a plain perspective warp; None the first time), or at once
    for a board of another shape than the layout's (no plain warp does that).  ``own``: the
    view in the board's own coordinates (``x0``, ``y0`` too), not remapped onto the layout's."""
    c = np.ascontiguousarray(corners, np.float32)
    own = own and not shape.default
    key = (c.tobytes(), frame_shape[:2], px, round(x0, 6), round(y0, 6), size, shape, own)
    hit = _MAPS.get(key)
    if hit is not None:
        _MAPS.move_to_end(key)
        return hit
    if key not in _SEEN and shape.default:
        _SEEN[key] = None
        while len(_SEEN) > 4 * _MAPS_KEPT:
            _SEEN.popitem(last=False)
        return None
    if shape.default:
        inv = np.linalg.inv(region_homography(c, px, x0, y0))
    else:  # layout pw -> the board's own pw -> image
        inv = np.linalg.inv(cv2.getPerspectiveTransform(c, shape.corners_pw()))
    w_px, h_px = size
    xy = np.empty((h_px, w_px, 2), np.float32)   # the map, x and y per pixel
    step = max(1, _STRIP // max(1, w_px))
    for r0 in range(0, h_px, step):   # in strips of rows: the float64 arithmetic of a strip stays small
        r1 = min(h_px, r0 + step)
        ys, xs = np.mgrid[r0:r1, 0:w_px].astype(np.float64)
        if own:
            xs, ys = xs / px + x0, ys / px + y0
        elif not shape.default:
            xs, ys = shape.to_real(xs / px + x0, ys / px + y0)
        p = np.stack([xs, ys, np.ones_like(xs)], axis=-1) @ inv.T   # (one product per row of pixels, as whole)
        w = p[..., 2]
        w = np.where(np.abs(w) < 1e-12, 1e-12, w)
        mx = (p[..., 0] / w).astype(np.float32)
        my = (p[..., 1] / w).astype(np.float32)
        np.clip(mx, -1e6, 1e6, out=mx)
        np.clip(my, -1e6, 1e6, out=my)
        m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)   # the fixed-point grid (1/32 pixel) ...
        cv2.convertMaps(m1, m2, cv2.CV_32FC2, dstmap1=xy[r0:r1])   # ... as float coordinates
    warp = _part(xy, frame_shape)
    _MAPS[key] = warp
    while len(_MAPS) > _MAPS_KEPT:
        _MAPS.popitem(last=False)
    return warp


def _part(xy: np.ndarray, frame_shape: tuple[int, ...]) -> Warp:
    """The warp reading only the frame's part its map ``xy`` (x, y per pixel, into the whole frame;
    made relative to the part, in place) reaches.  Where the map leaves the frame the part's edge is
    the frame's, so border pixels are replicated as from the whole frame."""
    h, w = frame_shape[:2]
    mx, my = xy[..., 0], xy[..., 1]
    x0, y0 = max(0, int(np.floor(mx.min()))), max(0, int(np.floor(my.min())))
    x1, y1 = min(w, int(np.floor(mx.max())) + 2), min(h, int(np.floor(my.max())) + 2)
    if x1 - x0 < 2 or y1 - y0 < 2:   # the warp lies outside the frame: the whole frame
        x0 = y0 = 0
        x1, y1 = w, h
    mx -= np.float32(x0)
    my -= np.float32(y0)
    planes = cv2.split(xy)
    return Warp(planes[0], planes[1], x0, y0, x1, y1)


ROWS_WIDE = 0.3   # a part at least this share of the frame's width is converted to BGRA as whole rows


def bgra_part(frame: np.ndarray, warp: Warp) -> np.ndarray:
    """The part of the BGR ``frame`` that ``warp`` reads, as BGRA (the same pixels, a fourth
    level of 255).  OpenCV converts a contiguous run of pixels several times faster per pixel
    than a part's short rows one by one (a 1280x720 frame's board part, 639 x 528 pixels: its
    528 whole rows 0.12 ms, the part 0.28 ms): a part wide enough is converted as whole rows of
    the frame and cut from them."""
    part = frame[warp.y0:warp.y1, warp.x0:warp.x1]
    if frame.flags.c_contiguous and warp.x1 - warp.x0 >= ROWS_WIDE * frame.shape[1]:
        rows = cv2.cvtColor(frame[warp.y0:warp.y1], cv2.COLOR_BGR2BGRA)   # (a large array: made afresh)
        return rows[:, warp.x0:warp.x1]
    return cv2.cvtColor(part, cv2.COLOR_BGR2BGRA, dst=scratch("remap_src", part.shape[:2] + (4,), np.uint8))


def remap(frame: np.ndarray, warp: Warp) -> np.ndarray:
    """``frame`` through a kept warp.  A colour frame's part is remapped through a BGRA copy (the
    same pixels; OpenCV's four-channel remap is faster), unless that copy, a large array made afresh
    each read, would be mapped and paged in anew (:func:`vision.buffers.mapped_afresh`: in the
    table's process, :func:`referee.table.run.steady_malloc`): the part is then remapped as it is.
    There the full read took 9.4-10.7 ms through the copy, 8.1-9.3 without it (``bench/vision_speed.py
    30 5 --table-malloc``, session 45); elsewhere the copy saves about 0.15 ms a view."""
    part = frame[warp.y0:warp.y1, warp.x0:warp.x1]
    if frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8 \
            and not mapped_afresh((warp.y1 - warp.y0) * (warp.x1 - warp.x0) * 4):
        src = bgra_part(frame, warp)
        out = scratch("remap_out", warp.mx.shape[:2] + (4,), np.uint8)
        cv2.remap(src, warp.mx, warp.my, cv2.INTER_LINEAR, dst=out, borderMode=cv2.BORDER_REPLICATE)
        return cv2.cvtColor(out, cv2.COLOR_BGRA2BGR)   # (a new array: views are kept)
    out = cv2.remap(part, warp.mx, warp.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(out)


def rectify_region(frame: np.ndarray, corners: np.ndarray, px: int, x0: float, y0: float, x1: float, y1: float,
                   shape: L.BoardShape = L.BoardShape(), own: bool = False) -> View:
    """Warp the board rectangle ``x0..x1, y0..y1`` (pw, layout coordinates; with ``own`` the
    board's own, one scale all over) upright; the corners are those of a playing area of ``shape``."""
    own = own and not shape.default   # (the layout's own shape: the two views are one)
    size = (int(round((x1 - x0) * px)), int(round((y1 - y0) * px)))
    warp = warp_maps(corners, frame.shape, px, x0, y0, size, shape, own)
    if warp is None:
        img = cv2.warpPerspective(frame, region_homography(corners, px, x0, y0), size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    else:
        img = remap(frame, warp)
    seen = FrameMap(np.array(corners, np.float32, copy=True), shape, (int(frame.shape[0]), int(frame.shape[1])), own)
    return View(img, px, -x0 if x0 == y0 else 0.0, None if x0 == y0 else (x0, y0), seen)


def view_extent(shape: L.BoardShape, own: bool = False) -> tuple[float, float]:
    """The playing area's width and height (pw) in a view of a board of ``shape``: the layout's, or with
    ``own`` the board's own."""
    return (shape.width, shape.height) if own else (L.WIDTH, L.HEIGHT)


def rectify(frame: np.ndarray, corners: np.ndarray, px: int = 32, margin: float = 0.6,
            shape: L.BoardShape = L.BoardShape(), own: bool = False) -> View:
    """Warp ``frame`` so the playing area (of ``shape``) is upright in the layout's
    coordinates (``own``: the board's own, :func:`rectify_region`), ``px`` pixels per point width."""
    width, height = view_extent(shape, own)
    return rectify_region(frame, corners, px, -margin, -margin, width + margin, height + margin, shape, own)
