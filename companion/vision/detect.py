"""Find cards on the table at low resolution: whole cards as quadrilaterals, corners of partly hidden cards,
and card-shaped regions that are not white (backs, candidates for face-down cards).

Everything is returned in FULL-resolution pixel coordinates of the image passed in, so the reader can cut its
crops from the full picture.

>>> import numpy as np, cv2
>>> img = np.full((600, 800, 3), (40, 110, 40), np.uint8)
>>> _ = cv2.rectangle(img, (100, 100), (199, 239), (250, 250, 250), -1)
>>> d = detect_cards(img)
>>> len(d.quads), round(d.card_width)
(1, 100)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

CARD_ASPECT = 1.4  # long side / short side of a poker card (88 x 63 mm)
WORK_SIDE = 960  # the longer side of the low-resolution working image


@dataclass
class CornerCandidate:
    """A right-angled card corner: ``origin`` in pixels, ``x_axis``/``y_axis`` one card width along its two
    edges (a proper, unmirrored frame: an upright index reads left to right along x)."""

    origin: np.ndarray
    x_axis: np.ndarray
    y_axis: np.ndarray
    blob: int  # which white blob it came from


@dataclass
class Detection:
    quads: list[np.ndarray] = field(default_factory=list)  # whole face-up-looking cards, 4x2, clockwise
    corners: list[CornerCandidate] = field(default_factory=list)  # corners of blobs that are not one card
    backs: list[np.ndarray] = field(default_factory=list)  # card-shaped, not white: face-down candidates
    card_width: float = 0.0  # typical card short side, full-resolution pixels (0 when no card seen)
    scale: float = 1.0  # full-resolution pixels per working pixel


def _order_clockwise(pts: np.ndarray) -> np.ndarray:
    """Clockwise on screen (y down), starting at the end of a short side so side 0 is a short side."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    p = pts[np.argsort(ang)]
    if np.linalg.norm(p[1] - p[0]) > np.linalg.norm(p[2] - p[1]):
        p = np.roll(p, -1, axis=0)
    return p.astype(np.float32)


def white_mask(small: np.ndarray) -> np.ndarray:
    """Card paper: bright and unsaturated relative to this picture (tolerates a colour cast)."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    s = hsv[:, :, 1].astype(np.int16)
    v = hsv[:, :, 2]
    vt, _ = cv2.threshold(v, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    vt = max(float(vt), float(np.percentile(v, 30)), 110.0)
    mask = ((v > vt) & (s < 80)).astype(np.uint8) * 255
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return mask


def _fill(mask: np.ndarray) -> np.ndarray:
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, cnts, -1, 255, -1)
    return out


def detect_cards(image: np.ndarray, work_side: int = WORK_SIDE, card_width_hint: float | None = None) -> Detection:
    """Cards in ``image`` (BGR). ``card_width_hint``: the expected card short side in full-res pixels,
    when known (calibration), else estimated from the cards that stand alone."""
    h, w = image.shape[:2]
    scale = max(h, w) / work_side if max(h, w) > work_side else 1.0
    if scale > 1:
        step = max(1, int(scale / 2))  # cheap decimation first; INTER_AREA over 12 MP costs 50 ms on a core
        small = cv2.resize(image[::step, ::step], (int(round(w / scale)), int(round(h / scale))),
                           interpolation=cv2.INTER_AREA)
    else:
        small = image
    det = Detection(scale=scale)
    white = white_mask(small)
    # Cards are what is not table: the mat is the dominant colour of what is not paper. Paper counts too (on
    # a white mat), and coloured ink does, so index glyphs at a card's edge do not notch its outline.
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sample = lab[::4, ::4][white[::4, ::4] == 0]
    table = np.median(sample, axis=0) if len(sample) else np.array([0, 128, 128])
    dist = np.abs(lab.astype(np.int16) - table.astype(np.int16)).sum(axis=2)
    fg = ((dist > 40) | (white > 0)).astype(np.uint8) * 255
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = _fill(cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))
    # Cut thin bridges between cards that barely touch.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    area_img = small.shape[0] * small.shape[1]
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs = []
    for c in cnts:
        a = cv2.contourArea(c)
        if a < area_img * 0.0008 or a > area_img * 0.9:
            continue
        rect = cv2.minAreaRect(c)
        (rw, rh) = rect[1]
        if min(rw, rh) < 6:
            continue
        blobs.append((c, a, rect, a / (rw * rh), max(rw, rh) / min(rw, rh)))
    singles = [b for b in blobs if b[3] > 0.86 and 1.22 < b[4] < 1.62]
    if card_width_hint:
        cw = card_width_hint / scale
    elif singles:
        cw = float(np.median([min(b[2][1]) for b in singles]))
    elif any(b[3] > 0.86 and b[4] >= 1.62 for b in blobs):
        # Only rows of touching cards: a row's short side is a card's long side.
        row = max((b for b in blobs if b[3] > 0.86 and b[4] >= 1.62), key=lambda b: b[1])
        cw = float(min(row[2][1])) / CARD_ASPECT
    elif blobs:
        cw = float(np.sqrt(max(b[1] for b in blobs) / CARD_ASPECT))
    else:
        return det
    card_area = cw * cw * CARD_ASPECT
    det.card_width = cw * scale
    for i, (c, a, rect, fill, aspect) in enumerate(blobs):
        if a < 0.35 * card_area:
            continue
        n = a / card_area
        if fill > 0.86 and 1.22 < aspect < 1.62 and n < 1.45:
            quad = _order_clockwise(cv2.boxPoints(rect))
            (det.quads if _whiteness(white, quad) > 0.3 else det.backs).append(quad * scale)
            continue
        split = _split_rect(rect, cw, fill) if fill > 0.86 else None
        if split:
            det.quads += [q * scale for q in split]
            continue
        det.corners += _corners(c, cw, i, scale, mask)
    return det


def _whiteness(white: np.ndarray, quad: np.ndarray) -> float:
    """Share of white paper inside the middle of a card outline: faces are mostly paper, backs are not."""
    c = quad.mean(axis=0)
    inner = (c + (quad - c) * 0.75).astype(np.int32)
    m = np.zeros_like(white)
    cv2.fillConvexPoly(m, inner, 255)
    sel = m > 0
    paper = cv2.erode(white, np.ones((3, 3), np.uint8))  # a back's light speckles are not paper
    return float((paper[sel] > 0).mean()) if sel.any() else 0.0


def _split_rect(rect, card_w: float, fill: float) -> list[np.ndarray] | None:
    """A rectangle of cards touching edge to edge (a community row, a grid of laid-out cards): split it into
    the i x j grid of card-sized, card-shaped pieces that fits best."""
    (rw, rh) = rect[1]
    box = cv2.boxPoints(rect)
    # Sides: box[0]->box[1] and box[1]->box[2], whatever OpenCV's angle convention.
    a, b, c = box[0].astype(np.float64), box[1].astype(np.float64), box[2].astype(np.float64)
    la, lb = np.linalg.norm(b - a), np.linalg.norm(c - b)
    best, best_err = None, 0.25
    for i in range(1, 9):
        for j in range(1, 9):
            if i * j < 2:
                continue
            pa, pb = la / i, lb / j
            short, long_ = min(pa, pb), max(pa, pb)
            err = abs(short / card_w - 1) + abs(long_ / short / CARD_ASPECT - 1)
            if err < best_err:
                best, best_err = (i, j), err
    if best is None:
        return None
    i, j = best
    ua, ub = (b - a) / i, (c - b) / j
    quads = []
    for x in range(i):
        for y in range(j):
            o = a + ua * x + ub * y
            quads.append(_order_clockwise(np.array([o, o + ua, o + ua + ub, o + ub], np.float32)))
    return quads


def _corners(contour: np.ndarray, cw: float, blob: int, scale: float, mask: np.ndarray) -> list[CornerCandidate]:
    """Candidate index corners of a blob that is not one whole card (fanned pocket cards, overlaps).

    Each straight stretch of outline at least a fifth of a card width long is a piece of some card's edge; at
    each convex end of it a card corner may sit. Cards are rectangles, so the other edge is perpendicular,
    into the blob, whatever the (often tiny) visible part of it looks like. The frame is the unmirrored one.
    """
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, max(1.5, 0.03 * cw), True).reshape(-1, 2).astype(np.float64)
    n = len(poly)
    out: list[CornerCandidate] = []
    if n < 3:
        return out
    hgt, wid = mask.shape[:2]

    def inside(pt: np.ndarray) -> bool:
        x, y = int(round(pt[0])), int(round(pt[1]))
        return 0 <= x < wid and 0 <= y < hgt and mask[y, x] > 0

    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        length = np.linalg.norm(b - a)
        if length < 0.45 * cw:  # a card's long edge, mostly visible; chips and glare have none
            continue
        u = (b - a) / length
        for p, along in ((a, u), (b, -u)):
            nrm = np.array([-along[1], along[0]])
            probe = p + along * 0.15 * cw
            if inside(probe + nrm * 0.12 * cw) and not inside(probe - nrm * 0.12 * cw):
                pass
            elif inside(probe - nrm * 0.12 * cw) and not inside(probe + nrm * 0.12 * cw):
                nrm = -nrm
            else:
                continue
            # Every end of a straight stretch is a candidate, convex or not: where a fanned card's corner
            # meets the card below it, the outline only shows a small step.
            if along[0] * nrm[1] - along[1] * nrm[0] > 0:
                xa, ya = along, nrm
            else:
                xa, ya = nrm, along
            out.append(CornerCandidate(p * scale, xa * cw * scale, ya * cw * scale, blob))
    return out
