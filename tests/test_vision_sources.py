"""Frame sources: folder, video file, synthetic, mock, and the Pi camera against a fake picamera2 module."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from companion.vision.sources import (  # noqa: E402
    FolderSource,
    FrameSource,
    MockSource,
    PiCamera2Source,
    SourceError,
    SyntheticSource,
    VideoCaptureSource,
    as_bgr,
    open_source,
)


def _picture(value: int, size=(200, 150)) -> np.ndarray:
    img = np.full((size[1], size[0], 3), value, np.uint8)
    img[10:20, 10:30] = (0, 0, 255)
    return img


# ---- folder ---------------------------------------------------------------------------------------------

def test_folder_reads_pictures_in_name_order_and_stills_at_full_size(tmp_path):
    for name, value in (("b.png", 20), ("a.png", 10), ("c.jpg", 30)):
        cv2.imwrite(str(tmp_path / name), _picture(value))
    (tmp_path / "notes.txt").write_text("not a picture")
    src = open_source(f"folder:{tmp_path}", lores_size=(100, 75))
    assert isinstance(src, FolderSource) and isinstance(src, FrameSource)
    frames = list(src.frames())
    assert [f.shape for f in frames] == [(75, 100, 3)] * 3
    assert [int(f[40, 60, 0]) for f in frames[:2]] == [10, 20] and abs(int(frames[2][40, 60, 0]) - 30) <= 2
    assert src.still().shape == (150, 200, 3)
    assert src.current_path is not None and src.current_path.name == "c.jpg"
    src.close()


def test_folder_loop_starts_over(tmp_path):
    cv2.imwrite(str(tmp_path / "x.png"), _picture(50))
    cv2.imwrite(str(tmp_path / "y.png"), _picture(60))
    src = open_source(f"folder:{tmp_path}?loop")
    assert [int(src.read()[0, 0, 0]) for _ in range(5)] == [50, 60, 50, 60, 50]


def test_folder_problems_are_named(tmp_path):
    with pytest.raises(SourceError, match="no such folder"):
        open_source(f"folder:{tmp_path / 'nope'}")
    with pytest.raises(SourceError, match="no pictures in"):
        open_source(f"folder:{tmp_path}")
    (tmp_path / "broken.png").write_bytes(b"not really a png")
    src = FolderSource(tmp_path)
    with pytest.raises(SourceError, match="cannot read picture"):
        src.read()
    with pytest.raises(SourceError, match="folder needs a path"):
        open_source("folder:")


# ---- video ------------------------------------------------------------------------------------------------

def test_video_file_replays_every_frame(tmp_path):
    path = tmp_path / "table.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    assert writer.isOpened()
    for v in (40, 80, 120, 160):
        writer.write(_picture(v, (160, 120)))
    writer.release()
    src = open_source(f"video:{path}", lores_size=(80, 60))
    assert isinstance(src, VideoCaptureSource)
    frames = list(src.frames())
    assert len(frames) == 4 and frames[0].shape == (60, 80, 3)
    assert [round(float(f[30:50, 40:70].mean()) / 40) for f in frames] == [1, 2, 3, 4]
    assert src.still().shape == (120, 160, 3)  # the last frame, full size
    with pytest.raises(StopIteration):
        src.read()
    src.close()


def test_video_problems_are_named(tmp_path):
    with pytest.raises(SourceError, match="no such video file"):
        open_source(f"video:{tmp_path / 'missing.mp4'}")
    (tmp_path / "junk.mp4").write_bytes(b"\0" * 64)
    with pytest.raises(SourceError, match="cannot open video"):
        open_source(f"video:{tmp_path / 'junk.mp4'}")
    with pytest.raises(SourceError, match="video needs"):
        open_source("video:")


# ---- synthetic and mock -------------------------------------------------------------------------------

def test_synthetic_source_holds_each_scene_for_a_few_frames():
    pytest.importorskip("companion.vision.synthetic")
    from companion.vision import synthetic

    try:
        synthetic.available_decks()
    except synthetic.DeckError:
        pytest.skip("card decks not available")
    src = open_source("synthetic:5", still_size=(320, 240), lores_size=(160, 120), hold=2, limit=4, clean=True)
    assert isinstance(src, SyntheticSource)
    a, b = src.read(), src.read()
    scene_1 = src.last_scene
    assert a.shape == (120, 160, 3) and not np.array_equal(a, b)  # fresh noise every frame
    assert np.abs(a.astype(int) - b.astype(int)).mean() < 3  # ... on the same table
    assert src.still().shape == (240, 320, 3) and np.array_equal(src.still(), scene_1.image)
    src.read()
    assert src.last_scene is not scene_1 and src.last_scene.seed != scene_1.seed
    src.read()
    with pytest.raises(StopIteration):
        src.read()
    with pytest.raises(SourceError, match="seed"):
        open_source("synthetic:abc")


def test_synthetic_hand_moves_then_the_table_settles():
    from companion.vision import synthetic
    from companion.vision.table import SettleDetector

    try:
        synthetic.available_decks()
    except synthetic.DeckError:
        pytest.skip("card decks not available")
    src = SyntheticSource(seed=2, hold=7, moving=3, still_size=(320, 240), lores_size=(160, 120), clean=True)
    settle = SettleDetector(threshold=2.0, frames=2)
    # Frames 0-2 show a hand (moving), 3-6 the bare table: settled after two still differences.
    assert [settle.update(src.read()) for _ in range(7)] == [False, False, False, False, False, True, True]
    assert settle.update(src.read()) is False  # the next scene: everything moved


def test_module_examples_run():
    import doctest

    import companion.vision.sources as module

    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_mock_source():
    src = open_source("mock", limit=2)
    assert isinstance(src, MockSource)
    assert src.read().shape == (480, 640, 3) and src.still().shape == (1520, 2028, 3)
    src.read()
    with pytest.raises(StopIteration):
        src.read()
    with src:
        pass
    assert src.closed


def test_unknown_source_is_named():
    with pytest.raises(SourceError, match="unknown frame source 'tape:x'"):
        open_source("tape:x")


# ---- the Pi camera, through a fake picamera2 -------------------------------------------------------------

class FakePicamera2:
    """Just enough of picamera2.Picamera2 to drive PiCamera2Source: records every call."""

    cameras: list[dict] = [{"Model": "imx477", "Num": 0}]
    instances: list["FakePicamera2"] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.camera_num = camera_num
        self.sensor_resolution = (4056, 3040)
        self.calls: list[tuple] = []
        self.controls_set: list[dict] = []
        self.started = False
        self.closed = False
        self.metadata_calls = 0
        FakePicamera2.instances.append(self)

    @staticmethod
    def global_camera_info() -> list[dict]:
        return FakePicamera2.cameras

    def create_preview_configuration(self, main=None, lores=None, buffer_count=None, **kw):
        return {"use_case": "preview", "main": dict(main or {}), "lores": lores, "controls": {}}

    def create_still_configuration(self, main=None, **kw):
        return {"use_case": "still", "main": dict(main or {}), "controls": {}}

    def configure(self, config):
        self.calls.append(("configure", config["use_case"]))
        self.config = config

    def start(self):
        self.started = True
        self.calls.append(("start",))

    def capture_metadata(self):
        self.metadata_calls += 1
        # Auto exposure converges after a few frames.
        return {"ExposureTime": 10000 + 100 * self.metadata_calls, "AnalogueGain": 2.5,
                "ColourGains": [1.9, 1.6], "AeLocked": self.metadata_calls >= 4, "Lux": 300.0}

    def set_controls(self, controls):
        self.controls_set.append(dict(controls))

    def capture_array(self, name="main"):
        w, h = self.config["main"]["size"]
        self.calls.append(("capture_array", name))
        return np.full((h, w, 3), 77, np.uint8)

    def switch_mode_and_capture_array(self, config, name="main"):
        self.calls.append(("switch_mode_and_capture_array", config["use_case"], name))
        self.still_controls = dict(config["controls"])
        w, h = config["main"]["size"]
        return np.full((h, w, 4), 99, np.uint8)  # XRGB8888-like: the source drops the fourth channel

    def stop(self):
        self.started = False
        self.calls.append(("stop",))

    def close(self):
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch):
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    FakePicamera2.cameras = [{"Model": "imx477", "Num": 0}]
    FakePicamera2.instances = []
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera_watches_small_stills_full_and_locks_exposure(fake_picamera2):
    src = open_source("picamera", still_size=(406, 304))
    assert isinstance(src, PiCamera2Source)
    cam = fake_picamera2.instances[0]
    assert cam.config["use_case"] == "preview" and cam.config["main"] == {"size": (640, 480), "format": "RGB888"}
    # AE/AWB ran until AeLocked (4th frame), then were switched off at the settled values.
    assert cam.metadata_calls == 4
    assert cam.controls_set[0] == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 10400,
                                   "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}
    frame = src.read()
    assert frame.shape == (480, 640, 3) and frame[0, 0, 0] == 77
    still = src.still()
    assert still.shape == (304, 406, 3) and still[0, 0, 0] == 99
    assert ("switch_mode_and_capture_array", "still", "main") in cam.calls
    assert cam.still_controls["AeEnable"] is False and cam.still_controls["ExposureTime"] == 10400
    src.close()
    assert cam.closed and not cam.started
    src.close()  # twice is harmless


def test_picamera_exposure_avoids_mains_flicker_and_focus_is_fixed(fake_picamera2):
    src = open_source("picamera", still_size=(406, 304), flicker_hz=50, focus_dioptres=1.3)
    cam = fake_picamera2.instances[0]
    assert cam.controls_set[0] == {"AfMode": 0, "LensPosition": 1.3}
    locked = cam.controls_set[1]
    assert locked["ExposureTime"] == 10000  # 10.4 ms rounded to one 100 Hz flicker period
    assert locked["AnalogueGain"] == pytest.approx(2.5 * 10400 / 10000)
    src.close()


def test_picamera_full_sensor_resolution_by_default(fake_picamera2):
    src = PiCamera2Source(lock=False)
    assert src.still().shape == (3040, 4056, 3)
    assert fake_picamera2.instances[0].controls_set == []
    src.close()


def test_picamera_not_found_is_a_clear_error(fake_picamera2):
    fake_picamera2.cameras = []
    with pytest.raises(SourceError, match="camera 0 not found: no camera found"):
        open_source("picamera")
    fake_picamera2.cameras = [{"Num": 0}]
    with pytest.raises(SourceError, match="camera 1 not found: only 1 camera"):
        open_source("picamera:1")
    with pytest.raises(SourceError, match="camera number"):
        open_source("picamera:front")


def test_picamera_that_fails_to_start_is_closed_and_named(fake_picamera2, monkeypatch):
    def broken_start(self):
        raise RuntimeError("Failed to start camera: Device or resource busy")

    monkeypatch.setattr(fake_picamera2, "start", broken_start)
    with pytest.raises(SourceError, match="failed to start .*busy"):
        open_source("picamera")
    assert fake_picamera2.instances[0].closed


def test_picamera_without_the_library_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails as on a PC
    with pytest.raises(SourceError, match="python3-picamera2"):
        open_source("picamera")


def test_any_picture_becomes_8_bit_bgr_and_what_is_no_picture_is_named():
    bgr = _picture(180)
    assert as_bgr(bgr) is bgr  # 8-bit BGR passes through untouched
    grey = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    for variant in (grey, grey[:, :, None], cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA)):
        out = as_bgr(variant)
        assert out.dtype == np.uint8 and out.shape == bgr.shape
    assert np.array_equal(as_bgr(cv2.cvtColor(bgr, cv2.COLOR_BGR2BGRA)), bgr)
    # Deeper and floating-point pixels are scaled to 8 bits: 16-bit by its range, floats as 0..1 or 0..255.
    assert np.array_equal(as_bgr(bgr.astype(np.uint16) * 257), bgr)
    assert np.abs(as_bgr(bgr.astype(np.float32) / 255).astype(int) - bgr).max() <= 1
    assert np.array_equal(as_bgr(bgr.astype(np.float64)), bgr)
    assert as_bgr(np.full((4, 4), np.nan, np.float32)).max() == 0
    assert as_bgr(np.ones((4, 4), bool)).min() == 255
    for bad, words in ((np.zeros((0, 0, 3), np.uint8), "empty picture"), (np.zeros((4, 4, 2), np.uint8), "shape"),
                       (np.zeros((2, 4, 4, 3), np.uint8), "shape"), (np.array([["a"]]), "type"),
                       ([[1, 2], [3, 4]], "list")):
        with pytest.raises(ValueError, match=words):
            as_bgr(bad)
