"""The rules: ``decide`` turns a command into the event it causes, or raises IllegalCommand and changes nothing.

``decide`` is pure: it reads the state, never the clock or a random source (the dealer's shuffle comes
from the seed in the command, and the event records the outcome).
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable, Protocol, Sequence

from companion.cards import FULL_DECK, Card, CardError, check_distinct
from companion.engine.chips import COLOURS, EXIT_STARS, MAX_PLAYERS, MIN_PLAYERS, RED, WHITE, Chip, chips_in_play
from companion.engine.commands import (Abandon, Command, Deal, Happy, Hand, NewGame, NextHeist, Return, Reveal,
                                       Showdown, Take, TimerExpired, Undo)
from companion.engine.errors import IllegalCommand
from companion.engine.events import (CardsRevealed, ChipReturned, ChipTaken, Event, GameAbandoned, GameStarted,
                                     HandEntered, HeistStarted, PlayerHappy, PocketsDealt, RoundTimedOut,
                                     ShowdownJudged)
from companion.engine.state import BOARD_SIZE_AT_ROUND, GameState, HeistState, RoundState

POCKET_SIZE = 2
_BOARD_WORDS = {3: "the flop", 4: "the turn", 5: "the river"}


class VerdictLike(Protocol):
    """What the engine needs from a verdict (``companion.judge.Verdict`` is one)."""

    @property
    def success(self) -> bool: ...

    def to_json(self) -> dict[str, Any]: ...


# judge(board, crew) -> verdict, where crew is [(name, pocket, red stars or None, holds an exit chip)].
ShowdownJudge = Callable[[tuple[Card, ...], Sequence[tuple[str, tuple[Card, ...], int | None, bool]]], VerdictLike]


def decide(state: GameState, command: Command, judge: ShowdownJudge) -> Event:
    """The event ``command`` causes in ``state``; IllegalCommand (naming the problem) when the rules forbid it."""
    if isinstance(command, Undo):
        raise IllegalCommand("undo is handled by the table's history, not by the rules")
    if isinstance(command, NewGame):
        return _new_game(state, command)
    heist = state.heist
    if heist is None:
        raise IllegalCommand("no game yet: start one with new_game")
    if state.phase == "abandoned":
        raise IllegalCommand("the game was abandoned; start a new one with new_game")
    if state.phase in ("won", "lost"):
        raise IllegalCommand(f"the game is over: the crew {state.phase} ({state.vaults} vaults, {state.alarms} alarms)")
    if isinstance(command, Abandon):
        return GameAbandoned()
    if isinstance(command, NextHeist):
        if heist.success is None:
            raise IllegalCommand(f"heist {heist.number} is still under way; finish its showdown first")
        return HeistStarted(heist.number + 1)
    if heist.success is not None:
        raise IllegalCommand(f"heist {heist.number} is over; start the next one with next_heist")
    if isinstance(command, Deal):
        return _deal(state, heist, command)
    if isinstance(command, Reveal):
        return _reveal(heist, command)
    if isinstance(command, Hand):
        return _hand(state, heist, command)
    if isinstance(command, Showdown):
        return _showdown(state, heist, judge)
    current = _open_round(heist)
    if isinstance(command, Take):
        return _take(state, current, command)
    if isinstance(command, Return):
        return _return(state, current, command)
    if isinstance(command, Happy):
        return _happy(state, current, command)
    if isinstance(command, TimerExpired):
        return _timer_expired(state, heist, current)
    raise IllegalCommand(f"unknown command {command!r}")  # pragma: no cover - the Command union is closed


def deal_deck(seed: int, n_players: int) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The dealer's shuffle: the pockets in seat order and the five board cards.

    A Fisher-Yates shuffle driven by SHA-256 of the seed, not by ``random``, so that a journal written
    today replays (and verifies) identically on any future Python.

    >>> deal_deck(7, 3)[1]
    (8h, Jd, 6h, 5h, 3h)
    """
    deck = list(FULL_DECK)
    for i in range(len(deck) - 1, 0, -1):
        digest = hashlib.sha256(f"gang-companion deal {seed} {i}".encode()).digest()
        j = int.from_bytes(digest[:8], "big") % (i + 1)  # bias below 1e-17: irrelevant for a card game
        deck[i], deck[j] = deck[j], deck[i]
    pockets = tuple(tuple(deck[i * POCKET_SIZE:(i + 1) * POCKET_SIZE]) for i in range(n_players))
    start = n_players * POCKET_SIZE
    return pockets, tuple(deck[start:start + 5])


def _new_game(state: GameState, command: NewGame) -> Event:
    if state.phase not in ("no_game", "won", "lost", "abandoned"):
        raise IllegalCommand("a game is already under way; win it, lose it or abandon it before a new one starts")
    n = len(command.seats)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise IllegalCommand(f"a crew has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
    names = [s.name.casefold() for s in command.seats]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise IllegalCommand(f"two seats are called {command.seats[i].name!r}; every player needs their own name")
    if command.mastermind and n < 7:
        raise IllegalCommand("Mastermind mode removes an exit chip, so it needs 7 to 10 players")
    if command.easier and n not in (5, 6):
        raise IllegalCommand("the easier variant (one exit chip) is for 5 or 6 players")
    return GameStarted(command.seats, command.timer, command.mastermind, command.easier)


def _player(state: GameState, name: str) -> str:
    if state.seat(name) is not None:
        return name
    for seat in state.seats:  # forgive the case of a typed name
        if seat.name.casefold() == name.casefold():
            return seat.name
    raise IllegalCommand(f"nobody called {name!r} sits at this table (players: {', '.join(state.players)})")


def _open_round(heist: HeistState) -> RoundState:
    if not heist.chips_open:
        raise IllegalCommand("the red round is over; next comes the showdown")
    return heist.current


def _check_new_cards(heist: HeistState, cards: tuple[Card, ...]) -> None:
    for card in cards:
        if not card.is_standard:
            raise IllegalCommand(f"{card} is not one of the 52 cards of the base game")
    try:
        check_distinct(heist.known_cards + cards)
    except CardError:
        for card in cards:
            if card in heist.known_cards:
                raise IllegalCommand(f"{card} is already on the table in this heist") from None
        raise IllegalCommand(f"the same card is given twice: {' '.join(map(str, cards))}") from None


def _deal(state: GameState, heist: HeistState, command: Deal) -> Event:
    if heist.seed is not None:
        raise IllegalCommand(f"the cards of heist {heist.number} were already dealt")
    if heist.current.colour != WHITE or any(h is not None for h in heist.current.holders.values()):
        raise IllegalCommand("the dealer deals before anyone takes a chip")
    if heist.pockets or heist.board:
        raise IllegalCommand("cards were already entered in this heist; the dealer can no longer deal")
    pockets, board = deal_deck(command.seed, len(state.seats))
    return PocketsDealt(command.seed, tuple(zip(state.players, pockets)), board)


def _reveal(heist: HeistState, command: Reveal) -> Event:
    if not heist.chips_open:
        raise IllegalCommand("all five community cards are out; next comes the showdown")
    colour = heist.current.colour
    need = BOARD_SIZE_AT_ROUND[colour] - len(heist.board)
    if need <= 0:
        if colour == WHITE:
            raise IllegalCommand("the flop is turned up when the yellow round begins; the white round is still open")
        nxt = COLOURS[colour + 1] if colour < RED else None
        later = f" once the {nxt} round begins" if nxt else " (that was the river)"
        raise IllegalCommand(f"the {COLOURS[colour]} round's cards are out; more come{later}")
    words = _BOARD_WORDS[BOARD_SIZE_AT_ROUND[colour]]
    if command.cards is None:
        if heist.dealt_board is None:
            raise IllegalCommand(f"nobody dealt this heist from the table; say which cards make {words}")
        return CardsRevealed(heist.dealt_board[len(heist.board):len(heist.board) + need])
    if heist.dealt_board is not None and command.cards != heist.dealt_board[len(heist.board):len(heist.board) + need]:
        raise IllegalCommand(f"the table dealt this heist; reveal {words} without naming cards")
    if len(command.cards) != need:
        raise IllegalCommand(f"{words} is {need} card{'s' if need > 1 else ''}, not {len(command.cards)}")
    _check_new_cards(heist, command.cards)
    return CardsRevealed(command.cards)


def _hand(state: GameState, heist: HeistState, command: Hand) -> Event:
    player = _player(state, command.player)
    if player in heist.pockets:
        how = "dealt" if heist.seed is not None else "entered"
        raise IllegalCommand(f"{player}'s pocket cards were already {how} ({' '.join(map(str, heist.pockets[player]))})")
    if len(command.cards) != POCKET_SIZE:
        raise IllegalCommand(f"a pocket is {POCKET_SIZE} cards, not {len(command.cards)}")
    _check_new_cards(heist, command.cards)
    return HandEntered(player, command.cards)


def _needs_board(heist: HeistState, current: RoundState) -> None:
    missing = BOARD_SIZE_AT_ROUND[current.colour] - len(heist.board)
    if missing > 0:
        words = _BOARD_WORDS[BOARD_SIZE_AT_ROUND[current.colour]]
        raise IllegalCommand(f"turn up {words} before the {COLOURS[current.colour]} chips are taken")


def _take(state: GameState, current: RoundState, command: Take) -> Event:
    assert state.heist is not None
    player = _player(state, command.player)
    colour = current.colour
    _needs_board(state.heist, current)
    if command.stars == EXIT_STARS and colour != RED:
        raise IllegalCommand("exit chips are only used in the red round")
    matching = [c for c in current.holders if c.stars == command.stars
                and (command.copy is None or c.copy == command.copy)]
    if not matching:
        what = "an exit chip" if command.stars == EXIT_STARS else f"chip {command.stars}"
        if command.copy is not None and any(c.stars == command.stars for c in current.holders):
            what = f"copy {command.copy} of {what}"
        raise IllegalCommand(f"{what} is not in play with {len(state.seats)} players")
    source = None if command.from_player is None else _player(state, command.from_player)
    if source == player:
        raise IllegalCommand(f"{player} cannot take a chip from themselves")
    own = current.exit_chip_of(player) if command.stars == EXIT_STARS else current.star_chip_of(player)
    if own is not None:
        if own.is_exit:
            raise IllegalCommand(f"{player} already holds an exit chip")
        if own in matching:
            raise IllegalCommand(f"{player} already holds {own.describe(colour)}")
        kind = "red star chip" if colour == RED and any(c.is_exit for c in current.holders) else f"{COLOURS[colour]} chip"
        raise IllegalCommand(f"{player} already holds a {kind} ({own.label} stars); they must put it back first")
    if source is not None:
        held = [c for c in matching if current.holders[c] == source]
        if not held:
            raise IllegalCommand(f"{source} does not hold {matching[0].describe(colour)}")
        chip = held[0]
    else:
        free = [c for c in matching if current.holders[c] is None]
        if not free:
            holders = sorted({h for c in matching if (h := current.holders[c]) is not None})
            raise IllegalCommand(f"{matching[0].describe(colour)} is not in the middle: {' and '.join(holders)} "
                                 f"{'has' if len(holders) == 1 else 'have'} it (say \"from\" to take it)")
        chip = free[0]
    return ChipTaken(player, colour, chip, source)


def _return(state: GameState, current: RoundState, command: Return) -> Event:
    player = _player(state, command.player)
    colour = current.colour
    held = current.held_by(player)
    if command.stars is not None:
        held = tuple(c for c in held if c.stars == command.stars)
    if not held:
        what = f"{COLOURS[colour]} chip" if command.stars is None else \
            ("exit chip" if command.stars == EXIT_STARS else f"{COLOURS[colour]} {command.stars}-star chip")
        raise IllegalCommand(f"{player} holds no {what} to put back")
    if len(held) > 1:
        raise IllegalCommand(f"{player} holds a star chip and an exit chip; say which to put back (\"chip\")")
    return ChipReturned(player, colour, held[0])


def _happy(state: GameState, current: RoundState, command: Happy) -> Event:
    player = _player(state, command.player)
    if current.star_chip_of(player) is None:
        raise IllegalCommand(f"{player} holds no {COLOURS[current.colour]} chip yet, so cannot be happy")
    if player in current.happy:
        raise IllegalCommand(f"{player} is already happy")
    everyone = current.happy | {player} >= set(state.players)
    return PlayerHappy(player, closes_round=everyone and current.is_full(state.players))


def _timer_expired(state: GameState, heist: HeistState, current: RoundState) -> Event:
    if state.timer is None:
        raise IllegalCommand("this game has no round timer")
    _needs_board(heist, current)
    free_stars = [c for c in current.middle if not c.is_exit]
    free_exits = [c for c in current.middle if c.is_exit]
    assigned: list[tuple[str, Chip]] = []
    for player in state.players:
        if current.star_chip_of(player) is None:
            assigned.append((player, free_stars.pop(0)))
    for player in state.players:
        if free_exits and current.exit_chip_of(player) is None:
            assigned.append((player, free_exits.pop(0)))
    return RoundTimedOut(current.colour, tuple(assigned))


def _showdown(state: GameState, heist: HeistState, judge: ShowdownJudge) -> Event:
    if heist.chips_open:
        raise IllegalCommand(f"the {COLOURS[heist.current.colour]} round is still open; the showdown comes after red")
    red = heist.current
    crew = [(p, heist.pockets.get(p, ()), None if (c := red.star_chip_of(p)) is None else c.stars,
             red.exit_chip_of(p) is not None) for p in state.players]
    missing = [name for name, pocket, _, leaves in crew if not leaves and not pocket]
    if missing:
        raise IllegalCommand(f"pocket cards missing for {', '.join(missing)}; enter them with hand")
    if len(heist.board) != 5:  # pragma: no cover - the rounds cannot close without the board
        raise IllegalCommand("the board needs all five community cards")
    try:
        verdict = judge(heist.board, crew)
    except ValueError as exc:  # the judge's own complaint about the hands, e.g. a card it cannot place
        raise IllegalCommand(f"the showdown cannot be judged: {exc}") from None
    return ShowdownJudged(bool(verdict.success), verdict.to_json())


__all__ = ["decide", "deal_deck", "ShowdownJudge", "VerdictLike", "chips_in_play"]
