"""Deck enrolment round trip: pictures -> proposed labels -> stored prototypes -> reads of that deck."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.vision_bench import _laid
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


ALL54 = [r + s for s in "cdhs" for r in "23456789TJQKA"] + ["JR", "JB"]


@pytest.fixture(scope="module")
def joker_deck(reader: Reader) -> tuple[EnrolledDeck, list]:
    """The held-out deck enrolled with its two jokers, from one picture of all 54 cards, no labels given."""
    img, truth = layout_picture(HELD_OUT_DECK, ALL54, seed=11, cols=14)
    seen = propose(collect(reader, [("all.png", img)]))
    return build_deck("with-jokers", seen, reader), [(c, truth) for c in seen]




def test_jokers_are_the_cards_left_over(joker_deck) -> None:
    deck, seen = joker_deck
    assert len(seen) == 54
    # Every proposal is the card lying there, the two jokers included, red and black told apart by their ink.
    assert [c.proposed for c, truth in seen] == [_laid(c.quad, truth) for c, truth in seen]
    assert deck.jokers and deck.info["jokers"] == 2


def test_enrolled_jokers_are_read_and_stored(joker_deck, tmp_path) -> None:
    deck, _ = joker_deck
    deck.save(tmp_path)
    loaded = EnrolledDeck.load("with-jokers", tmp_path)
    assert loaded.jokers and sorted(loaded.joker_red) == [52, 53]
    enrolled = Reader()
    enrolled.deck = loaded
    img, truth = layout_picture(HELD_OUT_DECK, ["JB", "7c", "JR", "Qh"], seed=31, cols=4)
    got = {_laid(r.quad, truth): r.code for r in enrolled.read_still(img)}
    assert got == {"JB": "JB", "7c": "7c", "JR": "JR", "Qh": "Qh"}


def test_backs_are_not_jokers(joker_deck) -> None:
    deck, _ = joker_deck
    enrolled = Reader()
    enrolled.deck = deck
    img, _ = layout_picture(HELD_OUT_DECK, ["BACK_BLUE", "BACK_RED", "5d", "BACK_BLUE"], seed=32, cols=4)
    codes = [r.code for r in enrolled.read_still(img)]
    assert "5d" in codes and not any(c in ("JR", "JB") for c in codes)


def test_labels_name_the_jokers(reader: Reader, tmp_path) -> None:
    img, truth = layout_picture(HELD_OUT_DECK, ["Ah", "JR", "Kh", "JB"], seed=33, cols=4)
    f = tmp_path / "labels.csv"
    f.write_text("image,cards\nj.png,Ah Kh JR JB\n")
    seen = propose(collect(reader, [("j.png", img)]), read_labels(f))
    assert sorted(c.proposed for c in seen) == ["Ah", "JB", "JR", "Kh"]
    assert all(c.proposed == _laid(c.quad, truth) for c in seen)


def test_a_deck_without_jokers_claims_none(reader: Reader, tmp_path) -> None:
    img, _ = layout_picture(HELD_OUT_DECK, CODES[:6], seed=34, cols=6)
    deck = build_deck("plain", propose(collect(reader, [("p.png", img)])), reader)
    assert not deck.jokers and deck.joker_in(img, np.array([[0, 0], [10, 0], [10, 14], [0, 14]], np.float32)) is None
    # A deck stored before jokers were enrolled (no looks in the file) still loads.
    np.savez_compressed(tmp_path / "old.npz", prototypes=deck.prototypes, labels=deck.labels, mean=deck.mean,
                        std=deck.std, info="{}")
    assert not EnrolledDeck.load("old", tmp_path).jokers


def test_more_than_54_cards_is_an_error(reader: Reader) -> None:
    from companion.vision.enrol import SeenCard

    seen = [SeenCard("x.png", np.zeros((4, 2), np.float32), [], None) for _ in range(55)]
    with pytest.raises(EnrolError, match="55 cards"):
        propose(seen)


def test_a_joker_that_reads_a_little_like_a_card_does_not_take_its_place(reader: Reader) -> None:
    # In this layout the black joker's corner read a little like the queen of hearts, whose own corners did not
    # read at all: as "the cards left over", the queen was called a joker and the joker the queen. With a column
    # per joker in the assignment, scored by how much a card reads as a joker, each gets its own.
    img, truth = layout_picture("byronknoll_vector", ALL54, seed=5, cols=14)
    seen = propose(collect(reader, [("deck.png", img)]))
    assert len(seen) == 54
    assert [c.proposed for c in seen] == [_laid(c.quad, truth) for c in seen]
