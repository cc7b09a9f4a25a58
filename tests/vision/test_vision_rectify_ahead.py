"""A view made ahead (:func:`vision.rectify.rectify_ahead`, ``read --batch``'s read-ahead thread) is the
view :func:`vision.rectify.rectify` makes, handed out once, for that frame and warp only, and only
once the warp's maps are kept: the plain warps and the kept maps stay as without it."""
from __future__ import annotations

import threading

import numpy as np

from vision import layout as L
from vision import rectify as RX
from vision.render import render_scene


def _scene(seed: int) -> tuple[np.ndarray, np.ndarray]:
    sc = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed)
    return sc.image, sc.corners + np.float32(seed % 7)   # (corners of their own: a warp of their own)


def test_nothing_is_made_ahead_before_the_warp_is_kept_and_nothing_is_counted_as_seen() -> None:
    frame, corners = _scene(11)
    assert RX.rectify_ahead(frame, corners) is None   # never seen: not made, and not counted as seen
    first = RX.rectify(frame, corners).image           # so the first look still warps plainly ...
    assert RX.rectify_ahead(frame, corners) is None   # ... (seen once: no maps yet)
    again = frame.copy()
    want = RX.rectify(again, corners).image            # the second look builds the maps
    assert RX.rectify_ahead(frame, corners) is not None
    got = RX.rectify(frame, corners).image
    assert np.array_equal(got, want) and got.shape == first.shape


def test_a_view_made_ahead_is_the_view_and_is_handed_out_once_for_its_frame_only() -> None:
    frame, corners = _scene(12)
    RX.rectify(frame, corners)
    want = RX.rectify(frame, corners).image
    other = frame.copy()
    done = threading.Thread(target=RX.rectify_ahead, args=(frame, corners))   # as the read-ahead thread does
    done.start()
    done.join()
    assert RX._made_ahead(other, RX._MAPS[next(reversed(RX._MAPS))]) is None   # another frame: not its view
    got = RX.rectify(frame, corners).image
    assert np.array_equal(got, want)
    assert id(frame) not in RX._AHEAD                  # taken
    assert np.array_equal(RX.rectify(frame, corners).image, want)   # (then remapped as ever)


def test_another_region_of_the_frame_does_not_take_the_view_made_ahead() -> None:
    frame, corners = _scene(13)
    for _ in range(2):
        RX.rectify(frame, corners)
        RX.rectify_region(frame, corners, 32, 0.0, 0.0, 3.0, 2.0)
    assert RX.rectify_ahead(frame, corners) is not None
    part = RX.rectify_region(frame, corners, 32, 0.0, 0.0, 3.0, 2.0).image
    assert part.shape[:2] == (64, 96) and id(frame) in RX._AHEAD
    assert np.array_equal(RX.rectify(frame, corners).image, RX.remap(frame, RX._MAPS[next(reversed(RX._MAPS))]))

