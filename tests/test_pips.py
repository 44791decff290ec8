"""A number card's rank from its pips (``companion.vision.pips``), and the reader naming a whole card by them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import CardRead
from companion.vision.pips import count_pips
from companion.vision.reader import Reader
from companion.vision.reader_layout import layout_picture
from companion.vision.synthetic import available_decks
from tests.photos import real_photo

NUMBERS = [r + s for r in "23456789T" for s in "cdhs"]
PICTURES = [r + s for r in "JQKA" for s in "cdhs"]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


@pytest.mark.parametrize("deck", available_decks())
def test_number_cards_are_counted_right_or_not_at_all(deck: str) -> None:
    """Every two to ten of each shared deck, a little askew on a mat, 140 px wide: a count is never wrong, and
    nearly every card gets one (when written, 31 to 36 of a deck's 36: small diamonds and a nine whose middle pip
    touches its neighbour say nothing)."""
    img, truth = layout_picture(deck, NUMBERS, seed=11, cols=9, card_w=140)
    counted = 0
    for code, quad in truth:
        p = count_pips(img, quad)
        if p is not None:
            assert p.count == "23456789T".index(code[0]) + 2, (code, p.count)
            counted += 1
    assert counted >= 28, counted


@pytest.mark.parametrize("deck", available_decks())
def test_court_cards_and_aces_are_never_named_by_their_pips(reader: Reader, deck: str) -> None:
    """A court card's picture or frame may break into blobs that look like a two's pips, and an ace's pip into
    two halves; none of them is named from pips (the pips' shapes must all read as one suit, and a picture
    is too big a blob)."""
    img, truth = layout_picture(deck, PICTURES, seed=12, cols=8, card_w=100)
    for code, quad in truth:
        assert reader._read_pips(img, CardRead(None, 0.0, quad)) is None, code


def test_a_counted_card_is_named_with_the_suit_its_pips_show(reader: Reader) -> None:
    img, truth = layout_picture("saulspatz_vertical2", ["3s", "9h", "5c"], seed=13, cols=3, card_w=110)
    for code, quad in truth:
        got = reader._read_pips(img, CardRead(None, 0.0, quad))
        assert got is not None and got.code == code, (code, got)
        assert got.confidence < 0.95  # a pip read stays below what both corners agreeing give


@pytest.mark.parametrize("code, shift", [("6h", 9), ("8s", 6)])
def test_a_ghost_image_does_not_change_the_count(code: str, shift: int) -> None:
    """A webcam's ghost (the picture doubled a few pixels down, fainter) and a little blur: the pips are still
    counted, and right."""
    img, truth = layout_picture("byronknoll_vector", [code], seed=14, cols=1, card_w=110, camera=False)
    ghost = img.astype(np.float32)
    doubled = np.clip(0.65 * ghost + 0.35 * np.roll(ghost, shift, axis=0), 0, 255).astype(np.uint8)
    doubled = np.asarray(cv2.GaussianBlur(doubled, (5, 5), 1.2), np.uint8)
    p = count_pips(doubled, truth[0][1])
    assert p is not None and p.count == int(code[0])


def test_a_card_whose_indices_are_lost_is_named_by_its_pips(reader: Reader) -> None:
    """Both index corners of a lone seven painted over with paper: the reader names it from its pips; with pip
    reads turned off it cannot."""
    img, truth = layout_picture("saulspatz_gang4colour", ["7c", "Kd", "4h"], seed=15, cols=3, card_w=140)
    quad = truth[0][1]
    paper = img[int(quad[:, 1].mean()), int(quad[:, 0].mean())].copy()
    for k in range(4):  # paint a patch over each corner, inside the card
        c = quad[k] + 0.22 * (quad[(k + 1) % 4] - quad[k]) + 0.16 * (quad[(k + 3) % 4] - quad[k])
        cv2.circle(img, (int(c[0]), int(c[1])), 20, tuple(int(v) for v in paper), -1)
    codes = [r.code for r in reader.read_still(img)]
    assert "7c" in codes, codes
    reader.pip_reads = False
    try:
        assert "7c" not in [r.code for r in reader.read_still(img)]
    finally:
        reader.pip_reads = True


def test_a_real_nine_with_a_ghosted_index_is_named_by_its_pips(reader: Reader) -> None:
    """A real webcam picture (the tuning half): a nine of spades whose index a ghost image blurs past reading;
    its nine pips name it."""
    img = real_photo("train_cam_image41.jpg")
    x1, y1, x2, y2 = 317, 271, 481, 496
    here = [str(r.code) for r in reader.read_still(img) if x1 <= r.centre[0] <= x2 and y1 <= r.centre[1] <= y2]
    assert here == ["9s"], here
