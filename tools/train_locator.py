"""Train the index locator (``companion/vision/reader_locator.py``): where a visible corner index lies, which way.

    .venv/bin/pip install torch onnx                  # training needs PyTorch (running it needs only OpenCV)
    .venv/bin/python tools/train_locator.py           # render, train, export, measure (about 35 minutes on 2 cores)
    .venv/bin/python tools/train_locator.py --quick   # a tenth of it, to check the pipeline
    .venv/bin/python tools/train_locator.py --eval-only   # the shipped model on the held-out deck's tables

Samples: crops (CROP x CROP input pixels at ``LOC_CW`` a card width, that scale off by up to SCALE_JITTER either
way, as the detector's card size is) of synthetic tables (``companion.vision.synthetic.render_scene``) dealt from
the training decks, seeds from SCENE_SEEDS on (the reader is tuned on 5000-5259, the benchmark deals 7000 and
9000 on, the corner classifier's scenes are 30000 and 40000 on), of the tuning kinds (the default picture, cards
0.085 of the picture's height, a white cloth, a stacked row), each crop turned a random quarter. The truth is
every face-up card's two index corners: the card's corner and its x axis, a positive where its index shows
(``IndexTruth.visible``), left out of the loss where it half shows, background elsewhere (backs, chips, pips,
court pictures, the mat). Measured on tables dealt from the held-out deck (HELD_SEEDS on, never trained on):
the share of visible index corners that a peak marks within HIT_CW card widths and HIT_DEG degrees, and the
peaks per table that mark no index corner (counted round the hands and the row, as the reader asks it).
Writes models/reader_locator.onnx, its .json (scale, figures).
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
from companion.vision.reader_locator import LOC_CW, OUTPUTS, STRIDE, decode, locator_input  # noqa: E402

CROP = 112
CELLS = CROP // STRIDE
# Each batch is cut from the crops at one random size (SUB_SIZES input pixels square) and place on the grid, and the
# cells within EDGE_CELLS of its border are left out of the loss: the network learns nothing from where a crop
# ends (zero padding tells a convolution where the border is; trained on one crop size and place round a card, an
# earlier run marked a corner or not as the crop round it moved).
SUB_SIZES = (64, 80, 96, 112)
EDGE_CELLS = 2
SCALE_JITTER = 0.15
SIGMA = 0.6  # cells: the heat target's spread round a corner
SCENE_SEEDS, HELD_SEEDS = 50000, 60000
KINDS = (  # render_scene keywords, drawn in turn
    {"size": (2028, 1520)}, {"size": (2028, 1521), "card_height": 0.085}, {"size": (2028, 1520)},
    {"size": (2028, 1520), "mat": "white_cloth"}, {"size": (2028, 1521), "card_height": 0.085},
    {"size": (2028, 1520), "n_community": 5, "stacked": 2})
CROPS_PER_SCENE = 8
HIT_CW, HIT_DEG = 0.08, 12.0


def scene_points(sc) -> tuple[float, list[tuple[float, float, float, float, int]]]:  # type: ignore[no-untyped-def]
    """A scene's card width (pixels) and its index corners: (x, y, cos, sin, 1 where the index shows, 0 where it
    half shows); corners whose index is hidden are not listed (background)."""
    widths, pts = [], []
    for c in sc.cards:
        q = c.quad.astype(np.float64)
        widths.append(float(np.linalg.norm(q[1] - q[0])))
        if not c.face_up:
            continue
        for name, o, a in (("tl", q[0], q[1]), ("br", q[2], q[3])):
            ix = c.indices.get(name)
            if ix is None or ix.visible_fraction < 0.2:
                continue
            d = (a - o) / np.linalg.norm(a - o)
            pts.append((float(o[0]), float(o[1]), float(d[0]), float(d[1]), int(ix.visible)))
    return float(np.median(widths)), pts


def targets(pts: list[tuple[float, float, float, float, int]]) -> np.ndarray:
    """The training target of one crop (its corners in crop pixels, continuous): 7 x CELLS x CELLS: heat (0..1),
    offset x, offset y, cos, sin, a weight for the heat (0 round half-showing corners), one for the rest (1 at
    the 3 x 3 cells round each showing corner, the nearest corner's values there)."""
    t = np.zeros((7, CELLS, CELLS), np.float32)
    t[5] = 1.0
    jj, ii = np.meshgrid(np.arange(CELLS) + 0.5, np.arange(CELLS) + 0.5)
    best = np.full((CELLS, CELLS), np.inf)
    for x, y, c, s, shows in pts:
        u, v = x / STRIDE, y / STRIDE
        d2 = (jj - u) ** 2 + (ii - v) ** 2
        if not shows:
            t[5][d2 < 1.5 ** 2] = 0.0
            continue
        t[0] = np.maximum(t[0], np.exp(-d2 / (2 * SIGMA ** 2)))
        ci, cj = int(np.floor(v)), int(np.floor(u))
        if 0 <= ci < CELLS and 0 <= cj < CELLS:
            t[0, ci, cj] = 1.0
        for i in range(ci - 1, ci + 2):
            for j in range(cj - 1, cj + 2):
                if 0 <= i < CELLS and 0 <= j < CELLS and d2[i, j] < best[i, j]:
                    best[i, j] = d2[i, j]
                    t[1:5, i, j] = (u - (j + 0.5), v - (i + 0.5), c, s)
                    t[6, i, j] = 1.0
    t[5][t[0] > 0.5] = 1.0
    return t


def _turn(pts: list, k: int, size: int) -> list:  # type: ignore[type-arg]
    """Points as ``np.rot90(crop, k)`` moves them (a quarter counter-clockwise on the screen, k times)."""
    for _ in range(k % 4):
        pts = [(y, size - x, s, -c, f) for x, y, c, s, f in pts]
    return pts


def _scene_crops(args: tuple[int, int, bool]) -> tuple[np.ndarray, np.ndarray]:
    """Crops and targets from ``count`` tables from ``seed0`` on."""
    import cv2

    from companion.vision.synthetic import render_scene

    seed0, count, held = args
    xs, ts = [], []
    for seed in range(seed0, seed0 + count):
        rng = np.random.default_rng(seed)
        kind = KINDS[seed % len(KINDS)]
        deck = G.HELD_OUT_DECK if held else G.TRAIN_DECKS[(seed // len(KINDS)) % len(G.TRAIN_DECKS)]
        sc = render_scene(seed, deck=deck, jokers=False, **kind)
        cw, pts = scene_points(sc)
        s = LOC_CW / cw * rng.uniform(1 - SCALE_JITTER, 1 + SCALE_JITTER)
        h, w = sc.image.shape[:2]
        small = cv2.resize(sc.image, (int(round(w * s)), int(round(h * s))), interpolation=cv2.INTER_AREA)
        small = cv2.copyMakeBorder(small, CROP, CROP, CROP, CROP, cv2.BORDER_REPLICATE)
        spts = [((x + 0.5) * s + CROP, (y + 0.5) * s + CROP, c, sn, f) for x, y, c, sn, f in pts]
        centres = [np.array([(c.quad[:, 0].mean() + 0.5) * s + CROP, (c.quad[:, 1].mean() + 0.5) * s + CROP])
                   for c in sc.cards]
        for _ in range(CROPS_PER_SCENE):
            if centres and rng.random() < 0.6:
                at = centres[int(rng.integers(len(centres)))] + rng.normal(0, 1.0 * LOC_CW, 2)
            else:
                at = np.array([rng.uniform(CROP, small.shape[1] - CROP), rng.uniform(CROP, small.shape[0] - CROP)])
            x0 = int(np.clip(at[0] - CROP / 2, 0, small.shape[1] - CROP))
            y0 = int(np.clip(at[1] - CROP / 2, 0, small.shape[0] - CROP))
            crop = small[y0:y0 + CROP, x0:x0 + CROP]
            cp = [(x - x0, y - y0, c, sn, f) for x, y, c, sn, f in spts
                  if -CROP * 0.1 < x - x0 < CROP * 1.1 and -CROP * 0.1 < y - y0 < CROP * 1.1]
            k = int(rng.integers(4))
            xs.append(np.ascontiguousarray(np.rot90(crop, k)))
            ts.append(targets(_turn(cp, k, CROP)))
    return np.array(xs, np.uint8), np.array(ts, np.float32)


def render(seed0: int, scenes: int, held: bool, jobs: int) -> tuple[np.ndarray, np.ndarray]:
    chunk = 10
    work = [(seed0 + i, min(chunk, scenes - i), held) for i in range(0, scenes, chunk)]
    xs, ts = [], []
    with mp.get_context("fork").Pool(jobs) as pool:
        for n, (x, t) in enumerate(pool.imap(_scene_crops, work), 1):
            xs.append(x)
            ts.append(t)
            print(f"\rrender {'held-out' if held else 'training'} {n * chunk}/{scenes}", end="", flush=True)
    print()
    return np.concatenate(xs), np.concatenate(ts)


def build_net():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def block(cin: int, cout: int, dil: int = 1) -> list:  # type: ignore[type-arg]
        return [nn.Conv2d(cin, cout, 3, padding=dil, dilation=dil), nn.BatchNorm2d(cout), nn.ReLU()]

    return nn.Sequential(*block(3, 16), nn.MaxPool2d(2), *block(16, 24), *block(24, 24), nn.MaxPool2d(2),
                         *block(24, 32, 2), *block(32, 32, 4), *block(32, 32), nn.Conv2d(32, OUTPUTS, 1))


def loss_fn(out, t):  # type: ignore[no-untyped-def]
    """CenterNet's focal loss on the heat (penalty reduced round a corner) plus L1 on offsets and the axis."""
    import torch

    p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
    y, hw, rw = t[:, 0], t[:, 5], t[:, 6]
    pos = (y >= 1.0).float() * hw
    pos_loss = -((1 - p) ** 2 * torch.log(p) * pos).sum()
    neg_loss = -((1 - y) ** 4 * p ** 2 * torch.log(1 - p) * (1 - pos) * hw).sum()
    n = pos.sum().clamp(min=1.0)
    reg = (torch.abs(out[:, 1:5] - t[:, 1:5]).sum(dim=1) * rw).sum() / rw.sum().clamp(min=1.0)
    return (pos_loss + neg_loss) / n + reg


def train(x: np.ndarray, t: np.ndarray, epochs: int, seed: int):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    net = build_net()
    inputs = torch.from_numpy(np.stack([locator_input(c) for c in x]))
    targ = torch.from_numpy(t)
    n, bs = len(x), 64
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * ((n + bs - 1) // bs))
    gen = torch.Generator().manual_seed(seed)
    for ep in range(epochs):
        net.train()
        order = torch.randperm(n, generator=gen)
        total, t0 = 0.0, time.time()
        for i in range(0, n, bs):
            idx = order[i:i + bs]
            size = int(SUB_SIZES[int(torch.randint(len(SUB_SIZES), (1,), generator=gen))])
            ox, oy = (int(v) * STRIDE for v in torch.randint((CROP - size) // STRIDE + 1, (2,), generator=gen))
            xb = inputs[idx][:, :, oy:oy + size, ox:ox + size]
            tb = targ[idx][:, :, oy // STRIDE:(oy + size) // STRIDE, ox // STRIDE:(ox + size) // STRIDE].clone()
            tb[:, 5:7, :EDGE_CELLS] = 0
            tb[:, 5:7, -EDGE_CELLS:] = 0
            tb[:, 5:7, :, :EDGE_CELLS] = 0
            tb[:, 5:7, :, -EDGE_CELLS:] = 0
            # light: gain and offset per channel (a colour cast the percentile leaves), a little noise
            gain = 1 + 0.4 * (torch.rand(len(idx), 3, 1, 1, generator=gen) - 0.5)
            xb = (xb + 0.5) * gain - 0.5 + 0.1 * (torch.rand(len(idx), 1, 1, 1, generator=gen) - 0.5)
            xb = xb + 0.02 * torch.randn(xb.shape, generator=gen)
            loss = loss_fn(net(xb), tb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(f"epoch {ep + 1}/{epochs} loss {total / n:.3f} ({time.time() - t0:.0f} s)", flush=True)
    net.eval()
    return net


def export(net, path: Path) -> None:  # type: ignore[no-untyped-def]
    import torch

    dummy = torch.zeros(1, 3, CROP, CROP)
    torch.onnx.export(net, dummy, str(path), input_names=["x"], output_names=["y"], opset_version=13,
                      dynamic_axes={"x": {2: "h", 3: "w"}, "y": {2: "h", 3: "w"}}, dynamo=False)


def measure(model_dir: Path, seeds: range, min_score: float = 0.3) -> dict[str, float]:
    """On whole held-out tables, looked at in tiles of 12 card widths (``IndexLocator.locate``, the scene's true
    card width): visible index corners marked, and peaks per table that mark no card's corner."""
    from companion.vision.reader_locator import load_locator
    from companion.vision.synthetic import render_scene

    loc = load_locator(model_dir)
    assert loc is not None
    shown = hit = stray = 0
    for seed in seeds:
        kind = KINDS[seed % len(KINDS)]
        sc = render_scene(seed, deck=G.HELD_OUT_DECK, jokers=False, **kind)
        cw, pts = scene_points(sc)
        h, w = sc.image.shape[:2]
        found = []
        # the picture in tiles (the locator's input is at most MAX_SIDE across)
        step = 12 * cw
        for ty in np.arange(0, h, step):
            for tx in np.arange(0, w, step):
                tile = np.array([[tx, ty], [min(w, tx + step), ty], [min(w, tx + step), min(h, ty + step)],
                                 [tx, min(h, ty + step)]])
                found += [f for f in loc.locate(sc.image, tile, cw, min_score, most=400)
                          if tx <= f.origin[0] < tx + step and ty <= f.origin[1] < ty + step]
        for x, y, c, s, shows in pts:
            if not shows:
                continue
            shown += 1
            if any(np.hypot(f.origin[0] - x, f.origin[1] - y) < HIT_CW * cw and
                   np.degrees(np.arccos(np.clip((f.x_axis @ np.array([c, s])) / cw, -1, 1))) < HIT_DEG
                   for f in found):
                hit += 1
        stray += sum(1 for f in found if not any(np.hypot(f.origin[0] - x, f.origin[1] - y) < 0.2 * cw
                                                 for x, y, _, _, _ in pts))
    return {"index_corners": shown, "marked": hit, "marked_share": round(hit / max(shown, 1), 4),
            "stray_per_table": round(stray / len(seeds), 2), "tables": len(seeds), "min_score": min_score}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=2400)
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--held", type=int, default=60, help="held-out tables measured")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--eval-only", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, help="keep the rendered crops here (.npz), and reuse them")
    ap.add_argument("--out", type=Path, default=ROOT / "models")
    a = ap.parse_args(argv)
    if a.quick:
        a.scenes, a.epochs, a.held = a.scenes // 10, 2, 6
    a.out.mkdir(parents=True, exist_ok=True)
    if not a.eval_only:
        if a.cache is not None and a.cache.exists():
            d = np.load(a.cache)
            x, t = d["x"], d["t"]
        else:
            x, t = render(SCENE_SEEDS, a.scenes, False, a.jobs)
            if a.cache is not None:
                np.savez(a.cache, x=x, t=t)
        print(f"{len(x)} crops, {int((t[:, 0] >= 1).sum())} corners")
        import torch

        torch.set_num_threads(a.jobs)
        net = train(x, t, a.epochs, seed=1)
        export(net, a.out / "reader_locator.onnx")
        (a.out / "reader_locator.json").write_text(json.dumps({"loc_cw": LOC_CW, "stride": STRIDE}) + "\n")
    figures = measure(a.out, range(HELD_SEEDS, HELD_SEEDS + a.held))
    print(json.dumps(figures))
    info = json.loads((a.out / "reader_locator.json").read_text())
    info.update({"held_out": figures, "trained_on": {"scenes": a.scenes, "epochs": a.epochs,
                                                     "decks": list(G.TRAIN_DECKS), "seeds_from": SCENE_SEEDS}}
                if not a.eval_only else {"held_out": figures})
    (a.out / "reader_locator.json").write_text(json.dumps(info, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
