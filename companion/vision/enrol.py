"""Deck enrolment: learn one physical deck from pictures of it laid out face up, then read it near-perfectly.

1. Every card in the pictures is read with the generic reader (a score for each of the 52 cards).
2. Each of the 52 cards is given to exactly one card in the pictures by solving the assignment problem on
   those scores (:func:`hungarian`), so one bad read cannot produce two aces of spades.
3. The proposed labelling goes back for confirmation; when accepted, the glyph features of every corner
   become the deck's prototypes, stored under its name in the decks folder.

Reading with an enrolled deck matches each corner's glyph features against those prototypes (nearest
neighbour, cosine similarity) instead of asking the generic classifiers.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence, cast

import cv2
import numpy as np

from companion.cards import Card
from companion.vision.reader import CornerRead, Reader, corner_frame

N_STANDARD = 52
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
                            mean=self.mean, std=self.std, info=json.dumps(self.info))
        return path

    @classmethod
    def load(cls, name: str, home: str | Path | None = None) -> "EnrolledDeck":
        check_name(name)
        path = (Path(home) if home else decks_home()) / f"{name}.npz"
        if not path.exists():
            raise EnrolError(f"no enrolled deck {name!r} in {path.parent}")
        z = np.load(path, allow_pickle=False)
        return cls(name, z["prototypes"].astype(np.float32), z["labels"].astype(int), z["mean"], z["std"],
                   info=json.loads(str(z["info"])))


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


def collect(reader: Reader, images: Sequence[tuple[str, np.ndarray]]) -> list[SeenCard]:
    """Every whole card in the pictures, with both of its corner reads."""
    from companion.vision.detect import detect_cards

    seen = []
    for name, img in images:
        det = detect_cards(img)
        for quad in det.quads:
            reads, start = _quad_reads(reader, img, quad)
            code, conf, _ = reader.decide(reads) if reads else (None, 0.0, ())
            q = np.roll(quad, -start, axis=0)
            seen.append(SeenCard(name, q, reads, code, extra=_jittered(reader, img, q) if reads else []))
    return seen


def _jittered(reader: Reader, img: np.ndarray, quad: np.ndarray, n: int = 4) -> list[CornerRead]:
    """Corner reads of frames shifted and turned a little, as the detector's outline will be at play time,
    from the picture as taken and from a softer, smaller copy of it (a card further away, out of focus)."""
    rng = np.random.default_rng(0)
    q = quad.astype(np.float64)
    out = []
    w = np.linalg.norm(q[1] - q[0])
    x0, y0 = np.maximum(q.min(axis=0).astype(int) - 4, 0)
    x1, y1 = q.max(axis=0).astype(int) + 4
    crop = img[y0:y1, x0:x1]
    soft = cv2.resize(cv2.GaussianBlur(crop, (0, 0), 1.2), None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    soft = cv2.resize(soft, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_LINEAR)
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


def _quad_reads(reader: Reader, img: np.ndarray, quad: np.ndarray) -> tuple[list[CornerRead], int]:
    q = quad.astype(np.float64)
    best: list[CornerRead] = []
    best_start = 0
    best_score = -np.inf
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
            s = float(cast(np.ndarray, sum(r.card_scores() for r in reads)).max())  # reads is not empty: never 0
            if s > best_score:
                best, best_start, best_score = reads, start, s
    return best, best_start


def score_matrix(seen: list[SeenCard]) -> np.ndarray:
    """Generic reader log-scores, one row per seen card, one column per standard card."""
    s = np.full((len(seen), N_STANDARD), np.log(1e-6) * 2, np.float64)
    for i, c in enumerate(seen):
        if c.reads:
            s[i] = sum(r.card_scores() for r in c.reads)
    return s


def propose(seen: list[SeenCard], allowed: dict[str, set[int]] | None = None) -> list[SeenCard]:
    """Give each standard card to at most one seen card (each seen card at most one card), best total score.

    ``allowed``: per image, the card ids it holds (from a labels file); cards outside it are ruled out.
    """
    if len(seen) > N_STANDARD and allowed is None:
        raise EnrolError(f"{len(seen)} cards found in the pictures; a deck has {N_STANDARD} (jokers apart)")
    s = score_matrix(seen)
    if allowed is not None:
        for i, c in enumerate(seen):
            mask = np.ones(N_STANDARD, bool)
            mask[list(allowed.get(c.image, set()))] = False
            s[i, mask] = -1e6
    rows, cols = hungarian(-s)
    for i, j in zip(rows, cols):
        if s[i, j] > -1e5:
            seen[i].proposed = str(Card(int(j)))
            seen[i].score = float(np.exp(s[i, j] / max(len(seen[i].reads), 1)))
    return seen


def build_deck(name: str, seen: list[SeenCard], reader: Reader) -> EnrolledDeck:
    """Prototypes from every corner of every labelled card; standardised with the generic models' scaling."""
    check_name(name)
    feats, labels = [], []
    for c in seen:
        if c.proposed is None:
            continue
        cid = int(Card.parse(c.proposed))
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
    deck.info = {"cards": len(set(labels)), "corners": len(labels)}
    return deck


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
