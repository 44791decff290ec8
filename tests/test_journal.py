"""The journal: WAL SQLite, one transaction per event, resume after a crash, export and replay as JSON lines."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import CommandError, IllegalCommand, ReplayError, Table, Undone, command_from_json
from companion.journal import (Journal, JournalError, JournalledGame, data_dir, default_db_path, read_jsonl,
                               write_jsonl)

REPO = Path(__file__).resolve().parents[1]


def game_script(seed: int, length: int = 150) -> list[dict[str, Any]]:
    """A long, legal command stream (steals, returns, undos, showdowns with the real judge) for one seed."""
    rng = random.Random(seed)
    t = Table()
    script: list[dict[str, Any]] = []

    def do(command: dict[str, Any]) -> None:
        t.execute(command)
        script.append(command)

    do({"cmd": "new_game", "players": ["Ana", "Bo", "Cy", "Di"], "timer": 90})
    while len(script) < length:
        s = t.state
        heist = s.heist
        assert heist is not None
        if s.phase in ("won", "lost"):
            do({"cmd": "new_game", "players": ["Ana", "Bo", "Cy", "Di"], "timer": None})
            continue
        if s.phase == "judged":
            do({"cmd": "next_heist"})
            continue
        if s.phase == "showdown":
            do({"cmd": "showdown"})
            continue
        if heist.seed is None:
            do({"cmd": "deal", "seed": rng.randrange(1000)})
            continue
        rnd = heist.current
        if len(heist.board) < (0, 3, 4, 5)[rnd.colour]:
            do({"cmd": "reveal"})
            continue
        roll = rng.random()
        chipless = [p for p in s.players if rnd.star_chip_of(p) is None]
        if roll < 0.08 and len(t.events) > 2:
            do({"cmd": "undo"})
        elif roll < 0.2 and len(chipless) < len(s.players):
            holder = rng.choice([p for p in s.players if p not in chipless])
            if chipless:
                do({"cmd": "take", "player": chipless[0], "chip": rnd.star_chip_of(holder).stars, "from": holder})  # type: ignore[union-attr]
            else:
                do({"cmd": "return", "player": holder})
        elif chipless:
            free = [c for c in rnd.middle if not c.is_exit]
            do({"cmd": "take", "player": chipless[0], "chip": rng.choice(free).stars})
        else:
            do({"cmd": "happy", "player": next(p for p in s.players if p not in rnd.happy)})
    return script


def played(commands: list[dict[str, Any]]) -> Table:
    t = Table()
    for c in commands:
        t.execute(c)
    return t


def test_game_script_reaches_showdowns() -> None:
    t = played(game_script(1))
    assert t.state.vaults + t.state.alarms >= 1


# --- the file itself ----------------------------------------------------------------------------------------
def test_journal_uses_wal_and_full_sync(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as j:
        assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_default_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_db_path() == tmp_path / "xdg" / "gang-companion" / "journal.sqlite3"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "gang-companion"
    with Journal() as j:  # creates the folder
        assert Path(str(j.path)).parent.is_dir()


def test_every_event_is_one_row_and_resume_is_exact(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    commands = game_script(2, 80)
    with Journal(db) as j:
        game = JournalledGame(j)
        for c in commands:
            game.execute(c)
        assert len(j) == 80
        state = game.state
    with Journal(db) as j:
        resumed = JournalledGame(j)
        assert resumed.state == state == played(commands).state
        kinds = [row[0] for row in j._db.execute("SELECT kind FROM events ORDER BY seq")]
        assert kinds[:2] == ["game_started", "pockets_dealt"]


def test_undo_is_journalled_as_an_event(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    with Journal(db) as j:
        game = JournalledGame(j)
        game.execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]})
        before = game.state
        game.execute({"cmd": "take", "player": "Ana", "chip": 2})
        assert game.execute({"cmd": "undo"}) == Undone("chip_taken")
        assert game.state == before
        assert [e.kind for e in j.read()] == ["game_started", "chip_taken", "undone"]
    with Journal(db) as j:
        assert JournalledGame(j).state == before


def test_a_refused_command_writes_nothing(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as j:
        game = JournalledGame(j)
        game.execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]})
        with pytest.raises(IllegalCommand, match="chip 9 is not in play with 3 players"):
            game.execute({"cmd": "take", "player": "Ana", "chip": 9})
        with pytest.raises(IllegalCommand, match="Ana holds no white chip yet, so cannot be happy"):
            game.execute({"cmd": "happy", "player": "Ana"})
        assert len(j) == 1


def test_a_damaged_row_is_reported(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    with Journal(db) as j:
        JournalledGame(j).execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]})
        j._db.execute("INSERT INTO events (kind, body, recorded_at) VALUES ('chip_taken', '{\"event\": \"chip_taken\"}', 'x')")
    with Journal(db) as j, pytest.raises(JournalError, match="row 2 is damaged"):
        JournalledGame(j)


def test_a_history_that_breaks_the_rules_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    with Journal(db) as j:
        JournalledGame(j).execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]})
        body = json.dumps({"event": "chip_taken", "player": "Ana", "colour": "white", "chip": 7, "copy": 0, "from": None})
        j._db.execute("INSERT INTO events (kind, body, recorded_at) VALUES ('chip_taken', ?, 'x')", (body,))
    with Journal(db) as j, pytest.raises(JournalError, match="event 2: chip_taken breaks the rules here: chip 7"):
        JournalledGame(j)


def test_a_second_writer_is_noticed(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    with Journal(db) as j1, Journal(db) as j2:
        first, second = JournalledGame(j1), JournalledGame(j2)
        first.execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]})
        with pytest.raises(JournalError, match="changed under us"):
            second.execute({"cmd": "new_game", "players": ["Dee", "Eli", "Fox"]})
        assert len(j1) == 1 and second.state.phase == "no_game"
        assert JournalledGame(j2).state == first.state


def test_not_a_database(tmp_path: Path) -> None:
    bad = tmp_path / "junk.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal(bad)


# --- crashes ------------------------------------------------------------------------------------------------
WRITER = textwrap.dedent("""
    import json, os, sys
    from companion.journal import Journal, JournalledGame
    commands = json.load(open(sys.argv[1]))
    mode = sys.argv[3]
    journal = Journal(sys.argv[2])
    if mode == "exit_before_commit":
        real = journal._db
        stop_at = int(sys.argv[4])
        class Cursor:
            def __init__(self, cur): self.cur = cur
            def execute(self, sql, *args):
                if sql == "COMMIT" and len(journal) > stop_at:  # counts the pending row
                    os._exit(9)  # the row is inserted but never committed
                return self.cur.execute(sql, *args)
            def __getattr__(self, name): return getattr(self.cur, name)
        class Connection:
            def cursor(self): return Cursor(real.cursor())
            def __getattr__(self, name): return getattr(real, name)
        journal._db = Connection()
    game = JournalledGame(journal)
    for command in commands:
        game.execute(command)
        print(len(journal), flush=True)  # acknowledged: this many rows are committed to disk
    os._exit(0)  # never close: leave the WAL un-checkpointed, as after a power cut
""")


def start_writer(tmp_path: Path, commands: list[dict[str, Any]], db: Path, mode: str, *extra: str) -> subprocess.Popen[str]:
    script = tmp_path / "commands.json"
    script.write_text(json.dumps(commands))
    return subprocess.Popen([sys.executable, "-c", WRITER, str(script), str(db), mode, *extra],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)


def committed_rows(db: Path) -> int:
    with Journal(db) as j:
        return len(j)


def resumed(db: Path) -> JournalledGame:
    return JournalledGame(Journal(db))


def expected_after(commands: list[dict[str, Any]], rows: int) -> Table:
    """Each command records exactly one event, so ``rows`` committed events are the first ``rows`` commands."""
    return played(commands[:rows])


@pytest.mark.parametrize("acknowledged", [15, 60])
def test_sigkill_while_appending_resumes_at_the_last_commit(tmp_path: Path, acknowledged: int) -> None:
    commands = game_script(3, 200)
    db = tmp_path / "j.sqlite3"
    proc = start_writer(tmp_path, commands, db, "run")
    assert proc.stdout is not None
    for _ in range(acknowledged):
        proc.stdout.readline()
    os.kill(proc.pid, signal.SIGKILL)  # mid-stream: it is busy appending the next events
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert Path(f"{db}-wal").stat().st_size > 0
    game = resumed(db)
    rows = len(game.journal)
    assert acknowledged <= rows < len(commands)
    assert game.state == expected_after(commands, rows).state
    game.execute(commands[rows])  # and the game goes on from there
    assert game.state == expected_after(commands, rows + 1).state


def test_exit_between_insert_and_commit_loses_only_that_event(tmp_path: Path) -> None:
    commands = game_script(4, 60)
    db = tmp_path / "j.sqlite3"
    proc = start_writer(tmp_path, commands, db, "exit_before_commit", "25")
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 9
    assert out.split()[-1] == "25"
    game = resumed(db)
    assert len(game.journal) == 25
    assert game.state == expected_after(commands, 25).state


def killed_writer(tmp_path: Path, commands: list[dict[str, Any]], db: Path) -> None:
    proc = start_writer(tmp_path, commands, db, "run")
    proc.communicate(timeout=60)  # it appends everything and dies without closing
    assert proc.returncode == 0


def test_garbage_after_the_last_wal_frame_is_ignored(tmp_path: Path) -> None:
    commands = game_script(5, 40)
    db = tmp_path / "j.sqlite3"
    killed_writer(tmp_path, commands, db)
    wal = Path(f"{db}-wal")
    with wal.open("ab") as f:
        f.write(random.Random(0).randbytes(7000))  # a torn write of something that never committed
    game = resumed(db)
    assert len(game.journal) == 40
    assert game.state == played(commands).state


def test_a_torn_last_wal_frame_drops_only_the_last_event(tmp_path: Path) -> None:
    commands = game_script(6, 40)
    db = tmp_path / "j.sqlite3"
    killed_writer(tmp_path, commands, db)
    wal = Path(f"{db}-wal")
    size = wal.stat().st_size
    with wal.open("r+b") as f:
        f.truncate(size - 1000)  # the last commit frame was only half written when the power went
    game = resumed(db)
    assert len(game.journal) == 39
    assert game.state == expected_after(commands, 39).state


def test_a_scrambled_last_wal_frame_drops_only_the_last_event(tmp_path: Path) -> None:
    commands = game_script(7, 40)
    db = tmp_path / "j.sqlite3"
    killed_writer(tmp_path, commands, db)
    wal = Path(f"{db}-wal")
    data = bytearray(wal.read_bytes())
    data[-500:] = random.Random(1).randbytes(500)  # same length, wrong checksum
    wal.write_bytes(bytes(data))
    game = resumed(db)
    assert len(game.journal) == 39
    assert game.state == expected_after(commands, 39).state


# --- export and replay --------------------------------------------------------------------------------------
def test_export_and_import_give_the_same_state(tmp_path: Path) -> None:
    commands = game_script(8, 120)
    with Journal(tmp_path / "a.sqlite3") as j:
        game = JournalledGame(j)
        for c in commands:
            game.execute(c)
        out = io.StringIO()
        assert game.export_jsonl(out) == 120
    text = out.getvalue()
    lines = text.splitlines()
    assert len(lines) == 120 and json.loads(lines[0])["event"] == "game_started"
    assert Table.replay(read_jsonl(lines)).state == game.state
    with Journal(tmp_path / "b.sqlite3") as j2:
        copy = JournalledGame(j2)
        assert copy.import_jsonl(io.StringIO(text)) == 120
        assert copy.state == game.state
        again = io.StringIO()
        copy.export_jsonl(again)
        assert again.getvalue() == text
        with pytest.raises(JournalError, match="already holds a game"):
            copy.import_jsonl(io.StringIO(text))
    with Journal(tmp_path / "b.sqlite3") as j2:
        assert JournalledGame(j2).state == game.state


def test_import_names_the_bad_line_and_writes_nothing(tmp_path: Path) -> None:
    t = played(game_script(9, 10))
    buffer = io.StringIO()
    write_jsonl(t.events, buffer)
    lines = buffer.getvalue().splitlines()
    lines[4] = "{not json"
    with Journal(tmp_path / "c.sqlite3") as j:
        with pytest.raises(ReplayError, match="line 5: not JSON"):
            JournalledGame(j).import_jsonl(lines)
        lines[4] = lines[2]  # a repeated event: well-formed but against the rules
        with pytest.raises(ReplayError, match="event 5: "):
            JournalledGame(j).import_jsonl(lines)
        assert len(j) == 0


# --- property: the journal always rebuilds the state --------------------------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["take", "take_from", "return", "happy", "undo", "timer", "reveal"]),
                          st.sampled_from(["Ana", "Bo", "Cy", "Zed"]), st.integers(0, 4)), max_size=60))
def test_replaying_the_journal_rebuilds_the_same_state(steps: list[tuple[str, str, int]]) -> None:
    with Journal(":memory:") as j:
        game = JournalledGame(j)
        game.execute({"cmd": "new_game", "players": ["Ana", "Bo", "Cy"], "timer": 30})
        boards = iter(["2c 3c 4c", "5d", "6h", "7s"])
        for kind, player, chip in steps:
            choices: dict[str, dict[str, Any]] = {
                "take": {"cmd": "take", "player": player, "chip": chip},
                "take_from": {"cmd": "take", "player": player, "chip": chip, "from": ["Ana", "Bo", "Cy"][chip % 3]},
                "return": {"cmd": "return", "player": player},
                "happy": {"cmd": "happy", "player": player},
                "undo": {"cmd": "undo"},
                "timer": {"cmd": "timer_expired"},
                "reveal": {"cmd": "reveal", "cards": next(boards, "8s").split()},
            }
            command = choices[kind]
            try:
                game.execute(command_from_json(command))
            except CommandError:
                pass
        assert Table.replay(j.read()).state == game.state
        buffer = io.StringIO()
        game.export_jsonl(buffer)
        assert Table.replay(read_jsonl(buffer.getvalue().splitlines())).state == game.state
