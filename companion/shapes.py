"""Which cards a player may combine: Texas hold'em and the variants in the box.

A *board* is a sequence of slots; a slot is one card or a stack of cards (the Jokers rule: a community joker is
replaced by two or three stacked cards, of which a player may use at most one).

>>> from companion.cards import parse_cards
>>> best(parse_cards("As Ks"), [(c,) for c in parse_cards("Qs Js Ts 2c 3d")]).describe()
'royal flush'
>>> best(parse_cards("As Ad 2c 3c"), [(c,) for c in parse_cards("Ah Ac Kd 7s 8h")], "omaha").describe()
'four aces with king'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from itertools import combinations, product
from typing import Iterable, Sequence

from companion.cards import Card
from companion.evaluator import Hand, HandError, evaluate, pick_five

Slot = tuple[Card, ...]


class Variant(str, Enum):
    """Poker variants of The Jokers & More (hold'em is the base game)."""

    HOLDEM = "holdem"  # any number of pocket cards with the board (Security Cameras: 3; the Dealer: 2 at the end)
    OMAHA = "omaha"  # exactly 2 of 4 pocket cards and exactly 3 of the 5 board cards
    STUD = "stud"  # seven own cards (3 pocket + 4 face-up); no board
    BANANA_SPLIT = "banana_split"  # 2 pocket + the 3 cards on the left + the 3 on the right
    VOTE_OF_CHANGE = "vote_of_change"  # plays as hold'em at the showdown: only the final five board cards count

    @property
    def default_pocket_size(self) -> int:
        return {"omaha": 4, "stud": 7}.get(self.value, 2)


@dataclass(frozen=True)
class Seat:
    """The cards one player may draw on: their own cards and the slots they share."""

    pocket: tuple[Card, ...]
    board: tuple[Slot, ...]


def slots(cards: Iterable[int | str | Sequence[int | str]]) -> tuple[Slot, ...]:
    """Board slots from cards and stacks: ``slots([c1, [c2, c3]])``."""
    out: list[Slot] = []
    for item in cards:
        if isinstance(item, (int, str)):
            out.append((Card.parse(item),))
        else:
            out.append(tuple(Card.parse(c) for c in item))
    return tuple(out)


def _boards(board: Sequence[Slot]) -> Iterable[tuple[Card, ...]]:
    """Every way to take at most one card from each stack (a single card is a stack of one)."""
    singles = tuple(s[0] for s in board if len(s) == 1)
    stacks = [s for s in board if len(s) > 1]
    if not stacks:
        yield singles
        return
    # Taking one card of every stack covers taking none: more cards never hurt hold'em, and Omaha's caller
    # picks three of the board anyway, which includes every pick that leaves a stack out.
    for choice in product(*stacks):
        yield singles + choice


def best(pocket: Sequence[Card], board: Sequence[Slot] = (), variant: Variant | str = Variant.HOLDEM) -> Hand:
    """The best hand a player can show under ``variant``."""
    v = Variant(variant)
    best_value = -1
    best_cards: tuple[Card, ...] = ()
    cards: tuple[Card, ...]
    if v == Variant.OMAHA:
        for b in _boards(board):
            for two in combinations(pocket, 2):
                for three in combinations(b, 3):
                    cards = two + three
                    value = evaluate(cards)
                    if value > best_value:
                        best_value, best_cards = value, cards
        if best_value < 0:
            raise HandError("Omaha needs at least two pocket cards and three board cards")
    else:
        for b in _boards(board):
            cards = tuple(pocket) + b
            value = evaluate(cards)
            if value > best_value:
                best_value, best_cards = value, cards
    return Hand(best_value, pick_five(best_cards, best_value))


def banana_boards(piles: Sequence[Sequence[Card]], n_players: int) -> list[tuple[Slot, ...]]:
    """Banana Split: pile i lies between seat i and seat i+1; seat i uses piles i-1 and i."""
    if len(piles) != n_players:
        raise HandError(f"Banana Split needs one pile between each pair of neighbours ({n_players}), got {len(piles)}")
    return [slots(list(piles[i - 1]) + list(piles[i])) for i in range(n_players)]
