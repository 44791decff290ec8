"""Commands: what a player, the camera, a bot or the round clock asks the engine to do.

Each command has a JSON form, one object with a ``cmd`` field (this is the play-script format):

>>> command_from_json({"cmd": "take", "player": "Ana", "chip": 3, "from": "Bo"})
Take(player='Ana', stars=3, copy=None, from_player='Bo')
>>> command_from_json({"cmd": "reveal", "cards": ["2c", "2d", "Ah"]}).to_json()
{'cmd': 'reveal', 'cards': ['2c', '2d', 'Ah']}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Union

from companion.cards import Card, CardError, parse_cards
from companion.engine.chips import EXIT_STARS
from companion.engine.errors import MalformedCommand

DEFAULT_TIMER = 90


@dataclass(frozen=True)
class Seat:
    """A seat at the table: the player's name, and whether a bot plays it."""

    name: str
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot}


@dataclass(frozen=True)
class NewGame:
    """Seat a crew (in seat order) and start the first heist."""

    seats: tuple[Seat, ...]
    timer: int | None = DEFAULT_TIMER
    mastermind: bool = False
    easier: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "new_game", "players": [s.to_json() for s in self.seats], "timer": self.timer,
                "mastermind": self.mastermind, "easier": self.easier}


@dataclass(frozen=True)
class Deal:
    """Let the table's dealer shuffle (from ``seed``) and deal every pocket and the five community cards."""

    seed: int

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "deal", "seed": self.seed}


@dataclass(frozen=True)
class Reveal:
    """Turn up this round's community cards; without ``cards`` the dealer's next ones."""

    cards: tuple[Card, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cmd": "reveal"}
        if self.cards is not None:
            out["cards"] = [str(c) for c in self.cards]
        return out


@dataclass(frozen=True)
class Hand:
    """Tell the engine a player's pocket cards (typed in or read by the camera)."""

    player: str
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "hand", "player": self.player, "cards": [str(c) for c in self.cards]}


@dataclass(frozen=True)
class Take:
    """``player`` takes a chip of the round's colour from the middle, or from ``from_player``.

    ``stars`` is ``EXIT_STARS`` for an exit chip; ``copy`` picks one of two equal chips (default: any).
    """

    player: str
    stars: int
    copy: int | None = None
    from_player: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cmd": "take", "player": self.player, "chip": _chip_json(self.stars)}
        if self.copy is not None:
            out["copy"] = self.copy
        if self.from_player is not None:
            out["from"] = self.from_player
        return out


@dataclass(frozen=True)
class Return:
    """``player`` puts a chip of the round's colour back in the middle (``stars`` needed only when holding two)."""

    player: str
    stars: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cmd": "return", "player": self.player}
        if self.stars is not None:
            out["chip"] = _chip_json(self.stars)
        return out


@dataclass(frozen=True)
class Happy:
    """``player`` is content with the chips as they lie."""

    player: str

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "happy", "player": self.player}


@dataclass(frozen=True)
class TimerExpired:
    """The round clock (outside the engine) ran out: close the round now."""

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "timer_expired"}


@dataclass(frozen=True)
class Showdown:
    """Judge the red chips against the hands."""

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "showdown"}


@dataclass(frozen=True)
class NextHeist:
    """Start the next heist after a showdown."""

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "next_heist"}


@dataclass(frozen=True)
class Abandon:
    """Give up the game under way (so that a new one can start)."""

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "abandon"}


@dataclass(frozen=True)
class Undo:
    """Take back the last event."""

    def to_json(self) -> dict[str, Any]:
        return {"cmd": "undo"}


Command = Union[NewGame, Deal, Reveal, Hand, Take, Return, Happy, TimerExpired, Showdown, NextHeist, Abandon, Undo]

COMMAND_NAMES: tuple[str, ...] = ("new_game", "deal", "reveal", "hand", "take", "return", "happy",
                                  "timer_expired", "showdown", "next_heist", "abandon", "undo")

_ALLOWED_FIELDS: dict[str, frozenset[str]] = {
    "new_game": frozenset({"players", "timer", "mastermind", "easier"}),
    "deal": frozenset({"seed"}),
    "reveal": frozenset({"cards"}),
    "hand": frozenset({"player", "cards"}),
    "take": frozenset({"player", "chip", "copy", "from"}),
    "return": frozenset({"player", "chip"}),
    "happy": frozenset({"player"}),
    "timer_expired": frozenset(),
    "showdown": frozenset(),
    "next_heist": frozenset(),
    "abandon": frozenset(),
    "undo": frozenset(),
}


def command_from_json(obj: Any) -> Command:
    """Read one command from its JSON object; raise MalformedCommand naming what is wrong."""
    if not isinstance(obj, Mapping):
        raise MalformedCommand(f"a command is a JSON object like {{\"cmd\": \"happy\", \"player\": \"Ana\"}}, not {obj!r}")
    name = obj.get("cmd")
    if not isinstance(name, str) or name not in _ALLOWED_FIELDS:
        raise MalformedCommand(f"unknown cmd {name!r}; known: {', '.join(COMMAND_NAMES)}")
    extra = sorted(set(obj) - {"cmd"} - _ALLOWED_FIELDS[name])
    if extra:
        raise MalformedCommand(f"{name}: unexpected field(s) {', '.join(map(repr, extra))}")
    if name == "new_game":
        return NewGame(_seats(obj.get("players")), _timer(obj), _flag(obj, "mastermind"), _flag(obj, "easier"))
    if name == "deal":
        return Deal(_int(obj, "seed"))
    if name == "reveal":
        return Reveal(_cards(obj, "cards") if obj.get("cards") is not None else None)
    if name == "hand":
        return Hand(_name(obj, "player"), _cards(obj, "cards"))
    if name == "take":
        copy = _int(obj, "copy") if obj.get("copy") is not None else None
        source = _name(obj, "from") if obj.get("from") is not None else None
        return Take(_name(obj, "player"), _stars(obj.get("chip")), copy, source)
    if name == "return":
        return Return(_name(obj, "player"), _stars(obj["chip"]) if obj.get("chip") is not None else None)
    if name == "happy":
        return Happy(_name(obj, "player"))
    simple: dict[str, Command] = {"timer_expired": TimerExpired(), "showdown": Showdown(),
                                  "next_heist": NextHeist(), "abandon": Abandon(), "undo": Undo()}
    return simple[name]


def _chip_json(stars: int) -> int | str:
    return "exit" if stars == EXIT_STARS else stars


def _stars(value: Any) -> int:
    if isinstance(value, str) and value.strip().lower() == "exit":
        return EXIT_STARS
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        return int(value.strip())
    raise MalformedCommand(f"chip must be a number of stars (0 to 8) or \"exit\", not {value!r}")


MAX_NAME_LENGTH = 40


def _is_name(value: Any) -> bool:
    """Text a screen can show: not blank, no control characters or lone surrogates (they cannot be printed)."""
    return isinstance(value, str) and bool(value.strip()) and value.strip().isprintable() \
        and len(value.strip()) <= MAX_NAME_LENGTH


def _name(obj: Mapping[str, Any], field: str) -> str:
    value = obj.get(field)
    if not _is_name(value):
        why = f" (a name is up to {MAX_NAME_LENGTH} printable characters)" \
            if isinstance(value, str) and value.strip() else ""
        raise MalformedCommand(f"{obj.get('cmd')}: {field!r} must be a player's name, not {value!r}{why}")
    assert isinstance(value, str)
    return value.strip()


def _int(obj: Mapping[str, Any], field: str) -> int:
    value = obj.get(field)
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedCommand(f"{obj.get('cmd')}: {field!r} must be a whole number, not {value!r}")
    return value


def _flag(obj: Mapping[str, Any], field: str) -> bool:
    value = obj.get(field, False)
    if not isinstance(value, bool):
        raise MalformedCommand(f"{obj.get('cmd')}: {field!r} must be true or false, not {value!r}")
    return value


def _timer(obj: Mapping[str, Any]) -> int | None:
    if "timer" not in obj:
        return DEFAULT_TIMER
    value = obj["timer"]
    if value is None or value is False or value == 0:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 3600:
        raise MalformedCommand(f"new_game: 'timer' is seconds per round (1 to 3600), or null/0 for no timer, not {value!r}")
    return value


def _cards(obj: Mapping[str, Any], field: str) -> tuple[Card, ...]:
    value = obj.get(field)
    if not isinstance(value, (list, str)):
        raise MalformedCommand(f"{obj.get('cmd')}: {field!r} must be a list of cards like [\"Qs\", \"10d\"], not {value!r}")
    for item in value if isinstance(value, list) else ():
        if not isinstance(item, (str, Card)):  # a JSON number is no card: 0 would silently be the 2 of clubs
            raise MalformedCommand(f"{obj.get('cmd')}: not a card: {item!r} (write cards as text, e.g. \"As\")")
    try:
        return tuple(parse_cards(value))
    except CardError as exc:
        raise MalformedCommand(f"{obj.get('cmd')}: {exc}") from None


def _seats(value: Any) -> tuple[Seat, ...]:
    if not isinstance(value, list):
        raise MalformedCommand(f"new_game: 'players' must be a list of names in seat order, not {value!r}")
    seats = []
    for item in value:
        if _is_name(item):
            seats.append(Seat(item.strip()))
        elif isinstance(item, Mapping) and _is_name(item.get("name")) \
                and isinstance(item.get("bot", False), bool) and set(item) <= {"name", "bot"}:
            seats.append(Seat(item["name"].strip(), bool(item.get("bot", False))))
        else:
            raise MalformedCommand(f"new_game: a player is a name (up to {MAX_NAME_LENGTH} printable characters) "
                                   f"or {{\"name\": ..., \"bot\": true}}, not {item!r}")
    return tuple(seats)
