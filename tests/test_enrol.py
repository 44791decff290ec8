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


def test_a_deck_laid_out_on_a_white_table_is_found_and_named(reader: Reader) -> None:
    # On a table as light as the cards, the detector alone ran touching cards together (44 of 54 found here),
    # and its outlines ran round the cards' edges, so a corner frame held the edge as a glyph (a 3 of diamonds
    # "read" as a 6 of clubs). The reader's own outlines, taken in where they do not read, find and name all.
    from benchmarks.vision_bench import WHITE_TABLE

    img, truth = layout_picture("saulspatz_gang4colour", ALL54, seed=21, cols=14, mat=WHITE_TABLE)
    seen = propose(collect(reader, [("white.png", img)]))
    assert len(seen) == 54
    assert [c.proposed for c in seen] == [_laid(c.quad, truth) for c in seen]


def test_jokers_keep_their_own_names_when_cards_are_missing(reader: Reader) -> None:
    # Fewer than 53 cards in the pictures (some not laid out, or not found): the jokers still get a column each,
    # so neither takes a missing card's name, and no read card is pushed along to make room.
    codes = ALL54[::2][:20] + ["JR", "JB"]
    img, truth = layout_picture(HELD_OUT_DECK, codes, seed=35, cols=11)
    seen = propose(collect(reader, [("some.png", img)]))
    assert len(seen) == len(codes)
    assert [c.proposed for c in seen] == [_laid(c.quad, truth) for c in seen]


class _Outlines:
    """A stand-in reader whose ``read_still`` gives fixed reads."""

    def __init__(self, reads: list) -> None:
        self.reads = reads

    def read_still(self, image: np.ndarray) -> list:
        return self.reads


def test_an_outline_holding_several_cards_gives_the_card_read_at_its_corner() -> None:
    from companion.vision import CardRead
    from companion.vision.enrol import card_outlines

    def card(x: float, y: float, w: float = 100, h: float = 140) -> np.ndarray:
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)

    reads = [CardRead("7c", 0.9, card(300, 0)), CardRead("8c", 0.9, card(420, 0)),
             CardRead("9h", 0.9, card(0, 0, 220, 300)),  # four cards in a square, read as the one at its corner
             CardRead(None, 0.0, card(600, 0, 240, 300)),  # a block nothing names: not a card
             CardRead(None, 0.0, card(305, 5)),  # the 7 of clubs again (a second outline of it)
             CardRead("BACK", 0.6, card(0, 200), face_down=True)]  # a "back" in a deck laid face up: a card
    out = card_outlines(_Outlines(reads), np.zeros((400, 900, 3), np.uint8))  # type: ignore[arg-type]
    assert [q.tolist() for q in out] == [card(300, 0).tolist(), card(420, 0).tolist(), card(0, 0).tolist(),
                                         card(0, 200).tolist()]


def _sure(image: str, code: str) -> "SeenCard":
    """A seen card whose two corners both read ``code`` clearly."""
    from companion.vision.enrol import SeenCard
    from companion.vision.glyphs import RANKS, SUITS
    from companion.vision.reader import CornerRead

    rank_p, suit_p = np.full(13, 0.01), np.full(4, 0.02)
    rank_p[RANKS.index(code[0])], suit_p[SUITS.index(code[1])] = 0.88, 0.94
    read = CornerRead(rank_p, suit_p, 0.0, None, code[1] in "hd", None)
    return SeenCard(image, np.zeros((4, 2), np.float32), [read, read], code)


def test_the_same_layout_taken_twice_is_labelled_picture_by_picture() -> None:
    # Two pictures of the whole deck (the crew took the layout twice): 104 cards, more than a deck holds. Each
    # picture is labelled on its own; a correction in one picture may name a card the other picture holds too,
    # and a card named twice within one picture is refused, naming the picture, with nothing changed.
    codes = [r + s for s in "cdhs" for r in "23456789TJQKA"]
    seen = [_sure("a.png", c) for c in codes] + [_sure("b.png", c) for c in reversed(codes)]
    propose(seen)
    assert [c.proposed for c in seen] == codes + codes[::-1]
    propose(seen, fixed={0: "3c", 1: "2c", 52: "Ah"})  # card 53 is the ace of spades in b.png, called a heart
    assert [c.proposed for c in seen[:2]] == ["3c", "2c"] and seen[52].proposed == "Ah" and \
        seen[52 + codes[::-1].index("Ah")].proposed == "As"
    before = [c.proposed for c in seen]
    with pytest.raises(EnrolError, match="b.png"):
        propose(seen, fixed={52: "Kd", 53: "Kd"})
    assert [c.proposed for c in seen] == before
    # One picture holding more than a deck is still an error.
    with pytest.raises(EnrolError, match="104 cards"):
        propose([_sure("one.png", c) for c in codes * 2])


def test_a_picture_that_is_no_picture_is_named_with_its_file(reader: Reader) -> None:
    with pytest.raises(ValueError, match=r"^shelf\.png: an empty picture"):
        collect(reader, [("shelf.png", np.zeros((0, 0, 3), np.uint8))])
    assert collect(reader, [("grey.png", np.full((60, 80), 90, np.uint8))]) == []  # grey is a picture: no cards
