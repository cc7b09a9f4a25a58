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
