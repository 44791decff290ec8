"""Numpy batch evaluation: many hands of standard cards at once, for bots, the coach and exhaustive checks.

Gives exactly the values of :func:`companion.evaluator.evaluate` (same tables, same encoding).

>>> import numpy as np
>>> from companion.cards import parse_cards
>>> from companion.evaluator import evaluate
>>> hands = np.array([parse_cards("As Ks Qs Js Ts 2c 3d"), parse_cards("2c 2d Ah Tc 7s 4d 3h")])
>>> [int(v) for v in evaluate_batch(hands)] == [evaluate(h) for h in hands.tolist()]
True
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Any, Iterator, Sequence

import numpy as np

from companion.evaluator import FLUSH_TABLE, RANK_TABLE, _all_rank_keys

# Per card, three fields summed over a hand: base-5 counts of the seven low ranks (bits 0-16), base-5 counts of
# the six high ranks (bits 17-30), and a 4-bit count per suit (bits 32-47). Each rank half maps to a dense id,
# and one 2-D table of (low id, high id) gives the non-flush value: three gathers instead of a search.
_LO_RANKS, _HI_RANKS = 7, 6
_LO_SHIFT, _LO_MASK, _HI_MASK = 17, (1 << 17) - 1, (1 << 14) - 1


def _card_key(c: int) -> int:
    r, s = c // 4, c % 4
    rank_part: int = 5 ** r if r < _LO_RANKS else 5 ** (r - _LO_RANKS) << _LO_SHIFT
    return rank_part + (1 << (32 + 4 * s))


_CARD_KEY = np.array([_card_key(c) for c in range(52)], dtype=np.int64)
_SUIT_OF = np.arange(52, dtype=np.int64) % 4
_RANK_BIT = (1 << (np.arange(52, dtype=np.int64) // 4)).astype(np.int64)
_FLUSH_TABLE = np.array(FLUSH_TABLE, dtype=np.int32)


@lru_cache(maxsize=1)
def _rank_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(low-half key -> id, high-half key -> id, id table of values) for every 5-7 card rank multiset."""
    keys3 = np.array(_all_rank_keys(), dtype=np.int64)  # 3 bits a rank, as in the evaluator
    counts = (keys3[:, None] >> (3 * np.arange(13, dtype=np.int64))) & 7
    lo = (counts[:, :_LO_RANKS] * 5 ** np.arange(_LO_RANKS, dtype=np.int64)).sum(axis=1)
    hi = (counts[:, _LO_RANKS:] * 5 ** np.arange(_HI_RANKS, dtype=np.int64)).sum(axis=1)
    lo_keys, lo_ids = np.unique(lo, return_inverse=True)
    hi_keys, hi_ids = np.unique(hi, return_inverse=True)
    lo_map = np.zeros(5 ** _LO_RANKS, dtype=np.int32)
    lo_map[lo_keys] = np.arange(len(lo_keys), dtype=np.int32) * len(hi_keys)
    hi_map = np.zeros(5 ** _HI_RANKS, dtype=np.int32)
    hi_map[hi_keys] = np.arange(len(hi_keys), dtype=np.int32)
    table = np.zeros(len(lo_keys) * len(hi_keys), dtype=np.int32)
    table[lo_ids.ravel() * len(hi_keys) + hi_ids.ravel()] = [RANK_TABLE[int(k)] for k in keys3]
    return lo_map, hi_map, table


def evaluate_batch(hands: "np.ndarray | Sequence[Sequence[int]]") -> "np.ndarray[Any, np.dtype[np.int32]]":
    """Values (int32) of an (N, k) array of card ids 0..51, 5 <= k <= 7, one hand a row."""
    hands = np.ascontiguousarray(hands)  # a strided view costs one copy here, and saves more below
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise ValueError(f"expected an (N, 5..7) array of card ids, got shape {hands.shape}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise ValueError("batch evaluation takes standard cards 0..51 only")
    idx = hands
    per_card = _CARD_KEY[idx]
    key = per_card[:, 0].copy()
    for j in range(1, per_card.shape[1]):  # column adds beat sum(axis=1) on a short row axis
        key += per_card[:, j]
    lo_map, hi_map, table = _rank_tables()
    out = table[lo_map[key & _LO_MASK] + hi_map[(key >> _LO_SHIFT) & _HI_MASK]]
    suit_counts = key >> 32
    flush = ((suit_counts + 0x3333) & 0x8888) != 0  # a suit nibble of five or more
    if flush.any():
        rows = np.nonzero(flush)[0]
        sub = idx[rows]
        fbits = (suit_counts[rows] + 0x3333) & 0x8888
        suit = (np.log2(fbits).astype(np.int64) - 3) // 4  # at most seven cards: one flush suit
        masks = np.where(_SUIT_OF[sub] == suit[:, None], _RANK_BIT[sub], 0).sum(axis=1)
        out[rows] = np.maximum(out[rows], _FLUSH_TABLE[masks])
    result: np.ndarray[Any, np.dtype[np.int32]] = out
    return result


def _colex_combinations(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) in colex order (so those of range(m) are a prefix), as uint8 rows."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    parts = []
    for top in range(k - 1, n):
        rest = _colex_combinations(top, k - 1)
        parts.append(np.hstack([rest, np.full((len(rest), 1), top, dtype=np.uint8)]))
    return np.vstack(parts)


def all_hands(k: int, chunk_first: int = 2) -> Iterator[np.ndarray]:
    """Every k-card hand of a 52-card deck, in chunks: the lowest ``chunk_first`` cards fixed per chunk."""
    tail_k = k - chunk_first
    tail = _colex_combinations(52, tail_k).astype(np.int16)
    for head in combinations(range(52), chunk_first):
        start = head[-1] + 1
        n_rest = 52 - start
        rows = tail[: comb(n_rest, tail_k)] + start
        heads = np.broadcast_to(np.array(head, dtype=np.int16), (len(rows), chunk_first))
        yield np.hstack([heads, rows])
