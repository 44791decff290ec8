"""The showdown judge: are the red chips in the order of the hands?

The heist succeeds when no hand is weaker than a hand that holds a lower red chip. The two 0-star chips rank
equal with each other; exit-chip holders are left out; hands that truly tie may sit in either order.

>>> from companion.cards import parse_cards as p
>>> v = judge(p("2c 2d Ah Tc 7s"), [PlayerHand("Ana", tuple(p("Qs Qd")), 2), PlayerHand("Bo", tuple(p("3s 4h")), 1)])
>>> v.success
True
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from companion.cards import Card, CardError, RANK_CHARS, check_distinct, parse_cards
from companion.evaluator import MUSCLE_BIT, Category, Hand, HandError, explain
from companion.shapes import Slot, Variant, banana_boards, best, slots


class ShowdownError(ValueError):
    """A showdown that cannot be judged as given; the message names the problem."""


MAX_PLAYERS = 10  # the More Players expansion seats ten
MAX_EXTRA_STACK_CARDS = 2  # each of the two jokers that lands on the board turns one card into a stack of one more


@dataclass(frozen=True)
class PlayerHand:
    """One player at the showdown. ``chip`` is the red chip's stars (0..8); None only with an exit chip."""

    name: str
    pocket: tuple[Card, ...]
    chip: int | None
    exit: bool = False
    muscle: bool = False
    own_board: tuple[Card, ...] = ()  # stud: the four face-up cards in front of the player


@dataclass(frozen=True)
class RuleOptions:
    variant: Variant = Variant.HOLDEM
    pocket_size: int | None = None  # None: the variant's usual count; Security Cameras is 3 in hold'em
    piles: tuple[tuple[Card, ...], ...] = ()  # Banana Split: pile i between seat i and seat i+1
    jokers: bool = False  # the Jokers module: stacked community slots are allowed
    fingerprint_guess: str | None = None  # Fingerprint Scan: the crew's guess of the top hand's category
    retina_guess: int | None = None  # Retina Scan: a rank (2..14) the crew thinks the top player holds


@dataclass(frozen=True)
class PlayerResult:
    player: PlayerHand
    hand: Hand | None  # None for an exit-chip holder

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.player.name,
            "chip": self.player.chip,
            "exit": self.player.exit,
            "pocket": [str(c) for c in self.player.pocket],
        }
        if self.player.muscle:
            out["muscle"] = True
        if self.hand is not None:
            out.update(self.hand.to_json())
        return out


@dataclass(frozen=True)
class Misplaced:
    """A pair out of order: ``lower`` holds the lower chip but the stronger hand."""

    lower: str
    higher: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"lower_chip": self.lower, "higher_chip": self.higher, "reason": self.reason}


@dataclass(frozen=True)
class Verdict:
    success: bool
    players: tuple[PlayerResult, ...]
    misplaced: tuple[Misplaced, ...]
    reveal_order: tuple[str, ...]
    failed_checks: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "players": [p.to_json() for p in self.players],
            "misplaced": [m.to_json() for m in self.misplaced],
            "reveal_order": list(self.reveal_order),
            "failed_checks": list(self.failed_checks),
        }


def judge(board: Sequence[int | str | Sequence[int | str]], players: Sequence[PlayerHand], options: RuleOptions = RuleOptions()) -> Verdict:
    """Judge one showdown; raises ShowdownError naming the problem for input that cannot be judged."""
    variant = Variant(options.variant)
    board_slots = slots(board)
    _validate(board_slots, players, options, variant)
    if variant == Variant.BANANA_SPLIT:
        boards = banana_boards(options.piles, len(players))
    elif variant == Variant.STUD:
        boards = [()] * len(players)
    else:
        boards = [board_slots] * len(players)

    results: list[PlayerResult] = []
    for p, b in zip(players, boards):
        if p.exit:
            results.append(PlayerResult(p, None))
            continue
        try:
            hand = best(p.pocket + p.own_board, b, variant)
        except HandError as exc:
            raise ShowdownError(f"{p.name}: {exc}") from None
        if p.muscle:
            hand = Hand(hand.value | MUSCLE_BIT, hand.five)
        results.append(PlayerResult(p, hand))

    ranked = [r for r in results if r.hand is not None]
    ranked.sort(key=lambda r: (_chip_order(r.player.chip), r.player.name))
    misplaced = []
    for i, lo in enumerate(ranked):
        for hi in ranked[i + 1:]:
            assert lo.hand is not None and hi.hand is not None
            if _chip_order(lo.player.chip) < _chip_order(hi.player.chip) \
                    and lo.hand.value > hi.hand.value:
                misplaced.append(Misplaced(lo.player.name, hi.player.name, _reason(lo, hi)))
    failed = _extra_checks(ranked, options)
    return Verdict(
        success=not misplaced and not failed,
        players=tuple(results),
        misplaced=tuple(misplaced),
        reveal_order=tuple(r.player.name for r in ranked),
        failed_checks=tuple(failed),
    )


def _chip_order(chip: int | None) -> int:
    return -1 if chip is None else chip  # both 0-star chips share order 0


def _reason(lo: PlayerResult, hi: PlayerResult) -> str:
    assert lo.hand is not None and hi.hand is not None
    return (f"{lo.player.name} took red {lo.player.chip} but holds {lo.hand.describe()}, stronger than "
            f"{hi.player.name}'s {hi.hand.describe()} on red {hi.player.chip}. {explain(lo.hand, hi.hand)}")


def _extra_checks(ranked: Sequence[PlayerResult], options: RuleOptions) -> list[str]:
    failed: list[str] = []
    if not ranked:
        return failed
    top = ranked[-1]
    assert top.hand is not None
    if options.fingerprint_guess is not None:
        guess = _hand_ranking(options.fingerprint_guess)
        actual = top.hand.category.label
        if guess != actual:
            failed.append(f"Fingerprint Scan: the crew guessed {guess} but {top.player.name} holds {actual}.")
    if options.retina_guess is not None:
        if not any(c.rank == options.retina_guess for c in top.player.pocket):
            failed.append(f"Retina Scan: {top.player.name} holds no {RANK_CHARS[options.retina_guess - 2]} in the pocket.")
    return failed


HAND_RANKINGS = tuple(c.label for c in Category)  # the Fingerprint Scan's ten choices


def _hand_ranking(text: str) -> str:
    """'Full-House', 'two_pair ' -> 'full house', 'two pair': the words of a hand ranking, spelled one way."""
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def _validate(board: Sequence[Slot], players: Sequence[PlayerHand], options: RuleOptions, variant: Variant) -> None:
    # A guess the judge cannot read would fail the heist for a typo: refuse it instead.
    if options.fingerprint_guess is not None and _hand_ranking(options.fingerprint_guess) not in HAND_RANKINGS:
        raise ShowdownError(f"the Fingerprint Scan guess {options.fingerprint_guess!r} is not a hand ranking "
                            f"(one of: {', '.join(HAND_RANKINGS)})")
    if options.retina_guess is not None and (isinstance(options.retina_guess, bool)
                                             or not 2 <= options.retina_guess <= 14):
        raise ShowdownError(f"the Retina Scan guess {options.retina_guess!r} is not a rank (2 to 14, ace high)")
    if len(players) < 2:
        raise ShowdownError("a showdown needs at least two players")
    if len(players) > MAX_PLAYERS:
        raise ShowdownError(f"The Gang seats at most {MAX_PLAYERS} players, not {len(players)}")
    dup = [n for n, k in Counter(p.name for p in players).items() if k > 1]
    if dup:
        raise ShowdownError(f"two players share the name {sorted(dup)[0]!r}")
    for i, s in enumerate(board):
        if not s:
            raise ShowdownError(f"board slot {i + 1} is an empty stack: a stack holds the two or three cards "
                                f"that replaced a joker")
    everything: list[Card] = [c for s in board for c in s] + [c for pile in options.piles for c in pile]
    for p in players:
        everything += list(p.pocket) + list(p.own_board)
    try:
        check_distinct(everything)
    except CardError as exc:
        raise ShowdownError(f"{exc}: every card is in play only once") from None
    jokers = [c for c in everything if c.is_joker]
    if jokers:
        raise ShowdownError(f"{jokers[0]} is a joker: replace it (pocket: draw two and keep one; board: stack two) before the showdown")
    if any(len(s) > 1 for s in board) and not options.jokers:
        raise ShowdownError("stacked board cards are only allowed with the Jokers module (set \"jokers\": true)")
    for i, s in enumerate(board):
        if len(s) > 3:
            raise ShowdownError(f"board slot {i + 1} stacks {len(s)} cards; a joker is replaced by two cards, "
                                f"or three when a second joker comes up")
    if sum(len(s) - 1 for s in board) > MAX_EXTRA_STACK_CARDS:
        raise ShowdownError("there are only two jokers: the stacks on the board can hold at most two cards more "
                            "than five single cards would")
    if variant in (Variant.HOLDEM, Variant.OMAHA, Variant.VOTE_OF_CHANGE) and len(board) != 5:
        raise ShowdownError(f"the board must hold 5 cards (or stacks) at the showdown, got {len(board)}")
    if variant in (Variant.STUD, Variant.BANANA_SPLIT) and board:
        raise ShowdownError(f"{variant.value} has no community board")
    if variant == Variant.BANANA_SPLIT and len(options.piles) != len(players):
        raise ShowdownError(f"Banana Split needs one pile between each pair of neighbours: {len(players)} piles "
                            f"for {len(players)} players, got {len(options.piles)}")
    for i, pile in enumerate(options.piles if variant == Variant.BANANA_SPLIT else ()):
        if len(pile) != 3:
            raise ShowdownError(f"pile {i + 1} holds {len(pile)} cards; at the showdown every pile holds 3")
    size = options.pocket_size or variant.default_pocket_size
    zero = [p.name for p in players if p.chip == 0]  # an exit-chip holder's star chip is one of them too
    seen_chips: dict[int, str] = {}
    for p in players:
        if p.chip is not None and not 0 <= p.chip <= 8:
            raise ShowdownError(f"{p.name}'s red chip {p.chip} does not exist (chips run from 0 to 8 stars)")
        if p.chip is None and not p.exit:
            raise ShowdownError(f"{p.name} has no red chip")
        if p.chip is not None and p.chip != 0:
            if p.chip in seen_chips:
                raise ShowdownError(f"{seen_chips[p.chip]} and {p.name} both hold red {p.chip}")
            seen_chips[p.chip] = p.name
        own = len(p.pocket) + len(p.own_board)
        if not p.exit and own != size:
            raise ShowdownError(f"{p.name} shows {own} cards; {variant.value} needs {size}")
        if p.own_board and variant != Variant.STUD:
            raise ShowdownError(f"{p.name}: face-up cards of their own only exist in Seven Card Stud")
    if len(zero) > 2:
        raise ShowdownError("there are only two 0-star chips")
    if sum(p.muscle for p in players) > 1:
        raise ShowdownError("only one player can hold the Muscle")


# --- JSON in, JSON out ----------------------------------------------------------------------------------------
def _cards(value: Any, what: str) -> list[Card]:
    if not isinstance(value, (list, tuple)):
        raise ShowdownError(f"{what} must be a list of cards, got {value!r}")
    for item in value:
        if not isinstance(item, str):  # a JSON number is no card: 0 would silently be the 2 of clubs
            raise ShowdownError(f"{what}: not a card: {item!r} (write cards as text, e.g. \"As\" or \"10d\")")
    try:
        return parse_cards(value)
    except CardError as exc:
        raise ShowdownError(f"{what}: {exc}") from None


def showdown_from_json(data: Any) -> tuple[list[Card | list[Card]], list[PlayerHand], RuleOptions]:
    """Read the judge's JSON shape (see the README); raises ShowdownError naming the bad field."""
    if not isinstance(data, Mapping):
        raise ShowdownError("a showdown must be a JSON object with 'board' and 'players'")
    unknown = set(data) - {"board", "players", "variant", "pocket_size", "piles", "jokers", "fingerprint_guess", "retina_guess"}
    if unknown:
        raise ShowdownError(f"unknown field {sorted(unknown)[0]!r}")
    variant_name = data.get("variant", "holdem")
    try:
        variant = Variant(variant_name)
    except ValueError:
        raise ShowdownError(f"unknown variant {variant_name!r} (one of {', '.join(v.value for v in Variant)})") from None
    board: list[Card | list[Card]] = []
    raw_board = data.get("board", [])
    if not isinstance(raw_board, list):
        raise ShowdownError("'board' must be a list of cards")
    for i, item in enumerate(raw_board):
        if isinstance(item, list):
            if not item:
                raise ShowdownError(f"board slot {i + 1} is an empty stack: a stack holds the two or three cards "
                                    f"that replaced a joker")
            board.append(_cards(item, f"board slot {i + 1}"))
        else:
            board.extend(_cards([item], f"board slot {i + 1}"))
    raw_players = data.get("players")
    if not isinstance(raw_players, list) or not raw_players:
        raise ShowdownError("'players' must be a non-empty list")
    players = []
    for i, rp in enumerate(raw_players):
        if not isinstance(rp, Mapping):
            raise ShowdownError(f"player {i + 1} must be an object")
        name = rp.get("name", f"player {i + 1}")
        if not isinstance(name, str) or not name:
            raise ShowdownError(f"player {i + 1}: 'name' must be text")
        bad = set(rp) - {"name", "pocket", "chip", "exit", "muscle", "face_up"}
        if bad:
            raise ShowdownError(f"{name}: unknown field {sorted(bad)[0]!r}")
        chip = rp.get("chip")
        if chip is not None and (isinstance(chip, bool) or not isinstance(chip, int)):
            raise ShowdownError(f"{name}: 'chip' must be a whole number of stars, got {chip!r}")
        for flag in ("exit", "muscle"):
            if not isinstance(rp.get(flag, False), bool):
                raise ShowdownError(f"{name}: {flag!r} must be true or false")
        players.append(PlayerHand(
            name=name,
            pocket=tuple(_cards(rp.get("pocket", []), f"{name}'s pocket")),
            chip=chip,
            exit=rp.get("exit", False),
            muscle=rp.get("muscle", False),
            own_board=tuple(_cards(rp.get("face_up", []), f"{name}'s face-up cards")),
        ))
    raw_piles = data.get("piles", [])
    if not isinstance(raw_piles, list):
        raise ShowdownError("'piles' must be a list of piles, each a list of cards")
    piles = tuple(tuple(_cards(p, f"pile {i + 1}")) for i, p in enumerate(raw_piles))
    pocket_size = data.get("pocket_size")
    if pocket_size is not None and (isinstance(pocket_size, bool) or not isinstance(pocket_size, int) or pocket_size < 1):
        raise ShowdownError("'pocket_size' must be a positive whole number")
    retina = data.get("retina_guess")
    if retina is not None:
        try:
            retina = Card.parse(f"{retina}c").rank
        except CardError:
            raise ShowdownError(f"'retina_guess' must be a rank 2-10, J, Q, K or A, got {retina!r}") from None
    jokers = data.get("jokers", False)
    if not isinstance(jokers, bool):
        raise ShowdownError("'jokers' must be true or false")
    fp = data.get("fingerprint_guess")
    if fp is not None and not isinstance(fp, str):
        raise ShowdownError("'fingerprint_guess' must be a hand category such as \"flush\"")
    return board, players, RuleOptions(variant, pocket_size, piles, jokers, fp, retina)


def judge_json(data: Any) -> dict[str, Any]:
    board, players, options = showdown_from_json(data)
    return judge(board, players, options).to_json()
