"""Frame sources: where frames come from.  One small interface, several backends.

``open_source(spec)`` picks one by its text form:

* ``"camera:0"`` or ``"/dev/video0"`` - OpenCV capture (USB camera, V4L2);
* ``"picamera2"`` or ``"picamera2:1"`` - the Raspberry Pi camera via Picamera2 (imported only here);
* ``"files:GLOB"``, a folder or an image path - replay of image files in name order;
* ``"video:PATH"`` or a path ending in a video suffix - replay of a video file;
* ``"render:SEED"`` - the synthetic renderer (:class:`RenderSource`).

Real cameras are warmed up, then exposure, gain and white balance are fixed so that
colours stay put while the game is played.  Every source has ``read() -> frame | None``
(None: no more frames), ``close()``, and iterates over its frames.
"""
from __future__ import annotations

import glob
import os
from typing import Any, Iterator, Optional

import cv2
import numpy as np

from referee.events import BoardEvidence

from .errors import ConfigError, FrameSourceError

VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".h264", ".mjpeg")
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


class FrameSource:
    """The interface: ``read()`` a BGR frame or None at the end; ``close()``; iterable."""

    name = "source"

    def read(self) -> Optional[np.ndarray]:
        """The next frame (BGR), or None when the source has no more."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the camera or file behind the source."""
        pass

    def __iter__(self) -> Iterator[np.ndarray]:
        while True:
            f = self.read()
            if f is None:
                return
            yield f

    def __enter__(self) -> "FrameSource":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class FileSource(FrameSource):
    """Image files replayed in name order."""

    def __init__(self, paths: list[str], loop: bool = False) -> None:
        if not paths:
            raise FrameSourceError("no image files to replay (check the folder or pattern)")
        self.paths, self.loop, self.i = sorted(paths), loop, 0
        self.name = f"files({len(self.paths)})"

    def read(self) -> Optional[np.ndarray]:
        """The next image file as a frame (round again when looping); FrameSourceError naming an unreadable file."""
        if self.i >= len(self.paths):
            if not self.loop:
                return None
            self.i = 0
        p = self.paths[self.i]
        self.i += 1
        img = cv2.imread(p, cv2.IMREAD_COLOR)
        if img is None:
            raise FrameSourceError(f"image {p!r} is not a readable picture")
        return img


class CaptureSource(FrameSource):
    """OpenCV ``VideoCapture``: a camera index or device, or a video file."""

    def __init__(self, target: Any, width: int = 1280, height: int = 720, camera: bool = True,
                 warmup: int = 10) -> None:
        self.cap = (cv2.VideoCapture(target, cv2.CAP_V4L2) if camera and not isinstance(target, str)
                    else cv2.VideoCapture(target))
        if not self.cap.isOpened():
            raise FrameSourceError(f"cannot open {'camera' if camera else 'video'} {target!r}"
                                   + (" (is it plugged in, and is the user in the 'video' group?)" if camera else ""))
        self.name = f"capture({target})"
        if camera:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
            for _ in range(warmup):  # let auto exposure and white balance settle...
                self.cap.read()
            exposure = self.cap.get(cv2.CAP_PROP_EXPOSURE)
            self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # ...then fix them (V4L2: 1 = manual)
            self.cap.set(cv2.CAP_PROP_EXPOSURE, exposure)
            self.cap.set(cv2.CAP_PROP_AUTO_WB, 0)

    def read(self) -> Optional[np.ndarray]:
        """The next frame from OpenCV's capture, or None when it gives none."""
        ok, frame = self.cap.read()
        return frame if ok else None

    def close(self) -> None:
        """Release the OpenCV capture."""
        self.cap.release()


def zoomed_crop(crop: tuple[int, int, int, int], zoom: float) -> tuple[int, int, int, int]:
    """The sensor crop (x, y, width, height) showing the middle 1/``zoom`` of ``crop`` across and down:
    Picamera2's ``ScalerCrop`` for a digital zoom about the picture's centre."""
    x, y, w, h = crop
    zw, zh = max(1, int(round(w / zoom))), max(1, int(round(h / zoom)))
    return x + (w - zw) // 2, y + (h - zh) // 2, zw, zh


class PicameraSource(FrameSource):
    """The Pi camera through Picamera2, with exposure, gain and white balance fixed after warm-up.

    ``zoom`` (``[camera] zoom``): the middle 1/zoom of the sensor's picture fills the frame (its
    ``ScalerCrop``, about the centre), so a wide lens mounted high shows each point width in more
    pixels at the same resolution (``bench/vision_scale.py``: below about 35 px a point width the
    reading without a reference loses true plays; the table's learned reading held at 26)."""

    def __init__(self, index: int = 0, width: int = 1280, height: int = 720, warmup: int = 15,
                 zoom: float = 1.0) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise FrameSourceError("picamera2 is not installed "
                                   "(apt install python3-picamera2 on Raspberry Pi OS)") from None
        self.cam = Picamera2(index)
        self.cam.configure(self.cam.create_video_configuration(main={"size": (width, height), "format": "RGB888"}))
        self.cam.start()
        if zoom != 1.0:   # the mode's own full crop, narrowed about its centre, before the light is measured
            crop = zoomed_crop(tuple(self.cam.capture_metadata()["ScalerCrop"]), zoom)
            self.cam.set_controls({"ScalerCrop": crop})
        for _ in range(warmup):
            self.cam.capture_array()
        md = self.cam.capture_metadata()
        self.cam.set_controls({"AeEnable": False, "AwbEnable": False,
                               "ExposureTime": md.get("ExposureTime", 10000),
                               "AnalogueGain": md.get("AnalogueGain", 1.0),
                               "ColourGains": md.get("ColourGains", (1.5, 1.5))})
        self.name = f"picamera2({index})" + (f" zoom {zoom:g}" if zoom != 1.0 else "")

    def read(self) -> Optional[np.ndarray]:
        """The next frame from the Pi camera (BGR in memory, as OpenCV wants)."""
        return self.cam.capture_array()  # RGB888 in Picamera2 is BGR in memory, as OpenCV wants

    def close(self) -> None:
        """Stop and close the Pi camera."""
        self.cam.stop()
        self.cam.close()


class RenderSource(FrameSource):
    """Frames from :mod:`vision.render` of a fixed camera; set ``position`` and ``hand`` to change the scene.

    ``limit`` frames (None: endless).  Each frame gets a little fresh sensor noise, so
    consecutive frames of a still board differ as a real camera's do.
    """

    def __init__(self, position: Optional[BoardEvidence] = None, params: Any = None, seed: int = 0,
                 limit: Optional[int] = None) -> None:
        from .layout import start_position
        from .render import RenderParams
        self.position = position or start_position()
        self.params = params or RenderParams()
        self.seed, self.limit, self.count = seed, limit, 0
        self.hand = False
        self.name = f"render({seed})"
        self._drawn: Optional[tuple[Any, np.ndarray]] = None  # the scene last drawn and its image

    def read(self) -> Optional[np.ndarray]:
        """The next rendered frame of the position (with a little noise), or None past ``limit`` frames.

        The scene (position, hand, camera) is drawn again only when it changed: the same
        scene renders to the same image, so it is kept and each frame adds its noise to it.
        The renderer keeps nothing else for it (``cache=False``: its noise tile and lens maps,
        19 MB at 1280x720, are for simulators that render every frame)."""
        from .render import render
        from .render_camera import add_frame_noise
        if self.limit is not None and self.count >= self.limit:
            return None
        self.count += 1
        scene = (self.position, self.hand, self.params, self.seed)
        if self._drawn is None or self._drawn[0] != scene:
            self._drawn = None  # the old image goes before the new one is drawn
            self._drawn = (scene, render(self.position, self.params, seed=self.seed, hand=self.hand, cache=False))
        # the frame's noise is drawn in bands of rows: the same pixels as one int16 frame of noise
        return add_frame_noise(self._drawn[1], self.seed, self.count)


def open_source(spec: str, width: int = 1280, height: int = 720, zoom: float = 1.0) -> FrameSource:
    """A frame source from its text form (see the module docstring); ``zoom``: the Pi camera's
    digital zoom (:class:`PicameraSource`; other sources take none)."""
    kind, _, arg = spec.partition(":")
    if zoom != 1.0 and kind != "picamera2":
        raise ConfigError(f"zoom {zoom:g}: only the Raspberry Pi camera (picamera2) zooms; {spec!r} cannot")
    if kind == "camera":
        try:
            return CaptureSource(int(arg or 0), width, height)
        except ValueError:
            raise ConfigError(f"camera {spec!r}: expected camera:N with N a number, "
                              "or a device path like /dev/video0") from None
    if spec.startswith("/dev/video"):
        return CaptureSource(spec, width, height)
    if kind == "picamera2":
        return PicameraSource(int(arg or 0), width, height, zoom=zoom)
    if kind == "render":
        try:
            return RenderSource(seed=int(arg or 0))
        except ValueError:
            raise ConfigError(f"render source {spec!r}: expected render:SEED with SEED a number") from None
    if kind == "files":
        return FileSource(glob.glob(arg))
    if kind == "video":
        return CaptureSource(arg, camera=False)
    if os.path.isdir(spec):
        return FileSource([p for p in glob.glob(os.path.join(spec, "*")) if p.lower().endswith(IMAGE_SUFFIXES)])
    if spec.lower().endswith(VIDEO_SUFFIXES):
        if not os.path.exists(spec):
            raise FrameSourceError(f"video {spec!r} does not exist")
        return CaptureSource(spec, camera=False)
    if spec.lower().endswith(IMAGE_SUFFIXES):
        if not os.path.exists(spec):
            raise FrameSourceError(f"image {spec!r} does not exist")
        return FileSource([spec])
    raise ConfigError(f"frame source {spec!r}: expected camera:N, /dev/videoN, picamera2, files:GLOB, a folder,"
                      " video:PATH, an image or video path, or render:SEED")
