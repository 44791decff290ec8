"""Find whole cards by their two corner indices, where no outline shows them.

A card lying on white paper, on a light cloth or among clutter may have no outline the detector can close:
paper on paper, a shadow on one side only. Its two indices still show plainly: at the top-left a rank glyph
with its suit below it, and at the bottom-right the same pair turned half round. Such a pair of pairs, facing
opposite ways and lying where a card's diagonal puts them, is a card whatever the surface and whatever the
card's size, so nothing here needs the card size the detector estimates (it is often wrong exactly where the
outline fails). Each card found is returned as an outline for the reader, which keeps it only when both its
corners read the same card (as it does outlines found from edges alone).

Steps, at a working resolution of at most ``WORK_SIDE`` pixels: ink darker than the local paper (the brightest
of its surroundings); its glyph-sized components; rank-over-suit pairs (about as big as each other, about their
own size apart, the suit a solid blob) with the card's axes from the suit's own mirror symmetry (its principal
axes) nearest the rank-to-suit direction; pairs of pairs facing opposite ways at a card's diagonal; the card's
outline from the two indices, each side then moved onto the strongest straight step of brightness nearby.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detect import components, shrink

WORK_SIDE = 1400  # the longer side of the working picture (pixels), at most
GLYPH_PX = (6, 60)  # an index glyph's longer side at the working resolution (pixels)
PAPER_R = 0.02  # the local paper is the brightest within this share of the working picture's longer side
PAPER_MIN = 60  # paper at least this bright (0..255): on a dark table every speck is "darker than its paper"
# Ink is darker than the local paper by this share of the paper's level; the higher share parts an index at a
# card's edge from a dark table beside it (the ink at the lower share is also looked at eroded by a pixel).
INK_FLOORS = (0.3, 0.55)
SNAP_DEG = 35.0  # the rank-to-suit direction lies within this of one of the suit's axes (a big suit sits left)
ROUND = 0.08  # a suit whose second moments differ by less than this share is round: its axes say nothing
MAX_GLYPHS = 1500  # glyph-sized components in one picture at most (text, gravel: not a table of cards)
MAX_INDICES = 800  # rank-over-suit pairs in one picture at most (a busy table's pips make a few hundred)
FACING_DEG = 25.0  # the two indices of a card face opposite ways within this
GLYPH_RATIO = 1.45  # ...their glyphs differ in size by at most this factor
# ...and along the first index's axes, from rank to rank, they lie across (u) and down (v) within these ratios
# (a poker card, 63 x 88 mm, its indices 0.05-0.2 card widths in from its edges; a deck's index 0.1-0.25 cards
# tall).
DOWN_OVER_ACROSS = (1.1, 2.3)
ACROSS_OVER_GLYPH = (3.0, 12.0)  # u over the bigger rank glyph's longer side
EDGE_MARGIN = 0.055  # the card's edge lies this far (card widths) beyond its index glyphs' outer extent
CARD_SHAPE = (1.25, 1.6)  # the outline so drawn is a card's: its height over its width
BORDER_IN = 0.06  # a card's plain border is looked at this far in from its edges (card widths)
BORDER_INK = 0.25  # ...and may be ink at this share of its points at most
TURN_DEG = 10.0  # the card's edges are looked for turned up to this from the indices' axes
TURN_STEP = 2.0  # ...in steps of this
SNAP_REACH = 0.08  # each side is moved onto the strongest brightness step within this (card widths)
MAX_TRIES = 40  # pairs of indices turned onto the card's edges per picture, at most
TRIES_PER_PLACE = 3  # ...and at most this many whose outlines have their centres near each other
MAX_CARDS = 12  # outlines returned per picture, the likeliest first


@dataclass
class _Index:
    rank: np.ndarray  # the rank glyph's centre (working pixels)
    x: np.ndarray  # unit axes of the card (y: from rank to suit)
    y: np.ndarray
    size: float  # the rank glyph's longer side
    lo: np.ndarray  # the pair's extent: least (u, v) along (x, y) of both glyphs' pixels
    hi: np.ndarray  # ...and greatest


def index_cards(image: np.ndarray, skip: list[np.ndarray] | None = None, scale: float | None = None
                ) -> list[np.ndarray]:
    """Outlines (4 x 2, pixels of ``image``, clockwise from the top-left index's corner) of cards found by their
    two indices in ``image``, the likeliest first; none whose centre lies inside a ``skip`` outline (cards read
    already). ``scale``: the working resolution over the image's (default: ``WORK_SIDE`` pixels along its longer
    side, at most); a crop of a bigger picture is worked on at the picture's scale."""
    h, w = image.shape[:2]
    k = scale if scale is not None else min(1.0, WORK_SIDE / max(h, w))
    if k < 1.0:
        small = shrink(image, (max(1, int(w * k)), max(1, int(h * k))), nearest_first=k < 0.4)
    else:
        small = image
    indices, ink = _indices(small)
    if len(indices) < 2:
        return []
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    skips = [(s * k).reshape(-1, 1, 2).astype(np.float32) for s in (skip or [])]
    found: list[tuple[float, np.ndarray]] = []
    centres: list[np.ndarray] = []  # of the outlines tried (rough)
    for i, j in _facing_pairs(indices):
        a, b = indices[i], indices[j]
        rough = _outline(a, b, *_mean_axes(a, b), any_shape=True)
        assert rough is not None  # any shape
        c = rough.mean(axis=0)
        width = float(np.linalg.norm(rough[1] - rough[0]))
        # Not inside a card read already; not a fourth try at one place (the same card's indices found at both
        # ink thresholds, with their axes told two ways).
        if any(cv2.pointPolygonTest(s, (float(c[0]), float(c[1])), False) >= 0 for s in skips) or \
                sum(float(np.linalg.norm(c - o)) < 0.3 * width for o in centres) >= TRIES_PER_PLACE:
            continue
        if len(centres) == MAX_TRIES:
            break
        centres.append(c)
        turned = _turned(gray, ink, a, b)
        if turned is not None:
            found.append(turned)
    # Where outlines overlap, the one whose sides lie on the stronger steps (pips taken for indices put a
    # "card" inside the card, on plain paper).
    out: list[np.ndarray] = []
    for _, q in sorted(found, key=lambda t: -t[0]):
        c = q.mean(axis=0)
        if not any(np.linalg.norm(c - o.mean(axis=0)) < 0.3 * np.linalg.norm(o[1] - o[0]) for o in out):
            out.append(q)
            if len(out) == MAX_CARDS:
                break
    return [(q / k).astype(np.float32) for q in out]


def _facing_pairs(indices: list["_Index"]) -> list[tuple[int, int]]:
    """Pairs (i, j) of indices facing opposite ways where a card's diagonal puts its two indices, ``i`` the
    top-left one, the likeliest first (the two glyphs nearest in size)."""
    if len(indices) < 2:
        return []
    r = np.array([ix.rank for ix in indices])
    y = np.array([ix.y for ix in indices])
    size = np.array([ix.size for ix in indices])
    facing = (y @ y.T) < -np.cos(np.radians(FACING_DEG))
    ratio = np.maximum(size[:, None], size[None, :]) / np.minimum(size[:, None], size[None, :])
    ym = y[:, None, :] - y[None, :, :]  # the mean axis, from i's side
    ym /= np.maximum(np.linalg.norm(ym, axis=2, keepdims=True), 1e-9)
    xm = np.stack([ym[:, :, 1], -ym[:, :, 0]], axis=2)
    d = r[None, :, :] - r[:, None, :]
    u = (d * xm).sum(axis=2)
    v = (d * ym).sum(axis=2)
    big = np.maximum(size[:, None], size[None, :])
    ok = facing & (ratio <= GLYPH_RATIO) & (u > 0) & (v > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        ok &= (v >= DOWN_OVER_ACROSS[0] * u) & (v <= DOWN_OVER_ACROSS[1] * u) & \
            (u >= ACROSS_OVER_GLYPH[0] * big) & (u <= ACROSS_OVER_GLYPH[1] * big)
    ii, jj = np.nonzero(ok)
    order = np.argsort(ratio[ii, jj], kind="stable")
    return [(int(ii[t]), int(jj[t])) for t in order]


def _plain_border(ink: np.ndarray, quad: np.ndarray) -> bool:
    """A card's border is plain paper: along the middle of each side, ``BORDER_IN`` card widths in, at most
    ``BORDER_INK`` of the points are ink (stacked letters of a page, or pips taken for indices, put their
    "card" where ink runs through it)."""
    width = float(np.linalg.norm(quad[1] - quad[0]))
    ts = np.linspace(0.3, 0.7, 12)
    pts = []
    for s in range(4):
        p, q = quad[s], quad[(s + 1) % 4]
        pts.append(p + ts[:, None] * (q - p) - BORDER_IN * width * _normal(quad, s))
    xy = np.round(np.concatenate(pts)).astype(int)
    inside = (xy[:, 0] >= 0) & (xy[:, 1] >= 0) & (xy[:, 0] < ink.shape[1]) & (xy[:, 1] < ink.shape[0])
    if inside.mean() < 0.5:
        return False
    return float(ink[xy[inside, 1], xy[inside, 0]].mean()) <= BORDER_INK


def _mean_axes(a: "_Index", b: "_Index") -> tuple[np.ndarray, np.ndarray]:
    """x and y: the mean of the two indices' axes (``b``'s turned half round)."""
    y = a.y - b.y
    y = y / np.linalg.norm(y)
    return np.array([y[1], -y[0]]), y


def _ink(small: np.ndarray, floor_share: float) -> np.ndarray:
    """Ink (0/1): darker in some channel than the local paper by ``floor_share`` of its level, on bright
    paper."""
    r = max(3, int(PAPER_R * max(small.shape[:2])))
    paper = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * r + 1, 2 * r + 1)))
    diff = cv2.subtract(paper, small)
    ink = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
    level = cv2.max(cv2.max(paper[:, :, 0], paper[:, :, 1]), paper[:, :, 2])
    floor = (level.astype(np.float32) * floor_share).astype(np.uint8)
    out: np.ndarray = ((ink > floor) & (level >= PAPER_MIN)).astype(np.uint8)
    return out


def _indices(small: np.ndarray) -> tuple[list[_Index], np.ndarray]:
    """Rank-over-suit glyph pairs of ``small``, each with the card's axes, at each ink threshold
    (``INK_FLOORS``: a higher one parts an index at a card's edge from a dark table beside it)."""
    out: dict[tuple[int, int, int], _Index] = {}
    inks = [_ink(small, share) for share in INK_FLOORS]
    # And the first ink eroded by a pixel: a small index's rank and suit, or its suit and a pip, run together.
    for ink in inks + [cv2.erode(inks[0], np.ones((3, 3), np.uint8))]:
        for ix in _indices_in(ink):
            # The same pair found at both thresholds: once (its rank's centre to 3 px, its axis to 10 degrees).
            key = (int(ix.rank[0] // 3), int(ix.rank[1] // 3), int(np.degrees(np.arctan2(ix.y[1], ix.y[0])) // 10))
            out.setdefault(key, ix)
        if len(out) > MAX_INDICES:  # a page of text, gravel: no table of cards
            return [], inks[0]
    return list(out.values()), inks[0]


def _indices_in(binary: np.ndarray) -> list[_Index]:
    """Rank-over-suit glyph pairs among the components of ``binary``."""
    n, labels, stats, cents = components(binary)
    side = np.maximum(stats[:, 2], stats[:, 3]).astype(np.float64)
    short = np.minimum(stats[:, 2], stats[:, 3]).astype(np.float64)
    keep = (side >= GLYPH_PX[0]) & (side <= GLYPH_PX[1]) & (stats[:, 4] >= 0.075 * side * side)
    keep[0] = False
    g = np.flatnonzero(keep)
    if len(g) < 2 or len(g) > MAX_GLYPHS:
        return []
    solid = (short[g] >= 0.5 * side[g]) & (stats[g, 4] >= 0.3 * stats[g, 2] * stats[g, 3])
    pts = cents[g]
    sz = side[g]
    # Pairs [rank, suit] about as big as each other and about their own size apart, the suit a solid blob.
    v = pts[None, :, :] - pts[:, None, :]
    dist = np.hypot(v[:, :, 0], v[:, :, 1])
    big = np.maximum(sz[:, None], sz[None, :])
    ok = (np.minimum(sz[:, None], sz[None, :]) >= 0.4 * big) & (dist >= 0.55 * big) & (dist <= 1.6 * big) & \
        solid[None, :]
    out: list[_Index] = []
    theta: dict[int, float | None] = {}
    coords: dict[int, np.ndarray] = {}

    def pixels(c: int) -> np.ndarray:
        """Component ``c``'s pixels' x and y (2 x n)."""
        if c not in coords:
            x0, y0, bw, bh = (int(t) for t in stats[c, :4])
            ys, xs = np.nonzero(labels[y0:y0 + bh, x0:x0 + bw] == c)
            coords[c] = np.array([xs + x0, ys + y0], np.float64)
        return coords[c]

    for a, b in zip(*np.nonzero(ok)):
        if b not in theta:
            theta[b] = _symmetry_axis(labels, stats, int(g[b]))
        axes = _axes(theta[b], v[a, b])
        if axes is None:
            continue
        x, y = axes
        # The rank's neighbours on its line: the '1' of a '10' beside its '0'.
        rank = [int(g[a])]
        for c in np.flatnonzero(ok[:, b] | (dist[a] <= 1.2 * sz[a])):
            if c in (a, b):
                continue
            rel = pts[c] - pts[a]
            if abs(float(np.dot(rel, y))) < 0.3 * sz[a] and -1.2 * sz[a] < float(np.dot(rel, x)) < 0 and \
                    sz[c] >= 0.6 * sz[a]:
                rank.append(int(g[c]))
        xs, ys = np.concatenate([pixels(c) for c in rank + [int(g[b])]], axis=1)
        u = xs * x[0] + ys * x[1]
        w = xs * y[0] + ys * y[1]
        # The index is taller than wide (a '10' is nearly square).
        if float(u.max() - u.min()) > 1.5 * float(w.max() - w.min()):
            continue
        out.append(_Index(pts[a], x, y, float(sz[a]), np.array([u.min(), w.min()]), np.array([u.max(), w.max()])))
    return out


def _symmetry_axis(labels: np.ndarray, stats: np.ndarray, suit: int) -> float | None:
    """The direction (degrees, mod 90) of a suit glyph's principal axes: a suit is mirror-symmetric about the
    card's vertical, so they are the card's axes. None where the glyph is too round to tell (its second moments
    within ``ROUND`` of each other)."""
    x0, y0, bw, bh = (int(t) for t in stats[suit, :4])
    m = cv2.moments((labels[y0:y0 + bh, x0:x0 + bw] == suit).astype(np.uint8), binaryImage=True)
    a, c, b = m["mu20"], m["mu02"], m["mu11"]
    spread = float(np.hypot(a - c, 2 * b))
    if spread < ROUND * (a + c):
        return None
    return float(0.5 * np.degrees(np.arctan2(2 * b, a - c)))


def _axes(theta: float | None, v: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The card's unit x and y: y the suit's axis (``theta``) nearest the rank-to-suit direction ``v``, or ``v``
    itself for a round suit; None where no axis lies within ``SNAP_DEG`` of ``v``."""
    ang = float(np.degrees(np.arctan2(v[1], v[0])))
    if theta is not None:
        diff = (theta - ang + 45.0) % 90.0 - 45.0
        if abs(diff) > SNAP_DEG:
            return None
        ang += diff
    a = np.radians(ang)
    y = np.array([np.cos(a), np.sin(a)])
    return np.array([y[1], -y[0]]), y


def _turned(gray: np.ndarray, ink: np.ndarray, a: _Index, b: _Index) -> tuple[float, np.ndarray] | None:
    """The outline of the card with top-left index ``a`` and bottom-right ``b``, turned onto its edges: of the
    turns within ``TURN_DEG`` of the indices' mean axes that make a card-shaped outline with a plain border
    (``_plain_border``), the one whose sides find the strongest steps of brightness nearby, each side then
    moved onto its step (``_side_steps``), with those steps' summed strength. None where no turn makes a
    card."""
    x, y = _mean_axes(a, b)
    base = float(np.degrees(np.arctan2(y[1], y[0])))
    best: tuple[float, np.ndarray] | None = None
    for turn in np.arange(-TURN_DEG, TURN_DEG + 0.5, TURN_STEP):
        yy = np.array([np.cos(np.radians(base + turn)), np.sin(np.radians(base + turn))])
        quad = _outline(a, b, np.array([yy[1], -yy[0]]), yy)
        if quad is None or not _plain_border(ink, quad):
            continue
        shifts, strength = _side_steps(gray, quad)
        if best is None or strength > best[0]:
            best = (strength, _moved(quad, shifts))
    return best


def _outline(a: _Index, b: _Index, x: np.ndarray, y: np.ndarray, any_shape: bool = False) -> np.ndarray | None:
    """The card's outline along axes ``x``, ``y`` from its top-left index ``a`` and bottom-right ``b``: their
    outer extents, ``EDGE_MARGIN`` in from its edges; None where that is not card-shaped (unless
    ``any_shape``)."""
    left = min(float(np.dot(p, x)) for p in _extent_points(a))
    top = min(float(np.dot(p, y)) for p in _extent_points(a))
    right = max(float(np.dot(p, x)) for p in _extent_points(b))
    bottom = max(float(np.dot(p, y)) for p in _extent_points(b))
    width = (right - left) / (1 - 2 * EDGE_MARGIN)
    height = bottom - top + 2 * EDGE_MARGIN * width
    if not any_shape and not CARD_SHAPE[0] <= height / max(width, 1e-6) <= CARD_SHAPE[1]:
        return None
    l, t = left - EDGE_MARGIN * width, top - EDGE_MARGIN * width
    r, btm = l + width, t + height
    return np.array([l * x + t * y, r * x + t * y, r * x + btm * y, l * x + btm * y], np.float64)


def _extent_points(ix: _Index) -> list[np.ndarray]:
    """The corners of an index's extent box (working pixels)."""
    return [ix.x * uu + ix.y * vv for uu in (ix.lo[0], ix.hi[0]) for vv in (ix.lo[1], ix.hi[1])]


def _side_steps(gray: np.ndarray, quad: np.ndarray) -> tuple[list[float], float]:
    """Per side of ``quad``, how far along its outward normal the strongest straight step of brightness lies
    within ``SNAP_REACH`` card widths (across the middle half of the side; 0 where none stands out), and the
    steps' summed strength."""
    width = float(np.linalg.norm(quad[1] - quad[0]))
    reach = max(2.0, SNAP_REACH * width)
    offs = np.arange(-reach, reach + 1.0)
    ts = np.linspace(0.25, 0.75, 15)
    shifts, total = [], 0.0
    for s in range(4):
        p, q = quad[s], quad[(s + 1) % 4]
        normal = _normal(quad, s)
        pts = (p[None, :] + ts[:, None] * (q - p)[None, :])[:, None, :] + offs[None, :, None] * normal[None, None, :]
        prof = cv2.remap(gray, pts[:, :, 0].astype(np.float32), pts[:, :, 1].astype(np.float32), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REPLICATE).mean(axis=0)
        step = np.abs(np.diff(prof))
        j = int(np.argmax(step))
        total += float(step[j])
        shifts.append(float(offs[j] + 0.5) if step[j] >= 2.0 * float(np.median(step)) else 0.0)
    return shifts, total


def _normal(quad: np.ndarray, s: int) -> np.ndarray:
    """The outward unit normal of side ``s`` (from corner ``s`` to the next) of ``quad``."""
    p, q = quad[s], quad[(s + 1) % 4]
    along = (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)
    normal = np.array([along[1], -along[0]])
    return normal if np.dot(normal, (p + q) / 2 - quad.mean(axis=0)) >= 0 else -normal


def _moved(quad: np.ndarray, shifts: list[float]) -> np.ndarray:
    """``quad`` with each side moved along its outward normal by its shift (the sides meet at new corners)."""
    lines = []
    for s in range(4):
        p, q = quad[s], quad[(s + 1) % 4]
        lines.append((p + shifts[s] * _normal(quad, s), (q - p) / max(float(np.linalg.norm(q - p)), 1e-6)))
    out = quad.copy()
    for s in range(4):
        (p1, d1), (p2, d2) = lines[s - 1], lines[s]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t = np.linalg.solve(m, p2 - p1)
        out[s] = p1 + t[0] * d1
    return out
