"""Table logic on hand-made detections: voting, zones, every kind of flag, the crew's answers; zones files."""

from __future__ import annotations

import json

import numpy as np
import pytest

from companion.vision import BACK, CardRead
from companion.vision.sources import MockSource
from companion.vision.table import (
    OUTSIDE,
    Expect,
    ReadingError,
    Rules,
    SettleDetector,
    UnresolvedReading,
    expect_for_round,
    read_settled,
    standard_deck,
    vote,
)
from companion.vision.zones import Zone, ZoneError, Zones, default_layout, layout_from_points, save_overlay

SIZE = (640, 480)
ZONES = default_layout(4, aspect=SIZE[0] / SIZE[1])
W, H = 60, 84  # card size in pixels


def card(code, x, y, corner="tl", conf=0.99, face_down=False, angle=0.0):
    c, s = np.cos(angle), np.sin(angle)
    local = np.array([[-W / 2, -H / 2], [W / 2, -H / 2], [W / 2, H / 2], [-W / 2, H / 2]])
    return CardRead(code, conf, local @ np.array([[c, -s], [s, c]]).T + [x, y], corner, face_down)


def both(code, x, y, conf=0.99):
    return [card(code, x, y, "tl", conf), card(code, x, y, "br", conf)]


# Community row at y=240, seat 0 (bottom) at y=420, seat 2 (top) at y=60.
FLOP = both("Ah", 240, 240) + both("7c", 320, 240) + both("Ts", 400, 240)


def kinds(reading):
    return sorted(i.kind for i in reading.issues)


def test_clean_flop_is_accepted_left_to_right():
    frame = list(reversed(FLOP))  # the reader's order does not matter
    r = vote([frame] * 3, ZONES, SIZE, expect=expect_for_round(2))
    assert r.codes("community") == ["Ah", "7c", "Ts"]
    assert r.issues == []
    assert r.accepted() == {"community": ["Ah", "7c", "Ts"]}
    seen = r.zone("community")[0]
    assert seen.corners == {"br": "Ah", "tl": "Ah"} and seen.frames_seen == 3 and seen.frames_total == 3
    assert seen.confidence == pytest.approx(0.99)
    assert seen.centre == pytest.approx((240 / 640, 240 / 480))


def test_pocket_pair_fanned_by_a_third_of_a_card_stays_two_cards():
    # Lower card: only its top-left index shows; the upper card, a third of a card to the right, shows both.
    frame = [card("9d", 300, 420, "tl"), card("Kc", 320, 420, "tl"), card("Kc", 320, 420, "br")]
    r = vote([frame] * 2, ZONES, SIZE, expect=expect_for_round(1))
    assert r.codes("seat:0") == ["9d", "Kc"]
    assert r.issues == []


def test_votes_across_frames_and_the_confidence_they_give():
    frames = [[card("Qs", 320, 240)]] * 4 + [[card("Qc", 320, 240)]]
    r = vote(frames, ZONES, SIZE)
    seen = r.zone("community")[0]
    assert seen.code == "Qs"
    assert seen.confidence == pytest.approx(0.8 * 0.99)  # 4 of 5 votes, each read 0.99 sure
    assert [i.kind for i in r.issues] == ["low_confidence"]
    assert r.issues[0].message == ("Card 1 of the community row (from the left) looks like the queen of spades, "
                                   "but the reader is not sure (79%).")
    r.confirm("community", 0)
    assert r.issues == [] and r.zone("community")[0].status == "confirmed"


def test_low_confidence_read_is_flagged_never_accepted():
    r = vote([both("5h", 320, 240, conf=0.55)], ZONES, SIZE)
    assert kinds(r) == ["low_confidence"]
    with pytest.raises(UnresolvedReading, match="not sure"):
        r.accepted()


def test_corners_that_disagree_are_flagged_and_a_correction_settles_them():
    frame = [card("6h", 320, 240, "tl"), card("8h", 320, 240, "br")]
    r = vote([frame] * 3, ZONES, SIZE)
    assert kinds(r) == ["corners_disagree"]
    issue = r.issues[0]
    assert issue.cards == ("6h", "8h") and (issue.zone, issue.index) == ("community", 0)
    assert issue.message == ("The corners of card 1 of the community row (from the left) disagree: "
                             "the 6 of hearts and the 8 of hearts.")
    r.correct("community", 0, "8h")
    assert r.issues == []
    assert r.zone("community")[0].original in ("6h", "8h") and r.codes("community") == ["8h"]


def test_a_card_read_twice_is_flagged_in_both_places():
    frame = both("Ah", 320, 240) + both("Ah", 320, 420)
    r = vote([frame], ZONES, SIZE)
    assert kinds(r) == ["duplicate"]
    assert r.issues[0].places == (("community", 0), ("seat:0", 0))
    assert r.issues[0].message == ("The ace of hearts is read twice: card 1 of the community row (from the left) "
                                   "and card 1 in seat 1.")
    # Confirming one read does not make the other go away: the same card cannot lie in two places.
    r.confirm("community", 0)
    assert kinds(r) == ["duplicate"]
    r.correct("seat:0", 0, "Ad")
    assert r.issues == []


def test_joker_only_where_the_variant_plays_jokers():
    frame = both("JR", 320, 240)
    r = vote([frame], ZONES, SIZE)
    assert kinds(r) == ["not_in_deck"]
    assert r.issues[0].message == ("Card 1 of the community row (from the left) reads as the red joker, which is "
                                   "not in this game's deck.")
    assert vote([frame], ZONES, SIZE, rules=Rules(deck=standard_deck(jokers=True))).issues == []


def test_a_card_already_placed_elsewhere_is_flagged():
    r = vote([both("Ah", 320, 240)], ZONES, SIZE, known={"Ah": "seat:2", "Kd": "community"})
    assert kinds(r) == ["elsewhere"]
    assert r.issues[0].message == ("The ace of hearts was in seat 3; now it is read as card 1 of the community row "
                                   "(from the left).")


def test_counts_per_round():
    r = vote([FLOP], ZONES, SIZE, expect=expect_for_round(3))
    assert [i.message for i in r.issues] == ["The community row should hold 4 cards; 3 are there."]
    r.add("community", "2d")
    assert r.issues == [] and r.codes("community") == ["Ah", "7c", "Ts", "2d"]
    r = vote([FLOP], ZONES, SIZE, expect=expect_for_round(1))
    assert [i.message for i in r.issues] == ["The community row should hold no cards; 3 are there."]


def test_showdown_hands_must_lie_face_up_with_enough_cards():
    frame = FLOP + both("2c", 200, 240) + both("3c", 440, 240)
    frame += [card("9d", 300, 420), card("Kc", 320, 420), card("Kc", 320, 420, "br")]  # seat 0: two cards
    frame += [card("Qd", 320, 60)]  # seat 2: one card
    frame += [card(BACK, 40, y, face_down=True, angle=np.pi / 2) for y in (220, 250)]  # seat 1: face down
    r = vote([frame] * 2, ZONES, SIZE, expect=expect_for_round(4, showdown=True))
    assert r.codes("community") == ["2c", "Ah", "7c", "Ts", "3c"]
    assert r.codes("seat:1") == [BACK, BACK]
    msgs = [i.message for i in r.issues]
    assert msgs == [
        "Card 1 in seat 2 is still face down at the showdown.",
        "Card 2 in seat 2 is still face down at the showdown.",
        "The hand in seat 3 should have 2 cards; it has 1.",
    ]


def test_expected_seats_with_no_cards_are_counted():
    r = vote([FLOP], ZONES, SIZE, expect=Expect(community=3, hand_min=2, hand_max=2, seats=("seat:0",)))
    assert [i.message for i in r.issues] == ["The hand in seat 1 should have 2 cards; it has 0."]


def test_face_down_card_in_the_community_row_is_flagged():
    r = vote([[card(None, 320, 240, "none", 0.9, face_down=True)]], ZONES, SIZE)
    assert r.codes("community") == [BACK]
    assert kinds(r) == ["face_down"]


def test_unreadable_card_is_flagged_and_can_be_corrected_not_confirmed():
    r = vote([[card(None, 320, 240, conf=0.3)]] * 2, ZONES, SIZE)
    assert kinds(r) == ["unreadable"]
    assert r.issues[0].message == "Card 1 of the community row (from the left) could not be read."
    with pytest.raises(ReadingError, match="correct it"):
        r.confirm("community", 0)
    r.correct("community", 0, "10d")
    assert r.codes("community") == ["Td"] and r.issues == []


def test_unreadable_reads_outvote_a_lone_guess():
    frames = [[card(None, 320, 240, conf=0.2)], [card(None, 320, 240, conf=0.2)], [card("4s", 320, 240, conf=0.9)]]
    r = vote(frames, ZONES, SIZE)
    assert r.codes("community") == [None] and kinds(r) == ["unreadable"]


def test_a_card_seen_in_few_frames_is_flagged():
    frames = [FLOP + both("2d", 320, 420)] + [FLOP] * 3
    r = vote(frames, ZONES, SIZE)
    assert kinds(r) == ["unsteady"]
    assert r.issues[0].message == "Card 1 in seat 1 was seen in only 1 of 4 pictures."
    r.remove("seat:0", 0)
    assert r.issues == []


def test_card_outside_every_zone():
    zones = Zones((Zone("community", ((0.2, 0.3), (0.8, 0.3), (0.8, 0.7), (0.2, 0.7))),))
    r = vote([both("Ah", 320, 240) + both("Kd", 600, 40)], zones, SIZE)
    assert r.codes(OUTSIDE) == ["Kd"] and kinds(r) == ["outside"]


def test_the_crews_answers_are_checked():
    r = vote([FLOP], ZONES, SIZE)
    with pytest.raises(ReadingError, match="there is no card 4"):
        r.confirm("community", 3)
    with pytest.raises(ReadingError, match="no cards in seat 1"):
        r.correct("seat:0", 0, "Ah")
    with pytest.raises(ReadingError, match="not a card: 'Xx'"):
        r.correct("community", 0, "Xx")
    r.correct("community", 0, "back")
    assert r.zone("community")[0].face_down and kinds(r) == ["face_down"]


def test_frames_of_different_sizes_vote_together():
    small = [card("Ah", 120, 120)]  # the same card in a half-size picture
    r = vote([[card("Ah", 240, 240)], small], ZONES, [SIZE, (320, 240)])
    assert r.codes("community") == ["Ah"] and r.zone("community")[0].frames_seen == 2


def test_placements_carry_into_the_next_round():
    flop = vote([FLOP + both("Kd", 320, 420)], ZONES, SIZE)
    assert flop.placements() == {"Ah": "community", "7c": "community", "Ts": "community", "Kd": "seat:0"}
    turn = vote([FLOP + both("Kd", 500, 240)], ZONES, SIZE, known=flop.placements())
    assert [i.kind for i in turn.issues] == ["elsewhere"] and turn.issues[0].cards == ("Kd",)


def test_reading_round_trips_to_plain_data():
    r = vote([FLOP], ZONES, SIZE, expect=expect_for_round(3))
    r.add("community", "2d")
    assert json.loads(json.dumps(r.to_dict(), allow_nan=False))["cards"]["community"][3]["centre"] is None
    r.remove("community", 3)
    d = r.to_dict()
    assert [c["code"] for c in d["cards"]["community"]] == ["Ah", "7c", "Ts"]
    assert d["issues"][0]["kind"] == "count"
    assert "CHECK: The community row should hold 4 cards" in r.summary()


def test_vote_needs_frames():
    with pytest.raises(ValueError):
        vote([], ZONES, SIZE)


# ---- settling ------------------------------------------------------------------------------------------

def test_settle_detector_waits_for_n_still_frames_and_resets_on_motion():
    s = SettleDetector(threshold=2.0, frames=3)
    table = np.full((120, 160, 3), 80, np.uint8)
    hand = table.copy()
    hand[20:100, 40:120] = 200
    noise = np.random.default_rng(0)
    seq = [table, hand, table] + [np.clip(table + noise.integers(-3, 4, table.shape), 0, 255).astype(np.uint8)
                                  for _ in range(4)]
    assert [s.update(f) for f in seq] == [False, False, False, False, False, True, True]
    assert s.update(hand) is False and s.still_count == 0


def test_read_settled_reads_only_once_the_table_is_still():
    frames = [np.full((480, 640, 3), v, np.uint8) for v in (10, 90, 30, 30, 30, 30, 30, 30, 30)]
    source = MockSource(lambda i: frames[min(i, len(frames) - 1)], lores_size=(160, 120), limit=len(frames))
    calls = []

    def reader(image):
        calls.append(image.shape)
        return FLOP

    r = read_settled(source, reader, ZONES, n_frames=2, settle=SettleDetector(1.0, 2), expect=expect_for_round(2))
    assert r is not None and r.codes("community") == ["Ah", "7c", "Ts"] and r.issues == []
    assert calls == [(480, 640, 3)] * 2  # stills, full size, taken after 2 still frames (frames 4 and 5)
    assert source.count == 6


def test_read_settled_gives_none_when_the_table_never_settles():
    source = MockSource(lambda i: np.full((48, 64, 3), (i * 40) % 256, np.uint8), limit=20)
    assert read_settled(source, lambda im: [], ZONES, settle=SettleDetector(1.0, 2)) is None


# ---- zones ---------------------------------------------------------------------------------------------

def test_default_layout_places_seats_clockwise_from_the_bottom():
    z = default_layout(4)
    assert z.names == ["community", "showdown", "seat:0", "seat:1", "seat:2", "seat:3",
                       "between:0", "between:1", "between:2", "between:3"]
    assert [z.zone_at(p) for p in [(0.5, 0.97), (0.03, 0.5), (0.5, 0.03), (0.97, 0.5), (0.5, 0.5), (0.5, 0.7)]] == \
        ["seat:0", "seat:1", "seat:2", "seat:3", "community", "showdown"]
    assert z.zone_at((0.02, 0.98)) == "between:0"
    with pytest.raises(ZoneError):
        default_layout(0)


def test_zones_save_and_load(tmp_path):
    z = layout_from_points([(100, 200), (540, 200), (540, 280), (100, 280)], [(320, 450), (30, 240), (320, 30)],
                           image_size=SIZE, showdown=[(200, 300), (440, 300), (440, 340), (200, 340)])
    path = tmp_path / "cfg" / "zones.json"
    z.save(path)
    assert Zones.load(path) == z
    assert z.zone_at((0.5, 0.5)) == "community" and z.zone_at((0.5, 0.66)) == "showdown"
    assert z.zone_at((0.5, 0.97)) == "seat:0" and z.zone_at((0.02, 0.5)) == "seat:1"
    assert z.zone_at((0.5, 0.02)) == "seat:2"
    with pytest.raises(ZoneError, match="no zone file"):
        Zones.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(ZoneError, match="not valid JSON"):
        Zones.load(tmp_path / "bad.json")
    with pytest.raises(ZoneError, match="4 corners"):
        layout_from_points([(0, 0), (1, 1)], [(0.5, 0.9)])
    with pytest.raises(ZoneError, match="outside the picture"):
        layout_from_points([(0, 0), (700, 0), (1, 1), (0, 1)], [(5, 5)], image_size=SIZE)


@pytest.mark.parametrize("name", ["companion.vision", "companion.vision.table", "companion.vision.zones"])
def test_module_examples_run(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_overlay_png_is_written(tmp_path):
    cv2 = pytest.importorskip("cv2")
    image = np.full((120, 160, 3), 60, np.uint8)
    out = save_overlay(image, ZONES, tmp_path / "overlay.png")
    drawn = cv2.imread(str(out))
    assert drawn.shape == image.shape and (drawn != image).any()
