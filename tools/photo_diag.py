"""Card by card on the real photos: what the reader did with each labelled card (right, wrong, abstained,
face-down, missed), with the reads around it; optionally a picture of each image with a card not read right.

    PYTHONPATH=. python tools/photo_diag.py [--half dev] [--soft] [--variant V] [--only NAMES] [--out DIR] [-v]

Tune on the dev half only (even images in file order); the test half (odd) is for measuring
(`benchmarks/vision_bench.py` counts both the same way).
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

from benchmarks.vision_bench import PHOTOS, _rect, card_outcomes, photo_boxes, softened  # noqa: E402
from companion.vision.reader import Reader  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--half", choices=("dev", "test"), default="dev")
    ap.add_argument("--out", metavar="DIR", help="write an annotated picture of each image with a card not read right")
    ap.add_argument("-v", action="store_true", help="one line per card not read right")
    ap.add_argument("--soft", action="store_true",
                    help="soften each photo first, as the benchmark does (its cards at most SOFT_CARD_PX across)")
    ap.add_argument("--variant", help="change each photo first as tools/photo_variants.py does (rot90, bright, up2...)")
    ap.add_argument("--only", help="comma-separated parts of the image names to look at (e.g. 2687,cam_image12)")
    args = ap.parse_args(argv)
    reader = Reader()
    tally: Counter[str] = Counter()
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    for i, (name, boxes) in enumerate(photo_boxes().items()):
        if (i % 2 == 0) != (args.half == "dev"):
            continue
        if args.only and not any(part in name for part in args.only.split(",")):
            continue
        img = cv2.imread(str(PHOTOS / name))
        if img is None:
            continue
        if args.soft:
            img = softened(img, boxes)
        if args.variant:
            from tools.photo_variants import variant
            img, boxes = variant(img, boxes, args.variant)
        reads = reader.read_still(img)
        bad = False
        for b, (what, here) in zip(boxes, card_outcomes(reads, boxes)):
            tally[what] += 1
            if what == "right":
                continue
            bad = True
            if args.v:
                desc = " ".join(f"{r.code or '?'}:{r.confidence:.2f}" for r in here)
                print(f"{name} [{i}] {b['card']} {_rect(b)}: {what} {desc}")
        if bad and out:
            vis = img.copy()
            for b in boxes:
                x1, y1, x2, y2 = _rect(b)
                cv2.rectangle(vis, (x1, y1), (x2, y2), (0, 200, 0), 1)
            for r in reads:
                q = np.asarray(r.quad, dtype=np.int32) if r.quad is not None else None
                if q is not None:
                    cv2.polylines(vis, [q], True, (0, 0, 255), 1)
                if r.index_box is not None:
                    cv2.polylines(vis, [np.asarray(r.index_box, dtype=np.int32)], True, (255, 0, 0), 1)
                cv2.putText(vis, f"{r.code or '?'} {r.confidence:.2f}", tuple(int(v) for v in r.centre),
                            cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
            cv2.imwrite(str(out / f"{i:03d}_{Path(name).stem}.png"), vis)
    n = sum(tally.values())
    print(f"{args.half}: {tally['right']}/{n} right; " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())
                                                                if k != "right"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
