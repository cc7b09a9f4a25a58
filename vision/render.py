"""A synthetic camera: draws a board in any position as a camera above the table sees it.

Used by tests, benchmarks and the simulated table.  A board is drawn top-down into a
texture (in point widths, see :mod:`vision.layout`), warped into the camera by a random
homography, bent by lens distortion and then spoiled: light gradients, glare, shadows,
noise, blur, JPEG artefacts, checker jitter and overlap, and optionally a hand with an
arm (and a checker in its fingers) over the board.  Same seed and frame, same image; another ``frame``
changes only the sensor noise.

What real tables show is off by default and switched on per option of :class:`RenderParams`
(or all at once, at realistic rates, by :meth:`RenderParams.real_table`): hinges and logos,
dice (:class:`vision.render_props.Die`; :attr:`Rendered.dice` says where each lies; seen by a
camera at ``RenderParams.camera_height`` over the board, a die away from the camera's foot shows the
side faces turned towards it, as a real table's camera sees them towards the board's edges), six or
more checkers in a row, pearl, carved and marbled faces (:mod:`vision.render_faces`),
off-centre checkers on a narrow bar, a raised frame lip, blurred arms, a clock and a score
board.  With the defaults a seed gives the same image as before these options existed.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

import cv2
import numpy as np

from referee.events import BoardEvidence

from . import layout as L
from . import render_props as P
from .render_board import TEX_H, TEX_W, _draw_board, draw_board, stack_offsets
from .render_camera import NoiseRows, _draw_hand, _noise_tile, apply_light, distort, distort_points
from .render_params import SCHEMES, Props, Rendered, RenderParams, Scheme
from .render_props import Die, DieSeen
from .render_tex import BGR, FRAME, TEX, TRAY, tex_size as _tex_size

__all__ = ["BGR", "FRAME", "SCHEMES", "TEX", "TEX_H", "TEX_W", "TRAY", "Die", "DieSeen", "Props", "RenderParams",
           "Rendered", "Scheme", "distort_points", "draw_board", "render", "render_scene", "stack_offsets"]


def _camera(params: RenderParams, shape: L.BoardShape, seed: int) -> "Optional[P.Camera]":
    """The camera over the board the dice are drawn as seen by (``params.camera_height``): a height drawn
    per seed, its foot near the playing area's middle (a table's camera hangs over the board); None: none."""
    lo, hi = params.camera_height
    if hi <= 0:
        return None
    cr = np.random.default_rng([seed, 43])
    high = float(cr.uniform(lo, hi))
    return (shape.width / 2 + float(cr.uniform(-1.5, 1.5)), shape.height / 2 + float(cr.uniform(-1.0, 1.0)), high)


def render_scene(position: BoardEvidence, params: RenderParams = RenderParams(), seed: int = 0,
                 hand: bool = False, setup: Optional[L.SetUp] = None, frame: int = 0,
                 dice: Optional[Sequence[Die]] = None, cache: bool = True) -> Rendered:
    """Render ``position`` (table numbering) as a camera frame, with the truth and corners.

    ``seed`` fixes the camera, board, light and checker placement; ``frame`` (0 = the
    frame a seed always gave) draws fresh per-frame effects only: sensor noise and a
    slight mains flicker of the light, as successive frames of a still board differ.
    ``dice``: dice to draw on the board (``RenderParams.dice_prob`` throws two at random
    when None); :attr:`Rendered.dice` says where each lies.  ``cache``: keep the frame size's
    noise tile, lens maps and empty board for the next frame (20 MB at 1280x720: a simulator renders
    every frame); False draws them band by band and keeps nothing (the same image, about 0.2 s
    slower at 1280x720: for a camera that draws its scene once).
    """
    rng = np.random.default_rng(seed)
    bg = tuple(int(v) for v in rng.integers(30, 200, 3))
    scheme = next((s for s in SCHEMES if s.name == params.scheme), None) if params.scheme else None
    if scheme is None:
        scheme = SCHEMES[int(rng.integers(len(SCHEMES)))]
    setup = setup or L.SetUp()
    # separate streams, so the camera and the light stay put when the position or the hand changes
    lo, hi = params.off_pitch
    off_pitch = float(np.random.default_rng([seed, 17]).uniform(lo, hi)) if hi > lo else lo
    lo, hi = params.checker
    size = float(np.random.default_rng([seed, 19]).uniform(lo, hi)) if hi > lo else lo
    shape = params.shape
    mirrored = bool(params.mirror_prob and np.random.default_rng([seed, 37]).random() < params.mirror_prob)
    tex, props = _draw_board(position, scheme, setup, np.random.default_rng([seed, 7]), params.jitter, params.markers,
                             off_pitch, size, shape, params, np.random.default_rng([seed, 23]), mirrored, cache)
    dr = np.random.default_rng([seed, 29])
    if dice is None and params.dice_prob and dr.random() < params.dice_prob:
        dice = P.random_dice(dr, props.checkers, shape)
    placed = [P.place(d, dr, props.checkers, shape) for d in dice or ()]
    camera = _camera(params, shape, seed)
    for d in placed:
        P.draw_die(tex, d, any((d.x - cx) ** 2 + (d.y - cy) ** 2 < r * r for cx, cy, r in props.checkers),  # type: ignore[operator]
                   camera)
    lr = np.random.default_rng([seed, 31])
    if params.lip_prob and lr.random() < params.lip_prob:
        props = replace(props, lip=P.draw_lip(tex, lr, shape, scheme.frame))
    TEX_W, TEX_H = _tex_size(shape)
    W, H = params.width, params.height
    # camera: the texture's corners to a rotated, shrunk, perspective-perturbed quad
    fill = rng.uniform(*params.fill)
    sc = fill * min(W / TEX_W, H / TEX_H)
    ang = np.radians(rng.uniform(-params.rotation_max, params.rotation_max))
    flipped = bool(rng.random() < params.flip_prob)
    if flipped:
        ang += np.pi
    src = np.array([[0, 0], [TEX_W, 0], [TEX_W, TEX_H], [0, TEX_H]], np.float32)
    centred = (src - [TEX_W / 2, TEX_H / 2]) * sc
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    dst = centred @ rot.T
    span = dst.max(axis=0) - dst.min(axis=0)
    room = np.maximum(np.array([W, H]) - span, 0) / 2
    dst += np.array([W / 2, H / 2]) + rng.uniform(-1, 1, 2) * room * 0.8
    dst += rng.uniform(-1, 1, (4, 2)) * params.perspective_max * span.max()
    lo, hi = dst.min(axis=0), dst.max(axis=0)  # keep the whole board in view
    shrink = min(1.0, float(np.min((np.array([W, H]) - 24) / (hi - lo))))
    dst = (dst - (lo + hi) / 2) * shrink + (lo + hi) / 2
    lo, hi = dst.min(axis=0), dst.max(axis=0)
    dst += np.maximum(12 - lo, 0) - np.maximum(hi - np.array([W, H]) + 12, 0)
    Hm = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    img = cv2.warpPerspective(tex, Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    corners_tex = (shape.corners_pw() + FRAME) * TEX
    corners = cv2.perspectiveTransform(corners_tex[None].astype(np.float32), Hm)[0]
    if params.clock_prob or params.scoreboard_prob:
        props = replace(props, beside=_beside(img, np.random.default_rng([seed, 37]), params, Hm, TEX_W, TEX_H, sc))
    if hand:
        hr = np.random.default_rng([seed, 11])
        pa = cv2.perspectiveTransform(
            ((np.array([[hr.uniform(1, shape.width - 1), hr.uniform(1, shape.height - 1)]]) + FRAME) * TEX)[None]
            .astype(np.float32), Hm)[0][0]
        col = scheme.dark if hr.random() < 0.5 else scheme.light
        br = np.random.default_rng([seed, 41])
        blur = int(br.uniform(8, 36)) if params.arm_blur_prob and br.random() < params.arm_blur_prob else 0
        before = img.copy() if blur else None
        direction = _draw_hand(img, hr, pa, col if hr.random() < 0.5 else None)
        if before is not None:  # the arm moves along itself, across, or in between
            a = br.uniform(0, np.pi)
            img = P.motion_blur(img, before, np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) @ direction,
                                blur)
            props = replace(props, arm_blur=blur)
    k1 = rng.uniform(-params.distortion_max, params.distortion_max * 0.5)
    if abs(k1) > 1e-4:
        img = distort(img, round(float(k1), 3), cache)
        corners = distort_points(corners, W, H, round(float(k1), 3))

    def to_image(pts_pw: np.ndarray) -> np.ndarray:
        q = cv2.perspectiveTransform(((np.asarray(pts_pw, np.float64) + FRAME) * TEX)[None].astype(np.float32), Hm)[0]
        return distort_points(q, W, H, round(float(k1), 3)) if abs(k1) > 1e-4 else q

    seen = tuple(P.seen(d, props.checkers, shape, to_image, camera) for d in placed)
    # light: a multiplicative field (gradient, shadow) and an additive one (glare), at low resolution
    lw, lh = 64, 36
    ys, xs = np.mgrid[0:lh, 0:lw].astype(np.float32)
    gdir = rng.uniform(0, 2 * np.pi)
    g = rng.uniform(0, params.gradient_max)
    mul = 1 + g * (((xs / lw - 0.5) * np.cos(gdir) + (ys / lh - 0.5) * np.sin(gdir)))
    mul *= rng.uniform(0.8, 1.15)
    fr = np.random.default_rng([seed, 13, frame]) if frame else None
    if fr is not None:
        mul *= 1 + fr.uniform(-0.01, 0.01)
    if rng.random() < params.shadow_prob:
        sh = np.zeros((lh, lw), np.float32)
        pts = (rng.uniform(0, 1, (4, 2)) * [lw, lh]).astype(np.int32)
        cv2.fillConvexPoly(sh, cv2.convexHull(pts), 1.0)
        soft_sh = cv2.GaussianBlur(sh, (0, 0), 1.5)
        mul *= 1 - rng.uniform(0.2, 0.45) * soft_sh
    add = np.zeros((lh, lw), np.float32)
    if rng.random() < params.glare_prob:
        gx, gy = rng.uniform(0, lw), rng.uniform(0, lh)
        s = rng.uniform(2, 7)
        add += rng.uniform(40, 110) * np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * s * s))
    # one plane each, the same for the three channels (apply_light spreads it band by band)
    mul_f = cv2.resize(mul.astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR)
    add_f = cv2.resize(add, (W, H), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, params.noise_max)
    noise: Optional[np.ndarray | NoiseRows] = None
    if sigma > 0.3:
        ox, oy = rng.integers(0, 64, 2)
        flip = False
        if fr is not None:
            ox, oy = fr.integers(0, 64, 2)
            flip = bool(frame % 2)  # more noise patterns than 64 x 64 offsets
        if cache:
            tile = _noise_tile(W, H)
            tile = tile[:, ::-1] if flip else tile
            noise = tile[oy:oy + H, ox:ox + W]
        else:
            noise = NoiseRows(W, H, int(ox), int(oy), flip)
    img = apply_light(img, mul_f, add_f, noise, float(sigma))
    del mul_f, add_f
    b = rng.uniform(0, params.blur_max)
    if b > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), b)
    if params.jpeg[1] > 0:
        q = int(rng.integers(params.jpeg[0], params.jpeg[1] + 1))
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # our own JPEG
        img = decoded
    return Rendered(image=img, corners=corners.astype(np.float32), truth=position, setup=setup,
                    scheme=scheme.name, hand=hand, flipped=flipped, dice=seen, props=props)


def _beside(img: np.ndarray, rng: np.random.Generator, params: RenderParams, Hm: np.ndarray, tw: int, th: int,
            sc: float) -> tuple[tuple[str, P.Box], ...]:
    """A clock and a score board beside the board (as ``params`` has them), drawn in the image."""
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [tw, 0], [tw, th], [0, th]]], np.float32), Hm)[0]
    board = (float(quad[:, 0].min()), float(quad[:, 1].min()), float(quad[:, 0].max()), float(quad[:, 1].max()))
    out: list[tuple[str, P.Box]] = []
    if rng.random() < params.clock_prob:
        out.append(("clock", P.draw_clock(img, rng, sc * TEX, board, out)))
    if rng.random() < params.scoreboard_prob:
        out.append(("scoreboard", P.draw_scoreboard(img, rng, sc * TEX, board, out)))
    return tuple(out)


def render(position: BoardEvidence, params: RenderParams = RenderParams(), seed: int = 0,
           hand: bool = False, setup: Optional[L.SetUp] = None, frame: int = 0,
           dice: Optional[Sequence[Die]] = None, cache: bool = True) -> np.ndarray:
    """Just the BGR image of :func:`render_scene`."""
    return render_scene(position, params, seed, hand, setup, frame, dice, cache).image
