"""Why pocket cards go unread: for every readable pocket card of some synthetic scenes, is there a candidate
corner near its visible index, with the right frame (an outline corner, or else an index-search frame); does
that candidate read; and does the true frame read?

    PYTHONPATH=. python tools/pocket_diag.py --deck byronknoll_vector --seeds 5000-5029 [-v]

Tune on seeds and decks outside the benchmark's (seeds 9000-9029 of the held-out deck).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vision_bench import card_width, score_scene  # noqa: E402
from companion.vision import reader as reader_module  # noqa: E402
from companion.vision.detect import Detection, detect_cards  # noqa: E402
from companion.vision.index_search import index_frames  # noqa: E402
from companion.vision.reader import OUTSET, Reader, corner_frame  # noqa: E402
from companion.vision.reader_corner import frame_input  # noqa: E402
from companion.vision.synthetic import render_scene  # noqa: E402


def true_frame(card, corner: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Origin and axes (one card width long) of the corner whose index is ``corner`` ('tl' or 'br')."""
    o, xa, ya, _ = corner_frame(card.quad.astype(np.float64), {"tl": 0, "tr": 1, "br": 2, "bl": 3}[corner])
    return o, xa, ya


def angle(u: np.ndarray, v: np.ndarray) -> float:
    return float(np.degrees(np.arccos(np.clip(np.dot(u, v) / np.linalg.norm(u) / np.linalg.norm(v), -1, 1))))


def record_detections() -> list[Detection]:
    """The reader's detections, as it makes them (the last one is what its reads came from: the reader looks
    at a picture again with another card size where the first one's was wrong); read the picture without a
    detection given, as the benchmark does, so that those second looks happen."""
    seen: list[Detection] = []

    def detect(*args, **kwargs):
        seen.append(detect_cards(*args, **kwargs))
        return seen[-1]

    reader_module.detect_cards = detect  # type: ignore[assignment]
    return seen


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", default="byronknoll_vector")
    ap.add_argument("--seeds", default="5000-5029")
    ap.add_argument("-v", action="store_true", help="one line per missed card")
    ap.add_argument("--width", type=int, default=2028, help="picture width (the HQ camera's 4056:3040)")
    ap.add_argument("--stacked", type=int, default=0,
                    help="a full row of five with this many slots stacked (the Jokers variant: the stk kind of tune_ab)")
    ap.add_argument("--zone", choices=("pocket", "community", "all"), default="pocket",
                    help="which cards to diagnose (community cards in stacked slots lie in hands too)")
    ap.add_argument("--mat", default=None, help="the table's cloth (e.g. white_cloth: the wc kind of tune_ab)")
    ap.add_argument("--card-height", type=float, default=None,
                    help="card height as a fraction of the picture height (default: the seed's, 0.11-0.155)")
    args = ap.parse_args(argv)
    a, b = (int(s) for s in args.seeds.split("-"))
    reader = Reader()
    seen = record_detections()
    why = Counter()
    tot = {"community": Counter(), "pocket": Counter()}
    t_read = []
    for seed in range(a, b + 1):
        extra = {"n_community": 5, "stacked": args.stacked} if args.stacked else {"jokers": False}
        if args.mat:
            extra["mat"] = args.mat
        sc = render_scene(seed, size=(args.width, args.width * 1520 // 2028), deck=args.deck,
                          card_height=args.card_height, **extra)
        t = time.perf_counter()
        seen.clear()
        reads = reader.read_still(sc.image)
        det = seen[-1]
        t_read.append(time.perf_counter() - t)
        cw = card_width(sc.cards)
        s = score_scene(reads, sc.cards, cw)
        for k in tot:
            tot[k].update(s[k])
        named = [r for r in reads if r.code and not r.face_down]
        frames = [f for hand in det.hands for deep in (False, True)  # the deep pass's frames too
                  for f in index_frames(sc.image, hand, det.card_width, deep=deep)]
        for card in sc.cards:
            if not card.face_up or (args.zone != "all" and (card.zone == "community") != (args.zone == "community")):
                continue
            vis = [k for k, ix in card.indices.items() if ix.visible_fraction >= 0.8]
            if not vis:
                continue
            top = card.visible_fraction > 0.95
            right = any(r.code == card.code and np.linalg.norm(r.centre - card.centre) < cw for r in named)
            tag = "top" if top else "lower"
            why[f"{tag} readable"] += 1
            if right:
                why[f"{tag} right"] += 1
                continue
            # The visible index with a candidate closest to its corner.
            corner = min(vis, key=lambda k: min((np.linalg.norm(c.origin - true_frame(card, k)[0])
                                                 for c in det.corners), default=1e9))
            o, xa, ya = true_frame(card, corner)
            # Nearest candidate and how its frame differs.
            best = None
            for c in det.corners:
                d = np.linalg.norm(c.origin - o) / cw
                if best is None or d < best[0]:
                    best = (d, c)
            good = [c for c in det.corners if np.linalg.norm(c.origin - o) < 0.1 * cw
                    and angle(c.x_axis, xa) < 8 and angle(c.y_axis, ya) < 8]
            r_true = reader.read_corner(sc.image, o, xa, ya, OUTSET, guessed=True)
            dec_true = reader.decide([r_true], guessed=True) if r_true else (None, 0.0, ())
            if good:
                rr = reader.read_corner(sc.image, good[0].origin, good[0].x_axis, good[0].y_axis, OUTSET, guessed=True)
                dec = reader.decide([rr], guessed=True) if rr else (None, 0.0, ())
                kind = "candidate ok, read " + ("none" if rr is None else f"{dec[0]} {dec[1]:.2f}")
                why[f"{tag}: good candidate, not read"] += 1
            elif best is not None and best[0] < 0.1:
                off = f"x{angle(best[1].x_axis, xa):.0f} y{angle(best[1].y_axis, ya):.0f}"
                kind = f"candidate near ({best[0]:.2f}) but frame off {off}"
                why[f"{tag}: near candidate, wrong frame"] += 1
            elif any(np.linalg.norm(f.origin - o) < 0.2 * cw and angle(f.x_axis, xa) < 8 for f in frames):
                kind = "no outline corner; an index-search frame there did not read"
                why[f"{tag}: index frame, not read"] += 1
            else:
                kind = f"no candidate (nearest {best[0]:.2f} cw)" if best else "no candidate (blob none)"
                why[f"{tag}: no candidate"] += 1
                # The card's corner on another card's paper (a fan's lower card reaching past it, a stacked
                # slot): no outline corner can be there, and the index search asks the corner to be off the hand.
                if any(other is not card and other.face_up and cv2.pointPolygonTest(
                        other.quad.reshape(-1, 1, 2).astype(np.float32), (float(o[0]), float(o[1])), False) > 0
                       for other in sc.cards):
                    kind += ", the corner on another card"
                    why[f"{tag}: no candidate, the corner on another card"] += 1
            ok_true = dec_true[0] == card.code
            why[f"{tag}: true frame reads {'right' if ok_true else 'not'}"] += 1
            net = ""
            if reader.corner_net is not None:  # the whole-corner classifier at the true frame
                (n_code, n_conf), = reader.corner_net.name(frame_input(sc.image, o - OUTSET * (xa + ya), xa, ya)[None])
                net = f"; classifier there -> {n_code} {n_conf:.2f}"
                why[f"{tag}: classifier at the true frame {'right' if n_code == card.code else 'not'}"] += 1
            if args.v:
                print(f"seed {seed} {card.code} {tag} {corner}: {kind}; true frame -> {dec_true[0]} {dec_true[1]:.2f}"
                      + net)
    for k in ("community", "pocket"):
        c = tot[k]
        print(f"{k}: readable {c['readable']} right {c['right']} ({100 * c['right'] / max(c['readable'], 1):.1f} %) "
              f"wrong {c['wrong']}")
    for k, v in sorted(why.items()):
        print(f"  {k}: {v}")
    print(f"read_still median {1000 * np.median(t_read):.0f} ms ({args.width}x{args.width * 1520 // 2028})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
