"""The practice table: bots play the empty seats through the same commands a person's touch or button sends.

``BotCrew.next_command(state)`` looks at the public state (and each bot's own pocket) and returns the next thing
a bot does, or None when every bot is content. The engine judges legality like any other command.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

import numpy as np

from companion.bots import estimate_strength
from companion.engine import EXIT_STARS, GameState, Happy, Take
from companion.engine.commands import Command

MAX_BOT_ACTIONS_PER_ROUND = 60  # then the bots stop moving chips and wait (the round timer closes the round)


@dataclass
class BotCrew:
    """The bots at one table.

    ``samples`` sets how hard each bot thinks (Monte Carlo deals per estimate); ``misjudge`` is the spread of a
    bot's error in judging its own hand (a share of the crew; 0 plays perfectly, which at the river sorts a crew
    of bots exactly and makes the game trivial for them).
    """

    bots: tuple[str, ...]
    samples: int = 400
    seed: int = 0
    misjudge: float = 0.08
    _strength: dict[tuple[int, int, str], float] = field(default_factory=dict)
    _actions: dict[tuple[int, int], int] = field(default_factory=dict)

    def strength(self, state: GameState, player: str) -> float:
        heist = state.heist
        assert heist is not None
        key = (heist.number, heist.current.colour, player)
        if key not in self._strength:
            pocket = heist.pockets.get(player, ())
            if len(pocket) != 2:
                self._strength[key] = 0.5  # a bot that was never dealt cards plays the middle
            else:
                # crc32, not hash(): str hashes change from run to run, and a seed must replay the same game
                seed = (zlib.crc32(f"{key[0]} {key[1]} {player}".encode()) ^ self.seed) & 0xFFFFFFFF
                exact = estimate_strength(pocket, heist.board, len(state.seats) - 1, samples=self.samples, seed=seed)
                error = np.random.default_rng(seed).normal(0.0, self.misjudge) if self.misjudge > 0 else 0.0
                self._strength[key] = float(min(1.0, max(0.0, exact + error)))
        return self._strength[key]

    def next_command(self, state: GameState) -> Command | None:
        heist = state.heist
        if heist is None or state.phase != "chips":
            return None
        rnd = heist.current
        key = (heist.number, rnd.colour)
        if self._actions.get(key, 0) >= MAX_BOT_ACTIONS_PER_ROUND:
            return None
        # The surest hands grab first, as quick hands do at a real table: the strongest takes the top chip, the
        # weakest the bottom one, and each later hand fills in from its own end. Everyone sees who grabbed
        # first, so no hidden card is told; at the river (exact strengths) this sorts the crew by hand.
        for bot in sorted(self.bots, key=lambda b: -abs(self.strength(state, b) - 0.5)):
            if rnd.star_chip_of(bot) is not None:
                continue
            free = sorted(c.stars for c in rnd.middle if not c.is_exit)
            if free:
                return self._act(key, Take(bot, free[-1] if self.strength(state, bot) >= 0.5 else free[0]))
        exits = [c for c in rnd.middle if c.is_exit]
        if exits:
            # the bots least sure of their place (closest to the middle of the crew) step out
            candidates = sorted((b for b in self.bots if rnd.exit_chip_of(b) is None),
                                key=lambda b: abs(self.strength(state, b) - 0.5))
            if candidates:
                return self._act(key, Take(candidates[0], EXIT_STARS))
        if rnd.is_full(state.players):
            for bot in self.bots:
                if bot not in rnd.happy:
                    return Happy(bot)
        return None

    def _act(self, key: tuple[int, int], command: Command) -> Command:
        self._actions[key] = self._actions.get(key, 0) + 1
        return command
