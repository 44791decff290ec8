"""How far the detector's card-size estimate is from the labelled cards on the real photos, and what it costs.

    PYTHONPATH=. python tools/size_diag.py [--all] [-v]

For each photo of ``edje_pinochle_train`` (the even-numbered, "dev", ones unless ``--all``: the odd ones are the
benchmark's untouched half), the card width ``detect_cards`` estimates is compared with the median short side
of the labelled boxes (axis-aligned boxes of what shows of each card, so a turned card's box is wider than
the card: only a gross error is counted). Prints how many photos have an estimate under ``--below`` of the
labelled size, and how many whole cards (quads) the detector found in those photos and in the rest.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vision_bench import PHOTOS, photo_boxes  # noqa: E402
from companion.vision.detect import detect_cards  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="the test half too (do not tune on it)")
    ap.add_argument("--below", type=float, default=0.3, help="an estimate under this share of the labelled size")
    ap.add_argument("-v", action="store_true", help="list the photos")
    args = ap.parse_args(argv)
    by_image = photo_boxes()
    off: dict = {"photos": 0, "cards": 0, "quads": 0}
    ok: dict = {"photos": 0, "cards": 0, "quads": 0}
    for i, (name, boxes) in enumerate(by_image.items()):
        if i % 2 and not args.all:
            continue
        img = cv2.imread(str(PHOTOS / name))
        if img is None:
            continue
        det = detect_cards(img)
        labelled = float(np.median([min(int(b["x2"]) - int(b["x1"]), int(b["y2"]) - int(b["y1"])) for b in boxes]))
        bad = det.card_width < args.below * labelled
        c = off if bad else ok
        c["photos"] += 1
        c["cards"] += len(boxes)
        c["quads"] += len(det.quads)
        c.setdefault("from", Counter())[det.size_from or "nothing"] += 1
        if args.v and bad:
            print(f"{name}: estimated {det.card_width:.0f} px from {det.size_from or 'nothing'}, labelled "
                  f"{labelled:.0f} px, {len(det.quads)} quads")
    for label, c in (("estimate far too small", off), ("estimate plausible", ok)):
        print(f"{label:<24} {c['photos']:>4} photos, {c['cards']:>4} labelled cards, {c['quads']:>4} whole cards found; "
              "size from " + ", ".join(f"{k} {v}" for k, v in sorted(c.get("from", {}).items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
