"""The rank and suit classifiers of the generic reader: a small multilayer perceptron in numpy on hand-made
glyph features, a small convolutional network run by OpenCV's ``cv2.dnn`` on the glyph itself, and the pair.

- ``GlyphMLP``: one ``.npz`` per classifier (weights, feature standardisation, class names); three matrix
  products, well under a millisecond per glyph on a Pi, nothing beyond numpy.
- ``GlyphCNN``: one ``.onnx`` per classifier (class names in a ``.json`` beside it), trained by
  ``tools/train_reader.py`` with PyTorch (a training-only tool); at run time only OpenCV is needed.
- ``GlyphPair``: both, their probabilities averaged (their mistakes differ, so the pair is surer than either).

All three answer ``predict_proba_from(features, boxes)``: ``features`` from ``reader_glyph.glyph_features``,
``boxes`` from ``reader_glyph.glyph_box`` (N x 32 x 32 floats in 0..1), one row per glyph.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


class GlyphMLP:
    """features -> ReLU -> ReLU -> softmax over ``classes``."""

    def __init__(self, weights: list[np.ndarray], mean: np.ndarray, std: np.ndarray, classes: list[str]):
        self.weights = weights  # W1, b1, W2, b2, W3, b3
        self.mean = mean.astype(np.float32)
        self.std = std.astype(np.float32)
        self.classes = list(classes)

    @classmethod
    def load(cls, path: str | Path) -> "GlyphMLP":
        z = np.load(str(path), allow_pickle=False)
        weights = [z[f"w{i}"].astype(np.float32) for i in range(6)]
        return cls(weights, z["mean"], z["std"], [str(c) for c in z["classes"]])

    def save(self, path: str | Path) -> None:
        arrays = {f"w{i}": w.astype(np.float16 if w.ndim == 2 else np.float32) for i, w in enumerate(self.weights)}
        # numpy's stub also matches **arrays against savez_compressed's allow_pickle: bool; passing
        # allow_pickle explicitly would save an array of that name on numpy versions without the keyword
        # (pyproject allows numpy 1.24), so the stub is overruled here.
        np.savez_compressed(str(path), mean=self.mean, std=self.std, classes=np.array(self.classes),
                            **arrays)  # type: ignore[arg-type]  # see above: the ** values are arrays, not flags

    def logits(self, x: np.ndarray) -> np.ndarray:
        h = (np.atleast_2d(x).astype(np.float32) - self.mean) / self.std
        w1, b1, w2, b2, w3, b3 = self.weights
        h = np.maximum(h @ w1 + b1, 0)
        h = np.maximum(h @ w2 + b2, 0)
        out: np.ndarray = h @ w3 + b3
        return out

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        return softmax(self.logits(x))

    def predict_proba_from(self, features: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        return self.predict_proba(features)


class GlyphCNN:
    """A convolutional classifier of normalised glyph boxes, run with ``cv2.dnn`` from an ONNX file."""

    def __init__(self, path: str | Path):
        import json

        import cv2

        path = Path(path)
        # OpenCV 5's new engine runs these small networks about 1.6 times slower than the classic one (one
        # glyph at a time, on one core); OpenCV 4 has only the classic engine and no engine argument.
        classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        self.net = cv2.dnn.readNetFromONNX(str(path)) if classic is None else \
            cv2.dnn.readNetFromONNX(str(path), classic)
        meta = json.loads(path.with_suffix(".json").read_text())
        self.classes = [str(c) for c in meta["classes"]]

    def predict_proba_from(self, features: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        x = np.ascontiguousarray(np.asarray(boxes, np.float32).reshape(-1, 1, 32, 32))
        self.net.setInput(x)
        return softmax(np.asarray(self.net.forward(), np.float32).reshape(len(x), -1))


class GlyphPair:
    """The MLP and the CNN together: the mean of their probabilities (same classes, same order)."""

    def __init__(self, mlp: GlyphMLP, cnn: GlyphCNN):
        if mlp.classes != cnn.classes:
            raise ValueError(f"classifier classes differ: {mlp.classes} vs {cnn.classes}")
        self.mlp, self.cnn = mlp, cnn
        self.classes = mlp.classes
        self.mean, self.std = mlp.mean, mlp.std  # the feature standardisation enrolment reuses
        self.junk = self.classes.index("junk") if "junk" in self.classes else None

    def predict_proba_from(self, features: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        p = self.mlp.predict_proba_from(features, boxes)
        # What the MLP calls junk with 90 % is not read either way: the CNN is asked about the rest only
        # (most glyphs tried at guessed corners are junk, and each CNN call costs about 0.1 ms).
        ask = p[:, self.junk] < 0.9 if self.junk is not None else np.ones(len(p), bool)
        if ask.any():
            p[ask] = 0.5 * (p[ask] + self.cnn.predict_proba_from(features[ask], np.asarray(boxes)[ask]))
        return p


def load_classifier(folder: str | Path, name: str) -> "GlyphMLP | GlyphPair":
    """``name`` ('rank' or 'suit') from ``folder``: the MLP, paired with the CNN when its ONNX file is there.
    A CNN file that cannot be used (damaged, from another training run) is reported with a warning and the
    MLP reads alone: the table keeps working."""
    import json
    import warnings

    import cv2

    folder = Path(folder)
    mlp = GlyphMLP.load(folder / f"reader_{name}.npz")
    onnx = folder / f"reader_{name}_cnn.onnx"
    if onnx.exists() and onnx.with_suffix(".json").exists():
        try:
            pair = GlyphPair(mlp, GlyphCNN(onnx))
            pair.cnn.predict_proba_from(np.zeros((1, 1), np.float32), np.zeros((1, 32, 32), np.float32))
            return pair
        except (cv2.error, OSError, ValueError, KeyError, json.JSONDecodeError) as exc:
            warnings.warn(f"{onnx.name} cannot be used ({exc}); reading with the MLP alone", stacklevel=2)
    return mlp


def softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


def train_mlp(x: np.ndarray, y: np.ndarray, classes: list[str], hidden: tuple[int, int] = (192, 96),
              epochs: int = 30, batch: int = 256, lr: float = 2e-3, weight_decay: float = 1e-4,
              seed: int = 0, label: str = "") -> GlyphMLP:
    """Adam on cross-entropy with label smoothing; prints one progress line per epoch."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-3
    xs = ((x - mean) / std).astype(np.float32)
    sizes = [x.shape[1], hidden[0], hidden[1], len(classes)]
    params = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        params += [(rng.normal(0, np.sqrt(2.0 / a), (a, b))).astype(np.float32), np.zeros(b, np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    n = len(xs)
    t = 0
    onehot = np.full((len(classes), len(classes)), 0.05 / (len(classes) - 1), np.float32)
    np.fill_diagonal(onehot, 0.95)
    for ep in range(epochs):
        order = rng.permutation(n)
        rate = lr * 0.5 * (1 + np.cos(np.pi * ep / epochs))
        loss_sum = 0.0
        for i in range(0, n, batch):
            idx = order[i:i + batch]
            xb = xs[idx] + rng.normal(0, 0.05, (len(idx), xs.shape[1])).astype(np.float32)
            yb = onehot[y[idx]]
            w1, b1, w2, b2, w3, b3 = params
            a1 = xb @ w1 + b1
            h1 = np.maximum(a1, 0)
            a2 = h1 @ w2 + b2
            h2 = np.maximum(a2, 0)
            p = softmax(h2 @ w3 + b3)
            loss_sum += float(-(yb * np.log(p + 1e-9)).sum())
            g3 = (p - yb) / len(idx)
            gw3, gb3 = h2.T @ g3, g3.sum(0)
            g2 = (g3 @ w3.T) * (a2 > 0)
            gw2, gb2 = h1.T @ g2, g2.sum(0)
            g1 = (g2 @ w2.T) * (a1 > 0)
            gw1, gb1 = xb.T @ g1, g1.sum(0)
            grads = [gw1, gb1, gw2, gb2, gw3, gb3]
            t += 1
            for k, (pk, gk) in enumerate(zip(params, grads)):
                if pk.ndim == 2:
                    gk = gk + weight_decay * pk
                m[k] = 0.9 * m[k] + 0.1 * gk
                v[k] = 0.999 * v[k] + 0.001 * gk * gk
                mh = m[k] / (1 - 0.9 ** t)
                vh = v[k] / (1 - 0.999 ** t)
                pk -= rate * mh / (np.sqrt(vh) + 1e-8)
        _bar(f"train {label}", ep + 1, epochs, f"loss {loss_sum / n:.3f}")
    return GlyphMLP(params, mean, std, classes)


def _bar(label: str, done: int, total: int, extra: str = "") -> None:
    width = 30
    fill = int(width * done / max(total, 1))
    sys.stderr.write(f"\r{label:<22} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} {extra}   ")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()
