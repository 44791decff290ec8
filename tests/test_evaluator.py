import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.batch import all_hands, evaluate_batch
from companion.cards import FULL_DECK, SUITLESS_JACK, Card, parse_cards
from companion.evaluator import (RANK_TABLE, TABLE_FILE, Category, HandError, _all_rank_keys, _rank_only_value,
                                 best_hand, category_of, describe, evaluate, explain)
from tests.oracles import assert_same_order

FIVE_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 40, Category.FOUR_OF_A_KIND: 624, Category.FULL_HOUSE: 3744, Category.FLUSH: 5108,
    Category.STRAIGHT: 10200, Category.THREE_OF_A_KIND: 54912, Category.TWO_PAIR: 123552, Category.PAIR: 1098240,
    Category.HIGH_CARD: 1302540,
}
SEVEN_CARD_COUNTS = {
    Category.STRAIGHT_FLUSH: 41584, Category.FOUR_OF_A_KIND: 224848, Category.FULL_HOUSE: 3473184,
    Category.FLUSH: 4047644, Category.STRAIGHT: 6180020, Category.THREE_OF_A_KIND: 6461620,
    Category.TWO_PAIR: 31433400, Category.PAIR: 58627800, Category.HIGH_CARD: 23294460,
}


def _counts(values: np.ndarray) -> dict[Category, int]:
    """Counts per category, the royal flushes inside the straight flushes as the usual tables count them."""
    return _merge_royal(np.bincount(values >> 21, minlength=10))


def _merge_royal(bins: np.ndarray) -> dict[Category, int]:
    counts = {Category(i): int(n) for i, n in enumerate(bins)}
    counts[Category.STRAIGHT_FLUSH] += counts.pop(Category.ROYAL_FLUSH)
    return counts


def _check_counts(got: dict[Category, int], want: dict[Category, int]) -> None:
    diffs = [f"{c.label}: got {got[c]}, want {want[c]}" for c in want if got[c] != want[c]]
    assert not diffs, "; ".join(diffs)


def test_all_five_card_hands_batch():
    values = np.concatenate([evaluate_batch(chunk) for chunk in all_hands(5)])
    assert len(values) == 2_598_960
    assert len(np.unique(values)) == 7462
    _check_counts(_counts(values), FIVE_CARD_COUNTS)
    assert (values >> 21 == Category.ROYAL_FLUSH).sum() == 4


def test_all_five_card_hands_single_call_matches_batch():
    hands = list(combinations(range(52), 5))
    single = np.fromiter((evaluate(h) for h in hands), dtype=np.int64, count=len(hands))
    assert len(np.unique(single)) == 7462
    _check_counts(_counts(single), FIVE_CARD_COUNTS)
    batch = evaluate_batch(np.array(hands[::7], dtype=np.int16))
    assert (batch == single[::7]).all()


@pytest.mark.exhaustive
def test_all_seven_card_hands():
    total = np.zeros(10, dtype=np.int64)
    distinct: set[int] = set()
    for chunk in all_hands(7):
        v = evaluate_batch(chunk)
        total += np.bincount(v >> 21, minlength=10)
        distinct.update(np.unique(v).tolist())
    assert total.sum() == 133_784_560
    assert len(distinct) == 4824
    assert total[Category.ROYAL_FLUSH] == 4324
    _check_counts(_merge_royal(total), SEVEN_CARD_COUNTS)


def test_shipped_rank_table_is_current():
    keys = _all_rank_keys()
    assert len(keys) == 73775 and TABLE_FILE.exists()
    rng = random.Random(5)
    for k in rng.sample(keys, 3000):
        assert RANK_TABLE[k] == _rank_only_value([(k >> (3 * r)) & 7 for r in range(13)])


def _random_hands(n, k, seed):
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k]


def test_order_agrees_with_phevaluator_on_200k_seven_card_hands():
    from phevaluator import evaluate_cards

    hands = _random_hands(200_000, 7, seed=11)
    theirs = [evaluate_cards(*h) for h in hands.tolist()]
    single = [evaluate(h) for h in hands.tolist()]
    assert_same_order(single, theirs)
    assert (evaluate_batch(hands) == np.array(single)).all()


def test_order_agrees_with_phevaluator_on_50k_omaha_hands():
    from phevaluator import evaluate_omaha_cards

    from companion.shapes import best, slots

    hands = _random_hands(50_000, 9, seed=12).tolist()
    theirs = [evaluate_omaha_cards(*h) for h in hands]
    ours = [best([Card(c) for c in h[5:]], slots([Card(c) for c in h[:5]]), "omaha").value for h in hands]
    assert_same_order(ours, theirs)


def test_order_agrees_with_treys_on_five_and_six_cards():
    from treys import Card as TCard
    from treys import Evaluator

    ev = Evaluator()
    for k in (5, 6):
        hands = _random_hands(20_000, k, seed=k).tolist()
        theirs = [ev.evaluate([TCard.new(str(Card(c))) for c in h[:2]], [TCard.new(str(Card(c))) for c in h[2:]]) for h in hands]
        assert_same_order([evaluate(h) for h in hands], theirs)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=9, unique=True), st.permutations([0, 1, 2, 3]), st.randoms())
def test_value_ignores_order_and_suit_names(cards, perm, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    renamed = [(c // 4) * 4 + perm[c % 4] for c in cards]
    assert evaluate(cards) == evaluate(shuffled) == evaluate(renamed)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=10, unique=True))
def test_best_five_make_the_value(cards):
    hand = best_hand(cards)
    assert len(hand.five) == 5 and set(hand.five) <= set(cards)
    assert evaluate(hand.five) == hand.value
    # brute force over every five-card subset (also covers 8-10 cards, beyond the shipped table)
    assert hand.value == max(evaluate(c) for c in combinations(cards, 5))


@pytest.mark.parametrize("cards,label,words", [
    ("As Ks Qs Js Ts 2d 3c", "royal flush", "royal flush"),
    ("5d 4d 3d 2d Ad Kc Kh", "straight flush", "straight flush to the 5"),
    ("9c 9d 9h 9s Kd 2c 3h", "four of a kind", "four 9s with king"),
    ("Qc Qd Qh 4s 4d 4c 2h", "full house", "full house, queens over 4s"),
    ("Ah Jh 9h 6h 2h Ks Kd", "flush", "flush, ace-jack-9-6-2"),
    ("Ac 2d 3h 4s 5c Kd Kh", "straight", "straight to the 5"),
    ("7c 7d 7h Ks 2d 3c 9h", "three of a kind", "three 7s with king-9"),
    ("Jc Jd 4h 4s Ad 3c 9h", "two pair", "two pair, jacks and 4s with ace"),
    ("2c 2d Ah Tc 7s", "pair", "pair of 2s with ace-10-7"),
    ("Ac Qd 9h 7s 4d 3c 2h", "high card", "ace high with queen-9-7-4"),
])
def test_categories_and_words(cards, label, words):
    hand = best_hand(parse_cards(cards))
    assert hand.category.label == label
    assert hand.describe() == words


def test_wheel_reads_five_down_to_ace():
    hand = best_hand(parse_cards("Ac 2d 3h 4s 5c"))
    assert [str(c) for c in hand.five] == ["5c", "4s", "3h", "2d", "Ac"]
    assert evaluate(parse_cards("Ac 2d 3h 4s 5c")) < evaluate(parse_cards("2d 3h 4s 5c 6c"))


def test_no_wrap_around_straight():
    assert category_of(evaluate(parse_cards("Kc Ad 2h 3s 4c"))) == Category.HIGH_CARD


def test_suits_never_break_ties():
    assert evaluate(parse_cards("Ah Kh Qd Jc 9s")) == evaluate(parse_cards("As Ks Qc Jd 9h"))


def test_explain_kicker_from_the_rulebook():
    trudy = best_hand(parse_cards("2c 2d Ah Jc 7s"))
    arsene = best_hand(parse_cards("2h 2s Ad Tc 7d"))
    assert explain(trudy, arsene) == (
        "Both have a pair of 2s and the same ace; then jack beats 10 (second kicker), so pair of 2s with ace-jack-7 wins.")
    assert explain(arsene, trudy) == explain(trudy, arsene)


def test_explain_other_cases():
    assert explain(evaluate(parse_cards("2c 2d Ah Tc 7s")), evaluate(parse_cards("2h 2s Ad Tc 7d"))) == (
        "A true tie: both make pair of 2s with ace-10-7, and suits never break a tie.")
    assert explain(evaluate(parse_cards("Ac 2d 3h 4s 5c")), evaluate(parse_cards("Kc Kd 3h 4s 9c"))) == (
        "Straight beats pair: straight to the 5 against pair of kings with 9-4-3.")
    assert explain(evaluate(parse_cards("Kc Kd 3h 3s 9c")), evaluate(parse_cards("Kh Ks 4h 4s 2c"))) == (
        "Both have two pair; the second pair decides: 4s beat 3s, so two pair, kings and 4s with 2 wins.")
    assert explain(evaluate(parse_cards("Qc Qd Qh 2s 2c")), evaluate(parse_cards("Jh Js Jd As Ac"))) == (
        "Both have a full house; the three of a kind decides: queens beat jacks, so full house, queens over 2s wins.")
    assert explain(evaluate(parse_cards("Ah Jh 9h 6h 3h")), evaluate(parse_cards("As Js 9s 6s 2s"))) == (
        "Both have a flush led by ace, jack, 9, 6; then 3 beats 2 (fifth card), so flush, ace-jack-9-6-3 wins.")


def test_suitless_jack_never_makes_a_flush():
    # four hearts and the suitless Jack: no flush, just jack high
    hand = best_hand([*parse_cards("Ah 9h 6h 3h"), SUITLESS_JACK])
    assert hand.category == Category.HIGH_CARD
    # but it does make straights and pairs
    assert best_hand([*parse_cards("Ah Kd Qs Tc"), SUITLESS_JACK]).describe() == "straight to the ace"
    assert best_hand([*parse_cards("Jh 2d 5s 8c"), SUITLESS_JACK]).describe() == "pair of jacks with 8-5-2"


def test_suitless_jack_with_the_four_jacks():
    five_jacks = [*parse_cards("Jc Jd Jh Js 2c 3d"), SUITLESS_JACK]
    hand = best_hand(five_jacks)
    assert hand.describe() == "four jacks with jack"
    assert len(hand.five) == 5 and all(c.rank == 11 for c in hand.five)
    # a four of jacks with the fifth jack as kicker beats jacks with a 10 and loses to jacks with a queen
    assert evaluate(parse_cards("Jc Jd Jh Js Tc")) < hand.value < evaluate(parse_cards("Jc Jd Jh Js Qc"))


def test_jokers_and_duplicates_are_refused():
    with pytest.raises(HandError, match="joker"):
        evaluate([*parse_cards("As Kd 2c 3c"), Card.parse("joker")])
    with pytest.raises(HandError, match="appears twice"):
        best_hand(parse_cards("As As Kd 2c 3c"))
    for bad in ([-1, 2, 3, 4, 5], [60, 2, 3, 4, 5, 6, 7], ["As", 2, 3, 4, 5, 6], [None, 1, 2, 3, 4, 5, 6, 7]):
        with pytest.raises(HandError, match="not a card"):
            evaluate(bad)


def test_fewer_than_five_cards_for_teaching():
    assert describe(evaluate(parse_cards("Ah Ad"))) == "pair of aces"
    assert evaluate(parse_cards("Ah Ad")) > evaluate(parse_cards("Ah Kd"))


def test_batch_rejects_bad_input():
    with pytest.raises(ValueError):
        evaluate_batch(np.zeros((3, 4), dtype=int))
    with pytest.raises(ValueError):
        evaluate_batch(np.full((3, 5), 52))
