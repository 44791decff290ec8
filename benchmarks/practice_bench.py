"""How often a crew of bots wins a whole game at the practice table, per crew size.

    python -m benchmarks.practice_bench               # 20 games each for 3, 4, 6 and 10 bots (about a minute)
    python -m benchmarks.practice_bench --games 50 --players 4

Each game runs through the real engine and judge, exactly as ``gang-companion demo`` plays it (seeds 1..N).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import time

from companion.cli import main as cli_main


def play(players: int, seed: int) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cli_main(["demo", "--delay", "0", "--players", str(players), "--seed", str(seed)])
    return out.getvalue().strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, nargs="*", default=[3, 4, 6, 10])
    args = ap.parse_args()
    print(f"{'bots':>5} {'games':>6} {'won':>5} {'win rate':>9} {'s/game':>7}")
    for n in args.players:
        t0 = time.perf_counter()
        won = sum(play(n, seed).startswith("The crew wins") for seed in range(1, args.games + 1))
        per_game = (time.perf_counter() - t0) / args.games
        print(f"{n:>5} {args.games:>6} {won:>5} {won / args.games:>8.0%} {per_game:>7.2f}")


if __name__ == "__main__":
    main()
