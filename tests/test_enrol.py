"""Deck enrolment round trip: pictures -> proposed labels -> stored prototypes -> reads of that deck."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.enrol import EnrolError, EnrolledDeck, build_deck, collect, propose, read_labels
from companion.vision.glyphs import HELD_OUT_DECK
from companion.vision.reader import Reader
from companion.vision.reader_layout import layout_picture

CODES = [r + s for s in "hs" for r in "23456789TJQKA"]


@pytest.fixture(scope="module")
def reader() -> Reader:
    return Reader()


def test_enrol_round_trip(reader: Reader, tmp_path) -> None:
    img, truth = layout_picture(HELD_OUT_DECK, CODES, seed=21)
    seen = propose(collect(reader, [("a.png", img)]))
    assert len(seen) == len(CODES)
    proposed = sorted(c.proposed for c in seen if c.proposed)
    assert len(set(proposed)) == len(proposed)  # each card at most once
    # Every proposal equals the card at that spot (fix any the crew would have fixed).
    centres = np.array([q.mean(axis=0) for _, q in truth])
    wrong = 0
    for c in seen:
        code = truth[int(np.argmin(np.linalg.norm(centres - c.quad.mean(axis=0), axis=1)))][0]
        wrong += c.proposed != code
        c.proposed = code
    assert wrong <= 2
    deck = build_deck("test-deck", seen, reader)
    deck.save(tmp_path)
    loaded = EnrolledDeck.load("test-deck", tmp_path)
    enrolled = Reader()
    enrolled.deck = loaded
    img2, truth2 = layout_picture(HELD_OUT_DECK, CODES[::-1], seed=22)
    reads = enrolled.read_still(img2)
    got = sorted(r.code for r in reads if r.code)
    assert got == sorted(CODES)


def test_labels_constrain_the_assignment(reader: Reader, tmp_path) -> None:
    img, truth = layout_picture(HELD_OUT_DECK, ["Ah", "Kh", "Qh"], seed=23, cols=3)
    f = tmp_path / "labels.csv"
    f.write_text("image,cards\nx.png,Ah Kh Qh\n")
    allowed = read_labels(f)
    seen = propose(collect(reader, [("x.png", img)]), allowed)
    assert sorted(c.proposed for c in seen) == ["Ah", "Kh", "Qh"]


def test_bad_names() -> None:
    with pytest.raises(EnrolError):
        EnrolledDeck.load("../etc", "/tmp")
    with pytest.raises(EnrolError):
        EnrolledDeck.load("nosuchdeck", "/tmp/definitely-not-here")
