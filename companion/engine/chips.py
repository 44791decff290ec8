"""The chips of a heist: one colour per round, star chips for every player, exit chips in the red round.

A chip is identified by its stars and a copy number, because the More Players expansion has two
physically distinct 0-star chips of equal rank (and up to three identical exit chips).

>>> [c.label for c in chips_in_play(4, RED)]
['1', '2', '3', '4']
>>> [c.label for c in chips_in_play(10, RED)]
['0', '0', '1', '2', '3', '4', '5', '6', '7', '8', 'exit', 'exit', 'exit']
>>> exit_count(10, mastermind=True)
2
"""

from __future__ import annotations

from dataclasses import dataclass

COLOURS: tuple[str, ...] = ("white", "yellow", "orange", "red")
WHITE, YELLOW, ORANGE, RED = range(4)
EXIT_STARS = -1
MIN_PLAYERS, MAX_PLAYERS = 3, 10

# More Players expansion: star values and exit chips per crew size (the base game is 1..n, no exits).
_BIG_CREWS: dict[int, tuple[tuple[int, ...], int]] = {
    7: (tuple(range(1, 8)), 1),
    8: (tuple(range(1, 9)), 2),
    9: ((0,) + tuple(range(1, 9)), 2),
    10: ((0, 0) + tuple(range(1, 9)), 3),
}


@dataclass(frozen=True, order=True)
class Chip:
    """One chip of a round's colour: ``stars`` 0..8, or ``EXIT_STARS`` for an exit chip; ``copy`` tells twins apart."""

    stars: int
    copy: int = 0

    @classmethod
    def exit(cls, copy: int = 0) -> "Chip":
        return cls(EXIT_STARS, copy)

    @property
    def is_exit(self) -> bool:
        return self.stars == EXIT_STARS

    @property
    def label(self) -> str:
        """'3', '0' or 'exit' (twins share a label: they rank the same)."""
        return "exit" if self.is_exit else str(self.stars)

    def describe(self, colour: int) -> str:
        """Words for people: 'the yellow 3-star chip', 'a red exit chip'."""
        if self.is_exit:
            return f"a {COLOURS[colour]} exit chip"
        if self.stars == 0:
            return f"a {COLOURS[colour]} 0-star chip"
        return f"the {COLOURS[colour]} {self.stars}-star chip"

    def to_json(self) -> dict[str, int | str]:
        return {"chip": "exit" if self.is_exit else self.stars, "copy": self.copy}


def star_values(n_players: int) -> tuple[int, ...]:
    """The star values of one colour for a crew of ``n_players`` (a value may repeat: two 0-star chips)."""
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(f"The Gang is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n_players}")
    if n_players in _BIG_CREWS:
        return _BIG_CREWS[n_players][0]
    return tuple(range(1, n_players + 1))


def exit_count(n_players: int, mastermind: bool = False, easier: bool = False) -> int:
    """How many exit chips the red round has (Mastermind mode takes one away, the easier variant adds one)."""
    star_values(n_players)  # validates the crew size
    exits = _BIG_CREWS[n_players][1] if n_players in _BIG_CREWS else 0
    if mastermind:
        exits = max(0, exits - 1)
    if easier and n_players in (5, 6):
        exits += 1
    return exits


def chips_in_play(n_players: int, colour: int, mastermind: bool = False, easier: bool = False) -> tuple[Chip, ...]:
    """Every chip of ``colour`` for this crew, lowest first, exit chips last."""
    chips: list[Chip] = []
    seen: dict[int, int] = {}
    for stars in star_values(n_players):
        chips.append(Chip(stars, seen.get(stars, 0)))
        seen[stars] = seen.get(stars, 0) + 1
    if colour == RED:
        chips.extend(Chip.exit(i) for i in range(exit_count(n_players, mastermind, easier)))
    return tuple(chips)
