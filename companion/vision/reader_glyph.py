"""Corner-index glyphs: from a corner patch to the rank glyph and the suit glyph, and from a glyph to features.

Training (``tools/train_reader.py``) and reading (``reader``) both go through these functions, so what the
classifiers learn is exactly what they are later shown.

A *corner patch* is the card's corner resampled into a fixed frame: ``PATCH_PX`` pixels per card width,
x to the right along the card's top edge, y down along its side, covering ``CORNER_W`` x ``CORNER_H`` card
widths. Where the index sits inside it is not assumed: the glyphs are found as connected components of ink
(dark or coloured on the white card), the rank as the topmost glyph row, the suit as the glyph below it.

Before that, what is not the card is cleared: the table (or the card's edge, its shadow) along the top and left,
where a frame starts a little outside the card or is turned a little, found as a fitted line (``_edge_mask``).
When rank and suit are still one blob, passes follow: a stricter threshold, thinned ink, a thin rank parted from
the solid suit it overlaps (``_split_tall``: a J's hook, a Q's tail), and thin lines opened away (an index joined
to a picture frame). Where nothing at all was found at a guessed corner but a blob was dropped for its size (an
index run into a court picture), the ink is thinned and the rank parted from its suit. Where all that parts
nothing, a tall blob is cut across at its waist (``_waist_split``: a small, soft index whose rank ran into its suit
through a thin neck). A stricter-threshold rank taken out of a bigger blob (``_parts_a_whole``) is the last
resort.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.detect import components
from companion.vision.index_search import waist_cut

# Corner frame, in card widths (a poker card is 1 x 1.4).
CORNER_W = 0.34
CORNER_H = 0.62
PATCH_PX = 200  # pixels per card width in the corner frame
PATCH_SIZE = (int(round(CORNER_W * PATCH_PX)), int(round(CORNER_H * PATCH_PX)))  # (w, h) = (68, 124)

# A rank found at most this many times as tall as wide is taken as found; a taller one is a rank run into its suit
# (the suit found under it is then something further down) and is cut at its waist first (``_locate_index``).
RANK_TALL = 2.0
WAIST_TALL = 1.6  # a blob this many times taller than wide may be a rank and suit run together (_waist_split)
# A rank seed that is a bare bar (a '1') takes a glyph of its own height beside it at up to this many times its
# height away (a small index's '10' set with the '1''s wide side bearing: 0.37 in DejaVu Serif Condensed at 16 px).
TEN_GAP = 0.6
GLYPH_BOX = 32  # glyphs are normalised into this square for features



def _hog(img: np.ndarray, cell: int = 8, bins: int = 9) -> np.ndarray:
    """Histogram of oriented gradients (unsigned, soft-binned), 2x2-cell blocks, L2-Hys normalised.
    (OpenCV 5 dropped cv2.HOGDescriptor from the main modules, so it is done here in numpy.)"""
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (bins / np.pi)
    b0 = np.floor(ang).astype(np.int32) % bins
    w1 = ang - np.floor(ang)
    n = img.shape[0] // cell
    base = _hog_base(img.shape[0], img.shape[1], cell, bins)
    size = n * n * bins
    hist = (np.bincount((base + b0).ravel(), (mag * (1 - w1)).ravel(), size) +
            np.bincount((base + (b0 + 1) % bins).ravel(), (mag * w1).ravel(), size)).reshape(n, n, bins)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True) + 1e-6)
    blocks = np.minimum(blocks, 0.2)
    blocks /= np.sqrt((blocks ** 2).sum(axis=2, keepdims=True) + 1e-6)
    out: np.ndarray = blocks.ravel()
    return out


@functools.lru_cache(maxsize=4)
def _hog_base(h: int, w: int, cell: int, bins: int) -> np.ndarray:
    """Each pixel's first histogram bin: (cell row * cells across + cell column) * bins (the same for every
    glyph box, so made once)."""
    n = h // cell
    cy = (np.arange(h) // cell)[:, None].repeat(w, 1)
    cx = (np.arange(w) // cell)[None, :].repeat(h, 0)
    base: np.ndarray = (cy * n + cx) * bins
    base.setflags(write=False)
    return base


@dataclass
class IndexGlyphs:
    """The two glyphs of one corner index, as soft ink crops, plus where they are in the patch."""

    rank: np.ndarray  # float32 crop of ink (0 paper .. 1 ink), tight around the rank glyph(s)
    suit: np.ndarray | None  # the glyph below the rank, or None when nothing sits there
    rank_box: tuple[int, int, int, int]  # x, y, w, h in the patch
    suit_box: tuple[int, int, int, int] | None
    paper_colour: np.ndarray  # (the glyphs' ink colours: ``glyph_colours``, for the corner read)
    ink: np.ndarray | None = None  # the patch's ink map
    # The rank was parted from a suit it overlapped (``_split_tall``): the suit's top, where they met, is lost,
    # and the top is what tells a spade from a club and a heart from a diamond.
    split: bool = False


def ink_map(patch_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Ink strength 0..1 per pixel (dark or coloured against the card's paper colour) and the paper colour.

    The paper is the bright majority of the patch; any channel darker than the paper's counts, so red, orange,
    grey and bluish-black ink all show, whatever the colour cast.
    """
    sample = patch_bgr[::2, ::2].reshape(-1, 3)
    k = int(0.85 * (len(sample) - 1))
    paper = np.partition(sample, k, axis=0)[k]
    scale = max(float(paper.max()), 40.0)
    # paper - patch, saturating at 0 (lighter than paper is no ink), as (255 - patch) - (255 - paper): OpenCV
    # takes the paper as a scalar that way, with no picture-sized copy of it.
    lift = tuple(255.0 - float(v) for v in paper) + (0.0,)
    diff = cv2.subtract(cv2.bitwise_not(patch_bgr), lift)  # type: ignore[call-overload]  # a Scalar; stub says no
    ink = cv2.max(cv2.max(diff[:, :, 0], diff[:, :, 1]), diff[:, :, 2])
    return ink.astype(np.float32) * (1.0 / scale), paper.astype(np.float32)


def _otsu(ink: np.ndarray) -> float:
    u8 = np.clip(ink * 255.0, 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(u8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(t) / 255.0


def locate_index(patch_bgr: np.ndarray, whole_only: bool = False) -> IndexGlyphs | None:
    """Find the rank glyph (topmost glyph row, '10' kept whole) and the suit glyph below it, or None.

    When the rank and suit have run together (blur), a second, stricter ink threshold separates them.
    ``whole_only``: ignore glyphs cut by the patch border (for corners guessed from an outline, where a cut
    glyph is usually part of another card's index or a pip)."""
    return locate_index_why(patch_bgr, whole_only)[0]


def locate_index_why(patch_bgr: np.ndarray, whole_only: bool = False, faint: float = 1.0
                     ) -> tuple[IndexGlyphs | None, bool]:
    """``locate_index``, and whether ink (not the table along the edges) touches the patch's left border in its
    upper half: where nothing was found, a frame starting a little further left may find a glyph it cut.
    ``faint``: the ink threshold times this (under 1: faint glyphs, pale red or thin strokes, kept whole)."""
    ink, paper = ink_map(patch_bgr)
    if float(ink.max()) < 0.12:
        return None, False
    thr = min(max(0.16, 0.75 * _otsu(ink)), 0.5) * faint
    plain = ink > thr
    edge = _edge_mask(plain)
    left = plain[:plain.shape[0] // 2, :2]
    at_left = bool((left & (edge[0][:plain.shape[0] // 2, :2] == 0)).any() if edge is not None else left.any())
    return _locate_index(patch_bgr, ink, paper, thr, edge, whole_only), at_left


def _locate_index(patch_bgr: np.ndarray, ink: np.ndarray, paper: np.ndarray, thr: float,
                  edge: tuple[np.ndarray, np.ndarray] | None, whole_only: bool) -> IndexGlyphs | None:
    """``locate_index`` on the patch's ink map, threshold and edge masks: the plain pass, then the others."""
    w = patch_bgr.shape[1]
    big: set[str] = set()
    cache: _Cache = {}  # the passes share thresholded ink and its components
    found = _locate(cache, patch_bgr, ink, paper, thr, edge, whole_only=whole_only, big=big)
    if found is not None and found.suit is not None and found.rank_box[3] <= RANK_TALL * found.rank_box[2]:
        if not _joined_to_line(found, w):
            return found
        # A rank wider than tall that the far border cuts is joined to a picture's frame line (a king's arm
        # touching it): open thin lines away, and keep the result if it is a plain index of the same height.
        better = _locate(cache, patch_bgr, ink, paper, thr, edge, whole_only=whole_only, open_lines=True)
        if better is not None and better.suit is not None and _plain(better, w) and \
                not _joined_to_line(better, w) and better.rank_box[3] >= 0.8 * found.rank_box[3]:
            return better
        return found
    if found is not None and found.suit is not None:
        # A "rank" over twice as tall as wide is the rank run into its own suit (a queen's tail touching the
        # heart below it), and the "suit" found under it something further down (a big pip's top beside it,
        # read as a diamond): cut the tall blob at its waist first.
        cut = _locate(cache, patch_bgr, ink, paper, thr, edge, waist=True, whole_only=whole_only)
        if cut is not None and cut.suit is not None and _plain(cut, w) and \
                cut.rank_box[3] <= RANK_TALL * cut.rank_box[2]:
            cut.split = True
            return cut
    if found is None and not big:
        # No glyph at all, and no blob dropped for its size that might hold one (joined to art or a frame): the
        # passes below part or thin blobs that are there. (On 40 scenes of each tuning set, small and low
        # resolution, none of them found an index in such a patch: 0 of 913.)
        return None
    strict = _locate(cache, patch_bgr, ink, paper, min(thr * 1.7, 0.8), edge, whole_only=whole_only)
    if strict is not None and (strict.suit is None or not (
            found is None or found.suit is None or strict.rank_box[3] < 0.8 * found.rank_box[3])):
        strict = None
    if strict is not None and _parts_a_whole(ink > thr, edge, strict):
        return strict
    # Otherwise the stricter threshold took its rank out of a bigger blob: perhaps a fragment of a glyph (one
    # side of a queen's thin ring read as a 9). The passes below, which part the whole blob, go first.
    if found is not None and found.suit is None:
        # A jumbo index whose rank reaches into its suit (a J's hook): thin the ink until they part.
        thin = _locate(cache, patch_bgr, ink, paper, thr, edge, erode=True, whole_only=whole_only)
        if thin is not None and thin.suit is not None:
            return thin
    if found is None or found.suit is None:
        # A thin rank overlapping a solid suit (a J's hook over a club; the blob may be too big to be taken
        # for a glyph at all): take the suit as what survives an opening wider than the rank's stroke.
        split = _locate(cache, patch_bgr, ink, paper, thr, edge, split=True, whole_only=whole_only)
        if split is not None and split.suit is not None:
            split.split = True
            return split
        if "big" in big:
            # The index joined by a thin bridge to a picture's frame line, all one blob too big for a glyph.
            # What is left of the frame can join the rank's row or pass for a suit: keep only a plain index.
            opened = _locate(cache, patch_bgr, ink, paper, thr, edge, open_lines=True, whole_only=whole_only)
            if opened is not None and opened.suit is not None:
                if _plain(opened, w):
                    return opened
            elif opened is not None:  # and, parted from the frame, a thin rank still over its suit
                opened = _locate(cache, patch_bgr, ink, paper, thr, edge, open_lines=True, split=True,
                                 whole_only=whole_only)
                if opened is not None and opened.suit is not None and _plain(opened, w):
                    opened.split = True
                    return opened
        if big and found is None and strict is None:
            # Joined to a court picture across a frame line too thick to open away (a small, soft card): thin
            # the ink until the index comes apart, and part the rank from the suit it still overlaps.
            thin = _locate(cache, patch_bgr, ink, paper, thr, edge, erode=True, split=True, whole_only=whole_only)
            if thin is not None and thin.suit is not None and _plain(thin, w):
                thin.split = True
                return thin
        # Last, a small, soft index whose rank and suit the blur joined through a thin neck: cut at the neck.
        cut = _locate(cache, patch_bgr, ink, paper, thr, edge, waist=True, whole_only=whole_only)
        if cut is not None and cut.suit is not None and _plain(cut, w):
            cut.split = True
            return cut
    return strict if strict is not None else found


def _parts_a_whole(plain: np.ndarray, edge: tuple[np.ndarray, np.ndarray] | None, g: IndexGlyphs) -> bool:
    """The stricter threshold may part a rank and suit that blur ran together, not pick a fragment out of a
    bigger blob (a piece of a queen's thin ring, a frame line joined to the rank's row): the blobs the rank's
    pixels belong to at the plain threshold must lie within the rank and suit found, give or take a third of
    the rank's height."""
    assert g.suit_box is not None
    binary = plain.astype(np.uint8)
    if edge is not None:
        binary &= 1 - edge[0]
    _, labels, stats, _ = components(binary)
    x, y, w, h = g.rank_box
    sx, sy, sw, sh = g.suit_box
    piece = labels[max(y - 1, 0):y - 1 + g.rank.shape[0], max(x - 1, 0):x - 1 + g.rank.shape[1]]
    ids = np.unique(piece[g.rank[:piece.shape[0], :piece.shape[1]] > 0])
    ids = ids[ids > 0]
    if not len(ids):
        return True
    m = h / 3
    x0, y0 = min(x, sx) - m, min(y, sy) - m
    x1, y1 = max(x + w, sx + sw) + m, max(y + h, sy + sh) + m
    st = stats[ids]
    return bool((st[:, 0] >= x0).all() and (st[:, 1] >= y0).all() and (st[:, 0] + st[:, 2] <= x1).all()
                and (st[:, 1] + st[:, 3] <= y1).all())


def _joined_to_line(g: IndexGlyphs, patch_w: int) -> bool:
    """A rank wider than tall that the patch's far border cuts: joined to a line running out of the corner."""
    x, _, rw, rh = g.rank_box
    return x + rw >= patch_w and rw > rh


def _plain(g: IndexGlyphs, patch_w: int) -> bool:
    """A rank no wider than most of the patch, over a suit at least half its height."""
    assert g.suit_box is not None
    return g.rank_box[2] <= 0.8 * patch_w and g.suit_box[3] >= 0.5 * g.rank_box[3]


@dataclass
class _Ink:
    """One thresholded ink map of a patch (0/1) and, once counted, its connected components."""

    binary: np.ndarray
    components: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None


_Cache = dict[tuple[float, bool, bool], _Ink]  # by (threshold, eroded, opened): one patch's passes share them


def _binary(cache: _Cache, ink: np.ndarray, thr: float, edge: tuple[np.ndarray, np.ndarray] | None, erode: bool,
            open_lines: bool) -> _Ink:
    """The ink over ``thr`` (eroded, opened, the table along the edges cleared) as ``_locate`` takes it, made
    once per patch and kept in ``cache`` (its components counted once, ``_components``)."""
    key = (thr, erode, open_lines)
    if key not in cache:
        binary: np.ndarray = (ink > thr).astype(np.uint8)
        if erode:
            binary = cv2.erode(binary, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5)))
        if open_lines:
            binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        if edge is not None:
            binary &= 1 - edge[0]
        cache[key] = _Ink(binary)
    return cache[key]


def _components(entry: _Ink) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """The connected components (8-connected, with stats) of a ``_binary`` entry, counted once."""
    if entry.components is None:
        n, labels, stats, cents = components(entry.binary)
        entry.components = (int(n), labels, stats, cents)
    return entry.components


def _locate(cache: _Cache, patch_bgr: np.ndarray, ink: np.ndarray, paper: np.ndarray, thr: float,
            edge: tuple[np.ndarray, np.ndarray] | None = None, erode: bool = False, whole_only: bool = False,
            split: bool = False, open_lines: bool = False, big: set[str] | None = None, waist: bool = False
            ) -> IndexGlyphs | None:
    """One pass of ``locate_index`` at ink threshold ``thr``. ``edge``: ``_edge_mask``'s (cleared, near)
    masks: the ink outside the card along the top and left, and the pixels next to it. ``open_lines``: open
    the ink with a 3x3 square first, so lines a pixel or two thick (a picture's frame) and the thin bridges
    from an index to them go. ``big``: gets 'big' when a blob reaching into the index's place was dropped for its
    size (the index may be joined to art or a frame), 'cut' when dropped for reaching the far border at a guessed
    corner (``whole_only``: the index may be joined to a court picture). ``waist``: cut each tall blob across at
    its waist, where it has one (``_waist_split``). ``cache``: the patch's thresholded ink and its components,
    shared by the passes (``_binary``)."""
    h, w = patch_bgr.shape[:2]
    entry = _binary(cache, ink, thr, edge, erode, open_lines)
    if split or waist:
        part = _split_tall if split else _waist_split
        parted = part(entry.binary, _components(entry))
        if parted is None:
            return None  # nothing to part: this pass would find what the plain one found
        n, labels, stats, _ = components(parted)
    else:
        n, labels, stats, _ = _components(entry)
    comps = []
    min_h = 0.045 * h
    for i, (x, y, cw, ch, area) in enumerate(stats.tolist()):
        if i == 0:
            continue
        if area < 10 or max(cw, ch) < min_h * 0.6:
            continue
        left, top, right, bottom = x <= 0, y <= 0, x + cw >= w, y + ch >= h
        if edge is not None and cw < 0.2 * h and ch < 0.2 * h and x < 0.2 * w and y < 0.12 * h and \
                edge[1][labels == i].any():
            continue  # what is left of the rounded corner where the two cleared edges meet
        # Not the index: the table in the rounded corner or along an edge, art or pips reaching in.
        if (whole_only and right) or (left and top) or bottom or (left and ch > 0.6 * h) or \
                (top and cw > 0.6 * w) or (right and ch > 0.25 * h) or cw > 0.8 * w or ch > 0.75 * h:
            if big is not None and area > 0.02 * w * h and x < 0.5 * w and y < 0.5 * h:
                big.add("cut" if whole_only and right else "big")
            continue
        comps.append((x, y, cw, ch, area, i))
    if not comps:
        return None
    # Rank seed: the topmost glyph of glyph-like height in the left part of the patch.
    tall = [c for c in comps if c[3] >= min_h and c[0] < 0.6 * w]
    if not tall:
        return None
    seed = min(tall, key=lambda c: c[1])
    group = [seed]
    sx0, sy0, sx1, sy1 = seed[0], seed[1], seed[0] + seed[2], seed[1] + seed[3]
    changed = True
    while changed:  # grow the row: '10', a rank broken into pieces at low resolution
        changed = False
        for c in comps:
            if c in group:
                continue
            cx0, cy0, cx1, cy1 = c[0], c[1], c[0] + c[2], c[1] + c[3]
            overlap = min(sy1, cy1) - max(sy0, cy0)
            gap = max(cx0 - sx1, sx0 - cx1, 0)
            inside_y = cy0 >= sy0 - 1 and cy1 <= sy1 + 1
            if (overlap >= 0.5 * min(c[3], sy1 - sy0) or inside_y) and \
                    (gap <= 0.35 * (sy1 - sy0) or gap <= TEN_GAP * (sy1 - sy0) and _beside_a_one(group, c)) and \
                    cy1 <= sy1 + 0.25 * (sy1 - sy0):
                group.append(c)
                sx0, sy0, sx1, sy1 = min(sx0, cx0), min(sy0, cy0), max(sx1, cx1), max(sy1, cy1)
                changed = True
    rank_box = (sx0, sy0, sx1 - sx0, sy1 - sy0)
    rank_crop = _crop(ink, labels, n, [c[5] for c in group], rank_box)
    # Suit: the nearest glyph below the rank, roughly under it.
    rh = sy1 - sy0
    rcx = (sx0 + sx1) / 2
    # Parted from the rank (``split``), the suit keeps what joined them: its top may reach further up.
    lap = 0.4 if split or waist else 0.2
    below = [c for c in comps if c not in group and c[1] >= sy1 - lap * rh and c[1] <= sy1 + 1.2 * rh
             and abs(c[0] + c[2] / 2 - rcx) <= max(0.9 * rh, (sx1 - sx0) / 2 + 0.3 * rh)
             and max(c[2], c[3]) >= 0.3 * rh and c[2] >= 0.2 * rh]
    suit_crop = None
    suit_box = None
    if below:
        first = min(below, key=lambda c: c[1])
        ux0, uy0, ux1, uy1 = first[0], first[1], first[0] + first[2], first[1] + first[3]
        sgroup = [first]
        for c in below:  # pieces of a suit broken apart (club leaves, stem)
            if c is first:
                continue
            if c[0] >= ux0 - 2 and c[0] + c[2] <= ux1 + 2 and c[1] <= uy1 + 2 and c[1] + c[3] <= uy1 + 0.6 * (uy1 - uy0):
                sgroup.append(c)
                ux0, uy0 = min(ux0, c[0]), min(uy0, c[1])
                ux1, uy1 = max(ux1, c[0] + c[2]), max(uy1, c[1] + c[3])
        suit_box = (ux0, uy0, ux1 - ux0, uy1 - uy0)
        suit_crop = _crop(ink, labels, n, [c[5] for c in sgroup], suit_box)
    return IndexGlyphs(rank_crop, suit_crop, rank_box, suit_box, paper.astype(np.float32), ink)


def _beside_a_one(group: Sequence[tuple[int, ...]], c: tuple[int, ...]) -> bool:
    """The row so far is one bar-like glyph (a '1': at most 0.35 times as wide as tall) and ``c`` (x, y, w, h,
    ...) lies to its right, as tall (0.75-1.25 times), its top and foot within 0.15 of the height of the bar's:
    the '0' of a '10'."""
    if len(group) != 1:
        return False
    x, y, w, h = group[0][:4]
    cx, cy, cw, ch = c[:4]
    return w <= 0.35 * h and cx >= x + w and 0.75 * h <= ch <= 1.25 * h and abs(cy - y) <= 0.15 * h \
        and abs(cy + ch - y - h) <= 0.15 * h


def _ink_colour(patch_bgr: np.ndarray, ink: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The mean colour of a glyph's stronger ink (over its mean): a thin stroke at low resolution is paper at its rim,
    and its mean over the whole glyph pales a red rank to pink (a 6 of hearts 30 levels redder than green,
    under the 35 that tells red)."""
    cut = cv2.mean(ink, mask)[0]  # the glyph's mean ink: about its median, and cheaper
    core = cv2.bitwise_and((ink >= cut).astype(np.uint8), mask)
    return np.array(cv2.mean(patch_bgr, core)[:3])


def glyph_colours(g: IndexGlyphs, patch_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colours of the rank's and the suit's stronger half of ink (``_ink_colour``); the rank's for the suit
    where there is none."""
    rank = _strong_colour(g.rank, g.rank_box, patch_bgr)
    if g.suit is None or g.suit_box is None:
        return rank, rank
    return rank, _strong_colour(g.suit, g.suit_box, patch_bgr)


def _strong_colour(crop: np.ndarray, box: tuple[int, int, int, int], patch_bgr: np.ndarray) -> np.ndarray:
    """``_ink_colour`` of a glyph's ink crop (``_crop``, over the box's ``_window``)."""
    window = patch_bgr[_window(box, patch_bgr.shape)]
    if not (crop > 0).any():
        return np.array(cv2.mean(window)[:3])
    return _ink_colour(window, crop, (crop > 0).astype(np.uint8))


def _edge_depth(band: np.ndarray, reach: int) -> np.ndarray | None:
    """``band``: the rows next to one patch edge (row 0 at the edge), one column per position along it. When
    most positions start with ink (the table, the card's edge or its shadow: the frame starts a little outside
    the card, or is turned a little), the depth of that ink at each position, as a fitted line, else None.
    Glyphs touching the edge reach deeper than the line: positions deeper than the median, then deeper than
    the first fit, are left out. The line may run deeper than the band where the frame is turned (a wedge of
    table), up to ``reach``."""
    n_rows, n = band.shape
    starts = band[0] > 0
    if starts.sum() < 0.5 * n:
        return None
    depth = np.argmin(band, axis=0).astype(np.float64)  # first paper row; 0 where the band is all ink
    keep = starts & (depth > 0)
    if keep.sum() < 0.3 * n:
        return None
    xs = np.arange(n, dtype=np.float64)
    kept = np.sort(depth[keep])
    fit = np.full(n, float(kept[len(kept) // 2]))  # the median (np.median costs ten times more here)
    for _ in range(2):
        sel = keep & (depth <= fit + 1.5)
        k = int(sel.sum())
        if k < 0.2 * n:
            break
        x, d = xs[sel], depth[sel]
        xm, dm = float(x.sum()) / k, float(d.sum()) / k
        xc = x - xm
        var = float(xc @ xc)
        fit = dm + (float(xc @ (d - dm)) / var if var > 0 else 0.0) * (xs - xm)
    out: np.ndarray = np.clip(fit + 1.0, 0, reach)  # a pixel more: the blurred fringe
    return out


def _edge_mask(binary: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The ink along the patch's top and left edges that is not the card (the table, the card's edge or its
    shadow, when the frame starts a little outside the card or is turned a little), as (cleared, near) masks,
    or None when there is none. A rank touching that ink would otherwise be one blob with the whole edge. The
    edge is a fitted line, so glyphs keep their shape below it."""
    h, w = binary.shape
    band_y, band_x = max(3, int(0.12 * h)), max(3, int(0.2 * w))
    reach_y, reach_x = min(2 * band_y, h), min(2 * band_x, w)
    top = _edge_depth(binary[:band_y], reach_y)
    left = _edge_depth(binary[:, :band_x].T, reach_x)
    if top is None and left is None:
        return None
    gone = np.zeros(binary.shape, np.uint8)
    if top is not None:
        gone[:reach_y] |= (np.arange(reach_y)[:, None] < top[None, :]).astype(np.uint8)
    if left is not None:
        gone[:, :reach_x] |= (np.arange(reach_x)[None, :] < left[:, None]).astype(np.uint8)
    return gone, cv2.dilate(gone, np.ones((3, 3), np.uint8))


def _part_tall(binary: np.ndarray, tall: float, part: Callable[[np.ndarray], np.ndarray | None],
               counted: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None) -> np.ndarray | None:
    """``binary`` with each tall blob (at least ``tall`` times taller than wide and a quarter of the patch high:
    a rank run into the suit below it) replaced by what ``part`` makes of it (the blob's own box, 0/1), where it
    parts it. None when no blob was parted. ``counted``: ``binary``'s components, where counted already."""
    h, _ = binary.shape
    n, labels, stats, _ = counted or components(binary)
    out = binary.copy()
    parted = False
    for i in range(1, n):
        x, y, bw, bh = (int(v) for v in stats[i, :4])
        if bh < tall * bw or bh < 0.25 * h:
            continue
        blob = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        pieces = part(blob)
        if pieces is None:
            continue
        region = out[y:y + bh, x:x + bw]
        region[blob > 0] = 0
        region |= pieces
        parted = True
    return out if parted else None


def _split_tall(binary: np.ndarray, counted: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None
                ) -> np.ndarray | None:
    """Part each tall blob (rank run into the suit below it) into an upper rank and a lower solid suit: the
    suit is what survives an opening a quarter of the blob's width (a thin stroke does not), grown back inside
    the blob below its top; the rank is the rest, kept a pixel away. None when there is no blob to part."""
    return _part_tall(binary, 1.5, _rank_off_suit, counted)


def _rank_off_suit(blob: np.ndarray) -> np.ndarray | None:
    """One tall blob parted as ``_split_tall`` does, or None."""
    bh, bw = blob.shape
    k = max(5, int(0.25 * bw)) | 1
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    core = cv2.morphologyEx(blob, cv2.MORPH_OPEN, disk)
    m, cl, cs, _ = components(core)
    low = [j for j in range(1, m) if cs[j, 1] >= 0.3 * bh and cs[j, 4] >= 0.1 * bw * bw]
    if not low:
        return None
    j = max(low, key=lambda j: int(cs[j, 4]))
    top = int(cs[j, 1])
    body = (cl == j).astype(np.uint8)
    # The rank: what is outside the suit's body and reaches above it (a J's hook stays with its stem).
    rest = blob & (1 - cv2.dilate(body, np.ones((3, 3), np.uint8)))
    m, rl, rs, _ = components(rest)
    rank = np.isin(rl, [r for r in range(1, m) if rs[r, 1] < top]).astype(np.uint8)
    if rank.sum() < 0.02 * bw * bh:
        return None
    suit = cv2.dilate(body, disk) & blob & (1 - cv2.dilate(rank, np.ones((3, 3), np.uint8)))
    suit[:top] = 0
    out: np.ndarray = suit | rank
    return out


def _waist_split(binary: np.ndarray, counted: tuple[int, np.ndarray, np.ndarray, np.ndarray] | None = None
                 ) -> np.ndarray | None:
    """Cut each tall blob (a rank run into the suit below it: a small, soft index, the J's hook on a diamond's
    tip) across at its waist, where the two glyphs meet (``index_search.waist_cut``; the neck at most half the
    widest row). None when there is no such blob."""

    def cut(blob: np.ndarray) -> np.ndarray | None:
        pieces = waist_cut(blob > 0, max_neck=0.5)
        return (pieces[0] | pieces[1]).astype(np.uint8) if pieces else None

    return _part_tall(binary, WAIST_TALL, cut, counted)


def _window(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[slice, slice]:
    """A glyph's box and a pixel around it, clipped to a patch of ``shape``: where its ink crop lies."""
    x, y, w, h = box
    return slice(max(y - 1, 0), min(y + h + 1, shape[0])), slice(max(x - 1, 0), min(x + w + 1, shape[1]))


def _crop(ink: np.ndarray, labels: np.ndarray, n: int, ids: list[int], box: tuple[int, int, int, int]) -> np.ndarray:
    """The ink of components ``ids`` (``labels`` of ``n``; all inside ``box``), grown by a pixel, over the box's
    ``_window``."""
    window = _window(box, ink.shape)
    keep = np.zeros(n, np.uint8)
    keep[ids] = 1
    m = cv2.dilate(keep[labels[window]], np.ones((3, 3), np.uint8))
    return (ink[window] * m).astype(np.float32)


def _peak(crop: np.ndarray) -> float:
    """The 99th percentile of the ink (np.partition: np.percentile costs ten times more on these small crops)."""
    if not crop.size:
        return 0.0
    flat = crop.ravel()
    pos = 0.99 * (flat.size - 1)  # numpy's default ('linear') definition, so the features do not change
    lo = int(pos)
    hi = min(lo + 1, flat.size - 1)
    part = np.partition(flat, (lo, hi))
    return float(part[lo] + (part[hi] - part[lo]) * (pos - lo))


def glyph_box(crop: np.ndarray) -> np.ndarray:
    """One glyph crop (ink map) normalised: peak ink 1, aspect kept, centred in a ``GLYPH_BOX`` square."""
    h, w = crop.shape[:2]
    g = np.clip(crop / max(_peak(crop), 1e-3), 0, 1).astype(np.float32)
    inner = GLYPH_BOX - 4
    s = inner / max(h, w, 1)
    nw, nh = max(1, int(round(w * s))), max(1, int(round(h * s)))
    box = np.zeros((GLYPH_BOX, GLYPH_BOX), np.float32)
    ox, oy = (GLYPH_BOX - nw) // 2, (GLYPH_BOX - nh) // 2
    box[oy:oy + nh, ox:ox + nw] = cv2.resize(g, (nw, nh), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
    return box


def glyph_features(crop: np.ndarray, box: np.ndarray | None = None) -> np.ndarray:
    """Fixed-length features of one glyph crop: HOG of the aspect-kept glyph, a stretched thumbnail, aspect.
    ``box``: the crop's ``glyph_box`` when already made."""
    h, w = crop.shape[:2]
    g = np.clip(crop / max(_peak(crop), 1e-3), 0, 1).astype(np.float32)
    if box is None:
        box = glyph_box(crop)
    hog = _hog(box)
    thumb = cv2.resize(g, (12, 12), interpolation=cv2.INTER_AREA).ravel()
    aspect = np.array([np.log(max(w, 1) / max(h, 1))], np.float32)
    return np.concatenate([hog, thumb, aspect]).astype(np.float32)


N_FEATURES = int(glyph_features(np.ones((10, 8), np.float32)).size)


def corner_patch(image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray) -> np.ndarray:
    """Resample the corner frame from ``image``: ``origin`` the card corner, ``x_axis``/``y_axis`` one card width
    along the top edge and down the side (pixel vectors). Returns a ``PATCH_SIZE`` BGR patch."""
    pw = float(PATCH_PX)
    # Map patch pixel (u, v) -> image origin + (u/pw) x_axis + (v/pw) y_axis.
    m = np.array([[x_axis[0] / pw, y_axis[0] / pw, origin[0]],
                  [x_axis[1] / pw, y_axis[1] / pw, origin[1]]], np.float32)
    return cv2.warpAffine(image, m, PATCH_SIZE, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)
