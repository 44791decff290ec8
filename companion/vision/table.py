"""Table logic: from the reader's per-frame card reads to what lies where, with every doubt flagged for the crew.

Pure: numpy and the core's ``cards`` module, no OpenCV. The flow, once per settled table:

1. :class:`SettleDetector` watches low-resolution frames; the table is settled when the picture has not
   changed for a few frames in a row (hands away, cards down).
2. The reader reads several stills of the settled table; each gives a list of :class:`~companion.vision.CardRead`.
3. :func:`vote` groups the reads of one card across corners and frames, votes on its code, puts it in its
   zone (:mod:`zones`) and checks the result against the round (:class:`Expect`) and the deck (:class:`Rules`).
4. The crew sees :attr:`Reading.issues` (plain words) and fixes them with :meth:`Reading.confirm`,
   :meth:`Reading.correct`, :meth:`Reading.add` and :meth:`Reading.remove`; :meth:`Reading.accepted` gives the
   cards only when nothing is left in doubt. Nothing doubtful is ever accepted silently.

>>> import numpy as np
>>> from companion.vision import CardRead
>>> from companion.vision.zones import default_layout
>>> def card(code, x, y, corner="tl", conf=0.99):
...     q = np.array([[x - 30, y - 42], [x + 30, y - 42], [x + 30, y + 42], [x - 30, y + 42]])
...     return CardRead(code, conf, q, corner)
>>> frame = [card("Ah", 240, 240), card("Ah", 240, 240, "br"), card("7c", 320, 240), card("Ts", 400, 240)]
>>> r = vote([frame] * 3, default_layout(4), (640, 480), expect=expect_for_round(2))
>>> r.codes("community"), r.issues
(['Ah', '7c', 'Ts'], [])
>>> r = vote([frame[:3]] * 3, default_layout(4), (640, 480), expect=expect_for_round(2))
>>> [i.message for i in r.issues]
['The community row should hold 3 cards; 2 are there.']
>>> r.add("community", "Ts"); r.issues, r.accepted()["community"]
([], ['Ah', '7c', 'Ts'])
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence

import numpy as np

from ..cards import Card, CardError
from . import BACK, CardRead, FrameReads
from .zones import Zones

__all__ = [
    "Rules", "Expect", "expect_for_round", "standard_deck", "SeenCard", "Issue", "Reading", "ReadingError",
    "UnresolvedReading", "vote", "SettleDetector", "read_settled", "zone_words", "card_words", "OUTSIDE",
]

OUTSIDE = "outside"  # pseudo-zone for cards that lie in no calibrated zone
STANDARD_CODES = frozenset(str(Card(i)) for i in range(52))


def standard_deck(jokers: bool = False, suitless_jack: bool = False) -> frozenset[str]:
    """The codes a variant's deck holds: the 52 cards, plus the jokers and/or the suitless Jack."""
    codes = set(STANDARD_CODES)
    if jokers:
        codes |= {"JR", "JB"}
    if suitless_jack:
        codes.add("JACK")
    return frozenset(codes)


@dataclass(frozen=True)
class Rules:
    """What the table logic accepts without asking.

    - ``deck``: the codes this variant's deck holds (a joker where jokers are not played is flagged)
    - ``min_confidence``: a card's final confidence below this is flagged
    - ``min_presence``: share of the voted frames a card must be seen in (less: it flickers, flag it)
    - ``same_card``: two reads whose card centres are closer than this many card widths are the same card
      (a pocket pair is fanned by at least a quarter of a card, so its two cards stay apart)
    """

    deck: frozenset[str] = STANDARD_CODES
    min_confidence: float = 0.8
    min_presence: float = 0.5
    same_card: float = 0.2


@dataclass(frozen=True)
class Expect:
    """What the table should show now. ``None`` means "do not check".

    - ``community``: cards in the community row
    - ``hand_min`` / ``hand_max``: cards per hand, in each seat of ``seats`` (or each seat holding cards)
    - ``hands_face_up``: True at the showdown (a face-down hand is flagged), False before it
    """

    community: int | None = None
    hand_min: int | None = None
    hand_max: int | None = None
    hands_face_up: bool | None = None
    seats: tuple[str, ...] | None = None


COMMUNITY_BY_ROUND = {1: 0, 2: 3, 3: 4, 4: 5}


def expect_for_round(round_no: int, showdown: bool = False, hand_size: int = 2,
                     seats: Iterable[str] | None = None, variable_hands: bool = False) -> Expect:
    """The Gang's rounds: 1 no community cards (white chips), 2 the flop of 3 (yellow), 3 the turn, 4 cards
    (orange), 4 the river, 5 cards (red); at the showdown every hand lies face up.

    ``variable_hands`` for variants where a hand may hold more than ``hand_size`` cards (then it is a minimum).

    >>> expect_for_round(3)
    Expect(community=4, hand_min=2, hand_max=2, hands_face_up=False, seats=None)
    >>> expect_for_round(4, showdown=True, variable_hands=True).hand_max is None
    True
    """
    if round_no not in COMMUNITY_BY_ROUND:
        raise ValueError(f"The Gang has rounds 1 to 4, not {round_no}")
    return Expect(COMMUNITY_BY_ROUND[round_no], hand_size, None if variable_hands else hand_size,
                  showdown, tuple(seats) if seats is not None else None)


# ---- words --------------------------------------------------------------------------------------------

def zone_words(zone: str) -> str:
    """'community' -> 'the community row'; 'seat:0' -> 'seat 1' (people count seats from 1)."""
    kind, _, num = zone.partition(":")
    if kind == "community":
        return "the community row"
    if kind == "showdown":
        return "the showdown area"
    if kind == "seat" and num.isdigit():
        return f"seat {int(num) + 1}"
    if kind == "between" and num.isdigit():
        return f"the space after seat {int(num) + 1}"
    if zone == OUTSIDE:
        return "no zone"
    return zone


def card_words(code: str | None) -> str:
    if code is None:
        return "an unreadable card"
    if code == BACK:
        return "a face-down card"
    try:
        return "the " + Card.parse(code).name().removeprefix("the ")
    except CardError:
        return repr(code)


def _place_words(zone: str, index: int) -> str:
    if zone == "community":
        return f"card {index + 1} of the community row (from the left)"
    return f"card {index + 1} in {zone_words(zone)}"


# ---- results ------------------------------------------------------------------------------------------

@dataclass
class SeenCard:
    """One card on the table after voting. ``quad`` and ``centre`` are in normalised image coordinates."""

    zone: str
    code: str | None
    confidence: float
    face_down: bool
    centre: tuple[float, float]
    quad: np.ndarray | None = None
    votes: dict[str | None, float] = field(default_factory=dict)
    corners: dict[str, str | None] = field(default_factory=dict)  # corner -> the code most read there
    frames_seen: int = 0
    frames_total: int = 0
    status: str = "read"  # 'read', 'confirmed', 'corrected', 'added'
    original: str | None = None  # what the reader said before a correction

    @property
    def settled_by_crew(self) -> bool:
        return self.status in ("confirmed", "corrected", "added")

    def to_dict(self) -> dict[str, Any]:
        return {"zone": self.zone, "code": self.code, "confidence": round(self.confidence, 4),
                "face_down": self.face_down,
                "centre": None if math.isnan(self.centre[0]) else [round(c, 5) for c in self.centre],
                "corners": dict(self.corners), "frames_seen": self.frames_seen, "frames_total": self.frames_total,
                "status": self.status, "original": self.original}


@dataclass(frozen=True)
class Issue:
    """Something the crew must look at. ``kind`` is for programs, ``message`` for people.

    Kinds: 'unreadable', 'low_confidence', 'corners_disagree', 'unsteady', 'not_in_deck', 'duplicate',
    'elsewhere', 'face_down', 'count', 'outside'.
    """

    kind: str
    message: str
    zone: str | None = None
    index: int | None = None
    cards: tuple[str, ...] = ()
    places: tuple[tuple[str, int], ...] = ()


class ReadingError(ValueError):
    """A confirm/correct/add/remove that cannot be done (no such card, not a card); the message says why."""


class UnresolvedReading(RuntimeError):
    """``accepted()`` was asked for while issues remain."""

    def __init__(self, issues: Sequence[Issue]) -> None:
        self.issues = list(issues)
        super().__init__("; ".join(i.message for i in issues))


class Reading:
    """The cards on a settled table, zone by zone, and the issues the crew still has to settle."""

    def __init__(self, cards: Mapping[str, Sequence[SeenCard]], rules: Rules = Rules(), expect: Expect | None = None,
                 known: Mapping[str, str] | None = None, zone_names: Sequence[str] = ()) -> None:
        self.cards: dict[str, list[SeenCard]] = {z: list(cs) for z, cs in cards.items()}
        self.rules = rules
        self.expect = expect
        self.known = dict(known or {})
        self.zone_names = list(zone_names)
        self.issues: list[Issue] = []
        self.check()

    # ---- views --------------------------------------------------------------------------------------
    def zone(self, zone: str) -> list[SeenCard]:
        return self.cards.get(zone, [])

    def codes(self, zone: str) -> list[str | None]:
        return [c.code for c in self.zone(zone)]

    def all_cards(self) -> list[tuple[str, int, SeenCard]]:
        return [(z, i, c) for z, cs in self.cards.items() for i, c in enumerate(cs)]

    @property
    def ok(self) -> bool:
        return not self.issues

    def issues_at(self, zone: str, index: int | None = None) -> list[Issue]:
        return [i for i in self.issues if i.zone == zone and (index is None or i.index == index)
                or any(p == (zone, index) for p in i.places)]

    def accepted(self) -> dict[str, list[str]]:
        """Zone -> codes, only when no issue remains (raises :class:`UnresolvedReading` otherwise)."""
        if self.issues:
            raise UnresolvedReading(self.issues)
        return {z: [c.code for c in cs if c.code is not None] for z, cs in self.cards.items() if cs}

    def placements(self) -> dict[str, str]:
        """Code -> zone of every card read face up: pass it as ``known`` when voting the next round."""
        return {c.code: z for z, _, c in self.all_cards() if c.code not in (None, BACK)}

    def summary(self) -> str:
        lines = []
        for z, cs in self.cards.items():
            if cs:
                lines.append(f"{zone_words(z)}: " + ", ".join(c.code or "?" for c in cs))
        lines += [f"CHECK: {i.message}" for i in self.issues]
        return "\n".join(lines) or "no cards"

    def to_dict(self) -> dict[str, Any]:
        return {"cards": {z: [c.to_dict() for c in cs] for z, cs in self.cards.items()},
                "issues": [{"kind": i.kind, "message": i.message, "zone": i.zone, "index": i.index,
                            "cards": list(i.cards), "places": [list(p) for p in i.places]} for i in self.issues]}

    # ---- the crew's answers -------------------------------------------------------------------------
    def _card(self, zone: str, index: int) -> SeenCard:
        cs = self.cards.get(zone)
        if not cs:
            raise ReadingError(f"no cards in {zone_words(zone)}")
        if not 0 <= index < len(cs):
            raise ReadingError(f"{zone_words(zone)} has {len(cs)} card(s); there is no card {index + 1}")
        return cs[index]

    def confirm(self, zone: str, index: int) -> None:
        """The crew says the read card is right: its doubts (confidence, corners, flicker) are settled."""
        c = self._card(zone, index)
        if c.code is None:
            raise ReadingError(f"{_place_words(zone, index)} was not read; correct it with the card it is")
        c.status = "confirmed"
        self.check()

    def correct(self, zone: str, index: int, card: str | int | Card) -> None:
        """The crew says which card it really is ('Td', '10d', 'BACK' for a face-down card)."""
        c = self._card(zone, index)
        code = self._code(card)
        c.original = c.code if c.status != "corrected" else c.original
        c.code = code
        c.face_down = code == BACK
        c.confidence = 1.0
        c.status = "corrected"
        self.check()

    def add(self, zone: str, card: str | int | Card, index: int | None = None) -> None:
        """A card the reader missed (hidden under a hand, say)."""
        code = self._code(card)
        seen = SeenCard(zone, code, 1.0, code == BACK, (math.nan, math.nan), status="added")
        cs = self.cards.setdefault(zone, [])
        cs.insert(len(cs) if index is None else index, seen)
        self.check()

    def remove(self, zone: str, index: int) -> SeenCard:
        """A read that is not a card on the table (a reflection, the deck's stack, a chip)."""
        self._card(zone, index)
        c = self.cards[zone].pop(index)
        self.check()
        return c

    @staticmethod
    def _code(card: str | int | Card) -> str:
        if isinstance(card, str) and card.strip().upper() == BACK:
            return BACK
        try:
            return str(Card.parse(card))
        except CardError as exc:
            raise ReadingError(str(exc)) from exc

    # ---- checks -------------------------------------------------------------------------------------
    def check(self) -> list[Issue]:
        """Recompute :attr:`issues` from the cards as they now stand."""
        issues: list[Issue] = []
        rules, expect = self.rules, self.expect
        for zone, i, c in self.all_cards():
            where = _place_words(zone, i)
            if zone == OUTSIDE and c.status != "confirmed":
                issues.append(Issue("outside", f"{card_words(c.code).capitalize()} lies outside every zone "
                                    "(move it, or recalibrate the zones).", zone, i, _codes(c)))
            if c.status == "read":
                if c.code is None and not c.face_down:
                    issues.append(Issue("unreadable", f"{where.capitalize()} could not be read.", zone, i))
                else:
                    codes = sorted({v for v in c.corners.values() if v is not None})
                    if len(codes) > 1:
                        issues.append(Issue(
                            "corners_disagree",
                            f"The corners of {where} disagree: " + " and ".join(card_words(k) for k in codes) + ".",
                            zone, i, tuple(codes)))
                    elif c.confidence < rules.min_confidence:
                        issues.append(Issue(
                            "low_confidence",
                            f"{where.capitalize()} looks like {card_words(c.code)}, but the reader is not sure "
                            f"({round(100 * c.confidence)}%).", zone, i, _codes(c)))
                if c.frames_total and c.frames_seen < rules.min_presence * c.frames_total:
                    issues.append(Issue("unsteady", f"{where.capitalize()} was seen in only {c.frames_seen} of "
                                        f"{c.frames_total} pictures.", zone, i, _codes(c)))
            if c.status != "confirmed" and c.code not in (None, BACK) and c.code not in rules.deck:
                issues.append(Issue("not_in_deck", f"{where.capitalize()} reads as {card_words(c.code)}, which "
                                    "is not in this game's deck.", zone, i, (c.code,)))
            if c.code not in (None, BACK) and c.status != "confirmed":
                before = self.known.get(c.code)
                if before is not None and before != zone:
                    issues.append(Issue("elsewhere", f"{card_words(c.code).capitalize()} was in {zone_words(before)}"
                                        f"; now it is read as {where}.", zone, i, (c.code,)))
            if c.face_down and c.status != "confirmed":
                if zone == "community":
                    issues.append(Issue("face_down", f"{where.capitalize()} is face down.", zone, i))
                elif expect is not None and expect.hands_face_up and zone.startswith("seat:"):
                    issues.append(Issue("face_down", f"{where.capitalize()} is still face down at the showdown.",
                                        zone, i))
        # The same card in two places: flag every place, whoever settled it.
        places: dict[str, list[tuple[str, int]]] = {}
        for zone, i, c in self.all_cards():
            if c.code not in (None, BACK):
                places.setdefault(c.code, []).append((zone, i))
        for code, ps in places.items():
            if len(ps) > 1:
                issues.append(Issue("duplicate", f"{card_words(code).capitalize()} is read twice: "
                                    + " and ".join(_place_words(z, i) for z, i in ps) + ".",
                                    ps[0][0], ps[0][1], (code,), tuple(ps)))
        if expect is not None:
            issues += self._count_issues(expect)
        self.issues = issues
        return issues

    def _count_issues(self, expect: Expect) -> list[Issue]:
        out = []
        if expect.community is not None:
            n = len(self.zone("community"))
            if n != expect.community:
                should = "hold no cards" if expect.community == 0 else f"hold {expect.community} cards"
                are = "none is there" if n == 0 else ("1 is there" if n == 1 else f"{n} are there")
                out.append(Issue("count", f"The community row should {should}; {are}.", "community"))
        if expect.hand_min is not None or expect.hand_max is not None:
            seats = list(expect.seats) if expect.seats is not None else sorted(
                (z for z, cs in self.cards.items() if z.startswith("seat:") and cs), key=_seat_order)
            for seat in seats:
                n = len(self.zone(seat))
                lo, hi = expect.hand_min, expect.hand_max
                if (lo is not None and n < lo) or (hi is not None and n > hi):
                    if lo == hi:
                        want = f"{lo} cards"
                    elif hi is None:
                        want = f"at least {lo} cards"
                    else:
                        want = f"{lo} to {hi} cards" if lo is not None else f"at most {hi} cards"
                    out.append(Issue("count", f"The hand in {zone_words(seat)} should have {want}; it has {n}.", seat))
        return out


def _codes(c: SeenCard) -> tuple[str, ...]:
    return (c.code,) if c.code is not None else ()


def _seat_order(zone: str) -> tuple[int, str]:
    num = zone.partition(":")[2]
    return (int(num) if num.isdigit() else 1_000, zone)


# ---- voting -------------------------------------------------------------------------------------------

@dataclass
class _Cluster:
    centres: list[np.ndarray] = field(default_factory=list)
    shorts: list[float] = field(default_factory=list)
    quads: list[np.ndarray] = field(default_factory=list)
    reads: list[tuple[int, CardRead]] = field(default_factory=list)

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(np.mean(self.centres, axis=0), dtype=np.float64)

    @property
    def short(self) -> float:
        return float(np.median(self.shorts))


def vote(frames: Sequence[FrameReads], zones: Zones, image_size: tuple[int, int] | Sequence[tuple[int, int]],
         rules: Rules = Rules(), expect: Expect | None = None, known: Mapping[str, str] | None = None) -> Reading:
    """Vote the reads of several frames of one settled table into a :class:`Reading`.

    ``image_size`` is the (width, height) the reads' pixel coordinates refer to, one for all frames or one
    per frame. ``known`` maps codes already placed earlier in the round to their zone (a card read in a
    different zone now is flagged).
    """
    if not frames:
        raise ValueError("vote needs at least one frame of reads")
    given = np.asarray(image_size, dtype=np.float64)
    sizes = ([(float(given[0]), float(given[1]))] * len(frames) if given.ndim == 1
             else [(float(a), float(b)) for a, b in given])
    if len(sizes) != len(frames):
        raise ValueError(f"{len(frames)} frames but {len(sizes)} image sizes")
    clusters: list[_Cluster] = []
    for f, (reads, size) in enumerate(zip(frames, sizes, strict=True)):
        h = float(size[1])
        # Work in picture heights, so distances mean the same along x and y.
        for r in reads:
            q = r.quad.astype(np.float64) / h
            centre = q.mean(axis=0)
            short = max(r.short_side / h, 1e-6)
            best, best_d = None, math.inf
            for cl in clusters:
                d = float(np.linalg.norm(cl.centre - centre))
                if d < best_d:
                    best, best_d = cl, d
            if best is not None and best_d < rules.same_card * max(best.short, short):
                best.centres.append(centre)
                best.shorts.append(short)
                best.quads.append(q)
                best.reads.append((f, r))
            else:
                clusters.append(_Cluster([centre], [short], [q], [(f, r)]))
    aspect_of = [s[0] / s[1] for s in sizes]
    n_frames = len(frames)
    by_zone: dict[str, list[SeenCard]] = {}
    for cl in clusters:
        seen = _decide(cl, n_frames)
        # Back to normalised coordinates of the (first) frame's picture.
        aspect = aspect_of[cl.reads[0][0]]
        cx, cy = float(cl.centre[0] / aspect), float(cl.centre[1])
        seen.centre = (cx, cy)
        seen.quad = np.median(np.stack(cl.quads), axis=0) / [aspect, 1.0]
        seen.zone = zones.zone_at((cx, cy)) or OUTSIDE
        by_zone.setdefault(seen.zone, []).append(seen)
    ordered: dict[str, list[SeenCard]] = {}
    for name in list(zones.names) + [OUTSIDE]:
        if name in by_zone:
            if name == OUTSIDE:
                ordered[name] = sorted(by_zone[name], key=lambda c: (c.centre[0], c.centre[1]))
            else:
                z = zones[name]
                ordered[name] = sorted(by_zone[name], key=lambda c: (z.order_key(c.centre), c.centre[1]))
    return Reading(ordered, rules, expect, known, zones.names)


def _decide(cl: _Cluster, n_frames: int) -> SeenCard:
    votes: dict[str | None, float] = {}
    per_corner: dict[str, dict[str | None, float]] = {}
    conf_sum: dict[str | None, float] = {}
    conf_n: dict[str | None, int] = {}
    down = 0
    for _, r in cl.reads:
        code = BACK if r.face_down and r.code in (None, BACK) else r.code
        # An unreadable read still says "a card is here" with full weight: it counts against every code.
        weight = float(r.confidence) if code is not None else 1.0
        votes[code] = votes.get(code, 0.0) + weight
        conf_sum[code] = conf_sum.get(code, 0.0) + float(r.confidence)
        conf_n[code] = conf_n.get(code, 0) + 1
        down += bool(r.face_down)
        if r.corner != "none" and code != BACK:
            pc = per_corner.setdefault(r.corner, {})
            pc[code] = pc.get(code, 0.0) + weight
    total = sum(votes.values()) or 1.0
    # Highest weight wins; ties go to a readable code, then alphabetically, so the result never depends on order.
    winner = max(votes, key=lambda k: (votes[k], k is not None, str(k)))
    share = votes[winner] / total
    mean_conf = conf_sum[winner] / conf_n[winner] if winner is not None else 0.0
    corners = {k: max(v, key=lambda c: (v[c], c is not None, str(c))) for k, v in sorted(per_corner.items())}
    frames_seen = len({f for f, _ in cl.reads})
    face_down = down * 2 > len(cl.reads)
    return SeenCard(zone="", code=winner,
                    confidence=share * mean_conf, face_down=face_down, centre=(0.0, 0.0), votes=votes,
                    corners=corners, frames_seen=frames_seen, frames_total=n_frames)


# ---- settling -----------------------------------------------------------------------------------------

class SettleDetector:
    """Says when the table has stopped moving: the mean absolute difference between consecutive small grey
    frames stays below ``threshold`` (grey levels, 0-255) for ``frames`` frames in a row.

    >>> s = SettleDetector(threshold=2.0, frames=3)
    >>> still = np.zeros((48, 64, 3), np.uint8)
    >>> [s.update(still) for _ in range(5)]
    [False, False, False, True, True]
    >>> s.update(still + 50), s.motion
    (False, 50.0)
    """

    def __init__(self, threshold: float = 3.0, frames: int = 5, size: int = 96) -> None:
        self.threshold = threshold
        self.frames = frames
        self.size = size
        self.reset()

    def reset(self) -> None:
        self._prev: np.ndarray | None = None
        self.still_count = 0
        self.motion = math.inf

    @property
    def settled(self) -> bool:
        return self.still_count >= self.frames

    def _small(self, frame: np.ndarray) -> np.ndarray:
        grey = frame.mean(axis=2) if frame.ndim == 3 else frame.astype(np.float64)
        step = max(1, max(grey.shape) // self.size)
        h, w = grey.shape[0] // step * step, grey.shape[1] // step * step
        # Block means: cheap downscale that also averages away sensor noise.
        return np.asarray(grey[:h, :w].reshape(h // step, step, w // step, step).mean(axis=(1, 3)), dtype=np.float64)

    def update(self, frame: np.ndarray) -> bool:
        small = self._small(np.asarray(frame))
        if self._prev is not None and self._prev.shape == small.shape:
            self.motion = float(np.abs(small - self._prev).mean())
            self.still_count = self.still_count + 1 if self.motion < self.threshold else 0
        else:
            self.still_count = 0
        self._prev = small
        return self.settled


def read_settled(source: Any, reader: Callable[[np.ndarray], FrameReads], zones: Zones, n_frames: int = 3,
                 settle: SettleDetector | None = None, max_watch: int = 300, rules: Rules = Rules(),
                 expect: Expect | None = None, known: Mapping[str, str] | None = None) -> Reading | None:
    """Watch ``source`` (a :class:`~companion.vision.sources.FrameSource`) until the table settles, read
    ``n_frames`` stills with ``reader`` and vote them; None when it never settles within ``max_watch`` frames.
    If the table moves between stills, the stills so far are dropped and it waits to settle again."""
    settle = settle or SettleDetector()
    stills: list[FrameReads] = []
    sizes: list[tuple[int, int]] = []
    for _ in range(max_watch):
        try:
            frame = source.read()
        except StopIteration:
            break
        if not settle.update(frame):
            stills.clear()
            sizes.clear()
            continue
        image = source.still()
        stills.append(reader(image))
        sizes.append((image.shape[1], image.shape[0]))
        if len(stills) >= n_frames:
            return vote(stills, zones, sizes, rules, expect, known)
    return None
