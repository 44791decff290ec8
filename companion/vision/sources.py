"""Frame sources: where table pictures come from, behind one small protocol.

Every source gives BGR uint8 arrays (OpenCV order):

- ``read()``  the next low-resolution frame, for watching the table (settle detection, "something moved")
- ``still()`` a full-resolution picture of the table as it is now, for reading the cards
- ``frames()`` iterate ``read()`` until the source runs out
- ``close()`` release the device or file

The backend is chosen by a spec string, never by ``if on_pi:`` in the logic:

==========================  ===============================================================
``picamera``                Raspberry Pi camera through picamera2 (``picamera:1`` for a second camera)
``video:PATH``              a video file through OpenCV; ``video:0`` a webcam by index
``folder:PATH``             sorted image files; ``folder:PATH?loop`` starts over at the end
``synthetic[:SEED]``        composed tables from the card decks (see ``synthetic``); never ends
``mock``                    a plain grey frame, for tests that only need a frame of the right shape
==========================  ===============================================================

>>> src = open_source("mock")
>>> src.read().shape, src.still().shape
((480, 640, 3), (1520, 2028, 3))
>>> src.close()

Problems a user can cause (no such folder, no camera) raise :class:`SourceError` with a message naming the
problem; the CLI prints it and exits with status 2.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable, Iterator, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "SourceError", "FrameSource", "open_source", "FolderSource", "VideoCaptureSource",
    "PiCamera2Source", "SyntheticSource", "MockSource", "IMAGE_SUFFIXES", "as_bgr",
]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
LORES_SIZE = (640, 480)  # width, height of the frames we watch the table with


class SourceError(RuntimeError):
    """A frame source could not be opened or read; the message says what to check."""


@runtime_checkable
class FrameSource(Protocol):
    def read(self) -> np.ndarray:
        """The next low-resolution BGR frame; raises StopIteration when the source has run out."""
        ...

    def still(self) -> np.ndarray:
        """A full-resolution BGR picture of the table as it is now."""
        ...

    def frames(self) -> Iterator[np.ndarray]:
        ...

    def close(self) -> None:
        ...


class _Base:
    """Shared plumbing: ``frames()`` from ``read()``, context manager, ``lores_size`` downscaling."""

    lores_size: tuple[int, int] = LORES_SIZE

    def read(self) -> np.ndarray:  # pragma: no cover - every backend overrides it
        raise NotImplementedError

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            try:
                yield self.read()
            except StopIteration:
                return

    def close(self) -> None:
        pass

    def __enter__(self) -> "_Base":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _lores(self, image: np.ndarray) -> np.ndarray:
        """Scale a full picture down to fit ``lores_size``, keeping its aspect ratio."""
        import cv2

        h, w = image.shape[:2]
        tw, th = self.lores_size
        scale = min(tw / w, th / h)
        if scale >= 1.0:
            return image
        return cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def as_bgr(image: Any) -> np.ndarray:
    """Any picture as the 8-bit BGR array the detector and reader take: grey, one-channel, BGRA, 16-bit, boolean
    and floating-point pictures converted (floats read as 0..1 where none is over 1, else as 0..255), an 8-bit BGR
    one passed through untouched. Anything that is no picture (empty, the wrong number of dimensions or channels,
    not numbers) raises ``ValueError`` naming what it got."""
    import cv2

    if not isinstance(image, np.ndarray):
        raise ValueError(f"not a picture: a {type(image).__name__}, not an array of pixels")
    if image.ndim not in (2, 3) or (image.ndim == 3 and image.shape[2] not in (1, 3, 4)):
        raise ValueError(f"not a picture: an array of shape {image.shape} (a picture is H x W, H x W x 3 or H x W x 4)")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError(f"an empty picture ({image.shape[1]} x {image.shape[0]} pixels)")
    if image.dtype == np.bool_:
        image = image.astype(np.uint8) * 255
    elif image.dtype.kind == "f":
        finite = np.nan_to_num(image.astype(np.float32), nan=0.0, posinf=255.0, neginf=0.0)
        top = 255.0 if float(finite.max(initial=0.0)) > 1.0 else 1.0
        image = np.clip(finite * (255.0 / top) + 0.5, 0, 255).astype(np.uint8)
    elif image.dtype.kind in "iu" and image.dtype != np.uint8:
        scale = 255.0 / max(1, int(np.iinfo(image.dtype).max))
        image = np.clip(image.astype(np.float64) * scale + 0.5, 0, 255).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise ValueError(f"not a picture: pixels of type {image.dtype}")
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 2:
        return cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGRA2BGR)
    out: np.ndarray = image
    return out


class FolderSource(_Base):
    """Image files in a folder, in sorted name order; each file is one moment at the table.

    ``read()`` gives the next file scaled down; ``still()`` gives the same (last read) file at full size.
    """

    def __init__(self, folder: str | os.PathLike[str], loop: bool = False,
                 lores_size: tuple[int, int] = LORES_SIZE) -> None:
        path = Path(folder)
        if not path.exists():
            raise SourceError(f"no such folder: {path}")
        if not path.is_dir():
            raise SourceError(f"not a folder: {path} (give the folder that holds the pictures)")
        self.paths = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError(f"no pictures in {path} (looked for {', '.join(IMAGE_SUFFIXES)})")
        self.loop = loop
        self.lores_size = lores_size
        self._next = 0
        self._current: np.ndarray | None = None
        self.current_path: Path | None = None

    def _load(self, p: Path) -> np.ndarray:
        import cv2

        image = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
        if image is None:
            raise SourceError(f"cannot read picture {p} (damaged, or not an image)")
        return as_bgr(image)

    def read(self) -> np.ndarray:
        if self._next >= len(self.paths):
            if not self.loop:
                raise StopIteration
            self._next = 0
        p = self.paths[self._next]
        self._next += 1
        self._current = self._load(p)
        self.current_path = p
        return self._lores(self._current)

    def still(self) -> np.ndarray:
        if self._current is None:
            self.read()
        assert self._current is not None
        return self._current.copy()


class VideoCaptureSource(_Base):
    """A video file or a webcam through ``cv2.VideoCapture``.

    A webcam has no separate still mode: ``still()`` grabs a fresh frame at the capture's own resolution.
    For a file, ``still()`` is the last frame read at full size (the file is a replay of the table).
    """

    def __init__(self, target: str | int, lores_size: tuple[int, int] = LORES_SIZE,
                 still_size: tuple[int, int] | None = None) -> None:
        import cv2

        self.lores_size = lores_size
        self.is_device = isinstance(target, int) or (isinstance(target, str) and target.isdigit())
        if self.is_device:
            target = int(target)
        elif not Path(str(target)).exists():
            raise SourceError(f"no such video file: {target}")
        self.target = target
        self.cap = cv2.VideoCapture(target)
        if not self.cap.isOpened():
            self.cap.release()
            what = f"camera {target} not found (is it plugged in? try another index)" if self.is_device \
                else f"cannot open video {target} (unknown format?)"
            raise SourceError(what)
        if self.is_device and still_size:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, still_size[0])
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, still_size[1])
        self._current: np.ndarray | None = None

    def _grab(self) -> np.ndarray | None:
        ok, frame = self.cap.read()
        if not ok or frame is None:
            return None
        return as_bgr(frame)

    def read(self) -> np.ndarray:
        frame = self._grab()
        if frame is None:
            if self.is_device:
                raise SourceError(f"camera {self.target} stopped sending frames")
            raise StopIteration
        self._current = frame
        return self._lores(frame)

    def still(self) -> np.ndarray:
        if self.is_device or self._current is None:
            frame = self._grab()
            if frame is None:
                if self._current is None:
                    raise SourceError(f"no frame from {self.target}")
            else:
                self._current = frame
        assert self._current is not None
        return self._current.copy()

    def close(self) -> None:
        self.cap.release()


class PiCamera2Source(_Base):
    """The Raspberry Pi camera (HQ camera or Camera Module 3) through picamera2.

    It watches the table with a small stream (``lores_size``, RGB888 which picamera2 stores as B, G, R) and
    switches to the sensor's full resolution for each still. Auto exposure and white balance run for
    ``settle_frames`` frames and are then locked at the values the camera settled on, so that the colour and
    brightness of a card do not drift while hands move over the table (a dark sleeve or a white card entering
    the view would otherwise re-meter the whole picture). ``flicker_hz`` (50 or 60, the mains frequency) rounds
    the locked exposure to whole flicker periods; ``focus_dioptres`` fixes a Camera Module 3's focus
    (1 / distance in metres: 1.3 for a mat 75 cm below the lens).
    """

    def __init__(self, camera_num: int = 0, lores_size: tuple[int, int] = LORES_SIZE,
                 still_size: tuple[int, int] | None = None, settle_frames: int = 15, lock: bool = True,
                 settle_timeout_s: float = 5.0, flicker_hz: float | None = None,
                 focus_dioptres: float | None = None) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise SourceError(
                "picamera2 is not installed: on the Pi run 'sudo apt install python3-picamera2' and make the "
                "virtual environment with --system-site-packages"
            ) from exc
        try:
            cameras = Picamera2.global_camera_info()
        except Exception as exc:  # libcamera not running, e.g. not a Pi
            raise SourceError(f"cannot list cameras ({exc}); is this a Raspberry Pi with libcamera?") from exc
        if camera_num >= len(cameras):
            found = "no camera found" if not cameras else f"only {len(cameras)} camera(s) found"
            raise SourceError(f"camera {camera_num} not found: {found} (check the ribbon cable and "
                              "'rpicam-hello --list-cameras')")
        try:
            self.cam = Picamera2(camera_num)
        except Exception as exc:
            raise SourceError(f"camera {camera_num} could not be opened ({exc}); is another program using it?") from exc
        self.lores_size = lores_size
        self.flicker_hz = flicker_hz
        self.still_size = tuple(still_size) if still_size else tuple(self.cam.sensor_resolution)
        self.locked_controls: dict[str, Any] = {}
        try:
            self.watch_config = self.cam.create_preview_configuration(
                main={"size": tuple(lores_size), "format": "RGB888"}, buffer_count=4)
            self.still_config = self.cam.create_still_configuration(
                main={"size": self.still_size, "format": "RGB888"})
            self.cam.configure(self.watch_config)
            self.cam.start()
            if focus_dioptres is not None:  # Camera Module 3: focus once on the mat and keep it (AfMode 0 = manual)
                self.cam.set_controls({"AfMode": 0, "LensPosition": float(focus_dioptres)})
            if lock:
                self.lock_exposure(settle_frames, settle_timeout_s)
        except SourceError:
            self.close()
            raise
        except Exception as exc:
            self.close()
            raise SourceError(f"camera {camera_num} failed to start ({exc})") from exc

    def lock_exposure(self, settle_frames: int = 15, timeout_s: float = 5.0) -> dict[str, Any]:
        """Let AE/AWB run, then fix exposure, gain and colour gains at their settled values; returns them."""
        deadline = time.monotonic() + timeout_s
        metadata: dict[str, Any] = {}
        for i in range(max(1, settle_frames)):
            metadata = self.cam.capture_metadata()
            # Newer libcamera reports AeLocked once the exposure has converged: no need to wait longer.
            if i >= 2 and metadata.get("AeLocked"):
                break
            if time.monotonic() > deadline:
                break
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata and metadata[key] is not None:
                controls[key] = tuple(metadata[key]) if key == "ColourGains" else metadata[key]
        if self.flicker_hz and "ExposureTime" in controls:
            # Mains lamps flicker at twice the mains frequency; a whole number of flicker periods per exposure
            # keeps the rolling shutter from striping the picture. The gain makes up the difference.
            period = 1e6 / (2 * self.flicker_hz)
            old = float(controls["ExposureTime"])
            new = max(1, round(old / period)) * period
            controls["ExposureTime"] = int(round(new))
            if "AnalogueGain" in controls:
                controls["AnalogueGain"] = max(1.0, float(controls["AnalogueGain"]) * old / new)
        self.cam.set_controls(controls)
        self.locked_controls = controls
        # A mode switch for stills starts the camera afresh: carry the locked values into the still mode.
        try:
            self.still_config["controls"].update(controls)
        except (TypeError, KeyError, AttributeError):
            pass
        return controls

    def read(self) -> np.ndarray:
        frame = self.cam.capture_array("main")
        return as_bgr(np.ascontiguousarray(frame[..., :3]) if frame.ndim == 3 else frame)

    def still(self) -> np.ndarray:
        frame = self.cam.switch_mode_and_capture_array(self.still_config, "main")
        if self.locked_controls:
            self.cam.set_controls(self.locked_controls)
        return as_bgr(np.ascontiguousarray(frame[..., :3]) if frame.ndim == 3 else frame)

    def close(self) -> None:
        cam = getattr(self, "cam", None)
        if cam is None:
            return
        try:
            cam.stop()
        except Exception:
            pass
        try:
            cam.close()
        except Exception:
            pass
        self.cam = None


class SyntheticSource(_Base):
    """Composed tables from the card decks: each ``read()`` is a new scene unless ``hold`` frames repeat it.

    ``hold`` > 1 shows the same scene several times (with fresh sensor noise) so that settle detection and
    voting can be exercised; the first ``moving`` of those frames also show a hand reaching over the table,
    somewhere else each frame (the table is not settled yet). ``last_scene`` holds the ground truth of the
    scene on show; ``still()`` is that scene at full size, without the hand.
    """

    def __init__(self, seed: int = 0, hold: int = 3, still_size: tuple[int, int] = (2028, 1520),
                 lores_size: tuple[int, int] = LORES_SIZE, limit: int | None = None, moving: int = 0,
                 **scene_kw: Any) -> None:
        from . import synthetic

        self._synthetic = synthetic
        self.seed = seed
        self.hold = max(1, hold)
        self.still_size = still_size
        self.lores_size = lores_size
        self.limit = limit
        self.moving = max(0, min(moving, self.hold - 1))
        self.scene_kw = scene_kw
        self._count = 0
        self._scene_index = -1
        self.last_scene: Any = None

    def _scene(self) -> Any:
        index = self._count // self.hold
        if self.last_scene is None or self._scene_index != index:
            self.last_scene = self._synthetic.render_scene(self.seed * 100_003 + index, size=self.still_size,
                                                           **self.scene_kw)
            self._scene_index = index
        return self.last_scene

    def read(self) -> np.ndarray:
        if self.limit is not None and self._count >= self.limit:
            raise StopIteration
        scene = self._scene()
        rng = np.random.default_rng(self._count + 7919 * self.seed)
        in_scene = self._count % self.hold
        self._count += 1
        frame = self._lores(scene.image)
        if in_scene < self.moving:
            frame = _draw_hand(frame.copy(), rng)
        noisy = frame.astype(np.int16) + rng.normal(0, 1.5, frame.shape).astype(np.int16)  # fresh sensor noise
        return np.clip(noisy, 0, 255).astype(np.uint8)

    def still(self) -> np.ndarray:
        if self.last_scene is None:
            self._scene()
        image: np.ndarray = self.last_scene.image
        return image.copy()


def _draw_hand(frame: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A skin-coloured forearm and hand reaching in from a random edge (for settle detection)."""
    import cv2

    h, w = frame.shape[:2]
    tip = np.array([rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h])
    edge = int(rng.integers(4))
    start = [np.array([tip[0], h * 1.1]), np.array([-0.1 * w, tip[1]]), np.array([tip[0], -0.1 * h]),
             np.array([w * 1.1, tip[1]])][edge]
    skin = tuple(int(c) for c in rng.uniform([60, 110, 170], [110, 160, 230]))  # BGR
    width = max(3, int(0.09 * min(w, h)))
    cv2.line(frame, tuple(int(v) for v in start), tuple(int(v) for v in tip), skin, width, cv2.LINE_AA)
    cv2.circle(frame, tuple(int(v) for v in tip), int(width * 0.8), skin, -1, cv2.LINE_AA)
    return frame


class MockSource(_Base):
    """Frames from a function (or a flat grey table): the mock for tests of code that only needs frames."""

    def __init__(self, make: Callable[[int], np.ndarray] | None = None, lores_size: tuple[int, int] = LORES_SIZE,
                 still_size: tuple[int, int] = (2028, 1520), limit: int | None = None) -> None:
        self.make = make
        self.lores_size = lores_size
        self.still_size = still_size
        self.limit = limit
        self.count = 0
        self.closed = False

    def _full(self, i: int) -> np.ndarray:
        if self.make is not None:
            return self.make(i)
        return np.full((self.still_size[1], self.still_size[0], 3), 96, np.uint8)

    def read(self) -> np.ndarray:
        if self.limit is not None and self.count >= self.limit:
            raise StopIteration
        self.count += 1
        return self._lores(self._full(self.count - 1))

    def still(self) -> np.ndarray:
        return self._full(max(0, self.count - 1))

    def close(self) -> None:
        self.closed = True


def open_source(spec: str, **options: Any) -> FrameSource:
    """Open the frame source a spec string names (see the module docstring); ``options`` go to its class.

    >>> open_source("tape:x")
    Traceback (most recent call last):
    ...
    companion.vision.sources.SourceError: unknown frame source 'tape:x' (use picamera, ...)
    """
    kind, _, arg = spec.strip().partition(":")
    kind = kind.lower()
    if kind in ("picamera", "picamera2", "pi"):
        if arg and not arg.isdigit():
            raise SourceError(f"picamera takes a camera number (picamera:0), not {arg!r}")
        return PiCamera2Source(int(arg or 0), **options)
    if kind in ("video", "webcam", "camera"):
        if not arg:
            raise SourceError("video needs a file or a camera index: video:PATH or video:0")
        return VideoCaptureSource(arg, **options)
    if kind == "folder":
        path, _, flags = arg.partition("?")
        if not path:
            raise SourceError("folder needs a path: folder:PATH")
        loop = options.pop("loop", "loop" in flags.split("&"))
        return FolderSource(path, loop=loop, **options)
    if kind == "synthetic":
        try:
            seed = int(arg) if arg else 0
        except ValueError:
            raise SourceError(f"synthetic takes a number as its seed (synthetic:42), not {arg!r}") from None
        return SyntheticSource(seed=seed, **options)
    if kind == "mock":
        return MockSource(**options)
    raise SourceError(f"unknown frame source {spec!r} (use picamera, video:PATH|INDEX, folder:PATH, "
                      "synthetic[:SEED] or mock)")
