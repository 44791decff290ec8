"""Events: the facts the engine records after accepting a command; the state is a fold over them.

Every event has a JSON form with an ``event`` field; the journal stores exactly that, one row per event.

>>> e = ChipTaken("Ana", YELLOW, Chip(3), from_player="Bo")
>>> e.to_json()
{'event': 'chip_taken', 'player': 'Ana', 'colour': 'yellow', 'chip': 3, 'copy': 0, 'from': 'Bo'}
>>> event_from_json(e.to_json()) == e
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Union

from companion.cards import Card, CardError, parse_cards
from companion.engine.chips import COLOURS, EXIT_STARS, YELLOW, Chip
from companion.engine.commands import Seat
from companion.engine.errors import ReplayError


@dataclass(frozen=True)
class GameStarted:
    """A crew sat down; the first heist begins with the white round."""

    seats: tuple[Seat, ...]
    timer: int | None
    mastermind: bool = False
    easier: bool = False
    kind = "game_started"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "players": [s.to_json() for s in self.seats], "timer": self.timer,
                "mastermind": self.mastermind, "easier": self.easier}


@dataclass(frozen=True)
class HeistStarted:
    """Heist ``number`` (1, 2, ...) begins with the white round."""

    number: int
    kind = "heist_started"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "number": self.number}


@dataclass(frozen=True)
class PocketsDealt:
    """The table's dealer shuffled with ``seed``: the pockets (seat order) and the five face-down board cards."""

    seed: int
    pockets: tuple[tuple[str, tuple[Card, ...]], ...]
    board: tuple[Card, ...]
    kind = "pockets_dealt"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "seed": self.seed,
                "pockets": [{"player": name, "cards": [str(c) for c in cards]} for name, cards in self.pockets],
                "board": [str(c) for c in self.board]}


@dataclass(frozen=True)
class CardsRevealed:
    """Community cards turned face up (three for the flop, then one, then one)."""

    cards: tuple[Card, ...]
    kind = "cards_revealed"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class HandEntered:
    """A player's pocket cards became known (typed in or read by the camera)."""

    player: str
    cards: tuple[Card, ...]
    kind = "hand_entered"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": self.player, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class ChipTaken:
    """``player`` took ``chip`` of ``colour`` from the middle, or from ``from_player``."""

    player: str
    colour: int
    chip: Chip
    from_player: str | None = None
    kind = "chip_taken"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": self.player, "colour": COLOURS[self.colour],
                **self.chip.to_json(), "from": self.from_player}


@dataclass(frozen=True)
class ChipReturned:
    """``player`` put ``chip`` of ``colour`` back in the middle."""

    player: str
    colour: int
    chip: Chip
    kind = "chip_returned"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": self.player, "colour": COLOURS[self.colour], **self.chip.to_json()}


@dataclass(frozen=True)
class PlayerHappy:
    """``player`` said they are happy; ``closes_round`` when that made the whole crew happy with a full table."""

    player: str
    closes_round: bool = False
    kind = "player_happy"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "player": self.player, "closes_round": self.closes_round}


@dataclass(frozen=True)
class RoundTimedOut:
    """The round clock ran out and closed the round; ``assigned`` lists the chips handed out to fill the gaps."""

    colour: int
    assigned: tuple[tuple[str, Chip], ...] = ()
    kind = "round_timed_out"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "colour": COLOURS[self.colour],
                "assigned": [{"player": p, **c.to_json()} for p, c in self.assigned]}


@dataclass(frozen=True)
class ShowdownJudged:
    """The showdown's outcome: ``success`` opens a vault, failure sounds an alarm; ``verdict`` is the judge's report."""

    success: bool
    verdict: Mapping[str, Any] = field(default_factory=dict)
    kind = "showdown_judged"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "success": self.success, "verdict": dict(self.verdict)}


@dataclass(frozen=True)
class GameAbandoned:
    """The crew gave up the game under way."""

    kind = "game_abandoned"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind}


@dataclass(frozen=True)
class Undone:
    """The latest standing event (of kind ``undone_kind``) was taken back."""

    undone_kind: str
    kind = "undone"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, "undone": self.undone_kind}


Event = Union[GameStarted, HeistStarted, PocketsDealt, CardsRevealed, HandEntered, ChipTaken, ChipReturned,
              PlayerHappy, RoundTimedOut, ShowdownJudged, GameAbandoned, Undone]


def event_from_json(obj: Any) -> Event:
    """Read one event back from its JSON object; raise ReplayError when it is not one."""
    if not isinstance(obj, Mapping):
        raise ReplayError(f"an event is a JSON object, not {obj!r}")
    kind = obj.get("event")
    reader = _READERS.get(kind) if isinstance(kind, str) else None
    if reader is None:
        raise ReplayError(f"unknown event {obj.get('event')!r}")
    try:
        return reader(obj)
    except (KeyError, TypeError, ValueError, OverflowError, AttributeError, CardError) as exc:
        raise ReplayError(f"damaged {obj.get('event')} event {dict(obj)!r}: {exc}") from None


def _colour(name: Any) -> int:
    return COLOURS.index(name)


def _chip(obj: Mapping[str, Any]) -> Chip:
    stars = EXIT_STARS if obj["chip"] == "exit" else int(obj["chip"])
    return Chip(stars, int(obj.get("copy", 0)))


def _cards(value: Any) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise TypeError("cards must be a list")
    return tuple(parse_cards(value))


def _seat(obj: Mapping[str, Any]) -> Seat:
    return Seat(str(obj["name"]), bool(obj.get("bot", False)))


_READERS: dict[str, Callable[[Mapping[str, Any]], Event]] = {
    "game_started": lambda o: GameStarted(tuple(_seat(s) for s in o["players"]),
                                          None if o["timer"] is None else int(o["timer"]),
                                          bool(o.get("mastermind", False)), bool(o.get("easier", False))),
    "heist_started": lambda o: HeistStarted(int(o["number"])),
    "pockets_dealt": lambda o: PocketsDealt(int(o["seed"]),
                                            tuple((str(p["player"]), _cards(p["cards"])) for p in o["pockets"]),
                                            _cards(o["board"])),
    "cards_revealed": lambda o: CardsRevealed(_cards(o["cards"])),
    "hand_entered": lambda o: HandEntered(str(o["player"]), _cards(o["cards"])),
    "chip_taken": lambda o: ChipTaken(str(o["player"]), _colour(o["colour"]), _chip(o),
                                      None if o.get("from") is None else str(o["from"])),
    "chip_returned": lambda o: ChipReturned(str(o["player"]), _colour(o["colour"]), _chip(o)),
    "player_happy": lambda o: PlayerHappy(str(o["player"]), bool(o.get("closes_round", False))),
    "round_timed_out": lambda o: RoundTimedOut(_colour(o["colour"]),
                                               tuple((str(a["player"]), _chip(a)) for a in o["assigned"])),
    "showdown_judged": lambda o: ShowdownJudged(bool(o["success"]), dict(o.get("verdict") or {})),
    "game_abandoned": lambda o: GameAbandoned(),
    "undone": lambda o: Undone(str(o["undone"])),
}

__all__ = ["Event", "event_from_json", "GameStarted", "HeistStarted", "PocketsDealt", "CardsRevealed",
           "HandEntered", "ChipTaken", "ChipReturned", "PlayerHappy", "RoundTimedOut", "ShowdownJudged",
           "GameAbandoned", "Undone"]
