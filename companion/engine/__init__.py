"""The game engine for The Gang: commands -> events -> state, with undo as a stack.

Pure: no I/O, no clock, no randomness except the dealer's seed carried in a command and its event.
The journal (``companion.journal``) and the command line (``companion.cli.play_cmd``) sit around it.

- ``commands``: what can be asked (``Take``, ``Happy``, ``Reveal``...), and their JSON form
- ``events``: what was recorded (``ChipTaken``, ``PlayerHappy``...), and their JSON form
- ``rules``: ``decide(state, command) -> event`` or IllegalCommand
- ``state``: ``GameState`` and ``apply(state, event) -> state``
- ``table``: ``Table``, which ties them together and keeps the undo stack
"""

from companion.engine.chips import COLOURS, EXIT_STARS, RED, WHITE, Chip, chips_in_play, exit_count
from companion.engine.commands import (COMMAND_NAMES, Abandon, Command, Deal, Happy, Hand, NewGame, NextHeist, Return,
                                       Reveal, Seat, Showdown, Take, TimerExpired, Undo, command_from_json)
from companion.engine.errors import CommandError, IllegalCommand, MalformedCommand, ReplayError
from companion.engine.events import (CardsRevealed, ChipReturned, ChipTaken, Event, GameAbandoned, GameStarted,
                                     HandEntered,
                                     HeistStarted, PlayerHappy, PocketsDealt, RoundTimedOut, ShowdownJudged, Undone,
                                     event_from_json)
from companion.engine.rules import ShowdownJudge, VerdictLike, deal_deck
from companion.engine.state import GameState, HeistState, RoundState, apply
from companion.engine.table import Table, judge_with_companion

__all__ = [
    "COLOURS", "EXIT_STARS", "RED", "WHITE", "Chip", "chips_in_play", "exit_count",
    "COMMAND_NAMES", "Abandon", "Command", "Deal", "Happy", "Hand", "NewGame", "NextHeist", "Return", "Reveal", "Seat",
    "Showdown", "Take", "TimerExpired", "Undo", "command_from_json",
    "CommandError", "IllegalCommand", "MalformedCommand", "ReplayError",
    "CardsRevealed", "ChipReturned", "ChipTaken", "Event", "GameAbandoned", "GameStarted", "HandEntered", "HeistStarted",
    "PlayerHappy", "PocketsDealt", "RoundTimedOut", "ShowdownJudged", "Undone", "event_from_json",
    "ShowdownJudge", "VerdictLike", "deal_deck", "GameState", "HeistState", "RoundState", "apply",
    "Table", "judge_with_companion",
]
