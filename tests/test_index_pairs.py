"""Whole cards found by their two corner indices where no outline shows them (``index_pairs``)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision.detect import detect_cards
from companion.vision.index_pairs import index_cards
from companion.vision.reader import Reader
from tests.detector_switches import no_light_mode
from tests.photos import real_photo


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def _on_paper(deck: str, code: str, angle: float, card_w: float = 110, seed: int = 0
              ) -> tuple[np.ndarray, np.ndarray]:
    """One card turned ``angle`` degrees on a sheet of white paper on a dark table, a little soft and noisy; its
    outline clockwise from the printed top-left."""
    from companion.vision.synthetic import _paste, card_image

    rng = np.random.default_rng(seed)
    img = np.full((600, 800, 3), (60, 70, 90), np.uint8)
    cv2.rectangle(img, (120, 60), (700, 560), (228, 232, 236), -1)
    card = card_image(deck, code)
    card_h = card_w * card.shape[0] / card.shape[1]
    a = math.radians(angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    q = (np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * [card_w / 2, card_h / 2]) @ rot.T + [400, 300]
    _paste(img, card, q)
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    return np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8), q


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The farthest of the truth's corners from the nearest corner of ``found`` (pixels)."""
    return max(float(np.min(np.linalg.norm(found - p, axis=1))) for p in truth)


def test_a_card_on_white_paper_is_found_by_its_two_indices(reader: Reader, monkeypatch: pytest.MonkeyPatch) -> None:
    """The paper mask takes the card in with the sheet it lies on, and its border line is too faint for an
    outline from edges: only its indices show where it is. (The sheet fills most of the picture: the detector
    looks at what edges enclose there too, and finds this card so; not here.)"""
    img, truth = _on_paper("byronknoll_vector", "9h", 20)
    assert detect_cards(img).light
    no_light_mode(monkeypatch)
    det = detect_cards(img)
    assert not det.quads and not det.edge_quads
    found = index_cards(img)
    assert len(found) == 1 and _corner_error(found[0], truth) < 0.08 * 110
    reader.pair_indices = False
    try:
        assert not [r for r in reader.read_still(img) if r.code]
    finally:
        reader.pair_indices = True
    assert [r.code for r in reader.read_still(img) if r.code] == ["9h"]


@pytest.mark.parametrize("deck,code,angle", [("saulspatz_vertical2", "Ks", 5), ("saulspatz_vertical2", "2d", 60),
                                            ("saulspatz_vertical2", "9h", 20), ("byronknoll_vector", "Tc", -35),
                                            ("saulspatz_gang4colour", "Ks", 5)])
def test_the_outline_from_two_indices_lies_on_the_card(deck: str, code: str, angle: float) -> None:
    """Turned onto the card's edges, whatever its deck and its angle (the held-out deck's big suit under a small
    rank, the pips of a 9 or a 2 that pair up like indices), to a few pixels."""
    img, truth = _on_paper(deck, code, angle)
    found = index_cards(img)
    assert found and min(_corner_error(f, truth) for f in found) < 0.06 * 110


def test_a_card_read_already_is_not_looked_for_again() -> None:
    img, truth = _on_paper("byronknoll_vector", "9h", 20)
    assert index_cards(img, skip=[truth.astype(np.float32)]) == []


def test_a_page_of_text_names_no_card(reader: Reader) -> None:
    """Lines of capitals and digits stacked about a glyph apart, half of them upside down: hundreds of rank-over-
    suit pairs facing both ways at every distance, a dozen outlines that look like cards. None reads the same
    card at both corners. (A fuller page has more pairs than a table of cards makes, and is not searched.)"""
    rng = np.random.default_rng(3)
    page = np.full((244, 560, 3), 236, np.uint8)
    for row in range(8):
        line = "".join(str(rng.choice(list("A23456789JQK10SHDC"))) + (" " if rng.random() < 0.2 else "")
                       for _ in range(22))
        cv2.putText(page, line, (20, 30 + row * 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (30, 30, 30), 2)
    page[122:] = page[122:][::-1, ::-1]
    img = np.full((900, 1200, 3), (40, 90, 50), np.uint8)
    img[100:344, 300:860] = page
    assert len(index_cards(img)) >= 6
    assert not [r for r in reader.read_still(img) if r.code and not r.face_down]
    full = np.full((900, 1200, 3), (40, 90, 50), np.uint8)
    full[100:344, 300:860] = page
    full[344:588, 300:860] = page[::-1, ::-1]
    full[588:832, 300:860] = page
    assert index_cards(full) == []


@pytest.mark.parametrize("name,rank,box", [("train_IMG_2454.JPG", "9", (132, 200, 237, 351)),
                                            ("train_IMG_2478.JPG", "T", (83, 233, 288, 432)),
                                            ("train_IMG_2491.JPG", "9", (21, 250, 131, 395))])
def test_real_cards_on_paper_are_found_by_their_indices(reader: Reader, monkeypatch: pytest.MonkeyPatch, name: str,
                                                        rank: str, box: tuple[int, int, int, int]) -> None:
    """Real phone photos (the tuning half): a nine on a letter, a ten on a white place mat half in shade, a nine
    on sheets of paper among clutter. The detector found none of them (nor their size: 35, 155 and 14 px against
    about 65, 130 and 100). (Without the index pairs, a located frame the glyphs confirm, ``LOCATE_GLYPHS``, finds
    the first nine too: that is off for the check without them.)"""
    from companion.vision import reader as reader_mod

    img = real_photo(name)
    x1, y1, x2, y2 = box
    named = [r for r in reader.read_still(img) if r.code and not r.face_down
             and x1 <= r.centre[0] <= x2 and y1 <= r.centre[1] <= y2]
    assert [str(r.code)[0] for r in named] == [rank], [(r.code, r.centre) for r in named]
    reader.pair_indices = False
    monkeypatch.setattr(reader_mod, "LOCATE_GLYPHS", 0.0)
    try:
        assert not [r for r in reader.read_still(img) if r.code and not r.face_down
                    and x1 <= r.centre[0] <= x2 and y1 <= r.centre[1] <= y2]
    finally:
        reader.pair_indices = True


def test_on_a_white_cloth_the_card_size_comes_from_cards_found_by_their_indices(
        reader: Reader, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tuning scene on a white tablecloth: the paper mask runs the community row into one "hand" whose edges
    say a card is three times its size, so every card read from a corner was placed far off its card (three
    reads naming cards where there are none). Cards found by their two indices give the size instead. (What the
    edges on the cloth enclose gives it too, now; not looked at here.)"""
    from companion.vision.synthetic import render_scene

    from companion.vision import detect

    sc = render_scene(5043, deck="byronknoll_vector", mat="white_cloth", jokers=False)
    no_light_mode(monkeypatch)
    # The detector leaves out a blob too long for a hand where two hands agree on the size (HAND_ASPECT); here it
    # takes the row run together as the others, so that the size must come from elsewhere.
    monkeypatch.setattr(detect, "HAND_ASPECT", 99.0)
    cw = float(np.median([np.linalg.norm(c.quad[1] - c.quad[0]) for c in sc.cards]))

    def misplaced() -> list[str]:
        return [str(r.code) for r in reader.read_still(sc.image) if r.code and not r.face_down and not any(
            c.face_up and c.code == r.code and np.linalg.norm(r.centre - c.quad.mean(axis=0)) < 0.5 * cw
            for c in sc.cards)]

    community = {c.code for c in sc.cards if c.zone == "community"}
    reader.pair_indices = False
    try:
        assert len(misplaced()) >= 2
    finally:
        reader.pair_indices = True
    assert misplaced() == []
    assert community <= {r.code for r in reader.read_still(sc.image)}
