"""Switches that take the card detector back to a simpler self, so a test can show what a later route adds."""

from __future__ import annotations

import pytest


def no_light_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    """The detector never takes the picture for cards on a light cloth (``detect._light_mat``), so that what its
    edges enclose is not looked at, and parts cards from a cloth as bright as they are only at sharp steps
    (``detect.GLARE_BARRIER``): the paper mask alone, as where a card's edge is too faint for either."""
    from companion.vision import detect

    monkeypatch.setattr(detect, "LIGHT_PAPER", 1.1)
    monkeypatch.setattr(detect, "LIGHT_L", 256)
    monkeypatch.setattr(detect, "GLARE_BARRIER", detect.SHARP_STEP)
