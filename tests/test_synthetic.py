"""Synthetic tables: determinism, and truth that agrees with itself, with the picture and with the table logic."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("cv2")

from companion.vision import BACK  # noqa: E402
from companion.vision import synthetic as S  # noqa: E402
from companion.vision.table import expect_for_round, vote  # noqa: E402

try:
    S.available_decks()
except S.DeckError as exc:  # pragma: no cover - decks live outside the repository
    pytest.skip(f"card decks not available: {exc}", allow_module_level=True)

SMALL = (400, 300)
SEEDS = range(8)


@pytest.fixture(scope="module")
def scenes():
    return [S.render_scene(seed, size=SMALL) for seed in SEEDS]


def test_same_seed_same_picture_and_truth():
    a = S.render_scene(11, size=SMALL)
    b = S.render_scene(11, size=SMALL)
    assert np.array_equal(a.image, b.image)
    assert json.dumps(a.to_dict()) == json.dumps(b.to_dict())
    c = S.render_scene(12, size=SMALL)
    assert not np.array_equal(a.image, c.image)


def test_every_truth_quad_and_index_box_lies_in_the_picture(scenes):
    for sc in scenes:
        w, h = sc.size
        assert sc.image.shape == (h, w, 3) and sc.image.dtype == np.uint8
        for c in sc.cards:
            assert c.quad.shape == (4, 2)
            assert (c.quad >= 0).all() and (c.quad[:, 0] <= w).all() and (c.quad[:, 1] <= h).all(), (sc.seed, c)
            for ix in c.indices.values():
                assert (ix.box >= -1).all() and (ix.box[:, 0] <= w + 1).all() and (ix.box[:, 1] <= h + 1).all()


def test_quads_run_clockwise_from_the_printed_top_left(scenes):
    for sc in scenes:
        for c in sc.cards:
            q = c.quad.astype(np.float64)
            # Shoelace: positive area means clockwise on a picture whose y axis points down.
            area = 0.5 * sum(q[i, 0] * q[(i + 1) % 4, 1] - q[(i + 1) % 4, 0] * q[i, 1] for i in range(4))
            assert area > 0
            if c.face_up:  # the tl index box sits at the first corner, the br box at the third
                assert np.linalg.norm(c.indices["tl"].box.mean(axis=0) - q[0]) < np.linalg.norm(
                    c.indices["tl"].box.mean(axis=0) - q[2])
                assert np.linalg.norm(c.indices["br"].box.mean(axis=0) - q[2]) < np.linalg.norm(
                    c.indices["br"].box.mean(axis=0) - q[0])


def test_codes_are_distinct_and_backs_hide_a_real_card(scenes):
    for sc in scenes:
        faces = [c.code if c.face_up else c.hidden_code for c in sc.cards]
        assert len(faces) == len(set(faces))
        for c in sc.cards:
            if c.face_up:
                assert c.code in S.ALL_CODES and set(c.indices) == {"tl", "br"} and c.hidden_code is None
            else:
                assert c.code == BACK and c.indices == {} and c.hidden_code in S.ALL_CODES


def test_overlapping_pockets_hide_the_lower_cards_far_corner():
    checked = 0
    for seed in range(10):
        sc = S.render_scene(seed, size=SMALL, face_down_prob=0.0, hand_size=2, chips=False, clean=True)
        for seat in {c.zone for c in sc.cards if c.zone.startswith("seat:")}:
            lower, upper = sorted(sc.zone_cards(seat), key=lambda c: c.z)
            fractions = sorted(ix.visible_fraction for ix in lower.indices.values())
            assert fractions[0] < 0.2, (seed, seat, lower)  # the far corner is under the upper card
            assert fractions[1] >= 0.8, (seed, seat, lower)  # the near corner index shows
            assert all(ix.visible_fraction >= 0.95 for ix in upper.indices.values())
            assert lower.visible_fraction < 0.7 and upper.visible_fraction == 1.0
            checked += 1
    assert checked >= 20


def test_community_row_shows_every_index(scenes):
    for sc in scenes:
        for c in sc.zone_cards("community"):
            assert all(ix.visible_fraction >= 0.9 for ix in c.indices.values()), (sc.seed, c)


def test_truth_zones_agree_with_the_scene_zones(scenes):
    for sc in scenes:
        for c in sc.cards:
            assert sc.zones.zone_at(c.centre_norm(sc.size)) == c.zone


def test_options_are_obeyed():
    sc = S.render_scene(3, size=SMALL, n_community=4, n_seats=5, hand_size=3, empty_seat_prob=0.0,
                        face_down_prob=1.0, mat="blue", deck="saulspatz_vertical2")
    assert len(sc.zone_cards("community")) == 4 and sc.mat == "blue" and sc.n_seats == 5
    assert all(len(sc.zone_cards(f"seat:{i}")) == 3 for i in range(5))
    assert all(not c.face_up for c in sc.cards if c.zone != "community")
    assert {c.deck for c in sc.cards} == {"saulspatz_vertical2"}
    with pytest.raises(ValueError):
        S.render_scene(0, size=SMALL, n_community=6)
    with pytest.raises(ValueError, match="no mat colour"):
        S.render_scene(0, size=SMALL, mat="plaid")
    # A light surface only when asked for by name: a seed's own choice stays among the mats.
    cloth = S.render_scene(3, size=SMALL, mat="white_cloth")
    assert cloth.mat == "white_cloth" and cloth.image.mean() > 150
    assert all(S.render_scene(s, size=SMALL).mat in S.MAT_COLOURS for s in range(12))
    with pytest.raises(S.DeckError, match="no such deck"):
        S.render_scene(0, size=SMALL, deck="tarot")


def test_a_held_out_deck_never_appears():
    train = [d for d in S.available_decks() if d != "saulspatz_gang4colour"]
    for seed in range(6):
        sc = S.render_scene(seed, size=(200, 150), deck=train, chips=False)
        assert all(c.deck in train + ["generated"] for c in sc.cards)


def test_decks_without_backs_get_a_generated_back():
    sc = S.render_scene(1, size=SMALL, deck="byronknoll_vector", face_down_prob=1.0, n_seats=3, empty_seat_prob=0.0)
    assert {c.deck for c in sc.cards if not c.face_up} == {"generated"}


def test_lores_and_perfect_reads_feed_the_table_logic(scenes):
    for sc in scenes:
        small, s = sc.lores((200, 150))
        assert small.shape == (150, 200, 3) and s == pytest.approx(0.5)
        reads = sc.card_reads(scale=s)
        r = vote([reads, reads], sc.zones, (200, 150), expect=expect_for_round(2))
        n_comm = len(sc.zone_cards("community"))
        assert r.codes("community") == [c.code for c in sorted(
            sc.zone_cards("community"), key=lambda c: sc.zones["community"].order_key(c.centre_norm(sc.size)))]
        for zone in {c.zone for c in sc.cards}:
            assert sorted(map(str, r.codes(zone))) == sorted(c.code for c in sc.zone_cards(zone)), (sc.seed, zone)
        non_count = [i for i in r.issues if i.kind != "count"]
        assert non_count == [], (sc.seed, non_count)
        assert (n_comm == 3) == all(i.zone != "community" for i in r.issues)


def test_write_dataset(tmp_path):
    import cv2

    paths = S.write_dataset(tmp_path, [4, 5], size=(320, 240), lores_size=(160, 120), chips=False)
    assert [p.name for p in paths] == ["scene_4.png", "scene_5.png"]
    truth = json.loads((tmp_path / "scene_4.json").read_text())
    assert truth["seed"] == 4 and truth["lores_scale"] == 0.5
    assert cv2.imread(str(tmp_path / "scene_5_lores.png")).shape == (120, 160, 3)
    assert np.array_equal(cv2.imread(str(paths[0])), S.render_scene(4, size=(320, 240), chips=False).image)


def test_truth_is_plain_json(scenes):
    d = json.loads(json.dumps(scenes[0].to_dict()))
    assert d["size"] == list(SMALL) and len(d["cards"]) == len(scenes[0].cards)
    card = d["cards"][0]
    assert set(card) >= {"code", "quad", "face_up", "zone", "deck", "indices"}


def test_index_boxes_sit_in_the_corners():
    for deck in S.available_decks():
        for code in ("AS", "TD", "QH", "7C", "JR"):
            img = S.card_image(deck, code)
            h, w = img.shape[:2]
            boxes = S.index_boxes(deck, code)
            x0, y0, x1, y1 = boxes["tl"]
            assert 0 <= x0 < x1 <= 0.36 * w and 0 <= y0 < y1 <= 0.56 * h
            bx0, by0, bx1, by1 = boxes["br"]
            assert bx0 >= 0.6 * w and by0 >= 0.44 * h and bx1 <= w and by1 <= h
            if code != "JR":  # rank over suit: taller than a sixth of the card (a lone suit is not)
                assert y1 - y0 > 0.16 * h and by1 - by0 > 0.16 * h
    assert S.index_boxes("byronknoll_vector", "KD")["br"][3] - S.index_boxes("byronknoll_vector", "KD")["br"][1] > 100


def test_module_examples_run():
    import doctest

    result = doctest.testmod(S, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_stacked_community_slots_hold_two_cards_both_indices_showing():
    # The Jokers variant: a joker turned up in the row is replaced by two cards laid one on the other so both
    # show. stacked=2: the first two slots hold such a pair, the second card on top, a little down the row's
    # normal; both top-left indices show. stacked=0 leaves a seed's scene as it was.
    plain = S.render_scene(9001, n_community=5, jokers=False)
    assert np.array_equal(S.render_scene(9001, n_community=5, jokers=False, stacked=0).image, plain.image)
    sc = S.render_scene(9001, n_community=5, jokers=False, stacked=2)
    row = [c for c in sc.cards if c.zone == "community"]
    assert len(row) == 7
    pairs = [(a, b) for a, b in zip(row, row[1:]) if b.z == a.z + 1 and
             np.linalg.norm(b.quad.mean(axis=0) - a.quad.mean(axis=0)) < 0.5 * np.linalg.norm(a.quad[2] - a.quad[1])]
    assert len(pairs) == 2
    for lower, upper in pairs:
        assert lower.indices["tl"].visible_fraction >= 0.8 and upper.indices["tl"].visible_fraction >= 0.8
        assert upper.visible_fraction > 0.99 and lower.visible_fraction < 0.9
    with pytest.raises(ValueError, match="stacked"):
        S.render_scene(9001, n_community=2, stacked=3)
