"""Find cards on the table at low resolution: whole cards as quadrilaterals, corners of partly hidden cards,
and card-shaped regions that are not white (backs, candidates for face-down cards).

Everything is returned in FULL-resolution pixel coordinates of the image passed in, so the reader can cut its
crops from the full picture.

>>> import numpy as np, cv2
>>> img = np.full((600, 800, 3), (40, 110, 40), np.uint8)
>>> _ = cv2.rectangle(img, (100, 100), (199, 239), (250, 250, 250), -1)
>>> d = detect_cards(img)
>>> len(d.quads), abs(d.card_width - 100) < 3
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Sequence

import cv2
import numpy as np

if TYPE_CHECKING:
    from cv2.typing import RotatedRect

    # A paper blob: (contour, area, minimum-area rectangle, fill of that rectangle, its aspect ratio).
    Blob = tuple[np.ndarray, float, RotatedRect, float, float]
    # A straight stretch of outline: (start, end, point on its line, unit direction, inward normal).
    Stretch = tuple[int, int, np.ndarray, np.ndarray, np.ndarray]

CARD_ASPECT = 1.4  # long side / short side of a poker card (88 x 63 mm)
SQUAT = 1.28  # a lone card-shaped blob squatter than this (long / short side) is likelier a tight fan of two
WORK_SIDE = 960  # the longer side of the low-resolution working image
SHARP_STEP = 30  # paperness gradient (0..255) over which an outline is a sharp step: paper's edge, not glare
# ...or where the outline's convex hull runs within two pixels of such a step along this share of it (``_sharp_share``:
# two cards, the one on top casting a shadow on the other through a gap, their outline running into the shadow;
# the dev photos at twice their size lost such pairs as glare). Not for paper over LIGHT_HOLE of the picture: a
# light cloth's hull is its hem against the floor.
HULL_SHARP = 0.8
GLARE_BARRIER = 20  # ... and over which a pixel parts a lone card from the glare (or light table) round it
# A loose back's outline steps at least this far in colour distance from the mat (the morphological gradient of
# the L1 distance in Lab, 0..255) along a third of its length. On 30 tuning scenes of byronknoll_vector every
# back reported stepped over 15 along at least half of its outline, and 15 of the 22 false ones (glare spots on
# the mat) along under a quarter; at 30, two backs in soft focus stepped along a tenth only.
BACK_STEP = 15
# A loose back's outline rectangle is at most this many times as long as wide: two backs fanned are 1.7 at most on
# the tuning scenes (5030-5069, both training decks, three kinds); two chips touching are 1.9-2.1, a strip of a
# wood's darker grain at the picture's edge 3 or more.
BACK_LONG = 1.85
BACK_OPEN = 0.3  # card widths: the second look for loose backs opens away texture thinner than this
# ...and the third (faces left in) keeps regions under this share paper, filling this much of their rectangle, with a
# straight edge BACK_EDGE card widths long (chips touching, a glare spot beside a chip: neither)
BACK_PAPER, BACK_FILL = 0.35, 0.8
# The last look for loose backs: the pixels whose hue is off the mat's, Lab |a - a_mat| + |b - b_mat| over this
# (a glare spot is the mat lit up, the same hue), held to the third look's fill and straight edge.
BACK_CHROMA = 30
# A hand taken for face-down cards (little paper inside) has a straight edge at least this many card widths long
# (its outline simplified to 1 %): on the tuning scenes (5030-5069, both training decks, four kinds) every such
# report of backs had one of 0.55 or more (low resolution; 0.67 at other sizes), and on the white cloth chips
# touching (18 reports where no card lies) 0.48 at most.
BACK_EDGE = 0.5
# A candidate index corner of a hand needs a sharp step of paperness (as white_mask has it, 0..255) over CORNER_STEP
# within CORNER_NEAR card widths: a glare spot's outline on the mat turns square here and there too. (Tuning scenes:
# 742 of 2251 candidates near no card's corner dropped, 8 of 4862 near one; reads identical, and the slowest
# whole-table stills a quarter faster.)
CORNER_STEP = 30
CORNER_NEAR = 0.12
# A paper blob smaller than this many cards whose convex hull is rounder than CHIP_ROUND is no hand: a white chip
# or a glare spot (each outline corner found round it was read in vain: a second a still on a tuning table with
# seven white chips).
CHIP_CARDS = 1.0
CHIP_ROUND = 0.94
# A hand's outline is paper's edge, a sharp step of paperness (over SHARP_STEP within two pixels) along at least
# this share of it; a glare spot's fades out softly. (Tuning scenes 5030-5089, both training decks: blobs with no
# card in them, glare spots, 0.00-0.22 in the small-card and low-resolution kinds; hands of cards 0.32 or more.
# Not on a light cloth, where hands are found by the edges round them.)
HAND_SHARP = 0.25
SHADE_CLOSE = 0.3  # card widths: shaded paper is closed so (pips and glyphs at its edge notch it)
SHADE_KNOWN = 0.25  # cards' areas: paper found already smaller than this does not keep shaded paper out,
SHADE_THIN = 0.5  # ...nor a piece under 1.5 cards whose outline encloses less than this of its rectangle
SHADE_CHIP = 0.97  # ...unless that scrap is this round (its hull): a chip's white face, which still keeps it out
                   # (chips' faces 0.98-0.99 on the tuning scenes, a bit of a hand in glare 0.96)
SHADE_FILL = 0.5  # ...and kept where what was found as paper fills this much of it
# A hand's outline grown into the paper in shade beside it (``_shaded_beside``: a card in the shadow of the card
# on it, or in a dim corner of the mat, that the white mask missed): pixels off the mat's colour, at most
# SHADOW_SAT more saturated than the paper found (a shadow leaves saturation alone), at least SHADOW_V of its
# brightness and SHADOW_OVER over the mat's (a card's shadow on a grey mat is mat, darker), under SHADOW_TOP of the
# paper's (a glare spot's fade beside a card is as bright as paper), each piece of them joined to the paper found,
# not round as a chip's face (its hull under SHADOW_CHIP), and where not beside that paper, its outline a sharp
# step off the mat along SHADOW_SHARP of it (glare fades out softly). The grown outline replaces the hand's where
# it is SHADOW_GROW times as big and no more ragged (pips and ink of a dim hand break its paper apart).
SHADOW_SAT = 25
SHADOW_V = 0.5
SHADOW_OVER = 15
SHADOW_TOP = 0.9
SHADOW_CHIP = 0.87
SHADOW_SHARP = 0.5
SHADOW_GROW = 1.1
EDGE_HAND = (0.2, 3.0)  # cards' areas: a region enclosed by edges this big may be part of a hand (edge_quads)
EDGE_HAND_SAT = 100  # ...where its mean saturation (HSV, 0-255) is under this (backs and chips are coloured)
SIZES_SPREAD = 1.1  # lone card-shaped blobs whose sizes spread wider than this are not all single cards...
SIZES_AGREE = 0.06  # ...and those within this of a row's or the hands' size are (a tight fan is 1.1-1.3 times bigger)
SINGLE_OUTLIER = 0.6  # a lone card-shaped blob under this times the lone ones' median is not a card
# A row of touching cards is at least this many times as long as wide: three cards side by side, a little askew, are
# 1.97 or more (on the tuning scenes); two cards stacked a quarter to two fifths of a card apart (a stacked slot of
# the Jokers variant) are 1.76 to 1.90, and would set the card size a quarter too small.
ROW_ASPECT = 1.94
# ...and fills this much of its rectangle (a row of three, each card a little askew, fills 0.90 of it)
ROW_FILL = 0.86
HAND_ASPECT = 2.0  # a hand's blob (long / short side) is shorter than this
HANDS_AGREE = 0.15  # ...and where two hands' edges agree on the card size within this, a longer blob is not a hand
# The card width taken from a close-up region's longest straight stretch is at most this times its rectangle's short
# side, where the region fills at least FITS_FILL of its rectangle (where it fills less, the paper mask may have
# missed part of the card).
FITS_ACROSS, FITS_FILL = 1.1, 0.75
# A close-up's biggest paper region is up to this many cards big, its longest stretch taken for a card's long side
# (``_closeup_estimate``): a fan of three cards close to the camera is two and a half (until 2026-12-06: 2.5, and
# such a fan on a striped rug, 2.51, was read at a twentieth of its size).
CLOSE_CARDS = 3.0
# A second look for outlines from edges on the grey picture raised to this power (dark steps stretched: a card in
# deep shade); 0 for none.
SHADE_LIFT = 0.5
LIFT_SIZE = 0.15  # ... and where the card size is known, their short side within this of it
EDGE_FILL = 0.75  # an edge outline's hull fills this much of its rectangle (a card seen at a slant is a trapezoid)
MIN_CARD_SIDE = 0.02  # the smallest card looked for, short side over the picture's longer side


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
    # Card-shaped outlines found from edges alone (cards in shade, on clutter): read, and kept only if they read.
    edge_quads: list[np.ndarray] = field(default_factory=list)
    # Outlines (full-resolution pixels) of paper regions that are not one whole card: fanned hands, overlaps.
    # Their corner indices are also searched for directly (``index_search``).
    hands: list[np.ndarray] = field(default_factory=list)
    textured: bool = False  # the table is speckled (carpet, grainy wood): its specks are opened away first
    card_width: float = 0.0  # typical card short side, full-resolution pixels (0 when no card seen)
    scale: float = 1.0  # full-resolution pixels per working pixel
    # Where card_width came from: 'hint' (calibration), 'singles' (lone cards), 'pairs' (lone cards were pairs or
    # tight fans: rows or hands said so), 'rows' (rows of touching cards only), 'close-up' (the biggest paper
    # region, one or two cards big), 'hands' (the straight edges of hands), 'edges' (outlines from edges),
    # '' (no card seen).
    size_from: str = ""
    light: bool = False  # the cards lie on a light cloth, and were found by their edges too (_light_mat)
    # The paper mask at the working resolution (``white_mask``; None where not computed): what of it no card read
    # explains is searched for cards by their two indices (``Reader._read_index_cards``).
    paper: np.ndarray | None = None
    work: np.ndarray | None = None  # the working picture itself (BGR, ``scale`` full-resolution pixels a pixel)
    # Regions enclosed by edges, a fifth of a card to three cards big, neither a card's shape nor round nor
    # coloured (full-resolution outlines): part of a hand on a table as light as the cards, which the paper mask
    # cannot part from it. The reader searches those no read explains for lone indices (``Reader._read_loose``).
    edge_hands: list[np.ndarray] = field(default_factory=list)


# Pieces of a split rectangle are card-shaped within this (their long over short side off a card's by at most this
# share): cards touching edge to edge are (0.12 at most on the tuning scenes); two cards stacked a third of a card
# apart, a little across, make a rectangle whose halves are squarish (0.11-0.23 off).
SPLIT_SHAPE = 0.125
PAIR_FILL = 0.78  # a pair of cards side by side a little askew fills this much of its rectangle, at least
ERODE_APART = (0.1, 0.2, 0.3)  # card widths: cards touching at a corner fall apart eroded so (_eroded_apart)


def card_shaped(aspect: float) -> bool:
    """A rectangle's long side over its short side is a card's (1.4), give or take a slant or a rounded corner."""
    return 1.22 < aspect < 1.62


def order_clockwise(pts: np.ndarray) -> np.ndarray:
    """Clockwise on screen (y down), starting at the end of a short side so side 0 is a short side."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    p = pts[np.argsort(ang)]
    if np.linalg.norm(p[1] - p[0]) > np.linalg.norm(p[2] - p[1]):
        p = np.roll(p, -1, axis=0)
    return p.astype(np.float32)


ON_MAT = 0.002  # share of the picture: paper over the floor this big lying in a light region makes it a mat
BIG_PAPER = 0.1  # a paper region this share of the picture may be cards on a light surface (_cards_on_paper)
CARDS_BRIGHTER = 20  # levels of V - S by which such cards must stand out from the surface
SURFACE_TINT = 15  # levels of saturation by which that surface must be more tinted than the cards
TINT_SPLIT = True  # ... and where a split by brightness parts no card off, one by saturation is tried
# A light cloth (white, pale blue, pink): its paper and the cards' are one region, or the cards in its dimmer parts
# fall under the paper mask's floor with it. Such a picture has paper over LIGHT_PAPER of it, or is mostly lighter
# than LIGHT_L (Lab L, 0-255: the white cloth tuning scenes 160-249, play mats to 154 but three light ones in 80
# tuning scenes 167-192), and edges (``_edges``) over under LIGHT_EDGES of it (the white cloth tuning scenes
# 0.12 at most, a deck laid out for enrolment 0.29-0.34) or a light rim (``_rim_lightness``: a deck laid out on a
# light table; on a green mat, 98-105); its cards are found by the edges round them as well (_edge_mask).
LIGHT_PAPER = 0.4
LIGHT_L = 165
LIGHT_EDGES = 0.2
LIGHT_HOLE = 0.3  # ...what edges enclose up to this share of the picture is a card, a hand, a chip (not the cloth)
EDGE_LOW = 40  # Canny's lower (hysteresis) threshold for edges (``_edges``); its upper one is 120
# ...and on a light cloth, once the picture is taken for one, the edges that enclose the cards are found again with
# this lower one: a card in the cloth's dim side, its edge facing the light a faint step, leaves its outline open,
# and no mask finds its hand (white-cloth tuning seeds 5065 and 5111). At 25 `tools/tune_ab.py`, five kinds, seeds
# 5030-5149, white cloth +8 pocket cards, -1 (5049's Ad, peeking from under the 7h, whose outline with it now
# reads whole as the 7h), the other kinds and the dev photos unchanged; its two wrong reads at first (a six's
# index half read as a five from a slid frame; a six of clubs read a queen) are what SLID_INDEX_CLEAR and
# NET_VETO_UNDER in ``reader`` now keep out. Only where edges are sparse (under LIGHT_EDGES): a deck laid out for
# enrolment on a white table, edges everywhere, lost a card to it (its fainter edges bridge the cards' gaps).
LIGHT_EDGE_LOW = 25
# A light surface that is speckled (``_speckled``: a beige carpet in a bright room) is no cloth: its texture is edges
# everywhere, and what they enclose ran into one region with the cards (dev photos brightened, gamma 0.6: eight
# more cards read; the paper mask alone finds them, as it does on the same carpet less lit).
LIGHT_NOT_SPECKLED = True
# ...where edges cover over this share of the picture's rim (``_rim_share``: the carpet 0.74-0.79; a deck laid out
# for enrolment, whose ink makes it speckled too, 0; the white-cloth tuning scenes 0.08 at most; the other dev
# photos 0.28 at most).
RIM_EDGES = 0.4
# On a light cloth, thin dark lines in glare are edges too (``_glare_lines``): a pixel this much darker (0..255)
# than the 3x3 closing of the grey picture, where that is EDGE_LINE_GLARE light at least.
GLARE_LINES = True
EDGE_LINE_DARK, EDGE_LINE_GLARE = 10, 235


def _paperness(small: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """HSV, paperness (V - S: bright and unsaturated) and its step (morphological gradient, 3x3) of ``small``."""
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    w = cv2.subtract(hsv[:, :, 2], hsv[:, :, 1])  # saturates at 0
    return hsv, w, cv2.morphologyEx(w, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))


def white_mask(small: np.ndarray, paperness: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
               ) -> np.ndarray:
    """Card paper: bright and unsaturated (V - S high), split from the mat by Otsu, so a sand or grey mat
    under a colour cast stays mat. ``paperness``: ``_paperness(small)``, where the caller has it already."""
    hsv, w, step = paperness if paperness is not None else _paperness(small)
    t, _ = cv2.threshold(w, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # Paper is also near the brightest of the picture: a light mat (sand, grey) falls under this floor.
    top = float(np.percentile(w[::4, ::4], 99.5))
    k3 = np.ones((3, 3), np.uint8)
    high: np.ndarray = (w > max(float(t), top - 65.0, 90.0)).astype(np.uint8) * 255
    high = cv2.morphologyEx(high, cv2.MORPH_OPEN, k3)
    # That floor also drops cards in shade or under a colour cast when a glare spot sets the brightest
    # level. Paper above the Otsu level whose outline is a sharp step is paper too; glare fades out softly.
    low: np.ndarray = (w > max(float(t), 90.0)).astype(np.uint8) * 255
    low = cv2.morphologyEx(low, cv2.MORPH_OPEN, k3)

    out = high.copy()
    cnts, _ = cv2.findContours(high, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    # Paper only a little over the floor has an outline that wanders into it, off the sharp edge: the edge
    # is looked for within two pixels too, along most of the outline (a chip beside a glare spot gets there
    # along well under half of it).
    near_step = cv2.dilate(step, np.ones((5, 5), np.uint8))
    area_img = w.shape[0] * w.shape[1]
    # Paper whose outline wanders inside it (into a shadow one card casts on another, through a gap between them)
    # is paper still where its convex hull runs along a sharp step (HULL_SHARP): a glare spot's hull fades out.
    soft = [c for c in cnts if not _sharp(c, step) and not _sharp(c, near_step, share=0.5)
            and not (cv2.contourArea(c) < LIGHT_HOLE * area_img and _sharp_share(cv2.convexHull(c), step) > HULL_SHARP)]
    if soft:  # a glare spot's core: not paper, even where it saturates; cards in its fade are
        cv2.drawContours(out, soft, -1, 0, -1)
        _cards_in_glare(out, soft, step, near_step, area_img)
    if not np.array_equal(low, high):
        _add_sharp_low(out, low, high, step, area_img)
    _cards_on_paper(out, w, hsv[:, :, 1], area_img)
    return out


def _shade_levels(hsv: np.ndarray, white: np.ndarray) -> tuple[float, float, float] | None:
    """The paper's saturation and brightness (HSV, medians over ``white``) and the mat's brightness (over the
    rest), from every other pixel each way; None where there is no paper or nothing else."""
    sat, val, on = hsv[::2, ::2, 1], hsv[::2, ::2, 2], white[::2, ::2] > 0
    if not on.any() or on.all():
        return None
    return float(np.median(sat[on])), float(np.median(val[on])), float(np.median(val[~on]))


def _shaded_beside(hsv: np.ndarray, white: np.ndarray, dist: np.ndarray, levels: tuple[float, float, float]
                   ) -> np.ndarray:
    """The paper in shade beside the paper found (``white``) that it missed (a mask): see ``SHADOW_SAT``.
    ``dist``: each pixel's L1 distance to the mat's colour in Lab (over 40 is off the mat, as for ink and
    backs); ``levels``: ``_shade_levels`` of the whole picture."""
    paper_s, paper_v, mat_v = levels
    out = np.zeros_like(white)
    sat, val, on = hsv[:, :, 1], hsv[:, :, 2], white > 0
    k3 = np.ones((3, 3), np.uint8)
    off_mat = (dist > 40) & (sat <= paper_s + SHADOW_SAT) & (val <= SHADOW_TOP * paper_v) & ~on
    cand = cv2.morphologyEx((off_mat & (val >= max(SHADOW_V * paper_v, mat_v + SHADOW_OVER))).astype(np.uint8) * 255,
                            cv2.MORPH_OPEN, k3)
    if not cand.any():
        return out
    _, labels, stats, _ = components(cand)
    touching = np.unique(labels[(cv2.dilate(white, k3) > 0) & (cand > 0)])
    touching = touching[touching > 0]
    if not len(touching):
        return out
    step = cv2.morphologyEx(dist, cv2.MORPH_GRADIENT, k3)
    beside = cv2.dilate(white, np.ones((5, 5), np.uint8))
    for i in touching:
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        piece = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8) * 255
        cnt = max(cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=len).reshape(-1, 2)
        if round_hull(cnt, SHADOW_CHIP):
            continue
        px, py = cnt[:, 0] + x, cnt[:, 1] + y
        free = beside[py, px] == 0
        if free.any() and float((step[py, px] > SHARP_STEP)[free].mean()) < SHADOW_SHARP:
            continue
        out[y:y + bh, x:x + bw][piece > 0] = 255
    return out


def _solidity(contour: np.ndarray) -> float:
    """The share of its convex hull a contour's region fills."""
    return float(cv2.contourArea(contour)) / max(float(cv2.contourArea(cv2.convexHull(contour))), 1.0)


def _grown_outline(contour: np.ndarray, hsv: np.ndarray, white: np.ndarray, dist: np.ndarray, other: np.ndarray,
                   levels: tuple[float, float, float], least: float = SHADOW_GROW) -> np.ndarray | None:
    """The outline of the blob ``contour`` encloses joined with the paper in shade beside it
    (``_shaded_beside``, looked for round the blob: as far again as its size each way) and the ink beside that
    (``other``, as the mask takes in ink beside paper), where that is at least ``least`` times the blob's area
    and no more ragged (its solidity); else None."""
    x, y, bw, bh = cv2.boundingRect(contour)
    pad = max(bw, bh)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(white.shape[1], x + bw + pad), min(white.shape[0], y + bh + pad)
    region = _shaded_beside(hsv[y0:y1, x0:x1], white[y0:y1, x0:x1], dist[y0:y1, x0:x1], levels)
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(-x0, -y0))
    _, labels, _, _ = components(region)
    touching = np.unique(labels[(cv2.dilate(blob, np.ones((3, 3), np.uint8)) > 0) & (region > 0)])
    touching = touching[touching > 0]
    if not len(touching):
        return None
    pieces = np.isin(labels, touching).astype(np.uint8) * 255
    near = cv2.dilate(pieces, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    joined = cv2.bitwise_or(cv2.bitwise_or(blob, pieces), cv2.bitwise_and(other[y0:y1, x0:x1], near))
    joined = _fill(cv2.morphologyEx(joined, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))
    best = max(cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea)
    if cv2.contourArea(best) < least * cv2.contourArea(contour) or _solidity(best) < _solidity(contour):
        return None
    return best + np.array([x0, y0], np.int32)


def _cards_in_glare(out: np.ndarray, soft: list[np.ndarray], step: np.ndarray, near_step: np.ndarray,
                    area_img: int) -> None:
    """Cards lying in a glare spot's fade join it in one soft region. The glare's core is the region's biggest
    piece between sharp steps; what is left once it is taken away (and thin bridges opened) is put back where it
    is as big as half a small card and its outline a sharp step (``near_step``: ``step`` dilated by two pixels,
    as ``white_mask`` has it). Then the same with fainter steps parting the pieces (``GLARE_BARRIER``: on a table
    as white as the cards, the table joins the glare, and a card's edge against it may be faint), where a piece
    is paper the first pass did not put back at all (``_new_paper``): a fainter barrier also parts the cloth's
    own texture, which joined to a row of cards already found made it a "hand" twice a card's size."""
    for barrier, fainter in ((SHARP_STEP, False), (GLARE_BARRIER, True)):
        if fainter and barrier >= SHARP_STEP:
            break
        sharp = ((step > barrier) * 255).astype(np.uint8)
        smooth = cv2.bitwise_not(cv2.dilate(sharp, np.ones((3, 3), np.uint8)))
        for c in soft:
            x, y, bw, bh = cv2.boundingRect(c)
            region = np.zeros((bh, bw), np.uint8)
            cv2.drawContours(region, [c], -1, 255, -1, offset=(-x, -y))
            n, labels, stats, _ = components(
                cv2.bitwise_and(region, smooth[y:y + bh, x:x + bw]), connectivity=4)
            if n < 3:
                continue
            core = 1 + int(np.argmax(stats[1:, 4]))
            glare = cv2.dilate(((labels == core) * 255).astype(np.uint8), np.ones((5, 5), np.uint8))
            rest = cv2.morphologyEx(cv2.bitwise_and(region, cv2.bitwise_not(glare)), cv2.MORPH_OPEN,
                                    np.ones((3, 3), np.uint8))
            pieces, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            for p in pieces:
                p = p + (x, y)
                if cv2.contourArea(p) < 0.0015 * area_img or not _sharp(p, near_step, share=0.6):
                    continue
                if fainter and not _new_paper(p, out):
                    continue
                cv2.drawContours(out, [p], -1, 255, -1)


def _new_paper(contour: np.ndarray, out: np.ndarray) -> bool:
    """``out`` holds almost none of the piece yet (under a tenth): not more of paper already found."""
    return _covered(contour, out) < 0.1


def _covered(contour: np.ndarray, mask: np.ndarray) -> float:
    """The share of the region a contour encloses that ``mask`` holds."""
    x, y, bw, bh = cv2.boundingRect(contour)
    m = np.zeros((bh, bw), np.uint8)
    cv2.drawContours(m, [contour], -1, 255, -1, offset=(-x, -y))
    return cv2.countNonZero(cv2.bitwise_and(m, mask[y:y + bh, x:x + bw])) / max(cv2.countNonZero(m), 1)


def _add_sharp_low(out: np.ndarray, low: np.ndarray, high: np.ndarray, step: np.ndarray, area_img: int) -> None:
    """Add to ``out`` the paper over the Otsu level (``low``) that the brightness floor (``high``) missed almost
    all of, where its outline is a sharp step: cards in shade or under a colour cast."""
    cnts, _ = cv2.findContours(low, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for c in cnts:
        # A light mat (over half the picture) is left to the old floor, and so is a region it did see: that
        # may be cards joined to a glare spot. (A quarter was the limit before: a close-up of two cards with a
        # glint on one was left to the glint.)
        if cv2.contourArea(c) > 0.5 * area_img or not _sharp(c, step):
            continue
        x, y, bw, bh = cv2.boundingRect(c)
        inside = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(inside, [c], -1, 255, -1, offset=(-x, -y))
        if cv2.countNonZero(cv2.bitwise_and(high[y:y + bh, x:x + bw], inside)) >= 0.15 * cv2.countNonZero(inside):
            continue  # the floor saw this paper (most regions over the Otsu level are cards found already)
        # A light mat under the cards, not a card in shade: two or more solid pieces of paper over the floor lie
        # on it, together a small part of it (a mat of a third of the picture or more passed for paper, and the
        # card size became the mat's). A glint on a close-up's cards breaks into pieces too, but they are most
        # of the region.
        _, _, stats, _ = components(cv2.bitwise_and(out[y:y + bh, x:x + bw], inside))
        on = stats[1:][(stats[1:, 4] >= ON_MAT * area_img) & (stats[1:, 4] >= 0.6 * stats[1:, 2] * stats[1:, 3])]
        if len(on) >= 2 and cv2.contourArea(c) > 4 * float(on[:, 4].sum()):
            continue
        roi = out[y:y + bh, x:x + bw]
        roi[(inside > 0) & (low[y:y + bh, x:x + bw] > 0)] = 255


def _cards_on_paper(out: np.ndarray, w: np.ndarray, sat: np.ndarray, area_img: int) -> None:
    """Cards on a light, tinted surface (a cream folder, a beige cloth) join it in one big paper region. Where
    such a region (over BIG_PAPER of the picture, not itself card-shaped) splits by Otsu on ``w`` into a
    clearly brighter part (CARDS_BRIGHTER levels apart) that is also whiter (the rest SURFACE_TINT levels more
    saturated: light fading across a close hand of cards leaves the paper's tint alone) with a card-shaped
    piece, only that brighter part is paper. Failing that (TINT_SPLIT), the same by Otsu on saturation: the whiter
    part, no darker than the rest, SURFACE_TINT levels less saturated, with a card-shaped piece."""
    cnts, _ = cv2.findContours(out, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    for c in cnts:
        a = cv2.contourArea(c)
        if a < BIG_PAPER * area_img:
            continue
        (rw, rh) = cv2.minAreaRect(c)[1]
        if a > 0.86 * rw * rh and card_shaped(max(rw, rh) / max(min(rw, rh), 1.0)):
            continue  # one card close to the camera
        x, y, bw, bh = cv2.boundingRect(c)
        roi, wr, sr = out[y:y + bh, x:x + bw], w[y:y + bh, x:x + bw], sat[y:y + bh, x:x + bw]
        inside = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(inside, [c], -1, 255, -1, offset=(-x, -y))
        inside &= roi
        for by_tint in (False, True) if TINT_SPLIT else (False,):
            # Split by brightness (Otsu on ``w``) or, where that parts no card off (the light falls off across the
            # surface, its lit part as bright as the cards), by saturation: the cards are the whiter part.
            vals = (sr if by_tint else wr)[inside > 0]
            t, _ = cv2.threshold(vals.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
            hi = ((sr <= t) if by_tint else (wr > t)) & (inside > 0)
            lo = ~hi & (inside > 0)
            if not hi.any() or not lo.any() or float(sr[lo].mean()) - float(sr[hi].mean()) < SURFACE_TINT or \
                    float(wr[hi].mean()) - float(wr[lo].mean()) < (0.0 if by_tint else CARDS_BRIGHTER):
                continue
            bright = _fill(cv2.morphologyEx(hi.astype(np.uint8) * 255, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                           0.02 * area_img / (bw * bh))
            # (By saturation, a piece under half the region: a light book on a stone floor is card-shaped too.)
            if _card_piece(bright, area_img, 0.5 * a if by_tint else float(area_img)):
                roi[inside > 0] = bright[inside > 0]
                break


def _card_piece(bright: np.ndarray, area_img: int, most: float) -> bool:
    """A card-shaped piece in ``bright``: its outline fills its rectangle (its pips may open onto its edge: the
    hull's), at least 0.005 of the picture and under ``most`` (pixels)."""
    for p in cv2.findContours(bright, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        ha = cv2.contourArea(cv2.convexHull(p))
        (pw, ph) = cv2.minAreaRect(p)[1]
        if 0.005 * area_img <= ha < most and ha > 0.9 * pw * ph and cv2.contourArea(p) > 0.6 * ha and \
                card_shaped(max(pw, ph) / max(min(pw, ph), 1.0)):
            return True
    return False


def _sharp(contour: np.ndarray, step: np.ndarray, level: float = SHARP_STEP, share: float = 0.35) -> bool:
    """Paper's outline is a sharp step (``step``: the morphological gradient of the paperness, over ``level``)
    along more than ``share`` of its length (a third); a glare spot fades out softly."""
    p = contour.reshape(-1, 2)
    return float((step[p[:, 1], p[:, 0]] > level).mean()) > share


def _sharp_share(contour: np.ndarray, step: np.ndarray, level: float = SHARP_STEP) -> float:
    """The share of a blob's outline (any contour, its points joined) lying within two pixels of a sharp step
    of paperness (``step`` over ``level``)."""
    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(x - 3, 0), max(y - 3, 0)
    win = step[y0:y + h + 3, x0:x + w + 3]
    line = np.zeros(win.shape, np.uint8)
    cv2.drawContours(line, [contour], -1, 1, 1, offset=(-x0, -y0))
    near = cv2.dilate((win > level).astype(np.uint8), np.ones((5, 5), np.uint8))
    on = cv2.countNonZero(line)
    return cv2.countNonZero(cv2.bitwise_and(near, line)) / on if on else 0.0


def _on_sharp_steps(corners: list[CornerCandidate], step: np.ndarray, cw: float, scale: float
                    ) -> list[CornerCandidate]:
    """The corner candidates with a sharp step of paperness (``step``, over ``CORNER_STEP``) within
    ``CORNER_NEAR`` card widths: a card's corner is paper's edge; a glare spot's outline, however square it
    turns, fades out softly."""
    r = max(2, int(round(CORNER_NEAR * cw)))
    out = []
    for c in corners:
        x, y = int(c.origin[0] / scale), int(c.origin[1] / scale)
        win = step[max(0, y - r):max(0, y + r + 1), max(0, x - r):max(0, x + r + 1)]
        if win.size and int(win.max()) > CORNER_STEP:
            out.append(c)
    return out


def _round(area: float, perimeter: float, level: float = 0.85) -> bool:
    """A chip, a plate or a glare spot, not cards: an outline nearly as compact as a circle's (its compactness,
    4 pi area / perimeter squared, over ``level``; a card's is 0.76, a square's 0.79)."""
    return 4 * np.pi * area / perimeter ** 2 > level


def round_hull(contour: np.ndarray, level: float) -> bool:
    """``_round`` of the contour's convex hull (a chip whose star and number notch it is a disc still)."""
    hull = cv2.convexHull(contour)
    return _round(cv2.contourArea(hull), cv2.arcLength(hull, True), level)


def _fill(mask: np.ndarray, max_hole: float = 0.02) -> np.ndarray:
    """Fill holes (glyphs, court art, a back's pattern) smaller than ``max_hole`` of the picture; a ring
    (the mat's edge against the table around it) keeps its inside."""
    cnts, hier = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    out = mask.copy()
    if hier is None:
        return out
    limit = max_hole * mask.shape[0] * mask.shape[1]
    holes = [c for c, h in zip(cnts, hier[0]) if h[3] >= 0 and cv2.contourArea(c) < limit]
    cv2.drawContours(out, holes, -1, 255, -1)
    return out


def detect_cards(image: np.ndarray, work_side: int = WORK_SIDE, card_width_hint: float | None = None,
                 corners: bool = True) -> Detection:
    """Cards in ``image`` (BGR). ``card_width_hint``: the expected card short side in full-res pixels,
    when known (calibration), else estimated from the cards that stand alone. ``corners=False`` skips the
    hidden-card corners and loose backs (the watch loop only needs where the cards are)."""
    h, w = image.shape[:2]
    scale = max(h, w) / work_side if max(h, w) > work_side else 1.0
    if scale > 1:
        small = shrink(image, (int(round(w / scale)), int(round(h / scale))), nearest_first=scale > 2.5)
    else:
        small = image
    det = Detection(scale=scale, work=small)
    paperness = _paperness(small)
    white = white_mask(small, paperness)
    det.paper = white
    # Cards are what is not table: the mat is the dominant colour of what is not paper. Paper counts too (on
    # a white mat), and coloured ink does, so index glyphs at a card's edge do not notch its outline.
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    sample = lab[::4, ::4][white[::4, ::4] == 0]
    table = np.median(sample, axis=0) if len(sample) else np.array([0, 128, 128])
    # L1 distance to the mat's colour (saturating at 255), with OpenCV: numpy's sum over the channel axis
    # costs ~15 ms here.
    mat_colour = tuple(float(v) for v in table.astype(np.uint8)) + (0.0,)
    diff = cv2.absdiff(lab, mat_colour)  # type: ignore[call-overload]  # OpenCV takes a Scalar here; its stub does not
    d0, d1, d2 = cv2.split(diff)
    dist = cv2.add(cv2.add(d0, d1), d2)
    other = ((dist > 40) & (white == 0)).astype(np.uint8) * 255  # not mat, not paper: ink, backs, chips, rim
    # A speckled table (carpet, grainy wood) has no one colour: what differs from its median is mostly its own
    # texture, not ink or backs.
    det.textured = _speckled(other, white)
    if det.textured:  # keep only solid off-colour regions (a back, a chip), not the texture's specks
        other = cv2.morphologyEx(other, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9)))
    near_paper = cv2.dilate(white, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7)))
    fg = cv2.bitwise_or(white, cv2.bitwise_and(other, near_paper))
    mask = _fill(cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)))
    edges: np.ndarray | None = None
    regions: np.ndarray | None = None  # on a light cloth: the regions edges enclose, apart (_edge_mask)
    if _light_mat(white, lab):
        edges = _edges(small)
        # Not a deck laid out on a dark mat for enrolment (nearly all cards: edges everywhere; the mat round it).
        # Nor a speckled surface with edges all along the picture's rim (carpet; LIGHT_NOT_SPECKLED).
        sparse = cv2.countNonZero(edges) < LIGHT_EDGES * edges.size
        if (sparse or _rim_lightness(lab) > LIGHT_L) and not (
                LIGHT_NOT_SPECKLED and det.textured and _rim_share(edges) > RIM_EDGES):
            det.light = True  # what edges enclose, and the paper short of the cloth itself
            if sparse and LIGHT_EDGE_LOW != EDGE_LOW:  # (a cloth, not a deck laid out: LIGHT_EDGE_LOW)
                edges = _edges(small, low=LIGHT_EDGE_LOW)
            if GLARE_LINES:
                edges = cv2.bitwise_or(edges, _glare_lines(small))
            enclosed, regions = _edge_mask(edges)
            mask = cv2.bitwise_or(enclosed, _without_big(mask, LIGHT_HOLE))
    # Cut thin bridges between cards that barely touch.
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    area_img = small.shape[0] * small.shape[1]
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blobs: list[Blob] = []
    for c in cnts:
        a = cv2.contourArea(c)
        if a < area_img * 0.0008 or a > area_img * 0.9:
            continue
        rect = cv2.minAreaRect(c)
        (rw, rh) = rect[1]
        if min(rw, rh) < max(6.0, MIN_CARD_SIDE * max(small.shape[:2])):  # specks, glyphs: not cards
            continue
        blobs.append(_blob(c, a, rect))
    singles = [b for b in blobs if b[3] > 0.86 and card_shaped(b[4])]
    if card_width_hint:
        cw = card_width_hint / scale
        det.size_from = "hint"
    elif singles:
        det.size_from = "singles"
        sizes = np.array(sorted(min(b[2][1]) for b in singles))
        # Something card-shaped far smaller than the other lone cards (a box on the table, a card-shaped pip)
        # is not a card: a card beside a pair side by side is 1.43 times smaller, not 1.7.
        sizes = sizes[sizes >= SINGLE_OUTLIER * float(np.median(sizes))] if len(sizes) > 1 else sizes
        # Two cards touching long side to long side make a 2 x 1.4 rectangle: card-shaped, 1.43 times too big.
        # Prefer the smaller size when both show, or what the fanned hands say when only the pairs show.
        small_ones = sizes[sizes < sizes[-1] / 1.3]
        cw = float(np.median(small_ones if len(small_ones) else sizes))
        single_ids = {id(b) for b in singles}
        # (Weighted by area, as where the hands alone set the size: a row broken into pieces by its pips gave many
        # short stretches, and their plain median said a card 0.7 of its size, too small to correct a pair.)
        edge = _edge_estimate([b for b in blobs if id(b) not in single_ids], area_img, by_area=True)
        # Lone "cards" all squatter than a card are tight fans (two cards, one a little off the other), only
        # a fifth or so bigger than one card: the hands' edges or a row may correct them by less than pairs.
        lo = 1.1 if all(b[4] < SQUAT for b in singles) else 1.3
        # A row of touching cards settles it: its short side is one card's long side. What looked like lone
        # cards 1.4 times too big were pairs side by side, or tight fans. Else the hands' edges may say so.
        rows = [min(b[2][1]) / CARD_ASPECT for b in blobs if b[3] > ROW_FILL and ROW_ASPECT < b[4] < 6.5]
        row = float(np.median(rows)) if rows else 0.0
        # Lone "cards" of two sizes (a card and a tight fan a fifth bigger, both card-shaped): their median is
        # neither. Where a row or the hands' edges agree with some of them, those are the cards.
        if (support := row or edge) and len(sizes) >= 2 and sizes[-1] > SIZES_SPREAD * sizes[0]:
            near = sizes[np.abs(sizes / support - 1.0) < SIZES_AGREE]
            if len(near):
                cw = float(np.median(near))
        if not len(small_ones) and len(singles) <= 2:
            if row and lo < cw / row < 1.6:
                cw = row
                det.size_from = "pairs"
            elif edge and lo < cw / edge < 1.6:
                cw = edge
                det.size_from = "pairs"
    elif (from_row := _row_estimate(blobs, area_img)) >= MIN_CARD_SIDE * max(small.shape[:2]):
        # Only rows of touching cards: a row's short side is a card's long side. (Not a strip of something
        # else narrower than the smallest card looked for: a floor tile's grout at the picture's edge.)
        cw = from_row
        det.size_from = "rows"
    elif close_up := _closeup_estimate(blobs, area_img):
        # One or two cards close to the camera, not card-shaped in the paper mask (a shadow across them, an
        # object on top): the clutter's straight stretches would say the card is a fraction of its size.
        cw = close_up
        det.size_from = "close-up"
    elif from_hands := _edge_estimate(blobs, area_img, by_area=True):
        cw = from_hands
        det.size_from = "hands"
    else:
        if corners:  # no paper region looks like a card: cards in shade or on clutter may still show edges
            quads = edge_quads(small, [], edges=edges)
            det.edge_quads = [q * scale for q in quads + _shade_quads(small, quads)]
            if det.edge_quads:
                det.card_width = float(np.median([short_side(q) for q in det.edge_quads]))
                det.size_from = "edges"
        return det
    card_area = cw * cw * CARD_ASPECT
    det.card_width = cw * scale
    paper = cv2.erode(white, np.ones((3, 3), np.uint8))  # a back's light speckles are not paper
    if corners:  # cards the paper mask missed in a dim part of the mat or under a colour cast
        shaded, shaded_paper = _shaded_paper(small, mask, card_area)
        blobs += shaded
        paper = cv2.bitwise_or(paper, cv2.erode(shaded_paper, np.ones((3, 3), np.uint8)))
    parted: set[int] = set()  # blobs left over once cards were eroded apart from them
    shade_levels: tuple[float, float, float] | None = None  # (_shade_levels: once a hand needs them)
    for i, (c, a, rect, fill, aspect) in enumerate(blobs):
        if a < 0.35 * card_area:
            continue
        n = a / card_area
        if fill > 0.86 and card_shaped(aspect) and n < 1.45:
            # Face or back is the reader's call (a court card's art is not paper either).
            det.quads.append(order_clockwise(cv2.boxPoints(rect)) * scale)
            if n > 1.15 and corners:  # too big for one card: a tight fan, whose corners may read instead
                det.corners += _corners(_closed(c, int(0.11 * cw) | 1), cw, i, scale)
                det.hands.append(c.reshape(-1, 2).astype(np.float32) * scale)
            continue
        if card_shaped(aspect) and n < 1.45 and _notched_card(c, rect, card_area):
            det.quads.append(order_clockwise(cv2.boxPoints(rect)) * scale)
            continue
        split = _split_rect(rect, cw, fill) if fill > 0.86 else None
        if split is None and fill > PAIR_FILL and 1.8 < n < 2.25 and (card_shaped(aspect) or 2.5 < aspect < 3.1):
            # Two cards side by side or end to end, a little askew to each other (a V-shaped gap between them;
            # together as card-shaped as one card, or twice as long): the halves.
            split = _split_rect(rect, cw, fill)
            split = split if split is not None and len(split) == 2 and _v_gap(c, split, cw) else None
        if split:
            det.quads += [q * scale for q in split]
            continue
        apart: list[np.ndarray] = []
        rest: list[np.ndarray] = []
        if n > 1.6 and i not in parted:
            apart, rest = _eroded_apart(c, cw, card_area)
            if not apart and regions is not None:  # on a light cloth: cards side by side, the edge between them
                apart, rest = _parted_by_edges(c, regions, card_area)
        if apart:
            det.quads += [q * scale for q in apart]
            for r in rest:  # the rest of the blob, searched on its own (not eroded apart again)
                parted.add(len(blobs))
                blobs.append(_blob(r))
            continue
        if n > 7 or not corners:  # the mat's own edge, a tray: nothing a hand of cards makes
            continue
        if n < CHIP_CARDS and round_hull(c, CHIP_ROUND):
            continue  # a white chip (its star and number notch the paper, its hull is a disc), a glare spot
        if regions is None and _sharp_share(c, paperness[2]) < HAND_SHARP:
            continue  # a glare spot (or a hand run into one) whose outline fades out softly nearly all round
        if regions is not None and i not in parted:  # on a light cloth a chip touching a hand joins it
            pieces = _without_chips(c, regions, card_area)
            if pieces:  # the pieces, each looked at on its own
                for r in pieces:
                    parted.add(len(blobs))
                    blobs.append(_blob(r))
                continue
        bx, by, bw, bh = cv2.boundingRect(c)
        blob_mask = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(blob_mask, [c], -1, 255, -1, offset=(-bx, -by))
        if float((paper[by:by + bh, bx:bx + bw][blob_mask > 0] > 0).mean()) < 0.25 and \
                longest_stretch(c, cv2.arcLength(c, True)) >= BACK_EDGE * cw:
            # Fanned face-down cards, or face-up ones whose paper the white mask mostly missed (court art on
            # top, a dim picture): the reader drops the back where a corner inside it reads. (Not chips touching
            # on a light cloth: no straight edge.)
            det.backs.append(order_clockwise(cv2.boxPoints(rect)) * scale)
        if SHADOW_SAT and not det.textured and not det.light:
            # A card of the hand in shade (the card on it casts its shadow, a dim corner of the mat): the white
            # mask missed it, and the hand's outline with it. (Not on a speckled table, whose light specks would
            # grow into the cards, nor on a light cloth, where edges find the hands.)
            shade_levels = shade_levels or _shade_levels(paperness[0], white)
            if shade_levels is not None and (
                    grown := _grown_outline(c, paperness[0], white, dist, other, shade_levels)) is not None:
                c = grown
        det.corners += _corners(_closed(c, int(0.11 * cw) | 1), cw, i, scale)
        det.hands.append(c.reshape(-1, 2).astype(np.float32) * scale)
    if corners:
        det.corners = _on_sharp_steps(det.corners, paperness[2], cw, scale)
        det.backs += _loose_backs(other, mask, card_area, scale, dist, white,
                                  cv2.threshold(cv2.add(d1, d2), BACK_CHROMA, 255, cv2.THRESH_BINARY)[1])
        hands: list[np.ndarray] = []
        found = [q / scale for q in det.quads]
        quads = edge_quads(small, found, card_area, hands, edges)
        # (Not in a hand found already: an outline round two of its cards, read as one, hid the other.)
        quads += _shade_quads(small, found + quads + [h / scale for h in det.hands], cw)
        det.edge_quads = [q * scale for q in quads]
        det.edge_hands = [h * scale for h in hands]
    return det


def components(binary: np.ndarray, connectivity: int = 8) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` (count, labels, stats, centroids) with 16-bit labels: the same labels
    and stats as 32-bit ones, and a quarter to two fifths faster on one core on the small masks the index reader
    counts some 200 times a still, three times faster on a working-resolution mask (``benchmarks/
    components_bench.py``). Where the picture could hold 65,535 components or more, OpenCV raises on running out
    of 16-bit labels (it checks before each new one), and the count is made again with 32-bit ones."""
    h, w = binary.shape[:2]
    most = ((h + 1) // 2) * ((w + 1) // 2) if connectivity == 8 else (h * w + 1) // 2
    try:
        n, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=connectivity,
                                                                   ltype=cv2.CV_16U)
    except cv2.error:
        if most < 65535:
            raise
        n, labels, stats, cents = cv2.connectedComponentsWithStats(binary, connectivity=connectivity,
                                                                   ltype=cv2.CV_32S)
    return int(n), labels, stats, cents


def shrink(image: np.ndarray, size: tuple[int, int], nearest_first: bool) -> np.ndarray:
    """``image`` resized to ``size`` (w, h) with INTER_AREA (area averaging where it shrinks); ``nearest_first``:
    through a cheap nearest-neighbour step to twice that size first (INTER_AREA over 12 MP costs ~50 ms; a 2:1
    area step is fast). Each caller says where its step is big enough for that (the pixels it reads depend on
    it: detection and the index pairs from 2.5 times down, the index search's hand crops from 1.67)."""
    if nearest_first:
        image = cv2.resize(image, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_NEAREST)
    out: np.ndarray = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return out


def measure_card_width(image: np.ndarray) -> tuple[float, int]:
    """A card's short side in pixels of ``image``, from the whole cards lying apart in it (calibration: lay a
    few cards face up), and how many cards that median is over; (0.0, 0) when no lone card is seen."""
    det = detect_cards(image)
    sides = [short_side(q) for q in det.quads + det.edge_quads]
    if not sides:
        return 0.0, 0
    sides.sort()
    # Two cards touching along their long sides make one card-shaped quad 1.43 times too big: the smallest
    # sizes are the single cards.
    singles = [v for v in sides if v < 1.25 * sides[0]]
    return float(np.median(singles)), len(singles)


def short_side(quad: np.ndarray) -> float:
    """The shorter of a card outline's two sides (pixels), for a rectangle given corner by corner."""
    return min(float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[2] - quad[1])))


def edge_quads(small: np.ndarray, known: list[np.ndarray], card_area: float = 0.0,
               hands: list[np.ndarray] | None = None, edges: np.ndarray | None = None) -> list[np.ndarray]:
    """Card outlines from edges, for cards the paper mask misses: a card in the shade next to a sunlit spot,
    a card on a speckled carpet or among clutter. A region enclosed by edges that fills at least half of its
    convex hull, whose hull fills a card-shaped rectangle at least ``MIN_CARD_SIDE`` of the picture's longer
    side across, is proposed; the reader keeps it only when both its corners read. Outlines whose centre lies
    inside ``known`` quads are skipped. ``hands``: where given (with ``card_area``, working pixels), the other
    such regions ``EDGE_HAND`` cards big, not round (a chip) nor coloured (a back, chips side by side), are added
    to it (``Detection.edge_hands``). ``edges``: ``_edges(small)``, where the caller has it already."""
    h, w = small.shape[:2]
    side = max(h, w)
    edges = _edges(small) if edges is None else edges
    cnts, _ = cv2.findContours(255 - edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    min_side = MIN_CARD_SIDE * side
    found: list[tuple[float, np.ndarray, bool]] = []
    polys = [k.reshape(-1, 1, 2).astype(np.float32) for k in known]

    def known_at(p: Sequence[float]) -> bool:
        return any(cv2.pointPolygonTest(k, (float(p[0]), float(p[1])), False) >= 0 for k in polys)

    for c in cnts:
        a = cv2.contourArea(c)
        if a < 0.5 * min_side * min_side * CARD_ASPECT or a > 0.5 * h * w:
            continue
        hull = cv2.convexHull(c)
        ha = cv2.contourArea(hull)
        if a < 0.5 * ha:
            continue
        rect = cv2.minAreaRect(hull)  # rounded corners: the hull's bounding rectangle, not a polygon fit
        (rw, rh) = rect[1]
        if min(rw, rh) < min_side or not card_shaped(max(rw, rh) / min(rw, rh)) or ha < EDGE_FILL * rw * rh:
            if hands is not None and EDGE_HAND[0] * card_area < a < EDGE_HAND[1] * card_area and not _round(
                    ha, cv2.arcLength(hull, True), CHIP_ROUND) and not known_at(rect[0]):
                bx, by, bw, bh = cv2.boundingRect(c)
                inside = np.zeros((bh, bw), np.uint8)
                cv2.drawContours(inside, [c], -1, 255, -1, offset=(-bx, -by))
                hsv = cv2.cvtColor(small[by:by + bh, bx:bx + bw], cv2.COLOR_BGR2HSV)
                if cv2.mean(hsv, inside)[1] < EDGE_HAND_SAT:  # not a back's or a chip's colour: paper and ink
                    hands.append(c.reshape(-1, 2).astype(np.float32))
            continue
        # The region inside an edge sits a pixel or so inside the card's border (edge width, dilation).
        q = order_clockwise(cv2.boxPoints((rect[0], (rw + 2.0, rh + 2.0), rect[2])))
        if known_at(q.mean(axis=0)):
            continue
        found.append((a, q, ha >= 0.9 * rw * rh))
    # Nested outlines of one card (its border, its inner frame): keep the biggest, though a squarer outline
    # first: a slanted card is a trapezoid, but so are two cards' outlines run together.
    out: list[np.ndarray] = []
    for _, q, _ in sorted(found, key=lambda t: (not t[2], -t[0])):
        c = q.mean(axis=0)
        if any(np.linalg.norm(c - k.mean(axis=0)) < 0.3 * np.linalg.norm(k[1] - k[0]) for k in out):
            continue
        out.append(q)
    return out


def _shade_quads(small: np.ndarray, known: list[np.ndarray], cw: float | None = None) -> list[np.ndarray]:
    """The second look for card outlines (``edge_quads``), on edges of the grey picture raised to ``SHADE_LIFT``:
    cards in deep shade, their edges too faint for Canny. Where the card size ``cw`` is known (working pixels),
    only outlines whose short side is within ``LIFT_SIZE`` of it. None where ``SHADE_LIFT`` is 0."""
    if not SHADE_LIFT:
        return []
    quads = edge_quads(small, known, edges=_edges(small, SHADE_LIFT))
    return [q for q in quads if cw is None or abs(short_side(q) / cw - 1) < LIFT_SIZE]


def _edges(small: np.ndarray, lift: float = 1.0, low: int = EDGE_LOW) -> np.ndarray:
    """Edges (Canny on the blurred grey picture), a pixel thicker each way so that an outline closes. ``lift``
    under 1: the grey picture raised to that power first (its shade's steps stretched, ``SHADE_LIFT``). ``low``:
    Canny's lower (hysteresis) threshold, an edge's faint stretches kept where they join a strong one."""
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    if lift != 1.0:
        gray = cv2.LUT(gray, (255.0 * (np.arange(256) / 255.0) ** lift).astype(np.uint8))
    gray = cv2.GaussianBlur(gray, (5, 5), 0)
    out: np.ndarray = cv2.dilate(cv2.Canny(gray, low, 120), np.ones((3, 3), np.uint8))
    return out


def _glare_lines(small: np.ndarray) -> np.ndarray:
    """Thin dark lines in glare (255 where so, a pixel thicker each way as ``_edges`` are): a white card on a white
    cloth where both stand near 255, the card's edge a line a pixel wide some 15 levels darker, which the blur
    before Canny all but wipes out. A pixel ``EDGE_LINE_DARK`` darker than the 3x3 closing of the grey picture,
    where that is ``EDGE_LINE_GLARE`` light at least."""
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    closed = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    lines = cv2.bitwise_and(cv2.compare(cv2.subtract(closed, grey), np.full_like(grey, EDGE_LINE_DARK), cv2.CMP_GT),
                            cv2.compare(closed, np.full_like(grey, EDGE_LINE_GLARE), cv2.CMP_GE))
    out: np.ndarray = cv2.dilate(lines, np.ones((3, 3), np.uint8))
    return out


def _light_mat(white: np.ndarray, lab: np.ndarray) -> bool:
    """The picture is mostly light: paper over ``LIGHT_PAPER`` of it, or its median lighter than ``LIGHT_L``."""
    return cv2.countNonZero(white) > LIGHT_PAPER * white.size or float(np.median(lab[::4, ::4, 0])) > LIGHT_L


def _rim(channel: np.ndarray) -> np.ndarray:
    """The pixels of a band along the picture's edges, 3 % of its shorter side wide (the corners twice)."""
    b = max(1, int(0.03 * min(channel.shape[:2])))
    return np.concatenate([channel[:b].ravel(), channel[-b:].ravel(), channel[:, :b].ravel(), channel[:, -b:].ravel()])


def _rim_lightness(lab: np.ndarray) -> float:
    """The median Lab L of the picture's rim (``_rim``)."""
    return float(np.median(_rim(lab[:, :, 0])))


def _rim_share(mask: np.ndarray) -> float:
    """The share of the picture's rim (``_rim``) that ``mask`` covers."""
    rim = _rim(mask)
    return float(np.count_nonzero(rim)) / max(1, rim.size)


def _without_chips(contour: np.ndarray, regions: np.ndarray, card_area: float) -> list[np.ndarray]:
    """A hand's blob on a light cloth without the chips that touch it: a region its edges enclose on its own
    (``regions``), its hull a disc (compactness over 0.92; a card region's is under 0.9) and under half a card,
    taken out with its rim; the pieces left, at least 0.35 of a card each (none where no chip is)."""
    m, origin, cnts = _regions_in(contour, regions)
    chips = [c for c in cnts if 0.05 * card_area < cv2.contourArea(c) < 0.5 * card_area
             and round_hull(c, 0.92)]
    if not chips:
        return []
    cv2.drawContours(m, chips, -1, 0, -1)
    cv2.drawContours(m, chips, -1, 0, 5)  # and the edge round each
    return _pieces_left(m, origin, card_area)


def _regions_in(contour: np.ndarray, regions: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """A blob's mask over its bounding box, that box's top-left corner, and the outlines (in the box) of the
    regions of ``regions`` inside the blob."""
    x, y, w, h = cv2.boundingRect(contour)
    m = np.zeros((h, w), np.uint8)
    cv2.drawContours(m, [contour], -1, 255, -1, offset=(-x, -y))
    cnts, _ = cv2.findContours(cv2.bitwise_and(regions[y:y + h, x:x + w], m), cv2.RETR_EXTERNAL,
                               cv2.CHAIN_APPROX_SIMPLE)
    return m, np.array([x, y], np.int32), list(cnts)


def _take_out(m: np.ndarray, quad: np.ndarray) -> None:
    """Clear a card found in a blob's mask ``m`` (``quad``, in ``m``'s pixels) from it, with a rim 3 px wide round
    it (what an erosion, or the edge between two cards, leaves of it)."""
    q = np.round(quad).astype(np.int32)
    cv2.fillPoly(m, [q], 0)
    cv2.polylines(m, [q], True, 0, 3)


def _pieces_left(m: np.ndarray, origin: np.ndarray, card_area: float) -> list[np.ndarray]:
    """What is left of a blob's mask ``m`` once cards or chips are taken out of it, thin bridges opened: its
    pieces at least 0.35 of a card, as outlines in the picture (``origin``: where ``m`` starts)."""
    cnts, _ = cv2.findContours(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)), cv2.RETR_EXTERNAL,
                               cv2.CHAIN_APPROX_SIMPLE)
    return [c + origin for c in cnts if cv2.contourArea(c) >= 0.35 * card_area]


def _parted_by_edges(contour: np.ndarray, regions: np.ndarray, card_area: float
                     ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Cards side by side on a light cloth whose edges run into one blob: each card's region of ``regions`` (what
    its edges enclose, apart from its neighbour's) that fills a card-sized, card-shaped rectangle is a card; the rest
    of the blob is left as in ``_eroded_apart``."""
    m, origin, cnts = _regions_in(contour, regions)
    quads: list[np.ndarray] = []
    for c in cnts:
        a = cv2.contourArea(c)
        if not 0.8 < a / card_area < 1.25:
            continue
        rect = cv2.minAreaRect(c)
        (rw, rh) = rect[1]
        if rw < 1 or rh < 1 or a < 0.86 * rw * rh or not card_shaped(max(rw, rh) / min(rw, rh)):
            continue
        q = order_clockwise(cv2.boxPoints(rect))
        quads.append(q + origin.astype(np.float32))
        _take_out(m, q)
    return (quads, _pieces_left(m, origin, card_area)) if quads else ([], [])


def _edge_mask(edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """What lies on a light cloth, from its ``edges`` (``_edges``): every outline filled where it encloses at most
    ``LIGHT_HOLE`` of the picture (a card with its pips and art, a hand, a chip; not the cloth within its hem),
    the pixel the edges were thickened by taken back, and lines that enclose nothing opened away. Also the regions
    alone, without the edges, each grown by that pixel (``_parted_by_edges``: two cards side by side are one
    blob in the first, with the edge between them, and two regions in the second)."""
    # Each hole filled on its own (``_fill`` fills them all in one go, and a pip's hole inside a card's is then
    # filled twice over: left open). The specks the cloth's weave encloses, hundreds of them, too: 1.5 ms of the
    # 4-5; left open they changed a few reads either way on the white-cloth tuning scenes.
    cnts, hier = cv2.findContours(edges, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    holes = np.zeros_like(edges)
    limit = LIGHT_HOLE * edges.size
    for c, link in zip(cnts, hier[0] if hier is not None else []):
        if link[3] >= 0 and cv2.contourArea(c) <= limit:
            cv2.drawContours(holes, [c], 0, 255, -1)
    filled = cv2.erode(cv2.bitwise_or(edges, holes), np.ones((3, 3), np.uint8))  # the edges' extra pixel back off
    out: np.ndarray = cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
    return out, cv2.dilate(holes, np.ones((3, 3), np.uint8))


def _without_big(mask: np.ndarray, share: float) -> np.ndarray:
    """``mask`` without its regions over ``share`` of the picture (a light cloth taken for paper)."""
    cnts, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = [c for c in cnts if cv2.contourArea(c) > share * mask.size]
    if not big:
        return mask
    out = mask.copy()
    cv2.drawContours(out, big, -1, 0, -1)
    return out


def _speckled(other: np.ndarray, white: np.ndarray) -> bool:
    """More than 5 % of the table's pixels are off-colour specks (components under 50 pixels)? A plain
    mat, even under glare and a colour cast, stays under 1 %; carpet is around 15 %."""
    half = other[::2, ::2]  # every other pixel: a quarter of the cost, specks of 50 px are ~12 here
    _, _, stats, _ = components(half)
    specks = int(stats[1:, cv2.CC_STAT_AREA][stats[1:, cv2.CC_STAT_AREA] < 13].sum())
    return specks > 0.05 * max(1, int(np.count_nonzero(white[::2, ::2] == 0)))


def _shaded_paper(small: np.ndarray, known: np.ndarray, card_area: float) -> tuple[list[Blob], np.ndarray]:
    """Paper the white mask missed where the mat is darker than elsewhere (a dim corner, a lamp to one side) or
    tinted: brightness evened out across the picture (raised towards the well-lit mat's level, a heavy blur of
    the brightness with the paper eroded away), then paper found as in ``white_mask``. Only regions clear of
    the cards and hands found so far (``known``, less its scraps and thin slivers: ``SHADE_KNOWN``,
    ``SHADE_THIN``), one to four cards big, with a sharp outline (glare fades out softly) are
    returned, as blobs, with their mask. Evening out the whole picture for the white mask instead costs community
    cards (a glare spot beside them joins them) and real photos (clutter turns to paper). Worked at half the
    working resolution: only card-sized regions are wanted."""
    h, w = small.shape[:2]
    half = cv2.resize(small, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(half, cv2.COLOR_BGR2HSV)
    v = hsv[:, :, 2]
    low = cv2.resize(v, (max(1, v.shape[1] // 4), max(1, v.shape[0] // 4)), interpolation=cv2.INTER_AREA)
    k = max(3, max(low.shape) // 6)
    level = cv2.blur(cv2.erode(low, np.ones((5, 5), np.uint8)), (k, k)).astype(np.float32)
    gain_low = np.clip(float(np.percentile(level, 90)) / np.maximum(level, 8.0), 0.5, 2.5)  # up to the well-lit mat
    gain = cv2.resize(gain_low.astype(np.float32), (v.shape[1], v.shape[0]), interpolation=cv2.INTER_LINEAR)
    even = cv2.multiply(v, gain, dtype=cv2.CV_8U)  # saturates at 255
    score = cv2.subtract(even, hsv[:, :, 1])  # saturates at 0
    t, _ = cv2.threshold(score, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k3 = np.ones((3, 3), np.uint8)
    found = cv2.morphologyEx((score > max(float(t), 90.0)).astype(np.uint8) * 255, cv2.MORPH_OPEN, k3)
    # Clear of the cards, hands and chips found so far, not of every scrap of paper: the white mask may have caught
    # only a sliver or a few bits of a dim or tinted hand (its brightest edge, a glare spot on it), which would cut
    # the hand's paper here into ragged pieces.
    scraps = []
    for c in cv2.findContours(known, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        a = cv2.contourArea(c)
        if a < SHADE_KNOWN * card_area:
            if not round_hull(c, SHADE_CHIP):  # a chip's white face still keeps out (it and a glare spot
                scraps.append(c)                # beside it would pass for a card here)
        elif a < 1.5 * card_area:
            rw, rh = cv2.minAreaRect(c)[1]
            if a < SHADE_THIN * rw * rh:
                scraps.append(c)
    if scraps:
        known = known.copy()
        cv2.drawContours(known, scraps, -1, 0, -1)
    clear = cv2.resize(cv2.dilate(known, np.ones((7, 7), np.uint8)), (v.shape[1], v.shape[0]),
                       interpolation=cv2.INTER_NEAREST)
    found = cv2.bitwise_and(found, cv2.bitwise_not(clear))
    step = cv2.morphologyEx(score, cv2.MORPH_GRADIENT, k3)
    keep = np.zeros_like(found)

    def take(mask: np.ndarray, fill: float = 0.0) -> None:
        for c in cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]:
            a = cv2.contourArea(c)
            if not 0.5 * card_area < 4 * a < 4.5 * card_area:
                continue
            (rw, rh) = cv2.minAreaRect(c)[1]
            if max(rw, rh) > 2.5 * max(min(rw, rh), 1.0) or a < 0.8 * cv2.contourArea(cv2.convexHull(c)):
                continue  # a streak of glare; the light parts of a back's pattern (ragged)
            if not _sharp(c, step):
                continue
            if fill and _covered(c, found) < fill:
                continue
            cv2.drawContours(keep, [c], -1, 255, -1)

    # Closed a little: index glyphs and pips at a card's edge notch its outline, which would look ragged.
    take(cv2.morphologyEx(found, cv2.MORPH_CLOSE, k3))
    # Then closed more, away from what that kept: coloured pips are no paper here, and a ten of hearts in shade
    # is mostly holes and notches. (Paper must still fill SHADE_FILL of it: a carpet's light specks close up
    # into one sharp-edged blob too, mostly carpet.)
    n = max(3, int(SHADE_CLOSE * np.sqrt(card_area / CARD_ASPECT) / 2) | 1)  # (half resolution)
    shut = cv2.morphologyEx(found, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (n, n)))
    take(cv2.bitwise_and(shut, cv2.bitwise_not(cv2.dilate(keep, k3))), SHADE_FILL)
    out: list[Blob] = []
    if not keep.any():
        return out, np.zeros(small.shape[:2], np.uint8)
    keep = cv2.resize(keep, (w, h), interpolation=cv2.INTER_NEAREST)
    for c in cv2.findContours(keep, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        rect = cv2.minAreaRect(c)
        if min(rect[1]) > 0:
            out.append(_blob(c, rect=rect))
    return out, keep


def _blob(contour: np.ndarray, area: float | None = None, rect: RotatedRect | None = None) -> Blob:
    """A blob: its outline, area, bounding rectangle, the share of that rectangle it fills, and the rectangle's
    long side over its short one (``area`` and ``rect`` where they are known already)."""
    rect = cv2.minAreaRect(contour) if rect is None else rect
    a = cv2.contourArea(contour) if area is None else area
    rw, rh = rect[1]
    return contour, a, rect, a / max(rw * rh, 1e-9), max(rw, rh) / max(min(rw, rh), 1e-9)


def _notched_card(contour: np.ndarray, rect: RotatedRect, card_area: float) -> bool:
    """One card whose paper outline big pips near the border notch (a 9 of clubs with a thin margin): its
    convex hull still fills its card-sized rectangle, where two overlapping cards' hull does not."""
    (rw, rh) = rect[1]
    hull = cv2.contourArea(cv2.convexHull(contour))
    return hull > 0.95 * rw * rh and 0.75 < hull / card_area < 1.45


def _loose_backs(other: np.ndarray, faces: np.ndarray, card_area: float, scale: float,
                 dist: np.ndarray, paper: np.ndarray, chroma: np.ndarray) -> list[np.ndarray]:
    """Face-down cards without a white border (or fanned so that it does not close): card-sized regions of
    neither mat nor paper, clear of the face-up cards, not round (chips), no longer than a fan of two
    (``BACK_LONG``), with a sharp outline (``dist``: each pixel's colour distance to the mat; a glare spot on the
    mat fades out softly). Where a back touches the table's own texture off the mat's colour (a wood's darker
    stripes), the two are one region: opened with a kernel ``BACK_OPEN`` card widths across, the stripes go and
    the back stays; what that finds beyond the backs found already is added.

    Then a third look (``paper``: the paper mask): the off-colour regions with the faces left in. A back's thin
    white border broken into bits of paper (a dark mat, a small card) is part of the faces, and taking the faces
    out cut the back into pieces along it, each too small or with an outline not on the back's edge. Kept where
    under BACK_PAPER of the region is paper (a face is mostly paper), it fills BACK_FILL of its rectangle and has
    a straight edge BACK_EDGE card widths long.

    Last, the regions whose hue is off the mat's (``chroma``: over BACK_CHROMA), clear of the faces, held to the
    same fill and straight edge: coloured backs beside a glare spot made one region of neither mat nor paper with
    it (the glare is the mat lit up: its hue is the mat's)."""
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))

    def closed(mask: np.ndarray) -> np.ndarray:
        return _fill(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close))

    k = max(7, int(BACK_OPEN * np.sqrt(card_area / CARD_ASPECT)) | 1)
    clear = cv2.bitwise_not(cv2.dilate(faces, np.ones((5, 5), np.uint8)))
    m = closed(cv2.bitwise_and(other, clear))
    # Each look: the mask, its opening's size, the paper to count in a region (or None), whether a region must
    # fill its rectangle and have a straight edge.
    looks: list[tuple[np.ndarray, int, np.ndarray | None, bool]] = [(m, 7, None, False)]
    if k > 7:
        looks.append((m, k, None, False))
    looks.append((closed(cv2.bitwise_or(other, paper)), 7, paper, True))
    looks.append((closed(cv2.bitwise_and(chroma, clear)), 7, None, True))
    out: list[np.ndarray] = []
    step = None
    for n_look, (src, size, faces_in, shaped) in enumerate(looks):
        opened = cv2.morphologyEx(src, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        cnts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for c in cnts:
            a = cv2.contourArea(c)
            if not 0.6 * card_area < a < 4.5 * card_area:
                continue
            peri = cv2.arcLength(c, True)
            rect = cv2.minAreaRect(c)
            rw, rh = rect[1]
            if _round(a, peri) or a / max(rw * rh, 1) < 0.6 or min(rw, rh) < 0.6 * np.sqrt(card_area / 1.4) or \
                    max(rw, rh) > BACK_LONG * min(rw, rh):
                continue
            if n_look and any(cv2.pointPolygonTest(q, rect[0], False) >= 0 for q in out):
                continue
            if faces_in is not None and _covered(c, faces_in) >= BACK_PAPER:
                continue
            if shaped and (a < BACK_FILL * rw * rh or
                           longest_stretch(c, peri) < BACK_EDGE * np.sqrt(card_area / CARD_ASPECT)):
                continue
            if step is None:
                step = cv2.morphologyEx(dist, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
            if not _sharp(c, step, BACK_STEP):
                continue
            out.append(order_clockwise(cv2.boxPoints(rect)))
    return [q * scale for q in out]


def _edge_estimate(blobs: Sequence[Blob], area_img: float, by_area: bool = False) -> float:
    """Card width from fanned hands: the longest straight stretch of a hand's outline is the top card's long
    side. Round blobs (chips, glare) and huge ones (the mat's edge) do not count. ``by_area``: the median
    weighted by area, where the hands alone set the size: a chip whose outline a glyph notches, or a piece of a
    hand of backs, is small beside a hand."""
    lengths, areas, long = _stretches_of(blobs, area_img)
    if not lengths:
        return 0.0
    # A hand of two or three cards is never twice as long as wide: a longer blob is more likely a row of cards run
    # together, whose edge runs along several cards. Left out where at least two hands agree on the size.
    if any(long) and _hands_agree(lengths, long):
        keep = [not is_long for is_long in long]
        lengths = [x for x, k in zip(lengths, keep) if k]
        areas = [x for x, k in zip(areas, keep) if k]
    if not by_area:
        return float(np.median(lengths)) / CARD_ASPECT
    order = np.argsort(lengths)
    cum = np.cumsum(np.array(areas)[order])
    return float(np.array(lengths)[order][int(np.searchsorted(cum, 0.5 * cum[-1]))]) / CARD_ASPECT


def _stretches_of(blobs: Sequence[Blob], area_img: float) -> tuple[list[float], list[float], list[bool]]:
    """Per blob that may be a hand (not round, not huge): its outline's longest straight stretch, its area, and
    whether it is too long for a hand (``HAND_ASPECT``)."""
    lengths, areas, long = [], [], []
    for c, a, rect, fill, aspect in blobs:
        peri = cv2.arcLength(c, True)
        if peri <= 0 or _round(a, peri) or a > 0.05 * area_img:
            continue
        lengths.append(longest_stretch(c, peri))
        areas.append(float(a))
        long.append(aspect >= HAND_ASPECT)
    return lengths, areas, long


def _hands_agree(lengths: list[float], long: list[bool]) -> bool:
    """At least two hand-shaped blobs' longest stretches within ``HANDS_AGREE`` of their median."""
    short = [x for x, is_long in zip(lengths, long) if not is_long]
    return len(short) >= 2 and sum(abs(x / float(np.median(short)) - 1) < HANDS_AGREE for x in short) >= 2


def _row_estimate(blobs: Sequence[Blob], area_img: float) -> float:
    """Card width from the biggest filled blob longer than a card's shape (a row of touching cards): its short
    side is a card's long side; 0 when there is none. One shorter than a row of three (``ROW_ASPECT``) may be
    two cards stacked, or one card askew: taken only where no two hands agree on the size instead."""
    rows = [b for b in blobs if b[3] > ROW_FILL and b[4] >= ROW_ASPECT]
    if not rows:
        lengths, _, long = _stretches_of(blobs, area_img)
        if not _hands_agree(lengths, long):
            rows = [b for b in blobs if b[3] > ROW_FILL and b[4] >= 1.62]
    if not rows:
        return 0.0
    return float(min(max(rows, key=lambda b: b[1])[2][1])) / CARD_ASPECT


def _closeup_estimate(blobs: Sequence[Blob], area_img: float) -> float:
    """Card width from the biggest paper region when it is too big for a hand at table distance (over 5 % of
    the picture, under half of it) and, taking its longest straight stretch for a card's long side, half a card to
    ``CLOSE_CARDS`` cards big; else 0."""
    big = [b for b in blobs if 0.05 * area_img < b[1] <= 0.5 * area_img]
    if not big:
        return 0.0
    c, a, rect, fill, aspect = max(big, key=lambda b: b[1])
    peri = cv2.arcLength(c, True)
    if peri <= 0 or _round(a, peri):
        return 0.0
    cw = longest_stretch(c, peri) / CARD_ASPECT
    if fill >= FITS_FILL and cw > FITS_ACROSS * min(rect[1]):
        return 0.0  # no card that wide fits across the region: its longest stretch runs along a row of cards
    return cw if 0.5 < a / (cw * cw * CARD_ASPECT) < CLOSE_CARDS else 0.0


def longest_stretch(contour: np.ndarray, perimeter: float) -> float:
    """The longest side of an outline simplified to within 1 % of its perimeter: a card's long side, where one
    shows whole. The outline is started at its point furthest from its centre: the simplification depends on where
    it starts, and where ``findContours`` starts depends on how the picture is turned (a close pair of cards on a
    striped rug said 132 px a card, and 125 turned a quarter round, too small for its area, and went unread)."""
    pts = contour.reshape(-1, 2)
    if len(pts) > 2:
        d = pts.astype(np.float64) - pts.mean(axis=0)
        contour = np.roll(pts, -int(np.argmax((d * d).sum(axis=1))), axis=0).reshape(-1, 1, 2)
    poly = cv2.approxPolyDP(contour, 0.01 * perimeter, True).reshape(-1, 2).astype(np.float64)
    return float(np.linalg.norm(poly - np.roll(poly, 1, axis=0), axis=1).max())


def _whiteness(white: np.ndarray, quad: np.ndarray) -> float:
    """Share of white paper inside the middle of a card outline: faces are mostly paper, backs are not."""
    c = quad.mean(axis=0)
    inner = (c + (quad - c) * 0.75).astype(np.int32)
    m = np.zeros_like(white)
    cv2.fillConvexPoly(m, inner, 255)
    sel = m > 0
    paper = cv2.erode(white, np.ones((3, 3), np.uint8))  # a back's light speckles are not paper
    return float((paper[sel] > 0).mean()) if sel.any() else 0.0


def _split_rect(rect: RotatedRect, card_w: float, fill: float) -> list[np.ndarray] | None:
    """A rectangle of cards touching edge to edge (a community row, a grid of laid-out cards): split it into
    the i x j grid of card-sized, card-shaped pieces that fits best."""
    (rw, rh) = rect[1]
    box = cv2.boxPoints(rect)
    # Sides: box[0]->box[1] and box[1]->box[2], whatever OpenCV's angle convention.
    a, b, c = box[0].astype(np.float64), box[1].astype(np.float64), box[2].astype(np.float64)
    la, lb = float(np.linalg.norm(b - a)), float(np.linalg.norm(c - b))
    best, best_err = None, 0.25
    for i in range(1, 9):
        for j in range(1, 9):
            if i * j < 2:
                continue
            pa, pb = la / i, lb / j
            short, long_ = min(pa, pb), max(pa, pb)
            shape_err = abs(long_ / short / CARD_ASPECT - 1)
            err = abs(short / card_w - 1) + shape_err
            if err < best_err and shape_err < SPLIT_SHAPE:
                best, best_err = (i, j), err
    if best is None:
        return None
    i, j = best
    ua, ub = (b - a) / i, (c - b) / j
    quads = []
    for x in range(i):
        for y in range(j):
            o = a + ua * x + ub * y
            quads.append(order_clockwise(np.array([o, o + ua, o + ua + ub, o + ub], np.float32)))
    return quads


def _v_gap(contour: np.ndarray, halves: list[np.ndarray], card_w: float) -> bool:
    """Two cards side by side a little askew leave a V-shaped gap between them: the outline's deepest dent
    (at least ``0.04`` card widths deep) lies on the line the halves share. A fanned hand that fills as much of
    its rectangle has its dents at the steps between its cards, off that line."""
    hull = cv2.convexHull(contour, returnPoints=False)
    if hull is None or len(hull) < 4:
        return False
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # a self-touching outline
        return False
    if defects is None:
        return False
    row = max(defects.reshape(-1, 4).tolist(), key=lambda d: d[3])
    far, depth = int(row[2]), float(row[3])
    if depth / 256.0 < 0.04 * card_w:
        return False
    a, b = halves[0], halves[1]
    shared = [p for p in a if np.min(np.linalg.norm(b - p, axis=1)) < 1e-3 * card_w + 1e-3]
    if len(shared) != 2:
        return False
    p0, p1 = shared
    d = p1 - p0
    q = contour[far, 0].astype(np.float64)
    off = abs(float(d[0] * (q[1] - p0[1]) - d[1] * (q[0] - p0[0]))) / max(float(np.linalg.norm(d)), 1e-6)
    return off < 0.12 * card_w


def _eroded_apart(contour: np.ndarray, card_w: float, card_area: float
                  ) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Cards that touch or overlap only at a corner or along a short stretch (a deck laid out in rows a little
    askew, community cards nudged together): eroded by ``ERODE_APART`` (card widths, least first), the blob falls
    apart into pieces; a piece that is a whole card's rectangle shrunk by the erosion is that card (its outline
    grown back) and is taken out, and what is left is eroded further. Returns the cards' outlines and what is
    left of the blob once they are taken out (contours; a hand's overlapping cards, which do not fall apart so,
    for the corner search); nothing when no card comes apart. (Working pixels, like ``contour``.)"""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    m = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(m, [contour], -1, 255, -1, offset=(pad - x, pad - y))
    quads: list[np.ndarray] = []
    for frac in ERODE_APART:
        k = max(3, int(round(frac * card_w)) | 1)
        eroded = cv2.erode(m, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        n, labels, stats, _ = components(eroded)
        pieces = [i for i in range(1, n) if stats[i, 4] > 0.1 * card_area]  # crumbs of a ragged edge aside
        if len(pieces) < 2 and not quads:
            continue  # nothing falls apart (yet)
        for i in pieces:
            pts = np.column_stack(np.nonzero(labels == i)[::-1]).astype(np.float32)
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
            if rw < 1 or rh < 1 or stats[i, 4] < 0.86 * rw * rh:
                continue
            rw, rh = rw + k - 1, rh + k - 1  # grown back by the erosion's reach on each side
            if not card_shaped(max(rw, rh) / min(rw, rh)) or not 0.8 < rw * rh / card_area < 1.25:
                continue
            q = order_clockwise(cv2.boxPoints(((cx, cy), (rw, rh), ang)))
            quads.append(q + np.array([x - pad, y - pad], np.float32))
            _take_out(m, q)
    if not quads:
        return [], []
    return quads, _pieces_left(m, np.array([x - pad, y - pad], np.int32), card_area)


def _closed(contour: np.ndarray, k: int) -> np.ndarray:
    """The blob's outline with notches narrower than k working pixels closed (index glyphs at a card's edge)."""
    x, y, w, h = cv2.boundingRect(contour)
    m: np.ndarray = np.zeros((h + 2 * k, w + 2 * k), np.uint8)
    cv2.drawContours(m, [contour], -1, 255, -1, offset=(k - x, k - y))
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    cnts, _ = cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return max(cnts, key=cv2.contourArea) + np.array([x - k, y - k], np.int32)


def _corners(contour: np.ndarray, cw: float, blob: int, scale: float) -> list[CornerCandidate]:
    """Candidate index corners of a blob that is not one whole card (fanned pocket cards, overlaps), each frame
    squared up on a line fitted to a whole straight stretch of the outline:

    - two straight stretches that meet at a right angle, with at most a short bit of outline between them (a
      rounded corner, a glyph at the card's edge notching the outline): the corner is where their lines meet.
      The same on the blob's convex hull, which bridges the steps a fanned hand's edge makes where the lower
      card's edge and the top card's run nearly in line;
    - a stretch that ends in a convex turn, however small: in a fanned hand the lower card's visible corner is
      where one of its edges ends and the outline turns inwards along its other edge, for however little of it
      the card on top leaves visible. An edge that ends in a concave turn, or runs straight on, goes under
      another card there: no corner. The corner lies on the fitted line where the outline has risen off it.

    Only one frame at a corner is unmirrored, so each corner gives one candidate, with an upright index reading
    left to right along x.
    """
    out: list[CornerCandidate] = []

    def add(o: np.ndarray, along: np.ndarray, nrm: np.ndarray) -> None:
        xa, ya = (along, nrm) if along[0] * nrm[1] - along[1] * nrm[0] > 0 else (nrm, along)
        if any(np.linalg.norm(o * scale - c.origin) < 0.05 * cw * scale and np.dot(xa, c.x_axis) > 0.99 * cw * scale
               for c in out):
            return
        out.append(CornerCandidate(o * scale, xa * cw * scale, ya * cw * scale, blob))

    hull = cv2.convexHull(contour)
    for outline in (contour, hull):
        dense, segs = _stretches(outline, cw)
        n = len(dense)
        paired = set()
        for k, (a, b, c, u, nrm) in enumerate(segs):
            a2, b2, c2, u2, nrm2 = segs[(k + 1) % len(segs)]
            if len(segs) < 2 or (a2 - b) % n > 0.4 * cw or abs(float(np.dot(u, u2))) > 0.26:
                continue
            p = _meet((c, u), (c2, u2))
            if p is None or np.dot(nrm2, -u) <= 0 or np.dot(nrm, u2) <= 0:  # a concave turn
                continue
            if not (-0.05 * cw < np.dot(p - dense[b % n], u) < 0.3 * cw
                    and -0.05 * cw < np.dot(dense[a2 % n] - p, u2) < 0.3 * cw):
                continue
            add(p, -u, nrm) if b - a >= b2 - a2 else add(p, u2, nrm2)  # squared up on the longer edge
            paired |= {(k, 1), ((k + 1) % len(segs), 0)}
        if outline is hull:
            break
        reach = max(3, int(0.12 * cw))
        for k, (a, b, c, u, nrm) in enumerate(segs):
            for e, (end, step, along) in enumerate(((a, -1, u), (b, 1, -u))):
                if (k, e) in paired:
                    continue
                # The outline beyond this end in the stretch's frame: t outwards along the line, h inwards off it.
                beyond = dense[np.arange(end, end + step * reach, step) % n] - c
                t, h = beyond @ -along, beyond @ nrm
                turn = h > 0.03 * cw
                if not turn.any() or (h < -0.03 * cw).any():
                    continue
                add(c - along * float(t[:int(np.argmax(turn)) + 1].max()), along, nrm)
    return out


def resampled(contour: np.ndarray, step: float) -> tuple[np.ndarray, float]:
    """A closed outline's points ``step`` pixels apart along it (n x 2, float64; a contour keeps only the ends
    of straight runs), and its length."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    closed = np.vstack([pts, pts[:1]])
    arc = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(closed, axis=0), axis=1))])
    s_pos = np.arange(0.0, arc[-1], step)
    dense = np.stack([np.interp(s_pos, arc, closed[:, 0]), np.interp(s_pos, arc, closed[:, 1])], axis=1)
    return dense, float(arc[-1])


def _stretches(contour: np.ndarray, cw: float) -> tuple[np.ndarray, list[Stretch]]:
    """The outline evenly resampled one working pixel apart (a contour keeps only the ends of straight runs),
    and its straight stretches at least a fifth of a card long: (start, end) indices into it (end may pass the
    wrap-around), a point on the line fitted to the stretch less its (rounded) ends, the unit direction of
    travel, and the normal pointing into the blob."""
    dense, _ = resampled(contour, 1.0)
    n = len(dense)
    if n < 16:
        return dense, []
    dense32 = dense.astype(np.float32)
    poly = cv2.approxPolyDP(dense32.reshape(-1, 1, 2), max(1.0, 0.025 * cw), True).reshape(-1, 2)
    # The polygon's vertices are points of the outline: their indices (the last, where a spur passes one twice).
    same = (dense32[::-1, None, :] == poly[None, :, :].astype(np.float32)).all(axis=2)
    vidx = sorted((n - 1 - np.argmax(same, axis=0)).tolist())
    area2 = np.sum(dense[:, 0] * np.roll(dense[:, 1], -1) - np.roll(dense[:, 0], -1) * dense[:, 1])
    side = 1.0 if area2 > 0 else -1.0  # which side of the direction of travel the blob lies on
    trim = max(1, int(0.04 * cw))
    spans: list[tuple[int, int]] = []
    for a, b in zip(vidx, vidx[1:] + [vidx[0] + n]):
        if b - a < 0.12 * cw:
            continue
        # Neighbouring pieces nearly in line are one stretch (a notch or a slight bend split them).
        if spans and a - spans[-1][1] <= 2 * trim and _bend(dense, n, spans[-1], (a, b)) < 0.14:
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    if len(spans) > 1 and spans[0][0] + n - spans[-1][1] <= 2 * trim and _bend(dense, n, spans[-1], spans[0]) < 0.14:
        spans[0] = (spans[-1][0] - n, spans[0][1])
        spans.pop()
    segs: list[Stretch] = []
    for a, b in spans:
        if b - a < 0.2 * cw:
            continue
        c, u = _line(dense[np.arange(a + trim, b - trim + 1) % n])
        if np.dot(u, dense[b % n] - dense[a % n]) < 0:
            u = -u
        segs.append((a, b, c, u, side * np.array([-u[1], u[0]])))
    return dense, segs


def _bend(dense: np.ndarray, n: int, s1: tuple[int, int], s2: tuple[int, int]) -> float:
    """Sine of the angle between two pieces of outline, from their end points."""
    u = dense[s1[1] % n] - dense[s1[0] % n]
    v = dense[s2[1] % n] - dense[s2[0] % n]
    return abs(float(u[0] * v[1] - u[1] * v[0])) / (float(np.linalg.norm(u) * np.linalg.norm(v)) + 1e-9)


def _meet(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    (p, u), (q, v) = a, b
    det = u[0] * -v[1] - u[1] * -v[0]
    if abs(det) < 0.3:
        return None
    t = ((q - p)[0] * -v[1] - (q - p)[1] * -v[0]) / det
    out: np.ndarray = p + t * u
    return out


def _line(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(point on the line, unit direction) fitted to points (least squares)."""
    c = points.mean(axis=0)
    d = points - c
    sxx, syy, sxy = float(d[:, 0] @ d[:, 0]), float(d[:, 1] @ d[:, 1]), float(d[:, 0] @ d[:, 1])
    a = 0.5 * np.arctan2(2 * sxy, sxx - syy)  # the direction of largest spread
    return c, np.array([np.cos(a), np.sin(a)])
