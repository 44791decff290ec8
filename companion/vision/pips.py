"""A number card's rank from its pips: a cue that owes nothing to the deck's index font.

A two to ten of any usual deck carries as many suit pips as its rank, all of one size, in a layout that is
mirror-symmetric about the card's long axis; an ace's lone pip, a court card's picture and a joker's art are not
that. ``count_pips`` warps a whole card's outline upright, separates ink from paper, and counts the blobs of the
pip's size away from the index strips, or says it cannot (``None``): blobs of mixed sizes (pips run together in
blur, a picture), a layout that is not symmetric, too few or too many, pale pips left out. The reader names a lone
whole card whose index did not read from this count and the suit the pips' shapes say (``Reader._read_pips``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.reader_glyph import ink_map

CARD_PX = (96, 136)  # the card warped upright to this many pixels (width, height): a ten's pip is some 14 px
INDEX_STRIP = 0.2  # card widths from each long side kept out (the indices, and a court card's frame corners)
BORDER = 0.05  # ...and this much of every side (the card's edge, its shadow)
MIN_BLOB = 0.002  # share of the card's area below which a blob is noise
PIP_SHARE = 0.45  # blobs at least this share of the biggest count as pips
PIP_SPREAD = 1.7  # ...and the biggest at most this many times the smallest
PICTURE = 0.08  # a blob this share of the card's area or more is a picture, not a pip
STRAY_INK = 0.25  # ink in other blobs over this share of the pips' ink: art, not a number card
MIRROR = 0.07  # card widths: how far a pip's mirror image across the long axis may lie from a pip (or the axis)
MIN_CONTRAST = 40  # grey levels between paper and ink (Otsu's two classes) at least
# The usual layouts: pips in the two side columns and on the axis, by rank (an eight's middle pair may stand on the
# axis or at the sides).
LAYOUTS = {2: {(0, 2)}, 3: {(0, 3)}, 4: {(4, 0)}, 5: {(4, 1)}, 6: {(6, 0)}, 7: {(6, 1)}, 8: {(6, 2), (8, 0)},
           9: {(8, 1)}, 10: {(8, 2)}}
MIN_SPAN = 0.3  # card heights from the top pip's centre to the bottom one's at least (an ace's pip cut in two)
# A blob longer than LINE_LONG card widths, and thinner than LINE_THIN or filling less than LINE_FILL of its box,
# is a line.
LINE_LONG, LINE_THIN, LINE_FILL = 0.3, 0.08, 0.3
CORNER_X, CORNER_Y = 0.2, 0.3  # card widths and heights off the middle: a corner, where the indices stand
# A blob at the first threshold holding pips found further into the ink is at most this many times their ink (a
# ghost-joined column of a real nine: 1.25; a big ace's pip parted by its glare spot: 7).
MERGE_GROWTH = 2.0
OPEN = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
CORES = (1.4, 1.9)  # a pip's cores: its ink over these times the threshold that parted the pips
LEVELS = (1.0, 1.4, 1.8, 2.3)  # the ink threshold, times Otsu's, tried in turn
FAINT_LEVEL = 0.3  # ...and this times Otsu's, to look for pale pips left out (a blob of a pip's size apart)


@dataclass(frozen=True)
class PipCount:
    count: int
    centres: tuple[tuple[float, float], ...]  # in card widths and heights, upright card
    redness: float  # the pips' mean red over green (grey levels): hearts and diamonds well over naught
    # Each pip's ink (0..1), turned upright, for the suit classifier; and, per CORES, its darker core alone.
    crops: tuple[np.ndarray, ...] = field(default=(), repr=False)
    cores: tuple[tuple[np.ndarray, ...], ...] = field(default=(), repr=False)


def upright(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card inside ``quad`` (4x2, clockwise from any corner) warped to ``CARD_PX``, its long side vertical."""
    q = np.asarray(quad, dtype=np.float32)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):  # first side the long one: start one corner on
        q = np.roll(q, -1, axis=0)
    w, h = CARD_PX
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def count_pips(image: np.ndarray, quad: np.ndarray) -> PipCount | None:
    """The pips on the whole card outlined by ``quad`` in ``image`` (BGR), or None where they do not look like a
    number card's (see the module's text)."""
    card = upright(image, quad)
    w, h = CARD_PX
    grey = cv2.cvtColor(card, cv2.COLOR_BGR2GRAY)
    # Paper's level across the card (a glare spot, shade): the grey closed by more than a pip, so ink is what
    # lies well under the paper around it.
    paper = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (31, 31)))
    dark = cv2.subtract(paper, grey)
    bx, by = int(round(BORDER * w)), int(round(BORDER * h))
    inner = dark[by:h - by, bx:w - bx]
    level, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < MIN_CONTRAST / 2:
        return None

    def above(times: float, opened: bool = True) -> np.ndarray:
        """The card's ink over ``times`` Otsu's level (inside the border), hairlines (a frame round the pips)
        opened off it."""
        ink = np.zeros_like(grey)
        ink[by:h - by, bx:w - bx] = (inner > times * level).astype(np.uint8)
        return cv2.morphologyEx(ink, cv2.MORPH_OPEN, OPEN) if opened else ink

    base = above(LEVELS[0])
    for f in LEVELS:  # pips a blur or a ghost image runs together part further into their ink
        ink = base if f == LEVELS[0] else above(f)
        found = _pips(ink)
        if found is not None or (f == LEVELS[0] and _picture(ink)):  # a picture's dark parts are no pips
            break
    if found is None:
        return None
    labels, stats, pips, xy = found
    mask = np.isin(labels, pips).astype(np.uint8)
    if ink is not base:
        # Parted further into the ink, each blob at the first threshold is pips a ghost or blur joined (about
        # their area), not one big pip whose glare spot or pale middle parts it (several times theirs).
        n, blabels, bstats, _ = cv2.connectedComponentsWithStats(base, connectivity=8)
        pip_ink = np.bincount(blabels[mask > 0], minlength=n)
        if any(pip_ink[k] and bstats[k, cv2.CC_STAT_AREA] > MERGE_GROWTH * pip_ink[k] for k in range(1, n)):
            return None
    # Pale pips (a glare spot across the card, faded print) left out at that threshold: any blob of a pip's size
    # at a lower one that none of the pips lies in.
    _, flabels, fstats, fcents = cv2.connectedComponentsWithStats(above(FAINT_LEVEL), connectivity=8)
    smallest = float(stats[pips, cv2.CC_STAT_AREA].min())
    held = set(np.unique(flabels[mask > 0]).tolist())
    if any(k not in held and fstats[k, cv2.CC_STAT_AREA] >= PIP_SHARE * smallest for k in _blobs(fstats, fcents)):
        return None
    # Each pip's ink (``ink_map``'s, as an index glyph's), grown by a pixel, upright (a pip below the middle is
    # printed upside down); and the same further into its ink (a ghost image or blur round the pip at the
    # threshold that parted the pips makes its shape unlike any suit's; its core is).
    _, g, r, _ = cv2.mean(card, mask=mask)
    strength = ink_map(card)[0]
    deeper = [above(c * f, opened=False) for c in CORES]
    crops: list[np.ndarray] = []
    cores: list[list[np.ndarray]] = [[] for _ in CORES]
    for k, (_, y) in zip(pips, xy):
        x0, y0, bw, bh = (int(v) for v in stats[k, :4])
        x0, y0 = max(0, x0 - 1), max(0, y0 - 1)
        window = (slice(y0, y0 + bh + 2), slice(x0, x0 + bw + 2))
        pip = cv2.dilate((labels[window] == k).astype(np.uint8), np.ones((3, 3), np.uint8))
        for out, m in [(crops, pip)] + [(o, cv2.dilate(d[window] * pip, np.ones((3, 3), np.uint8)))
                                         for o, d in zip(cores, deeper)]:
            crop = strength[window] * m
            out.append(crop[::-1, ::-1].copy() if y > 0.5 else crop.copy())
    return PipCount(len(pips), tuple((float(x), float(y)) for x, y in xy), float(r - g), tuple(crops),
                    tuple(tuple(c) for c in cores))


def _blobs(stats: np.ndarray, cents: np.ndarray) -> list[int]:
    """The components (``connectedComponentsWithStats``' labels) of an upright card's ink that may be pips: not
    specks, not in the index strips, not lines, and not a corner's index glyph (a blob in a corner that none
    mirrors across the long axis: a big index reaches past the strip)."""
    w, h = CARD_PX
    lo, hi = INDEX_STRIP * w, (1 - INDEX_STRIP) * w
    blobs = [k for k in range(1, len(stats)) if stats[k, cv2.CC_STAT_AREA] >= MIN_BLOB * w * h
             and lo <= cents[k, 0] <= hi and not _line(stats[k], w)]
    at = np.array([(cents[k, 0] / w, cents[k, 1] / h) for k in blobs]).reshape(-1, 2)
    return [k for k, (x, y) in zip(blobs, at)
            if not (abs(x - 0.5) > CORNER_X and abs(y - 0.5) > CORNER_Y and _mirror_gap(x, y, at) > MIRROR)]


def _mirror_gap(x: float, y: float, others: np.ndarray) -> float:
    """How far (card widths) the mirror image of the point ``x, y`` (card widths and heights) across the card's
    long axis lies from the nearest of ``others``."""
    w, h = CARD_PX
    return float(np.hypot((1 - x) - others[:, 0], (y - others[:, 1]) * h / w).min())


def _line(stat: np.ndarray, w: int) -> bool:
    """A component that is a line (a frame drawn round the pips, or part of one): long, and thin or filling little
    of its box."""
    bw, bh, a = stat[cv2.CC_STAT_WIDTH], stat[cv2.CC_STAT_HEIGHT], stat[cv2.CC_STAT_AREA]
    return bool(max(bw, bh) > LINE_LONG * w and (min(bw, bh) < LINE_THIN * w or a < LINE_FILL * bw * bh))


def _picture(ink: np.ndarray) -> bool:
    """The ink mask holds a blob too big for a pip (``PICTURE``): a court card's picture, a joker's art."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return n > 1 and stats[1:, cv2.CC_STAT_AREA].max() >= PICTURE * ink.size


def _pips(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int], np.ndarray] | None:
    """The pips in the ink mask of an upright card: its component labels and stats, the pips' labels and their
    centres (in card widths and heights); None where the blobs are not a number card's pips."""
    w, h = CARD_PX
    n, labels, stats, cents = cv2.connectedComponentsWithStats(ink, connectivity=8)
    blobs = _blobs(stats, cents)
    if not blobs:
        return None
    sizes = np.array([stats[k, cv2.CC_STAT_AREA] for k in blobs], dtype=np.float64)
    if sizes.max() >= PICTURE * w * h:
        return None
    pips = [k for k, s in zip(blobs, sizes) if s >= PIP_SHARE * sizes.max()]
    ps = np.array([stats[k, cv2.CC_STAT_AREA] for k in pips], dtype=np.float64)
    if not 2 <= len(pips) <= 10 or ps.max() > PIP_SPREAD * ps.min():
        return None
    if sizes.sum() - ps.sum() > STRAY_INK * ps.sum():
        return None
    xy = np.array([(cents[k, 0] / w, cents[k, 1] / h) for k in pips])
    on_axis = np.abs(xy[:, 0] - 0.5) <= MIRROR
    if any(_mirror_gap(x, y, xy) > MIRROR for x, y in xy[~on_axis]):  # each pip on the axis or mirrored
        return None
    if (int((~on_axis).sum()), int(on_axis.sum())) not in LAYOUTS[len(pips)] or \
            np.ptp(xy[:, 1]) < MIN_SPAN:
        return None
    return labels, stats, pips, xy
