"""Poker hand evaluator: pure Python with precomputed tables, exact ties, words for people.

One comparable int per hand: higher is stronger, equal exactly when the hands tie (suits never break a tie).
The int is laid out so that it can be read back: ``category << 21 | muscle << 20 | five rank nibbles``, the
nibbles in the order that decides ties (for two pair: high pair, low pair, kicker). A rank nibble is 2..14.

>>> from companion.cards import parse_cards
>>> a = evaluate(parse_cards("2c 2d Ah Tc 7s"))
>>> b = evaluate(parse_cards("2h 2s Ad Jc 7d"))
>>> b > a, category_of(a).label
(True, 'pair')
>>> print(explain(best_hand(parse_cards("2c 2d Ah Tc 7s")), best_hand(parse_cards("2h 2s Ad Jc 7d"))))
Both have a pair of 2s and the same ace; then jack beats 10 (second kicker), so pair of 2s with ace-jack-7 wins.

How a call works: each card adds a precomputed term to one int that carries a 3-bit count per rank and a 5-bit
count per suit (offset by 11, so a suit with five or more cards sets that field's top bit). No flush: one dict
lookup on the rank counts. A flush: one more lookup on the 13-bit rank mask of that suit. The best hand is the
larger of the two, which is exact for any number of cards.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from enum import IntEnum
from typing import Any, Iterable, Sequence

from companion.cards import RANK_NAMES, RANK_PLURALS, SUITLESS_JACK_ID, Card, CardError, N_CARDS, check_distinct

CATEGORY_SHIFT = 21
MUSCLE_BIT = 1 << 20
_NIBBLES_MASK = (1 << 20) - 1


class Category(IntEnum):
    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9  # the rulebook's tenth ranking: the Muscle never lifts a straight flush over it

    @property
    def label(self) -> str:
        return _CATEGORY_LABELS[self]


_CATEGORY_LABELS = {
    Category.HIGH_CARD: "high card",
    Category.PAIR: "pair",
    Category.TWO_PAIR: "two pair",
    Category.THREE_OF_A_KIND: "three of a kind",
    Category.STRAIGHT: "straight",
    Category.FLUSH: "flush",
    Category.FULL_HOUSE: "full house",
    Category.FOUR_OF_A_KIND: "four of a kind",
    Category.STRAIGHT_FLUSH: "straight flush",
    Category.ROYAL_FLUSH: "royal flush",
}

# How many cards of each decision rank the best five hold, per category (the rest are single kickers).
_SHAPE = {
    Category.HIGH_CARD: (1, 1, 1, 1, 1),
    Category.PAIR: (2, 1, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.STRAIGHT: (1,),
    Category.FLUSH: (1, 1, 1, 1, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.STRAIGHT_FLUSH: (1,),
    Category.ROYAL_FLUSH: (1,),
}
# How many leading decision ranks make the hand itself; the ones after are kickers.
_MADE = {
    Category.HIGH_CARD: 1, Category.PAIR: 1, Category.TWO_PAIR: 2, Category.THREE_OF_A_KIND: 1,
    Category.STRAIGHT: 1, Category.FLUSH: 5, Category.FULL_HOUSE: 2, Category.FOUR_OF_A_KIND: 1,
    Category.STRAIGHT_FLUSH: 1, Category.ROYAL_FLUSH: 1,
}


class HandError(ValueError):
    """Cards that cannot be evaluated (a joker, a card twice, too few cards)."""


def _pack(category: Category, ranks: Sequence[int]) -> int:
    value = int(category) << CATEGORY_SHIFT
    for i, r in enumerate(ranks):
        value |= r << (16 - 4 * i)
    return value


def _straight_top(mask: int) -> int:
    """Top rank (5..14) of the best straight in a 13-bit rank mask (bit 0 = the 2), or 0."""
    for top in range(12, 3, -1):
        run = 0b11111 << (top - 4)
        if mask & run == run:
            return top + 2
    wheel = 0b1000000001111  # A-2-3-4-5
    return 5 if mask & wheel == wheel else 0


def _rank_only_value(counts: Sequence[int]) -> int:
    """Best hand that needs no flush, from a count per rank index (0 = the 2). Any number of cards."""
    desc = [r for r in range(12, -1, -1) if counts[r]]
    for q in desc:
        if counts[q] >= 4:
            others = [r for r in desc if r != q]
            if counts[q] >= 5:  # the suitless Jack beside four jacks: a jack may be the kicker
                others = sorted(others + [q], reverse=True)
            return _pack(Category.FOUR_OF_A_KIND, [q + 2] + [r + 2 for r in others[:1]])
    trips = [r for r in desc if counts[r] >= 3]
    if trips:
        t = trips[0]
        pair = [r for r in desc if r != t and counts[r] >= 2]
        if pair:
            return _pack(Category.FULL_HOUSE, [t + 2, pair[0] + 2])
    mask = 0
    for r in desc:
        mask |= 1 << r
    top = _straight_top(mask)
    if top:
        return _pack(Category.STRAIGHT, [top])
    if trips:
        t = trips[0]
        return _pack(Category.THREE_OF_A_KIND, [t + 2] + [r + 2 for r in desc if r != t][:2])
    pairs = [r for r in desc if counts[r] >= 2]
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return _pack(Category.TWO_PAIR, [hi + 2, lo + 2] + [r + 2 for r in desc if r not in (hi, lo)][:1])
    if pairs:
        p = pairs[0]
        return _pack(Category.PAIR, [p + 2] + [r + 2 for r in desc if r != p][:3])
    return _pack(Category.HIGH_CARD, [r + 2 for r in desc[:5]])


def _flush_value(mask: int) -> int:
    """Best flush or straight flush inside one suit's 13-bit rank mask (0 if fewer than five cards)."""
    if bin(mask).count("1") < 5:
        return 0
    top = _straight_top(mask)
    if top:
        return _pack(Category.ROYAL_FLUSH if top == 14 else Category.STRAIGHT_FLUSH, [top])
    return _pack(Category.FLUSH, [r + 2 for r in range(12, -1, -1) if mask >> r & 1][:5])


# --- the precomputed tables -------------------------------------------------------------------------------
_SUIT_SHIFT = 40
_SUIT_OFFSET = 11  # a suit field reaches 16 (its top bit) at five cards; holds up to 20 cards without overflow
_RANK_MASK = (1 << 39) - 1
_BASE = sum(_SUIT_OFFSET << (_SUIT_SHIFT + 5 * s) for s in range(4))
_FLUSH_BITS = tuple(16 << (_SUIT_SHIFT + 5 * s) for s in range(4))
_FLUSH_MASK = sum(_FLUSH_BITS)

_KEY: list[int | None] = [None] * N_CARDS
for _c in range(52):
    _KEY[_c] = (1 << (3 * (_c // 4))) + (1 << (_SUIT_SHIFT + 5 * (_c % 4)))
_KEY[SUITLESS_JACK_ID] = 1 << (3 * 9)  # a jack with no suit: counts for pairs and straights, never a flush
_KEY += [None] * N_CARDS  # a negative id lands here (None: TypeError) instead of wrapping to a real card

FLUSH_TABLE: list[int] = [_flush_value(m) for m in range(1 << 13)]


# Rank-count key -> best non-flush value. A plain dict (the fastest subscript); the 5- to 7-card keys are loaded
# from a shipped file, and any other key (eight or more cards, the suitless Jack's fifth jack) is computed once.
RANK_TABLE: dict[int, int] = {}


def _rank_value(rank_key: int) -> int:
    value = RANK_TABLE.get(rank_key)
    if value is None:
        value = RANK_TABLE[rank_key] = _rank_only_value([(rank_key >> (3 * r)) & 7 for r in range(13)])
    return value


def _all_rank_keys(min_cards: int = 5, max_cards: int = 7) -> list[int]:
    """Every rank-count key of min..max cards with at most four of a rank (73,775 keys for 5..7)."""
    keys: list[int] = []

    def walk(rank: int, left: int, key: int) -> None:
        if rank < 0:
            if left <= max_cards - min_cards:
                keys.append(key)
            return
        for n in range(min(4, left) + 1):
            walk(rank - 1, left - n, key + (n << (3 * rank)))

    walk(12, max_cards, 0)
    return keys


TABLE_FILE = Path(__file__).with_name("data") / "rank_table.bin"


def write_rank_table(path: Path = TABLE_FILE) -> int:
    """Compute the 5-7 card rank table and store it (run by tools/build_tables.py); returns the entry count."""
    keys = _all_rank_keys()
    values = [_rank_only_value([(k >> (3 * r)) & 7 for r in range(13)]) for k in keys]
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        array("Q", [len(keys)]).tofile(f)
        array("Q", keys).tofile(f)
        array("I", values).tofile(f)
    return len(keys)


def _load_rank_table(path: Path = TABLE_FILE) -> None:
    # Loading the shipped table takes milliseconds; computing it takes about a second on a Pi-class core.
    # A missing or damaged file only costs speed: __missing__ computes any key on first use.
    try:
        with open(path, "rb") as f:
            n = array("Q")
            n.fromfile(f, 1)
            keys, values = array("Q"), array("I")
            keys.fromfile(f, n[0])
            values.fromfile(f, n[0])
    except (OSError, EOFError):
        return
    RANK_TABLE.update(zip(keys, values))


_load_rank_table()


def evaluate(cards: Sequence[int], *, _k: list[Any] = _KEY, _table: dict[int, int] = RANK_TABLE,
             _base: int = _BASE, _flush: int = _FLUSH_MASK, _ranks: int = _RANK_MASK) -> int:
    """The strength of the best five of ``cards`` (any number, ids or Card); higher wins, equal ties.

    Fewer than five cards are valued as far as they go (a pair of aces, no kickers), for pre-flop teaching.
    This is the hot path of bots and exhaustive checks: the keyword defaults bind the tables as locals, and
    hands of five to seven cards are summed unrolled (about 1.4 times faster than ``sum(map(...))``).
    """
    try:
        n = len(cards)
        if n == 7:
            a, b, c, d, e, f, g = cards
            key = _base + _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f] + _k[g]
        elif n == 6:
            a, b, c, d, e, f = cards
            key = _base + _k[a] + _k[b] + _k[c] + _k[d] + _k[e] + _k[f]
        elif n == 5:
            a, b, c, d, e = cards
            key = _base + _k[a] + _k[b] + _k[c] + _k[d] + _k[e]
        else:
            key = _base + sum(map(_k.__getitem__, cards))
    except (TypeError, IndexError):
        raise HandError(_why_not_evaluable(cards)) from None
    if not key & _flush:
        try:
            return _table[key & _ranks]
        except KeyError:
            return _rank_value(key & _ranks)
    return _with_flush(list(cards), key)


def _with_flush(cards: list[int], key: int) -> int:
    best = _rank_value(key & _RANK_MASK)
    for s, bit in enumerate(_FLUSH_BITS):
        if key & bit:
            mask = 0
            for c in cards:
                if c < 52 and c % 4 == s:
                    mask |= 1 << (c // 4)
            best = max(best, FLUSH_TABLE[mask])
    return best


def _why_not_evaluable(cards: Iterable[int]) -> str:
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < N_CARDS:
            return f"not a card: {c!r}"
        if Card(c).is_joker:
            return f"{Card(c)} is a joker: it must be replaced before a hand is valued"
    return "these cards cannot be valued"


# --- reading a value back -----------------------------------------------------------------------------------
_CATEGORIES = tuple(Category)


def category_of(value: int) -> Category:
    return _CATEGORIES[value >> CATEGORY_SHIFT & 15]


@lru_cache(maxsize=65536)
def decision_ranks(value: int) -> tuple[int, ...]:
    """The ranks (2..14) that decide ties, in order; the hand's own ranks first, then kickers."""
    nib = [(value >> (16 - 4 * i)) & 15 for i in range(5)]
    return tuple(r for r in nib[: len(_SHAPE[category_of(value)])] if r)


@dataclass(frozen=True)
class Hand:
    """The best five cards of a hand and what they make."""

    value: int
    five: tuple[Card, ...]

    @property
    def category(self) -> Category:
        return category_of(self.value)

    @property
    def ranks(self) -> tuple[int, ...]:
        return decision_ranks(self.value)

    @property
    def kickers(self) -> tuple[int, ...]:
        """The kicker ranks (cards that are not part of the made hand), highest first."""
        return self.ranks[_MADE[self.category]:] if self.category not in (Category.FLUSH, Category.HIGH_CARD) else self.ranks[1:]

    @property
    def muscle(self) -> bool:
        return bool(self.value & MUSCLE_BIT)

    def describe(self) -> str:
        return describe(self.value)

    def to_json(self) -> dict[str, object]:
        return {
            "category": self.category.label,
            "description": self.describe(),
            "best_five": [str(c) for c in self.five],
            "kickers": [_RANK_LABELS[r] for r in self.kickers],
            "value": self.value,
        }


def _rank_word(r: int) -> str:
    return RANK_NAMES[r - 2]


def _rank_plural(r: int) -> str:
    return RANK_PLURALS[r - 2]


def _short(r: int) -> str:
    return {14: "ace", 13: "king", 12: "queen", 11: "jack"}.get(r, str(r))


@lru_cache(maxsize=65536)
def describe(value: int) -> str:
    """Plain words: 'pair of 2s with ace-jack-7', 'full house, aces over 2s', 'royal flush'."""
    cat = category_of(value)
    r = decision_ranks(value)
    kick = "-".join(_short(k) for k in r[_MADE[cat]:])
    return _made_words(cat, r) + (f" with {kick}" if kick else "")


def _made_words(cat: Category, r: Sequence[int]) -> str:
    """The made part of a hand, without its kickers: 'pair of 2s', 'straight to the 5'."""
    if cat == Category.HIGH_CARD:
        return f"{_short(r[0])} high"
    if cat == Category.PAIR:
        return f"pair of {_rank_plural(r[0])}"
    if cat == Category.TWO_PAIR:
        return f"two pair, {_rank_plural(r[0])} and {_rank_plural(r[1])}"
    if cat == Category.THREE_OF_A_KIND:
        return f"three {_rank_plural(r[0])}"
    if cat == Category.STRAIGHT:
        return f"straight to the {_short(r[0])}"
    if cat == Category.FLUSH:
        return f"flush, {'-'.join(_short(k) for k in r)}"
    if cat == Category.FULL_HOUSE:
        return f"full house, {_rank_plural(r[0])} over {_rank_plural(r[1])}"
    if cat == Category.FOUR_OF_A_KIND:
        return f"four {_rank_plural(r[0])}"
    if cat == Category.ROYAL_FLUSH:
        return "royal flush"
    return f"straight flush to the {_short(r[0])}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth")
_RANK_LABELS = {r: ("J", "Q", "K", "A")[r - 11] if r > 10 else str(r) for r in range(2, 15)}


def explain(a: Hand | int, b: Hand | int) -> str:
    """Why one hand beats the other, or why they tie, in plain words."""
    va = a.value if isinstance(a, Hand) else a
    vb = b.value if isinstance(b, Hand) else b
    da, db = describe(va), describe(vb)
    if va == vb:
        return f"A true tie: both make {da}, and suits never break a tie."
    winner, loser = (va, vb) if va > vb else (vb, va)
    dw, dl = describe(winner), describe(loser)
    cw, cl = category_of(winner), category_of(loser)
    if cw != cl:
        muscle = " (the Muscle only beats hands of its own ranking)" if loser & MUSCLE_BIT else ""
        return f"{cw.label.capitalize()} beats {cl.label}{muscle}: {dw} against {dl}."
    if (winner & MUSCLE_BIT) != (loser & MUSCLE_BIT):
        return f"{_both_have(cw)}; the Muscle makes {dw} beat {dl}."
    rw, rl = decision_ranks(winner), decision_ranks(loser)
    made = _MADE[cw] if cw not in (Category.FLUSH,) else 0
    for i, (x, y) in enumerate(zip(rw, rl)):
        if x == y:
            continue
        if cw == Category.FLUSH:
            same = ", ".join(_short(k) for k in rw[:i])
            lead = f"Both have a flush{' led by ' + same if same else ''}; " if same else "Both have a flush; "
            return f"{lead}then {_short(x)} beats {_short(y)} ({_ORDINALS[i]} card), so {dw} wins."
        if i < made:
            return _made_rank_words(cw, i, x, y, dw, dl)
        k = i - made
        common = rw[made:i]
        same = ""
        if common:
            same = " and the same " + ", ".join(_short(c) for c in common)
        head = ("a " if cw == Category.PAIR else "") + _made_words(cw, rw)
        return f"Both have {head}{same}; then {_short(x)} beats {_short(y)} ({_ORDINALS[k]} kicker), so {dw} wins."
    return f"{dw} beats {dl}."


def _made_rank_words(cat: Category, i: int, x: int, y: int, dw: str, dl: str) -> str:
    """Why the made part of the hand (not a kicker) decides, at decision position ``i``."""
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        return f"Both have a {cat.label}; the one to the {_short(x)} beats the one to the {_short(y)}."
    if cat == Category.TWO_PAIR:
        which = "higher" if i == 0 else "second"
        return f"Both have two pair; the {which} pair decides: {_rank_plural(x)} beat {_rank_plural(y)}, so {dw} wins."
    if cat == Category.FULL_HOUSE:
        part = "three of a kind" if i == 0 else "pair"
        return f"Both have a full house; the {part} decides: {_rank_plural(x)} beat {_rank_plural(y)}, so {dw} wins."
    if cat == Category.HIGH_CARD:
        return f"Neither has a pair; {_short(x)} high beats {_short(y)} high."
    return f"{_both_have(cat)}; {_rank_plural(x)} beat {_rank_plural(y)}, so {dw} beats {dl}."


_BOTH_HAVE = {
    Category.HIGH_CARD: "Neither has a pair", Category.PAIR: "Both have a pair", Category.STRAIGHT: "Both have a straight",
    Category.FLUSH: "Both have a flush", Category.FULL_HOUSE: "Both have a full house",
    Category.STRAIGHT_FLUSH: "Both have a straight flush", Category.ROYAL_FLUSH: "Both have a royal flush",
}


def _both_have(cat: Category) -> str:
    """'Both have a pair', 'Both have two pair', 'Neither has a pair': the shared category in plain words."""
    return _BOTH_HAVE.get(cat, f"Both have {cat.label}")


# --- the best five cards -----------------------------------------------------------------------------------
def best_hand(cards: Iterable[int | str]) -> Hand:
    """Evaluate and pick the five cards that make the hand (fewer if fewer were given)."""
    cs = [Card.parse(c) for c in cards]
    try:
        check_distinct(cs)
    except CardError as exc:
        raise HandError(f"{exc} in one hand") from None
    value = evaluate(cs)
    return Hand(value, pick_five(cs, value))


def pick_five(cards: Sequence[Card], value: int) -> tuple[Card, ...]:
    """Cards from ``cards`` that make ``value`` (suit choice is deterministic: higher suit first)."""
    cat = category_of(value)
    ranks = decision_ranks(value)
    pool = sorted(cards, key=lambda c: (-(c.rank or 0), -(c.suit if c.suit is not None else -1)))
    if cat in (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        suit = _flush_suit(cards, value)
        pool = [c for c in pool if c.suit == suit]
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH):
        top = ranks[0]
        wanted = [14, 5, 4, 3, 2] if top == 5 else list(range(top, top - 5, -1))
        needs = [(r, 1) for r in wanted]
    else:
        needs = list(zip(ranks, _SHAPE[cat]))
    chosen: list[Card] = []
    used: set[int] = set()
    for r, n in needs:
        picks = [c for c in pool if c.rank == r and int(c) not in used][:n]
        if len(picks) < n:
            raise HandError(f"internal: cannot find {n} x {r} for {describe(value)}")
        chosen += picks
        used.update(int(c) for c in picks)
    if cat in (Category.STRAIGHT, Category.STRAIGHT_FLUSH) and ranks[0] == 5:
        chosen = chosen[1:] + chosen[:1]  # the wheel reads 5-4-3-2-A
    return tuple(chosen)


def _flush_suit(cards: Sequence[Card], value: int) -> int:
    for s in range(4):
        mask = 0
        for c in cards:
            if c.suit == s:
                mask |= 1 << (int(c) // 4)
        if FLUSH_TABLE[mask] == value & ~MUSCLE_BIT:
            return s
    raise HandError("internal: no suit makes this flush")


__all__ = [
    "Card", "CardError", "Category", "Hand", "HandError", "MUSCLE_BIT", "best_hand", "category_of",
    "decision_ranks", "describe", "evaluate", "explain", "pick_five",
]
