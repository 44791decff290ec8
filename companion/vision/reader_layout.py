"""Pictures of cards laid out in rows, as a player photographs a deck for enrolment, with ground truth.

Used by the reader's tests and benchmark (the table scenes come from ``synthetic``). ``font_card`` draws a
plain card face whose index is set in any font, to measure the reader on decks no one has drawn.

>>> img, truth = layout_picture("saulspatz_vertical2", ["As", "Td", "7c"], seed=1, cols=3)
>>> img.shape[2], [t[0] for t in truth]
(3, ['As', 'Td', '7c'])
"""

from __future__ import annotations

import zlib
from typing import Callable, Sequence

import cv2
import numpy as np

CardPicture = Callable[[str], np.ndarray]  # code -> BGRA card picture


def deck_picture(deck: str) -> CardPicture:
    from companion.vision.synthetic import card_image

    return lambda code: card_image(deck, code)


def layout_picture(deck: str | CardPicture, codes: Sequence[str], seed: int = 0, cols: int = 13,
                   card_w: int = 150, gap: float = 0.18, mat: tuple[float, float, float] = (48, 108, 30),
                   camera: bool = True, jitter_deg: float = 3.0) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """Cards in rows of ``cols`` on a mat; returns the BGR picture and (code, quad) per card."""
    rng = np.random.default_rng(seed)
    picture = deck_picture(deck) if isinstance(deck, str) else deck
    rows = (len(codes) + cols - 1) // cols
    card_h = int(card_w * 1.4)
    step_x, step_y = int(card_w * (1 + gap)), int(card_h * (1 + gap))
    W, H = cols * step_x + step_x // 2, rows * step_y + step_y // 2
    img: np.ndarray = np.empty((H, W, 3), np.float32)
    img[:] = mat
    img += rng.normal(0, 4, (H, W, 1))
    truth = []
    for k, code in enumerate(codes):
        r, c = divmod(k, cols)
        cx = step_x * (c + 0.75) + rng.normal(0, 0.03 * card_w)
        cy = step_y * (r + 0.75) + rng.normal(0, 0.03 * card_h)
        ang = np.deg2rad(rng.normal(0, jitter_deg)) + (np.pi if rng.random() < 0.5 else 0.0)
        card = picture(code)
        ch, cw = card.shape[:2]
        s = card_w / cw
        rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) * s
        m = np.zeros((2, 3))
        m[:, :2] = rot
        m[:, 2] = np.array([cx, cy]) - rot @ np.array([cw / 2, ch / 2])
        warped = cv2.warpAffine(card, m, (W, H), flags=cv2.INTER_AREA)
        a = warped[:, :, 3:4].astype(np.float32) / 255.0
        img = img * (1 - a) + warped[:, :, :3].astype(np.float32) * a
        corners = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64)
        truth.append((code, (corners @ m[:, :2].T + m[:, 2]).astype(np.float32)))
    if camera:
        blurred: np.ndarray = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.0))
        img = blurred
        img *= rng.uniform(0.9, 1.05, 3)
        img += rng.normal(0, 2.5, img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if camera:
        decoded = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_COLOR)
        assert decoded is not None  # a JPEG just encoded decodes
        out = decoded
    return out, truth


def font_card(font_path: str, code: str, ink: tuple[int, int, int] | None = None,
              suit_font: str | None = None, index_height: float = 0.13) -> np.ndarray:
    """A plain 400x560 BGRA card with the index of ``code`` in ``font_path`` at top-left and bottom-right
    and one big pip in the middle (needs Pillow)."""
    from companion.vision import glyphs as G

    rank, suit = code[0], code[1].lower()
    W, H = 400, 560
    card = np.zeros((H, W, 4), np.uint8)
    card[:] = (250, 250, 248, 255)
    colour = ink or ((30, 20, 200) if suit in "hd" else (25, 25, 25))
    rm = G.text_mask(font_path, G.RANK_TEXT[rank])
    sm = G.suit_mask(suit_font, suit) if suit_font else None
    if sm is None:
        # A stable seed (str hashes change with every process): the same card gets the same drawn suit.
        sm = G.suit_shape(suit, np.random.default_rng(zlib.crc32(code.encode()) % 1000))
    half = np.zeros((H, W, 3), np.uint8)
    half[:] = 250
    rh = int(index_height * W)
    assert rm is not None, f"{font_path} has no glyph for {G.RANK_TEXT[rank]!r}"  # _fit would fail on None too
    rmask = G._fit(rm, rh)
    if rmask.shape[1] > 0.22 * W:
        rmask = cv2.resize(rmask, (int(0.22 * W), rh))
    x, y = int(0.05 * W), int(0.05 * W)
    G._paste(half, rmask, x, y, colour)
    smask = G._fit(sm, int(rh * 0.75))
    suit_y = y + rh + int(0.2 * rh)
    G._paste(half, smask, int(x + rmask.shape[1] / 2 - smask.shape[1] / 2), suit_y, colour)
    # The bottom-right index is the top-left quarter down to the index's foot rotated half a turn: a big (jumbo)
    # index reaches further down than the usual quarter, and the pip is then made small enough to stay clear.
    foot = H // 2 - int(0.16 * H)
    pip = int(0.3 * H)
    index_foot = suit_y + smask.shape[0] + int(0.02 * W)
    if index_foot > foot:
        foot = index_foot
        pip = min(pip, 2 * (H // 2 - foot) - int(0.02 * H))
    big = G._fit(sm, pip)
    G._paste(half, big, W // 2 - big.shape[1] // 2, H // 2 - big.shape[0] // 2, colour)
    full = half.copy()
    tl = half[:foot, : W // 2]
    full[H - tl.shape[0]:, W - tl.shape[1]:] = np.minimum(full[H - tl.shape[0]:, W - tl.shape[1]:],
                                                          cv2.rotate(tl, cv2.ROTATE_180))
    card[:, :, :3] = full
    cv2.rectangle(card, (0, 0), (W - 1, H - 1), (120, 120, 120, 255), 2)
    # Rounded corners.
    r = 20
    m = np.zeros((H, W), np.uint8)
    cv2.rectangle(m, (r, 0), (W - r, H), 255, -1)
    cv2.rectangle(m, (0, r), (W, H - r), 255, -1)
    for cx, cy in ((r, r), (W - r, r), (r, H - r), (W - r, H - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    card[:, :, 3] = m
    return card
