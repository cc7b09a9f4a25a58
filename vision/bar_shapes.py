"""What a ring found on the bar outlines: a checker, or something else lying there.

:mod:`vision.bar` finds the bar's checkers as whole rings of a checker's size.  Other things on
a real bar make such rings too: the doubling cube (in the bar's middle at the start of a game,
near an end once owned) and a die thrown onto it are squares; a hinge's plate between the bar's
edges makes a square-ish frame; screws at a fitting's corners make rim evidence only along the
diagonals; a textured bar (suede, open-grained wood) scores near the threshold all along.  A
checker's rim is round: as strong along the diagonals as along and across the bar.
"""
from __future__ import annotations

from typing import Optional

import numpy as np

from . import layout as L
from .board_rings import bar_stretch, to_layout_y
from .order import _percentile
from .params import DEFAULT, ReadParams
from .rims import Profiles

OUTLINE_RADII = (0.34, 0.38, 0.42, 0.46, 0.5)   # checker diameters: the rings an outline is looked at on
N_ANGLES = 32                                   # angles round an outline
SQUARE_SIDES = (0.45, 0.55, 0.65, 0.75, 0.85, 0.95)   # checker diameters: the squares looked for (the cube, a die)
SQUARE_TURNS = (-12.0, -6.0, 0.0, 6.0, 12.0)    # degrees off the bar's axis
SQUARE_MIN = 1.0      # a square's weakest side at least this share of the ring's weakest quadrant ...
SQUARE_ROUND = 0.75   # ... and a roundness below this: a square (the cube, a die, a plate), no checker
SQUARE_CLEAR = 1.8    # a die's square this many times the ring, however round: a die (inside the rings looked at)
DIE_SIDES = (0.35, 0.45, 0.55, 0.65)             # checker diameters: a die's squares
EDGE_NEAR = 0.08      # pw: a die's square whose sides across would lie this near the bar's edges is not looked at
CORNERS_ROUND = 2.0   # roundness above this: evidence only along the diagonals (a fitting's screws), no checker
TEXTURE = 3.0         # a ring must score this many times the bar's own texture (its profile's lower quartile)

_ANG = np.arange(N_ANGLES) * (2 * np.pi / N_ANGLES)
_COS, _SIN = np.cos(_ANG).astype(np.float32), np.sin(_ANG).astype(np.float32)
_AXES = np.array([k for c in (0, 8, 16, 24) for k in (c - 1, c, c + 1)]) % N_ANGLES   # within 11.25 deg of an axis
_DIAGONALS = np.array([k for c in (4, 12, 20, 28) for k in (c - 1, c, c + 1)]) % N_ANGLES
_ALONG = np.linspace(-0.35, 0.35, 8)            # along a square's side (share of its length), clear of its corners


def _edge_across(prof: Profiles, x: np.ndarray, y: np.ndarray, nx: np.ndarray, ny: np.ndarray,
                 params: ReadParams) -> np.ndarray:
    """At layout x ``x`` and the board's own y ``y`` (pw from its top edge: the view squeezes the
    band between the tips of a board taller than the layout, :func:`vision.board_rings.to_layout_y`),
    the edge across the board's normal (``nx``, ``ny``): |normal gradient| minus half the
    tangential one, in the frame's strengths."""
    return _edges(prof, *_samples(prof, x, y, nx, ny, params))


def _samples(prof: Profiles, x: np.ndarray, y: np.ndarray, nx: np.ndarray, ny: np.ndarray,
             params: ReadParams) -> tuple[np.ndarray, np.ndarray]:
    """Where :func:`_edge_across` reads the gradient map (flat indices) and the conjugate unit normals
    it turns each gradient by: the same on every frame of one geometry (:func:`_kept`)."""
    assert prof.grad is not None
    h, w = prof.grad.shape
    yl, k = to_layout_y(np.asarray(y, np.float64), params.shape)
    col = np.minimum(np.maximum(np.rint((x + prof.margin) * prof.px).astype(np.intp), 0), w - 1)
    row = np.minimum(np.maximum(np.rint((yl + prof.margin) * prof.px).astype(np.intp), 0), h - 1)
    n = nx / np.float32(bar_stretch(params.shape)) + 1j * ny / k.astype(np.float32)
    return row * w + col, np.conj(n / np.abs(n))


def _edges(prof: Profiles, at: np.ndarray, rot: np.ndarray) -> np.ndarray:
    """:func:`_edge_across` at the places and normals :func:`_samples` gives."""
    assert prof.grad is not None
    z = prof.grad.take(at) * rot
    return np.asarray((np.abs(z.real) - 0.5 * np.abs(z.imag)) / prof.strength)


_KEPT: "dict[tuple[object, ...], tuple[np.ndarray, np.ndarray]]" = {}


def _kept(kind: str, prof: Profiles, x: "float | np.ndarray", y: float, params: ReadParams,
          sides: tuple[float, ...]) -> "tuple[tuple[object, ...] | None, tuple[np.ndarray, np.ndarray] | None]":
    """The samples (:func:`_samples`) of an outline or of squares round the same centres as before on
    a view of the same geometry, kept, and their key (None: not kept, ``y`` no single number).  A
    camera's frames look round the same places on the bar (its hinges, a logo, the cube): only the
    gradients there differ from frame to frame, not where they are read nor how they are turned."""
    if prof.grad is None or np.ndim(y) != 0:
        return None, None
    xs = np.asarray(x, np.float32)
    # (y's type too: a numpy float and a Python one of the same value sample at other precisions)
    key = (kind, xs.tobytes(), xs.shape, type(y), float(y), sides, float(params.checker), params.shape, prof.px,
           float(prof.margin), prof.grad.shape)
    return key, _KEPT.get(key)


def _keep(key: "tuple[object, ...] | None", got: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``got`` (:func:`_samples`) kept under ``key`` (:func:`_kept`; None: not kept), read-only."""
    if key is not None:
        if len(_KEPT) >= 64:
            _KEPT.clear()
        for a in got:
            a.flags.writeable = False
        _KEPT[key] = got
    return got


def outline_by_angle(prof: Profiles, x: float | np.ndarray, y: float, params: ReadParams = DEFAULT) -> np.ndarray:
    """Per angle round (layout x ``x``, the board's own y ``y``) on the bar, the best edge across
    on rings of a checker's size or a little smaller, round on the board (a narrow bar is
    stretched across in the view, a tall board's band between the tips squeezed).  ``x`` may
    be an array of centres: one outline each (the last axis the angles)."""
    key, got = _kept("outline", prof, x, y, params, ())
    if got is None:
        sx = bar_stretch(params.shape)
        r = np.array(OUTLINE_RADII, np.float32)[:, None] * np.float32(params.checker)
        xs = np.asarray(x, np.float32)[..., None, None]
        px_ = xs + r * _COS * sx
        py_ = np.broadcast_to(y + r * _SIN, px_.shape)
        got = _keep(key, _samples(prof, px_, py_, np.broadcast_to(_COS, px_.shape), np.broadcast_to(_SIN, px_.shape),
                                  params))
    return np.asarray(_edges(prof, *got).max(axis=-2))


def roundness(outline: np.ndarray) -> float:
    """An outline's (:func:`outline_by_angle`) strength along the diagonals against along and
    across the bar: about 1 for a checker's rim; low for a square lying square to the bar (a
    ring inside its corners lies on its face); high for evidence only at the corners."""
    a = np.maximum(outline, 0.0)
    return float(a[_DIAGONALS].mean() / max(float(a[_AXES].mean()), 1e-3))


def square_sides(prof: Profiles, x: float | np.ndarray, y: float, params: ReadParams = DEFAULT,
                 sides: tuple[float, ...] = SQUARE_SIDES) -> np.ndarray:
    """Per square side in ``sides`` (checker diameters), the best square outline of that side
    round (layout x ``x``, or any of an array of centres; the board's own y ``y``), turned by
    any of :data:`SQUARE_TURNS`: the mean edge across each of its sides (clear of the corners),
    its weakest side.  A checker's rim touches a square's sides at four points only."""
    key, got = _kept("square", prof, x, y, params, tuple(sides))
    if got is None:
        sx = bar_stretch(params.shape)
        t = np.radians(np.array(SQUARE_TURNS, np.float32))[:, None, None, None]
        side = np.array(sides, np.float32)[None, :, None, None] * np.float32(params.checker)
        k = np.arange(4, dtype=np.float32)[None, None, :, None] * np.float32(np.pi / 2)
        nx, ny = np.cos(t + k), np.sin(t + k)                  # each side's outward normal
        along = np.asarray(_ALONG, np.float32)[None, None, None, :] * side
        xs = np.asarray(x, np.float32).reshape(-1, 1, 1, 1, 1)
        shape = np.broadcast_shapes(xs.shape, nx.shape, along.shape)
        px_ = np.broadcast_to(xs + (nx * side / 2 - ny * along) * sx, shape)
        py_ = np.broadcast_to(y + ny * side / 2 + nx * along, shape)
        got = _keep(key, _samples(prof, px_, py_, np.broadcast_to(nx, shape), np.broadcast_to(ny, shape), params))
    e = _edges(prof, *got)
    return np.asarray(e.mean(axis=-1).min(axis=-1).max(axis=(0, 1)))   # (centres, turns, sides) -> sides


def squareness(prof: Profiles, x: float | np.ndarray, y: float, params: ReadParams = DEFAULT,
               sides: tuple[float, ...] = SQUARE_SIDES) -> float:
    """The best square outline round (layout x ``x``, or any of an array of centres; the board's
    own y ``y``) of any side in ``sides`` (:func:`square_sides`)."""
    return float(square_sides(prof, x, y, params, sides).max())


def not_a_checker(prof: Profiles, x: float, y: float, score: float, params: ReadParams = DEFAULT,
                  texture: Optional[float] = None) -> Optional[str]:
    """Why the bar's ring at layout (``x``, ``y``) scoring ``score`` is no checker, or None:
    ``"texture"`` (no more than :data:`TEXTURE` times the bar's ``texture`` level), ``"corners"``
    (its evidence along the diagonals only, wherever across the bar within ``params.lateral``
    it is looked at) or ``"square"`` (round nowhere there and a square as strong: the cube, a
    plate; or a die's small square, clear of the bar's edges, much stronger however round).
    Profiles without the view's gradients are judged by the texture alone."""
    if texture is not None and score < TEXTURE * texture:
        return "texture"
    if prof.grad is None:   # rim scores only: no outline to look at
        return None
    yb = float(params.shape.to_real(np.array(x), np.array(y))[1])   # the board's own
    xs = x + np.array(params.lateral, np.float32)
    ro = max(roundness(a) for a in outline_by_angle(prof, xs, yb, params))
    if ro > CORNERS_ROUND:
        return "corners"
    die = _clear_of_the_edges(DIE_SIDES, params)
    if ro < SQUARE_ROUND:   # round nowhere: the cube's squares too, in one look
        sides = tuple(sorted(set(die) | set(SQUARE_SIDES)))
        best = dict(zip(sides, square_sides(prof, xs, yb, params, sides).tolist()))
        if max(best[s] for s in SQUARE_SIDES) >= SQUARE_MIN * score:
            return "square"
        return "square" if die and max(best[s] for s in die) >= SQUARE_CLEAR * score else None
    return "square" if die and squareness(prof, xs, yb, params, die) >= SQUARE_CLEAR * score else None


def _clear_of_the_edges(sides: tuple[float, ...], params: ReadParams) -> tuple[float, ...]:
    """The square ``sides`` (checker diameters) whose sides across the bar lie clear of the bar's
    edges as the view shows them (those of a bar narrower than the layout's, else where the view
    cuts a wider one's middle): there the bar's own edges would make two of a square's sides."""
    edge = min(params.shape.bar, L.BAR_WIDTH) / 2
    return tuple(s for s in sides if abs(s * params.checker / 2 - edge) >= EDGE_NEAR)


def bar_texture(prof: Profiles) -> float:
    """The bar's own level of ring scores: its profile's lower quartile (most of a bar is empty)."""
    return max(_percentile(prof.bar_full, 25), 0.0)   # (np.percentile's value, without its overhead)
