"""What a reader change does to the reads on the tuning sets: an older revision's reader against the working
tree's, card by card, on the same pictures.

    .venv/bin/python tools/tune_ab.py --old HEAD~1                  # 4 kinds x 2 training decks, seeds 5030-5069
    .venv/bin/python tools/tune_ab.py --old HEAD~1 --kinds lo,wc --seeds 5030-5049 --photos
    .venv/bin/python tools/tune_ab.py --old 92e8578 --photos-only     # the real photos' dev half alone

The sets are the ones sessions tune on, never the benchmark's held-out ones (``vision_bench``: seeds 9000 on of the
held-out deck, the photos' test half): synthetic tables dealt from the two training decks on seeds 5030-5069, in
four kinds (``KINDS``: the default picture, small cards with the whole table in view, those from the
lower-resolution camera, the default on a white tablecloth; ``--kinds stk`` adds a full row with two stacked
slots, the Jokers variant), and with ``--photos`` the real photos' dev half
(even images) as they are and softened to 85 px cards. Each kind is counted as ``vision_bench.score_scene``
counts (right and wrong, community and pocket apart; face-down cards found, and reported where none lies; on the
photos, which hold no face-down card, face-down reports off every labelled card), and every picture whose reads
differ is listed with the cards only one reader named. Rendered scenes are kept in ``--cache`` (a few hundred MB
for the default sets) so a second run only reads. Both readers run in one process (the old one from ``git archive``, as
``benchmarks.reader_ab`` loads it), each picture read by both in turn; ``--jobs`` pictures at once.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import tempfile
import time
from collections import Counter
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.vision_bench import (LOW_SIZE, PHOTOS, SMALL_CARDS, SMALL_SIZE, _rect, card_outcomes,  # noqa: E402
                                     card_width, names_one_not_there, off_every_card, photo_boxes, score_scene,
                                     softened)
from companion.vision.glyphs import TRAIN_DECKS  # noqa: E402
# name -> render_scene keywords
KINDS: dict[str, dict[str, Any]] = {
    "def": {"size": (2028, 1520)},
    "small": {"size": SMALL_SIZE, "card_height": SMALL_CARDS},
    "lo": {"size": LOW_SIZE, "card_height": SMALL_CARDS},
    "wc": {"size": (2028, 1520), "mat": "white_cloth"},
    # A full row, two slots stacked (the Jokers variant; not in the default --kinds: vision_bench's stacked row).
    "stk": {"size": (2028, 1520), "n_community": 5, "stacked": 2},
}

_READERS: dict[str, Any] = {}  # "old", "new": set in the parent before the workers fork


def _scene(cache: Path, kind: str, deck: str, seed: int) -> tuple[np.ndarray, list]:
    """The rendered scene (picture, truth), from the cache or rendered and cached."""
    from companion.vision.synthetic import render_scene

    path = cache / f"{kind}_{deck}_{seed}.pkl"
    if path.exists():
        png, cards = pickle.loads(path.read_bytes())
        return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR), cards
    sc = render_scene(seed, deck=deck, jokers=False, **KINDS[kind])
    path.write_bytes(pickle.dumps((cv2.imencode(".png", sc.image)[1].tobytes(), sc.cards)))
    return sc.image, sc.cards


def _named(reads) -> Counter:
    return Counter(r.code for r in reads if r.code is not None and not r.face_down)


def _scene_job(job: tuple[str, str, str, int]) -> tuple[str, str, int, dict, dict, Counter, Counter]:
    cache, kind, deck, seed = job
    cv2.setNumThreads(1)
    image, cards = _scene(Path(cache), kind, deck, seed)
    cw = card_width(cards)
    old = _READERS["old"].read_still(image)
    new = _READERS["new"].read_still(image)
    return (kind, deck, seed, score_scene(old, cards, cw), score_scene(new, cards, cw), _named(old), _named(new))


def _photo_job(job: tuple[int, str, bool, list[dict[str, str]]]
               ) -> tuple[int, str, bool, list[dict[str, str]], list[str], list[str], tuple[int, int],
                          tuple[int, int]]:
    i, name, soft, boxes = job
    cv2.setNumThreads(1)
    image = cv2.imread(str(PHOTOS / name))
    if soft:
        image = softened(image, boxes)
    res = []
    for key in ("old", "new"):
        reads = _READERS[key].read_still(image)
        outcomes = [o for o, _ in card_outcomes(reads, boxes)]
        not_there = sum(1 for r in reads if r.code and not r.face_down and names_one_not_there(r, boxes))
        # Face-down reports off every labelled card (the photos hold no face-down card): clutter taken for backs.
        stray = sum(1 for r in reads if r.face_down and off_every_card(r, boxes))
        res.append((outcomes, not_there, stray))
    return i, name, soft, boxes, res[0][0], res[1][0], (res[0][1], res[0][2]), (res[1][1], res[1][2])


def _seeds(text: str) -> list[int]:
    a, _, b = text.partition("-")
    return list(range(int(a), int(b or a) + 1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old", default="HEAD", help="git revision to compare against (default HEAD: the change "
                                                  "not yet committed)")
    ap.add_argument("--kinds", default="lo,wc,def,small", help=f"comma-separated, of {', '.join(KINDS)}")
    ap.add_argument("--decks", default=",".join(TRAIN_DECKS))
    ap.add_argument("--seeds", default="5030-5069", help="FIRST-LAST (tuning seeds: 5000-5259)")
    ap.add_argument("--photos", action="store_true", help="also the real photos' dev half, plain and softened")
    ap.add_argument("--photos-only", action="store_true")
    ap.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "gang-tune-cache"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    seeds = _seeds(args.seeds)
    if any(s >= 7000 for s in seeds):
        ap.error("seeds 7000 on are the benchmark's (timing 7000, held-out tables 9000): tune below them")
    kinds = [k for k in args.kinds.split(",") if k]
    if bad := [k for k in kinds if k not in KINDS]:
        ap.error(f"unknown kind(s) {', '.join(bad)}; known: {', '.join(KINDS)}")
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    # One core per picture, and no OpenCV thread pool in the parent: a pool started before the workers fork
    # leaves them waiting on its threads forever.
    cv2.setNumThreads(1)

    from benchmarks.reader_ab import old_reader
    from companion.vision.reader import Reader

    t0 = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        _READERS["old"] = old_reader(args.old, Path(tmp))
        _READERS["new"] = Reader()
        ctx = get_context("fork")
        with ctx.Pool(max(1, args.jobs)) as pool:
            if not args.photos_only:
                jobs = [(str(cache), k, d, s) for k in kinds for d in args.decks.split(",") for s in seeds]
                _report_scenes(pool.imap(_scene_job, jobs), args.old)
            if args.photos or args.photos_only:
                photos = list(photo_boxes().items())
                jobs2 = [(i, n, soft, boxes) for soft in (False, True) for i, (n, boxes) in enumerate(photos)
                         if i % 2 == 0]
                _report_photos(pool.imap(_photo_job, jobs2), args.old)
    print(f"({time.time() - t0:.0f} s)")
    return 0


def _report_scenes(results, old_name: str) -> None:
    totals: dict[tuple[str, str], dict[str, Counter]] = {}
    diffs: list[str] = []
    for kind, deck, seed, s_old, s_new, n_old, n_new in results:
        t = totals.setdefault((kind, deck), {"old": Counter(), "new": Counter()})
        for key, s in (("old", s_old), ("new", s_new)):
            for zone in ("community", "pocket"):
                for field in ("readable", "right", "wrong"):
                    t[key][f"{zone}_{field}"] += s[zone].get(field, 0)
            for field in ("truth", "found", "not_there"):
                t[key][f"backs_{field}"] += s["backs"].get(field, 0)
        if n_old != n_new:
            lost, gained = n_old - n_new, n_new - n_old
            diffs.append(f"  {kind} {deck} {seed}: only {old_name}: {sorted(lost.elements()) or '-'}; "
                         f"only now: {sorted(gained.elements()) or '-'}")
    print(f"tuning scenes, {old_name} -> working tree (right of readable, wrong)")
    for (kind, deck), t in totals.items():
        o, n = t["old"], t["new"]
        print(f"  {kind:5s} {deck:22s} community {o['community_right']} -> {n['community_right']} of "
              f"{n['community_readable']} (wrong {o['community_wrong']} -> {n['community_wrong']}), pocket "
              f"{o['pocket_right']} -> {n['pocket_right']} of {n['pocket_readable']} (wrong {o['pocket_wrong']} -> "
              f"{n['pocket_wrong']}), face-down {o['backs_found']} -> {n['backs_found']} of {n['backs_truth']} "
              f"(where none lies {o['backs_not_there']} -> {n['backs_not_there']})")
    print(f"scenes whose named cards differ: {len(diffs)}")
    for line in diffs:
        print(line)


def _report_photos(results, old_name: str) -> None:
    tot: dict[bool, dict[str, Counter]] = {False: {"old": Counter(), "new": Counter()},
                                           True: {"old": Counter(), "new": Counter()}}
    diffs: list[str] = []
    for i, name, soft, boxes, o_old, o_new, (nt_old, sb_old), (nt_new, sb_new) in results:
        tot[soft]["old"].update(o_old)
        tot[soft]["new"].update(o_new)
        tot[soft]["old"]["not_there"] += nt_old
        tot[soft]["new"]["not_there"] += nt_new
        tot[soft]["old"]["stray_backs"] += sb_old
        tot[soft]["new"]["stray_backs"] += sb_new
        for b, a, c in zip(boxes, o_old, o_new):
            if a != c:
                diffs.append(f"  {'softened ' if soft else ''}{name} {b['card']} at {_rect(b)}: {a} -> {c}")
        if nt_old != nt_new:
            diffs.append(f"  {'softened ' if soft else ''}{name}: reads naming a card not there {nt_old} -> {nt_new}")
    for soft in (False, True):
        o, n = tot[soft]["old"], tot[soft]["new"]
        cards = sum(v for k, v in n.items() if k not in ("not_there", "stray_backs"))
        print(f"real photos, dev half{', softened' if soft else ''}, {old_name} -> working tree: right "
              f"{o['right']} -> {n['right']} of {cards}, wrong {o['wrong']} -> {n['wrong']}, reads naming a card "
              f"not there {o['not_there']} -> {n['not_there']}, face-down reports off the cards "
              f"{o['stray_backs']} -> {n['stray_backs']}")
    print(f"cards whose outcome differs: {len(diffs)}")
    for line in diffs:
        print(line)


if __name__ == "__main__":
    raise SystemExit(main())
