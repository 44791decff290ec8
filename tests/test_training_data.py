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
