"""The card reader ring: camera frames in, card reads out, checked by table logic before the engine sees them.

Modules (one job each):

- ``sources``   frame sources behind one protocol: Pi camera, video/webcam, folder of images, synthetic
- ``synthetic`` composed table pictures with full ground truth, for tests and benchmarks
- ``zones``     table zones (community row, seats, ...) as polygons in normalised image coordinates
- ``table``     pure logic: settle detection, voting over frames, zone assignment, flags for the crew
- ``detect`` / ``reader`` / ``enrol``  find cards and read their corner indices (the reader's side)

The one type both sides share is :class:`CardRead`: the reader produces a list of them per frame and the
table logic consumes those lists. It lives here so that importing it needs only numpy.

>>> import numpy as np
>>> r = CardRead("Td", 0.97, np.array([[10, 10], [60, 10], [60, 85], [10, 85]]), "tl", False)
>>> r.code, r.centre.tolist()
('Td', [35.0, 47.5])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

__all__ = ["CardRead", "Corner", "CORNERS", "BACK", "FrameReads"]

Corner = Literal["tl", "tr", "br", "bl", "none"]
CORNERS: tuple[str, ...] = ("tl", "tr", "br", "bl")

# The code of a face-down card (its back is showing).
BACK = "BACK"


@dataclass(eq=False)
class CardRead:
    """One reading of one card in one frame, as the reader saw it.

    - ``code``: the card as ``str(companion.cards.Card)`` writes it ('As', 'Td', 'JR', 'JB', 'JACK'), ``'BACK'``
      for a face-down card, or ``None`` when a card is there but its index could not be read.
    - ``confidence``: 0..1, the reader's belief in ``code``.
    - ``quad``: the whole card's outline, 4x2 float (x, y) in PIXELS of the frame that was read, clockwise starting
      at the card's printed top-left (the corner whose index stands upright). When part of the card is hidden
      (the lower card of a pocket pair), the reader extrapolates the full outline from what it sees: the table
      logic groups reads of the same card by the quad's centre, so two corner reads of one card must give
      (nearly) the same quad.
    - ``corner``: which corner index this reading came from ('tl' or 'br' on most decks, 'tr'/'bl' on
      four-index decks); 'none' for a read not tied to one corner (a face-down card, a whole-card classifier).
      One card can give several reads in one frame, one per visible corner; the table logic checks they agree.
    - ``face_down``: True when the back of the card is showing (``code`` is then 'BACK' or None).
    """

    code: str | None
    confidence: float
    quad: np.ndarray
    corner: str = "none"
    face_down: bool = False
    # Optional extras; the table logic does not need them.
    index_box: np.ndarray | None = None  # 4x2 pixels around the corner index that was read
    alternatives: tuple[tuple[str, float], ...] = field(default=())  # runner-up codes and their scores

    def __post_init__(self) -> None:
        quad = np.asarray(self.quad, dtype=np.float32).reshape(4, 2)
        object.__setattr__(self, "quad", quad)
        if self.corner not in CORNERS + ("none",):
            raise ValueError(f"corner must be one of {CORNERS + ('none',)}, not {self.corner!r}")
        if not 0.0 <= float(self.confidence) <= 1.0:
            raise ValueError(f"confidence must be in 0..1, not {self.confidence!r}")

    @property
    def centre(self) -> np.ndarray:
        """Centre of the card outline, pixels (x, y)."""
        return np.asarray(self.quad.mean(axis=0), dtype=np.float64)

    @property
    def short_side(self) -> float:
        """Length of the card's shorter side, pixels."""
        q = self.quad.astype(np.float64)
        sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
        return float(min(sides[0] + sides[2], sides[1] + sides[3]) / 2)


# What the reader returns for one frame.
FrameReads = list[CardRead]
