"""The whole-corner classifier's training frames cut from synthetic tables (``tools/train_corner.py``): each
labelled with the card whose index it shows, junk only far from every index."""

from __future__ import annotations

import numpy as np

from companion.vision.synthetic import render_scene
from tools.train_corner import RANK_CLASSES, SCENE_KINDS, SCENE_SEEDS, SUIT_CLASSES, _scene_sample


def test_table_frames_are_labelled_with_the_cards_on_that_table() -> None:
    seed = SCENE_SEEDS + 1  # a default-size table (SCENE_KINDS by seed)
    x, ranks, suits = _scene_sample((seed, 1, False))
    assert x.shape[1:] == (2, 62, 34) and x.dtype == np.uint8 and len(x) == len(ranks) == len(suits)
    size, height, mat = SCENE_KINDS[seed % len(SCENE_KINDS)]
    from companion.vision.glyphs import TRAIN_DECKS
    sc = render_scene(seed, size=size, deck=TRAIN_DECKS[(seed // len(SCENE_KINDS)) % len(TRAIN_DECKS)],
                      jokers=False, card_height=height, mat=mat)
    shown = {c.code for c in sc.cards if c.face_up and any(ix.visible_fraction >= 0.8 for ix in c.indices.values())}
    cards = ranks < RANK_CLASSES.index("junk")
    labelled = {RANK_CLASSES[r] + SUIT_CLASSES[s] for r, s in zip(ranks[cards], suits[cards])}
    assert labelled == shown  # the cards whose index shows, and nothing else
    corners = sum(ix.visible_fraction >= 0.8 for c in sc.cards if c.face_up for ix in c.indices.values())
    assert int(cards.sum()) == 2 * corners  # each index that shows, in two misregistered frames
    # Junk is junk in both heads, and there is some (the frames the reader left unnamed far from any index).
    assert ((ranks == RANK_CLASSES.index("junk")) == (suits == SUIT_CLASSES.index("junk"))).all()
    assert int((~cards).sum()) >= 8



FREE_SERIF = "/usr/share/fonts/truetype/freefont/FreeSerif"  # GNU FreeFont (apt fonts-freefont-ttf)


def _pointed_top(mask: np.ndarray) -> float:
    """A symbol's width 6 % of the way down over its widest: a spade's tip is narrow (0.07-0.17 in the 82 suit
    fonts here), a club's top leaf already round (0.30-0.35)."""
    widths = (mask > 100).sum(axis=1).astype(float)
    return float(widths[int(0.06 * len(widths))] / widths.max())


def test_fonts_that_swap_the_black_spade_and_club_are_told_and_drawn_right() -> None:
    # FreeSerifBold and FreeSerifBoldItalic draw a club at U+2660 (black spade) and a spade at U+2663 (black club),
    # their outlined U+2664/U+2667 the right way round; FreeSerif itself draws all four right. A suit font's
    # spade made from U+2660 there was a club labelled a spade, in training glyphs and benchmark decks alike.
    from companion.vision import glyphs as G

    assert not G._spade_club_swapped(FREE_SERIF + ".ttf")
    for face in ("Bold", "BoldItalic"):
        path = f"{FREE_SERIF}{face}.ttf"
        assert G._spade_club_swapped(path)
        assert _pointed_top(G.text_mask(path, G.SUIT_CHAR["s"])) > 0.25  # U+2660 there: a club's round top
    # Every suit font's spade, as suit_mask draws it, has a spade's tip and its club a club's round top.
    fonts = G.suit_fonts()
    assert any("FreeSerifBold" in f for f in fonts)
    for path in fonts:
        spade, club = G.suit_mask(path, "s"), G.suit_mask(path, "c")
        assert spade is not None and club is not None
        assert _pointed_top(spade) < 0.23 < _pointed_top(club), path
