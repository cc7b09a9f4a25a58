"""Frame sources: replay of files and video, the renderer, and errors naming the source."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import layout as L
from vision.config import VisionConfig
from vision.errors import ConfigError, FrameSourceError
from vision.reader import BoardReader
from vision.render import RenderParams
from vision.sources import RenderSource, open_source
from vision.stability import StabilityFilter


def test_render_source_feeds_the_stability_filter_to_a_stable_reading() -> None:
    src = RenderSource(L.start_position(), RenderParams(scheme="walnut"), seed=3, limit=6)
    sf = StabilityFilter(BoardReader(VisionConfig()))
    events = [sf.feed(f, t=k) for k, f in enumerate(src)]
    boards = [e for e in events if e is not None and e.kind == "board"]
    assert len(boards) == 1 and L.same_board(boards[0], L.start_position())
    assert src.read() is None


def test_file_and_video_replay(tmp_path) -> None:
    src = RenderSource(L.start_position(), RenderParams(width=320, height=240), seed=1, limit=3)
    frames = list(src)
    for k, f in enumerate(frames):
        cv2.imwrite(str(tmp_path / f"f{k}.png"), f)
    got = list(open_source(str(tmp_path)))
    assert len(got) == 3 and all(np.array_equal(a, b) for a, b in zip(got, frames))
    assert len(list(open_source(f"files:{tmp_path}/f*.png"))) == 3
    video = tmp_path / "v.avi"
    w = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 5, (320, 240))
    for f in frames:
        w.write(f)
    w.release()
    vs = list(open_source(str(video)))
    assert len(vs) == 3 and vs[0].shape == (240, 320, 3)


def test_bad_sources_are_errors_naming_them(tmp_path) -> None:
    with pytest.raises(ConfigError, match="camera:x"):
        open_source("camera:x")
    with pytest.raises(FrameSourceError, match="missing.mp4"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(ConfigError, match="nonsense"):
        open_source("nonsense")
    with pytest.raises(FrameSourceError):
        open_source(f"files:{tmp_path}/*.png")
