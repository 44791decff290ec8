"""``gang-companion scan / enrol / calibrate``: JSON shape, exit 2 on bad input."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.cli import main
from companion.vision.glyphs import HELD_OUT_DECK
from companion.vision.reader_layout import layout_picture


def _picture(tmp_path, codes, seed=31, name="t.png"):
    img, _ = layout_picture(HELD_OUT_DECK, codes, seed=seed, cols=len(codes))
    p = tmp_path / name
    cv2.imwrite(str(p), img)
    return p


def test_scan_json(tmp_path, capsys) -> None:
    p = _picture(tmp_path, ["As", "Td", "BACK_BLUE"])
    assert main(["scan", str(p), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (image,) = doc["images"]
    assert image["image"] == str(p)
    assert sorted(c["code"] for c in image["cards"]) == ["As", "Td"]
    for c in image["cards"]:
        assert set(c) >= {"code", "centre", "quad", "confidence", "corner"}
        assert len(c["quad"]) == 4 and 0 <= c["confidence"] <= 1
    assert len(image["face_down"]) == 1


def test_scan_missing_file_exits_2(tmp_path, capsys) -> None:
    assert main(["scan", str(tmp_path / "nope.jpg"), "--json"]) == 2
    assert "no such image" in capsys.readouterr().err


def test_scan_unknown_deck_exits_2(tmp_path, capsys) -> None:
    p = _picture(tmp_path, ["As"])
    assert main(["scan", str(p), "--deck", "nosuch", "--decks-dir", str(tmp_path)]) == 2


def _enrol_row(tmp_path, codes: list[str], seed: int, deck: str):
    """Enrol a row of ``codes`` with a labels file naming them; the decks folder."""
    p = _picture(tmp_path, codes, seed=seed, name="row.png")
    labels = tmp_path / "labels.csv"
    labels.write_text(f"image,cards\nrow.png,{' '.join(codes)}\n")
    decks = tmp_path / "decks"
    assert main(["enrol", str(p), "--deck", deck, "--labels", str(labels), "--decks-dir", str(decks)]) == 0
    return decks


def test_enrol_with_labels_then_scan(tmp_path, capsys) -> None:
    codes = ["Ah", "Kh", "Qh", "Jh"]
    decks = _enrol_row(tmp_path, codes, 32, "home")
    assert (decks / "home.npz").exists()
    capsys.readouterr()
    q = _picture(tmp_path, codes[::-1], seed=33, name="again.png")
    assert main(["scan", str(q), "--json", "--deck", "home", "--decks-dir", str(decks)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(c["code"] for c in doc["images"][0]["cards"]) == sorted(codes)


def test_enrol_a_joker_by_labels_then_scan_it(tmp_path, capsys) -> None:
    decks = _enrol_row(tmp_path, ["Ah", "JR", "Kh", "Qs"], 34, "box")
    assert "1 joker," in capsys.readouterr().out
    q = _picture(tmp_path, ["Qs", "Kh", "JR"], seed=35, name="table.png")
    assert main(["scan", str(q), "--json", "--deck", "box", "--decks-dir", str(decks)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(c["code"] for c in doc["images"][0]["cards"]) == ["JR", "Kh", "Qs"]


def test_enrol_bad_deck_name_exits_2(tmp_path) -> None:
    p = _picture(tmp_path, ["As"])
    assert main(["enrol", str(p), "--deck", "../x", "--yes"]) == 2


def test_calibrate_writes_zones_and_overlay(tmp_path) -> None:
    p = _picture(tmp_path, ["As", "Kd"])
    zones, overlay = tmp_path / "zones.json", tmp_path / "cal.png"
    assert main(["calibrate", "--image", str(p), "--seats", "3", "--zones", str(zones),
                 "--overlay", str(overlay)]) == 0
    assert zones.exists() and overlay.exists()


def test_calibrate_measures_the_card_size_and_scan_uses_it(tmp_path, capsys) -> None:
    p = _picture(tmp_path, ["As", "Kd", "7c"])
    width = cv2.imread(str(p)).shape[1]
    zones = tmp_path / "zones.json"
    assert main(["calibrate", "--image", str(p), "--zones", str(zones), "--overlay", str(tmp_path / "c.png")]) == 0
    assert "card size: " in capsys.readouterr().out
    frac = json.loads(zones.read_text())["meta"]["card_width"]
    assert abs(frac * width - 150) < 8  # layout_picture's cards are 150 px across
    assert main(["scan", str(p), "--json", "--zones", str(zones)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(c["code"] for c in doc["images"][0]["cards"]) == ["7c", "As", "Kd"]


def test_calibrate_without_cards_says_so_and_scan_rejects_a_bad_zone_file(tmp_path, capsys) -> None:
    p = tmp_path / "mat.png"
    cv2.imwrite(str(p), np.full((480, 640, 3), (40, 110, 40), np.uint8))
    zones = tmp_path / "zones.json"
    assert main(["calibrate", "--image", str(p), "--zones", str(zones), "--overlay", str(tmp_path / "c.png")]) == 0
    assert "card size not measured" in capsys.readouterr().out
    assert "card_width" not in json.loads(zones.read_text())["meta"]
    zones.write_text("{not json")
    assert main(["scan", str(p), "--zones", str(zones)]) == 2
    assert "zone file" in capsys.readouterr().err


def test_enrol_asks_and_takes_corrections_by_number(tmp_path, capsys, monkeypatch) -> None:
    import re
    import sys

    p = _picture(tmp_path, ["Ah", "Kh", "Qh"], seed=36, name="row.png")
    answers = iter(["1=Zz", "", "y"])
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))

    def listing(text: str) -> list[str]:  # the codes of the last listing, in card order
        return re.findall(r"^\s+\d+\s+row\.png \(\d+, \d+\): (\S+)", text, re.M)[-3:]

    decks = tmp_path / "decks"
    assert main(["enrol", str(p), "--deck", "home", "--decks-dir", str(decks)]) == 1  # '' quits
    out = capsys.readouterr().out
    first = listing(out)
    assert sorted(first) == ["Ah", "Kh", "Qh"]
    assert "Nothing changed: '1=Zz'" in out and "Nothing stored." in out and not decks.exists()

    # Give card 1 the code card 2 had: card 2 is solved again around it (each card once), then stored.
    answers = iter([f"1={first[1]}", "3=-", "y"])
    assert main(["enrol", str(p), "--deck", "home", "--decks-dir", str(decks)]) == 0
    out = capsys.readouterr().out
    fixed = listing(out)
    assert fixed[0] == first[1] and fixed[2] == "-" and fixed[1] != first[1]
    assert "Stored deck 'home': 2 cards" in out


def test_scan_with_a_damaged_deck_file_exits_2(tmp_path, capsys) -> None:
    p = _picture(tmp_path, ["As"])
    decks = tmp_path / "decks"
    decks.mkdir()
    (decks / "junk.npz").write_bytes(b"not a deck at all")
    np.savez_compressed(decks / "partial.npz", prototypes=np.zeros((2, 3), np.float32))  # keys missing
    for name in ("junk", "partial"):
        assert main(["scan", str(p), "--deck", name, "--decks-dir", str(decks)]) == 2
        assert f"deck '{name}'" in capsys.readouterr().err
