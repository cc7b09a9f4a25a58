"""Vision: the bear-off trays (checkers lying on their sides beside the playing area)."""
from __future__ import annotations

import numpy as np

from referee.events import BoardEvidence, PointReading
from vision import layout as L
from vision.config import VisionConfig
from vision.read import fallback_model, read_view
from vision.trays import TrayReading, read_trays, tray_views
from vision.reader import BoardReader, consistent_off
from vision.rectify import rectify, rectify_region
from vision.render import RenderParams, render_scene
from vision.stability import StabilityFilter

SEEDS = range(4100, 4116)


def _with_off(seed: int) -> BoardEvidence:
    """A random position with some checkers borne off on both sides."""
    rng = np.random.default_rng(seed)
    while True:
        pos = L.random_position(rng)
        if pos.off and min(pos.off) >= 1:
            return pos


def test_tray_strips_are_in_view_only_when_inside_the_frame() -> None:
    r = render_scene(_with_off(1), seed=4100)
    sides = [s for s, v in tray_views(r.image, r.corners)]
    assert sides  # the renderer keeps the whole board, trays included, in the frame
    # move the corners so the right strip would lie beyond the frame's right edge
    shifted = r.corners + np.array([r.image.shape[1] * 0.6, 0], np.float32)
    assert "right" not in [s for s, _ in tray_views(r.image, shifted, warp=False)]


def test_rectify_region_shows_the_asked_rectangle() -> None:
    r = render_scene(_with_off(2), seed=4101)
    whole = rectify(r.image, r.corners, 16, 0.6)
    part = rectify_region(r.image, r.corners, 16, -0.6, -0.6, 3.0, 2.0)
    assert part.image.shape[:2] == (int(round(2.6 * 16)), int(round(3.6 * 16)))
    diff = np.abs(part.image.astype(int) - whole.image[:part.image.shape[0], :part.image.shape[1]].astype(int))
    assert diff.mean() < 2.0
    assert part.to_px(0.0, 0.0) == whole.to_px(0.0, 0.0)


def test_trays_read_on_rendered_boards() -> None:
    right = 0
    for s in SEEDS:
        pos = _with_off(s)
        r = render_scene(pos, seed=s)
        a, model = read_view(rectify(r.image, r.corners))
        tr = read_trays(tray_views(r.image, r.corners), model or fallback_model())
        assert tr is not None
        right += (tr.dark, tr.light) == pos.off
    assert right >= len(SEEDS) * 3 // 4, f"{right}/{len(SEEDS)} tray readings right"


def test_evidence_off_is_never_wrong_and_usually_there() -> None:
    reported = 0
    for s in SEEDS:
        pos = _with_off(s)
        r = render_scene(pos, seed=s)
        ev = BoardReader(VisionConfig(), corners=r.corners).read(r.image)
        assert ev is not None
        if ev.off is not None:
            reported += 1
            assert ev.off == pos.off, f"seed {s}: off {ev.off}, truth {pos.off}"
            for ci, c in enumerate(("dark", "light")):
                assert sum(ev.counts(c)) + ev.bar[ci] + ev.off[ci] == L.PER_SIDE
    assert reported >= len(SEEDS) * 3 // 4, f"off reported for {reported}/{len(SEEDS)} boards"


def test_empty_trays_with_every_checker_on_the_board() -> None:
    r = render_scene(L.start_position(), seed=4120)
    ev = BoardReader(VisionConfig(), corners=r.corners).read(r.image)
    assert ev is not None and ev.off == (0, 0)


def test_trays_off_in_the_config_gives_no_off() -> None:
    pos = _with_off(3)
    r = render_scene(pos, seed=4102)
    ev = BoardReader(VisionConfig(trays=False), corners=r.corners).read(r.image)
    assert ev is not None and ev.off is None


def test_consistent_off_needs_a_sure_reading_that_adds_up() -> None:
    assert consistent_off(TrayReading(3, 5, True, ("right",)), (12, 10)) == (3, 5)
    assert consistent_off(TrayReading(3, 5, False, ("right",)), (12, 10)) is None
    assert consistent_off(TrayReading(3, 4, True, ("right",)), (12, 10)) is None
    assert consistent_off(None, (15, 15)) is None


def test_a_misread_tray_is_not_reported() -> None:
    pos = _with_off(4)
    r = render_scene(pos, seed=4103)
    reader = BoardReader(VisionConfig(), corners=r.corners)
    good = reader.inspect(r.image)
    assert good.trays is not None
    # the same trays against a board one checker short: they no longer add up
    short = (good.trays.dark, good.trays.light + 1)
    assert consistent_off(TrayReading(*short, True, good.trays.sides), (L.PER_SIDE - pos.off[0], L.PER_SIDE - pos.off[1])) is None


def test_a_tray_reading_is_kept_while_the_board_totals_stay() -> None:
    pos = _with_off(5)
    r = render_scene(pos, seed=4104)
    reader = BoardReader(VisionConfig(), corners=r.corners)
    first = reader.inspect(r.image)
    again = reader.inspect(r.image)
    assert first.evidence is not None and again.evidence is not None
    assert again.evidence.off == first.evidence.off
    if first.evidence.off is not None:
        assert again.trays is first.trays  # kept, not read again
    # a checker borne off changes the totals: the trays are read afresh
    pts = list(pos.points)
    i = next(k for k, p in enumerate(pts) if p.colour == "dark")
    pts[i] = PointReading(pts[i].count - 1, "dark" if pts[i].count > 1 else None)
    moved = BoardEvidence(tuple(pts), pos.bar, (pos.off[0] + 1, pos.off[1]))
    r2 = render_scene(moved, seed=4104)
    later = reader.inspect(r2.image)
    assert later.trays is not first.trays
    if later.evidence is not None and later.evidence.off is not None:
        assert later.evidence.off == moved.off


def test_stable_readings_carry_the_trays() -> None:
    pos = _with_off(6)
    sf = StabilityFilter(BoardReader(VisionConfig()))
    got = None
    for k in range(8):
        out = sf.feed(render_scene(pos, RenderParams(), seed=4105, frame=k + 1).image, t=float(k))
        if isinstance(out, BoardEvidence):
            got = out
    assert got is not None and L.same_board(got, pos)
    assert got.off in (None, pos.off)


def test_other_colours_in_the_tray_are_read_by_the_board_model() -> None:
    pos = _with_off(7)
    for scheme in ("black-red", "teal-ivory"):
        r = render_scene(pos, RenderParams(scheme=scheme), seed=4106)
        a, model = read_view(rectify(r.image, r.corners))
        assert model is not None
        tr = read_trays(tray_views(r.image, r.corners), model)
        assert tr is not None
        # a colour is never given the other's checkers
        assert (tr.dark == 0) == (pos.off[0] == 0) and (tr.light == 0) == (pos.off[1] == 0)


def test_bgtable_read_reports_the_trays(tmp_path) -> None:
    """`bgtable read --json` gives the trays' counts when they are in the picture."""
    import cv2

    from vision.cli import read_image

    right = 0
    for seed in SEEDS[:6]:
        truth = _with_off(seed)
        r = render_scene(truth, seed=seed)
        path = tmp_path / f"board{seed}.png"
        cv2.imwrite(str(path), r.image)
        res = read_image(str(path))
        assert res["board_found"] and res["off"] is not None
        assert set(res["off"]) == {"dark", "light", "sure", "sides"}
        right += (res["off"]["dark"], res["off"]["light"]) == tuple(truth.off)
    assert right >= 4


def _half_tray_image(pos: BoardEvidence, seed: int, pitch: float) -> tuple[np.ndarray, int]:
    """The right tray's half holding Dark's borne-off checkers, rendered with ``pitch``."""
    r = render_scene(pos, RenderParams(off_pitch=(pitch, pitch)), seed=seed)
    view = dict(tray_views(r.image, r.corners))["right"]
    assert view is not None
    return view.image[:int(round(L.HEIGHT / 2 * view.px))], view.px


def test_the_checkers_thickness_is_measured_from_the_ladder() -> None:
    from vision.trays import ladder_pitch, ladder_profile
    pos = _with_off(4101)
    pos = BoardEvidence(pos.points, pos.bar, (max(pos.off[0], 6), pos.off[1]), 0.0, 1.0) if pos.off else pos
    for k, pitch in enumerate((0.21, 0.27, 0.34)):
        img, px = _half_tray_image(pos, 4300 + k, pitch)
        prof, _, _ = ladder_profile(img, px)
        got = ladder_pitch(prof, px)
        assert got is not None and abs(got / px - pitch) < 0.02, f"pitch {pitch}: measured {got and got / px}"


def test_thin_and_thick_borne_off_checkers_are_counted() -> None:
    right = total = 0
    for k, pitch in enumerate((0.2, 0.23, 0.26, 0.3, 0.35) * 3):
        pos = _with_off(4200 + k)
        r = render_scene(pos, RenderParams(off_pitch=(pitch, pitch)), seed=4200 + k)
        reader = BoardReader(VisionConfig(), corners=r.corners)
        rd = reader.inspect(r.image)
        assert rd.trays is not None
        total += 1
        right += (rd.trays.dark, rd.trays.light) == pos.off
        if rd.evidence is not None and rd.evidence.off is not None:
            assert rd.evidence.off == pos.off, f"pitch {pitch}: off {rd.evidence.off}, truth {pos.off}"
    assert right >= total * 3 // 4, f"{right}/{total} tray readings right"


def test_a_tray_side_without_a_tray_reads_empty() -> None:
    """The renderer puts the trays on the right; the strip left of the board is frame and
    table: its wood must not be taken for a checker lying in a tray."""
    phantoms = 0
    for s in SEEDS:
        r = render_scene(_with_off(s), seed=s)
        views = [(side, v) for side, v in tray_views(r.image, r.corners) if side == "left"]
        if not views:
            continue
        _, model = read_view(rectify(r.image, r.corners))
        tr = read_trays(views, model or fallback_model())
        assert tr is not None
        phantoms += tr.dark + tr.light
    assert phantoms <= 1, f"{phantoms} checkers seen where there is no tray"


def test_the_ladder_profile_in_integers_is_the_float_one() -> None:
    """The profile worked out in integers (the speed path) gives the float computation's values,
    window and type, on half-trays of rendered boards and on noise, odd sizes included."""
    import cv2

    from vision.trays import TRAY_PX, _ladder_profile_float, ladder_profile
    strips = []
    for seed in SEEDS[:4]:
        r = render_scene(_with_off(seed), seed=seed)
        strips += [v.image[a:b] for _, v in tray_views(r.image, r.corners) if v is not None
                   for a, b in ((0, 352), (352, 704))]
    rng = np.random.default_rng(19)
    strips += [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in ((352, 243), (40, 33), (9, 40), (20, 31))]
    assert len(strips) > 8
    for img in strips:
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        d, win = max(2, int(round(TRAY_PX / 16))), max(3, int(0.5 * TRAY_PX))
        prof, c0, w = ladder_profile(img, TRAY_PX)
        want, c1, w1 = _ladder_profile_float(grey, d, win)
        assert (c0, w) == (c1, w1) and prof.dtype == want.dtype and np.array_equal(prof, want)


def test_window_colour_is_the_numpy_mean_exactly() -> None:
    """The trays' colour window summed by OpenCV gives NumPy's mean bit for bit (and falls back
    to it for strips it does not take: floats, grey, empty)."""
    from vision.trays import window_colour
    rng = np.random.default_rng(19)
    for k in range(300):
        h, w = int(rng.integers(1, 200)), int(rng.integers(1, 120))
        a = rng.integers(0, 256, (h, w, 3), dtype=np.uint8) if k % 4 else np.full((h, w, 3), 255, np.uint8)
        c0, win = int(rng.integers(0, w)), int(rng.integers(1, 70))
        want = a[:, c0:c0 + win].astype(np.float32).mean(axis=1)
        got = window_colour(a, c0, win)
        assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
    f = rng.random((20, 30, 3)).astype(np.float32)
    assert np.array_equal(window_colour(f, 3, 8), f[:, 3:11].mean(axis=1))
