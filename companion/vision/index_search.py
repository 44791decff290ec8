"""Find corner indices directly: rank-over-suit glyph pairs inside a hand of fanned cards.

A lower card in a fanned hand may show its corner index with no corner of its outline to be seen (the middle
card of three, a corner the card above nearly covers), so the outline's corners (``detect._corners``) miss it.
The index itself still shows: a rank glyph with the suit glyph just below it, about as big as each other and
about their own height apart. Such pairs are found as ink components in a crop of the hand scaled to
``WORK_CW`` pixels per card width; each pair gives a card frame (y from the rank down to the suit, squared up on
the nearest straight edge of the hand), which the reader reads like any other guessed corner.

What else makes such pairs is cut down before anything is read: the suit must be a solid, squarish blob (not
the broken stroke of a picture frame), big pips sit further apart than their own size, a pair must run along
an edge of the hand, and the card's corner, up and left of its index, must show (up and left of a pip, or of a
suit taken for the rank, is the card itself). The table between the cards is told from ink by its colour.
The reader then reads only the frames no other read explains (``Reader._read_indices``). In a hand that still
lacks a card it also reads a few pairs whose card corner would lie on the hand, not off it (``frames_in(on_card=
True)``): a card laid on another has its corner on that card's paper, where no outline and no table show it.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detect import components, resampled, shrink

WORK_CW = 120  # working crop: pixels per card width
GLYPH_MIN, GLYPH_MAX = 0.055, 0.24  # an index glyph's longer side, card widths
MARGIN = 0.045  # the frame starts this far above and left of the rank glyph, card widths
CORNER_REACH = 0.22  # card widths up and left of the rank glyph's centre: beyond the card's corner
NEAR_REACH = 0.12  # card widths up and left of the rank glyph's extent: beyond the corner (broken pieces)
SNAP_DEG = 10.0  # a pair's axis must run within this of a straight edge of the hand, and takes its direction
MAT_DIST = 40  # Lab L1 distance from the table's colour below which a pixel is table, not ink
DARK_MAT = 60  # a table darker than this (Lab L, 0-255) may hide black ink in its colour
EDGE_GAP = -0.02  # an index glyph's centre lies at least this far inside the hand's hull, card widths
HULL_GROW = 0.1  # the hand's hull is searched with half this margin around it, card widths
EDGE_LINE = 0.35  # straight lines at least this long (card widths) in a hand's ink are card edges, not glyphs
CROP_PAD = 0.05  # the crop reaches this far beyond the outline's bounding box, card widths
# The hull redrawn round the card pixels (not the table's colour) at the working resolution, up to this far
# (card widths) beyond the outline's hull: the low-resolution outline cuts a card's corner off where its index
# lies at the hand's edge (red pips on a red mat notch it, a rounded corner blurs away beside small cards).
WIDER_REACH = 0.15
WIDER_MIN = 0.02  # ...when that adds at least this much area (square card widths)
# A pair whose card corner would lie this far inside the hand (card widths) at most is still read where the hand
# lacks a card: the corner of a card laid on another card lies on that card's paper (``frames_in(on_card=True)``).
ON_CARD = 0.5
ERODES = (3, 5)  # the square erosions that break a glyph from the ink it touches (by one pixel, then two)


@dataclass
class IndexFrame:
    """A corner frame for ``Reader.read_corner``: ``origin`` and ``x_axis``/``y_axis`` one card width long,
    full-resolution pixels; ``rank_centre`` where the rank glyph is."""

    origin: np.ndarray
    x_axis: np.ndarray
    y_axis: np.ndarray
    rank_centre: np.ndarray
    # Deep frames: how far inside the hand the card's corner would be (working px; < 0: off); on-card frames
    # (``frames_in(on_card=True)``): how far inside it the point beyond that corner is.
    inside: float = 0.0


@dataclass
class HandInk:
    """A hand's crop at ``WORK_CW`` pixels per card width: its ink (binary), where the crop starts in the
    picture, and the hand's outline and hull in crop pixels."""

    binary: np.ndarray
    origin: tuple[int, int]
    outline: np.ndarray
    hull: np.ndarray
    components: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None  # the binary's, once counted
    # The same crop searched within the hull redrawn at this resolution (``WIDER_REACH``), where that hull is
    # bigger: frames there whose rank this hull does not take in (``takes_in``) are read too.
    wider: "HandInk | None" = None

    def takes_in(self, point: np.ndarray, card_w: float) -> bool:
        """Whether a glyph centred at ``point`` (full-resolution pixels; cards ``card_w`` wide) is searched here:
        inside the hull, or no further out of it than ``EDGE_GAP``."""
        p = (np.asarray(point, np.float64) - self.origin) * (WORK_CW / card_w)
        return bool(cv2.pointPolygonTest(self.hull, (float(p[0]), float(p[1])), True) >= EDGE_GAP * WORK_CW)


def hand_ink(image: np.ndarray, outline: np.ndarray, card_w: float) -> HandInk | None:
    """The ink inside (and just around) a hand: darker than the local paper, not the table's colour."""
    if card_w < 8:
        return None
    k = WORK_CW / card_w
    pad = int(CROP_PAD * card_w)
    bx, by, bw, bh = cv2.boundingRect(outline.astype(np.float32))
    x0, y0 = max(bx - pad, 0), max(by - pad, 0)
    x1, y1 = min(bx + bw + pad, image.shape[1]), min(by + bh + pad, image.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    size = (max(1, int(round((x1 - x0) * k))), max(1, int(round((y1 - y0) * k))))
    crop = shrink(image[y0:y1, x0:x1], size, nearest_first=k < 0.6)
    work_outline = ((outline - (x0, y0)) * k).reshape(-1, 1, 2).astype(np.float32)
    # The hand's convex hull: an index at a card's edge notches the paper outline, the hull takes it in.
    hull = cv2.convexHull(work_outline)
    inside = _filled(hull, crop.shape)
    # An index at the very edge of a hand may lie a little outside even the hull (the paper outline is found at
    # low resolution and ink notches it): take in a margin; the table there is told apart by its colour.
    grow = int(HULL_GROW * WORK_CW) | 1
    mask = cv2.dilate(inside, np.ones((grow, grow), np.uint8))
    # Ink against the local paper: each channel's local maximum is the paper there (glare and shade vary
    # across a hand), any channel darker than it is ink (black, red, orange, grey or bluish).
    r = int(0.12 * WORK_CW)
    paper = cv2.dilate(crop, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1)))
    diff = cv2.subtract(paper, crop)
    ink = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
    level = cv2.max(cv2.max(paper[:, :, 0], paper[:, :, 1]), paper[:, :, 2])
    floor = (np.maximum(level, 60).astype(np.uint16) * 3 // 10).astype(np.uint8)  # 30 % of the paper's level
    darker = cv2.compare(ink, floor, cv2.CMP_GT)
    binary = cv2.bitwise_and(darker, mask)
    # The table showing between the cards is darker than the paper too, and would join an index at a card's
    # edge to itself: what has the table's colour (the crop's colour outside the hull) is not ink.
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)
    outside = lab[::4, ::4][mask[::4, ::4] == 0]
    if len(outside) >= 20:
        mat = tuple(float(v) for v in np.median(outside, axis=0)) + (0.0,)
        d0, d1, d2 = cv2.split(cv2.absdiff(lab, mat))  # type: ignore[call-overload]  # a Scalar; the stub says no
        far = cv2.add(cv2.add(d0, d1), d2)
        not_mat = cv2.compare(far, np.full_like(far, MAT_DIST), cv2.CMP_GT)
        if mat[0] < DARK_MAT:
            # Black ink on a dark mat has the table's colour too: a glyph-sized piece of it walled in by paper is
            # ink. (A sliver of table between two cards is longer than a glyph; on a lighter mat a piece of table
            # in a card's rounded corner would join the index there.)
            _, parts, stats, _ = components(cv2.bitwise_not(not_mat))
            x, y, w, h, _ = stats.T
            table = (x == 0) | (y == 0) | (x + w == crop.shape[1]) | (y + h == crop.shape[0]) | (
                np.maximum(w, h) > GLYPH_MAX * WORK_CW)
            table[0] = False
            not_mat = np.where(table[parts], 0, 255).astype(np.uint8)
        out = HandInk(_without_card_edges((cv2.bitwise_and(binary, not_mat) > 0).astype(np.uint8)), (x0, y0),
                      work_outline, hull)
        if (redrawn := _redrawn_hull(hull, inside, not_mat)) is not None:
            wide = cv2.dilate(_filled(redrawn, inside.shape), np.ones((grow, grow), np.uint8))
            # The ink the hand's own hull took in, cleared of card edges already, and what the redrawn one adds.
            added = cv2.bitwise_and(cv2.bitwise_and(darker, cv2.subtract(wide, mask)), not_mat)
            if cv2.countNonZero(added):
                out.wider = HandInk(out.binary | (added > 0).astype(np.uint8), (x0, y0), work_outline, redrawn)
        return out
    return HandInk(_without_card_edges((binary > 0).astype(np.uint8)), (x0, y0), work_outline, hull)


def _filled(hull: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A mask of ``shape`` with ``hull`` filled (255)."""
    out = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(out, [np.round(hull.reshape(-1, 2)).astype(np.int32)], 255)
    return out


def _redrawn_hull(hull: np.ndarray, inside: np.ndarray, not_mat: np.ndarray) -> np.ndarray | None:
    """The hand's hull (``inside`` filled) redrawn round the pixels not of the table's colour (``not_mat``) that
    join it within ``WIDER_REACH`` of it, or None where that adds less than ``WIDER_MIN``."""
    reach = 2 * int(WIDER_REACH * WORK_CW / 2) + 1
    near = cv2.bitwise_and(not_mat, cv2.dilate(inside, np.ones((reach, reach), np.uint8)))
    near = cv2.morphologyEx(near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))  # not specks of the table
    n, labels = cv2.connectedComponents(near, connectivity=8)
    joined = np.bincount(labels[inside > 0], minlength=n) > 0
    joined[0] = False
    if not joined.any():
        return None
    cnts, _ = cv2.findContours(np.where(joined, 255, 0).astype(np.uint8)[labels], cv2.RETR_EXTERNAL,
                               cv2.CHAIN_APPROX_SIMPLE)
    redrawn = cv2.convexHull(np.concatenate([hull.reshape(-1, 2)] + [c.reshape(-1, 2) for c in cnts]).astype(np.float32))
    if cv2.contourArea(redrawn) < cv2.contourArea(hull) + WIDER_MIN * WORK_CW * WORK_CW:
        return None
    return redrawn


def _without_card_edges(binary: np.ndarray) -> np.ndarray:
    """``binary`` less the long, thin straight lines in it: the edges of the cards in a hand (where one card lies
    on another its edge is a thin dark line), which an index at the edge of a card beneath touches, so that its
    suit is no solid blob. No index glyph is as long (``EDGE_LINE``, against ``GLYPH_MAX``). Lines are looked
    for among the thin strokes only (what a 5x5 opening takes away): fewer points, and none inside a solid pip
    or picture, through which a line could be drawn too."""
    thin = cv2.bitwise_and(binary, 1 - cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)))
    lines = cv2.HoughLinesP(thin, 1, np.pi / 180, int(EDGE_LINE * WORK_CW), minLineLength=EDGE_LINE * WORK_CW,
                            maxLineGap=2)
    if lines is None:
        return binary
    out = binary.copy()
    for x1, y1, x2, y2 in lines.reshape(-1, 4).tolist():
        cv2.line(out, (int(x1), int(y1)), (int(x2), int(y2)), 0, 3)
    return out


def index_frames(image: np.ndarray, outline: np.ndarray, card_w: float, deep: bool = False) -> list[IndexFrame]:
    """Frames of every rank-over-suit glyph pair inside ``outline`` (a hand's outline, full-resolution pixels),
    both ways round (which glyph is the rank is the classifiers' call).

    ``deep``: only the frames of pairs with a glyph that touched other ink, broken from it (``_glyphs``): a
    second, costlier pass for a hand whose cards the first did not all explain."""
    ink = hand_ink(image, outline, card_w)
    return frames_in(ink, card_w, deep) if ink is not None else []


def frames_in(ink: HandInk, card_w: float, deep: bool = False, on_card: bool = False) -> list[IndexFrame]:
    """:func:`index_frames` of a hand whose ink is found already.

    ``on_card``: instead, the frames of the plain pairs whose card corner would lie inside the hand, not off it
    (``ON_CARD``): a card laid on another card has its corner on that card's paper, where no outline shows it. Most
    such pairs are pips (up and left of a pip is its own card), so the reader reads these last, and only in a
    hand that still lacks a card (``Reader._read_indices``); the ones nearest the hand's edge first."""
    if ink.components is None:
        ink.components = components(ink.binary)
    labels, stats, cents, keep, n_plain = _glyphs(ink.binary, ink.components, deep)
    lo = GLYPH_MIN * WORK_CW
    side = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float64)
    ids = [int(i) for i in np.flatnonzero(keep)
           if cv2.pointPolygonTest(ink.hull, (float(cents[i][0]), float(cents[i][1])), True) >= EDGE_GAP * WORK_CW]
    if len(ids) < 2:
        return []
    g = np.array(ids)
    # A suit is a solid, squarish blob (the broken stroke of a picture frame or a card's edge is not).
    solid = (np.minimum(stats[g, 2], stats[g, 3]) >= 0.5 * side[g]) & (stats[g, 4] >= 0.3 * stats[g, 2] * stats[g, 3])
    # Pairs about as big as each other and about their own size apart (big pips are further apart).
    pts = cents[g]
    dist = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    big = np.maximum(side[g][:, None], side[g][None])
    small = np.minimum(side[g][:, None], side[g][None])
    ok = (small >= 0.4 * big) & (dist >= 0.55 * big) & (dist <= 1.6 * big) & solid[None, :]  # [rank, suit]
    if deep:
        broken = g >= n_plain
        ok &= broken[:, None] | broken[None, :]
    edges = edge_angles(ink.outline)
    corner = CORNER_REACH * WORK_CW
    scale = card_w / WORK_CW
    at = np.array(ink.origin, np.float64)
    out: list[IndexFrame] = []
    for a, b in zip(*np.nonzero(ok)):
        axes = _axes(pts[b] - pts[a], edges)
        if axes is None:
            continue
        xa, ya = axes
        # The card's corner lies up and left of its index, and shows (else the index would not): a point
        # beyond it is off the hand, or at its very edge. Up and left of a suit taken for the rank, or of a pip,
        # is the card itself.
        beyond = pts[a] - corner * (xa + ya)
        depth = cv2.pointPolygonTest(ink.outline, (float(beyond[0]), float(beyond[1])), True)
        off_hand = depth <= 0.04 * WORK_CW
        if off_hand == on_card or depth > ON_CARD * WORK_CW:  # (on_card: the corner on the hand, not too deep)
            continue
        o = _origin(labels, stats, int(g[a]), xa, ya)
        if o is None:
            continue
        inside = 0.0
        if deep:
            # Broken pieces are as often pips broken from a card's edge: the card's corner must lie just up and
            # left of the rank, not only somewhere beyond it.
            near = o - (NEAR_REACH - MARGIN) * WORK_CW * (xa + ya)
            inside = cv2.pointPolygonTest(ink.outline, (float(near[0]), float(near[1])), True)
            if inside > 0.04 * WORK_CW:
                continue
        out.append(IndexFrame(at + o * scale, xa * card_w, ya * card_w, at + pts[a] * scale,
                              depth if on_card else inside))
    # Deep frames, likeliest first: the corner plainly off the hand; frames on a card, the corner nearest its edge.
    return sorted(out, key=lambda f: f.inside) if deep or on_card else out


def _glyphs(binary: np.ndarray, counted: tuple[int, np.ndarray, np.ndarray, np.ndarray], deep: bool = False
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
    """The ink's connected components, ``counted`` (count, labels, stats, centroids), and which are
    glyph-sized, and how many components the ink has (``deep`` adds pieces after those).

    ``deep``: a glyph that touches another glyph or a thin line (its own suit under a blurred rank, a card's
    edge, the frame of a picture) is no glyph-sized component. Where the ink is eroded by one pixel, then by
    two (``ERODES``), those necks break: the glyph-sized pieces of the eroded ink that lie inside a component
    too big to be a glyph, and are not that component merely shrunk (a big pip), are added as components of
    their own (label ids after the first pass's; a piece the one-pixel erosion found already is not added
    again), and so are the halves of a component a rank and suit make together, cut at its waist
    (``waist_cut``). (The two-pixel erosion reads no more cards at the default card size, but beside small
    cards, whose blur is about two working pixels, it does.)"""
    n, labels, stats, cents = counted
    lo, hi = GLYPH_MIN * WORK_CW, GLYPH_MAX * WORK_CW

    def glyph_sized(st: np.ndarray) -> np.ndarray:
        side = np.maximum(st[:, 2], st[:, 3])
        out: np.ndarray = (side >= lo) & (side <= hi) & (st[:, 4] >= 0.15 * lo * lo)
        return out

    keep = glyph_sized(stats)
    keep[0] = False  # the background
    if not deep:
        return labels, stats, cents, keep, n
    new: list[tuple[np.ndarray, int, int, np.ndarray]] = []  # stats and centroid, where, the piece's mask
    side = np.maximum(stats[:, 2], stats[:, 3])
    taken = np.zeros_like(binary)
    for size in ERODES:
        eroded = cv2.erode(binary, np.ones((size, size), np.uint8))
        _, elabels, estats, ecents = components(eroded)
        # Erosion keeps a piece inside one first-pass component, its owner.
        owner = np.zeros(len(estats), np.int32)
        owner[elabels.ravel()] = labels.ravel()
        # Broken off, not merely shrunk: a big pip eroded is a glyph-sized blob too.
        shrunk = np.maximum(estats[:, 2], estats[:, 3]) > 0.8 * side[owner]
        sized = glyph_sized(estats) & ~keep[owner] & ~shrunk
        sized[0] = False
        for j in np.flatnonzero(sized):
            x, y, w, h = (int(v) for v in estats[j, :4])
            own = elabels[y:y + h, x:x + w] == j
            if taken[y:y + h, x:x + w][own].any():
                continue
            new.append((np.concatenate([estats[j], ecents[j]]), x, y, own))
            taken[y:y + h, x:x + w][own] = 1
    # A rank and its suit run together (a blurred index whose glyphs nearly touch): one solid component about
    # one glyph wide and up to two long, cut across its long axis at its waist.
    short = np.minimum(stats[:, 2], stats[:, 3])
    tall = (side > hi) & (side <= 2.2 * hi) & (short >= lo) & (short <= 1.25 * hi) & (stats[:, 4] >= 0.3 * side * short)
    tall[0] = False
    for i in np.flatnonzero(tall):
        x, y, w, h = (int(v) for v in stats[i, :4])
        for piece in waist_cut(labels[y:y + h, x:x + w] == i):
            st = _piece_stats(piece, x, y)
            if glyph_sized(st[None, :5])[0] and not taken[y:y + h, x:x + w][piece].any():
                new.append((st, x, y, piece))
    if not new:
        return labels, stats, cents, keep, n
    labels = labels.astype(np.int32)  # a copy, and room for the new ids past 16-bit labels' 65,535
    for k, (_, x, y, own) in enumerate(new):
        labels[y:y + own.shape[0], x:x + own.shape[1]][own] = n + k
    extra = np.array([st for st, *_ in new])
    stats = np.concatenate([stats, extra[:, :5].astype(stats.dtype)])
    cents = np.concatenate([cents, extra[:, 5:]])
    keep = np.concatenate([keep, np.ones(len(new), bool)])
    return labels, stats, cents, keep, n


def waist_cut(mask: np.ndarray, max_neck: float = 1.0) -> list[np.ndarray]:
    """``mask`` (one component) cut in two across its long axis where it is narrowest, within its middle
    40 %; the two sides as masks of ``mask``'s shape (the cut's own row of pixels left out). No cut (an empty
    list) where the narrowest place is wider than ``max_neck`` of the widest: no waist, one glyph."""
    ys, xs = np.nonzero(mask)
    # The smallest rectangle round the mask's outer contours is the one round all its pixels (the hull's corners
    # lie on them), at a fraction of the cost.
    cnts, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (rw, rh), ang = cv2.minAreaRect(np.concatenate(cnts))
    a = np.radians(ang if rw >= rh else ang + 90.0)
    t = xs * np.cos(a) + ys * np.sin(a)
    t = np.round(t - t.min()).astype(int)
    profile = np.bincount(t)
    n = len(profile)
    lo, hi = int(0.3 * n), int(0.7 * n) + 1
    if hi - lo < 1:
        return []
    cut = lo + int(np.argmin(profile[lo:hi]))
    if profile[cut] > max_neck * profile.max():
        return []
    out = []
    for side in (t < cut, t > cut):
        piece = np.zeros_like(mask)
        piece[ys[side], xs[side]] = True
        out.append(piece)
    return out


def _piece_stats(piece: np.ndarray, x0: int, y0: int) -> np.ndarray:
    """``connectedComponentsWithStats``-style stats (x, y, w, h, area) and centroid of a mask whose top-left
    pixel lies at (``x0``, ``y0``)."""
    ys, xs = np.nonzero(piece)
    if not len(xs):
        return np.zeros(7)
    xs, ys = xs + x0, ys + y0
    return np.array([xs.min(), ys.min(), xs.max() - xs.min() + 1, ys.max() - ys.min() + 1, len(xs),
                     xs.mean(), ys.mean()], np.float64)


def _axes(v: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Unit x and y of a card whose index has its suit ``v`` below the rank, squared up on the nearest edge
    direction of the hand; None when no edge runs within ``SNAP_DEG`` of it (pips and art at odd angles)."""
    ang = float(np.degrees(np.arctan2(v[1], v[0])))
    if not len(edges):
        return None
    # Card edges run at these angles (mod 90); the glyph centres are only roughly one above the other.
    diff = (edges - ang + 45.0) % 90.0 - 45.0
    j = int(np.argmin(np.abs(diff)))
    if abs(diff[j]) > SNAP_DEG:
        return None
    ang += float(diff[j])
    y = np.array([np.cos(np.radians(ang)), np.sin(np.radians(ang))])
    return np.array([y[1], -y[0]]), y


def _origin(labels: np.ndarray, stats: np.ndarray, rank: int, x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """The frame's origin (working pixels): ``MARGIN`` above and left of the rank glyph's extent along x, y.
    (Not of a glyph beside it: in a fanned hand that is as often the index of the card beneath as the '1' of a
    '10'. A frame that cuts a '10' leaves a sliver the reader does not read, ``MIN_RANK_OVER_SUIT``.)"""
    bx, by, bw, bh = (int(v) for v in stats[rank, :4])
    ys, xs = np.nonzero(labels[by:by + bh, bx:bx + bw] == rank)
    if not len(xs):
        return None
    u = (xs + bx) * x[0] + (ys + by) * x[1]
    w = (xs + bx) * y[0] + (ys + by) * y[1]
    out: np.ndarray = x * (float(u.min()) - MARGIN * WORK_CW) + y * (float(w.min()) - MARGIN * WORK_CW)
    return out


def edge_angles(outline: np.ndarray, card_w: float = WORK_CW, longest_first: bool = False) -> np.ndarray:
    """Directions (degrees) of the outline's straight pieces at least a fifth of a card (``card_w`` pixels of
    the outline's own) long, in the outline's order or the longest first."""
    poly = cv2.approxPolyDP(outline.reshape(-1, 1, 2).astype(np.float32), 0.03 * card_w, True).reshape(-1, 2)
    seg = np.roll(poly, -1, axis=0) - poly
    length = np.linalg.norm(seg, axis=1)
    keep = np.flatnonzero(length >= 0.2 * card_w)
    if longest_first:
        keep = keep[np.argsort(-length[keep], kind="stable")]
    out: np.ndarray = np.degrees(np.arctan2(seg[keep, 1], seg[keep, 0]))
    return out


# The outline scan (``outline_frames``): a hand's outline resampled every SCAN_STEP card widths; a point is a
# convex turn where it stands over SCAN_TURN card widths outside the chord between the points SCAN_WIN card
# widths either side of it. The hand's edge directions (modulo 90 degrees) are those of its outline's
# SCAN_DIRS most common directions, each taken by at least SCAN_SHARE of the outline.
SCAN_STEP, SCAN_WIN, SCAN_TURN = 0.04, 0.12, 0.02
SCAN_DIRS, SCAN_SHARE = 3, 0.08
# A frame's index (SCAN_INDEX, card widths from its corner) lies this far inside the outline, and the point
# SCAN_INNER along its diagonal inside it at all.
SCAN_INDEX, SCAN_DEEP = (0.12, 0.2), 0.05
SCAN_INNER = 0.3
# Each frame is tried at the turn and this much further out along its diagonal (card widths): the outline found
# at low resolution cuts a card's rounded corner 0.04-0.09 card widths inside it (lower cards missed on the tuning
# scenes at 2028x1520, cards 0.085 of its height), where the classifier reads 0.4-0.8; 0.05 further out, 0.9-0.97.
SCAN_OUTSETS = (0.0, 0.05)
# Of the outline's points at a convex turn (one every SCAN_STEP card widths along it: a rounded card corner gives
# three to six side by side), only the sharpest within SCAN_APART card widths is kept (0: all).
SCAN_APART = 0.08


def outline_frames(outline: np.ndarray, card_w: float, skip: np.ndarray | None = None, skip_r: float = 0.06,
                   passed: list[tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]] | None = None
                   ) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Card frames (origin, x axis, y axis; pixels, axes one card width long) at every convex turn of a hand's
    outline, squared up on each of the hand's edge directions, turned each way whose index would lie inside the
    hand, each at the turn and a little further out (``SCAN_OUTSETS``). For the whole-corner classifier where
    neither the outline's corners nor the glyph pairs found a card's corner: a lower card's corner that the
    outline rounds off, or whose edges show for under a fifth of a card.
    ``skip``: corners (n x 2) near which no frame is made (within ``skip_r`` card widths: cards read already).
    Of the turns side by side along a rounded corner (one every ``SCAN_STEP``), each way a frame can face, only
    the sharpest within ``SCAN_APART`` card widths; the others' frames are added to ``passed``, where given, each
    list with its turn (for a second look beside a turn whose frame half named a card)."""
    dense, perimeter = resampled(outline, SCAN_STEP * card_w)
    if perimeter < card_w:
        return []
    k = max(1, int(round(SCAN_WIN / SCAN_STEP)))
    before, after = np.roll(dense, k, axis=0), np.roll(dense, -k, axis=0)
    chord = after - before
    length = np.linalg.norm(chord, axis=1)
    area2 = float(np.sum(dense[:, 0] * np.roll(dense[:, 1], -1) - np.roll(dense[:, 0], -1) * dense[:, 1]))
    side = 1.0 if area2 > 0 else -1.0  # which side of the direction of travel the hand lies on
    inward = side * np.stack([-chord[:, 1], chord[:, 0]], axis=1) / np.maximum(length, 1e-9)[:, None]
    rise = np.einsum("ij,ij->i", dense - before, inward)
    sharp = (rise < -SCAN_TURN * card_w) & (length > 0)
    turns, bend = dense[sharp], rise[sharp]
    if skip is not None and len(skip) and len(turns):
        near_skip = np.linalg.norm(turns[:, None, :] - np.asarray(skip, np.float64)[None, :, :], axis=2).min(axis=1)
        turns, bend = turns[near_skip >= skip_r * card_w], bend[near_skip >= skip_r * card_w]
    if not len(turns):
        return []
    poly = outline.reshape(-1, 1, 2).astype(np.float32)
    # Each way a frame can face (an edge direction turned a quarter at a time): its axes, and where its index and
    # a point well inside its card lie from the turn. Then, for every turn and way, both points (turns x ways);
    # those off the outline's bounding box are outside it, and only the others are tested against the outline.
    ways = [np.radians(deg + 90.0 * quarter) for deg in _edge_directions(dense) for quarter in range(4)]
    if not ways:
        return []
    xas = np.array([np.array([np.cos(a), np.sin(a)]) * card_w for a in ways])
    yas = np.array([np.array([-np.sin(a), np.cos(a)]) * card_w for a in ways])
    ats = turns[:, None, :] + SCAN_INDEX[0] * xas[None] + SCAN_INDEX[1] * yas[None]  # (as p + c * xa + d * ya)
    inners = turns[:, None, :] + (SCAN_INNER * (xas + yas))[None, :, :]
    lo, hi = outline.reshape(-1, 2).min(axis=0), outline.reshape(-1, 2).max(axis=0)
    maybe = np.all((ats >= lo) & (ats <= hi) & (inners >= lo) & (inners <= hi), axis=2)
    ii, ww = np.nonzero(maybe)  # turn and way of each frame, turn by turn (each turn's ways in order)
    fit = [k for k, (i, w) in enumerate(zip(ii, ww))
           if cv2.pointPolygonTest(poly, (float(ats[i, w, 0]), float(ats[i, w, 1])), True) >= SCAN_DEEP * card_w
           and cv2.pointPolygonTest(poly, (float(inners[i, w, 0]), float(inners[i, w, 1])), False) >= 0]
    ii, ww = ii[fit], ww[fit]
    xa, ya = xas[ww], yas[ww]
    origins = [turns[ii] - s * (xa + ya) for s in SCAN_OUTSETS]
    kept = np.ones(len(ii), bool)
    if SCAN_APART and len(ii):  # each way a frame can face: the sharpest turn of those side by side
        kept[:] = False
        apart = np.linalg.norm(turns[:, None, :] - turns[None, :, :], axis=2) >= SCAN_APART * card_w
        taken: dict[int, list[int]] = {}  # way -> the turns kept for it
        for k in np.argsort(bend[ii], kind="stable"):
            at_way = taken.setdefault(int(ww[k]), [])
            if apart[ii[k], at_way].all():
                kept[k] = True
                at_way.append(int(ii[k]))

    def frames(k: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        return [(o[k], xa[k], ya[k]) for o in origins]

    if passed is not None:
        passed += [(turns[ii[k]], frames(k)) for k in np.flatnonzero(~kept).tolist()]
    return [f for k in np.flatnonzero(kept).tolist() for f in frames(k)]


def _edge_directions(dense: np.ndarray) -> list[float]:
    """The outline's (resampled one step apart) most common directions modulo 90 degrees (``SCAN_DIRS``, each
    taken by ``SCAN_SHARE`` of it at least), from a histogram of its local directions smoothed over 5 degrees."""
    v = np.roll(dense, -2, axis=0) - np.roll(dense, 2, axis=0)
    th = np.degrees(np.arctan2(v[:, 1], v[:, 0])) % 90.0
    hist = np.bincount(th.astype(int) % 90, minlength=90).astype(np.float64)
    smooth = np.sum([np.roll(hist, j) for j in (-2, -1, 0, 1, 2)], axis=0)
    out: list[float] = []
    for _ in range(SCAN_DIRS):
        j = int(np.argmax(smooth))
        if smooth[j] < SCAN_SHARE * len(dense):
            break
        off = (th - j + 45.0) % 90.0 - 45.0
        out.append(j + float(off[np.abs(off) < 3.0].mean()))
        smooth[(j + np.arange(-6, 7)) % 90] = 0.0
    return out
