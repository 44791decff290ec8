"""Train the generic card reader's rank and suit classifiers from rendered glyphs and deck crops.

    .venv/bin/pip install torch onnx                     # the CNNs need PyTorch to train (not to run)
    .venv/bin/python tools/train_reader.py               # 10-30 minutes on 2 cores
    .venv/bin/python tools/train_reader.py --quick       # a smaller run to check the pipeline
    .venv/bin/python tools/train_reader.py --eval-only   # re-measure the models in models/
    ... --data /tmp/glyphs.npz                           # keep the rendered glyphs (reused when the file exists)

Writes models/reader_rank.npz and models/reader_suit.npz (numpy MLPs), models/reader_rank_cnn.onnx and
models/reader_suit_cnn.onnx with their .json class lists (small CNNs, run by cv2.dnn; skipped with a message
when PyTorch is missing), and models/reader_eval.json (held-out figures for the MLP, the CNN and the pair).
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
from companion.vision.reader_glyph import glyph_box, glyph_features, locate_index  # noqa: E402
from companion.vision.reader_model import _bar, train_mlp  # noqa: E402

RANK_CLASSES = list(G.RANKS) + ["junk"]
SUIT_CLASSES = list(G.SUITS) + ["letter", "junk"]


def _sample(args: tuple[str, int, int, bool]) -> tuple[list, list, list, list, list, list, list]:
    """One chunk of samples: (rank feats, rank labels, suit feats, suit labels, card-level outcomes, rank
    glyph boxes, suit glyph boxes); the boxes (uint8) are the convolutional classifiers' input."""
    kind, seed, count, held_out = args
    rng = np.random.default_rng(seed)
    fonts = G.list_fonts(held_out)
    sfonts = [f for f in G.suit_fonts() if (any(n in f for n in G.HELD_OUT_FAMILIES)) == held_out] or G.suit_fonts()
    rx, ry, sx, sy, cards, rb, sb = [], [], [], [], [], [], []
    decks = (G.HELD_OUT_DECK,) if held_out else G.TRAIN_DECKS
    for _ in range(count):
        hi, rfrac, rank, suit = draw_corner(kind, rng, fonts, sfonts, decks)
        patch = G.degrade(hi, rng, rank_height_frac=rfrac)
        g = locate_index(patch)
        if g is None:
            cards.append((rank, suit, None))
            continue
        rx.append(glyph_features(g.rank))
        rb.append(_u8(glyph_box(g.rank)))
        ry.append(RANK_CLASSES.index(rank))
        if g.suit is not None:
            sx.append(glyph_features(g.suit))
            sb.append(_u8(glyph_box(g.suit)))
            sy.append(SUIT_CLASSES.index("letter" if suit == "x" else suit))
        cards.append((rank, suit, len(rx) - 1, len(sx) - 1 if g.suit is not None else None))
    return rx, ry, sx, sy, cards, rb, sb


def draw_corner(kind: str, rng: np.random.Generator, fonts: list[str], sfonts: list[str],
                decks: tuple[str, ...]) -> tuple[np.ndarray, float, str, str]:
    """One hi-res corner before the camera: (corner, rank height in card widths, rank, suit). ``kind``: 'font' (a
    rendered corner; suit 'x' for a joker's word), 'deck' (a card of ``decks``, either index; a joker is J over
    'x') or 'junk' (no index: rank and suit 'junk')."""
    if kind == "font":
        return G.random_font_corner(rng, fonts, sfonts)
    if kind == "deck":
        deck = G.load_deck(decks[int(rng.integers(len(decks)))])
        keys = [k for k in deck if not k.startswith("BACK")]
        key = keys[int(rng.integers(len(keys)))]
        hi = G.deck_corner_hi(deck[key], rng, "tl" if rng.random() < 0.5 else "br")
        code = G.code_of(key)
        rank, suit = ("J", "x") if code in ("JR", "JB") else (code[0], code[1])
        return hi, _deck_rank_frac(decks, key, deck), rank, suit
    return G.junk_patch(rng, decks), 0.14, "junk", "junk"


def _u8(box: np.ndarray) -> np.ndarray:
    return np.round(np.clip(box, 0, 1) * 255).astype(np.uint8)


_FRAC: dict[str, float] = {}


def _deck_rank_frac(decks, key, deck) -> float:
    k = f"{decks}:{key}"
    if k not in _FRAC:
        _FRAC[k] = G.deck_index_height(deck[key]) * 200 / 200
    return _FRAC[k]


def generate(jobs: list[tuple[str, int, int, bool]], label: str, procs: int) -> tuple:
    """(rank feats, rank labels, suit feats, suit labels, cards, rank boxes, suit boxes) as arrays."""
    rx, ry, sx, sy, cards, rb, sb = [], [], [], [], [], [], []
    with mp.Pool(procs) as pool:
        for i, (a, b, c, d, e, f, g) in enumerate(pool.imap(_sample, jobs)):
            off_r, off_s = len(rx), len(sx)
            rx += a
            ry += b
            sx += c
            sy += d
            rb += f
            sb += g
            cards += [(t[0], t[1], None) if t[2] is None else (t[0], t[1], t[2] + off_r,
                      None if t[3] is None else t[3] + off_s) for t in e]
            _bar(f"render {label}", i + 1, len(jobs), f"{len(rx)} ranks {len(sx)} suits")
    return (np.array(rx, np.float32), np.array(ry, np.int64), np.array(sx, np.float32), np.array(sy, np.int64),
            cards, np.array(rb, np.uint8).reshape(-1, 32, 32), np.array(sb, np.uint8).reshape(-1, 32, 32))


def _proba(model, feats: np.ndarray, boxes: np.ndarray, n_classes: int) -> np.ndarray:
    """A classifier's probabilities on a set: the MLP takes glyph features, the CNN glyph boxes, the pair both."""
    if not len(feats):
        return np.zeros((0, n_classes))
    return model.predict_proba_from(feats, boxes.astype(np.float32) / 255.0)


def evaluate(rank_model, suit_model, data, threshold: float) -> dict:
    """Card-level figures on one held-out set: right, wrong (a confident wrong card), abstained."""
    rx, ry, sx, sy, cards, rb, sb = data
    pr = _proba(rank_model, rx, rb, len(RANK_CLASSES))
    ps = _proba(suit_model, sx, sb, len(SUIT_CLASSES))
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


_PARTS = ("rx", "ry", "sx", "sy", "cards", "rb", "sb")


def _data(args, jobs) -> tuple[tuple, tuple, tuple]:
    """The training set and the two held-out sets: rendered now, or loaded from ``--data``."""
    if args.data and Path(args.data).exists():
        z = np.load(args.data, allow_pickle=True)
        return tuple(tuple(z[f"{k}_{p}"] if p != "cards" else list(z[f"{k}_{p}"]) for p in _PARTS)
                     for k in ("train", "fonts", "deck"))  # type: ignore[return-value]
    train = generate(jobs("font", 22000, False, 0) + jobs("deck", 9000, False, 10000) +
                     jobs("junk", 3500, False, 20000), "training", args.procs)
    held_fonts = generate(jobs("font", 2000, True, 50000), "held-out fonts", args.procs)
    held_deck = generate(jobs("deck", 1500, True, 60000), "held-out deck", args.procs)
    if args.data:
        arrays = {}
        for k, part in (("train", train), ("fonts", held_fonts), ("deck", held_deck)):
            for p, v in zip(_PARTS, part):
                arrays[f"{k}_{p}"] = np.array(v, dtype=object) if p == "cards" else v
        np.savez_compressed(args.data, **arrays)
    return train, held_fonts, held_deck


def fit(net, n: int, batch_loss, epochs: int, seed: int, label: str) -> None:
    """Train ``net`` (PyTorch, CPU) on ``n`` samples: Adam (2e-3, weight decay 1e-4) with a one-cycle rate (up to
    3e-3), batches of 128 in a seeded random order, ``epochs`` times; ``batch_loss(indices, generator)`` gives
    a batch's loss (its augmentation drawn from the generator). Leaves ``net`` in eval mode."""
    import torch

    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * ((n + 127) // 128))
    gen = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        net.train()
        order = torch.randperm(n, generator=gen)
        total = 0.0
        for i in range(0, n, 128):
            idx = order[i:i + 128]
            loss = batch_loss(idx, gen)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        _bar(f"train {label}", ep + 1, epochs, f"loss {total / n:.3f}")
    net.eval()


def train_cnn(boxes: np.ndarray, labels: np.ndarray, classes: list[str], path: Path, epochs: int, seed: int,
              label: str) -> None:
    """A small CNN on 32x32 glyph boxes (PyTorch, CPU), exported to ONNX for cv2.dnn, classes in a .json.

    Three 3x3 convolution blocks (16, 32, 64 channels, each ReLU and 2x2 max-pool), a 128-unit layer with
    dropout, softmax over ``classes``. Trained with Adam, a cosine rate, label smoothing, and shifts of up to
    2 px, scale jitter and noise on top of the renderer's own camera degradations."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    net = nn.Sequential(
        nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(64 * 16, 128), nn.ReLU(), nn.Linear(128, len(classes)))
    x = torch.from_numpy(boxes.astype(np.float32) / 255.0).unsqueeze(1)
    y = torch.from_numpy(labels.astype(np.int64))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)

    def batch_loss(idx, gen):
        xb = x[idx]
        # Shifts of up to 2 px and a little scale jitter (the locator's box is not exact), and noise.
        theta = torch.zeros(len(idx), 2, 3)
        sc = 1 + (torch.rand(len(idx), generator=gen) - 0.5) * 0.2
        theta[:, 0, 0] = sc
        theta[:, 1, 1] = sc * (1 + (torch.rand(len(idx), generator=gen) - 0.5) * 0.1)
        theta[:, :, 2] = (torch.rand(len(idx), 2, generator=gen) - 0.5) * 0.25
        grid = nn.functional.affine_grid(theta, list(xb.shape), align_corners=False)
        xb = nn.functional.grid_sample(xb, grid, align_corners=False)
        xb = (xb + torch.randn(xb.shape, generator=gen) * 0.05).clamp(0, 1)
        return loss_fn(net(xb), y[idx])

    fit(net, len(x), batch_loss, epochs, seed, label)
    torch.onnx.export(net, torch.zeros(1, 1, 32, 32), str(path), input_names=["glyph"], output_names=["logits"],
                      dynamic_axes={"glyph": {0: "n"}, "logits": {0: "n"}}, opset_version=13, dynamo=False)
    path.with_suffix(".json").write_text(json.dumps({"classes": classes, "input": "1x32x32 glyph box, 0..1"}))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a tenth of the data, for checking the pipeline")
    ap.add_argument("--out", default=str(ROOT / "models"))
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--cnn-epochs", type=int, default=14)
    ap.add_argument("--data", metavar="NPZ", help="rendered glyphs: loaded if the file exists, else saved there")
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
    from companion.vision.reader_model import GlyphMLP

    if args.eval_only:
        previous = json.loads((out / "reader_eval.json").read_text()) if (out / "reader_eval.json").exists() else {}
        rx = previous.get("train_samples", {}).get("rank", 0)
        sx = previous.get("train_samples", {}).get("suit", 0)
    else:
        train, held_fonts, held_deck = _data(args, jobs)
        rx, ry, sx, sy, _, rb, sb = train
        rank_model = train_mlp(rx, ry, RANK_CLASSES, epochs=args.epochs, label="rank", seed=args.seed)
        suit_model = train_mlp(sx, sy, SUIT_CLASSES, epochs=args.epochs, label="suit", seed=args.seed)
        rank_model.save(out / "reader_rank.npz")
        suit_model.save(out / "reader_suit.npz")
        try:
            import torch  # noqa: F401
        except ImportError:
            print("PyTorch is not installed: the CNNs were not trained (pip install torch onnx)", file=sys.stderr)
        else:
            train_cnn(rb, ry, RANK_CLASSES, out / "reader_rank_cnn.onnx", args.cnn_epochs, args.seed, "rank cnn")
            train_cnn(sb, sy, SUIT_CLASSES, out / "reader_suit_cnn.onnx", args.cnn_epochs, args.seed, "suit cnn")
    if args.eval_only:
        held_fonts = generate(jobs("font", 2000, True, 50000), "held-out fonts", args.procs)
        held_deck = generate(jobs("deck", 1500, True, 60000), "held-out deck", args.procs)
    from companion.vision.reader_model import GlyphPair, load_classifier

    models = {"mlp": (GlyphMLP.load(out / "reader_rank.npz"), GlyphMLP.load(out / "reader_suit.npz"))}
    pair = (load_classifier(out, "rank"), load_classifier(out, "suit"))
    if isinstance(pair[0], GlyphPair) and isinstance(pair[1], GlyphPair):
        models["cnn"] = (pair[0].cnn, pair[1].cnn)
        models["pair"] = pair
    report = {
        "threshold": 0.5,
        "what": "one corner per card, rendered and camera-degraded (card 55-150 px wide), through the glyph locator",
        "train_samples": {"rank": rx if isinstance(rx, int) else int(len(rx)),
                          "suit": sx if isinstance(sx, int) else int(len(sx))},
        "used": "pair" if "pair" in models else "mlp",
        "held_out_fonts": {k: evaluate(r, s_, held_fonts, 0.5) for k, (r, s_) in models.items()},
        "held_out_deck": {k: evaluate(r, s_, held_deck, 0.5) for k, (r, s_) in models.items()},
        "seconds": round(time.time() - t0, 1),
        "fonts_train": len(G.list_fonts(False)), "fonts_held_out": len(G.list_fonts(True)),
        "held_out_families": list(G.HELD_OUT_FAMILIES), "held_out_deck_name": G.HELD_OUT_DECK,
    }
    (out / "reader_eval.json").write_text(json.dumps(report, indent=1))
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
