"""Connected components with 16-bit labels against 32-bit ones, on the masks the card reader really counts.

    .venv/bin/python -m benchmarks.components_bench              # about half a minute
    .venv/bin/python -m benchmarks.components_bench --scenes 5

The reader counts the components of some 200 small masks a still (the ink of each corner patch at a few
thresholds) and a few at the working resolution. ``detect.components`` asks OpenCV for 16-bit labels (and counts
again with 32-bit ones where a mask holds more components than 16 bits can label). This collects every mask the
reader counts on stills with the whole table in view (training decks, tuning seeds), checks that it gives the
same labels and stats as 32-bit labels on each, and times both, interleaved, on one core: the small masks and
those over 512x512 px apart.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def collect(scenes: int, deck: str) -> list[tuple[np.ndarray, int]]:
    """Every (mask, connectivity) the reader counts while reading ``scenes`` whole-table stills."""
    from benchmarks.vision_bench import SMALL_CARDS, SMALL_SIZE
    from companion.vision.reader import Reader
    from companion.vision.synthetic import render_scene

    masks: list[tuple[np.ndarray, int]] = []
    real = cv2.connectedComponentsWithStats

    def spy(image, *args, **kw):
        masks.append((image.copy(), int(kw.get("connectivity", args[0] if args else 8))))
        return real(image, *args, **kw)

    reader = Reader()
    cv2.connectedComponentsWithStats = spy
    try:
        for i in range(scenes):
            reader.read_still(render_scene(5001 + i, size=SMALL_SIZE, deck=deck, card_height=SMALL_CARDS).image)
    finally:
        cv2.connectedComponentsWithStats = real
    return masks


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=3)
    ap.add_argument("--deck", default="saulspatz_gang4colour")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    masks = collect(args.scenes, args.deck)
    from companion.vision.detect import components

    print(f"{len(masks)} masks counted on {args.scenes} whole-table stills")
    ok = True
    for label, part in (("of at most 512x512 px", [(m, c) for m, c in masks if m.size <= 512 * 512]),
                        ("over 512x512 px", [(m, c) for m, c in masks if m.size > 512 * 512])):
        if not part:
            continue
        same = 0
        for m, c in part:
            n32, l32, s32, _ = cv2.connectedComponentsWithStats(m, connectivity=c, ltype=cv2.CV_32S)
            n16, l16, s16, _ = components(m, c)
            same += n16 == n32 and bool((l16 == l32).all()) and bool((s16 == s32).all())
        t32: list[float] = []
        t16: list[float] = []
        for _ in range(args.reps):  # interleaved, fastest kept: other processes only ever add time
            for count, out in ((lambda m, c: cv2.connectedComponentsWithStats(m, connectivity=c,
                                                                              ltype=cv2.CV_32S), t32),
                               (components, t16)):
                t = time.perf_counter()
                for m, c in part:
                    count(m, c)
                out.append(time.perf_counter() - t)
        per = len(part)
        print(f"{len(part)} masks {label} (median {int(np.median([m.size for m, _ in part]))} px): same labels and "
              f"stats with detect.components (16-bit labels): {same} of {len(part)}")
        print(f"  32-bit labels {min(t32) / per * 1e6:.1f} us a mask, 16-bit {min(t16) / per * 1e6:.1f} us: ratio "
              f"16/32 {min(t16) / min(t32):.2f}; per still {(min(t32) - min(t16)) / args.scenes * 1e3:.1f} ms saved")
        ok = ok and same == len(part)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
