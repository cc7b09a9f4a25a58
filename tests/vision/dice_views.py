"""Rendered views with dice for the dice finder's speed-path tests: the same views searched twice,
once each way, must give the same dice and the same close looks."""
from __future__ import annotations

import numpy as np

from vision import dice as D
from vision import layout as L
from vision import render as R
from vision.dice_params import DiceParams
from vision.rectify import View, rectify


def dice_views(seed: int, n: int = 3) -> list[tuple[View, np.ndarray, L.BoardShape]]:
    """``n`` rendered real-table views at 64 px a point width, dice thrown on each, bars of two widths:
    (view, corners, board shape) each."""
    rng = np.random.default_rng(seed)
    views = []
    for i in range(n):
        shape = L.BoardShape(bar=float(rng.choice([1.0, 0.75])))
        params = R.RenderParams.real_table(bar=shape.bar, dice_prob=1.0)
        r = R.render_scene(L.random_position(rng), params, seed=seed * 1000 + i)
        views.append((rectify(r.image, r.corners, 64, shape=shape, own=True), r.corners, shape))
    return views


def search(views: list[tuple[View, np.ndarray, L.BoardShape]]) -> list[tuple[list[D.DieSeen], D.Looks]]:
    """:func:`vision.dice.find_dice` on each view, with the close looks it made."""
    out = []
    for view, corners, shape in views:
        looks: D.Looks = {}
        out.append((D.find_dice(view, DiceParams(), corners, shape, looks=looks), looks))
    return out
