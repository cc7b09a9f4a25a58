"""The blank-patch check (vision.blank_patch): a patch of the rows showing no board at all is
something over it - the real frame4's navy sleeve over a black frame, which the frame band
does not see - while clean boards, dice, checkers and the plain gap between the rows are not."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import vision_real as VR  # noqa: E402

from vision import layout as L  # noqa: E402
from vision.blank_patch import BlankParams, blank_patch, emptiest_patch  # noqa: E402
from vision.occlusion import occlusion_score  # noqa: E402
from vision.reader import SINGLE_FRAME_OCCLUSION, BoardReader  # noqa: E402
from vision.rectify import View, rectify  # noqa: E402
from vision.render import RenderParams, render_scene  # noqa: E402

CALM = RenderParams(glare_prob=0.0, shadow_prob=0.0)
NAVY = (70, 35, 25)   # BGR: a navy sleeve


def real_reader(name: str) -> tuple[BoardReader, np.ndarray]:
    lab = VR.load_labels()["images"][name]
    cfg = VR.config_for(lab)
    return BoardReader(cfg, corners=L.parse_corners(cfg.corners or "")), VR.load_image(name)


def rendered_view(seed: int = 3, px: int = 20) -> View:
    r = render_scene(L.start_position(), CALM, seed=seed)
    return rectify(r.image, r.corners, px)


def boxed(view: View, x0: float, x1: float, y0: float, y1: float, colour: tuple[int, int, int]) -> View:
    """``view`` with a plain box of ``colour`` from ``x0`` to ``x1`` and ``y0`` to ``y1`` pw (layout)."""
    img = view.image.copy()
    m, px = view.margin, view.px
    img[int((m + y0) * px):int((m + y1) * px), int((m + x0) * px):int((m + x1) * px)] = colour
    return View(img, view.px, view.margin)


def test_a_navy_sleeve_over_a_black_frame_is_refused_by_a_single_frame() -> None:
    # wtc2022 frame4: the sleeve crosses the frame band unseen (navy on black) and is sampled
    # as no checker; the rows under it show no edge at all
    reader, img = real_reader("frame4")
    view = reader.inspect(img, read_occluded=True).view
    assert view is not None
    assert occlusion_score(view) < SINGLE_FRAME_OCCLUSION
    share, _ = emptiest_patch(view)
    assert share < BlankParams().limit / 3
    hidden = VR.load_labels()["images"]["frame4"]["hidden"]
    assert blank_patch(view) in hidden
    r = reader.inspect(img)
    assert r.evidence is None and r.occluded and r.reason is not None
    assert r.reason.kind == "occluded"


@pytest.mark.parametrize("name", ["board", "test1", "test2", "frame0", "frame1", "test10"])
def test_clean_real_frames_show_the_board_in_every_patch_of_the_rows(name: str) -> None:
    # drawn flat boards, cups lying on the field, logos, stacks: all keep edges in every patch,
    # at least four times the limit
    reader, img = real_reader(name)
    r = reader.inspect(img)
    assert r.view is not None
    share, _ = emptiest_patch(r.view)
    assert share > 4 * BlankParams().limit, (name, share)
    assert blank_patch(r.view) is None
    assert not r.occluded, name


def test_a_plain_arm_over_a_rendered_row_is_something_over_the_board() -> None:
    view = rendered_view()
    assert blank_patch(view) is None
    assert emptiest_patch(view)[0] > 4 * BlankParams().limit
    # a plain sleeve 2.5 pw wide over the bottom row, of any colour (the frame's own among them)
    frame_colour = tuple(int(c) for c in view.image[2, view.image.shape[1] // 2])
    for colour in (NAVY, (0, 0, 0), (170, 190, 230), frame_colour):
        arm = boxed(view, 7.5, 10.0, 6.0, L.HEIGHT + 0.6, colour)
        assert blank_patch(arm) in {f"bottom {i}" for i in (8, 9, 10)}, colour
    # the same sleeve over the top row's left half
    assert blank_patch(boxed(view, 2.0, 4.5, -0.6, 4.0, NAVY)) in {"top 3", "top 4", "top 5"}


def test_dice_a_narrow_thing_and_the_plain_gap_between_the_rows_are_not() -> None:
    view = rendered_view()
    die = boxed(view, 3.2, 3.8, 2.0, 2.6, (240, 240, 240))
    narrow = boxed(view, 3.0, 4.2, 0.0, 4.0, NAVY)           # narrower than the patch judged
    gap = boxed(view, 0.0, L.WIDTH, 4.6, L.HEIGHT - 4.6, NAVY)   # the field between the rows, covered
    bar = boxed(view, L.BAR_LEFT, L.BAR_RIGHT, 0.0, L.HEIGHT, NAVY)
    for v in (die, narrow, gap, bar):
        assert blank_patch(v) is None
