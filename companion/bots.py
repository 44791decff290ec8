"""Bots for empty seats: how strong is my hand against the unknown ones, and which chip says so.

A bot knows only what a player at the table knows: its own pocket, the board so far, and the chips. It estimates
the share of opponents it beats by dealing the unknown cards many times (numpy batch evaluation; exact at the
river). ``companion.practice`` turns that into chips.

>>> from companion.cards import parse_cards
>>> s = estimate_strength(parse_cards("As Ah"), parse_cards("Ad Ac 2h 7s 9d"), 3, samples=200, seed=1)
>>> s > 0.99
True
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from companion.batch import evaluate_batch
from companion.cards import Card


def estimate_strength(pocket: Sequence[Card], board: Sequence[Card], n_opponents: int, samples: int = 600,
                      seed: int | None = None, dead: Sequence[Card] = ()) -> float:
    """Expected share of opponents whose best hold'em hand ours beats at the river (a tie counts half)."""
    if n_opponents < 1:
        return 1.0
    known = {int(c) for c in (*pocket, *board, *dead)}
    unknown = np.array([c for c in range(52) if c not in known], dtype=np.int16)
    if len(board) == 5 and len(pocket) == 2:
        return river_strength(pocket, board, unknown)
    need_board = 5 - len(board)
    need = need_board + 2 * n_opponents
    if need > len(unknown) or len(pocket) != 2:
        raise ValueError("estimate_strength needs two pocket cards and enough unseen cards")
    rng = np.random.default_rng(seed)
    draws = unknown[np.argsort(rng.random((samples, len(unknown))), axis=1)[:, :need]]
    fixed_board = np.broadcast_to(np.array([int(c) for c in board], dtype=np.int16), (samples, len(board)))
    full_board = np.hstack([fixed_board, draws[:, :need_board]])
    mine = np.hstack([np.broadcast_to(np.array([int(c) for c in pocket], dtype=np.int16), (samples, 2)), full_board])
    my_value = evaluate_batch(mine)
    score = np.zeros(samples)
    for k in range(n_opponents):
        theirs = np.hstack([draws[:, need_board + 2 * k: need_board + 2 * k + 2], full_board])
        their_value = evaluate_batch(theirs)
        score += (my_value > their_value) + 0.5 * (my_value == their_value)
    return float(score.mean() / n_opponents)


def river_strength(pocket: Sequence[Card], board: Sequence[Card], unknown: np.ndarray) -> float:
    """Exact at the river: the share of every possible opposing pocket that ours beats (ties half).

    The expected share of opponents beaten is the same for any crew size, so one opponent suffices.
    """
    from itertools import combinations

    pairs = np.array(list(combinations(unknown.tolist(), 2)), dtype=np.int16)
    board_row = np.array([int(c) for c in board], dtype=np.int16)
    theirs = evaluate_batch(np.hstack([pairs, np.broadcast_to(board_row, (len(pairs), 5))]))
    mine = evaluate_batch(np.array([[*map(int, pocket), *board_row.tolist()]], dtype=np.int16))[0]
    return float(((mine > theirs) + 0.5 * (mine == theirs)).mean())
