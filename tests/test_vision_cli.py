"""``gang-companion scan / enrol / calibrate``: JSON shape, exit 2 on bad input."""

from __future__ import annotations

import json

import cv2

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


def test_enrol_with_labels_then_scan(tmp_path, capsys) -> None:
    codes = ["Ah", "Kh", "Qh", "Jh"]
    p = _picture(tmp_path, codes, seed=32, name="row.png")
    labels = tmp_path / "labels.csv"
    labels.write_text(f"image,cards\nrow.png,{' '.join(codes)}\n")
    decks = tmp_path / "decks"
    assert main(["enrol", str(p), "--deck", "home", "--labels", str(labels), "--decks-dir", str(decks)]) == 0
    assert (decks / "home.npz").exists()
    capsys.readouterr()
    q = _picture(tmp_path, codes[::-1], seed=33, name="again.png")
    assert main(["scan", str(q), "--json", "--deck", "home", "--decks-dir", str(decks)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert sorted(c["code"] for c in doc["images"][0]["cards"]) == sorted(codes)


def test_enrol_bad_deck_name_exits_2(tmp_path) -> None:
    p = _picture(tmp_path, ["As"])
    assert main(["enrol", str(p), "--deck", "../x", "--yes"]) == 2


def test_calibrate_writes_zones_and_overlay(tmp_path) -> None:
    p = _picture(tmp_path, ["As", "Kd"])
    zones, overlay = tmp_path / "zones.json", tmp_path / "cal.png"
    assert main(["calibrate", "--image", str(p), "--seats", "3", "--zones", str(zones),
                 "--overlay", str(overlay)]) == 0
    assert zones.exists() and overlay.exists()
