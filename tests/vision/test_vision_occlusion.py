"""The frame-band check on real frames' troubles: wood grain along the whole band, things on
the frame that do not reach over the board (a clasp on its outer edge, a checker's rim on its
inner edge) and an arm that does."""
from __future__ import annotations

import numpy as np

from vision import layout as L
from vision.occlusion import OcclusionParams, band_scores, band_segments, occlusion_score, segment_scores
from vision.rectify import View, rectify
from vision.render import RenderParams, render_scene

CALM = RenderParams(glare_prob=0.0, shadow_prob=0.0)
PX = 20


def clear_view(seed: int = 3) -> View:
    r = render_scene(L.start_position(), CALM, seed=seed)
    return rectify(r.image, r.corners, PX)


def boxed(view: View, x0: float, x1: float, y0: float, y1: float, colour: tuple[int, int, int]) -> View:
    """``view`` with a box of ``colour`` from ``x0`` to ``x1`` and ``y0`` to ``y1`` pw from the
    playing area's top left corner (negative: out on the frame)."""
    img = view.image.copy()
    m, px = view.margin, view.px
    img[max(0, int((m + y0) * px)):int((m + y1) * px), max(0, int((m + x0) * px)):int((m + x1) * px)] = colour
    return View(img, view.px, view.margin)


def whole_band_score(view: View, params: OcclusionParams = OcclusionParams()) -> float:
    """The worst segment's score over the whole depth of each band (no halves)."""
    return max(float(segment_scores(segs[None], params).max()) for segs in band_segments(view, params))


def test_wood_grain_along_the_whole_band_is_not_something_over_the_board() -> None:
    view = clear_view()
    img = view.image.astype(np.int16)
    rng = np.random.default_rng(0)
    # dark and light streaks across every band, as on a mahogany or maple frame
    stripes = rng.choice([-60, 0, 120], size=img.shape[:2]).astype(np.int16)
    frame = np.ones(img.shape[:2], bool)
    m0, m1 = int(view.margin * view.px), int((view.margin + L.HEIGHT) * view.px)
    frame[m0:m1, int(view.margin * view.px):int((view.margin + L.WIDTH) * view.px)] = False
    img[frame] += stripes[frame][:, None]
    grained = View(np.clip(img, 0, 255).astype(np.uint8), view.px, view.margin)
    assert occlusion_score(view) < 1.0
    assert occlusion_score(grained) < 1.0
    # the same band without the check against its own texture: flagged
    assert whole_band_score(grained, OcclusionParams(texture=0.0)) > 2.5


def test_what_fills_one_side_of_the_band_only_does_not_count_but_an_arm_across_it_does() -> None:
    view = clear_view()
    b0, b1 = OcclusionParams().band
    mid = (b0 + b1) / 2
    clasp = boxed(view, -b1 - 0.2, -mid, 2.0, 3.0, (200, 200, 200))
    rim = boxed(view, -mid, -b0 + 0.1, 2.0, 3.0, (230, 230, 230))
    arm = boxed(view, -b1 - 0.2, -b0 + 0.1, 2.0, 3.0, (200, 200, 200))
    assert occlusion_score(clasp) < 1.0 and whole_band_score(clasp) > 2.5
    assert occlusion_score(rim) < 1.0 and whole_band_score(rim) > 2.5
    assert occlusion_score(arm) > 2.5
    assert band_scores(arm)[2] == max(band_scores(arm))   # the left band


def low_stacks_view(seed: int = 3) -> View:
    """The starting position with at most two checkers on each point by the short sides, so the
    playing area's edge by their middle is bare."""
    pts = list(L.start_position().points)
    for q in (1, 12, 13, 24):
        pts[q - 1] = L.PointReading(min(pts[q - 1].count, 2), pts[q - 1].colour)
    r = render_scene(L.BoardEvidence(points=tuple(pts), bar=(0, 0), off=(0, 0)), CALM, seed=seed)
    return rectify(r.image, r.corners, PX)


def test_a_cube_beside_the_middle_of_a_side_does_not_count_but_an_arm_reaching_over_the_board_there_does() -> None:
    view = low_stacks_view()
    b1 = OcclusionParams().band[1]
    mid_y = L.HEIGHT / 2
    assert occlusion_score(view) < 1.0
    for x0, x1 in ((-b1 - 0.2, -0.02), (L.WIDTH + 0.02, L.WIDTH + b1 + 0.2)):   # the left side, the right side
        cube = boxed(view, x0, x1, mid_y - 0.7, mid_y + 0.3, (200, 200, 200))
        assert occlusion_score(cube) < 1.0, (x0, band_scores(cube))
        reaching = boxed(view, min(x0, L.WIDTH - 0.6), max(x1, 0.6), mid_y - 0.7, mid_y + 0.3, (200, 200, 200))
        assert occlusion_score(reaching) > 2.5, (x0, band_scores(reaching))
        # the same thing away from the middle of the side counts without reaching over the board
        away = boxed(view, x0, x1, 2.0, 3.0, (200, 200, 200))
        assert occlusion_score(away) > 2.5, (x0, band_scores(away))


def test_segment_scores_treat_each_band_on_its_own() -> None:
    rng = np.random.default_rng(1)
    even = np.concatenate([np.full((11, 3), 100.0) + rng.normal(0, 1, (11, 3)), np.full((11, 1), 5.0)], axis=1)
    lit = even.copy()
    lit[:, :3] += np.arange(11)[:, None] * 8.0           # a light gradient along the band: allowed
    spot = even.copy()
    spot[6, :3] += 90.0                                    # one segment far off the trend
    grain = even.copy()
    grain[:, 3] = 60.0 + rng.normal(0, 3, 11)              # every segment uneven alike
    s = segment_scores(np.stack([even, lit, spot, grain]), OcclusionParams())
    assert s.shape == (4, 11)
    assert s[0].max() < 0.5 and s[1].max() < 0.5 and s[3].max() < 1.0
    assert s[2].argmax() == 6 and s[2, 6] > 2.5


def test_the_bands_summed_in_one_pass_are_the_strips_summed_one_by_one() -> None:
    from vision.occlusion import _band_segments, _band_segments_one, _band_strips
    params = OcclusionParams()
    for seed, px in ((3, PX), (8, 32), (11, 16)):
        r = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed, hand=seed == 8)
        view = rectify(r.image, r.corners, px)
        bands = ((0.12, 0.285), (0.285, 0.45), (0.1, 0.3))
        together = _band_segments(view, bands, params)
        for band, got in zip(bands, together):
            want = _band_segments_one(_band_strips(view, band, params), view.px)
            assert all(g.dtype == w.dtype and np.array_equal(g, w) for g, w in zip(got, want))


def test_bands_scored_together_score_as_each_alone() -> None:
    rng = np.random.default_rng(2)
    params = OcclusionParams()
    for n in (3, 9, 11, 17):
        bands = rng.uniform(0, 200, (6, n, 4)).astype(np.float32)
        bands[1, 4 % n] += 60   # something over one band
        together = segment_scores(bands, params)
        for k in range(len(bands)):
            assert np.array_equal(together[k], segment_scores(bands[k:k + 1], params)[0])
            assert np.array_equal(together[k], segment_scores(bands[[k, (k + 1) % 6, (k + 2) % 6]], params)[0])


def plain_view(seed: int = 0) -> View:
    """A board of plain colours with a little noise: a brown frame, a green field, the bar the
    field's colour (no checkers: nothing uneven along the playing area's edge)."""
    rng = np.random.default_rng(seed)
    m = 0.6
    h, w = int((L.HEIGHT + 2 * m) * PX), int((L.WIDTH + 2 * m) * PX)
    img = np.empty((h, w, 3), np.float64)
    img[:] = (40, 70, 110)                                        # the frame (BGR)
    img[int(m * PX):int((m + L.HEIGHT) * PX), int(m * PX):int((m + L.WIDTH) * PX)] = (70, 130, 50)
    img += rng.normal(0, 3, img.shape)
    return View(np.clip(img, 0, 255).astype(np.uint8), PX, m)


def test_a_hinge_at_the_bar_end_does_not_count_but_a_hand_reaching_onto_the_bar_does() -> None:
    view = plain_view()
    b1 = OcclusionParams().band[1]
    bar = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    assert occlusion_score(view) < 1.0
    for y0, y1 in ((-b1 - 0.1, -0.02), (L.HEIGHT + 0.02, L.HEIGHT + b1 + 0.1)):   # the top end, the bottom end
        hinge = boxed(view, bar - 0.3, bar + 0.3, y0, y1, (200, 200, 200))
        assert occlusion_score(hinge) < 1.0, (y0, band_scores(hinge))
        assert occlusion_score(hinge, OcclusionParams(bar_ends=0.0)) > 2.5   # without the place it would count
        hand = boxed(view, bar - 0.3, bar + 0.3, min(y0, L.HEIGHT - 0.8), max(y1, 0.8), (200, 200, 200))
        assert occlusion_score(hand) > 2.5, (y0, band_scores(hand))
        away = boxed(view, 2.2, 2.8, y0, y1, (200, 200, 200))    # the same thing by a point: counts
        assert occlusion_score(away) > 2.5, (y0, band_scores(away))


def test_with_a_look_of_its_own_a_fitting_across_the_bar_end_does_not_count_but_a_hand_there_does() -> None:
    # a folding case's join: a raised divider crossing the frame band at the bar's end and the playing
    # area's edge there (the real image026: its top end scored 3.0, every case of it was refused).  A
    # frame teaching itself (bar_fittings) takes a thing no wider than the bar's end for a fitting; the
    # absolute reading alone still counts it
    view = plain_view()
    b1 = OcclusionParams().band[1]
    bar = (L.BAR_LEFT + L.BAR_RIGHT) / 2
    fittings = OcclusionParams(bar_fittings=True)
    for y0, y1 in ((-b1 - 0.1, 0.3), (L.HEIGHT - 0.3, L.HEIGHT + b1 + 0.1)):
        join = boxed(view, bar - 0.4, bar + 0.4, y0, y1, (200, 200, 200))
        assert occlusion_score(join, fittings) < 1.0, (y0, band_scores(join, fittings))
        assert occlusion_score(join) > 2.5
        # the same thing by a point counts, and so does one reaching along the frame past the bar's end
        assert occlusion_score(boxed(view, 2.1, 2.9, y0, y1, (200, 200, 200)), fittings) > 2.5
        assert occlusion_score(boxed(view, bar - 0.4, bar + 1.4, y0, y1, (200, 200, 200)), fittings) > 2.5
        # a hand reaching onto the bar is wider than its end (a wrist 1.5 pw of a club board's points at the least)
        far = (min(y0, L.HEIGHT - 0.8), max(y1, 0.8))
        for x0, x1 in ((bar - 0.75, bar + 0.75), (bar - 0.4, bar + 1.2)):
            assert occlusion_score(boxed(view, x0, x1, *far, (200, 200, 200)), fittings) > 2.5, (y0, x0)
