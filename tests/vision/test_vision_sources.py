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
from vision.sources import RenderSource, open_source, zoomed_crop
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


class FakePicamera2:
    """Picamera2's calls that :class:`vision.sources.PicameraSource` makes, recorded; its sensor mode's
    full crop is 2304 x 1296 at (0, 0), as the Camera Module 3's binned video mode reports it."""

    made: list["FakePicamera2"] = []

    def __init__(self, index: int) -> None:
        self.index, self.controls, self.started = index, [], False
        FakePicamera2.made.append(self)

    def create_video_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_metadata(self) -> dict:
        crop = next((c["ScalerCrop"] for c in reversed(self.controls) if "ScalerCrop" in c), (0, 0, 2304, 1296))
        return {"ScalerCrop": crop, "ExposureTime": 8000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.4)}

    def capture_array(self) -> np.ndarray:
        w, h = self.config["main"]["size"]
        return np.zeros((h, w, 3), np.uint8)

    def set_controls(self, controls: dict) -> None:
        self.controls.append(controls)


@pytest.fixture()
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    import sys
    import types
    FakePicamera2.made = []
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    return FakePicamera2


def test_the_pi_camera_zooms_about_the_pictures_middle_before_fixing_its_light(fake_picamera2) -> None:
    src = open_source("picamera2:1", 1280, 720, zoom=1.5)
    cam = fake_picamera2.made[-1]
    assert cam.index == 1 and cam.config["main"]["size"] == (1280, 720)
    assert cam.controls[0] == {"ScalerCrop": (384, 216, 1536, 864)}   # the middle two thirds, centred
    fixed = cam.controls[-1]
    assert fixed["AeEnable"] is False and fixed["ExposureTime"] == 8000 and fixed["ColourGains"] == (1.8, 1.4)
    assert src.read().shape == (720, 1280, 3) and "zoom 1.5" in src.name
    plain = open_source("picamera2", 1280, 720)
    assert not any("ScalerCrop" in c for c in fake_picamera2.made[-1].controls) and plain.name == "picamera2(0)"


def test_zoomed_crop_keeps_the_centre_and_the_shape() -> None:
    assert zoomed_crop((0, 0, 2304, 1296), 1.0) == (0, 0, 2304, 1296)
    assert zoomed_crop((16, 8, 4608, 2592), 2.0) == (16 + 1152, 8 + 648, 2304, 1296)
    x, y, w, h = zoomed_crop((0, 0, 2304, 1296), 3.0)
    assert (w, h) == (768, 432) and x + w / 2 == 1152 and y + h / 2 == 648


def test_a_zoom_for_a_camera_that_cannot_zoom_names_it() -> None:
    with pytest.raises(ConfigError, match=r"zoom 1.5: only the Raspberry Pi camera \(picamera2\) zooms; 'camera:0'"):
        open_source("camera:0", zoom=1.5)
