"""The whole-corner classifier: a whole card's index read from its corner patch at once, no glyphs located.

The glyph reader (``reader_glyph`` + ``reader_model``) first finds the rank and the suit as ink components, and
at low resolution (an index 8-11 px tall, as in real table photos with the whole table in view) that is where it
fails: a soft grey '9' breaks into loop and tail at the ink threshold, or its suit runs into the big pip beside
it. This small CNN sees the whole corner patch (ink and red ink, ``corner_input``) and answers rank and suit
directly. The reader asks it only about whole cards the glyph reader left unnamed, where the outline gives both
index corners exactly, and names the card only when both corners agree with high confidence
(``Reader._read_quad``). Trained by ``tools/train_corner.py`` on the same rendered corners and deck crops as the
glyph classifiers (held-out fonts and deck kept out); run by ``cv2.dnn``.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.glyphs import RANKS, SUITS
from companion.vision.reader_glyph import corner_patch, ink_map

INPUT_W, INPUT_H = 34, 62  # the patch (68 x 124 at 200 px per card width) at half size


def corner_input(patch_bgr: np.ndarray) -> np.ndarray:
    """The network's input for one corner patch: 2 x INPUT_H x INPUT_W float32, ink (dark or coloured against the
    patch's paper, 0..1) and red ink (red over the stronger of green and blue, against the paper's level)."""
    ink, paper = ink_map(patch_bgr)
    f = patch_bgr.astype(np.float32)
    level = max(float(paper.max()), 40.0)
    red = np.clip((f[:, :, 2] - np.maximum(f[:, :, 0], f[:, :, 1])) / level, 0.0, 1.0)
    out = np.stack([cv2.resize(np.clip(ink, 0.0, 1.0), (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA),
                    cv2.resize(red, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)])
    return out.astype(np.float32)


def frame_input(image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray) -> np.ndarray:
    """``corner_input`` of the corner patch at a frame of ``image`` (origin and axes as ``corner_patch``'s)."""
    return corner_input(corner_patch(image, np.asarray(origin, np.float32), np.asarray(x_axis, np.float32),
                                     np.asarray(y_axis, np.float32)))


class CornerNet:
    """The ONNX classifier: ``predict`` gives per patch the 13 ranks + junk and the 4 suits + junk, each
    summing to 1."""

    def __init__(self, onnx_path: Path, classes: dict[str, list[str]]):
        self.net = cv2.dnn.readNetFromONNX(str(onnx_path))
        self.rank_classes = classes["rank"]
        self.suit_classes = classes["suit"]

    def predict(self, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``inputs``: n x 2 x INPUT_H x INPUT_W (``corner_input``); rank probabilities (n x 14, RANKS then junk)
        and suit probabilities (n x 5, SUITS then junk)."""
        self.net.setInput(np.ascontiguousarray(inputs, np.float32))
        logits = np.asarray(self.net.forward(), np.float64).reshape(len(inputs), -1)
        nr = len(self.rank_classes)
        return _softmax(logits[:, :nr]), _softmax(logits[:, nr:])

    def name(self, inputs: np.ndarray) -> list[tuple[str | None, float]]:
        """Per input, the card it names (``'Td'``; None where the rank or the suit is junk) and its confidence,
        the rank's probability times the suit's."""
        pr, ps = self.predict(inputs)
        out: list[tuple[str | None, float]] = []
        for r, s in zip(pr, ps):
            i, j = int(r.argmax()), int(s.argmax())
            code = RANKS[i] + SUITS[j] if i < len(RANKS) and j < len(SUITS) else None
            out.append((code, float(r[i] * s[j])))
        return out


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def load_corner_net(model_dir: Path) -> CornerNet | None:
    """The whole-corner classifier in ``model_dir`` (``reader_corner_cnn.onnx`` and its ``.json`` classes), or
    None when it is not there. A file that cannot be used (damaged, classes of another training run) is reported
    with a warning and None returned: the reader then reads glyphs only."""
    import warnings

    onnx_path = model_dir / "reader_corner_cnn.onnx"
    meta = model_dir / "reader_corner_cnn.json"
    if not onnx_path.exists():
        return None
    try:
        classes = json.loads(meta.read_text())
        if classes.get("rank") != list(RANKS) + ["junk"] or classes.get("suit") != list(SUITS) + ["junk"]:
            raise ValueError(f"{meta.name} lists other classes")
        net = CornerNet(onnx_path, classes)
        rank_p, suit_p = net.predict(np.zeros((1, 2, INPUT_H, INPUT_W), np.float32))
        if rank_p.shape != (1, len(RANKS) + 1) or suit_p.shape != (1, len(SUITS) + 1):
            raise ValueError(f"{onnx_path.name} gives {rank_p.shape[1] + suit_p.shape[1]} outputs, not 19")
        return net
    except (cv2.error, ValueError, OSError, AttributeError) as exc:
        warnings.warn(f"{onnx_path.name} cannot be used ({exc}); reading glyphs only", stacklevel=2)
        return None
