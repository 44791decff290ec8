"""Which face-down cards of some synthetic scenes go unreported, and where backs are reported where none lies;
optionally a picture around each, with what the detector found drawn on it (back candidates blue, hands
magenta, outlines from edges yellow, face-down reports as red dots).

    PYTHONPATH=. python tools/backs_diag.py --kind def --deck saulspatz_gang4colour --seeds 5030-5069 [--out DIR]

Counted as ``benchmarks.vision_bench`` counts them (``face_down_misses``): a face-down card is found when a
face-down report lies within 0.6 card widths of it; a report with no face-down card within 0.8 card widths lies
where none lies. The scenes are
``tools/tune_ab.py``'s kinds (def, small, lo, wc, stk), cached as it caches them. Tune on seeds and decks outside
the benchmark's (seeds 9000 on of the held-out deck).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vision_bench import card_width, face_down_misses  # noqa: E402
from companion.vision.reader import Reader  # noqa: E402
from tools.pocket_diag import record_detections  # noqa: E402
from tools.tune_ab import KINDS, _scene  # noqa: E402


def _drawn(image: np.ndarray, det, found) -> np.ndarray:
    vis = image.copy()
    for quads, colour, width in ((det.backs, (255, 0, 0), 3), (det.hands, (255, 0, 255), 2),
                                 (det.edge_quads, (0, 255, 255), 2)):
        for q in quads:
            cv2.polylines(vis, [np.asarray(q, np.int32).reshape(-1, 1, 2)], True, colour, width)
    for r in found:
        cv2.circle(vis, tuple(int(v) for v in r.centre), 12, (0, 0, 255), -1)
    return vis


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", default="def", choices=sorted(KINDS))
    ap.add_argument("--deck", default="saulspatz_gang4colour")
    ap.add_argument("--seeds", default="5030-5069")
    ap.add_argument("--cache", default="/tmp/scache", help="rendered scenes are kept here (as tune_ab keeps them)")
    ap.add_argument("--out", metavar="DIR", help="write a picture around each face-down card missed, each stray report")
    args = ap.parse_args(argv)
    a, b = (int(s) for s in args.seeds.split("-"))
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    out = Path(args.out) if args.out else None
    if out:
        out.mkdir(parents=True, exist_ok=True)
    reader = Reader()
    seen = record_detections()
    truth = found_n = stray_n = 0
    for seed in range(a, b + 1):
        image, cards = _scene(cache, args.kind, args.deck, seed)
        seen.clear()
        reads = reader.read_still(image)  # as the benchmark reads it (second looks with another card size too)
        det = seen[-1]
        cw = card_width(cards)
        missed_cards, stray_reads = face_down_misses(reads, cards, cw)
        missed = [t.quad.mean(axis=0) for t in missed_cards]
        strays = [r.centre for r in stray_reads]
        truth += sum(not t.face_up for t in cards)
        found_n += sum(not t.face_up for t in cards) - len(missed)
        stray_n += len(strays)
        if not missed and not strays:
            continue
        vis = _drawn(image, det, [r for r in reads if r.face_down]) if out else None
        for what, places in (("missed", missed), ("stray", strays)):
            for k, c in enumerate(places):
                print(f"seed {seed} {what} at ({c[0]:.0f}, {c[1]:.0f}); card size from {det.size_from}")
                if vis is not None and out is not None:
                    r = int(1.5 * cw)
                    x0, y0 = max(int(c[0]) - r, 0), max(int(c[1]) - r, 0)
                    cv2.imwrite(str(out / f"{args.kind}_{args.deck}_{seed}_{what}{k}.png"),
                                vis[y0:int(c[1]) + r, x0:int(c[0]) + r])
    print(f"face-down cards: {found_n}/{truth} found; {stray_n} reports where none lies")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
