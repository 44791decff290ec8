"""``gang-companion play``: run a script of commands against a journalled game and print the state as JSON.

    gang-companion play --script moves.jsonl --db table.sqlite3   # feed commands, print the state
    gang-companion play --db table.sqlite3                        # just print the saved state
    gang-companion play --db table.sqlite3 --export game.jsonl    # the history as JSON lines
    gang-companion play --db new.sqlite3 --import game.jsonl      # load an exported history

A script holds one command per line (JSON objects, see docs/engine.md); blank lines and lines starting
with ``#`` are skipped. Each command is journalled as it is accepted, so running a script again on the
same journal continues the saved game. A bad line stops the run with exit status 2 and a message naming
the line; every earlier line stays applied.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from companion.cli import InputError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a journalled game from a script of commands; print the state as JSON",
        description="Feed JSON-lines commands to the game engine. Every accepted command is journalled "
                    "(SQLite), so a later run on the same journal continues the game.",
    )
    parser.add_argument("--script", metavar="FILE",
                        help="JSON lines of commands, e.g. {\"cmd\": \"take\", \"player\": \"Ana\", \"chip\": 3}; "
                             "'-' reads standard input")
    parser.add_argument("--db", metavar="PATH",
                        help="the journal file (default: $XDG_DATA_HOME/gang-companion/journal.sqlite3)")
    parser.add_argument("--export", metavar="FILE", help="write the journal's events as JSON lines ('-': stdout)")
    parser.add_argument("--import", dest="import_file", metavar="FILE",
                        help="load an exported history (JSON lines of events) into an empty journal first")
    parser.add_argument("--quiet", action="store_true", help="do not print the state")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.engine import CommandError, ReplayError, command_from_json
    from companion.journal import Journal, JournalError, JournalledGame

    try:
        journal = Journal(args.db)
    except JournalError as exc:
        raise InputError(str(exc)) from None
    with journal:
        try:
            game = JournalledGame(journal)
        except JournalError as exc:
            raise InputError(str(exc)) from None
        if args.import_file:
            try:
                with _open_in(args.import_file) as lines:
                    game.import_jsonl(lines)
            except (OSError, ReplayError, JournalError) as exc:
                raise InputError(f"cannot import {args.import_file}: {exc}") from None
            except UnicodeDecodeError:
                raise InputError(f"cannot import {args.import_file}: it is not UTF-8 text") from None
        if args.script:
            try:
                with _open_in(args.script) as lines:
                    for number, line in enumerate(lines, 1):
                        text = line.strip()
                        if not text or text.startswith("#"):
                            continue
                        try:
                            command = json.loads(text)
                        except json.JSONDecodeError as exc:
                            raise InputError(f"{args.script} line {number}: not a JSON object ({exc.msg})") from None
                        except (ValueError, RecursionError) as exc:  # a huge integer, too deep nesting
                            why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
                            raise InputError(f"{args.script} line {number}: not a JSON object ({why})") from None
                        try:
                            game.execute(command_from_json(command))
                        except (CommandError, JournalError) as exc:
                            raise InputError(f"{args.script} line {number}: {exc}") from None
            except OSError as exc:
                raise InputError(f"cannot read the script: {exc}") from None
            except UnicodeDecodeError:
                raise InputError(f"cannot read the script: {args.script} is not UTF-8 text") from None
        if args.export == "-":
            game.export_jsonl(sys.stdout)
        elif args.export:
            try:
                with open(args.export, "w", encoding="utf-8") as out:
                    game.export_jsonl(out)
            except OSError as exc:
                raise InputError(f"cannot write {args.export}: {exc}") from None
        if args.export != "-" and not args.quiet:
            text = json.dumps(game.state.to_json(), indent=2, ensure_ascii=False)
            try:
                text.encode(sys.stdout.encoding or "utf-8")
            except UnicodeEncodeError:  # an ASCII terminal, or a name from an old journal that no terminal can show
                text = json.dumps(game.state.to_json(), indent=2)
            sys.stdout.write(text + "\n")
    return 0


class _open_in:
    """A text file to read, or standard input for '-'."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.handle: TextIO | None = None

    def __enter__(self) -> TextIO:
        if self.name == "-":
            return sys.stdin
        self.handle = Path(self.name).open(encoding="utf-8-sig")  # -sig: a byte-order mark is skipped
        return self.handle

    def __exit__(self, *exc: object) -> None:
        if self.handle is not None:
            self.handle.close()
