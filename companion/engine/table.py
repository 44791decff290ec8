"""``Table``: the engine's front door. Commands go in, events come out, and the history is an undo stack.

>>> t = Table()
>>> _ = t.execute(command_from_json({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"], "timer": None}))
>>> t.execute(command_from_json({"cmd": "take", "player": "Ana", "chip": 3}))
ChipTaken(player='Ana', colour=0, chip=Chip(stars=3, copy=0), from_player=None)
>>> t.execute(command_from_json({"cmd": "take", "player": "Ana", "chip": 1}))
Traceback (most recent call last):
...
companion.engine.errors.IllegalCommand: Ana already holds a white chip (3 stars); they must put it back first
>>> t.execute(command_from_json({"cmd": "undo"})).to_json()
{'event': 'undone', 'undone': 'chip_taken'}
>>> [chip.label for chip in t.state.heist.current.middle]
['1', '2', '3']
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from companion.cards import Card
from companion.engine.commands import (Abandon, Command, Deal, Happy, Hand, NewGame, NextHeist, Return, Reveal, Take,
                                       TimerExpired, Undo, command_from_json)
from companion.engine.errors import CommandError, IllegalCommand, ReplayError
from companion.engine.events import (CardsRevealed, ChipReturned, ChipTaken, Event, GameAbandoned, GameStarted,
                                     HandEntered,
                                     HeistStarted, PlayerHappy, PocketsDealt, ShowdownJudged, Undone)
from companion.engine.rules import ShowdownJudge, VerdictLike, decide
from companion.engine.state import GameState, apply

__all__ = ["Table", "judge_with_companion", "command_from_json"]


def judge_with_companion(board: tuple[Card, ...],
                         crew: Sequence[tuple[str, tuple[Card, ...], int | None, bool]]) -> VerdictLike:
    """The real showdown: ``companion.judge`` with the base-game rule options."""
    from companion.judge import PlayerHand, judge  # imported late: the engine's other rules do not need it

    players = [PlayerHand(name=name, pocket=pocket, chip=chip, exit=leaves) for name, pocket, chip, leaves in crew]
    return judge(board, players)


class Table:
    """One table's game: ``state``, the standing ``events`` (the undo stack) and a judge for showdowns."""

    def __init__(self, judge: ShowdownJudge | None = None) -> None:
        self._judge: ShowdownJudge = judge or judge_with_companion
        self._states: list[GameState] = [GameState()]
        self._events: list[Event] = []

    @property
    def state(self) -> GameState:
        return self._states[-1]

    @property
    def events(self) -> tuple[Event, ...]:
        """The events that stand (undone ones are gone), oldest first."""
        return tuple(self._events)

    def decide(self, command: Command) -> Event:
        """The event ``command`` would record, without changing anything (IllegalCommand if forbidden)."""
        if isinstance(command, Undo):
            if not self._events:
                raise IllegalCommand("nothing to undo")
            return Undone(self._events[-1].kind)
        return decide(self.state, command, self._judge)

    def apply(self, event: Event, verify: bool = False) -> None:
        """Record an event that ``decide`` produced; ``verify`` first checks the rules would produce it here.

        Replays verify, so a damaged or hand-edited history fails with ReplayError instead of a bad state.
        """
        if verify and not isinstance(event, Undone):
            _verify(self.state, event)
        if isinstance(event, Undone):
            if not self._events or self._events[-1].kind != event.undone_kind:
                top = self._events[-1].kind if self._events else "nothing"
                raise ReplayError(f"an undo of {event.undone_kind} finds {top} on top of the history")
            self._events.pop()
            self._states.pop()
            return
        self._states.append(apply(self.state, event))
        self._events.append(event)

    def execute(self, command: Command | dict[str, Any]) -> Event:
        """Decide and apply one command (a Command or its JSON object); return the event recorded."""
        if not isinstance(command, (dict,)):
            event = self.decide(command)
        else:
            event = self.decide(command_from_json(command))
        self.apply(event)
        return event

    def undo(self) -> Event:
        """Take back the latest event; returns the ``Undone`` record (IllegalCommand when there is none)."""
        return self.execute(Undo())

    @classmethod
    def replay(cls, events: Iterable[Event], judge: ShowdownJudge | None = None) -> "Table":
        """A table rebuilt from a recorded history (undo records included)."""
        table = cls(judge)
        for number, event in enumerate(events, 1):
            try:
                table.apply(event, verify=True)
            except ReplayError as exc:
                raise ReplayError(f"event {number}: {exc}") from None
        return table


def _verify(state: GameState, event: Event) -> None:
    """Raise ReplayError unless the rules, in ``state``, would record exactly ``event``."""
    if isinstance(event, ShowdownJudged):
        if state.phase != "showdown":
            raise ReplayError(f"a showdown result arrives while the game is in phase {state.phase!r}")
        return
    command: Command
    if isinstance(event, GameStarted):
        command = NewGame(event.seats, event.timer, event.mastermind, event.easier)
    elif isinstance(event, HeistStarted):
        command = NextHeist()
    elif isinstance(event, PocketsDealt):
        command = Deal(event.seed)
    elif isinstance(event, CardsRevealed):
        command = Reveal(event.cards)
    elif isinstance(event, HandEntered):
        command = Hand(event.player, event.cards)
    elif isinstance(event, ChipTaken):
        command = Take(event.player, event.chip.stars, event.chip.copy, event.from_player)
    elif isinstance(event, ChipReturned):
        command = Return(event.player, event.chip.stars)
    elif isinstance(event, PlayerHappy):
        command = Happy(event.player)
    elif isinstance(event, GameAbandoned):
        command = Abandon()
    else:
        command = TimerExpired()
    try:
        expected = decide(state, command, _no_judge)
    except CommandError as exc:
        raise ReplayError(f"{event.kind} breaks the rules here: {exc}") from None
    if expected != event:
        raise ReplayError(f"the rules record {expected.to_json()} where the history says {event.to_json()}")


def _no_judge(board: tuple[Card, ...], crew: Sequence[tuple[str, tuple[Card, ...], int | None, bool]]) -> VerdictLike:
    raise AssertionError("replays never judge")  # pragma: no cover
