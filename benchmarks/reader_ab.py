"""Time the card reader of an older revision against the working tree's, interleaved in one process.

    .venv/bin/python -m benchmarks.reader_ab --old 2e741ba            # under a minute
    .venv/bin/python -m benchmarks.reader_ab --old HEAD~3 --scenes 4 --deck saulspatz_gang4colour
    .venv/bin/python -m benchmarks.reader_ab --old HEAD~3 --timing-scenes --scenes 5   # vision_bench's timed scenes
    .venv/bin/python -m benchmarks.reader_ab --old HEAD~3 --small --deck saulspatz_gang4colour  # the whole table in view
    .venv/bin/python -m benchmarks.reader_ab --old HEAD~3 --preflop --deck any --scenes 15 --reps 2 --width 2028  # hands down

This machine's speed drifts by a third between runs, so two readers timed minutes apart cannot be compared.
Here each still (4056x3040 unless ``--width``) is read by both readers in turn, ``--reps`` times each, fastest kept, on one core
(``cv2.setNumThreads(1)``); the figure is the ratio new / old. The old revision's ``companion`` package and
models are taken from git (``git archive``) into a temporary folder, its imports renamed so both live in one
process. Scenes are dealt from a training deck on the tuning seeds (5001 on), not the benchmark's held-out set.
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def old_reader(rev: str, into: Path):
    """The ``Reader`` class of revision ``rev``, importable as ``companion_old``, with that revision's models."""
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "companion", "models"], check=True,
                         capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(into, filter="data")
    pkg = into / "companion"
    for f in pkg.rglob("*.py"):
        text = f.read_text()
        text = re.sub(r"\bcompanion\.", "companion_old.", text)
        text = re.sub(r"^from companion import", "from companion_old import", text, flags=re.M)
        f.write_text(text)
    pkg.rename(into / "companion_old")
    sys.path.insert(0, str(into))
    from companion_old.vision.reader import Reader  # type: ignore[import-not-found]

    return Reader(model_dir=into / "models")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", required=True, help="git revision to compare against (e.g. a commit or HEAD~2)")
    ap.add_argument("--deck", default="byronknoll_vector", help="a shared deck's folder; with --preflop also 'any' "
                    "(each seed's own deck and back)")
    ap.add_argument("--scenes", type=int, default=8)
    ap.add_argument("--reps", type=int, default=4)
    ap.add_argument("--timing-scenes", action="store_true",
                    help="the scenes vision_bench times (seeds 7000 on, the held-out deck, 5 community cards, 4 seats)")
    ap.add_argument("--small", action="store_true",
                    help="small cards, the whole table in view (cards 0.085 of the picture's height, all seats)")
    ap.add_argument("--width", type=int, default=4056, help="picture width (4:3; 2028: a lower-resolution camera)")
    ap.add_argument("--preflop", action="store_true",
                    help="tables before the flop: no community card, every hand face down (seeds 7100 on); also "
                         "counts the backs each reader reports and the cards it names (there are none)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    from benchmarks.vision_bench import SMALL_CARDS
    from companion.vision.reader import Reader
    from companion.vision.synthetic import render_scene

    with tempfile.TemporaryDirectory() as tmp:
        old = old_reader(args.old, Path(tmp))
        new = Reader()
        size = (args.width, args.width * 3040 // 4056)
        height = SMALL_CARDS if args.small else None
        if args.preflop:
            deck = None if args.deck == "any" else args.deck
            scenes = [render_scene(7100 + i, size=size, deck=deck, jokers=False, card_height=height, n_community=0,
                                   face_down_prob=1.0) for i in range(args.scenes)]
            stills = [sc.image for sc in scenes]
            down = sum(len(sc.cards) for sc in scenes)
        elif args.timing_scenes:
            from companion.vision.glyphs import HELD_OUT_DECK
            args.deck = HELD_OUT_DECK
            stills = [render_scene(7000 + i, size=size, deck=HELD_OUT_DECK, n_community=5,
                                   n_seats=None if args.small else 4, card_height=height).image
                      for i in range(args.scenes)]
        else:
            stills = [render_scene(5001 + i, size=size, deck=args.deck, jokers=False, card_height=height).image
                      for i in range(args.scenes)]
        t_new, t_old = [], []
        backs, named = [0, 0], [0, 0]  # working tree, old: backs reported, cards named
        for img in stills:
            best_new = best_old = float("inf")
            for rep in range(args.reps):
                t = time.perf_counter()
                reads_new = new.read_still(img)
                best_new = min(best_new, time.perf_counter() - t)
                t = time.perf_counter()
                reads_old = old.read_still(img)
                best_old = min(best_old, time.perf_counter() - t)
                if rep == 0:
                    for k, reads in enumerate((reads_new, reads_old)):
                        backs[k] += sum(bool(r.face_down) for r in reads)
                        named[k] += sum(r.code is not None and not r.face_down for r in reads)
            t_new.append(best_new)
            t_old.append(best_old)
    a, b = np.array(t_new) * 1000, np.array(t_old) * 1000
    print(f"{args.scenes} {'pre-flop ' if args.preflop else ''}stills {size[0]}x{size[1]}"
          f"{' (small cards)' if args.small else ''} from {args.deck}, "
          f"fastest of {args.reps}, one core, interleaved")
    print(f"  working tree : median {np.median(a):.0f} ms  ({' '.join(f'{v:.0f}' for v in a)})")
    print(f"  {args.old:12s} : median {np.median(b):.0f} ms  ({' '.join(f'{v:.0f}' for v in b)})")
    if args.preflop:
        print(f"  backs reported (of {down} face-down cards; a hand's fan may be one report): working tree {backs[0]}, "
              f"{args.old} {backs[1]}; cards named (none lie face up): {named[0]}, {named[1]}")
    print(f"  ratio new/old: {np.median(a) / np.median(b):.2f} of the medians, {np.median(a / b):.2f} median of "
          "the per-still ratios")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
