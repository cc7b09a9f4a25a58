"""The dice finder (vision.dice): rendered dice read as dice, checkers never, real frames."""
from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.events import BoardEvidence, PointReading
from vision import dice as D
from vision import layout as L
from vision import render as R
from vision.render_props import Die

DATA = Path(__file__).resolve().parents[1] / "data" / "vision_dice"
CLEAN = R.RenderParams(noise_max=2, blur_max=0.5, glare_prob=0, shadow_prob=0, jpeg=(90, 95), rotation_max=3,
                       perspective_max=0.02, distortion_max=0.02, flip_prob=0)
EMPTY = BoardEvidence(points=tuple([PointReading(0)] * 24), bar=(0, 0), off=(0, 15))


def _near(got: list[D.DieSeen], x: float, y: float) -> D.DieSeen:
    best = min(got, key=lambda g: np.hypot(g.board[0] - x, g.board[1] - y))
    assert np.hypot(best.board[0] - x, best.board[1] - y) < 0.2, f"no die found near ({x}, {y}): {got}"
    return best


@pytest.mark.parametrize("seed", [0, 1])
def test_rendered_faces_read_with_their_values(seed: int) -> None:
    xs = (1.0, 1.9, 2.8, 7.6, 9.2, 10.8)
    dice = [Die(v, x, 5.5, angle=10.0 * v, size=0.38) for v, x in zip(range(1, 7), xs)]
    r = R.render_scene(EMPTY, CLEAN, seed=seed, dice=dice)
    got = D.find_dice_in_frame(r.image, r.corners)
    for d, t in zip(dice, r.dice):
        g = _near(got, t.board[0], t.board[1])
        assert g.value == d.value and g.sure(), g
        assert g.half == t.half and not g.on_checker and not g.off_board
        assert g.image is not None and np.hypot(g.image[0] - t.centre[0], g.image[1] - t.centre[1]) < 6


def test_a_die_on_a_checker_is_flagged() -> None:
    r = R.render_scene(L.start_position(), CLEAN, seed=1,
                       dice=[Die(4, 0.5, 0.5, on_checker=True, size=0.35), Die(2, 3.0, 5.5, size=0.38)])
    on, field = r.dice
    assert on.on_checker and not field.on_checker
    got = D.find_dice_in_frame(r.image, r.corners)
    assert _near(got, *on.board).on_checker
    assert not _near(got, *field.board).on_checker


@pytest.mark.parametrize("seed, x, y", [(0, 3.0, 0.0), (2, 0.0, 3.0), (3, 13.0, 8.0)])
def test_a_die_across_the_edge_is_off_the_board(seed: int, x: float, y: float) -> None:
    r = R.render_scene(L.start_position(), CLEAN, seed=seed, dice=[Die(5, x, y, off_board=True, size=0.38)])
    (t,) = r.dice
    assert t.overhang
    g = _near(D.find_dice_in_frame(r.image, r.corners), *t.board)
    assert g.off_board and D.zone(g) == "outside"
    assert g.value == 5


@pytest.mark.parametrize("seed", range(6))
def test_checkers_are_never_dice(seed: int) -> None:
    params = R.RenderParams.real_table(dice_prob=0.0)
    r = R.render_scene(L.random_position(np.random.default_rng(seed), tall=0.3), params, seed=seed)
    assert D.find_dice_in_frame(r.image, r.corners, params.shape) == []


def test_zones_as_seen_from_darks_seat() -> None:
    die = D.DieSeen((3.0, 5.5), None, "left", False, False, 5, 0.9)
    assert D.zone(die) == "left"
    assert D.zone(die, L.SetUp("top-left")) == "right"
    assert D.zone(D.DieSeen((6.5, 5.5), None, "bar", False, False, 2, 0.9)) == "outside"
    r = D.to_readings([die, D.DieSeen((20.0, 5.5), None, "off", False, True, 3, 0.4)])
    assert (r[0].zone, r[0].value, r[1].zone, r[1].value) == ("left", 5, "outside", None)
    assert r[0].x < 0  # Dark's left of the centre
    with pytest.raises(ValueError, match="half 'middle'"):
        D.DieSeen((0.0, 0.0), None, "middle", False, False, 1, 0.5)


def _real(name: str) -> tuple[list[D.DieSeen], dict]:
    lab = json.loads((DATA / "dice_labels.json").read_text())[name]
    frame = cv2.imread(str(DATA / lab["image"]))
    assert frame is not None
    shape = L.BoardShape(bar=lab["bar_width"], height=lab["board_height"])
    return D.find_dice_in_frame(frame, np.array(lab["corners"], np.float32), shape), lab


def test_real_frame_dice_read_and_nothing_else() -> None:
    got, lab = _real("test2")  # held out: never tuned on
    for g in got:  # every die reported is a labelled one; a value it is sure of is the die's
        assert g.image is not None
        u, v = g.image
        t = min(lab["dice"], key=lambda t: np.hypot(t["x"] - u, t["y"] - v))
        assert np.hypot(t["x"] - u, t["y"] - v) < 15, g
        assert g.value == t["value"] or not g.sure(), g
    assert sum(g.sure() for g in got) >= 1


def test_real_checkers_and_logos_are_not_dice() -> None:
    got, lab = _real("test6")
    for g in got:
        assert g.image is not None
        assert min(np.hypot(t["x"] - g.image[0], t["y"] - g.image[1]) for t in lab["dice"]) < 15, g


def test_where_a_die_lies_is_sure_only_clear_of_the_edges_and_the_bar() -> None:
    assert D.where_confidence(3.0, 5.5, 0.4) == 1.0
    assert D.where_confidence(L.BAR_LEFT, 5.5, 0.4) == 0.5  # on the bar's edge: a coin's toss
    assert 0.5 < D.where_confidence(L.BAR_LEFT - 0.15, 5.5, 0.4) < 1.0
    assert D.where_confidence(5.0, 0.0, 0.4) == 0.5
    with pytest.raises(ValueError, match="place confidence 1.5"):
        D.DieSeen((3.0, 5.5), None, "left", False, False, 5, 0.9, 0.4, 1.5)


def test_a_die_on_a_point_covers_the_slots_under_it_only() -> None:
    from vision.slots import slot_geometry
    geo = slot_geometry()
    x = L.column_x(2)
    y = float(geo.centres[2 * geo.per_point + 1, 1])  # top row, point 2, second slot
    die = D.DieSeen((x, y), None, "left", False, False, 4, 0.9, 0.4)
    mask = D.covered_slots([die], geo.centres, geo.side)
    assert mask[2 * geo.per_point + 1]
    assert 1 <= int(mask.sum()) <= 4
    assert not mask[5 * geo.per_point:].any()
    assert D.covered_points([die], geo.per_point, geo.centres, geo.side) == frozenset({2})
    assert not D.covered_slots([], geo.centres, geo.side).any()


def test_a_seeded_sample_of_thrown_dice() -> None:
    """Rendered tournament tables with two dice thrown: most found, none read wrong while sure,
    nothing else sure, halves right."""
    rng = np.random.default_rng(7)
    drawn = found = sure_right = 0
    for i in range(8):
        params = R.RenderParams.real_table(dice_prob=1.0)
        r = R.render_scene(L.random_position(rng), params, seed=7_000 + i)
        got = D.find_dice_in_frame(r.image, r.corners, params.shape)
        for g in got:
            assert g.image is not None
            near = [t for t in r.dice if np.hypot(t.centre[0] - g.image[0], t.centre[1] - g.image[1]) < 15]
            if not near:
                assert not g.sure(), f"frame {i}: a sure die where none lies: {g}"
                continue
            t = near[0]
            assert g.value == t.value or not g.sure(), f"frame {i}: a {t.value} read as a sure {g}"
            if t.half and not t.overhang and g.where == 1.0:
                assert g.half == t.half, (i, g, t)
        for t in r.dice:
            drawn += 1
            hit = [g for g in got if g.image and np.hypot(t.centre[0] - g.image[0], t.centre[1] - g.image[1]) < 15]
            found += bool(hit)
            sure_right += bool(hit) and hit[0].sure() and hit[0].value == t.value
    assert found >= drawn // 2 and sure_right >= drawn // 3, (drawn, found, sure_right)


def test_given_the_board_before_the_throw_only_what_changed_is_searched() -> None:
    """The table's camera thread gives the finder the board without the dice: it looks only where the
    board changed, finds the same dice as the whole board's search, and nothing where nothing changed."""
    params = R.RenderParams.real_table(dice_prob=1.0)
    for i in range(3):
        pos = L.random_position(np.random.default_rng(40 + i))
        r = R.render_scene(pos, params, seed=4_000 + i)
        then = R.render_scene(pos, params, seed=4_000 + i, dice=[]).image
        assert D.changed_regions(then, then, r.corners, params.shape) == []
        boxes = D.changed_regions(r.image, then, r.corners, params.shape)
        assert 1 <= len(boxes) <= len(r.dice)
        for t in r.dice:  # every drawn die lies in a rectangle searched
            assert any(x0 <= t.board[0] <= x1 and y0 <= t.board[1] <= y1 for x0, y0, x1, y1 in boxes), (t, boxes)
        whole = D.find_dice_in_frame(r.image, r.corners, params.shape)
        fast = D.find_dice_in_frame(r.image, r.corners, params.shape, before=then)
        assert len(fast) <= len(whole)
        for g in fast:  # what the fast search finds, the whole board's finds alike
            w = _near(whole, *g.board)
            assert (w.value, w.half, w.sure(), w.off_board) == (g.value, g.half, g.sure(), g.off_board)
        assert D.find_dice_in_frame(then, r.corners, params.shape, before=then) == []


def test_the_dice_watch_looks_once_the_board_is_still_and_says_each_change_once() -> None:
    from vision.dice_watch import DiceWatch
    dice = [Die(5, 9.0, 5.0, angle=20.0, size=0.4), Die(2, 10.6, 6.2, angle=-10.0, size=0.4)]

    def frame(k: int, on: list[Die]) -> R.Rendered:
        return R.render_scene(L.start_position(), CLEAN, seed=8, frame=k, dice=on)
    watch = DiceWatch(still=2)
    said = []
    for k, on in enumerate([[]] * 3 + [dice] * 4 + [[]] * 3):
        r = frame(k, on)
        got = watch.feed(r.image, r.corners)
        if got is not None:
            said.append(sorted(g.value or 0 for g in got))
    assert said == [[2, 5], []], said
    assert watch.looks == 3 and watch.feed(frame(0, []).image, None) is None  # the empty board, throw, lift
    with pytest.raises(ValueError, match="still=0"):
        DiceWatch(still=0)


def test_dice_already_on_the_first_still_board_are_said_then_their_lift_and_the_next_throw() -> None:
    """Issue 15: the table starts with dice lying on the board (the first still frame has them): they
    are found (the first board is searched whole), their lift is seen, and so is the next throw."""
    from vision.dice_watch import DiceWatch
    old = [Die(5, 9.0, 5.0, angle=20.0, size=0.4), Die(2, 10.6, 6.2, angle=-10.0, size=0.4)]
    new = [Die(3, 2.5, 4.5, angle=10.0, size=0.4), Die(6, 4.0, 6.0, angle=35.0, size=0.4)]

    def frame(k: int, on: list[Die]) -> R.Rendered:
        return R.render_scene(L.start_position(), CLEAN, seed=8, frame=k, dice=on)
    watch = DiceWatch(still=2)
    said = []
    for k, on in enumerate([old] * 3 + [[]] * 3 + [new] * 3 + [new] * 2):
        r = frame(k, on)
        got = watch.feed(r.image, r.corners)
        if got is not None:
            said.append(sorted(g.value or 0 for g in got))
    assert said == [[2, 5], [], [3, 6]], said
    assert watch.looks == 3  # once per still spell: the unchanged board after the throw is not looked at again


def test_the_places_of_dice_lying_before_are_looked_at_though_nothing_changed_there() -> None:
    r = R.render_scene(L.start_position(), CLEAN, seed=8, dice=[Die(5, 9.0, 5.0, angle=20.0, size=0.4)])
    assert D.find_dice_in_frame(r.image, r.corners, before=r.image) == []
    got = D.find_dice_in_frame(r.image, r.corners, before=r.image, also=[(9.0, 5.0)])
    assert [g.value for g in got] == [5] and _near(got, 9.0, 5.0).sure()
    assert D.changed_regions(r.image, r.image, r.corners, also=[(9.0, 5.0)]) != []


def test_the_face_colour_in_integers_is_the_float_median_truncated() -> None:
    """The seed colour worked out in integers (the speed path) is ``int`` of the float median, for
    odd and even counts, ties and the empty case's fallback aside."""
    from vision.dice_face import _median, _median_colour
    rng = np.random.default_rng(23)
    for n in list(range(1, 40)) + [81, 82, 121]:
        for _ in range(10):
            a = rng.integers(0, 256, (n, 3), dtype=np.uint8)
            if n > 3 and _ % 2:
                a[: n // 2] = a[0]   # ties
            m = _median(a)
            assert _median_colour(a) == (int(m[0]), int(m[1]), int(m[2]))


def test_a_seed_unlike_its_surround_at_every_likeness_is_a_pip_and_like_it_is_looked_at() -> None:
    """The seed's distance worked out alone (the speed path) is the window's at the seed: a seed as far
    as the loosest likeness from its patch's median is a pip's at once; one just inside is grown at that
    likeness (here a plain surface that runs out of the window) and is a pip's at the tighter ones; a seed
    of the surround's colour is grown at every likeness (nothing die-shaped: None)."""
    from vision.dice_face import _blob
    from vision.dice_params import DiceParams
    p = DiceParams()
    P, r = 64, int(round(p.max_extent * 0.62 * 64))
    loosest = int(max(p.likeness))
    for off, want in ((loosest, "pip"), (loosest - 1, "pip"), (0, None)):
        crop = np.full((2 * r + 1, 2 * r + 1, 3), 120, np.uint8)
        crop[r, r] = (120, 120 + off, 120)
        assert _blob(crop, r, (r, r), P, p) == want, off


def _linked(spots: np.ndarray, link: float) -> list[list[int]]:
    """Single linkage the plain way (every pair measured), groups in the order of their first spot."""
    n = len(spots)
    group = list(range(n))
    d = np.hypot(spots[:, None, 0] - spots[None, :, 0], spots[:, None, 1] - spots[None, :, 1])
    for i in range(n):
        for j in range(i + 1, n):
            if d[i, j] < link and group[i] != group[j]:
                old, new = max(group[i], group[j]), min(group[i], group[j])
                group = [new if g == old else g for g in group]
    out: dict[int, list[int]] = {}
    for i, g in enumerate(group):
        out.setdefault(g, []).append(i)
    return list(out.values())


def test_pip_groups_and_their_centres_are_those_of_every_pair_measured() -> None:
    """The pip groups found from the pairs near in x (the speed path) are single linkage over every
    pair, in the same order; a kept group's centre is its spots' mean; ``apart`` keeps a point only
    when no earlier kept one lies within reach (ties on the grid included)."""
    from vision.dice_pips import apart, pip_groups, small_groups
    rng = np.random.default_rng(7)
    for trial in range(120):
        n = int(rng.integers(0, 90))
        spots = rng.random((n, 2)) * float(rng.choice([0.6, 3.0, 12.0]))
        if trial % 3 == 0:
            spots = np.round(spots * 20) / 20   # on a grid: distances exactly at the link
        for link in (0.17, 0.32):
            want = _linked(spots, link)
            got = pip_groups(spots, link)
            assert [g.tolist() for g in got] == [spots[w].tolist() for w in want]
            if n:
                kept = [spots[w].mean(axis=0) for w in want
                        if len(w) <= 6 and (len(w) == 1 or float(np.ptp(spots[w], axis=0).max()) <= 0.3)]
                assert small_groups(spots, link, 0.3) == [(float(c[0]), float(c[1])) for c in kept]
        pts = [(float(x), float(y)) for x, y in spots]
        kept_pts: list[tuple[float, float]] = []
        for q in pts:
            if all(np.hypot(q[0] - k[0], q[1] - k[1]) > 0.06 for k in kept_pts):
                kept_pts.append(q)
        assert apart(pts, 0.06) == kept_pts


def test_peaks_pixels_are_those_of_the_whole_mask() -> None:
    """The peaks' pixels found row by row (the speed path) are cv2.findNonZero's, in its order."""
    from vision.dice_candidates import _points
    rng = np.random.default_rng(3)
    for share in (0.0, 0.001, 0.05, 0.6):
        mask = ((rng.random((57, 83)) < share) * 255).astype(np.uint8)
        xs, ys = _points(mask)
        pts = cv2.findNonZero(mask)
        want = np.zeros((0, 2), int) if pts is None else pts.reshape(-1, 2)
        assert xs.tolist() == want[:, 0].tolist() and ys.tolist() == want[:, 1].tolist()


def test_seed_colours_of_all_candidates_are_each_seeds_own() -> None:
    """The seeds' colours gathered for all candidates at once (the speed path) are each seed's own
    median colour and distance, up to the first seed face_at's search ends at; a candidate whose window
    leaves the view has none."""
    from vision.dice_face import _median_colour, _seed_offsets, _window, seed_colours
    from vision.dice_params import DiceParams
    from vision.rectify import View
    p = DiceParams()
    rng = np.random.default_rng(11)
    img = rng.integers(0, 256, (200, 260, 3), dtype=np.uint8)
    img[40:120, 60:200] = (30, 140, 200)   # a plain patch: ties in the medians
    view = View(img, 64, 0.6)
    points = [(float(x), float(y)) for x, y in rng.random((40, 2)) * (4.2, 3.2) - 0.6]
    got = seed_colours(view, points, p)
    c0 = max(2, int(round(0.06 * 64)))
    shorter = 0
    for (x, y), seeds in zip(points, got):
        win = _window(view, x, y, p)
        assert (seeds is None) == (win is None)
        if win is None or seeds is None:
            continue
        u, v, _r = win
        fars = []
        for (dx, dy), (colour, far) in zip(_seed_offsets(64), seeds):
            sx, sy = u + dx, v + dy
            want = _median_colour(img[sy - c0: sy + c0 + 1, sx - c0: sx + c0 + 1].reshape(-1, 3))
            assert colour == want
            assert far == max(abs(int(a) - b) for a, b in zip(img[sy, sx].tolist(), want))
            fars.append(far)
        # the seeds up to the first nearer its colour than the tightest likeness (face_at grows none after it)
        ends = [j for j, far in enumerate(fars) if far < min(p.likeness)]
        assert len(seeds) == (ends[0] + 1 if ends else len(_seed_offsets(64)))
        shorter += len(seeds) < len(_seed_offsets(64))
    assert shorter > 5


def test_a_faces_outline_found_in_its_box_is_the_whole_windows() -> None:
    """The face's outline is looked for in its box a pixel wider (the speed path of ``_blob``): the same
    contours, point for point and in the same order, as in the whole window, for pieces that keep off
    the window's edge as a face's do (one piece or several, holes, touching the box's edge)."""
    rng = np.random.default_rng(19)
    for trial in range(300):
        n = int(rng.integers(8, 60))
        mask = np.zeros((n, n), np.uint8)
        for _ in range(int(rng.integers(1, 5))):
            x0, y0 = (int(v) for v in rng.integers(1, n - 1, 2))
            x1, y1 = min(n - 1, x0 + int(rng.integers(1, n))), min(n - 1, y0 + int(rng.integers(1, n)))
            mask[y0:y1, x0:x1] = (rng.random((y1 - y0, x1 - x0)) < rng.choice([0.5, 0.9, 1.0])).astype(np.uint8)
        mask[0] = mask[-1] = 0
        mask[:, 0] = mask[:, -1] = 0
        if not mask.any():
            continue
        x, y, w, h = cv2.boundingRect(mask)
        x0, y0, x1, y1 = max(x - 1, 0), max(y - 1, 0), min(x + w + 1, n), min(y + h + 1, n)
        whole, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        boxed, _ = cv2.findContours(mask[y0:y1, x0:x1].copy(), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                    offset=(x0, y0))
        assert [c.tolist() for c in boxed] == [c.tolist() for c in whole], trial


def test_a_face_too_small_whatever_its_growing_takes_in_is_never_a_die_sized_one() -> None:
    """The box ``_reach`` bounds a face with (the speed path of ``_blob``: a too small face is skipped
    before it is grown) holds every piece a chain of dilations by the face's structuring element joins
    to the seed's (more than the growing's two steps take in); and when ``_too_small`` says no
    die-sized face fits that box, the minimum-area rectangle of those pieces is indeed too narrow."""
    from vision.dice_face import _elements, _reach, _too_small
    se = _elements(64)[0]
    ry, rx = se.shape[0] // 2, se.shape[1] // 2
    rng = np.random.default_rng(29)
    small = 0
    for trial in range(400):
        n = int(rng.integers(20, 60))
        mask = np.zeros((n, n), np.uint8)
        for _ in range(int(rng.integers(1, 7))):
            x0, y0 = (int(v) for v in rng.integers(1, n - 1, 2))
            x1 = min(n - 1, x0 + int(rng.integers(1, rng.choice([3, 8, n]))))
            y1 = min(n - 1, y0 + int(rng.integers(1, rng.choice([3, 8, n]))))
            mask[y0:y1, x0:x1] = (rng.random((y1 - y0, x1 - x0)) < rng.choice([0.3, 1.0])).astype(np.uint8)
        mask[0] = mask[-1] = 0
        mask[:, 0] = mask[:, -1] = 0
        pts = cv2.findNonZero(mask)
        if pts is None:
            continue
        sx, sy = (int(v) for v in pts.reshape(-1, 2)[int(rng.integers(len(pts)))])
        _n, lab = cv2.connectedComponents(mask, connectivity=4)
        pieces = mask.copy()
        pieces[lab == lab[sy, sx]] = 2   # the seed's own piece, as _blob fills it
        face = (lab == lab[sy, sx]).astype(np.uint8)
        while True:   # every piece the dilated face reaches, until none more
            more = np.isin(lab, np.unique(lab[(cv2.dilate(face, se) > 0) & (mask > 0)])).astype(np.uint8)
            if (more == face).all():
                break
            face = more
        x0, y0, x1, y1 = _reach(pieces, (sx, sy), rx, ry)
        ys, xs = np.nonzero(face)
        assert x0 <= xs.min() and xs.max() < x1 and y0 <= ys.min() and ys.max() < y1, trial
        least = 0.26 * 64
        if _too_small((x0, y0, x1, y1), least):
            small += 1
            _c, (w, h), _a = cv2.minAreaRect(cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32)))
            assert min(w, h) < least, trial
    assert 20 < small < 380   # the test tells both kinds apart


def test_the_stand_out_measure_is_that_of_every_direction_worked_out_alone() -> None:
    """``_ring`` (the speed path: each direction and its opposite read off one difference) is the
    second least of the 8 far directions' differences, halved with the least, less half the most of
    the 4 near ones, each direction's difference worked out alone on the edge-replicated view."""
    from vision.dice_candidates import _directions, _ring
    rng = np.random.default_rng(31)
    for trial in range(40):
        h, w = (int(v) for v in rng.integers(12, 70, 2))
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        if trial % 2:
            img = cv2.GaussianBlur(img, (0, 0), 3.0)   # smooth, as a board is
        r, c, inner = int(rng.integers(3, 16)), int(rng.choice([3, 5])), int(rng.integers(1, 4))
        f = cv2.blur(img, (c, c)).astype(np.int16)
        R = max(r, inner)
        pad = cv2.copyMakeBorder(f, R, R, R, R, cv2.BORDER_REPLICATE)

        def differ(dx: int, dy: int) -> np.ndarray:
            return np.abs(pad[R + dy: R + dy + h, R + dx: R + dx + w] - f).max(axis=2)

        far = np.sort(np.stack([differ(dx, dy) for dx, dy in _directions(r, 8)]), axis=0)
        near = np.stack([differ(dx, dy) for dx, dy in _directions(inner, 4)]).max(axis=0)
        both = cv2.addWeighted(far[0].astype(np.uint8), 0.5, far[1].astype(np.uint8), 0.5, 0.0)
        want = cv2.subtract(both, (near // 2).astype(np.uint8))
        assert np.array_equal(_ring(img, r, c, inner), want), trial
