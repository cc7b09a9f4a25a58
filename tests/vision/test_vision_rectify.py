"""The kept warp of :mod:`vision.rectify` gives the pixels a plain remap of the whole frame gives."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import layout as L
from vision import rectify as RX
from vision.render import render_scene


def _plain(frame: np.ndarray, corners: np.ndarray, px: int, margin: float) -> np.ndarray:
    """The warp as one three-channel fixed-point remap of the whole frame (what rectify did before
    it remapped with the same grid as floats)."""
    size = (int(round((L.WIDTH + 2 * margin) * px)), int(round((L.HEIGHT + 2 * margin) * px)))
    ys, xs = np.mgrid[0:size[1], 0:size[0]].astype(np.float64)
    inv = np.linalg.inv(RX.homography(corners, px, margin))
    p = np.stack([xs, ys, np.ones_like(xs)], axis=-1) @ inv.T
    mx = np.clip((p[..., 0] / p[..., 2]).astype(np.float32), -1e6, 1e6)
    my = np.clip((p[..., 1] / p[..., 2]).astype(np.float32), -1e6, 1e6)
    m1, m2 = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    return cv2.remap(frame, m1, m2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


@pytest.mark.parametrize("shift", [(0.0, 0.0), (-300.0, -130.0), (420.0, 150.0)])
def test_the_kept_warp_reads_the_frame_as_a_whole_frame_remap_does(shift: tuple[float, float]) -> None:
    sc = render_scene(L.random_position(np.random.default_rng(4)), seed=4)
    corners = sc.corners + np.array(shift, np.float32)   # shifted: the margin leaves the frame (replicated edges)
    RX.rectify(sc.image, corners)                        # the first look warps; the second uses the kept maps
    got = RX.rectify(sc.image, corners).image
    _alike(got, _plain(sc.image, corners, 32, 0.6))
    grey = cv2.cvtColor(sc.image, cv2.COLOR_BGR2GRAY)   # not a colour frame: remapped as it is
    _alike(RX.rectify(grey, corners).image, _plain(grey, corners, 32, 0.6))


def _alike(got: np.ndarray, want: np.ndarray) -> None:
    """The fixed-point remap's pixels, but for a level where a value lies half-way (about 1 %)."""
    diff = np.abs(got.astype(int) - want.astype(int))
    assert got.shape == want.shape and diff.max() <= 1 and (diff > 0).mean() < 0.02


def test_a_warp_entirely_outside_the_frame_replicates_the_frame_edge() -> None:
    frame = np.full((60, 80, 3), 7, np.uint8)
    frame[:, -1] = (1, 2, 3)
    corners = np.array([[500, 10], [900, 10], [900, 300], [500, 300]], np.float32)
    RX.rectify(frame, corners, 8)
    got = RX.rectify(frame, corners, 8).image
    assert np.array_equal(got, _plain(frame, corners, 8, 0.6))   # (one colour per edge: no half-way values)


def test_working_arrays_are_kept_per_name_shape_and_thread() -> None:
    import threading

    from vision.buffers import scratch
    a = scratch("t", (3, 4), np.int16)
    assert scratch("t", (3, 4), np.int16) is a
    assert scratch("t", (3, 5), np.int16) is not a and scratch("u", (3, 4), np.int16) is not a
    other: list[np.ndarray] = []
    th = threading.Thread(target=lambda: other.append(scratch("t", (3, 4), np.int16)))
    th.start()
    th.join()
    assert other[0] is not a   # another thread has its own


def test_two_views_of_one_camera_do_not_share_pixels() -> None:
    sc = render_scene(L.random_position(np.random.default_rng(5)), seed=5)
    RX.rectify(sc.image, sc.corners)
    first = RX.rectify(sc.image, sc.corners)
    kept = first.image.copy()
    RX.rectify(255 - sc.image, sc.corners)   # the next frame reuses the working arrays
    assert np.array_equal(first.image, kept)


@pytest.mark.parametrize("shape", [L.BoardShape(), L.BoardShape(bar=1.4, height=11.6)], ids=["layout", "wider bar"])
def test_a_warps_maps_built_in_strips_are_the_maps_built_whole(shape: L.BoardShape,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    corners = np.array([[300, 100], [1000, 120], [1020, 650], [280, 640]], np.float32)
    maps = []
    for strip in (10**9, 1000, 1):   # one strip, strips of a few rows, one row at a time
        monkeypatch.setattr(RX, "_STRIP", strip)
        RX._MAPS.clear()
        RX._SEEN.clear()
        RX.warp_maps(corners, (720, 1280, 3), 32, -0.6, -0.6, (454, 390), shape)   # (seen once: no maps yet)
        maps.append(RX.warp_maps(corners, (720, 1280, 3), 32, -0.6, -0.6, (454, 390), shape))
    whole = maps[0]
    assert whole is not None and whole.mx.shape == whole.my.shape == (390, 454) and whole.mx.dtype == np.float32
    for w in maps[1:]:
        assert w is not None and (w.x0, w.y0, w.x1, w.y1) == (whole.x0, whole.y0, whole.x1, whole.y1)
        assert w.mx.tobytes() == whole.mx.tobytes() and w.my.tobytes() == whole.my.tobytes()


def test_a_wide_part_converted_as_whole_rows_is_the_part_converted() -> None:
    sc = render_scene(L.random_position(np.random.default_rng(6)), seed=6)
    frame = sc.image
    h, w = frame.shape[:2]
    for x0, x1 in ((0, w), (100, 100 + int(RX.ROWS_WIDE * w) + 1), (300, 340)):   # whole rows, wide, narrow
        warp = RX.Warp(np.zeros((2, 2), np.float32), np.zeros((2, 2), np.float32), x0, 50, x1, 400)
        want = cv2.cvtColor(np.ascontiguousarray(frame[50:400, x0:x1]), cv2.COLOR_BGR2BGRA)
        assert np.array_equal(RX.bgra_part(frame, warp), want)
        assert np.array_equal(RX.bgra_part(frame[:, ::-1], warp), cv2.cvtColor(   # not contiguous: the part
            np.ascontiguousarray(frame[:, ::-1][50:400, x0:x1]), cv2.COLOR_BGR2BGRA))


@pytest.mark.parametrize("seed", [6, 11])
@pytest.mark.parametrize("fixed", [0, 256 << 10])
def test_a_colour_frame_is_remapped_with_the_pixels_of_its_bgra_copy(seed: int, fixed: int,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept warp remaps a BGR frame's part through its BGRA copy (OpenCV's faster four-channel
    path) or, where that fresh copy would be mapped anew each read (the table's fixed mmap
    threshold), as it is: the same pixels either way."""
    from vision import buffers
    monkeypatch.setattr(buffers, "FIXED_MMAP", fixed)
    assert buffers.mapped_afresh(1 << 20) == (fixed > 0) and not buffers.mapped_afresh(100 << 10)
    sc = render_scene(L.random_position(np.random.default_rng(seed)), seed=seed)
    RX.warp_maps(sc.corners, sc.image.shape, 32, -0.6, -0.6, (454, 390))   # (seen once: no maps yet)
    warp = RX.warp_maps(sc.corners, sc.image.shape, 32, -0.6, -0.6, (454, 390))
    assert warp is not None
    bgra = cv2.remap(RX.bgra_part(sc.image, warp), warp.mx, warp.my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    got = RX.remap(sc.image, warp)
    assert got.shape == (390, 454, 3) and np.array_equal(got, cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR))
