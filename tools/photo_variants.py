"""How the reader holds up on the real photos' dev half changed in ways a table could differ: turned a quarter
or half round, darker or brighter, a colour cast, the picture twice as big, heavy JPEG. A reader that reads a
photo as it is but not turned or dimmed is fragile there; this is a check on the dev half only (the test half
stays for measuring).

    PYTHONPATH=. .venv/bin/python tools/photo_variants.py [--variants rot90,rot180,dark,bright,warm,up2,jpeg]
        [--old REV] [--jobs 2] [-v]

Per variant: cards right of those labelled (``vision_bench.card_outcomes``) and reads naming a card not there.
With ``--old``, the older revision's reader on the same pictures too (loaded as ``benchmarks.reader_ab`` does).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vision_bench import PHOTOS, card_outcomes, names_one_not_there, photo_boxes  # noqa: E402

VARIANTS = ("rot90", "rot180", "dark", "bright", "warm", "up2", "jpeg")
_READERS: dict[str, Any] = {}


def _gamma(img: np.ndarray, g: float) -> np.ndarray:
    lut = (255.0 * (np.arange(256) / 255.0) ** g).clip(0, 255).astype(np.uint8)
    return cv2.LUT(img, lut)


def variant(img: np.ndarray, boxes: list[dict[str, str]], name: str) -> tuple[np.ndarray, list[dict[str, str]]]:
    """The picture changed as ``name`` says, and its boxes moved with it."""
    h, w = img.shape[:2]

    def moved(f) -> list[dict[str, str]]:
        out = []
        for b in boxes:
            x1, y1, x2, y2 = f(*(int(b[k]) for k in ("x1", "y1", "x2", "y2")))
            out.append({**b, "x1": str(min(x1, x2)), "y1": str(min(y1, y2)), "x2": str(max(x1, x2)),
                        "y2": str(max(y1, y2))})
        return out

    if name == "rot90":  # clockwise: (x, y) -> (h - 1 - y, x)
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), moved(lambda x1, y1, x2, y2: (h - 1 - y1, x1, h - 1 - y2, x2))
    if name == "rot180":
        return cv2.rotate(img, cv2.ROTATE_180), moved(lambda x1, y1, x2, y2: (w - 1 - x1, h - 1 - y1, w - 1 - x2,
                                                                               h - 1 - y2))
    if name == "dark":
        return _gamma(img, 1.8), boxes
    if name == "bright":
        return _gamma(img, 0.6), boxes
    if name == "warm":  # a tungsten lamp: blue down, red up
        b, g, r = cv2.split(img.astype(np.float32))
        return cv2.merge([b * 0.75, g * 0.95, np.minimum(r * 1.1 + 10, 255)]).astype(np.uint8), boxes
    if name == "up2":
        return cv2.resize(img, (2 * w, 2 * h), interpolation=cv2.INTER_CUBIC), moved(
            lambda x1, y1, x2, y2: (2 * x1, 2 * y1, 2 * x2, 2 * y2))
    if name == "jpeg":
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 30])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR), boxes
    raise ValueError(f"unknown variant {name!r}")


def _one(task: tuple[str, str, list[dict[str, str]]]) -> dict[str, Counter[str]]:
    name, var, boxes = task
    img = cv2.imread(str(PHOTOS / name))
    out: dict[str, Counter[str]] = {}
    if img is None:
        return out
    pic, bx = variant(img, boxes, var) if var != "asis" else (img, boxes)
    for who, reader in _READERS.items():
        reads = reader.read_still(pic)
        c = out[who] = Counter()
        for outcome, _ in card_outcomes(reads, bx):
            c[outcome] += 1
        c["not_there"] = sum(int(names_one_not_there(r, bx)) for r in reads if r.code and not r.face_down)
        c["image:" + name] = c["right"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--old", help="an older revision's reader on the same pictures")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", "--verbose", action="store_true", help="list the pictures whose count differs")
    args = ap.parse_args(argv)
    from companion.vision.reader import Reader
    _READERS["new"] = Reader()
    if args.old:
        import tempfile

        from benchmarks.reader_ab import old_reader
        _READERS["old"] = old_reader(args.old, Path(tempfile.mkdtemp(prefix="photo_variants_")))
    dev = [(n, b) for i, (n, b) in enumerate(photo_boxes().items()) if i % 2 == 0]
    total = sum(len(b) for _, b in dev)
    base: dict[str, Counter[str]] = {}
    if args.verbose:  # each picture's cards right as it is, to list the pictures a variant reads fewer of
        with Pool(args.jobs) as pool:
            for res in pool.imap_unordered(_one, [(n, "asis", b) for n, b in dev]):
                for who, c in res.items():
                    base.setdefault(who, Counter()).update(c)
    for var in args.variants.split(","):
        tasks = [(n, var, b) for n, b in dev]
        sums: dict[str, Counter[str]] = {}
        with Pool(args.jobs) as pool:
            for res in pool.imap_unordered(_one, tasks):
                for who, c in res.items():
                    sums.setdefault(who, Counter()).update(c)
        line = "  ".join(f"{who} {c['right']}/{total} (not there {c['not_there']}; missed {c['missed']}, "
                         f"abstained {c['abstained']}, face-down {c['face_down']}, wrong {c['wrong']})"
                         for who, c in sorted(sums.items()))
        print(f"{var:7s} {line}", flush=True)
        for who, c in sorted(base.items()):
            worse = [f"{k[6:]} {c[k]}->{sums[who][k]}" for k in c if k.startswith("image:") and sums[who][k] != c[k]]
            print(f"        {who}: " + ", ".join(sorted(worse)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
