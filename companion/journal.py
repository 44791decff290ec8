"""The journal: every accepted event, one SQLite row each, so a game survives a crash or a pulled plug.

- WAL mode with ``synchronous=FULL``, one transaction per event: a row is either fully there or absent.
- Undo is journalled as an event of its own (``undone``): the log only ever grows, and replaying it
  (undo records included) rebuilds the same state. Nothing is deleted.
- One journal file holds the table's whole history, game after game; opening it replays everything and
  resumes an unfinished game exactly where it stopped.
- ``export_jsonl`` writes the history as JSON lines (one event per line); ``import_jsonl`` reads it back.

>>> from companion.engine import Take
>>> game = JournalledGame(Journal(":memory:"))
>>> _ = game.execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]})
>>> game.execute({"cmd": "take", "player": "Bo", "chip": 2}).kind
'chip_taken'
>>> len(game.journal.read())
2
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any, Iterable, Sequence

from companion.engine import (Command, Event, GameState, ReplayError, ShowdownJudge, Table, command_from_json,
                              event_from_json)

APP_DIR = "gang-companion"
DB_NAME = "journal.sqlite3"
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY,        -- 1, 2, 3 ... in the order the events were accepted
    kind TEXT NOT NULL,             -- the event's kind, e.g. 'chip_taken' (also inside body)
    body TEXT NOT NULL,             -- the event as JSON
    recorded_at TEXT NOT NULL       -- UTC wall time, for people reading the log; replays ignore it
)
"""


class JournalError(ValueError):
    """A journal that cannot be opened or read back; the message names the file and the problem."""


def data_dir() -> Path:
    """Where the journal lives by default: ``$XDG_DATA_HOME/gang-companion`` or ``~/.local/share/gang-companion``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR


def default_db_path() -> Path:
    return data_dir() / DB_NAME


class Journal:
    """An append-only event log in one SQLite file (``":memory:"`` for tests)."""

    def __init__(self, path: str | Path | None = None) -> None:
        target = default_db_path() if path is None else path
        if not str(target).strip():  # sqlite would open a throw-away temporary database: the game would be lost
            raise JournalError("the journal needs a file name (an empty --db would keep the game nowhere)")
        if str(target) != ":memory:":
            try:
                Path(target).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise JournalError(f"cannot create the folder for the journal {target}: {exc.strerror}") from None
        self.path = target
        try:
            # isolation_level=None: we issue BEGIN/COMMIT ourselves, one transaction per event.
            self._db = sqlite3.connect(str(target), isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise JournalError(f"{target} was written by a newer gang-companion (schema {version})")
            self._db.execute(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"cannot open the journal {target}: {exc}") from None

    def append(self, event: Event, expected_seq: int | None = None) -> int:
        """Write one event in its own transaction; returns its sequence number once it is on disk.

        With ``expected_seq``, refuse (JournalError) if another program appended since we last read.
        """
        body = json.dumps(event.to_json(), sort_keys=True, separators=(",", ":"))
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        cur = self._db.cursor()
        cur.execute("BEGIN IMMEDIATE")
        try:
            if expected_seq is not None:
                last = int(cur.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])
                if last + 1 != expected_seq:
                    raise JournalError(f"{self.path} changed under us (another program is writing to it); "
                                       f"reopen it to see the game as it now stands")
            cur.execute("INSERT INTO events (kind, body, recorded_at) VALUES (?, ?, ?)", (event.kind, body, now))
            seq = int(cur.lastrowid or 0)
            cur.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        return seq

    def append_many(self, events: Sequence[Event]) -> None:
        """Write several events in one transaction (imports): all of them or none."""
        now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
        rows = [(e.kind, json.dumps(e.to_json(), sort_keys=True, separators=(",", ":")), now) for e in events]
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany("INSERT INTO events (kind, body, recorded_at) VALUES (?, ?, ?)", rows)
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def read(self) -> list[Event]:
        """Every recorded event, oldest first (undo records included)."""
        events = []
        for seq, body in self._db.execute("SELECT seq, body FROM events ORDER BY seq"):
            try:
                events.append(event_from_json(json.loads(body)))
            except (ValueError, RecursionError, ReplayError) as exc:
                raise JournalError(f"{self.path}: row {seq} is damaged: {exc!s:.300}") from None
        return events

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def write_jsonl(events: Iterable[Event], out: IO[str]) -> int:
    """Write events as JSON lines; returns how many."""
    count = 0
    for event in events:
        out.write(json.dumps(event.to_json(), sort_keys=True, separators=(",", ":")) + "\n")
        count += 1
    return count


def read_jsonl(lines: Iterable[str]) -> list[Event]:
    """Events from JSON lines (blank lines skipped); ReplayError names the first bad line."""
    events = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            events.append(event_from_json(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise ReplayError(f"line {number}: not JSON ({exc.msg})") from None
        except (ValueError, RecursionError) as exc:  # a huge integer, too deep nesting
            why = "nested too deeply" if isinstance(exc, RecursionError) else str(exc).split(";")[0]
            raise ReplayError(f"line {number}: not JSON ({why})") from None
        except ReplayError as exc:
            raise ReplayError(f"line {number}: {exc}") from None
    return events


class JournalledGame:
    """A ``Table`` whose every accepted event is written to a ``Journal`` before the state changes.

    Opening one on an existing journal replays it: the game resumes where the last committed event left it.
    """

    def __init__(self, journal: Journal, judge: ShowdownJudge | None = None) -> None:
        self.journal = journal
        self._judge = judge
        events = journal.read()
        self._rows = len(events)
        try:
            self.table = Table.replay(events, judge)
        except ReplayError as exc:
            raise JournalError(f"{journal.path}: {exc}") from None

    @property
    def state(self) -> GameState:
        return self.table.state

    def execute(self, command: Command | dict[str, Any]) -> Event:
        """Decide, journal, then apply: a command that fails the rules writes nothing."""
        if isinstance(command, dict):
            command = command_from_json(command)
        event = self.table.decide(command)
        self.journal.append(event, expected_seq=self._rows + 1)
        self._rows += 1
        self.table.apply(event)
        return event

    def export_jsonl(self, out: IO[str]) -> int:
        """The whole recorded history (undo records included) as JSON lines."""
        return write_jsonl(self.journal.read(), out)

    def import_jsonl(self, lines: Iterable[str]) -> int:
        """Load an exported history into this (empty) journal; returns how many events were imported."""
        if len(self.journal):
            raise JournalError(f"{self.journal.path} already holds a game; import into a new journal")
        events = read_jsonl(lines)
        table = Table.replay(events, self._judge)  # checks the whole history before writing any of it
        self.journal.append_many(events)
        self.table = table
        self._rows = len(events)
        return len(events)


def export_text(game: JournalledGame) -> str:
    buffer = io.StringIO()
    game.export_jsonl(buffer)
    return buffer.getvalue()
