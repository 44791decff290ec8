"""``gang-companion play``: scripts of commands, a journal that carries the game over, export and import."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.journal import Journal

REPO = Path(__file__).resolve().parents[1]

OPENING = [
    {"cmd": "new_game", "players": ["Ana", "Bo", {"name": "Robo", "bot": True}], "timer": 60},
    {"cmd": "deal", "seed": 7},
    {"cmd": "take", "player": "Ana", "chip": 3},
    {"cmd": "take", "player": "Bo", "chip": 3, "from": "Ana"},
    {"cmd": "take", "player": "Ana", "chip": 1},
]


def write_script(path: Path, commands: list[Any]) -> Path:
    path.write_text("".join((c if isinstance(c, str) else json.dumps(c)) + "\n" for c in commands))
    return path


def play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    try:
        return code, json.loads(out), err
    except json.JSONDecodeError:
        return code, out, err


def test_script_prints_the_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path / "s.jsonl", OPENING)
    code, state, err = play(capsys, "--script", str(script), "--db", str(tmp_path / "j.sqlite3"))
    assert code == 0 and err == ""
    assert state["phase"] == "chips" and state["timer"] == 60 and (state["vaults"], state["alarms"]) == (0, 0)
    assert state["players"] == [{"name": "Ana", "bot": False}, {"name": "Bo", "bot": False}, {"name": "Robo", "bot": True}]
    heist = state["heist"]
    assert heist["number"] == 1 and heist["round"] == "white" and heist["board"] == [] and heist["dealt"] is True
    assert heist["pockets"] == {"Ana": ["3c", "9s"], "Bo": ["Jc", "9h"], "Robo": ["Qs", "5c"]}
    assert heist["rounds"] == [{"colour": "white", "chips": {"Ana": ["1"], "Bo": ["3"], "Robo": []},
                                "middle": ["2"], "happy": [], "closed": False}]


def test_running_again_continues_the_saved_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "j.sqlite3")
    play(capsys, "--script", str(write_script(tmp_path / "a.jsonl", OPENING)), "--db", db)
    more = [{"cmd": "take", "player": "Robo", "chip": 2}] + [{"cmd": "happy", "player": p} for p in ("Ana", "Bo", "Robo")]
    code, state, _ = play(capsys, "--script", str(write_script(tmp_path / "b.jsonl", more)), "--db", db)
    assert code == 0
    assert state["heist"]["round"] == "yellow"
    assert state["heist"]["rounds"][0]["chips"] == {"Ana": ["1"], "Bo": ["3"], "Robo": ["2"]}
    code, state, _ = play(capsys, "--db", db)  # no script: just the saved state
    assert code == 0 and state["heist"]["round"] == "yellow"


def test_a_bad_line_names_itself_and_keeps_earlier_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "j.sqlite3"
    script = write_script(tmp_path / "s.jsonl", OPENING[:3] + [
        "",
        "# comments and blank lines are skipped",
        {"cmd": "take", "player": "Ana", "chip": 2},
        {"cmd": "happy", "player": "Bo"},
    ])
    code, out, err = play(capsys, "--script", str(script), "--db", str(db))
    assert code == 2 and out == ""
    assert err == (f"gang-companion play: {script} line 6: "
                   "Ana already holds a white chip (3 stars); they must put it back first\n")
    with Journal(db) as j:
        assert [e.kind for e in j.read()] == ["game_started", "pockets_dealt", "chip_taken"]


@pytest.mark.parametrize("line, problem", [
    ("{not json", "not a JSON object (Expecting property name enclosed in double quotes)"),
    ('{"cmd": "fly"}', "unknown cmd 'fly'; known: new_game, deal, reveal, hand, take, return, happy, "
                       "timer_expired, showdown, next_heist, abandon, undo"),
    ('{"cmd": "take", "player": "Ana", "chip": 9}', "chip 9 is not in play with 3 players"),
])
def test_malformed_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, problem: str) -> None:
    script = write_script(tmp_path / "s.jsonl", [OPENING[0], line])
    code, _, err = play(capsys, "--script", str(script), "--db", str(tmp_path / "j.sqlite3"))
    assert code == 2
    assert err == f"gang-companion play: {script} line 2: {problem}\n"


def test_script_from_standard_input(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(json.dumps(c) + "\n" for c in OPENING[:3])))
    code, state, _ = play(capsys, "--script", "-", "--db", str(tmp_path / "j.sqlite3"))
    assert code == 0 and state["heist"]["rounds"][0]["chips"]["Ana"] == ["3"]


def test_missing_script_is_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = play(capsys, "--script", str(tmp_path / "nope.jsonl"), "--db", str(tmp_path / "j.sqlite3"))
    assert code == 2 and err.startswith("gang-companion play: cannot read the script:")


def test_export_then_import_into_a_new_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "a.sqlite3")
    _, state, _ = play(capsys, "--script", str(write_script(tmp_path / "s.jsonl", OPENING + [{"cmd": "undo"}])), "--db", db)
    exported = tmp_path / "game.jsonl"
    assert play(capsys, "--db", db, "--export", str(exported))[0] == 0
    events = [json.loads(line) for line in exported.read_text().splitlines()]
    assert [e["event"] for e in events] == ["game_started", "pockets_dealt", "chip_taken", "chip_taken",
                                            "chip_taken", "undone"]
    assert events[3] == {"event": "chip_taken", "player": "Bo", "colour": "white", "chip": 3, "copy": 0, "from": "Ana"}
    code, imported, _ = play(capsys, "--db", str(tmp_path / "b.sqlite3"), "--import", str(exported))
    assert code == 0 and imported == state
    code, _, err = play(capsys, "--db", str(tmp_path / "b.sqlite3"), "--import", str(exported))
    assert code == 2 and "already holds a game" in err


def test_full_heist_with_the_real_judge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    crew = ["Ana", "Bo", "Cy"]
    lines: list[Any] = [{"cmd": "new_game", "players": crew, "timer": None},
                        {"cmd": "hand", "player": "Ana", "cards": ["2h", "2s"]},
                        {"cmd": "hand", "player": "Bo", "cards": ["Kh", "Kd"]},
                        {"cmd": "hand", "player": "Cy", "cards": ["Ac", "As"]}]
    for board in ([], ["3c", "8d", "9h"], ["Js"], ["4c"]):
        if board:
            lines.append({"cmd": "reveal", "cards": board})
        lines += [{"cmd": "take", "player": p, "chip": i + 1} for i, p in enumerate(crew)]
        lines += [{"cmd": "happy", "player": p} for p in crew]
    lines += [{"cmd": "showdown"}]
    code, state, _ = play(capsys, "--script", str(write_script(tmp_path / "s.jsonl", lines)),
                          "--db", str(tmp_path / "j.sqlite3"))
    assert code == 0
    assert state["phase"] == "judged" and state["vaults"] == 1 and state["heist"]["success"] is True
    assert state["heist"]["verdict"]["reveal_order"] == crew


def test_subprocess_python_m_companion_play(tmp_path: Path) -> None:
    script = write_script(tmp_path / "s.jsonl", OPENING + [{"cmd": "return", "player": "Robo"}])
    db = tmp_path / "j.sqlite3"
    done = subprocess.run([sys.executable, "-m", "companion", "play", "--script", str(script), "--db", str(db)],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 2
    assert done.stderr == f"gang-companion play: {script} line 6: Robo holds no white chip to put back\n"
    done = subprocess.run([sys.executable, "-m", "companion", "play", "--db", str(db)],
                          capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0
    state = json.loads(done.stdout)
    assert state["heist"]["rounds"][0]["chips"] == {"Ana": ["1"], "Bo": ["3"], "Robo": []}


def test_default_journal_lives_in_the_data_dir(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    code, _, _ = play(capsys, "--script", str(write_script(tmp_path / "s.jsonl", OPENING[:1])))
    assert code == 0 and (tmp_path / "gang-companion" / "journal.sqlite3").exists()
