"""The game state, and ``apply``: the pure function that folds one event into it.

States are immutable; ``apply`` returns a new one, so an undo stack can simply keep the old ones.
``apply`` trusts that the rules (``companion.engine.rules``) accepted the event, and only checks
what a damaged history could break.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from companion.cards import Card
from companion.engine.chips import COLOURS, RED, WHITE, Chip, chips_in_play
from companion.engine.commands import Seat
from companion.engine.errors import ReplayError
from companion.engine.events import (CardsRevealed, ChipReturned, ChipTaken, Event, GameAbandoned, GameStarted,
                                     HandEntered,
                                     HeistStarted, PlayerHappy, PocketsDealt, RoundTimedOut, ShowdownJudged, Undone)

VAULTS_TO_WIN = 3
ALARMS_TO_LOSE = 3
BOARD_SIZE_AT_ROUND = (0, 3, 4, 5)  # community cards face up during white, yellow, orange, red
ROUND_NAMES = ("pre-flop", "flop", "turn", "river")


@dataclass(frozen=True)
class RoundState:
    """The chips of one colour: who holds each (None: in the middle), who is happy, whether it closed."""

    colour: int
    holders: Mapping[Chip, str | None]
    happy: frozenset[str] = frozenset()
    closed: bool = False

    @classmethod
    def open(cls, colour: int, n_players: int, mastermind: bool, easier: bool) -> "RoundState":
        return cls(colour, {c: None for c in chips_in_play(n_players, colour, mastermind, easier)})

    def held_by(self, player: str) -> tuple[Chip, ...]:
        return tuple(c for c, h in self.holders.items() if h == player)

    def star_chip_of(self, player: str) -> Chip | None:
        return next((c for c in self.held_by(player) if not c.is_exit), None)

    def exit_chip_of(self, player: str) -> Chip | None:
        return next((c for c in self.held_by(player) if c.is_exit), None)

    @property
    def middle(self) -> tuple[Chip, ...]:
        return tuple(c for c, h in self.holders.items() if h is None)

    def is_full(self, players: tuple[str, ...]) -> bool:
        """Every player holds a star chip and no exit chip is left in the middle."""
        return all(self.star_chip_of(p) is not None for p in players) and not self.middle

    def with_holder(self, chip: Chip, holder: str | None) -> "RoundState":
        holders = dict(self.holders)
        holders[chip] = holder
        return replace(self, holders=holders, happy=frozenset())

    def to_json(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {
            "colour": COLOURS[self.colour],
            "chips": {p: [c.label for c in self.held_by(p)] for p in players},
            "middle": [c.label for c in self.middle],
            "happy": [p for p in players if p in self.happy],
            "closed": self.closed,
        }


@dataclass(frozen=True)
class HeistState:
    """One heist: the rounds opened so far, the cards known, and (after the showdown) the outcome."""

    number: int
    rounds: tuple[RoundState, ...]
    board: tuple[Card, ...] = ()
    pockets: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    dealt_board: tuple[Card, ...] | None = None  # the dealer's five community cards, face down until revealed
    seed: int | None = None
    success: bool | None = None
    verdict: Mapping[str, Any] | None = None

    @property
    def current(self) -> RoundState:
        """The latest round opened (closed once the red round is over)."""
        return self.rounds[-1]

    @property
    def chips_open(self) -> bool:
        return not self.current.closed

    @property
    def known_cards(self) -> tuple[Card, ...]:
        return self.board + tuple(c for cards in self.pockets.values() for c in cards)

    def to_json(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {
            "number": self.number,
            "round": COLOURS[self.current.colour] if self.chips_open else None,
            "board": [str(c) for c in self.board],
            "pockets": {p: [str(c) for c in self.pockets[p]] for p in players if p in self.pockets},
            "dealt": self.seed is not None,
            "rounds": [r.to_json(players) for r in self.rounds],
            "success": self.success,
            "verdict": None if self.verdict is None else dict(self.verdict),
        }


@dataclass(frozen=True)
class GameState:
    """The whole table: crew, options, vaults and alarms, and the heist under way (None before a game)."""

    seats: tuple[Seat, ...] = ()
    timer: int | None = None
    mastermind: bool = False
    easier: bool = False
    vaults: int = 0
    alarms: int = 0
    heist: HeistState | None = None
    abandoned: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats)

    @property
    def phase(self) -> str:
        """'no_game', 'chips' (a round is open), 'showdown' (waiting to judge), 'judged', 'won', 'lost', 'abandoned'."""
        if self.heist is None:
            return "no_game"
        if self.abandoned:
            return "abandoned"
        if self.vaults >= VAULTS_TO_WIN:
            return "won"
        if self.alarms >= ALARMS_TO_LOSE:
            return "lost"
        if self.heist.success is not None:
            return "judged"
        return "chips" if self.heist.chips_open else "showdown"

    def seat(self, player: str) -> Seat | None:
        return next((s for s in self.seats if s.name == player), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "players": [s.to_json() for s in self.seats],
            "timer": self.timer,
            "mastermind": self.mastermind,
            "easier": self.easier,
            "vaults": self.vaults,
            "alarms": self.alarms,
            "heist": None if self.heist is None else self.heist.to_json(self.players),
        }


def first_round(state: GameState) -> RoundState:
    return RoundState.open(WHITE, len(state.seats), state.mastermind, state.easier)


def apply(state: GameState, event: Event) -> GameState:
    """The state after ``event``. ``Undone`` is not folded here: it pops the undo stack (see ``Table``)."""
    if isinstance(event, GameStarted):
        fresh = GameState(event.seats, event.timer, event.mastermind, event.easier)
        return replace(fresh, heist=HeistState(1, (first_round(fresh),)))
    if isinstance(event, Undone):
        raise ReplayError("an undo pops the history; it is not folded into a state")
    heist = state.heist
    if heist is None:
        raise ReplayError(f"{event.kind} before any game started")
    if isinstance(event, GameAbandoned):
        return replace(state, abandoned=True)
    if isinstance(event, HeistStarted):
        return replace(state, heist=HeistState(event.number, (first_round(state),)))
    if isinstance(event, PocketsDealt):
        pockets = dict(heist.pockets)
        pockets.update(event.pockets)
        return replace(state, heist=replace(heist, pockets=pockets, dealt_board=event.board, seed=event.seed))
    if isinstance(event, CardsRevealed):
        return replace(state, heist=replace(heist, board=heist.board + event.cards))
    if isinstance(event, HandEntered):
        pockets = dict(heist.pockets)
        pockets[event.player] = event.cards
        return replace(state, heist=replace(heist, pockets=pockets))
    if isinstance(event, ShowdownJudged):
        return replace(state, vaults=state.vaults + event.success, alarms=state.alarms + (not event.success),
                       heist=replace(heist, success=event.success, verdict=dict(event.verdict)))
    current = heist.current
    if current.closed or current.colour != getattr(event, "colour", current.colour):
        raise ReplayError(f"{event.kind} does not fit the {COLOURS[current.colour]} round")
    if isinstance(event, ChipTaken):
        current = current.with_holder(event.chip, event.player)
    elif isinstance(event, ChipReturned):
        current = current.with_holder(event.chip, None)
    elif isinstance(event, PlayerHappy):
        current = replace(current, happy=current.happy | {event.player}, closed=event.closes_round)
    elif isinstance(event, RoundTimedOut):
        for player, chip in event.assigned:
            current = current.with_holder(chip, player)
        current = replace(current, closed=True)
    rounds = heist.rounds[:-1] + (current,)
    if current.closed and current.colour < RED:
        rounds += (RoundState.open(current.colour + 1, len(state.seats), state.mastermind, state.easier),)
    return replace(state, heist=replace(heist, rounds=rounds))
