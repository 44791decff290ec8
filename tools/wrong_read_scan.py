"""Every read naming a card that does not lie there, on synthetic tables dealt from a training deck: a precision
scan over many seeds, beyond the tuning sets (``tools/tune_ab.py``'s kinds: def, small, lo, wc, stk).

    .venv/bin/python tools/wrong_read_scan.py --deck saulspatz_gang4colour --kind lo --seeds 5150-5259

A read is wrong where no face-up card of its code has its centre within a card's width of the read's centre
(``vision_bench.lying_there``, as ``score_scene`` counts it). Each wrong read is printed with its seed, its confidence and the card
whose centre is nearest. Seeds 9000 on of the held-out deck are the benchmark's: scan training decks only.
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

from benchmarks.vision_bench import card_width, lying_there  # noqa: E402
from companion.vision.reader import Reader  # noqa: E402
from companion.vision.synthetic import render_scene  # noqa: E402
from tools.tune_ab import KINDS  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deck", required=True)
    ap.add_argument("--kind", default="def", choices=sorted(KINDS))
    ap.add_argument("--seeds", default="5150-5259", help="first-last, inclusive")
    args = ap.parse_args(argv)
    first, last = (int(v) for v in args.seeds.split("-"))
    cv2.setNumThreads(1)
    reader = Reader()
    wrong = scenes = 0
    for seed in range(first, last + 1):
        sc = render_scene(seed, deck=args.deck, jokers=False, **KINDS[args.kind])
        cw = card_width(sc.cards)
        centres = np.array([t.quad.mean(axis=0) for t in sc.cards])
        for r in reader.read_still(sc.image):
            if r.code is None or r.face_down or lying_there(r, sc.cards, cw):
                continue
            wrong += 1
            near = sc.cards[int(np.argmin(np.linalg.norm(centres - r.centre, axis=1)))]
            print(f"seed {seed}: {r.code} at {r.confidence:.2f}, nearest card {near.code}"
                  f"{'' if near.face_up else ' (face down)'}", flush=True)
        scenes += 1
    print(f"{args.deck} {args.kind}, {scenes} scenes: {wrong} wrong reads")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
