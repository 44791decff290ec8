"""Training corners for the generic reader: index glyphs rendered in many fonts, suits in many shapes and
colours, crops of the shared decks, all put through camera degradations.

Everything returns corner patches in the frame of :mod:`reader_glyph` (``PATCH_SIZE``, ``PATCH_PX`` per card
width), so the training labels pass through the same glyph locator as the real reads. Needs Pillow (training
only; the companion itself never imports this module).

Held out of training, for measurement: the fonts in ``HELD_OUT_FAMILIES`` and the deck ``HELD_OUT_DECK``.
"""

from __future__ import annotations

import glob
import os
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.vision.reader_glyph import PATCH_PX, PATCH_SIZE

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_TEXT = {r: ("10" if r == "T" else r) for r in RANKS}
SUIT_CHAR = {"s": "\u2660", "h": "\u2665", "d": "\u2666", "c": "\u2663"}
JOKER_LETTERS = "oOkKeErRpPlLAaYy"  # 'letter' class: the 2nd glyph of a JOKER / other words in a corner

TRAIN_DECKS = ("byronknoll_vector", "saulspatz_gang4colour")
HELD_OUT_DECK = "saulspatz_vertical2"
HELD_OUT_FAMILIES = ("Lato", "Caladea", "NimbusSansNarrow", "C059", "Cousine")
LATIN_FAMILIES = ("DejaVu", "Liberation", "Free", "Nimbus", "URW", "P052", "C059", "Arimo", "Cousine", "Tinos",
                  "Caladea", "Carlito", "Lato", "OpenSans", "Roboto", "NotoSans-", "NotoSerif-", "NotoSansDisplay",
                  "NotoSerifDisplay", "Z003")
FONT_DIRS = ("/usr/share/fonts",)

# Ink palettes (BGR): the boxed game's four colours, classic two-colour, blue-tinted camera ink.
INK = {
    "s": [(20, 20, 20), (40, 30, 25), (70, 50, 40), (30, 30, 60), (90, 60, 45)],
    "c": [(20, 20, 20), (110, 110, 110), (130, 125, 120), (40, 110, 30), (60, 60, 60), (90, 70, 60)],
    "h": [(30, 20, 210), (40, 40, 180), (60, 40, 150), (70, 50, 220)],
    "d": [(30, 20, 210), (0, 120, 240), (20, 140, 230), (160, 60, 20), (60, 40, 170)],
}


def list_fonts(held_out: bool = False) -> list[str]:
    """Latin text fonts on this machine; ``held_out`` picks the measurement fonts instead of training ones."""
    out = []
    for d in FONT_DIRS:
        for p in sorted(glob.glob(f"{d}/**/*.[ot]tf", recursive=True)):
            name = os.path.basename(p)
            if not any(name.startswith(f) for f in LATIN_FAMILIES) or "Math" in name or "Mono" in name and "Free" not in name:
                continue
            if "Hairline" in name or "Thin" in name or "ExtraLight" in name:
                continue
            is_held = any(name.startswith(f) for f in HELD_OUT_FAMILIES)
            if is_held == held_out:
                out.append(p)
    return out


@lru_cache(maxsize=4096)
def text_mask(font_path: str, text: str, size: int = 96) -> np.ndarray | None:
    """Tight uint8 mask (0..255) of ``text`` in one font, or None when the font lacks the glyphs."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, size)
    img = Image.new("L", (size * 3, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 3), text, fill=255, font=font)
    a = np.asarray(img)
    ys, xs = np.nonzero(a > 40)
    if len(ys) == 0:
        return None
    m = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    # A missing glyph renders as the same box for every character: compare with a private-use char.
    probe = _notdef(font_path, size)
    if probe is not None and probe.shape == m.shape and np.abs(probe.astype(int) - m).mean() < 8:
        return None
    return m.copy()


@lru_cache(maxsize=256)
def _notdef(font_path: str, size: int) -> np.ndarray | None:
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(font_path, size)
    img = Image.new("L", (size * 3, size * 2), 0)
    ImageDraw.Draw(img).text((size // 2, size // 3), "\ue000", fill=255, font=font)
    a = np.asarray(img)
    ys, xs = np.nonzero(a > 40)
    return None if len(ys) == 0 else a[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


def suit_mask(font_path: str, suit: str) -> np.ndarray | None:
    """The suit symbol ``suit`` ('s', 'h', 'd', 'c') in one font, as ``text_mask`` makes it; None where the
    font lacks it. Some fonts draw the black spade at the club's code point and the club at the spade's (GNU
    FreeFont's FreeSerifBold and FreeSerifBoldItalic): there the two are swapped back (``_spade_club_swapped``),
    or every spade made with them would be a club labelled a spade."""
    char = SUIT_CHAR[suit]
    if suit in "sc" and _spade_club_swapped(font_path):
        char = SUIT_CHAR["c" if suit == "s" else "s"]
    return text_mask(font_path, char)


@lru_cache(maxsize=256)
def _spade_club_swapped(font_path: str) -> bool:
    """The font's black spade (U+2660) and club (U+2663) are each other's shapes: each looks more like the
    other's white, outlined symbol (U+2664, U+2667; filled in) than like its own, by the two overlaps (IoU at
    48 px) summed. A font without the white symbols is taken as it is (the 53 such fonts here draw both right)."""
    spade, club = (text_mask(font_path, SUIT_CHAR[s]) for s in "sc")
    white_spade, white_club = (text_mask(font_path, ch) for ch in ("\u2664", "\u2667"))
    if spade is None or club is None or white_spade is None or white_club is None:
        return False
    outlined_spade, outlined_club = _filled(white_spade), _filled(white_club)
    own = _overlap(spade, outlined_spade) + _overlap(club, outlined_club)
    crossed = _overlap(spade, outlined_club) + _overlap(club, outlined_spade)
    return crossed > own


def _filled(mask: np.ndarray) -> np.ndarray:
    """An outlined symbol's mask with its inside filled: all but what the outside reaches from the border."""
    ink = (mask > 100).astype(np.uint8) * 255
    pad = cv2.copyMakeBorder(ink, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0)
    outside = pad.copy()
    cv2.floodFill(outside, np.zeros((pad.shape[0] + 2, pad.shape[1] + 2), np.uint8), (0, 0), 255)
    out: np.ndarray = cv2.bitwise_or(pad, cv2.bitwise_not(outside))[2:-2, 2:-2]
    return out


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two glyph masks, each scaled to 48x48."""
    sa, sb = (cv2.resize((m > 100).astype(np.float32), (48, 48), interpolation=cv2.INTER_AREA) > 0.5
              for m in (a, b))
    return float((sa & sb).sum()) / max(1, int((sa | sb).sum()))


@lru_cache(maxsize=1)
def suit_fonts() -> list[str]:
    keep = []
    for p in list_fonts(False) + list_fonts(True) + sorted(glob.glob("/usr/share/fonts/**/NotoSansSymbols*.ttf", recursive=True)) + \
            sorted(glob.glob("/usr/share/fonts/**/D050000L.otf", recursive=True)) + \
            sorted(glob.glob("/usr/share/fonts/**/StandardSymbolsPS.otf", recursive=True)):
        if all(text_mask(p, SUIT_CHAR[s]) is not None for s in SUITS):
            keep.append(p)
    return keep


def suit_shape(suit: str, rng: np.random.Generator, size: int = 96) -> np.ndarray:
    """A procedurally drawn suit symbol (uint8 mask), varied in proportions and curvature."""
    s = size
    img = np.zeros((s, s), np.uint8)
    t = np.linspace(0, 2 * np.pi, 200)
    if suit == "d":
        bulge = rng.uniform(-0.12, 0.08)  # concave or convex sides
        wr = rng.uniform(0.55, 0.85)
        pts = []
        corners = [(0.5, 0.02), (0.5 + wr / 2, 0.5), (0.5, 0.98), (0.5 - wr / 2, 0.5)]
        for i in range(4):
            a, b = np.array(corners[i]), np.array(corners[(i + 1) % 4])
            n = np.array([b[1] - a[1], -(b[0] - a[0])])
            n = n / np.linalg.norm(n)
            for u in np.linspace(0, 1, 20, endpoint=False):
                p = a + (b - a) * u + n * bulge * 4 * u * (1 - u) * 0.5 * np.linalg.norm(b - a) * (-1)
                pts.append(p)
        poly = (np.array(pts) * s).astype(np.int32)
        cv2.fillPoly(img, [poly], 255)
    elif suit in "hs":
        k = rng.uniform(0.8, 1.2)
        x = 16 * np.sin(t) ** 3 * k
        y = -(13 * np.cos(t) - rng.uniform(4, 6) * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t))
        x = (x - x.min()) / (x.max() - x.min())
        y = (y - y.min()) / (y.max() - y.min())
        if suit == "s":
            y = 1 - y
            y = y * 0.78
        poly = np.stack([0.05 + 0.9 * x, 0.04 + 0.92 * y], 1) * s
        cv2.fillPoly(img, [poly.astype(np.int32)], 255)
        if suit == "s":
            sw = rng.uniform(0.12, 0.3)
            stem = np.array([[0.5 - 0.03, 0.6], [0.5 + 0.03, 0.6], [0.5 + sw, 0.97], [0.5 - sw, 0.97]]) * s
            cv2.fillPoly(img, [stem.astype(np.int32)], 255)
    else:  # club
        r = rng.uniform(0.19, 0.24)
        cy = rng.uniform(0.27, 0.33)
        for cx, cyy in ((0.5, r + 0.02), (0.5 - r * 1.15, cy + r * 0.9), (0.5 + r * 1.15, cy + r * 0.9)):
            cv2.circle(img, (int(cx * s), int(cyy * s)), int(r * s), 255, -1)
        cv2.circle(img, (s // 2, int((cy + r * 0.7) * s)), int(r * 0.6 * s), 255, -1)
        sw = rng.uniform(0.1, 0.25)
        stem = np.array([[0.5 - 0.04, 0.45], [0.5 + 0.04, 0.45], [0.5 + sw, 0.97], [0.5 - sw, 0.97]]) * s
        cv2.fillPoly(img, [stem.astype(np.int32)], 255)
    ys, xs = np.nonzero(img)
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _paste(canvas: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, ...]) -> None:
    h, w = mask.shape
    H, W = canvas.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, W), min(y + h, H)
    if x1 <= x0 or y1 <= y0:
        return
    a = (mask[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32) / 255.0)[..., None]
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _fit(mask: np.ndarray, height: int, width_scale: float = 1.0) -> np.ndarray:
    h, w = mask.shape
    nh = max(2, int(height))
    nw = max(1, int(round(w * nh / h * width_scale)))
    return cv2.resize(mask, (nw, nh), interpolation=cv2.INTER_AREA)


def _weight(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    k = int(rng.integers(-1, 2)) if min(mask.shape) > 30 else 0
    if k > 0:
        return cv2.dilate(mask, np.ones((3, 3), np.uint8))
    if k < 0:
        return cv2.erode(mask, np.ones((2, 2), np.uint8))
    return mask


HI = 3  # render at HI x the patch resolution


def render_corner(rank_mask: np.ndarray, suit_mask: np.ndarray | None, rank_colour: tuple[int, ...],
                  suit_colour: tuple[int, ...], rng: np.random.Generator, paper: tuple[float, ...] | None = None,
                  extra_letters: list[np.ndarray] | None = None) -> tuple[np.ndarray, float]:
    """Compose one corner (hi-res, ``HI`` x patch size) with a rank above a suit, placed at random.
    Returns the corner and the rank's height in card widths."""
    pw, ph = PATCH_SIZE[0] * HI, PATCH_SIZE[1] * HI
    W = PATCH_PX * HI  # one card width in pixels
    if paper is None:
        base = rng.uniform(215, 255)
        paper = tuple(float(np.clip(base + rng.normal(0, 6), 0, 255)) for _ in range(3))
    canvas = np.empty((ph, pw, 3), np.uint8)
    canvas[:] = paper
    rh = int(rng.uniform(0.085, 0.2) * W)
    # Card indices are often narrower than the font's own letters (condensed serifs on casino and club decks).
    squeeze = rng.uniform(0.8, 1.2) if rng.random() < 0.7 else rng.uniform(0.6, 0.8)
    rm = _weight(_fit(rank_mask, rh, squeeze), rng)
    max_w = int(0.26 * W)
    if rm.shape[1] > max_w:
        rm = cv2.resize(rm, (max_w, rm.shape[0]), interpolation=cv2.INTER_AREA)
    x = int(rng.uniform(0.025, 0.075) * W)
    y = int(rng.uniform(0.03, 0.09) * W)
    _paste(canvas, rm, x, y, rank_colour)
    cx = x + rm.shape[1] / 2 + rng.normal(0, 0.08) * rh
    ybot = y + rm.shape[0]
    if suit_mask is not None:
        sh = int(rh * rng.uniform(0.55, 1.0))
        sm = _weight(_fit(suit_mask, sh, rng.uniform(0.85, 1.15)), rng)
        sy = int(ybot + rng.uniform(0.08, 0.35) * rh)
        _paste(canvas, sm, int(cx - sm.shape[1] / 2), sy, suit_colour)
    elif extra_letters:
        sy = int(ybot + rng.uniform(0.02, 0.15) * rh)
        for lm in extra_letters:
            lm = _fit(lm, int(rh * rng.uniform(0.5, 0.75)) if lm.shape[0] < lm.shape[1] * 1.2 else rh)
            _paste(canvas, lm, int(cx - lm.shape[1] / 2), sy, rank_colour)
            sy += int(lm.shape[0] + rng.uniform(0.05, 0.2) * rh)
    _distractors(canvas, rng, W)
    return canvas, rh / W


def _distractors(canvas: np.ndarray, rng: np.random.Generator, W: int) -> None:
    ph, pw = canvas.shape[:2]
    if rng.random() < 0.5:  # rounded card corner with the table showing outside
        r = int(rng.uniform(0.03, 0.09) * W)
        table = tuple(int(v) for v in rng.integers(0, 160, 3))
        mask = np.zeros((ph, pw), np.uint8)
        mask[:r, :r] = 255
        cv2.circle(mask, (r, r), r, 0, -1)
        canvas[mask > 0] = table
        edge = int(rng.integers(0, 3))
        if edge:
            canvas[:edge] = table
            canvas[:, :edge] = table
    if rng.random() < 0.35:  # court-card frame or pip reaching in from the right / bottom
        col = tuple(int(v) for v in rng.integers(0, 200, 3))
        x = int(rng.uniform(0.24, 0.32) * W)
        cv2.rectangle(canvas, (x, int(rng.uniform(0.1, 0.45) * W)), (pw + 10, ph + 10), col, int(rng.integers(2, 8)))
    if rng.random() < 0.15:
        col = tuple(int(v) for v in rng.integers(0, 200, 3))
        cv2.circle(canvas, (int(rng.uniform(0.15, 0.3) * W), ph), int(rng.uniform(0.05, 0.1) * W), col, -1)


def degrade(hi: np.ndarray, rng: np.random.Generator, card_px: tuple[float, float] = (55.0, 150.0),
            rank_height_frac: float = 0.14, misregistration: tuple[float, float] = (0.012, 0.07)) -> np.ndarray:
    """Camera: tilt, blur, down-scaling to a card ``card_px`` wide (its rank at least 6.5 px tall), colour
    cast, glare, noise, JPEG; then back up to the patch frame, as the reader's warp does. ``misregistration``:
    the corner frame's shift (standard deviation, card widths) and scale (up to this much either way)."""
    ph, pw = hi.shape[:2]
    # Small misregistration of the corner frame (the detector's quad is never exact).
    shift, scale = misregistration
    ang = rng.normal(0, 2.0)
    sc = rng.uniform(1 - scale, 1 + scale)
    m: np.ndarray = cv2.getRotationMatrix2D((0, 0), ang, sc)
    m[:, 2] += rng.normal(0, shift * PATCH_PX * HI, 2)
    img = cv2.warpAffine(hi, m, (pw, ph), borderMode=cv2.BORDER_REPLICATE)
    # Camera resolution: the rank ends up index_px tall.
    card_w = max(rng.uniform(*card_px), 6.5 / max(rank_height_frac, 0.03))  # rank_height_frac: card widths
    f = min(1.0, card_w / (PATCH_PX * HI))
    small: np.ndarray = cv2.resize(img, (max(4, int(pw * f)), max(4, int(ph * f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.1)).astype(np.float32)  # lens, focus
    # Colour cast (warm, cool, bluish), contrast loss, glare gradient, noise.
    cast = rng.uniform(0.88, 1.05, 3)
    if rng.random() < 0.4:
        cast = np.array([rng.uniform(1.0, 1.2), rng.uniform(0.9, 1.05), rng.uniform(0.75, 0.95)])
    small *= cast
    c = rng.uniform(0.65, 1.0)
    small = small * c + rng.uniform(0, 255 * (1 - c)) * 0.9
    if rng.random() < 0.3:
        gy, gx = np.mgrid[0:small.shape[0], 0:small.shape[1]].astype(np.float32)
        cx, cy = rng.uniform(0, small.shape[1]), rng.uniform(0, small.shape[0])
        rad = rng.uniform(0.3, 1.0) * small.shape[0]
        small += (rng.uniform(20, 90) * np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * rad ** 2)))[..., None]
    small += rng.normal(0, rng.uniform(0.5, 5), small.shape)
    small = np.clip(small, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        q = int(rng.integers(35, 95))
        ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, q])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG just encoded decodes
        small = decoded
    out: np.ndarray = cv2.resize(small, PATCH_SIZE, interpolation=cv2.INTER_LINEAR)
    return out


def decks_dir() -> Path:
    """``GANG_DECKS_DIR`` if set, else where the synthetic table finds the shared decks (``shared/decks`` in the
    checkout or beside it, as CI clones it, else the workshop's copy)."""
    env = os.environ.get("GANG_DECKS_DIR")
    if env:
        return Path(env)
    from companion.vision.synthetic import decks_dir as shared_decks

    return shared_decks()


@lru_cache(maxsize=8)
def load_deck(name: str) -> dict[str, np.ndarray]:
    """Card images of one shared deck, BGR on a white-ish composite, keyed 'AS', 'TD', 'JOKER_RED', ..."""
    out = {}
    for p in sorted((decks_dir() / name).glob("*.png")):
        img = cv2.imread(str(p), cv2.IMREAD_UNCHANGED)
        if img is None:
            continue
        if img.shape[2] == 4:
            a = img[:, :, 3:4].astype(np.float32) / 255.0
            img = (img[:, :, :3].astype(np.float32) * a + 90 * (1 - a)).astype(np.uint8)
        out[p.stem] = img
    return out


def deck_corner_hi(card: np.ndarray, rng: np.random.Generator, corner: str = "tl") -> np.ndarray:
    """Hi-res corner frame (``HI`` x patch) cut from a deck image; 'br' is the rotated bottom-right index."""
    if corner == "br":
        card = cv2.rotate(card, cv2.ROTATE_180)
    W = card.shape[1]
    s = W / (PATCH_PX * HI)
    m = np.array([[s, 0, 0], [0, s, 0]], np.float32)
    return cv2.warpAffine(card, m, (PATCH_SIZE[0] * HI, PATCH_SIZE[1] * HI),
                          flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_CONSTANT,
                          borderValue=tuple(int(v) for v in rng.integers(0, 160, 3)))


def deck_index_height(card: np.ndarray) -> float:
    """Rank-glyph height of a deck as a fraction of the patch frame (for scaling degradations)."""
    from companion.vision.reader_glyph import locate_index
    patch = cv2.resize(deck_corner_hi(card, np.random.default_rng(0)), PATCH_SIZE, interpolation=cv2.INTER_AREA)
    g = locate_index(patch)
    return 0.14 if g is None else g.rank_box[3] / PATCH_PX


def code_of(deck_key: str) -> str:
    """'TD' -> 'Td', 'JOKER_RED' -> 'JR'."""
    if deck_key.startswith("JOKER"):
        return "JR" if "RED" in deck_key else "JB"
    return deck_key[0] + deck_key[1].lower()


def random_font_corner(rng: np.random.Generator, fonts: list[str], sfonts: list[str], rank: str | None = None,
                       suit: str | None = None) -> tuple[np.ndarray, float, str, str]:
    """One rendered corner from a random font: (hi-res corner, rank height in card widths, rank char,
    suit char or 'x' for a joker word)."""
    rank = rank or RANKS[int(rng.integers(13))]
    font = fonts[int(rng.integers(len(fonts)))]
    rm = text_mask(font, RANK_TEXT[rank])
    while rm is None:
        font = fonts[int(rng.integers(len(fonts)))]
        rm = text_mask(font, RANK_TEXT[rank])
    if rank == "T" and rng.random() < 0.5:
        ten = _ten(font, rng)
        rm = ten if ten is not None else rm
    if rank == "J" and suit is None and rng.random() < 0.08:  # a joker's corner: J then letters
        word = "oker" if rng.random() < 0.5 else "OKER"
        letters = [m for m in (text_mask(font, ch) for ch in word) if m is not None]
        ink: tuple[int, ...] = INK["h" if rng.random() < 0.5 else "s"][0]
        return (*render_corner(rm, None, ink, ink, rng, extra_letters=letters), "J", "x")
    suit = suit or SUITS[int(rng.integers(4))]
    if rng.random() < 0.45 and sfonts:
        sm = suit_mask(sfonts[int(rng.integers(len(sfonts)))], suit)
    else:
        sm = suit_shape(suit, rng)
    pal = INK[suit]
    ink = pal[int(rng.integers(len(pal)))]
    ink = tuple(int(np.clip(v + rng.normal(0, 12), 0, 255)) for v in ink)
    rank_ink = ink if rng.random() < 0.85 else (20, 20, 20)
    return (*render_corner(rm, sm, rank_ink, ink, rng), rank, suit)


def _ten(font: str, rng: np.random.Generator) -> np.ndarray | None:
    """'10' set by hand in ``font``: card indices set the digits tighter or looser than the font's own spacing,
    so the gap is drawn from overlapping a little to a fifth of their height."""
    one, zero = text_mask(font, "1"), text_mask(font, "0")
    if one is None or zero is None:
        return None
    return join_digits(one, zero, float(rng.uniform(-0.04, 0.2)))


def join_digits(left: np.ndarray, right: np.ndarray, gap: float) -> np.ndarray:
    """Two digit masks brought to one height, side by side, ``gap`` times that height apart (negative: they
    overlap, ink kept where either has it)."""
    h = max(left.shape[0], right.shape[0])
    left, right = _fit(left, h), _fit(right, h)
    x0 = max(left.shape[1] + int(round(gap * h)), 0)
    out = np.zeros((h, max(x0 + right.shape[1], left.shape[1])), np.uint8)
    out[:, :left.shape[1]] = left
    out[:, x0:x0 + right.shape[1]] = np.maximum(out[:, x0:x0 + right.shape[1]], right)
    return out


def junk_patch(rng: np.random.Generator, decks: tuple[str, ...]) -> np.ndarray:
    """A patch with no index in it: a card back, court-card art, blobs and strokes, a textured table."""
    pw, ph = PATCH_SIZE[0] * HI, PATCH_SIZE[1] * HI
    kind = rng.random()
    if kind < 0.35:
        deck = load_deck(decks[int(rng.integers(len(decks)))])
        keys = [k for k in deck if k.startswith(("BACK", "J", "Q", "K")) and not k.startswith("JOKER")]
        card = deck[keys[int(rng.integers(len(keys)))]]
        H, W = card.shape[:2]
        s = rng.uniform(0.5, 1.5)
        x0, y0 = rng.uniform(0.25, 0.6) * W, rng.uniform(0.2, 0.6) * H
        m = np.array([[s, 0, x0], [0, s, y0]], np.float32)
        return cv2.warpAffine(card, m, (pw, ph), flags=cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REFLECT)
    canvas: np.ndarray = np.empty((ph, pw, 3), np.uint8)
    canvas[:] = tuple(int(v) for v in rng.uniform(200, 255, 3))
    if kind < 0.7:
        for _ in range(int(rng.integers(1, 6))):
            col = tuple(int(v) for v in rng.integers(0, 200, 3))
            if rng.random() < 0.5:
                cv2.ellipse(canvas, (int(rng.uniform(0, pw)), int(rng.uniform(0, ph))),
                            (int(rng.uniform(5, 60)), int(rng.uniform(5, 60))), float(rng.uniform(0, 180)), 0, 360,
                            col, -1 if rng.random() < 0.5 else int(rng.integers(2, 8)))
            else:
                cv2.line(canvas, (int(rng.uniform(0, pw)), int(rng.uniform(0, ph))),
                         (int(rng.uniform(0, pw)), int(rng.uniform(0, ph))), col, int(rng.integers(2, 10)))
    else:
        noise = rng.uniform(0, 255, (ph // 8 + 1, pw // 8 + 1, 3)).astype(np.uint8)
        canvas = cv2.resize(noise, (pw, ph), interpolation=cv2.INTER_CUBIC)
    return canvas
