"""Deck enrolment: learn one physical deck from pictures of it laid out face up, then read it near-perfectly.

1. Every card in the pictures is found as the reader finds cards at play (``card_outlines``) and read with the
   generic reader (a score for each of the 52 cards; the whole-corner classifier's where no glyph reads).
2. Each of the 52 cards is given to exactly one card in the pictures by solving the assignment problem on
   those scores (:func:`hungarian`), so one bad read cannot produce two aces of spades.
3. The proposed labelling goes back for confirmation; when accepted, the glyph features of every corner
   become the deck's prototypes, stored under its name in the decks folder.

Reading with an enrolled deck matches each corner's glyph features against those prototypes (nearest
neighbour, cosine similarity) instead of asking the generic classifiers.

Jokers have no common design (a word down the edge, a star, a jester, nothing at the corner), so the generic
reader knows them only when their corner reads as a J over letters. Laid out with the deck, the assignment
gives them a column each, scored by how much a card looks like one (or a labels file names them), and the deck
keeps what every card's index corners *look like* (``frame_looks``: the corner, grey, small and normalised).
At play, a whole card the glyph reading leaves unnamed is a joker when its corner looks most like a joker's,
clearly more than like any other card of the deck (``EnrolledDeck.joker_in``).

>>> import numpy as np
>>> rows, cols = hungarian(np.array([[4.0, 1, 3], [2, 0, 5], [3, 2, 2]]))
>>> cols.tolist(), float(np.array([[4.0, 1, 3], [2, 0, 5], [3, 2, 2]])[rows, cols].sum())
([1, 0, 2], 5.0)
"""

from __future__ import annotations

import csv
import json
import os
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, cast

import cv2
import numpy as np
import numpy.typing as npt

from companion.cards import Card
from companion.vision.reader import (NET_SCALES, CornerRead, Reader, card_log_scores, corner_frame,
                                     index_corner_inputs)
from companion.vision.reader_glyph import corner_patch

N_STANDARD = 52
N_RANKS, N_SUITS = 13, 4
FLOOR = 2 * np.log(1e-6)  # the log-score of a card nothing was read of (two corners at the classifiers' floor)
JOKER_IDS = (52, 53)  # red, black (``companion.cards``)
LOOK_PX = 60  # a corner's look (``frame_looks``): pixels per card width ...
LOOK_REGION = (0.24, 0.46)  # ... over this much of the card from its corner (card widths): any deck's index
OVERSIZE = 1.6  # an outline this many times the median card's area holds several cards (``card_outlines``)
LOOK_SHIFT = 0.04  # card widths: at play, a corner is looked at shifted up to this much each way
JOKER_SIM = 0.8  # a joker's look: cosine similarity to a joker's corner at least this ...
JOKER_MARGIN = 0.1  # ... and this much more than to any other card's
RED_INK = 0.6  # a joker whose corner ink is at least this share red is the red joker (art in the corner
# patch counts too: the shared decks' black joker's corner is 0.4 red from a heart pip beside the word)
DECK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class EnrolError(ValueError):
    """Enrolment cannot go on (bad deck name, too many cards, unreadable picture); the message says why."""


def decks_home() -> Path:
    """Where enrolled decks live: ``GANG_DECKS_HOME``, else ``$XDG_DATA_HOME/gang-companion/decks``."""
    env = os.environ.get("GANG_DECKS_HOME")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gang-companion" / "decks"


# ---- the assignment problem -------------------------------------------------------------------------------
def hungarian(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-cost assignment (like scipy's ``linear_sum_assignment``) for an n x m matrix.

    Returns ``(rows, cols)``: row ``rows[k]`` gets column ``cols[k]``; min(n, m) pairs, rows ascending.
    Shortest augmenting paths with potentials, O(n^2 m).
    """
    c = np.asarray(cost, dtype=np.float64)
    transposed = c.shape[0] > c.shape[1]
    if transposed:
        c = c.T
    n, m = c.shape
    if n == 0:
        return np.zeros(0, int), np.zeros(0, int)
    inf = np.inf
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=int)  # p[j]: row (1-based) matched to column j; column 0 is the virtual one
    way = np.zeros(m + 1, dtype=int)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            cur = c[i0 - 1, :] - u[i0] - v[1:]
            free = ~used[1:]
            better = free & (cur < minv[1:])
            minv[1:][better] = cur[better]
            way[1:][better] = j0
            cand = np.where(free, minv[1:], inf)
            j1 = int(np.argmin(cand)) + 1
            delta = cand[j1 - 1]
            u[p[used]] += delta
            v[used] -= delta
            minv[1:][free] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    rows, cols = [], []
    for j in range(1, m + 1):
        if p[j]:
            rows.append(p[j] - 1)
            cols.append(j - 1)
    r, k = np.array(rows, int), np.array(cols, int)
    if transposed:
        r, k = k, r
    order = np.argsort(r)
    return r[order], k[order]


# ---- an enrolled deck -------------------------------------------------------------------------------------
@dataclass
class EnrolledDeck:
    """Per-corner glyph-feature prototypes of one deck, labelled with card ids."""

    name: str
    prototypes: np.ndarray  # (n, F) float32, unit length
    labels: np.ndarray  # (n,) card ids
    mean: np.ndarray
    std: np.ndarray
    threshold: float = 0.5
    temperature: float = 0.05
    info: dict[str, Any] = field(default_factory=dict)
    # Index corners as they look (``frame_looks``), every card's, and their card ids: the jokers among them are
    # told from the rest by look alone (``joker_in``). Empty for a deck enrolled without jokers. (Pocket cards
    # named by look where their glyphs do not read named 2 right of 23 on four-colour tuning scenes: a look
    # tells a joker from a card, not one rank from the next.)
    looks: np.ndarray = field(default_factory=lambda: np.zeros((0, _look_dims()), np.float32))
    look_labels: np.ndarray = field(default_factory=lambda: np.zeros(0, int))
    joker_red: dict[int, float] = field(default_factory=dict)  # per joker id: its corners' red share of ink
    _means: np.ndarray | None = field(default=None, repr=False, compare=False)  # per card id, its mean look

    @property
    def jokers(self) -> bool:
        """The deck was enrolled with a joker."""
        return bool(np.isin(self.look_labels, JOKER_IDS).any())

    def look_scores(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                    shift: float = LOOK_SHIFT) -> np.ndarray:
        """Per card id (54), the best cosine similarity of the corner frame's looks, shifted up to ``shift`` card
        widths, to that card's enrolled looks (-1 for a card without any). The three cards whose mean look is
        nearest are compared look by look; the rest keep the mean's similarity, a lower bound's stand-in."""
        out = np.full(54, -1.0, np.float32)
        if not len(self.looks):
            return out
        win = frame_looks(image, origin, x_axis, y_axis, shift=shift)
        means = self._mean_looks()
        coarse = (means @ win.T).max(axis=1)
        ids = np.flatnonzero(np.isfinite(coarse))
        out[ids] = coarse[ids]
        for i in ids[np.argsort(-coarse[ids])][:3]:
            out[i] = float((self.looks[self.look_labels == i] @ win.T).max())
        return out

    def _mean_looks(self) -> np.ndarray:
        """Per card id, the normalised mean of its looks (NaN rows for cards without any); computed once."""
        if self._means is None:
            means = np.full((54, self.looks.shape[1]), np.nan, np.float32)
            for i in np.unique(self.look_labels):
                m = self.looks[self.look_labels == i].mean(axis=0)
                means[i] = m / (np.linalg.norm(m) + 1e-9)
            self._means = means
        return self._means

    def joker_in(self, image: np.ndarray, quad: np.ndarray) -> tuple[str, float] | None:
        """('JR' or 'JB', similarity) when the whole card ``quad`` in ``image`` looks like one of this deck's
        jokers at an index corner (``JOKER_SIM``), clearly more than like any other card (``JOKER_MARGIN``);
        else None."""
        if not self.jokers:
            return None
        # The outline found at play may sit a little off the card (a row of touching cards cut into a grid):
        # each corner is looked at shifted by up to LOOK_SHIFT card widths, and the best match counts.
        best = np.full(54, -1.0, np.float32)
        for o, xa, ya in _index_frames(quad):
            best = np.maximum(best, self.look_scores(image, o, xa, ya))
        j = max(JOKER_IDS, key=lambda i: float(best[i]))
        other = float(best[:N_STANDARD].max())
        if best[j] < JOKER_SIM or best[j] - other < JOKER_MARGIN:
            return None
        ids = sorted(self.joker_red)
        if len(ids) > 1:  # two jokers enrolled: the one whose ink colour this card's is nearer
            red = red_share(image, quad)
            jid = min(ids, key=lambda i: abs(self.joker_red[i] - red))
        else:
            jid = j
        return str(Card(jid)), float(best[j])

    def embed(self, features: np.ndarray) -> np.ndarray:
        """Glyph features standardised and unit length, then the index picture (already unit length); the
        two halves weigh the same in the cosine similarity."""
        f = np.atleast_2d(features).astype(np.float32)
        nf = len(self.mean)
        z = (f[:, :nf] - self.mean) / self.std
        z = z / (np.linalg.norm(z, axis=1, keepdims=True) + 1e-9)
        t = f[:, nf:]
        out: np.ndarray = (np.concatenate([z, t], axis=1) / np.sqrt(2.0)).astype(np.float32)
        return out

    def card_similarity(self, features: np.ndarray) -> np.ndarray:
        """Best cosine similarity of one corner to each card id (-1 where the deck has no prototype)."""
        sims = self.prototypes @ self.embed(features)[0]
        best = np.full(54, -1.0, np.float32)
        np.maximum.at(best, self.labels, sims)
        return best

    def decide(self, reads: list[CornerRead]) -> tuple[str | None, float, tuple[tuple[str, float], ...]]:
        """Nearest prototypes decide (the reader asks only when its generic classifiers abstain); the generic
        scores break ties and cover cards the enrolment pictures missed (similarity counted as 0.5)."""
        feats = [r for r in reads if r.features is not None]
        sims = np.mean([self.card_similarity(r.features) for r in feats if r.features is not None], axis=0)[:N_STANDARD]
        sims = np.where(sims < -0.5, 0.5, sims)
        generic = np.mean([r.card_scores() for r in feats], axis=0)
        score = sims / self.temperature + np.maximum(generic, -12.0)
        p = np.exp(score - score.max())
        p /= p.sum()
        order = np.argsort(-p)[:3]
        best = int(order[0])
        # A corner unlike every prototype (noise, another deck) is not this deck's card.
        conf = float(p[best]) * float(np.clip((sims[best] - 0.6) / 0.15, 0.0, 1.0))
        alts = tuple((str(Card(int(i))), float(p[i])) for i in order[1:])
        return (str(Card(best)) if conf >= self.threshold else None), conf, alts

    def save(self, home: str | Path | None = None) -> Path:
        d = Path(home) if home else decks_home()
        d.mkdir(parents=True, exist_ok=True)
        path = d / f"{self.name}.npz"
        np.savez_compressed(path, prototypes=self.prototypes.astype(np.float16), labels=self.labels,
                            mean=self.mean, std=self.std, info=json.dumps(self.info),
                            looks=self.looks.astype(np.float16), look_labels=self.look_labels,
                            joker_red=json.dumps({str(k): v for k, v in self.joker_red.items()}))
        return path

    @classmethod
    def load(cls, name: str, home: str | Path | None = None) -> "EnrolledDeck":
        check_name(name)
        path = (Path(home) if home else decks_home()) / f"{name}.npz"
        if not path.exists():
            raise EnrolError(f"no enrolled deck {name!r} in {path.parent}")
        try:
            z = np.load(path, allow_pickle=False)
            deck = cls(name, z["prototypes"].astype(np.float32), z["labels"].astype(int), z["mean"], z["std"],
                       info=json.loads(str(z["info"])))
            if "looks" in z.files and z["looks"].shape[1:] == (_look_dims(),):  # older decks have none
                deck.looks = z["looks"].astype(np.float32)
                deck.look_labels = z["look_labels"].astype(int)
                deck.joker_red = {int(k): float(v) for k, v in json.loads(str(z["joker_red"])).items()}
        except (OSError, ValueError, KeyError, TypeError, zipfile.BadZipFile) as exc:  # json's errors are ValueErrors
            raise EnrolError(f"deck {name!r} ({path}) cannot be read: {type(exc).__name__}; enrol it again") from None
        if deck.prototypes.ndim != 2 or len(deck.labels) != len(deck.prototypes) or \
                deck.prototypes.shape[1] != len(deck.mean) + 512 or len(deck.looks) != len(deck.look_labels):
            raise EnrolError(f"deck {name!r} ({path}) does not fit this reader's models; enrol it again")
        return deck


def _index_frames(quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The frames (origin, x axis, y axis) of a whole card's two index corners (``corner_frame``'s portrait
    ones)."""
    q = np.asarray(quad, np.float64)
    return [(o, xa, ya) for o, xa, ya, landscape in (corner_frame(q, k) for k in range(4)) if not landscape]


def _look_dims() -> int:
    return int(round(LOOK_REGION[0] * LOOK_PX)) * int(round(LOOK_REGION[1] * LOOK_PX))


def frame_looks(image: np.ndarray, origin: npt.ArrayLike, x_axis: npt.ArrayLike, y_axis: npt.ArrayLike,
                shift: float = 0.0) -> np.ndarray:
    """What a corner frame (``origin``; ``x_axis``, ``y_axis`` one card width along the top edge and down the
    side) looks like over ``LOOK_REGION``: grey at ``LOOK_PX`` per card width, zero mean, unit length, the
    rounded tip (where the table shows, different at play than at enrolment) taken as the paper. One row per
    shift of whole look pixels up to ``shift`` card widths each way; a row of zeros where nothing is printed."""
    w, h = int(round(LOOK_REGION[0] * LOOK_PX)), int(round(LOOK_REGION[1] * LOOK_PX))
    s = int(round(shift * LOOK_PX))
    up = 2  # resampled at twice the look's resolution, then averaged down (no aliasing from a big picture)
    xa = np.asarray(x_axis, np.float64) / (LOOK_PX * up)
    ya = np.asarray(y_axis, np.float64) / (LOOK_PX * up)
    o = np.asarray(origin, np.float64) - s * up * (xa + ya)
    m = np.array([[xa[0], ya[0], o[0]], [xa[1], ya[1], o[1]]], np.float32)
    big = cv2.warpAffine(image, m, ((w + 2 * s) * up, (h + 2 * s) * up), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.resize(cv2.cvtColor(big, cv2.COLOR_BGR2GRAY), (w + 2 * s, h + 2 * s),
                      interpolation=cv2.INTER_AREA).astype(np.float32)
    u, v = np.meshgrid(np.arange(w), np.arange(h))
    tip = (u + v) < 0.06 * LOOK_PX
    out = np.zeros(((2 * s + 1) ** 2, w * h), np.float32)
    for k, (dy, dx) in enumerate((dy, dx) for dy in range(2 * s + 1) for dx in range(2 * s + 1)):
        win = grey[dy:dy + h, dx:dx + w].copy()
        win[tip] = np.median(win)
        t = win.ravel() - win.mean()
        n = float(np.linalg.norm(t))
        if n >= 3.0 * np.sqrt(t.size):  # under 3 grey levels of spread: nothing printed there
            out[k] = t / n
    return out


def red_share(image: np.ndarray, quad: np.ndarray) -> float:
    """The share of the ink at a card's index corners that is red (0 for a black joker, near 1 for a red one)."""
    ink = red = 0
    for o, xa, ya in _index_frames(quad):
        hsv = cv2.cvtColor(corner_patch(image, o.astype(np.float32), xa.astype(np.float32), ya.astype(np.float32)),
                           cv2.COLOR_BGR2HSV)
        h, sat, val = hsv[..., 0], hsv[..., 1], hsv[..., 2]
        coloured = sat > 90
        inked = coloured | (val < 110)
        ink += int(np.count_nonzero(inked))
        red += int(np.count_nonzero(coloured & ((h < 10) | (h > 170))))
    return red / ink if ink else 0.0


def check_name(name: str) -> str:
    if not DECK_NAME.match(name or ""):
        raise EnrolError(f"deck name {name!r}: use letters, digits, '.', '_' or '-' (at most 64)")
    return name


# ---- from pictures to a labelling -------------------------------------------------------------------------
@dataclass
class SeenCard:
    """One card found in the enrolment pictures: where, what the generic reader thinks, its corner reads."""

    image: str
    quad: np.ndarray
    reads: list[CornerRead]
    generic_code: str | None
    proposed: str | None = None
    score: float = 0.0
    extra: list[CornerRead] = field(default_factory=list)  # reads of slightly shifted frames: more prototypes
    looks: list[np.ndarray] = field(default_factory=list)  # its index corners' looks (``frame_looks``), jittered
    red: float = 0.0  # the red share of its corners' ink (``red_share``)
    # A card whose glyphs read at neither corner: what the whole-corner classifier says of its two index corners
    # (52 log-scores, and the log-score of neither corner holding a standard index: a joker's), None without it.
    net: tuple[np.ndarray, float] | None = None


def collect(reader: Reader, images: Sequence[tuple[str, np.ndarray]]) -> list[SeenCard]:
    """Every whole face-up card in the pictures, with both of its corner reads. Any picture ``sources.as_bgr``
    takes; anything else raises ``ValueError`` naming the picture and what is wrong with it."""
    from companion.vision.sources import as_bgr

    seen = []
    for name, picture in images:
        try:
            img = as_bgr(picture)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
        for quad in card_outlines(reader, img):
            reads, q = _quad_reads(reader, img, quad)
            code, conf, _ = reader.decide(reads) if reads else (None, 0.0, ())
            soft = _softened(img, q)
            seen.append(SeenCard(name, q, reads, code, extra=_jittered(reader, img, q, soft) if reads else [],
                                 looks=_looks(img, q, soft), red=red_share(img, q),
                                 net=None if reads else _net_scores(reader, img, q)))
    return seen


def _net_scores(reader: Reader, img: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, float] | None:
    """For a card whose glyphs do not read: the whole-corner classifier's log-scores of the 52 cards, summed over
    its two index corners (either may be the printed top-left: the other is the same index upside down), and the
    summed log-score of junk at both (no standard index there: a joker's corner, or an unreadable one)."""
    if reader.corner_net is None:
        return None
    starts, inputs = index_corner_inputs(img, quad)
    if len(starts) != 2:
        return None
    rank_p, suit_p = reader.corner_net.predict(inputs)
    cards = sum(card_log_scores(rank_p[k, :N_RANKS], suit_p[k, :N_SUITS]) for k in range(2))
    junk = float(sum(np.logaddexp(np.log(rank_p[k, N_RANKS] + 1e-6), np.log(suit_p[k, N_SUITS] + 1e-6))
                     for k in range(2)))
    return cast(np.ndarray, cards), junk


def _looks(img: np.ndarray, quad: np.ndarray, soft: tuple[np.ndarray, tuple[float, float]], n: int = 2
           ) -> list[np.ndarray]:
    """The card's index corners' looks (``frame_looks``), as outlined and shifted a little (``n`` times each),
    from the picture as taken and from a softer copy (``_softened``: a card further away, out of focus)."""
    rng = np.random.default_rng(1)
    q = quad.astype(np.float64)
    w = float(np.linalg.norm(q[1] - q[0]))
    out = []
    for source, at in ((img, (0.0, 0.0)), soft):
        for o, xa, ya in _index_frames(q - at):
            for i in range(n + 1):
                shift = rng.normal(0, 0.015 * w, 2) if i else np.zeros(2)
                lk = frame_looks(source, o + shift, xa, ya)[0]
                if lk.any():
                    out.append(lk)
    return out


def _softened(img: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, tuple[float, float]]:
    """The card's surroundings blurred and shrunk and brought back to size, and where that crop starts."""
    x0, y0 = np.maximum(q.min(axis=0).astype(int) - 4, 0)
    x1, y1 = q.max(axis=0).astype(int) + 4
    crop = img[y0:y1, x0:x1]
    soft = cv2.resize(cv2.GaussianBlur(crop, (0, 0), 1.2), None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    return cv2.resize(soft, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_LINEAR), (float(x0), float(y0))


def _jittered(reader: Reader, img: np.ndarray, quad: np.ndarray, softened: tuple[np.ndarray, tuple[float, float]],
              n: int = 4) -> list[CornerRead]:
    """Corner reads of frames shifted and turned a little, as the detector's outline will be at play time,
    from the picture as taken and from a softer, smaller copy of it (``_softened``: a card further away, out of
    focus)."""
    rng = np.random.default_rng(0)
    q = quad.astype(np.float64)
    out = []
    w = np.linalg.norm(q[1] - q[0])
    soft, (x0, y0) = softened
    crop = img[int(y0):int(y0) + soft.shape[0], int(x0):int(x0) + soft.shape[1]]
    for k, source in ((0, crop), (2, crop), (0, soft), (2, soft)):
        o, xa, ya, _ = corner_frame(q, k)
        for _ in range(n // 2 if source is soft else n):
            a = np.deg2rad(rng.normal(0, 2.0))
            rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
            s = rng.uniform(0.95, 1.05)
            r = reader.read_corner(source, o - (x0, y0) + rng.normal(0, 0.015 * w, 2), rot @ xa * s, rot @ ya * s)
            if r is not None:
                out.append(r)
    return out


def card_outlines(reader: Reader, img: np.ndarray) -> list[np.ndarray]:
    """The outlines of the cards the reader finds in a picture of a deck laid out face up (``Reader.read_still``:
    besides the detector's lone cards, two cards touching parted, cards found by their two indices on a table as
    light as they are), read or not (a joker, a card the generic reader cannot name: the assignment or the crew
    names it); one outline per card (a read whose centre lies in an outline already taken is that card again)."""
    # Cards read first, then unnamed ones, then "backs" (an enrolment picture holds faces only: a court card
    # whose picture passed for a back pattern, a tilted card half covered by its neighbour's outline).
    faces = sorted(reader.read_still(img), key=lambda r: (r.face_down, r.code is None))
    if not faces:
        return []
    quads = [r.quad.astype(np.float64) for r in faces]
    w = float(np.median([np.linalg.norm(q[1] - q[0]) for q in quads]))
    h = float(np.median([np.linalg.norm(q[3] - q[0]) for q in quads]))
    out: list[np.ndarray] = []
    for r, q in zip(faces, quads):
        if cv2.contourArea(q.astype(np.float32)) > OVERSIZE * w * h:
            if r.code is None:
                continue
            # Several cards read as one (a block of four touching): the card read is the one at the outline's
            # printed top-left, as big as the others.
            x = (q[1] - q[0]) * w / np.linalg.norm(q[1] - q[0])
            y = (q[3] - q[0]) * h / np.linalg.norm(q[3] - q[0])
            q = np.array([q[0], q[0] + x, q[0] + x + y, q[0] + y])
        c = q.mean(axis=0)
        if not any(cv2.pointPolygonTest(k, (float(c[0]), float(c[1])), False) >= 0 for k in out):
            out.append(q.astype(np.float32))
    return out


def _quad_reads(reader: Reader, img: np.ndarray, quad: np.ndarray) -> tuple[list[CornerRead], np.ndarray]:
    """A whole card's two index corner reads and its outline, rolled to start at the corner read as the
    printed top-left; the outline as found or, when its two corners do not together name a card at the
    reader's threshold, taken in a little (the reader's ``NET_SCALES``: an outline found round a card's halo, or
    on a light table round its edge, is a few per cent too big, and the frame then holds the edge as a glyph),
    whichever reads best (both corners read first, then the surer)."""
    q0 = quad.astype(np.float64)
    centre = q0.mean(axis=0)
    best: list[CornerRead] = []
    best_q = q0
    best_key = (0, -np.inf)
    for f in NET_SCALES:
        q = centre + f * (q0 - centre)
        for start in (0, 1, 2, 3):
            reads = []
            for k in (start, (start + 2) % 4):
                o, xa, ya, landscape = corner_frame(q, k)
                if landscape:
                    break
                r = reader.read_corner(img, o, xa, ya)
                if r is not None:
                    reads.append(r)
            if reads:
                total = cast(np.ndarray, sum(r.card_scores() for r in reads))  # reads is not empty: never 0
                key = (len(reads), float(total.max()) / len(reads))
                if key > best_key:
                    best, best_q, best_key = reads, np.roll(q, -start, axis=0), key
        if best_key[0] == 2 and np.exp(best_key[1]) >= reader.threshold:
            break
    return best, best_q.astype(np.float32)


def score_matrix(seen: list[SeenCard]) -> np.ndarray:
    """Generic reader log-scores, one row per seen card, one column per standard card (a card whose glyphs
    read nowhere: the whole-corner classifier's, where it is shipped)."""
    s = np.full((len(seen), N_STANDARD), FLOOR, np.float64)
    for i, c in enumerate(seen):
        if c.reads:
            s[i] = sum(r.card_scores() for r in c.reads)
        elif c.net is not None:
            s[i] = c.net[0]
    return s


def _joker_scores(seen: list[SeenCard]) -> np.ndarray:
    """Per seen card, the log-score of its being a joker: its corners read as a J over letters, or, where its
    glyphs read nowhere, the whole-corner classifier sees no standard index at either corner."""
    return np.array([sum(float(np.log(max(r.joker, 1e-6))) for r in c.reads) if c.reads else
                     c.net[1] if c.net is not None else FLOOR for c in seen])


def propose(seen: list[SeenCard], allowed: dict[str, set[int]] | None = None,
            fixed: dict[int, str | None] | None = None) -> list[SeenCard]:
    """Give each standard card to at most one seen card (each seen card at most one card), best total score.
    The assignment also has a column per joker the crew has not placed, scored by how much each card looks like
    one (``_joker_scores``); the cards given those are the jokers, red or black by their ink. (A standard card
    whose corners read nowhere, in a deck laid out without jokers, may be proposed as a joker rather than as the
    card left over: the crew corrects it.)

    ``allowed``: per image, the card ids it holds (from a labels file); cards outside it are ruled out, and a
    card left over in an image whose labels name jokers is one of them. ``fixed``: the crew's corrections, seen
    card (its index) to its code, or None for something that is no card (a chip, a box): those stand, and the
    rest is solved again around them (a card the crew gave to one place is no other's). Pictures that together
    hold more cards than a deck (the same layout taken twice, or overlapping) are labelled each on its own.
    """
    fixed = dict(fixed or {})
    if any(not 0 <= i < len(seen) for i in fixed):
        raise EnrolError(f"there are cards 1 to {len(seen)} only")
    cards = len(seen) - sum(v is None for v in fixed.values())
    images = list(dict.fromkeys(c.image for c in seen))
    if cards > N_STANDARD + len(JOKER_IDS) and allowed is None and len(images) > 1:
        # More cards than a deck holds, over several pictures: the same layout taken more than once, or
        # pictures that overlap. Each picture is labelled on its own (a card at most once in each), and every
        # sighting of a card gives the deck more prototypes. (All of them checked before any is changed.)
        parts = [[i for i, c in enumerate(seen) if c.image == image] for image in images]
        fixes = [{k: fixed[i] for k, i in enumerate(part) if i in fixed} for part in parts]
        for part, fix in zip(parts, fixes):
            _check_fixes(fix, len(part) - sum(v is None for v in fix.values()), seen[part[0]].image)
        for part, fix in zip(parts, fixes):
            propose([seen[i] for i in part], None, fix)
        return seen
    _check_fixes(fixed, cards if allowed is None else 0)
    codes = [c for c in fixed.values() if c is not None]
    s = score_matrix(seen)
    if allowed is not None:
        for i, c in enumerate(seen):
            mask = np.ones(N_STANDARD, bool)
            mask[[k for k in allowed.get(c.image, set()) if k < N_STANDARD]] = False
            s[i, mask] = -1e6
    for i, code in fixed.items():
        s[i, :] = -1e6
        if code is not None and int(Card.parse(code)) < N_STANDARD:
            s[:, int(Card.parse(code))] = -1e6
    for i, c in enumerate(seen):
        c.proposed, c.score = (fixed[i], 1.0) if i in fixed else (None, 0.0)
    free = [k for k in JOKER_IDS if str(Card(k)) not in codes]  # the jokers the crew has not placed
    # Any card may be a joker (more than 52 cards found, or fewer where some cards were missed: a joker must not
    # take a standard card's name then): a column per joker the crew has not placed joins the assignment, scored
    # by how much each card looks like one (``_joker_scores``), so a joker whose corner reads a little like some
    # card does not take that card's place from the real one.
    n_jokers = len(free) if allowed is None else 0
    if n_jokers:
        joker = _joker_scores(seen)
        joker[list(fixed)] = -1e6
        s = np.hstack([s, np.repeat(joker[:, None], n_jokers, axis=1)])
    rows, cols = hungarian(-s)
    jokers = []
    for i, j in zip(rows, cols):
        if s[i, j] > -1e5:
            if j >= N_STANDARD:
                jokers.append(seen[i])
                continue
            seen[i].proposed = str(Card(int(j)))
            seen[i].score = float(np.exp(s[i, j] / max(len(seen[i].reads), 1 if seen[i].net is None else 2)))
    if allowed is not None:  # a labels file names the jokers: the cards left over in a picture that holds them
        left = [c for i, c in enumerate(seen) if c.proposed is None and i not in fixed]
        for image in {c.image for c in left}:
            named = sum(k in free for k in allowed.get(image, set()))
            jokers += sorted((c for c in left if c.image == image), key=lambda c: -c.red)[:named]
    jokers = sorted(jokers, key=lambda c: -c.red)[:len(free)]
    for c in jokers:
        c.proposed = str(Card(JOKER_IDS[0] if c.red >= RED_INK else JOKER_IDS[1]))
        c.score = 0.0
    if len(jokers) == len(free):  # each joker once: the redder card is the red joker
        for c, k in zip(jokers, free):
            c.proposed = str(Card(k))
    return seen


def _check_fixes(fixed: dict[int, str | None], cards: int, image: str | None = None) -> None:
    """The crew's corrections name each card once, and the cards (not counting those the crew called no card)
    are no more than a deck and its jokers (``cards`` 0: not counted, a labels file says what each picture
    holds); else ``EnrolError`` saying what is wrong (in which picture, ``image``)."""
    where = f" in {image}" if image else ""
    codes = [c for c in fixed.values() if c is not None]
    if len(set(codes)) < len(codes):
        twice = sorted({c for c in codes if codes.count(c) > 1})
        raise EnrolError(f"{', '.join(twice)} given to more than one card{where}")
    if cards > N_STANDARD + len(JOKER_IDS):
        raise EnrolError(f"{cards} cards found{where or ' in the pictures'}; a deck has {N_STANDARD} and at most "
                         f"{len(JOKER_IDS)} jokers")


def build_deck(name: str, seen: list[SeenCard], reader: Reader) -> EnrolledDeck:
    """Prototypes from every corner of every labelled card; standardised with the generic models' scaling."""
    check_name(name)
    feats, labels = [], []
    looks, look_labels = [], []
    red: dict[int, list[float]] = {}
    for c in seen:
        if c.proposed is None:
            continue
        cid = int(Card.parse(c.proposed))
        looks += c.looks
        look_labels += [cid] * len(c.looks)
        if cid in JOKER_IDS:  # jokers are told by their look only; their glyphs (if any) are no rank and suit
            red.setdefault(cid, []).append(c.red)
            continue
        for r in c.reads + c.extra:
            if r.features is not None:
                feats.append(r.features)
                labels.append(cid)
    if not feats:
        raise EnrolError("no card could be read in the enrolment pictures")
    mean = np.concatenate([reader.rank_model.mean, reader.suit_model.mean])
    std = np.concatenate([reader.rank_model.std, reader.suit_model.std])
    deck = EnrolledDeck(name, np.zeros((0, len(mean)), np.float32), np.array(labels, int), mean, std)
    deck.prototypes = deck.embed(np.array(feats, np.float32))
    if red:  # the look of every card, so that a joker is told from the rest; none needed without jokers
        deck.looks = np.array(looks, np.float32)
        deck.look_labels = np.array(look_labels, int)
        deck.joker_red = {k: float(np.mean(v)) for k, v in red.items()}
    deck.info = {"cards": len(set(labels)), "corners": len(labels), "jokers": len(red)}
    return deck


def parse_fixes(text: str, n: int) -> dict[int, str | None]:
    """The crew's corrections to a proposal, e.g. ``'12=Kh 30=-'``: card 12 (counted from 1) is the king of
    hearts, card 30 is no card. Returns seen-card index to code (None for no card); a bad entry raises
    ``EnrolError`` naming it.

    >>> parse_fixes("3=10h, 1=-", 5)
    {2: 'Th', 0: None}
    """
    out: dict[int, str | None] = {}
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        num, eq, code = token.partition("=")
        if not eq or not num.strip().isdigit():
            raise EnrolError(f"{token!r}: write a card's number, '=' and what it is, e.g. 12=Kh (or 12=- for no card)")
        k = int(num)
        if not 1 <= k <= n:
            raise EnrolError(f"{token!r}: there are cards 1 to {n}")
        if code.strip() in ("-", ""):
            out[k - 1] = None
            continue
        try:
            card = Card.parse(code.strip())
        except ValueError:
            card = None
        if card is None or int(card) > max(JOKER_IDS):  # the suitless Jack is a specialist card, not the deck's
            raise EnrolError(f"{token!r}: {code.strip()!r} is not a card of the deck (e.g. As, Td, 10d, JR)")
        out[k - 1] = str(card)
    return out


def read_labels(path: str | Path) -> dict[str, set[int]]:
    """A labels CSV: ``image,cards`` (header optional), cards separated by spaces, e.g. ``row1.jpg,2c 3c 4c``.
    Images are matched by file name."""
    out: dict[str, set[int]] = {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if not row or row[0].strip().lower() == "image":
                continue
            if len(row) < 2:
                raise EnrolError(f"{path}: a row needs an image and its cards: {row!r}")
            ids = {int(Card.parse(t)) for t in re.split(r"[\s;]+", " ".join(row[1:]).strip()) if t}
            out.setdefault(Path(row[0].strip()).name, set()).update(ids)
    return out


def load_images(paths: Sequence[str]) -> list[tuple[str, np.ndarray]]:
    out = []
    for p in paths:
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            raise EnrolError(f"cannot read image {p}")
        out.append((Path(p).name, img))
    return out
