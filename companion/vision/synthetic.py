"""Synthetic tables: the card decks composed onto a play mat, seen by a slightly tilted camera, with full truth.

A scene is deterministic from its seed (same seed and options, same picture, bit for bit). It has a community
row of 0-5 cards (touching or nearly touching), each seat's pocket cards fanned so that the upper card hides
most of the lower one (only the lower card's near corner index shows), some hands face down, chips near the
seats, then the camera: perspective tilt, rotation, light fall-off, glare, blur, noise, colour cast, JPEG.

>>> scene = render_scene(7, size=(640, 480), n_community=3, n_seats=3)
>>> scene.image.shape, len([c for c in scene.cards if c.zone == "community"])
((480, 640, 3), 3)
>>> all(scene.zones.zone_at(c.centre_norm(scene.size)) == c.zone for c in scene.cards)
True

Truth for every card (:class:`CardTruth`): its code ('Td', 'JR', 'JB', or 'BACK' when face down), its outline
in image pixels (clockwise from the printed top-left corner), both corner index boxes with how much of each is
visible, its zone ('community', 'seat:N') and the deck that drew it. ``deck=`` picks the decks a scene may use,
so a benchmark can keep one deck out of training.

The card pictures come from ``GANG_DECKS`` (an environment variable naming a folder of deck folders), else
``shared/decks`` in the repository or beside it, else ``/work/shared/decks``.
"""

from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from . import BACK, CardRead
from .zones import Zones, default_layout, seat_angle

__all__ = [
    "Scene", "CardTruth", "IndexTruth", "ChipTruth", "render_scene", "available_decks", "decks_dir",
    "card_image", "index_boxes", "MAT_COLOURS", "HQ_SIZE", "ALL_CODES", "DeckError", "write_dataset",
]

HQ_SIZE = (4056, 3040)  # Raspberry Pi HQ camera full resolution
CM3_SIZE = (4608, 2592)  # Camera Module 3 full resolution
RANKS = "23456789TJQKA"
SUITS = "cdhs"
STANDARD_CODES = tuple(r + s for r in RANKS for s in SUITS)
ALL_CODES = STANDARD_CODES + ("JR", "JB")

# Play mat colours (BGR): felt greens and blues, casino red, black, grey, a wooden table, purple, sand.
MAT_COLOURS: dict[str, tuple[int, int, int]] = {
    "green": (48, 108, 30),
    "dark_green": (40, 70, 22),
    "blue": (120, 72, 25),
    "red": (40, 35, 125),
    "black": (32, 30, 30),
    "grey": (95, 95, 92),
    "wood": (45, 85, 135),
    "purple": (95, 40, 75),
    "sand": (120, 165, 195),
}
# Light surfaces a crew may play on without a mat (a white tablecloth, a pale wooden or laminate table), where
# the paper of the cards hardly stands out. Drawn only when asked for by name: the random choice of a seed stays
# among MAT_COLOURS.
LIGHT_SURFACES: dict[str, tuple[int, int, int]] = {
    "white_cloth": (222, 226, 228),
    "pale_wood": (150, 188, 212),
}
WOOD = (40, 70, 110)
# The Gang's star chips: white, yellow, orange and red for the four rounds.
CHIP_COLOURS: dict[str, tuple[int, int, int]] = {
    "white": (235, 235, 235), "yellow": (40, 210, 245), "orange": (30, 130, 245), "red": (40, 40, 200),
}


class DeckError(RuntimeError):
    """The card pictures could not be found or read; the message names the folder or file."""


# ---- decks --------------------------------------------------------------------------------------------

def decks_dir() -> Path:
    env = os.environ.get("GANG_DECKS")
    candidates = [Path(env)] if env else []
    repo = Path(__file__).resolve().parents[2]
    # A checkout with shared/ inside it, or beside it (how CI clones the repository), or the workshop's copy.
    candidates += [repo / "shared" / "decks", repo.parent / "shared" / "decks", Path("/work/shared/decks")]
    for c in candidates:
        if c.is_dir():
            return c
    raise DeckError("card decks not found: set GANG_DECKS to the folder holding the deck folders "
                    f"(looked in {', '.join(str(c) for c in candidates)})")


@functools.lru_cache(maxsize=None)
def available_decks() -> tuple[str, ...]:
    root = decks_dir()
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir() and (p / "AS.png").exists()))


def _file_name(code: str) -> str:
    if code == "JR":
        return "JOKER_RED.png"
    if code == "JB":
        return "JOKER_BLACK.png"
    if code.startswith("BACK"):
        return code + ".png"  # BACK_BLUE, BACK_RED
    return code[0].upper() + code[1].upper() + ".png"


@functools.lru_cache(maxsize=256)
def card_image(deck: str, code: str) -> np.ndarray:
    """The card's picture as BGRA (alpha 0 outside the rounded corners); 'BACK_BLUE' etc. for backs."""
    import cv2

    if code.startswith("BACK") and code[5:] == "GEN":
        return _generated_back()
    path = decks_dir() / deck / _file_name(code)
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise DeckError(f"cannot read card picture {path}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    elif image.shape[2] == 3:
        image = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    image.setflags(write=False)
    return image


def _generated_back() -> np.ndarray:
    """A plain patterned back for decks that ship none: white border, dark red lattice."""
    import cv2

    h, w = 600, 413
    img = np.zeros((h, w, 4), np.uint8)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (250, 250, 250, 255), -1)
    cv2.rectangle(img, (22, 22), (w - 23, h - 23), (40, 30, 150, 255), -1)
    for k in range(-h, w + h, 24):
        cv2.line(img, (k, 22), (k + h, h + 22), (90, 80, 210, 255), 3)
        cv2.line(img, (k, 22), (k - h, h + 22), (90, 80, 210, 255), 3)
    cv2.rectangle(img, (22, 22), (w - 23, h - 23), (250, 250, 250, 255), 4)
    _round_corners(img, 24)
    img.setflags(write=False)
    return img


def _round_corners(img: np.ndarray, r: int) -> None:
    import cv2

    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    img[..., 3] = np.minimum(img[..., 3], mask)


def _ink_box(image: np.ndarray, joker: bool = False) -> tuple[int, int, int, int]:
    """Box (x0, y0, x1, y1) around the corner index in the top-left of a card picture (BGRA).

    A joker's index is the word JOKER written down the edge: every glyph in a narrow strip along it."""
    import cv2

    h, w = image.shape[:2]
    if joker:  # the word runs in italics down the edge and its glyphs touch the border: a fixed strip
        return (int(0.01 * w), int(0.01 * h), int(0.22 * w), int(0.53 * h))
    paper = np.median(image[int(0.45 * h):int(0.55 * h), 2:int(0.06 * w), :3].reshape(-1, 3).astype(np.int16), axis=0)
    region_w, region_h = int(0.36 * w), int(0.55 * h)
    corner = image[:region_h, :region_w]
    # The card's own border line (it follows the rounded corners) is not index ink: look well inside it.
    k = max(3, int(0.013 * w)) * 2 + 1
    inside = cv2.erode((corner[..., 3] > 200).astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0)
    ink = (np.abs(corner[..., :3].astype(np.int16) - paper).sum(axis=2) > 90) & inside.astype(bool)
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    boxes = []
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        if area < 0.00005 * w * h:
            continue
        if x + bw >= region_w - 1 or y + bh >= region_h - 1:  # runs out of the corner: a frame or picture
            continue
        if bw >= 0.32 * w or bh >= 0.31 * h:  # bigger than any index: part of a picture
            continue
        boxes.append((int(x), int(y), int(x + bw), int(y + bh)))
    # Seed: the top-most glyph starting near the edge (pictures and pip frames start further in).
    seeds = [b for b in boxes if b[0] < 0.1 * w and b[1] < 0.45 * h]
    if not seeds:
        return (int(0.02 * w), int(0.02 * h), int(0.16 * w), int(0.22 * h))
    group = [min(seeds, key=lambda b: b[1])]
    rest = [b for b in boxes if b != group[0]]
    grown = True
    while grown:
        grown = False
        for b in list(rest):
            for g in group:
                # Same text line ('1' then '0'): side by side, overlapping rows, about the same height.
                overlap = min(b[3], g[3]) - max(b[1], g[1])
                hb, hg = b[3] - b[1], g[3] - g[1]
                same_line = (-0.02 * w <= max(b[0] - g[2], g[0] - b[2]) < 0.06 * w and overlap > 0.6 * min(hb, hg)
                             and 0.7 < hb / max(hg, 1) < 1.4)
                # Stacked (rank over suit, or the letters of JOKER): below, sharing columns.
                columns = min(b[2], g[2]) - max(b[0], g[0])
                stacked = (-0.03 * h <= max(b[1] - g[3], g[1] - b[3]) < 0.05 * h
                           and columns > 0.3 * min(b[2] - b[0], g[2] - g[0]))
                # An index is never bigger than a third of the card's width and height: court pictures are.
                ux0, uy0 = min(min(x[0] for x in group), b[0]), min(min(x[1] for x in group), b[1])
                ux1, uy1 = max(max(x[2] for x in group), b[2]), max(max(x[3] for x in group), b[3])
                small = ux1 - ux0 < 0.32 * w and uy1 - uy0 < 0.31 * h
                if (same_line or stacked) and small:
                    group.append(b)
                    rest.remove(b)
                    grown = True
                    break
    x0 = min(b[0] for b in group)
    y0 = min(b[1] for b in group)
    x1 = max(b[2] for b in group)
    y1 = max(b[3] for b in group)
    pad = max(2, int(0.012 * w))
    return (max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad))


@functools.lru_cache(maxsize=None)
def index_boxes(deck: str, code: str) -> dict[str, tuple[int, int, int, int]]:
    """Boxes around the 'tl' and 'br' corner indices, in pixels of the card picture (x0, y0, x1, y1)."""
    image = card_image(deck, code)
    h, w = image.shape[:2]
    joker = code in ("JR", "JB")
    tl = _ink_box(image, joker)
    flipped = _ink_box(np.ascontiguousarray(image[::-1, ::-1]), joker)
    # A rank glyph that touches a court picture's frame is lost with the frame; the index is then only its
    # suit, shorter than any rank-over-suit index. Cards are point-symmetric: use the other corner's box.
    def short(b: tuple[int, int, int, int]) -> bool:
        return bool(b[3] - b[1] < 0.16 * h)
    if short(tl) and not short(flipped):
        tl = flipped
    elif short(flipped) and not short(tl):
        flipped = tl
    bx0, by0, bx1, by1 = flipped
    return {"tl": (int(tl[0]), int(tl[1]), int(tl[2]), int(tl[3])),
            "br": (int(w - bx1), int(h - by1), int(w - bx0), int(h - by0))}


# ---- truth ----------------------------------------------------------------------------------------------

@dataclass
class IndexTruth:
    """One corner index of a face-up card: its box (4x2 image pixels) and how much of it is not covered."""

    corner: str
    box: np.ndarray
    visible_fraction: float

    @property
    def visible(self) -> bool:
        return self.visible_fraction >= 0.8

    @property
    def hidden(self) -> bool:
        return self.visible_fraction < 0.2

    def to_dict(self) -> dict[str, Any]:
        return {"corner": self.corner, "box": self.box.round(2).tolist(),
                "visible_fraction": round(self.visible_fraction, 4), "visible": self.visible}


@dataclass
class CardTruth:
    code: str  # 'Td', 'JR', 'JB', or 'BACK' when face down
    quad: np.ndarray  # 4x2 image pixels, clockwise from the printed top-left corner
    face_up: bool
    zone: str  # 'community', 'seat:N'
    deck: str  # the deck folder that drew it ('generated' for a made-up back)
    z: int  # stacking order: higher lies on top
    indices: dict[str, IndexTruth] = field(default_factory=dict)  # 'tl', 'br'; empty when face down
    visible_fraction: float = 1.0  # of the whole card
    hidden_code: str | None = None  # the face of a face-down card

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.quad.mean(axis=0), dtype=np.float64)

    def centre_norm(self, size: tuple[int, int]) -> tuple[float, float]:
        c = self.centre
        return (float(c[0] / size[0]), float(c[1] / size[1]))

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "quad": self.quad.round(2).tolist(), "face_up": self.face_up,
                "zone": self.zone, "deck": self.deck, "z": self.z,
                "visible_fraction": round(self.visible_fraction, 4), "hidden_code": self.hidden_code,
                "indices": {k: v.to_dict() for k, v in self.indices.items()}}


@dataclass
class ChipTruth:
    centre: np.ndarray  # image pixels
    radius: float  # pixels (mean; the disc is an ellipse after the tilt)
    number: int
    colour: str
    zone: str


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8, full resolution
    cards: list[CardTruth]
    chips: list[ChipTruth]
    zones: Zones  # the layout the cards were dealt into, as the camera sees it (normalised coordinates)
    seed: int
    decks: tuple[str, ...]
    mat: str
    n_seats: int
    homography: np.ndarray  # table plane (pixels before the tilt) -> image pixels
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def size(self) -> tuple[int, int]:
        return (self.image.shape[1], self.image.shape[0])

    def lores(self, size: tuple[int, int] = (640, 480)) -> tuple[np.ndarray, float]:
        """The picture shrunk to fit ``size`` and the factor applied (multiply truth coordinates by it)."""
        import cv2

        w, h = self.size
        s = min(size[0] / w, size[1] / h)
        return cv2.resize(self.image, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA), s

    def zone_cards(self, zone: str) -> list[CardTruth]:
        return [c for c in self.cards if c.zone == zone]

    def card_reads(self, scale: float = 1.0, min_visible: float = 0.8) -> list[CardRead]:
        """The truth as a perfect reader would report it: one read per visible corner index (confidence 1),
        one per face-down card (corner 'none')."""
        reads = []
        for c in self.cards:
            q = c.quad * scale
            if not c.face_up:
                if c.visible_fraction >= 0.2:
                    reads.append(CardRead(BACK, 1.0, q, "none", True))
                continue
            for corner, ix in c.indices.items():
                if ix.visible_fraction >= min_visible:
                    reads.append(CardRead(c.code, 1.0, q, corner, False, index_box=ix.box * scale))
        return reads

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "size": list(self.size), "decks": list(self.decks), "mat": self.mat,
                "n_seats": self.n_seats, "homography": self.homography.round(8).tolist(),
                "cards": [c.to_dict() for c in self.cards],
                "chips": [{"centre": ch.centre.round(2).tolist(), "radius": round(ch.radius, 2),
                           "number": ch.number, "colour": ch.colour, "zone": ch.zone} for ch in self.chips],
                "zones": self.zones.to_dict(), "options": self.options}


# ---- composition --------------------------------------------------------------------------------------

@dataclass
class _Placed:
    code: str
    face: str  # file code drawn ('Td', 'BACK_BLUE', 'BACK_GEN')
    deck: str
    centre: np.ndarray  # plane pixels
    angle: float  # radians, clockwise on the picture
    size: tuple[float, float]  # w, h plane pixels
    face_up: bool
    zone: str
    hidden_code: str | None = None

    def plane_quad(self) -> np.ndarray:
        w, h = self.size
        local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
        c, s = math.cos(self.angle), math.sin(self.angle)
        rot = np.array([[c, -s], [s, c]])
        return np.asarray(local @ rot.T + self.centre, dtype=np.float64)


def _apply_h(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return np.asarray(p[:, :2] / p[:, 2:3], dtype=np.float64)


def _pick_decks(deck: str | Sequence[str] | None) -> tuple[str, ...]:
    have = available_decks()
    if not have:
        raise DeckError(f"no decks in {decks_dir()}")
    if deck is None:
        return have
    wanted = (deck,) if isinstance(deck, str) else tuple(deck)
    missing = [d for d in wanted if d not in have]
    if missing or not wanted:
        raise DeckError(f"no such deck: {', '.join(missing) or '(none given)'} (have {', '.join(have)})")
    return wanted


def render_scene(
    seed: int,
    size: tuple[int, int] = HQ_SIZE,
    deck: str | Sequence[str] | None = None,
    n_community: int | None = None,
    n_seats: int | None = None,
    hand_size: int | None = None,
    face_down_prob: float = 0.35,
    empty_seat_prob: float = 0.1,
    jokers: bool | None = None,
    mat: str | None = None,
    card_height: float | None = None,
    tilt: float | None = None,
    rotation: float | None = None,
    chips: bool = True,
    clean: bool = False,
    jpeg_quality: int | None = None,
    stacked: int = 0,
) -> Scene:
    """Compose one table picture of ``size`` (width, height) with its truth.

    ``None`` means "let the seed choose". ``card_height`` is a fraction of the picture height (about 0.145 for
    an HQ camera 55 cm above the mat with the 6 mm lens); ``tilt`` the largest corner shift of the
    perspective, as a fraction of the width; ``rotation`` the camera's roll in degrees. ``clean`` turns off
    glare, blur, noise, colour cast and JPEG (the tilt and rotation stay). ``stacked``: so many community slots
    (the first ones) hold two cards, the second laid on the first a little down and across so both indices show:
    the Jokers variant's two cards drawn for a joker turned up in the row. (0, the default, leaves every seed's
    scene as it was.)
    """
    import cv2

    rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, 0x6A4E])
    W, H = int(size[0]), int(size[1])
    if W < 64 or H < 48:
        raise ValueError(f"picture too small: {W}x{H}")
    decks = _pick_decks(deck)
    scene_deck = decks[int(rng.integers(len(decks)))]
    n_seats = int(rng.integers(2, 7)) if n_seats is None else int(n_seats)
    n_community = int(rng.integers(0, 6)) if n_community is None else int(n_community)
    if not 0 <= n_community <= 5:
        raise ValueError(f"the community row holds 0 to 5 cards, not {n_community}")
    hand_size = (3 if rng.random() < 0.15 else 2) if hand_size is None else int(hand_size)
    jokers = bool(rng.random() < 0.25) if jokers is None else jokers
    mat_name = str(rng.choice(sorted(MAT_COLOURS))) if mat is None else mat
    if mat_name not in MAT_COLOURS and mat_name not in LIGHT_SURFACES:
        raise ValueError(f"no mat colour {mat_name!r} (have {', '.join(sorted(MAT_COLOURS) + sorted(LIGHT_SURFACES))})")
    card_h = (rng.uniform(0.11, 0.155) if card_height is None else card_height) * H
    if not 0 <= stacked <= n_community:
        raise ValueError(f"{stacked} stacked slots in a row of {n_community} cards")
    if n_community + stacked + n_seats * hand_size > (54 if jokers else 52):
        raise ValueError("more cards than the deck holds")

    pool = list(ALL_CODES if jokers else STANDARD_CODES)
    order = rng.permutation(len(pool))
    deal = [pool[i] for i in order]
    probe = card_image(scene_deck, "AS")
    card_aspect = probe.shape[1] / probe.shape[0]
    card_w = card_h * card_aspect
    has_backs = (decks_dir() / scene_deck / "BACK_BLUE.png").exists()
    back_face = str(rng.choice(["BACK_BLUE", "BACK_RED"])) if has_backs else "BACK_GEN"
    back_deck = scene_deck if has_backs else "generated"

    placed: list[_Placed] = []
    # Community row across the middle.
    row_angle = math.radians(rng.uniform(-5, 5))
    gap = 0.0 if rng.random() < 0.25 else rng.uniform(0.02, 0.25)
    step = card_w * (1 + gap)
    row_c = np.array([W / 2 + rng.uniform(-0.02, 0.02) * W, H / 2 + rng.uniform(-0.02, 0.02) * H])
    along = np.array([math.cos(row_angle), math.sin(row_angle)])
    for k in range(n_community):
        offset = (k - (n_community - 1) / 2) * step
        jitter = rng.uniform(-0.015, 0.015, 2) * card_w
        placed.append(_Placed(deal.pop(), "", scene_deck, row_c + along * offset + jitter,
                              row_angle + math.radians(rng.uniform(-2.5, 2.5)), (card_w, card_h), True, "community"))
        if k < stacked:  # the second card on it, down the row's normal and a little across, turned a little
            lower = placed[-1]
            across, down = rng.uniform(-0.12, 0.12) * card_w, rng.uniform(0.22, 0.38) * card_h
            normal = np.array([-along[1], along[0]])
            placed.append(_Placed(deal.pop(), "", scene_deck, lower.centre + along * across + normal * down,
                                  lower.angle + math.radians(rng.uniform(-6, 6)), (card_w, card_h), True,
                                  "community"))
    # Pocket hands, fanned, the upper card hiding the lower card's far corner.
    idx_right = max(index_boxes(scene_deck, "TD")["tl"][2], index_boxes(scene_deck, "QS")["tl"][2]) / probe.shape[1]
    margin = 0.56 * card_h + 0.012 * H
    for i in range(n_seats):
        if rng.random() < empty_seat_prob and n_seats > 2:
            continue
        a = seat_angle(i, n_seats)
        ca, sa = math.cos(a), math.sin(a)
        tx = (W / 2 - margin - 0.3 * card_w) / abs(ca) if abs(ca) > 1e-6 else 1e9
        ty = (H / 2 - margin) / abs(sa) if abs(sa) > 1e-6 else 1e9
        t = min(tx, ty) * rng.uniform(0.93, 1.0)
        anchor = np.array([W / 2 + t * ca, H / 2 + t * sa])
        face_up = rng.random() >= face_down_prob
        facing = a - math.pi / 2 + math.radians(rng.uniform(-15, 15))
        direction = 1 if rng.random() < 0.75 else -1
        dx = (idx_right + rng.uniform(0.04, 0.14)) * card_w
        dy = rng.uniform(-0.05, 0.05) * card_h
        fan = math.radians(rng.uniform(0, 10)) * direction
        c, s = math.cos(facing), math.sin(facing)
        rot = np.array([[c, -s], [s, c]])
        offsets = [np.array([direction * dx * k, dy * k]) for k in range(hand_size)]
        mean_off = sum(offsets) / hand_size
        for k in range(hand_size):
            centre = anchor + rot @ (offsets[k] - mean_off)
            code = deal.pop()
            if face_up:
                placed.append(_Placed(code, "", scene_deck, centre, facing + fan * k, (card_w, card_h), True,
                                      f"seat:{i}"))
            else:
                placed.append(_Placed(BACK, back_face, back_deck, centre, facing + fan * k, (card_w, card_h), False,
                                      f"seat:{i}", hidden_code=code))

    # Camera: roll about the centre, perspective tilt, and a zoom-out until every card is in the picture.
    roll = math.radians(rng.uniform(-8, 8) if rotation is None else rotation)
    tilt_amt = rng.uniform(0.0, 0.06) if tilt is None else tilt
    corners = np.array([[0, 0], [W, 0], [W, H], [0, H]], dtype=np.float64)
    shift = rng.uniform(-1, 1, (4, 2)) * tilt_amt * W
    # A tilted camera makes a keystone: the far edge shrinks; push the shifts inwards so no corner leaves.
    shift = np.abs(shift) * np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]])
    h_tilt = cv2.getPerspectiveTransform(corners.astype(np.float32),
                                         (corners + shift).astype(np.float32)).astype(np.float64)
    cr, sr = math.cos(roll), math.sin(roll)
    to_c = np.array([[1, 0, -W / 2], [0, 1, -H / 2], [0, 0, 1]], dtype=np.float64)
    back_c = np.array([[1, 0, W / 2], [0, 1, H / 2], [0, 0, 1]], dtype=np.float64)
    rot_h = np.array([[cr, -sr, 0], [sr, cr, 0], [0, 0, 1]], dtype=np.float64)
    plane_quads = [p.plane_quad() for p in placed]
    zoom = 1.0
    for _ in range(40):
        zoom_h = np.diag([zoom, zoom, 1.0])
        hom = h_tilt @ back_c @ rot_h @ zoom_h @ to_c
        quads = [_apply_h(hom, q) for q in plane_quads]
        pad = 0.004 * W
        if all((q[:, 0] >= pad).all() and (q[:, 0] <= W - pad).all() and (q[:, 1] >= pad).all()
               and (q[:, 1] <= H - pad).all() for q in quads):
            break
        zoom *= 0.96
    norm = np.diag([1 / W, 1 / H, 1.0])
    zones = default_layout(n_seats, aspect=W / H).transformed(norm @ hom @ np.linalg.inv(norm), aspect=W / H)

    # ---- pixels ----
    image = _mat(rng, W, H, mat_name, hom)
    label_scale = 1600 / W  # coverage is measured on a 1600-pixel-wide map whatever the picture size
    labels = np.full((max(1, round(H * label_scale)), max(1, round(W * label_scale))), -1, np.int32)
    order_z = list(range(len(placed)))
    for z, p in enumerate(placed):
        q = quads[z]
        _shadow(image, q, card_h * zoom)
        face = p.face if not p.face_up else p.code
        _paste(image, card_image(p.deck, face), q)
        cv2.fillConvexPoly(labels, np.round(q * label_scale).astype(np.int32), z)

    chip_truth: list[ChipTruth] = []
    if chips:
        chip_truth = _chips(rng, image, labels, label_scale, placed, quads, hom, card_w, n_seats, W, H)

    cards: list[CardTruth] = []
    for z, p in enumerate(placed):
        q = quads[z].astype(np.float32)
        truth = CardTruth(p.code, q, p.face_up, p.zone, p.deck, z, hidden_code=p.hidden_code)
        truth.visible_fraction = _visible(labels, q * label_scale, z)
        if p.face_up:
            img = card_image(p.deck, p.code)
            ch, cw = img.shape[:2]
            to_img = np.asarray(cv2.getPerspectiveTransform(
                np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32), q.astype(np.float32)), np.float64)
            for corner, (x0, y0, x1, y1) in index_boxes(p.deck, p.code).items():
                box = _apply_h(to_img, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float64))
                truth.indices[corner] = IndexTruth(corner, box.astype(np.float32),
                                                   _visible(labels, box * label_scale, z))
        cards.append(truth)
    del order_z

    if not clean:
        image = _camera_effects(rng, image, W, H, jpeg_quality)
    options = {"size": [W, H], "n_community": n_community, "hand_size": hand_size, "jokers": jokers,
               "card_height": card_h / H, "tilt": tilt_amt, "rotation_deg": math.degrees(roll), "zoom": zoom,
               "clean": clean}
    return Scene(image, cards, chip_truth, zones, int(seed), decks, mat_name, n_seats, hom, options)


def write_dataset(out_dir: str | os.PathLike[str], seeds: Sequence[int], size: tuple[int, int] = HQ_SIZE,
                  lores_size: tuple[int, int] | None = None, jpeg: bool = False, **scene_kw: Any) -> list[Path]:
    """Render ``seeds`` into ``out_dir``: ``scene_<seed>.png`` (or .jpg) and ``scene_<seed>.json`` (the truth,
    :meth:`Scene.to_dict`), plus ``scene_<seed>_lores.png`` when ``lores_size`` is given (its truth is the
    full one times ``lores_scale`` in the JSON). Returns the picture paths, in seed order."""
    import json

    import cv2

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in seeds:
        scene = render_scene(seed, size=size, **scene_kw)
        truth = scene.to_dict()
        picture = out / f"scene_{seed}.{'jpg' if jpeg else 'png'}"
        if not cv2.imwrite(str(picture), scene.image):
            raise OSError(f"cannot write {picture}")
        if lores_size is not None:
            small, s = scene.lores(lores_size)
            cv2.imwrite(str(out / f"scene_{seed}_lores.png"), small)
            truth["lores_scale"] = s
        (out / f"scene_{seed}.json").write_text(json.dumps(truth))
        paths.append(picture)
    return paths


def _visible(labels: np.ndarray, quad: np.ndarray, z: int) -> float:
    """Fraction of ``quad`` (label-map pixels) where card ``z`` is the top-most thing."""
    import cv2

    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, labels.shape[1]), min(y1, labels.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, np.round(quad - [x0, y0]).astype(np.int32), 1)
    inside = mask.astype(bool)
    if not inside.any():
        return 0.0
    return float((labels[y0:y1, x0:x1][inside] == z).mean())


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    import cv2

    gw = max(2, cells)
    gh = max(2, round(cells * h / w))
    return cv2.resize(rng.standard_normal((gh, gw)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)


def _mat(rng: np.random.Generator, W: int, H: int, mat: str, hom: np.ndarray) -> np.ndarray:
    import cv2

    base = np.array(MAT_COLOURS[mat] if mat in MAT_COLOURS else LIGHT_SURFACES[mat], np.float32)
    lum = 1.0 + 0.035 * _smooth_noise(rng, W, H, 6) + 0.02 * _smooth_noise(rng, W, H, 40)
    small = (max(2, W // 2), max(2, H // 2))
    grain = cv2.resize(rng.standard_normal((small[1], small[0]), dtype=np.float32), (W, H),
                       interpolation=cv2.INTER_LINEAR) * (0.05 if mat != "wood" else 0.03)
    if mat == "wood":  # streaks along the grain
        streak = cv2.resize(rng.standard_normal((1, max(2, W // 6))).astype(np.float32), (W, H),
                            interpolation=cv2.INTER_CUBIC)
        lum = lum + 0.08 * streak
    image = base[None, None, :] * (lum + grain)[..., None]
    if rng.random() < 0.3:  # the mat's edge shows and the table around it
        inset = rng.uniform(-0.04, 0.03)
        rect = np.array([[-inset * W, -inset * H], [W * (1 + inset), -inset * H],
                         [W * (1 + inset), H * (1 + inset)], [-inset * W, H * (1 + inset)]])
        edge = _apply_h(hom, rect)
        mask = np.zeros((H, W), np.uint8)
        cv2.fillPoly(mask, [np.round(edge).astype(np.int32)], 1, cv2.LINE_AA)
        wood = np.array(WOOD, np.float32)[None, None, :] * (1.0 + 0.1 * _smooth_noise(rng, W, H, 80))[..., None]
        image = np.where(mask[..., None].astype(bool), image, wood)
    return np.clip(image, 0, 255).astype(np.uint8)


def _shadow(image: np.ndarray, quad: np.ndarray, card_h: float) -> None:
    """Darken a soft patch just below and right of the card: cards lie on the mat, they do not float."""
    import cv2

    off = np.array([0.012, 0.018]) * card_h
    blur = max(1.0, 0.02 * card_h)
    q = quad + off
    pad = int(3 * blur) + 2
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + pad
    H, W = image.shape[:2]
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillConvexPoly(mask, np.round(q - [x0, y0]).astype(np.int32), 1.0, cv2.LINE_AA)
    mask = cv2.GaussianBlur(mask, (0, 0), blur)
    roi = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (roi * (1 - 0.45 * mask[..., None])).astype(np.uint8)


def _paste(image: np.ndarray, card: np.ndarray, quad: np.ndarray) -> None:
    """Warp a BGRA card picture onto ``quad`` of ``image`` (in place), blending by its alpha."""
    import cv2

    H, W = image.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
    if x1 <= x0 or y1 <= y0:
        return
    # Shrink the picture first with area averaging: warpPerspective alone would alias fine print.
    side = float(max(np.linalg.norm(quad[0] - quad[3]), np.linalg.norm(quad[1] - quad[2])))
    ch = card.shape[0]
    if side < 0.8 * ch:
        s = max(side / ch, 4 / ch)
        card = cv2.resize(card, (max(2, round(card.shape[1] * s)), max(2, round(ch * s))), interpolation=cv2.INTER_AREA)
    ch, cw = card.shape[:2]
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    warped = cv2.warpPerspective(card, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    alpha = warped[..., 3:4].astype(np.float32) / 255.0
    roi = image[y0:y1, x0:x1].astype(np.float32)
    image[y0:y1, x0:x1] = (warped[..., :3].astype(np.float32) * alpha + roi * (1 - alpha) + 0.5).astype(np.uint8)


def _chips(rng: np.random.Generator, image: np.ndarray, labels: np.ndarray, label_scale: float,
           placed: list[_Placed], quads: list[np.ndarray], hom: np.ndarray, card_w: float, n_seats: int,
           W: int, H: int) -> list[ChipTruth]:
    """Star chips near the seats, placed where they cover no card (they sit between hands and the row)."""
    import cv2

    out: list[ChipTruth] = []
    radius = 0.36 * card_w
    colours = list(CHIP_COLOURS)
    n_rounds = int(rng.integers(0, 5))
    circle = np.stack([np.cos(np.linspace(0, 2 * np.pi, 48, endpoint=False)),
                       np.sin(np.linspace(0, 2 * np.pi, 48, endpoint=False))], axis=1)
    polys = [q.astype(np.float32) for q in quads]
    for i in range(n_seats):
        a = seat_angle(i, n_seats)
        for r in range(n_rounds):
            for _ in range(12):
                t = rng.uniform(0.2, 0.36) * H
                ang = a + rng.uniform(-0.35, 0.35)
                c_plane = np.array([W / 2 + t * math.cos(ang) * 1.25, H / 2 + t * math.sin(ang)])
                pts = _apply_h(hom, c_plane + radius * circle)
                centre = pts.mean(axis=0)
                rad = float(np.linalg.norm(pts - centre, axis=1).mean())
                if (pts < 0).any() or (pts[:, 0] >= W).any() or (pts[:, 1] >= H).any():
                    continue
                clear = all(cv2.pointPolygonTest(q, (float(centre[0]), float(centre[1])), True) < -rad * 1.05
                            for q in polys)
                clear = clear and all(np.linalg.norm(ch.centre - centre) > ch.radius + rad for ch in out)
                if not clear:
                    continue
                colour = colours[r]
                number = int(rng.integers(1, n_seats + 1))
                _draw_chip(image, pts, centre, rad, CHIP_COLOURS[colour], number)
                cv2.fillPoly(labels, [np.round(pts * label_scale).astype(np.int32)], 100_000 + len(out))
                zone = f"seat:{i}"
                out.append(ChipTruth(centre.astype(np.float32), rad, number, colour, zone))
                break
    return out


def _draw_chip(image: np.ndarray, pts: np.ndarray, centre: np.ndarray, rad: float,
               colour: tuple[int, int, int], number: int) -> None:
    import cv2

    shade = tuple(int(c * 0.6) for c in colour)
    poly = np.round(pts).astype(np.int32)
    cv2.fillPoly(image, [np.round(pts + [0.05 * rad, 0.08 * rad]).astype(np.int32)], (20, 20, 20), cv2.LINE_AA)
    cv2.fillPoly(image, [poly], shade, cv2.LINE_AA)
    inner = np.round(centre + (pts - centre) * 0.82).astype(np.int32)
    cv2.fillPoly(image, [inner], colour, cv2.LINE_AA)
    # A five-pointed star with the number on it, like the game's chips.
    star = []
    for k in range(10):
        r = 0.62 * rad if k % 2 == 0 else 0.27 * rad
        ang = -math.pi / 2 + k * math.pi / 5
        star.append(centre + r * np.array([math.cos(ang), math.sin(ang)]))
    cv2.fillPoly(image, [np.round(np.array(star)).astype(np.int32)], shade, cv2.LINE_AA)
    text = str(number)
    scale = max(0.3, rad / 30)
    thick = max(1, round(rad / 14))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
    org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
    cv2.putText(image, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (250, 250, 250), thick, cv2.LINE_AA)


def _camera_effects(rng: np.random.Generator, image: np.ndarray, W: int, H: int,
                    jpeg_quality: int | None) -> np.ndarray:
    import cv2

    img = image.astype(np.float32)
    # Light falls off away from the lamp; the white balance is a little off.
    # (The light field is smooth: build it at 1/8 scale and enlarge it once.)
    sw, sh = max(2, W // 8), max(2, H // 8)
    light = 1.0 + rng.uniform(0.05, 0.2) * _smooth_noise(rng, sw, sh, 3)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    vignette = 1.0 - rng.uniform(0.05, 0.25) * (((xx - sw / 2) / (sw / 2)) ** 2 + ((yy - sh / 2) / (sh / 2)) ** 2) / 2
    gains = rng.uniform(0.85, 1.15, 3).astype(np.float32) * rng.uniform(0.8, 1.1)
    field = cv2.resize((light * vignette)[..., None] * gains[None, None, :], (W, H), interpolation=cv2.INTER_LINEAR)
    img *= field
    del field
    # Glare: soft bright spots where the lamp reflects off the cards' gloss.
    for _ in range(int(rng.integers(0, 4))):
        cx, cy = rng.uniform(0.1, 0.9) * W, rng.uniform(0.1, 0.9) * H
        sx, sy = rng.uniform(0.015, 0.07, 2) * W
        ang = rng.uniform(0, math.pi)
        x0, x1 = int(max(0, cx - 3 * max(sx, sy))), int(min(W, cx + 3 * max(sx, sy)))
        y0, y1 = int(max(0, cy - 3 * max(sx, sy))), int(min(H, cy + 3 * max(sx, sy)))
        if x1 <= x0 or y1 <= y0:
            continue
        gy, gx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        u = (gx - cx) * math.cos(ang) + (gy - cy) * math.sin(ang)
        v = -(gx - cx) * math.sin(ang) + (gy - cy) * math.cos(ang)
        g = rng.uniform(0.5, 0.95) * np.exp(-0.5 * ((u / sx) ** 2 + (v / sy) ** 2))
        roi = img[y0:y1, x0:x1]
        img[y0:y1, x0:x1] = roi + (255.0 - roi) * g[..., None]
    # Focus and motion blur (a hand moving the mat, a lens a little off focus).
    if rng.random() < 0.7:
        sigma = rng.uniform(0.3, 1.2) * W / 2000
        if sigma > 0.25:
            img = np.asarray(cv2.GaussianBlur(img, (0, 0), sigma), np.float32)
    if rng.random() < 0.1:
        k = max(3, int(rng.uniform(0.0007, 0.002) * W) | 1)
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kernel = np.asarray(cv2.warpAffine(kernel, rot, (k, k)), np.float32)
        kernel /= max(kernel.sum(), 1e-6)
        img = np.asarray(cv2.filter2D(img, -1, kernel), np.float32)
    noise = rng.standard_normal(img.shape, dtype=np.float32)
    noise *= rng.uniform(1.0, 6.0)
    img += noise
    del noise
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg_quality is None and rng.random() < 0.7:
        jpeg_quality = int(rng.integers(55, 96))
    if jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return out
