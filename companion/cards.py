"""Playing cards: the 52 standard cards, the two jokers and the suitless "Jack" specialist card.

A card is a small int so that the hand evaluator can index tables with it directly:
``rank_index * 4 + suit_index`` for the 52 standard cards (rank_index 0 is a 2, 12 an ace;
suits in the order clubs, diamonds, hearts, spades), then the two jokers and the specialist Jack.

>>> Card.parse("As"), Card.parse("10d"), Card.parse("ah"), Card.parse("♣Q")
(As, Td, Ah, Qc)
>>> parse_cards("2c 2d Ah")
[2c, 2d, Ah]
>>> Card.parse("JACK").rank, Card.parse("JACK").suit is None
(11, True)
"""

from __future__ import annotations

import re
from typing import Iterable

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
RANK_PLURALS = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings", "aces")

JOKER_RED_ID = 52
JOKER_BLACK_ID = 53
SUITLESS_JACK_ID = 54
N_CARDS = 55

_SUIT_ALIASES = {
    "c": 0, "♣": 0, "♧": 0,
    "d": 1, "♦": 1, "♢": 1,
    "h": 2, "♥": 2, "♡": 2,
    "s": 3, "♠": 3, "♤": 3,
}
_SPECIAL_TOKENS = {
    "joker": JOKER_RED_ID, "jr": JOKER_RED_ID, "joker_red": JOKER_RED_ID, "redjoker": JOKER_RED_ID,
    "jb": JOKER_BLACK_ID, "joker_black": JOKER_BLACK_ID, "blackjoker": JOKER_BLACK_ID,
    "jack": SUITLESS_JACK_ID, "j*": SUITLESS_JACK_ID, "jx": SUITLESS_JACK_ID,
}
_TOKEN_SPLIT = re.compile(r"[\s,;]+")


class CardError(ValueError):
    """A card token that does not name a card; the message names the token."""


class Card(int):
    """One card; an ``int`` underneath (see the module docstring for the numbering)."""

    __slots__ = ()

    def __new__(cls, card_id: int) -> "Card":
        if not 0 <= int(card_id) < N_CARDS:
            raise CardError(f"no card has id {card_id!r}")
        return super().__new__(cls, card_id)

    @classmethod
    def of(cls, rank: int, suit: int) -> "Card":
        """The standard card of ``rank`` (2..14) and suit index (0 clubs .. 3 spades)."""
        if not 2 <= rank <= 14 or not 0 <= suit <= 3:
            raise CardError(f"no card has rank {rank} and suit {suit}")
        return cls((rank - 2) * 4 + suit)

    @classmethod
    def parse(cls, token: "str | int | Card") -> "Card":
        """Read ``As``, ``Td``, ``10d``, ``ah``, ``A♠``, ``♠A``, ``joker``, ``JACK`` (the suitless Jack)."""
        if isinstance(token, Card):
            return token
        if isinstance(token, int) and not isinstance(token, bool):
            return cls(token)
        if not isinstance(token, str):
            raise CardError(f"not a card: {token!r}")
        text = token.strip()
        low = text.lower()
        if low in _SPECIAL_TOKENS:
            return cls(_SPECIAL_TOKENS[low])
        if len(text) >= 2:
            # The suit may stand before or after the rank (the symbol is often written first).
            for rank_part, suit_part in ((text[:-1], text[-1]), (text[1:], text[0])):
                suit = _SUIT_ALIASES.get(suit_part.lower())
                rank = _parse_rank(rank_part)
                if suit is not None and rank is not None:
                    return cls.of(rank, suit)
        raise CardError(f"not a card: {token!r} (write a rank 2-10, J, Q, K or A and a suit c, d, h or s, e.g. 'As' or 'Td')")

    @property
    def is_standard(self) -> bool:
        return int(self) < 52

    @property
    def is_joker(self) -> bool:
        return int(self) in (JOKER_RED_ID, JOKER_BLACK_ID)

    @property
    def is_suitless_jack(self) -> bool:
        return int(self) == SUITLESS_JACK_ID

    @property
    def rank(self) -> int | None:
        """2..14 (ace high); 11 for the suitless Jack; None for a joker."""
        if self.is_standard:
            return int(self) // 4 + 2
        return 11 if self.is_suitless_jack else None

    @property
    def suit(self) -> int | None:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades; None for jokers and the suitless Jack."""
        return int(self) % 4 if self.is_standard else None

    def name(self) -> str:
        """Words for people: 'ace of spades', 'the suitless Jack'."""
        if self.is_suitless_jack:
            return "the suitless Jack"
        if self.is_joker:
            return "the red joker" if int(self) == JOKER_RED_ID else "the black joker"
        assert self.rank is not None and self.suit is not None
        return f"{RANK_NAMES[self.rank - 2]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        if self.is_suitless_jack:
            return "JACK"
        if self.is_joker:
            return "JR" if int(self) == JOKER_RED_ID else "JB"
        return RANK_CHARS[int(self) // 4] + SUIT_CHARS[int(self) % 4]

    __repr__ = __str__

    def __reduce__(self) -> tuple[type, tuple[int]]:
        return (Card, (int(self),))


def _parse_rank(text: str) -> int | None:
    t = text.strip().upper()
    if t == "10":
        return 10
    if len(t) == 1 and t in RANK_CHARS:
        return RANK_CHARS.index(t) + 2
    if t == "1":  # some decks print the ace as 1
        return 14
    return None


def parse_cards(cards: "str | Iterable[str | int | Card]") -> list[Card]:
    """Read several cards: a string split on spaces or commas, or any iterable of tokens.

    >>> parse_cards(["Qs", "10h"])
    [Qs, Th]
    >>> parse_cards("Qs Xx")
    Traceback (most recent call last):
    ...
    companion.cards.CardError: not a card: 'Xx' (write a rank 2-10, J, Q, K or A and a suit c, d, h or s, e.g. 'As' or 'Td')
    """
    if isinstance(cards, str):
        tokens: Iterable[str | int | Card] = [t for t in _TOKEN_SPLIT.split(cards) if t]
    else:
        tokens = cards
    return [Card.parse(t) for t in tokens]


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise CardError naming the first card that appears twice (the suitless Jack is one card too)."""
    seen: set[int] = set()
    for c in cards:
        if int(c) in seen:
            raise CardError(f"{c} appears twice")
        seen.add(int(c))


FULL_DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
JOKERS: tuple[Card, Card] = (Card(JOKER_RED_ID), Card(JOKER_BLACK_ID))
SUITLESS_JACK = Card(SUITLESS_JACK_ID)
