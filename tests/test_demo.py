import subprocess
import sys

from companion.cli import main
from companion.journal import Journal, JournalledGame


def test_demo_plays_a_whole_game(capsys):
    assert main(["demo", "--delay", "0", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "=== Heist 1" in out and "Showdown, lowest red chip first:" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith(("The crew wins", "The crew is caught"))


def test_demo_with_exit_chips_and_a_journal(tmp_path, capsys):
    db = tmp_path / "demo.db"
    assert main(["demo", "--delay", "0", "--players", "10", "--seed", "2", "--db", str(db)]) == 0
    assert "holds an exit chip and sits this showdown out" in capsys.readouterr().out
    game = JournalledGame(Journal(db))
    assert game.state.phase in ("won", "lost")
    assert len(game.journal.read()) > 50


def test_demo_refuses_bad_crew_size():
    proc = subprocess.run([sys.executable, "-m", "companion", "demo", "--players", "2"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and "--players must be 3 to 10" in proc.stderr
