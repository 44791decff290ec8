"""The index locator: where in a hand the corner indices of its face-up cards lie, learned instead of built.

The reader finds a card's corner frame from geometry: outline corners, rank-over-suit glyph pairs, the turns of a
hand's outline, frames slid beside a card named. On the training decks nearly every pocket card it still misses is
named right by the whole-corner classifier at its true corner frame (``tools/pocket_diag.py``): what fails is
finding the frame (a glare streak joined to a hand, a tight fan's rim indices notching the outline, a pair in shade
found only as an edge region). This small fully convolutional network looks at a hand's picture scaled to
``LOC_CW`` pixels a card width and marks, on a grid ``STRIDE`` pixels apart, how likely a visible index corner
lies there, where exactly (an offset within the cell) and which way the card's x axis runs (cosine and sine): one
corner frame per peak, which the whole-corner classifier then names or leaves (``Reader._read_located``).

Trained by ``tools/train_locator.py`` on synthetic tables of the training decks (the held-out deck kept out for
measuring), exported to ONNX and run by ``cv2.dnn``; the reader works without it (``load_locator`` gives None).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

LOC_CW = 32  # the network's input: pixels per card width
STRIDE = 4  # ...and its output grid's step, in input pixels
OUTPUTS = 5  # heat (logit), offset x, offset y (cells), cos and sin of the card's x axis
PAD = 0.4  # card widths of picture taken in round a region
EDGE = 8  # input pixels of border added round the crop (its own edge repeated); no peak is taken there (trained
# with the cells this near a crop's border left out of the loss)
MAX_SIDE = 640  # input pixels at most along a side (a region bigger than that is not a hand)


@dataclass
class Located:
    """One corner frame the locator marks: origin (the card's corner, picture pixels), axes one card width
    long (y the x axis turned a quarter clockwise on the picture), and the peak's score (0..1)."""

    origin: np.ndarray
    x_axis: np.ndarray
    y_axis: np.ndarray
    score: float


def locator_input(crop_bgr: np.ndarray) -> np.ndarray:
    """The network's input for a crop already scaled to ``LOC_CW``: 3 x H x W float32, each channel over its
    98th percentile (the paper's white, whatever the light's colour), clipped to 0..1.2, less 0.5."""
    f = crop_bgr.astype(np.float32)
    level = np.maximum(np.percentile(f.reshape(-1, 3), 98, axis=0), 40.0)
    out = np.clip(f / level, 0.0, 1.2) - 0.5
    return np.ascontiguousarray(out.transpose(2, 0, 1))


def decode(out: np.ndarray, min_score: float) -> list[tuple[float, float, float, float, float]]:
    """Peaks of one output (OUTPUTS x h x w): (x, y) in input pixels (continuous, 0 at the crop's left edge),
    unit x axis (cos, sin) and score, best first. A peak is a cell at ``min_score`` or more that no neighbour
    (3 x 3) beats."""
    heat = (1.0 / (1.0 + np.exp(-out[0].astype(np.float64)))).astype(np.float32)  # (compared with its own dilation:
    grown = cv2.dilate(heat, np.ones((3, 3), np.uint8))  # one type, or rounding drops half the peaks)
    ys, xs = np.nonzero((heat >= min_score) & (heat >= grown))
    peaks = []
    for i, j in zip(ys.tolist(), xs.tolist()):
        c, s = float(out[3, i, j]), float(out[4, i, j])
        norm = float(np.hypot(c, s)) or 1.0
        x = (j + 0.5 + float(out[1, i, j])) * STRIDE
        y = (i + 0.5 + float(out[2, i, j])) * STRIDE
        peaks.append((x, y, c / norm, s / norm, float(heat[i, j])))
    peaks.sort(key=lambda p: -p[4])
    return peaks


class IndexLocator:
    """The ONNX network (``locate``)."""

    def __init__(self, onnx_path: Path):
        self.net = cv2.dnn.readNetFromONNX(str(onnx_path))

    def forward(self, inputs: np.ndarray) -> np.ndarray:
        """``inputs``: 1 x 3 x H x W (H, W multiples of STRIDE); 1 x OUTPUTS x H/STRIDE x W/STRIDE."""
        self.net.setInput(np.ascontiguousarray(inputs, np.float32))
        return np.asarray(self.net.forward(), np.float32)

    def locate(self, image: np.ndarray, region: np.ndarray, card_w: float, min_score: float = 0.3,
               most: int = 12, fast: bool = False) -> list[Located]:
        """The index corners marked in ``image`` round ``region`` (a polygon, picture pixels) at a card width of
        ``card_w`` pixels: up to ``most``, best first, each at ``min_score`` or more. ``fast``: the crop shrunk by
        halves first (``_shrink``; a little different from one area average, which the network was trained on)."""
        if card_w <= 0:
            return []
        pts = np.asarray(region, np.float64).reshape(-1, 2)
        h_img, w_img = image.shape[:2]
        x0, y0 = np.floor(pts.min(axis=0) - PAD * card_w).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0) + PAD * card_w).astype(int)
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w_img, x1), min(h_img, y1)
        s = LOC_CW / card_w
        w, h = int(round((x1 - x0) * s)), int(round((y1 - y0) * s))
        if w < 2 * STRIDE or h < 2 * STRIDE or max(w, h) > MAX_SIDE:
            return []
        crop = _shrink(image[y0:y1, x0:x1], (w, h), card_w / LOC_CW if fast else 1.0)
        W, H = -(-(w + 2 * EDGE) // STRIDE) * STRIDE, -(-(h + 2 * EDGE) // STRIDE) * STRIDE
        crop = cv2.copyMakeBorder(crop, EDGE, H - h - EDGE, EDGE, W - w - EDGE, cv2.BORDER_REPLICATE)
        out = self.forward(locator_input(crop)[None])[0]
        sx, sy = (x1 - x0) / w, (y1 - y0) / h
        found: list[Located] = []
        for x, y, c, sn, score in decode(out, min_score):
            x, y = x - EDGE, y - EDGE
            if not (0 <= x <= w and 0 <= y <= h):
                continue
            if len(found) == most:
                break
            origin = np.array([x0 + x * sx - 0.5, y0 + y * sy - 0.5])
            xa = np.array([c, sn]) * card_w
            found.append(Located(origin, xa, np.array([-xa[1], xa[0]]), score))
        return found


def _shrink(crop: np.ndarray, size: tuple[int, int], factor: float) -> np.ndarray:
    """``crop`` area-averaged to ``size`` (w, h), ``factor`` times smaller: halved while it must shrink twice or
    more (OpenCV's 2:1 INTER_AREA is a fast path; a fractional one over a 12 MP still costs ~50 ms), then the rest
    of the way."""
    while factor >= 2 and crop.shape[0] >= 4 and crop.shape[1] >= 4:
        h, w = crop.shape[0] // 2, crop.shape[1] // 2
        crop = cv2.resize(crop[:2 * h, :2 * w], (w, h), interpolation=cv2.INTER_AREA)
        factor /= 2
    out: np.ndarray = cv2.resize(crop, size, interpolation=cv2.INTER_AREA)
    return out


def load_locator(model_dir: Path) -> IndexLocator | None:
    """The locator in ``model_dir`` (``reader_locator.onnx`` and its ``.json``), or None when it is not there.
    A file that cannot be used (damaged, another input scale) is reported with a warning and None returned."""
    onnx_path = model_dir / "reader_locator.onnx"
    meta = model_dir / "reader_locator.json"
    if not onnx_path.exists():
        return None
    try:
        info = json.loads(meta.read_text())
        if info.get("loc_cw") != LOC_CW or info.get("stride") != STRIDE:
            raise ValueError(f"{meta.name} is for another input scale")
        net = IndexLocator(onnx_path)
        out = net.forward(np.zeros((1, 3, 4 * STRIDE, 4 * STRIDE), np.float32))
        if out.shape != (1, OUTPUTS, 4, 4):
            raise ValueError(f"{onnx_path.name} gives {out.shape}, not (1, {OUTPUTS}, 4, 4)")
        return net
    except (cv2.error, ValueError, OSError, AttributeError) as exc:
        warnings.warn(f"{onnx_path.name} cannot be used ({exc}); no index locator", stacklevel=2)
        return None
