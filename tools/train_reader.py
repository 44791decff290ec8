"""Train the generic card reader's rank and suit classifiers from rendered glyphs and deck crops.

    /tmp/venv/bin/python tools/train_reader.py            # 8-15 minutes on 2 cores
    /tmp/venv/bin/python tools/train_reader.py --quick    # a smaller run to check the pipeline
    /tmp/venv/bin/python tools/train_reader.py --eval-only    # re-measure the models in models/

Writes models/reader_rank.npz, models/reader_suit.npz and models/reader_eval.json (held-out figures).
Held out of training: the fonts in glyphs.HELD_OUT_FAMILIES and the deck glyphs.HELD_OUT_DECK.
Needs Pillow and Latin fonts (see docs/reader.md); the companion itself never imports this.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.vision import glyphs as G  # noqa: E402
from companion.vision.reader_glyph import glyph_features, locate_index  # noqa: E402
from companion.vision.reader_model import _bar, train_mlp  # noqa: E402

RANK_CLASSES = list(G.RANKS) + ["junk"]
SUIT_CLASSES = list(G.SUITS) + ["letter", "junk"]


def _sample(args: tuple[str, int, int, bool]) -> tuple[list, list, list, list, list]:
    """One chunk of samples: (rank feats, rank labels, suit feats, suit labels, card-level outcomes)."""
    kind, seed, count, held_out = args
    rng = np.random.default_rng(seed)
    fonts = G.list_fonts(held_out)
    sfonts = [f for f in G.suit_fonts() if (any(n in f for n in G.HELD_OUT_FAMILIES)) == held_out] or G.suit_fonts()
    rx, ry, sx, sy, cards = [], [], [], [], []
    decks = (G.HELD_OUT_DECK,) if held_out else G.TRAIN_DECKS
    for _ in range(count):
        if kind == "font":
            hi, rfrac, rank, suit = G.random_font_corner(rng, fonts, sfonts)
        elif kind == "deck":
            deck = G.load_deck(decks[int(rng.integers(len(decks)))])
            keys = [k for k in deck if not k.startswith("BACK")]
            key = keys[int(rng.integers(len(keys)))]
            hi = G.deck_corner_hi(deck[key], rng, "tl" if rng.random() < 0.5 else "br")
            rfrac = _deck_rank_frac(decks, key, deck)
            code = G.code_of(key)
            rank, suit = ("J", "x") if code in ("JR", "JB") else (code[0], code[1])
        else:
            hi, rfrac, rank, suit = G.junk_patch(rng, G.TRAIN_DECKS if not held_out else decks), 0.14, "junk", "junk"
        patch = G.degrade(hi, rng, rank_height_frac=rfrac)
        g = locate_index(patch)
        if g is None:
            cards.append((rank, suit, None))
            continue
        rx.append(glyph_features(g.rank))
        ry.append(RANK_CLASSES.index(rank))
        if g.suit is not None:
            sx.append(glyph_features(g.suit))
            sy.append(SUIT_CLASSES.index("letter" if suit == "x" else suit))
        cards.append((rank, suit, len(rx) - 1, len(sx) - 1 if g.suit is not None else None))
    return rx, ry, sx, sy, cards


_FRAC: dict[str, float] = {}


def _deck_rank_frac(decks, key, deck) -> float:
    k = f"{decks}:{key}"
    if k not in _FRAC:
        _FRAC[k] = G.deck_index_height(deck[key]) * 200 / 200
    return _FRAC[k]


def generate(jobs: list[tuple[str, int, int, bool]], label: str, procs: int) -> tuple:
    rx, ry, sx, sy, cards = [], [], [], [], []
    with mp.Pool(procs) as pool:
        for i, (a, b, c, d, e) in enumerate(pool.imap(_sample, jobs)):
            off_r, off_s = len(rx), len(sx)
            rx += a
            ry += b
            sx += c
            sy += d
            cards += [(t[0], t[1], None) if t[2] is None else (t[0], t[1], t[2] + off_r,
                      None if t[3] is None else t[3] + off_s) for t in e]
            _bar(f"render {label}", i + 1, len(jobs), f"{len(rx)} ranks {len(sx)} suits")
    return (np.array(rx, np.float32), np.array(ry, np.int64), np.array(sx, np.float32), np.array(sy, np.int64),
            cards)


def evaluate(rank_model, suit_model, data, threshold: float) -> dict:
    """Card-level figures on one held-out set: right, wrong (a confident wrong card), abstained."""
    rx, ry, sx, sy, cards = data
    pr = rank_model.predict_proba(rx) if len(rx) else np.zeros((0, len(RANK_CLASSES)))
    ps = suit_model.predict_proba(sx) if len(sx) else np.zeros((0, len(SUIT_CLASSES)))
    right = wrong = abstain = 0
    rank_ok = 0
    n = 0
    for t in cards:
        rank, suit = t[0], t[1]
        if rank == "junk":
            continue
        n += 1
        if t[2] is None or t[3] is None:
            abstain += 1
            continue
        r = int(pr[t[2]].argmax())
        s = int(ps[t[3]].argmax())
        conf = float(pr[t[2]][r] * ps[t[3]][s])
        rank_ok += RANK_CLASSES[r] == rank
        if conf < threshold or RANK_CLASSES[r] == "junk" or SUIT_CLASSES[s] == "junk":
            abstain += 1
        elif RANK_CLASSES[r] == rank and SUIT_CLASSES[s] == ("letter" if suit == "x" else suit):
            right += 1
        else:
            wrong += 1
    return {"cards": n, "right": right / max(n, 1), "wrong": wrong / max(n, 1), "abstained": abstain / max(n, 1),
            "rank_right_when_located": rank_ok / max(n - sum(1 for t in cards if t[0] != 'junk' and t[2] is None), 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a tenth of the data, for checking the pipeline")
    ap.add_argument("--out", default=str(ROOT / "models"))
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--eval-only", action="store_true",
                    help="measure the models in --out on the held-out fonts and deck, no training")
    args = ap.parse_args(argv)
    scale = 0.1 if args.quick else 1.0
    chunk = 250
    t0 = time.time()

    def jobs(kind, total, held, base):
        n = max(1, int(total * scale) // chunk)
        return [(kind, args.seed * 100000 + base + i, chunk, held) for i in range(n)]

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.eval_only:
        from companion.vision.reader_model import GlyphMLP

        rank_model, suit_model = GlyphMLP.load(out / "reader_rank.npz"), GlyphMLP.load(out / "reader_suit.npz")
        previous = json.loads((out / "reader_eval.json").read_text()) if (out / "reader_eval.json").exists() else {}
        rx = previous.get("train_samples", {}).get("rank", 0)
        sx = previous.get("train_samples", {}).get("suit", 0)
    else:
        train = generate(jobs("font", 22000, False, 0) + jobs("deck", 9000, False, 10000) +
                         jobs("junk", 3500, False, 20000), "training", args.procs)
        rx, ry, sx, sy, _ = train
        rank_model = train_mlp(rx, ry, RANK_CLASSES, epochs=args.epochs, label="rank", seed=args.seed)
        suit_model = train_mlp(sx, sy, SUIT_CLASSES, epochs=args.epochs, label="suit", seed=args.seed)
        rank_model.save(out / "reader_rank.npz")
        suit_model.save(out / "reader_suit.npz")
    held_fonts = generate(jobs("font", 2000, True, 50000), "held-out fonts", args.procs)
    held_deck = generate(jobs("deck", 1500, True, 60000), "held-out deck", args.procs)
    report = {
        "threshold": 0.5,
        "what": "one corner per card, rendered and camera-degraded (card 55-150 px wide), through the glyph locator",
        "train_samples": {"rank": rx if isinstance(rx, int) else int(len(rx)),
                          "suit": sx if isinstance(sx, int) else int(len(sx))},
        "held_out_fonts": evaluate(rank_model, suit_model, held_fonts, 0.5),
        "held_out_deck": evaluate(rank_model, suit_model, held_deck, 0.5),
        "seconds": round(time.time() - t0, 1),
        "fonts_train": len(G.list_fonts(False)), "fonts_held_out": len(G.list_fonts(True)),
        "held_out_families": list(G.HELD_OUT_FAMILIES), "held_out_deck_name": G.HELD_OUT_DECK,
    }
    (out / "reader_eval.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
