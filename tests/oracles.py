"""Helpers to compare our order of hands with an independent library's."""

from __future__ import annotations

from typing import Sequence


def assert_same_order(ours: Sequence[int], theirs_lower_is_stronger: Sequence[int]) -> None:
    """Equal exactly when theirs is equal, and ordered the same way (theirs: smaller is stronger)."""
    mapping: dict[int, int] = {}
    for i, (o, t) in enumerate(zip(ours, theirs_lower_is_stronger)):
        if mapping.setdefault(o, t) != t:
            raise AssertionError(f"hand {i}: our value {o} ties a hand they value {mapping[o]}, they say {t}")
    pairs = sorted(mapping.items())
    for (o1, t1), (o2, t2) in zip(pairs, pairs[1:]):
        if not t1 > t2:
            raise AssertionError(f"our {o1} < {o2} but theirs {t1} vs {t2} (lower is stronger)")
