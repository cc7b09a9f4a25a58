"""The renderer without its per-frame-size tables (issue 19): ``cache=False`` draws the noise
tile's rows as the light asks for them and remaps the lens band by band, and gives the same
image bit for bit; the render camera of ``bgtable run`` keeps neither table."""
from __future__ import annotations

import numpy as np
import pytest

from vision import layout as L
from vision import render_camera as RC
from vision.render import RenderParams, render_scene
from vision.sources import RenderSource

NOISY = RenderParams(width=320, height=200, noise_max=6.0, distortion_max=0.08, glare_prob=0.5)


@pytest.mark.parametrize("seed,hand,frame", [(0, False, 0), (1, True, 0), (2, False, 1), (3, False, 2), (5, True, 3)])
def test_without_the_tables_the_same_image(seed: int, hand: bool, frame: int) -> None:
    pos = L.start_position() if seed % 2 else L.random_position(np.random.default_rng(seed), tall=0.6)
    kept = render_scene(pos, NOISY, seed=seed, hand=hand, frame=frame).image
    drawn = render_scene(pos, NOISY, seed=seed, hand=hand, frame=frame, cache=False).image
    assert np.array_equal(kept, drawn)


@pytest.mark.parametrize("flip", [False, True])
def test_noise_rows_are_the_tile_s_window(flip: bool) -> None:
    w, h, ox, oy = 200, 150, 17, 41
    tile = RC._noise_tile(w, h)
    want = (tile[:, ::-1] if flip else tile)[oy:oy + h, ox:ox + w]
    rows = RC.NoiseRows(w, h, ox, oy, flip)
    got = np.concatenate([rows(y, min(y + 37, h)) for y in range(0, h, 37)])  # bands across the tile's bands
    assert np.array_equal(got, want)
    with pytest.raises(ValueError, match="already let go"):
        rows(0, 10)


def test_the_lens_in_bands_is_the_whole_frame_remap() -> None:
    img = np.random.default_rng(4).integers(0, 256, (150, 200, 3), dtype=np.uint8)
    assert np.array_equal(RC.distort(img, 0.05, cache=False, band=32), RC.distort(img, 0.05, cache=True))


def test_the_render_camera_keeps_no_renderer_tables() -> None:
    RC._noise_tile.cache_clear()
    RC._distortion_maps.cache_clear()
    src = RenderSource(params=RenderParams(width=320, height=200, noise_max=6.0, distortion_max=0.08), seed=2)
    a, b = src.read(), src.read()
    assert a is not None and b is not None and a.shape == (200, 320, 3) and not np.array_equal(a, b)
    assert RC._noise_tile.cache_info().currsize == 0 and RC._distortion_maps.cache_info().currsize == 0


def _numpy_noise(image: np.ndarray, seed: int, count: int) -> np.ndarray:
    import cv2
    noise = np.random.default_rng([seed, count]).integers(-2, 3, image.shape, dtype=np.int16)
    return cv2.add(image, noise, dtype=cv2.CV_8U)


@pytest.mark.parametrize("shape,seed,count,band", [((720, 1280, 3), 3, 1, 48), ((200, 320, 3), 0, 0, 48),
                                                   ((31, 17, 3), 7, 99, 5), ((64, 64), 2, 4, 7)])
def test_the_frame_noise_in_bands_is_numpy_s_noise(shape: tuple[int, ...], seed: int, count: int, band: int) -> None:
    image = np.random.default_rng(count).integers(0, 256, shape, dtype=np.uint8)
    image[:3] = 0
    image[3:6] = 255  # both saturations
    assert np.array_equal(RC.add_frame_noise(image, seed, count, band=band), _numpy_noise(image, seed, count))


def test_the_frame_noise_skips_the_rejected_draws_as_numpy_does() -> None:
    raw = np.random.default_rng([3, 1]).bit_generator.random_raw(720 * 1280 * 3 // 4).view(np.uint16)
    assert (raw == 0).sum() > 10  # the frame's stream has draws Lemire's method rejects (x == 0)
    image = np.full((720, 1280, 3), 128, np.uint8)
    assert np.array_equal(RC.add_frame_noise(image, 3, 1, band=37), _numpy_noise(image, 3, 1))


def test_the_render_camera_s_frames_are_the_whole_frame_noise() -> None:
    src = RenderSource(params=RenderParams(width=320, height=200), seed=4)
    for count in (1, 2):
        got = src.read()
        assert src._drawn is not None
        assert np.array_equal(got, _numpy_noise(src._drawn[1], 4, count))
