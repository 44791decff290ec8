"""``gang-companion`` command line: one module per subcommand, each with ``register(subparsers)``.

Exit status: 0 when the command did its job, 2 for bad input (with a message naming the problem).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Sequence

# Each module registers its own subcommands; heavy imports happen inside their run functions.
SUBCOMMAND_MODULES = (
    "companion.cli.judge_cmd",
    "companion.cli.play_cmd",
    "companion.cli.demo_cmd",
    "companion.cli.vision_cmd",
)


class InputError(Exception):
    """Bad input from the user: printed as a message, exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gang-companion",
        description="Table companion for The Gang: judge showdowns, keep a journalled game, read cards.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # a ring not built yet; the others still work
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except InputError as exc:
        print(f"gang-companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): not an error of ours; keep Python from complaining at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
