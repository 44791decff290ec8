"""The card-reader benchmark's scoring of real photos (``benchmarks/vision_bench.py``): which labelled cards
count as read right."""

from __future__ import annotations

import numpy as np
import pytest

from benchmarks.vision_bench import _credited, card_outcomes
from companion.vision import CardRead


def _read(code: str, centre: tuple[float, float], index: tuple[float, float] | None = None) -> CardRead:
    cx, cy = centre
    quad = np.array([[cx - 10, cy - 14], [cx + 10, cy - 14], [cx + 10, cy + 14], [cx - 10, cy + 14]], np.float32)
    box = None
    if index is not None:
        ix, iy = index
        box = np.array([[ix - 2, iy - 3], [ix + 2, iy - 3], [ix + 2, iy + 3], [ix - 2, iy + 3]], np.float32)
    return CardRead(code, 0.9, quad, "tl", False, index_box=box)


def test_a_card_beneath_another_is_credited_by_its_index_and_each_read_credits_one_card() -> None:
    # A king on top (box 0) and, beneath it, a ten whose visible strip is box 1: the ten's read has its
    # extrapolated centre on the king, its index in the strip. Box 2 is a second ten that nothing read.
    boxes = [{"card": "K?"}, {"card": "T?"}, {"card": "T?"}]
    rects = [(0, 0, 100, 140), (100, 0, 130, 140), (300, 0, 400, 140)]
    reads = [_read("Kd", (50, 70)), _read("Th", (60, 70), index=(115, 20))]
    assert _credited(reads, boxes, rects) == {0, 1}
    # The same read cannot also stand for the other ten, though its centre lies in that box.
    reads = [_read("Th", (350, 70), index=(115, 20))]
    assert _credited(reads, boxes, rects) == {2}
    # A read of another rank is credited to nothing; a face-down report neither.
    reads = [_read("9h", (115, 70)), CardRead("BACK", 0.8, reads[0].quad, "none", True)]
    assert _credited(reads, boxes, rects) == set()


def test_reads_are_credited_to_as_many_cards_as_they_can_stand_for() -> None:
    # Two aces fanned (train_IMG_2682), the right one's box first: the left ace's read has its centre
    # extrapolated into both boxes, its index in its own; the right ace's read lies wholly in the right box.
    # Crediting box by box, centres first, gave the left read to the right ace and left the left ace with
    # nothing; both are read right.
    boxes = [{"card": "A?"}, {"card": "A?"}]
    rects = [(120, 135, 350, 435), (30, 130, 175, 410)]
    left, right = _read("Ah", (145, 260), index=(55, 185)), _read("As", (240, 285), index=(185, 175))
    for order in ([left, right], [right, left]):
        assert _credited(order, boxes, rects) == {0, 1}
    # Still one card per read: a single read whose centre and index lie in both boxes credits one of them.
    assert len(_credited([_read("Ah", (150, 260), index=(150, 200))], boxes, rects)) == 1


def test_a_read_credited_to_a_neighbour_does_not_make_an_overlapping_card_wrong() -> None:
    # Two aces in a fan, their boxes overlapping: the ace of hearts is read, its centre inside both boxes. The
    # other ace was missed, not misread; a read of another rank of its own would make it wrong.
    boxes = [{"card": "A?", "x1": "0", "y1": "0", "x2": "100", "y2": "140"},
             {"card": "A?", "x1": "60", "y1": "0", "x2": "160", "y2": "140"}]
    reads = [_read("Ah", (80, 70))]
    assert [o for o, _ in card_outcomes(reads, boxes)] == ["right", "missed"]
    reads.append(_read("9s", (130, 70)))
    assert [o for o, _ in card_outcomes(reads, boxes)] == ["right", "wrong"]


def test_made_up_decks_are_dealt_on_tables_and_the_renderer_is_pointed_back(monkeypatch) -> None:
    # A deck made up of a shared deck's pictures, under another name, one table scene: its cards are counted
    # and read, and afterwards the renderer's decks folder and deck list are as before.
    import os

    from benchmarks.vision_bench import ALL52, dealt_tables
    from companion.vision import synthetic
    from companion.vision.glyphs import HELD_OUT_DECK
    from companion.vision.reader import Reader

    monkeypatch.delenv("GANG_DECKS", raising=False)
    decks = synthetic.available_decks()
    pictures = {code: synthetic.card_image(HELD_OUT_DECK, code) for code in ALL52}
    res = dealt_tables(Reader(), {"made-up": pictures.__getitem__}, 9000, 1)
    assert res["community"]["readable"] + res["pocket"]["readable"] > 0
    assert res["community"].get("right", 0) + res["pocket"].get("right", 0) > 0
    assert "GANG_DECKS" not in os.environ and synthetic.available_decks() == decks


def test_made_up_decks_are_dealt_at_the_size_asked(monkeypatch) -> None:
    # The font decks' low-resolution row: the scenes are rendered at the size and card height asked for (the
    # renderer's default, the camera's full 4056x3040, otherwise), and read at that size.
    from benchmarks.vision_bench import ALL52, LOW_SIZE, SMALL_CARDS, dealt_tables
    from companion.vision import synthetic
    from companion.vision.glyphs import HELD_OUT_DECK
    from companion.vision.reader import Reader

    monkeypatch.delenv("GANG_DECKS", raising=False)
    pictures = {code: synthetic.card_image(HELD_OUT_DECK, code) for code in ALL52}
    real = synthetic.render_scene
    shapes: list[tuple[int, ...]] = []

    def render(*args, **kwargs):  # type: ignore[no-untyped-def]
        sc = real(*args, **kwargs)
        shapes.append(sc.image.shape)
        return sc

    monkeypatch.setattr(synthetic, "render_scene", render)
    res = dealt_tables(Reader(), {"made-up": pictures.__getitem__}, 9000, 1, size=LOW_SIZE, card_height=SMALL_CARDS)
    assert shapes == [(LOW_SIZE[1], LOW_SIZE[0], 3)]
    assert res["community"]["readable"] + res["pocket"]["readable"] > 0
    dealt_tables(Reader(), {"made-up": pictures.__getitem__}, 9000, 1)
    assert shapes[1] == (synthetic.HQ_SIZE[1], synthetic.HQ_SIZE[0], 3)


def test_tune_ab_compares_two_readers_scene_by_scene(tmp_path, capsys) -> None:
    # tools/tune_ab.py against HEAD (the old reader from git archive) on one tuning scene: both readers read the
    # same picture, the totals print per kind and deck, and an unchanged reader differs on no scene. The scene
    # is rendered into the cache once and read from it the second time.
    import shutil
    import subprocess

    import pytest

    if shutil.which("git") is None or subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True).returncode:
        pytest.skip("tools/tune_ab.py takes the old reader from git")
    from tools.tune_ab import main

    args = ["--old", "HEAD", "--kinds", "def", "--decks", "byronknoll_vector", "--seeds", "5030", "--jobs", "1",
            "--cache", str(tmp_path)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "def   byronknoll_vector" in out and "scenes whose named cards differ:" in out
    if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", "companion", "models"]).returncode == 0:
        assert "scenes whose named cards differ: 0" in out  # (a reader changed since HEAD may differ)
    assert [p.name for p in tmp_path.iterdir()] == ["def_byronknoll_vector_5030.pkl"]
    assert main(args) == 0
    with pytest.raises(SystemExit):
        main(["--seeds", "9000-9001"])  # the benchmark's held-out seeds are never tuned on


def test_a_font_deck_card_shows_its_whole_index_at_both_corners_whatever_its_size() -> None:
    # The benchmark's jumbo-index font decks: the bottom-right index is the top-left one turned half a turn. It was
    # the card's top-left quarter turned, which cut off a jumbo index's suit (a diamond cut flat read as a spade);
    # now down to the index's foot, and the middle pip kept clear of it.
    pytest.importorskip("PIL")
    from benchmarks.vision_bench import JUMBO_INDEX, PEEK_INDEX
    from companion.vision.glyphs import list_fonts
    from companion.vision.reader_layout import font_card

    fonts = list_fonts() or list_fonts(held_out=True)
    if not fonts:
        pytest.skip("no Latin text font on this machine")
    for height in (PEEK_INDEX, 0.13, JUMBO_INDEX, 0.3):
        card = font_card(fonts[0], "9d", index_height=height)[:, :, :3].astype(int)
        h, w = card.shape[:2]
        corner = (slice(4, int(0.75 * w)), slice(4, int(0.3 * w)))  # the index's column, less the drawn border
        top_left = card[corner]
        bottom_right = np.rot90(card, 2)[corner]
        assert np.abs(top_left - bottom_right).max() < 8, height
        ink = (top_left.min(axis=2) < 128).any(axis=1)
        rows = np.nonzero(ink)[0]  # the index (rank, then suit) is one or two runs of ink rows, whole at both ends
        assert rows.size and rows[-1] < int(0.75 * w) - 5, height


def test_the_wide_count_adds_two_runs_kind_by_kind() -> None:
    """``--wide-scenes``: the first scenes' totals and the further scenes' are added per kind and per count (a
    count only one side has is kept), and with no further scenes the first totals stand as they are."""
    from benchmarks.vision_bench import _summed

    first = {"community": {"readable": 78, "right": 78}, "pocket": {"readable": 152, "right": 150},
             "backs": {"truth": 74, "found": 68}}
    more = {"community": {"readable": 294, "right": 294}, "pocket": {"readable": 606, "right": 602, "wrong": 1},
            "backs": {"truth": 289, "found": 277, "not_there": 2}}
    total = _summed(first, more)
    assert total["community"] == {"readable": 372, "right": 372}
    assert total["pocket"] == {"readable": 758, "right": 752, "wrong": 1}
    assert total["backs"] == {"truth": 363, "found": 345, "not_there": 2}
    assert _summed(first, None) is first and _summed(first, {}) is first
