"""A die at the top of the usual sizes whose face takes in a checker's rim: never read wrong while sure."""
from __future__ import annotations

import numpy as np

from vision import dice as D
from vision import render as R
from vision.dice_params import DiceParams


def test_a_large_usual_face_is_sure_only_when_its_pips_count_alike_at_every_depth() -> None:
    # rendered throw 26 of bench/dice_camera.py --dice-size 0.45 0.6 (seed 0): a white 6 (0.47 pw) on a
    # white checker, its face grown over part of the checker's rim, counted 1, 2, 2 at the pips' depths
    from bench.dice_camera import draw_board, sized_dice
    rng = np.random.default_rng(0)
    for _ in range(27):
        shape, params, pos = draw_board(rng)
    bare = R.render_scene(pos, params, seed=26, dice=[])
    r = R.render_scene(pos, params, seed=26, dice=sized_dice(26, bare.props.checkers, shape, (0.45, 0.6)))
    six = next(t for t in r.dice if t.value == 6)
    pw = float(np.linalg.norm(np.asarray(r.corners[1]) - np.asarray(r.corners[0]))) / shape.width

    def at_six(params_: DiceParams) -> list[D.DieSeen]:
        got = D.find_dice_in_frame(r.image, r.corners, shape, params_, px=64, before=bare.image)
        return [g for g in got if np.hypot(g.image[0] - six.centre[0], g.image[1] - six.centre[1]) < 0.3 * pw]

    before = at_six(DiceParams(strict_side=1.0))          # as the finder was: a sure 1
    assert before and before[0].value == 1 and before[0].sure()
    now = at_six(DiceParams())
    assert all(g.value == 6 or not g.sure() for g in now)
