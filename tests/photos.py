"""The real labelled photos the reader's tests look at (``../shared/photos``, or ``$GANG_SHARED/photos``)."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np


def real_photo(name: str) -> np.ndarray:
    """One of the real labelled photos; a missing file fails the test, naming where it was looked for."""
    shared = Path(os.environ.get("GANG_SHARED", Path(__file__).resolve().parents[2] / "shared"))
    img = cv2.imread(str(shared / "photos" / "edje_pinochle_train" / "images" / name))
    assert img is not None, f"{name} is missing from {shared}/photos"
    return img
