"""``gang-companion scan``, ``enrol`` and ``calibrate``: the card reader from the command line.

    gang-companion scan table.jpg --json                 # cards read, face-down cards apart
    gang-companion scan table.jpg --deck home            # read with an enrolled deck
    gang-companion enrol row1.jpg row2.jpg --deck home   # learn a deck laid out face up (asks to confirm)
    gang-companion enrol *.jpg --deck home --labels cards.csv   # with known labels: no questions
    gang-companion calibrate --image table.jpg --seats 4        # zones overlaid, saved
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli import InputError

if TYPE_CHECKING:
    import numpy as np

    from companion.vision.enrol import SeenCard
    from companion.vision.reader import Reader


def register(subparsers: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = subparsers.add_parser("scan", help="read the cards in table pictures",
                              description="Find and read the cards in each picture.")
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="print one JSON document")
    p.add_argument("--deck", metavar="NAME", help="read with this enrolled deck")
    p.add_argument("--decks-dir", metavar="DIR", help="where enrolled decks live (default: user data dir)")
    p.add_argument("--models", metavar="DIR", help="reader model folder (default: models/)")
    p.add_argument("--threshold", type=float, default=0.5, help="abstain below this confidence (0..1)")
    p.add_argument("--zones", metavar="FILE", help="a calibration from 'calibrate': its measured card size is used")
    p.set_defaults(func=run_scan)

    e = subparsers.add_parser("enrol", help="learn a deck from pictures of it laid out face up",
                              description="Read every card, give each of the 52 cards to exactly one, confirm, "
                                          "store the deck's prototypes under NAME. Lay the jokers out too if "
                                          "you play with them: the cards that look most like jokers (no index the "
                                          "reader knows, or a J over letters) are proposed as the jokers (or name "
                                          "them JR and JB in the labels file).")
    e.add_argument("images", nargs="+", metavar="IMAGE")
    e.add_argument("--deck", required=True, metavar="NAME")
    e.add_argument("--labels", metavar="FILE", help="CSV of image,cards: known labels, no confirmation")
    e.add_argument("--yes", action="store_true", help="accept the proposed labelling without asking")
    e.add_argument("--decks-dir", metavar="DIR")
    e.add_argument("--models", metavar="DIR")
    e.add_argument("--json", action="store_true")
    e.set_defaults(func=run_enrol)

    c = subparsers.add_parser("calibrate", help="show the camera picture with the table zones, save the zones")
    src = c.add_mutually_exclusive_group()
    src.add_argument("--image", metavar="FILE", help="a picture of the table (instead of the camera)")
    src.add_argument("--source", metavar="SPEC", default="picamera", help="frame source (default: picamera)")
    c.add_argument("--seats", type=int, default=4)
    c.add_argument("--zones", metavar="FILE", help="where to save the zones (default: user config dir)")
    c.add_argument("--overlay", metavar="PNG", default="calibration.png", help="picture with the zones drawn")
    c.set_defaults(func=run_calibrate)


def _load(path: str) -> np.ndarray:
    import cv2

    if not Path(path).is_file():
        raise InputError(f"no such image: {path}")
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise InputError(f"not an image OpenCV can read: {path}")
    return img


def _reader(args: argparse.Namespace) -> Reader:
    from companion.vision.enrol import EnrolError, EnrolledDeck
    from companion.vision.reader import Reader

    try:
        reader = Reader(args.models, threshold=getattr(args, "threshold", 0.5))
    except FileNotFoundError as exc:
        raise InputError(f"reader models missing: {exc}") from None
    if getattr(args, "deck", None) and args.func is run_scan:
        try:
            reader.deck = EnrolledDeck.load(args.deck, args.decks_dir)
        except EnrolError as exc:
            raise InputError(str(exc)) from None
        if len(reader.deck.mean) != len(reader.rank_model.mean) + len(reader.suit_model.mean):
            raise InputError(f"deck {args.deck!r} was enrolled with other reader models; enrol it again")
    return reader


def _r(v: float) -> float:
    return round(float(v), 1)


def run_scan(args: argparse.Namespace) -> int:
    images = [(p, _load(p)) for p in args.images]
    reader = _reader(args)
    if args.zones:
        from companion.vision import zones as Z

        try:
            reader.card_width_frac = Z.Zones.load(args.zones).card_width
        except Z.ZoneError as exc:
            raise InputError(str(exc)) from None
    docs = []
    for path, img in images:
        reads = reader.read_still(img)
        cards, down, unread = [], [], []
        for r in reads:
            item = {"centre": [_r(v) for v in r.centre], "quad": [[_r(x), _r(y)] for x, y in r.quad],
                    "confidence": round(float(r.confidence), 3)}
            if r.face_down:
                down.append(item)
            elif r.code is None:
                unread.append(item)
            else:
                cards.append({"code": r.code, **item, "corner": r.corner})
        docs.append({"image": path, "size": [int(img.shape[1]), int(img.shape[0])], "cards": cards,
                     "face_down": down, "unread": unread})
    if args.json:
        print(json.dumps({"deck": args.deck, "images": docs}, indent=1))
    else:
        for d in docs:
            print(f"{d['image']}: {len(d['cards'])} cards, {len(d['face_down'])} face down, "
                  f"{len(d['unread'])} unread")
            for c in d["cards"]:
                print(f"  {c['code']:<4} at ({c['centre'][0]:.0f}, {c['centre'][1]:.0f})  {c['confidence']:.2f}")
    return 0


def run_enrol(args: argparse.Namespace) -> int:
    from companion.vision.enrol import (EnrolError, build_deck, check_name, collect, parse_fixes, propose,
                                        read_labels)

    try:
        check_name(args.deck)
        images = [(Path(p).name, _load(p)) for p in args.images]
        allowed = read_labels(args.labels) if args.labels else None
        if args.labels and not Path(args.labels).is_file():
            raise InputError(f"no such labels file: {args.labels}")
        reader = _reader(args)
        seen = propose(collect(reader, images), allowed)
    except (EnrolError, OSError) as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:  # a bad card name in the labels file
        raise InputError(f"labels: {exc}") from None
    labelled = [c for c in seen if c.proposed]
    if args.json:
        rows: list[dict[str, Any]] = [{"image": c.image, "centre": [_r(v) for v in c.quad.mean(axis=0)],
                                       "proposed": c.proposed, "generic": c.generic_code, "score": round(c.score, 3)}
                                      for c in seen]
        print(json.dumps({"deck": args.deck, "found": len(seen), "labelled": len(labelled), "cards": rows}, indent=1))
    else:
        _print_proposal(seen)
    if not labelled:
        raise InputError("no card could be read in the enrolment pictures")
    if not (args.labels or args.yes):
        if not sys.stdin.isatty():
            raise InputError("confirm with --yes (or give --labels) when not run interactively")
        fixes: dict[int, str | None] = {}
        while True:
            answer = input("Store this labelling? y stores it, n quits; or correct cards by number, e.g. "
                           "'12=Kh 30=-' (- for no card): ").strip()
            if answer.lower() in ("y", "yes"):
                break
            if answer.lower() in ("", "n", "no"):
                print("Nothing stored.")
                return 1
            try:
                more = {**fixes, **parse_fixes(answer, len(seen))}
                seen = propose(seen, allowed, more)  # checks before it changes anything
            except EnrolError as exc:
                print(f"Nothing changed: {exc}")
                continue
            fixes = more
            _print_proposal(seen)
    deck = build_deck(args.deck, seen, reader)
    path = deck.save(args.decks_dir)
    if not args.json:
        jokers = f", {deck.info['jokers']} joker{'s' if deck.info['jokers'] != 1 else ''}" if deck.info["jokers"] else ""
        print(f"Stored deck {args.deck!r}: {deck.info['cards']} cards{jokers}, {deck.info['corners']} corners -> {path}")
    return 0


def _print_proposal(seen: "list[SeenCard]") -> None:
    """The proposed labelling, numbered for corrections, with where the assignment overrode the reader."""
    print(f"{len(seen)} cards found, {sum(c.proposed is not None for c in seen)} labelled:")
    for k, c in enumerate(seen, 1):
        x, y = c.quad.mean(axis=0)
        flag = "" if c.proposed == c.generic_code else f"   (reader said {c.generic_code})"
        print(f"  {k:>3}  {c.image} ({x:.0f}, {y:.0f}): {c.proposed or '-'}{flag}")


def _zones_path(arg: str | None) -> Path:
    if arg:
        return Path(arg)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "gang-companion" / "zones.json"


def run_calibrate(args: argparse.Namespace) -> int:
    try:
        from companion.vision import zones as Z
    except ImportError as exc:  # pragma: no cover - the zones module is part of the vision ring
        raise InputError(f"zones are not available: {exc}") from None
    if args.image:
        img = _load(args.image)
    else:
        from companion.vision.sources import SourceError, open_source

        try:
            src = open_source(args.source)
            img = src.still()
            src.close()
        except SourceError as exc:
            raise InputError(str(exc)) from None
    try:
        zones = Z.default_layout(args.seats, aspect=img.shape[1] / img.shape[0])
    except Z.ZoneError as exc:
        raise InputError(str(exc)) from None
    # The camera does not move: a card's size measured once (on cards lying face up, apart) serves every picture.
    from companion.vision.detect import measure_card_width

    width, n = measure_card_width(img)
    if width:
        zones = zones.with_card_width(width / img.shape[1])
        print(f"card size: {width:.0f} px across ({100 * width / img.shape[1]:.1f} % of the picture's width), "
              f"from {n} cards")
    else:
        print("card size not measured: no card lying on its own was seen. Lay a few cards face up, apart, "
              "and calibrate again; until then it is estimated in each picture.")
    out = _zones_path(args.zones)
    out.parent.mkdir(parents=True, exist_ok=True)
    zones.save(out)
    overlay = Z.save_overlay(img, zones, args.overlay)
    print(f"zones saved to {out}; picture with zones: {overlay}")
    return 0
