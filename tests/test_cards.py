import pytest

from companion.cards import (FULL_DECK, JOKERS, SUITLESS_JACK, Card, CardError, check_distinct, parse_cards)


@pytest.mark.parametrize("token,expected", [
    ("As", "As"), ("Td", "Td"), ("10d", "Td"), ("ah", "Ah"), ("A♠", "As"), ("♥Q", "Qh"), ("10♣", "Tc"),
    (" 2c ", "2c"), ("KS", "Ks"), ("1s", "As"), ("joker", "JR"), ("JB", "JB"), ("JACK", "JACK"), ("jack", "JACK"),
])
def test_parse(token, expected):
    assert str(Card.parse(token)) == expected


@pytest.mark.parametrize("token", ["", "A", "Zs", "11h", "Ax", "10", "s", "AAs", "♠", "jocker"])
def test_bad_token_names_itself(token):
    with pytest.raises(CardError) as exc:
        Card.parse(token)
    assert repr(token) in str(exc.value)


def test_bad_types():
    for bad in (None, 3.5, 52 + 10, -1, True):
        with pytest.raises(CardError):
            Card.parse(bad)  # type: ignore[arg-type]


def test_ids_round_trip_and_match_rank_times_four_plus_suit():
    assert len(FULL_DECK) == 52 and len({str(c) for c in FULL_DECK}) == 52
    for c in FULL_DECK:
        assert Card.parse(str(c)) == c
        assert c == (c.rank - 2) * 4 + c.suit
    assert Card.parse("2c") == 0 and Card.parse("As") == 51


def test_special_cards():
    assert all(j.is_joker and j.rank is None and j.suit is None for j in JOKERS)
    assert SUITLESS_JACK.rank == 11 and SUITLESS_JACK.suit is None and SUITLESS_JACK.is_suitless_jack
    assert SUITLESS_JACK.name() == "the suitless Jack"
    assert Card.parse("Qh").name() == "queen of hearts"


def test_parse_cards_and_duplicates():
    assert parse_cards("As, Kd ;2c") == [Card.parse(t) for t in ("As", "Kd", "2c")]
    with pytest.raises(CardError, match="Kd appears twice"):
        check_distinct(parse_cards("As Kd Kd"))
