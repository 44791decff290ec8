"""How the reader names decks whose spades and clubs are drawn in given suit fonts (by default GNU FreeFont's
serif bold faces, which put a club at the black spade's code point and a spade at the club's until
``glyphs.suit_mask`` swaps them back): whole decks of 52 laid out in rows, ranks in random training fonts, every
named card checked against the card lying there.

    .venv/bin/python tools/suit_font_check.py                      # 8 decks, the models in models/
    .venv/bin/python tools/suit_font_check.py --models DIR --decks 4
    .venv/bin/python tools/suit_font_check.py --suit-font NimbusRoman-Bold

To measure the models of an older revision: ``mkdir /tmp/m && git archive REV models | tar -x -C /tmp/m`` and
``--models /tmp/m/models``. Needs Pillow and the fonts (see docs/reader.md); about 5 s a deck on one core.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vision_bench import ALL52, _laid  # noqa: E402
from companion.vision.glyphs import list_fonts, suit_fonts  # noqa: E402
from companion.vision.reader import Reader  # noqa: E402
from companion.vision.reader_layout import font_card, layout_picture  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", metavar="DIR", help="reader models to measure (default: models/)")
    ap.add_argument("--decks", type=int, default=8)
    ap.add_argument("--suit-font", action="append", metavar="NAME",
                    help="a suit font file name, without .ttf/.otf (repeatable; default: FreeSerifBold and "
                         "FreeSerifBoldItalic, alternating)")
    args = ap.parse_args(argv)
    wanted = args.suit_font or ["FreeSerifBold", "FreeSerifBoldItalic"]
    found = {Path(f).stem: f for f in suit_fonts()}
    missing = [n for n in wanted if n not in found]
    if missing:
        print(f"suit fonts not on this machine: {', '.join(missing)}", file=sys.stderr)
        return 2
    reader = Reader(args.models)
    fonts = list_fonts(held_out=False)
    rnd = random.Random(5)
    right = wrong = 0
    for j in range(args.decks):
        font, suits = rnd.choice(fonts), found[wanted[j % len(wanted)]]
        img, truth = layout_picture(lambda code: font_card(font, code, suit_font=suits), ALL52, seed=50 + j,
                                    card_w=110)
        misnamed = []
        for r in reader.read_still(img):
            if r.code is None or r.face_down:
                continue
            there = _laid(r.quad, truth)
            if there == r.code:
                right += 1
            else:
                wrong += 1
                misnamed.append(f"{there} named {r.code} ({r.confidence:.2f})")
        print(f"deck {j + 1}: ranks {Path(font).name}, suits {Path(suits).name}: "
              f"{'; '.join(misnamed) or 'no card named wrong'}", flush=True)
    print(f"{args.decks} decks, {52 * args.decks} cards: {right} named right, {wrong} named wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
