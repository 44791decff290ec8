"""``gang-companion judge FILE``: JSON showdowns in, verdicts out (one line per showdown for JSON lines)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from companion.cli import InputError


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("judge", help="judge showdowns given as JSON (a file, or - for stdin)",
                       description="Judge one showdown (a JSON object) or many (JSON lines, one showdown a line).")
    p.add_argument("file", help="path to the JSON or JSON-lines file, or - to read stdin")
    p.add_argument("--pretty", action="store_true", help="indent a single verdict")
    p.set_defaults(func=run)


def _read(path: str) -> str:
    try:
        if path == "-":
            return sys.stdin.read().removeprefix("\ufeff")
        with open(path, encoding="utf-8-sig") as f:  # -sig: a byte-order mark (some Windows editors) is skipped
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{'standard input' if path == '-' else path} is not UTF-8 text") from None


def _loads(text: str) -> Any:
    """json.loads, with every way it can refuse a text as ValueError (a too-long integer, too deep nesting)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise ValueError("nested too deeply") from None
    except ValueError as exc:
        raise ValueError(str(exc).split(";")[0]) from None


def _judge_one(data: Any) -> dict[str, Any]:
    from companion.judge import ShowdownError, judge_json

    try:
        return judge_json(data)
    except ShowdownError as exc:
        raise InputError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    text = _read(args.file)
    if not text.strip():
        raise InputError(f"{args.file} holds no showdown")
    try:
        whole = _loads(text)
    except ValueError:
        whole = None  # JSON lines, or not JSON at all: each line gets its own verdict or error
    if isinstance(whole, dict):
        print(json.dumps(_judge_one(whole), indent=2 if args.pretty else None))
        return 0
    if whole is not None and not isinstance(whole, dict) and "\n" not in text.strip():
        raise InputError("a showdown must be a JSON object with 'board' and 'players'")
    return _run_lines(text)


def _run_lines(text: str) -> int:
    from companion.judge import ShowdownError, judge_json

    bad = 0
    out = sys.stdout
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = _loads(line)
        except ValueError as exc:
            out.write(json.dumps({"line": n, "error": f"not JSON: {exc}"}) + "\n")
            bad += 1
            continue
        try:
            result = judge_json(data)
        except ShowdownError as exc:
            result, bad = {"line": n, "error": str(exc)}, bad + 1
        out.write(json.dumps(result) + "\n")
    if bad:
        print(f"gang-companion judge: {bad} line(s) could not be judged; see their \"error\"", file=sys.stderr)
        return 2
    return 0
