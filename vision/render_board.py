"""The board as a texture: the empty board of a scheme (kept per scheme and shape), the
checkers on it (stacks, the bar, the trays) and the real-table props of the texture (logos,
hinges, faces, the doubling cube), drawn top-down at :data:`vision.render_tex.TEX` pixels per point width.
"""
from __future__ import annotations

import functools
import zlib
from typing import Optional

import cv2
import numpy as np

from referee.events import BoardEvidence

from . import layout as L
from . import render_props as P
from .markers import MARKER_BORDER, MARKER_IDS, MARKER_SIZE, marker_image
from .render_faces import STYLES, VARIANTS, paint_face
from .render_params import Props, RenderParams, Scheme
from .render_tex import BGR, FRAME, TEX, TRAY, poly, px, real, shade, tex_size

_px, _tex_size, _real, _shade, _poly = px, tex_size, real, shade, poly
TEX_W, TEX_H = _tex_size(L.BoardShape())


@functools.lru_cache(maxsize=16)
def _empty_board(scheme: Scheme, markers: bool, shape: L.BoardShape = L.BoardShape(),
                 mirrored: bool = False) -> np.ndarray:
    tw, th = _tex_size(shape)
    W, H = shape.width, shape.height
    img = np.zeros((th, tw, 3), np.uint8)
    img[:] = scheme.frame
    rng = np.random.default_rng(zlib.crc32(scheme.name.encode()))  # stable across processes
    grain = cv2.resize(rng.normal(0, 6, (th // 8, tw // 2)).astype(np.float32), (tw, th))
    _poly(img, [(0, 0), (W, 0), (W, H), (0, H)], scheme.surface)
    b0, b1 = L.BAR_LEFT, L.BAR_LEFT + shape.bar
    _poly(img, [(b0, 0), (b1, 0), (b1, H), (b0, H)], scheme.bar)
    tx = W + FRAME
    for y0, y1 in ((0, H / 2 - 0.2), (H / 2 + 0.2, H)):
        _poly(img, [(tx, y0), (tx + TRAY, y0), (tx + TRAY, y1), (tx, y1)], _shade(scheme.surface, 0.8))
    for i in range(12):
        x = _real(shape, L.column_x(i), 0.0)[0]
        for top in (True, False):
            # alternating across the bar, or each half the other's mirror (the two points beside the bar alike)
            c = scheme.point_a if (i + top + (mirrored and i >= 6)) % 2 else scheme.point_b
            if top:
                _poly(img, [(x - 0.5, 0), (x + 0.5, 0), (x, L.POINT_LEN - 0.1)], c)
            else:
                _poly(img, [(x - 0.5, H), (x + 0.5, H), (x, H - L.POINT_LEN + 0.1)], c)
    out = np.clip(img.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)
    if markers:
        paper = MARKER_SIZE * (1 + 2 * MARKER_BORDER)
        side = int(round(paper * TEX))
        for mid, (cx, cy), (sx, sy) in zip(MARKER_IDS, shape.corners_pw(), ((-1, -1), (1, -1), (1, 1), (-1, 1))):
            m = marker_image(mid, side)
            x0 = int(round((cx + FRAME) * TEX + (0 if sx > 0 else -side)))
            y0 = int(round((cy + FRAME) * TEX + (0 if sy > 0 else -side)))
            out[y0:y0 + side, x0:x0 + side] = m[..., None]
    return out


def _checker(img: np.ndarray, x: float, y: float, colour: BGR, layer: int, size: float = L.CHECKER,
             face: Optional[str] = None, variant: int = 0) -> None:
    """Draw one checker (``size`` pw across) seen from above: a shadow, the body, a rim, a groove and a sheen."""
    r = size / 2 * (1 + 0.03 * layer)
    cx, cy = _px(x, y)
    R = int(r * TEX * 16)
    lum = sum(colour) / 3
    sx, sy = _px(x + 0.06, y + 0.08)
    roi_r = int(r * TEX) + 6
    px, py = (sx >> 4), (sy >> 4)
    y0, y1 = max(py - roi_r, 0), min(py + roi_r, img.shape[0])
    x0, x1 = max(px - roi_r, 0), min(px + roi_r, img.shape[1])
    if y1 > y0 and x1 > x0:
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(mask, ((sx - x0 * 16), (sy - y0 * 16)), R, 255, -1, cv2.LINE_AA, shift=4)
        roi = img[y0:y1, x0:x1]
        roi[:] = (roi * (1.0 - 0.45 * (mask[..., None] / 255.0))).astype(np.uint8)
    cv2.circle(img, (cx, cy), R, colour, -1, cv2.LINE_AA, shift=4)
    if face is not None:
        paint_face(img, cx / 16, cy / 16, R / 16, face, colour, variant)
    rim = _shade(colour, 0.55) if lum > 90 else tuple(min(255, v + 45) for v in colour)
    cv2.circle(img, (cx, cy), R - 16, rim, 2, cv2.LINE_AA, shift=4)
    groove = _shade(colour, 0.82) if lum > 90 else tuple(min(255, v + 25) for v in colour)
    cv2.circle(img, (cx, cy), int(R * 0.68), groove, 1, cv2.LINE_AA, shift=4)


def stack_offsets(n: int, size: float = L.CHECKER, row_max: int = 5) -> list[tuple[float, int]]:
    """Distance from the point's base (pw) and layer of each of ``n`` (0..15) checkers
    ``size`` pw across on a point, stacked as :func:`vision.layout.stack_slots` says (a pyramid 5-4-3-2-1).

    ``row_max`` above 5: tournament style, up to that many lined up along the point (as many as
    fit in half the board's height) before the next layer, each layer one shorter."""
    if row_max <= 5:
        return [(size * h / 2, layer) for h, layer in L.stack_slots(n)]
    if not 0 <= n <= L.MAX_STACK:
        raise ValueError(f"stack of {n} checkers: a point holds 0..{L.MAX_STACK}")
    row = max(5, min(row_max, int((L.HEIGHT / 2 - 0.05) / size)))
    out: list[tuple[float, int]] = []
    layer = 0
    while len(out) < n:
        for k in range(max(row - layer, 1)):
            if len(out) == n:
                break
            out.append((size * (1 + layer + 2 * k) / 2, layer))
        layer += 1
    return out


def _nudge(rng: np.random.Generator, key: Optional[int], jitter: float, row: int, index: int,
           k: int) -> tuple[float, float]:
    """How far the ``k``-th checker of a place (``row``: 0 top, 1 bottom, 2 the bar; ``index``: its
    point or colour) lies off its spot, in pw.  With a ``key`` (:attr:`RenderParams.still_checkers`)
    the same for a checker that stays in its place from one frame to the next, whatever moved
    elsewhere (a move touches two to four checkers, not the rest of the board; ``rng`` is drawn from
    as without, so the rest of the scene is unchanged); without, the next draw of ``rng``."""
    jx, jy = rng.normal(0, jitter, 2)
    if key is not None:
        jx, jy = np.random.default_rng([key, 7, row, index, k]).normal(0, jitter, 2)
    return float(np.clip(jx, -2.5 * jitter, 2.5 * jitter)), float(np.clip(jy, -2.5 * jitter, 2.5 * jitter))


def draw_board(position: BoardEvidence, scheme: Scheme, setup: L.SetUp, rng: np.random.Generator,
               jitter: float = 0.05, markers: bool = True, off_pitch: float = L.TRAY_PITCH,
               checker: float = L.CHECKER, shape: L.BoardShape = L.BoardShape()) -> np.ndarray:
    """The board seen exactly from above, as a texture (see :data:`TEX`).  Borne-off
    checkers lie in the right tray, each ``off_pitch`` pw apart (its thickness and a 0.03 gap)."""
    return _draw_board(position, scheme, setup, rng, jitter, markers, off_pitch, checker, shape)[0]


def _draw_board(position: BoardEvidence, scheme: Scheme, setup: L.SetUp, rng: np.random.Generator,
                jitter: float = 0.05, markers: bool = True, off_pitch: float = L.TRAY_PITCH,
                checker: float = L.CHECKER, shape: L.BoardShape = L.BoardShape(), params: Optional[RenderParams] = None,
                pr: Optional[np.random.Generator] = None, mirrored: bool = False,
                cache: bool = True) -> tuple[np.ndarray, Props]:
    """:func:`draw_board` with the real-table props of ``params`` (drawn from ``pr``), and what was drawn;
    ``mirrored``: the halves' triangles mirror each other about the bar.  ``cache``: the empty board
    kept for the next scene (:func:`_empty_board`); False draws it afresh and keeps nothing (the same
    pixels: 1.1 MB less for a camera that draws its scene once, ``bgtable run``'s peak 120.6 -> 119.6 MB)."""
    img = _empty_board(scheme, markers, shape, mirrored).copy() if cache else \
        _empty_board.__wrapped__(scheme, markers, shape, mirrored)
    p_ = params or RenderParams()
    pr = pr or np.random.default_rng(0)
    logos: list[P.Box] = []
    hinges: list[P.Box] = []
    faces: list[Optional[str]] = [None, None]
    # one stream a prop: each looks the same whatever else is drawn
    keys = [int(k) for k in pr.integers(2 ** 31, size=4)]
    if p_.hinge_prob or p_.logo_prob or p_.face_prob:
        streams = [np.random.default_rng([keys[k], k]) for k in range(3)]
        if streams[0].random() < p_.logo_prob:
            logos = P.draw_logos(img, streams[0], shape, scheme.surface)
        if streams[1].random() < p_.hinge_prob:
            hinges = P.draw_hinges(img, streams[1], shape)
        for ci in range(2):
            if streams[2].random() < p_.face_prob:
                faces[ci] = STYLES[int(streams[2].integers(len(STYLES)))]
    vr = np.random.default_rng([keys[3], 5])  # face variants and bar offsets
    top, bottom = setup.to_rows(position)
    still = keys[3] if p_.still_checkers else None   # each checker's nudge keyed on its place
    items = []
    for row, readings in (("top", top), ("bottom", bottom)):
        for i, p in enumerate(readings):
            col = scheme.dark if p.colour == "dark" else scheme.light
            for k, (d, layer) in enumerate(stack_offsets(p.count, checker, p_.row_max)):
                jx, jy = _nudge(rng, still, jitter, 0 if row == "top" else 1, i, k)
                y = d + 0.02 if row == "top" else L.HEIGHT - d - 0.02
                items.append((layer, *_real(shape, L.column_x(i) + jx, y + jy * 0.6), col))
    cx = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    for ci, colour in enumerate((scheme.dark, scheme.light)):
        for k in range(position.bar[ci]):
            d = 0.55 + checker * (k + 0.5) if k < 5 else 0.55 + checker * (k - 4)
            y = L.HEIGHT / 2 - d if ci == 0 else L.HEIGHT / 2 + d
            jx, jy = _nudge(rng, still, jitter, 2, ci, k)
            if p_.bar_offset > 0:
                jx += float(np.clip(vr.normal(0, p_.bar_offset), -2.5 * p_.bar_offset, 2.5 * p_.bar_offset))
            items.append((0 if k < 5 else 1, *_real(shape, cx + jx, y + jy * 0.6), colour))
    drawn = []
    for layer, x, y, col in sorted(items, key=lambda t: t[0]):
        face = faces[0 if col == scheme.dark else 1] if faces != [None, None] else None
        variant = int(vr.integers(VARIANTS)) if face else 0   # (drawn either way: the stream as before)
        if face and still is not None:   # a checker's face turned as it lies: the same while it stays in its place
            variant = int(np.random.default_rng([still, 8, int(x * 1000), int(y * 1000)]).integers(VARIANTS))
        _checker(img, x, y, col, layer, checker, face, variant)
        drawn.append((x, y, checker / 2 * (1 + 0.03 * layer)))
    cube = None
    if p_.cube_prob:  # its own stream: nothing else drawn changes with it
        cr = np.random.default_rng([keys[0], 9])
        if cr.random() < p_.cube_prob:
            cube = P.cube_place(cr, shape, checker, (position.bar[0], position.bar[1]))
            P.draw_cube(img, cube, cr)
    off = position.off or (0, 0)
    tx = shape.width + FRAME + 0.05
    for ci, colour in enumerate((scheme.dark, scheme.light)):
        for k in range(off[ci]):
            y = (0.1 + k * off_pitch) if ci == 0 else (shape.height - 0.1 - (k + 1) * off_pitch)
            t = off_pitch - 0.03
            _poly(img, [(tx, y), (tx + checker, y), (tx + checker, y + t), (tx, y + t)], colour)
            _poly(img, [(tx, y + t - 0.03), (tx + checker, y + t - 0.03), (tx + checker, y + t), (tx, y + t)],
                  _shade(colour, 0.6))
    return img, Props(hinges=tuple(hinges), logos=tuple(logos), faces=(faces[0], faces[1]), checkers=tuple(drawn),
                      cube=cube, mirrored=mirrored)
