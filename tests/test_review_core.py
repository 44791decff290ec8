"""Review of the core: inputs that used to crash or be judged wrongly, each pinned by a test."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cards import parse_cards
from companion.evaluator import MUSCLE_BIT, Hand, best_hand, explain
from companion.cli import main
from companion.engine import MalformedCommand, ReplayError, command_from_json, event_from_json
from companion.judge import PlayerHand, RuleOptions, ShowdownError, judge, judge_json
from companion.shapes import Variant

BOARD = ["2c", "7d", "9h", "Js", "Kc"]


def player(name, pocket, chip, **kw):
    return {"name": name, "pocket": pocket, "chip": chip, **kw}


TWO = [player("Ana", ["As", "Ad"], 1), player("Bo", ["Ks", "Kd"], 2)]


# --- the judge: every bad input is a ShowdownError naming the problem ------------------------------------------
@pytest.mark.parametrize("data,message", [
    ({"variant": "banana_split", "players": TWO, "piles": 3}, "'piles' must be a list"),
    ({"variant": "banana_split", "players": TWO, "piles": None}, "'piles' must be a list"),
    ({"variant": "banana_split", "players": TWO + [player("Cy", ["Qs", "Qd"], 3)], "piles": [["2h"], ["3h"]]},
     "one pile between each pair of neighbours"),
    ({"variant": "banana_split", "players": TWO, "piles": [["2h", "3h", "4h"], []]}, "pile 2 holds 0 cards"),
    # an empty stack is a missing card: the board would hold four cards and still count as five slots
    ({"board": [[], "2c", "3c", "4c", "5c"], "players": TWO, "jokers": True}, "empty"),
    ({"board": [[], "2c", "3c", "4c", "5c"], "players": TWO}, "empty"),
    # JSON numbers are not cards: 0 would silently be the 2 of clubs
    ({"board": [0, 1, 2, 3, 4], "players": TWO}, "not a card: 0"),
    ({"board": BOARD, "players": [player("Ana", [51, 50], 1), TWO[1]]}, "not a card: 51"),
    # three 0-star chips, one of them with an exit chip beside it: the box has only two
    ({"board": BOARD, "players": [player("A", ["As", "Ad"], 0), player("B", ["Ks", "Kd"], 0),
                                  player("C", ["Qs", "Qd"], 0, exit=True), player("D", ["Qh", "Qc"], 1)]},
     "only two 0-star chips"),
    # a stack holds two or three cards, and only two jokers exist
    ({"board": [["2c", "3c", "4c", "5c"], "6d", "7d", "8d", "9d"], "players": TWO, "jokers": True}, "stack"),
    ({"board": [["2c", "3c", "4c"], ["5c", "6c"], "7d", "8d", "9d"], "players": TWO, "jokers": True}, "joker"),
    ({"board": BOARD, "players": [{"name": f"p{i}", "exit": True} for i in range(11)] + TWO}, "at most 10"),
])
def test_bad_showdown_json_is_a_showdown_error(data, message):
    with pytest.raises(ShowdownError, match=message):
        judge_json(data)


def test_two_stacks_of_two_and_one_of_three_are_fine():
    crew = [player("Ana", ["As", "Ad"], 1), player("Bo", ["Ks", "Kd"], 2)]
    out = judge_json({"board": [["2c", "3c"], ["4h", "5h"], "7d", "8d", "9d"], "players": crew, "jokers": True})
    assert out["success"] is False
    out = judge_json({"board": [["2c", "3c", "4h"], "5h", "7d", "8d", "9d"], "players": crew, "jokers": True})
    assert out["success"] is False


def test_banana_split_wrong_pile_count_through_the_api():
    crew = [PlayerHand("A", tuple(parse_cards("As Ad")), 1), PlayerHand("B", tuple(parse_cards("Ks Kd")), 2)]
    with pytest.raises(ShowdownError, match="pile"):
        judge([], crew, RuleOptions(Variant.BANANA_SPLIT, piles=(tuple(parse_cards("2h 3h 4h")),)))


def test_empty_stack_through_the_api():
    crew = [PlayerHand("A", tuple(parse_cards("As Ad")), 1), PlayerHand("B", tuple(parse_cards("Ks Kd")), 2)]
    with pytest.raises(ShowdownError, match="empty"):
        judge([[], "2c", "3c", "4c", "5c"], crew, RuleOptions(jokers=True))


# --- engine commands and events: shape errors, never a crash ---------------------------------------------------
@pytest.mark.parametrize("obj", [
    {"cmd": []}, {"cmd": {}}, {"cmd": "take", "player": "Ana", "chip": "²"},
    {"cmd": "reveal", "cards": [0, 1, 2]}, {"cmd": "hand", "player": "Ana", "cards": [10, 11]},
    # a name no screen can print: the state (and every later look at the journal) failed to print
    {"cmd": "new_game", "players": ["\ud800", "Bo", "Cy"]}, {"cmd": "new_game", "players": ["A\x00na", "Bo", "Cy"]},
    {"cmd": "new_game", "players": [{"name": "\ud800"}, "Bo", "Cy"]}, {"cmd": "happy", "player": "\ud800"},
    {"cmd": "new_game", "players": ["A" * 1000, "Bo", "Cy"]},
])
def test_malformed_commands(obj):
    with pytest.raises(MalformedCommand):
        command_from_json(obj)


@pytest.mark.parametrize("obj", [
    {"event": []}, {"event": {}},
    {"event": "chip_taken", "player": "Ana", "colour": "white", "chip": float("inf")},
    {"event": "game_started", "players": [], "timer": float("inf")},
])
def test_damaged_events_are_replay_errors(obj):
    with pytest.raises(ReplayError):
        event_from_json(obj)


# --- the command line: exit status 2 with a message, never a traceback -----------------------------------------
@pytest.mark.parametrize("content", [
    b"\xff\xfe{}",  # not UTF-8
    b'{"board": [' + b"1" * 5000 + b"]}",  # an integer too long for Python to read
    b"[" * 100000 + b"]" * 100000,  # nesting deeper than the JSON reader can follow
    json.dumps({"variant": "banana_split", "players": TWO, "piles": 7}).encode(),
])
def test_judge_cli_bad_files_exit_2(tmp_path, capsys, content):
    f = tmp_path / "bad.json"
    f.write_bytes(content)
    assert main(["judge", str(f)]) == 2
    assert "gang-companion judge" in capsys.readouterr().err


def test_judge_cli_bad_line_among_good_ones(tmp_path, capsys):
    good = json.dumps({"board": BOARD, "players": TWO})
    f = tmp_path / "many.jsonl"
    f.write_text(good + "\n" + '{"board": [' + "1" * 5000 + "]}\n" + good + "\n")
    assert main(["judge", str(f)]) == 2
    outs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o.get("success") for o in outs] == [True, None, True]
    assert outs[1]["line"] == 2 and "not JSON" in outs[1]["error"]


@pytest.mark.parametrize("line", [
    b"\xff",
    b'{"cmd": ["new_game"]}',
    b'{"cmd": "deal", "seed": ' + b"9" * 5000 + b"}",
    b"[" * 100000 + b"]" * 100000,
])
def test_play_cli_bad_script_lines_exit_2(tmp_path, capsys, line):
    script = tmp_path / "moves.jsonl"
    script.write_bytes(b'{"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]}\n' + line + b"\n")
    assert main(["play", "--db", str(tmp_path / "t.sqlite3"), "--script", str(script), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err or "not UTF-8" in err


@pytest.mark.parametrize("line", [
    b"\xff",
    b'{"event": "heist_started", "number": ' + b"9" * 5000 + b"}",
    b"[" * 100000 + b"]" * 100000,
])
def test_play_cli_bad_import_exit_2(tmp_path, capsys, line):
    history = tmp_path / "game.jsonl"
    history.write_bytes(line + b"\n")
    assert main(["play", "--db", str(tmp_path / "t.sqlite3"), "--import", str(history), "--quiet"]) == 2
    assert "cannot import" in capsys.readouterr().err


# --- explain(): plain words for every category ------------------------------------------------------------------
def test_explain_names_the_shared_category_with_its_article():
    aces, kings = best_hand(parse_cards("Ah Ad 9c 7s 3h")), best_hand(parse_cards("Kh Kd 9c 7s 3h"))
    assert explain(aces, kings).startswith("Both have a pair; aces beat kings")
    weak, strong = best_hand(parse_cards("2h 2d Jc 8s 7h")), best_hand(parse_cards("2s 2c Ac 8h 7d"))
    assert explain(Hand(weak.value | MUSCLE_BIT, weak.five), strong).startswith("Both have a pair; the Muscle")
    weak, strong = best_hand(parse_cards("2h 3d 9c 8s 7h")), best_hand(parse_cards("Ks 2c Ac 8h 7d"))
    assert explain(Hand(weak.value | MUSCLE_BIT, weak.five), strong).startswith("Neither has a pair; the Muscle")
    trips, lower = best_hand(parse_cards("Ah Ad Ac 7s 3h")), best_hand(parse_cards("Kh Kd Kc 7s 3h"))
    assert explain(trips, lower).startswith("Both have three of a kind; aces beat kings")


# --- the demo: a seed replays the same game; bad options exit 2 -------------------------------------------------
def test_demo_seed_replays_the_same_game_in_any_process():
    def run(hash_seed):
        env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
        proc = subprocess.run([sys.executable, "-m", "companion", "demo", "--players", "3", "--seed", "-3",
                               "--delay", "0", "--max-heists", "1"],
                              capture_output=True, text=True, env=env, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout
    assert run(1) == run(2)


@pytest.mark.parametrize("extra", [["--delay", "-1"], ["--delay", "nan"], ["--db", "NOT_A_DB"]])
def test_demo_bad_options_exit_2(tmp_path, capsys, extra):
    if "NOT_A_DB" in extra:
        (tmp_path / "notdb").write_text("not a database")
        extra = ["--db", str(tmp_path / "notdb")]
    assert main(["demo", "--max-heists", "1", *extra]) == 2
    assert "gang-companion demo" in capsys.readouterr().err


# --- the challenge checks: a guess the judge cannot read is refused, not a failed heist ------------------------
@pytest.mark.parametrize("guess,ok", [("three of a kind", True), ("Three-Of-A-Kind", True), ("three_of_a_kind ", True),
                                      ("flush", False)])
def test_fingerprint_guess_spellings(guess, ok):
    crew = [player("Ana", ["As", "Ad"], 1), player("Bo", ["Ks", "Kd"], 2)]
    assert judge_json({"board": BOARD, "players": crew, "fingerprint_guess": guess})["success"] is ok


@pytest.mark.parametrize("guess", ["flsuh", "trips", ""])
def test_fingerprint_guess_that_is_no_ranking_is_refused(guess):
    with pytest.raises(ShowdownError, match="not a hand ranking"):
        judge_json({"board": BOARD, "players": TWO, "fingerprint_guess": guess})


def test_retina_guess_out_of_range_through_the_api():
    crew = [PlayerHand("A", tuple(parse_cards("As Ad")), 1), PlayerHand("B", tuple(parse_cards("Ks Kd")), 2)]
    with pytest.raises(ShowdownError, match="Retina"):
        judge(BOARD, crew, RuleOptions(retina_guess=99))


def test_demo_bots_that_cannot_settle_let_the_clock_close_the_round(monkeypatch, capsys):
    import companion.practice
    monkeypatch.setattr(companion.practice, "MAX_BOT_ACTIONS_PER_ROUND", 0)  # the bots give up at once
    assert main(["demo", "--delay", "0", "--max-heists", "1"]) == 0
    assert "the clock runs out" in capsys.readouterr().out


def test_names_with_accents_and_emoji_are_fine():
    cmd = command_from_json({"cmd": "new_game", "players": ["Arsène", " Zoë ", {"name": "🤖 Bot", "bot": True}]})
    assert [seat.name for seat in cmd.seats] == ["Arsène", "Zoë", "🤖 Bot"]


def test_play_prints_the_state_on_an_ascii_terminal(tmp_path):
    script = tmp_path / "moves.jsonl"
    script.write_text('{"cmd": "new_game", "players": ["Zoë", "Bo", "Cy"]}\n', encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    proc = subprocess.run([sys.executable, "-m", "companion", "play", "--db", str(tmp_path / "t.sqlite3"),
                           "--script", str(script)], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"][0]["name"] == "Zoë"


# --- the Muscle and the royal flush: ten rankings, the Muscle only beats its own -------------------------------
ROYAL_BOARD = ["Ts", "Js", "Qs", "8s", "2h"]


def test_muscle_straight_flush_still_loses_to_a_royal_flush():
    crew = [player("Ana", ["As", "Ks"], 2), player("Bo", ["9s", "3d"], 1, muscle=True)]  # royal / Q-high SF
    out = judge_json({"board": ROYAL_BOARD, "players": crew})
    assert out["success"] is True, out["misplaced"]
    crew = [player("Ana", ["As", "Ks"], 1), player("Bo", ["9s", "3d"], 2, muscle=True)]
    out = judge_json({"board": ROYAL_BOARD, "players": crew})
    assert out["success"] is False
    assert "Royal flush beats straight flush (the Muscle only beats hands of its own ranking)" \
        in out["misplaced"][0]["reason"]
    # the value in the JSON orders the hands as the verdict does
    values = {p["name"]: p["value"] for p in out["players"]}
    assert values["Ana"] > values["Bo"]


def test_muscle_still_beats_a_straight_flush_of_its_own_ranking():
    crew = [player("Ana", ["Qs", "3d"], 2), player("Bo", ["7s", "6s"], 1, muscle=True)]  # SF to the Q / to the J
    out = judge_json({"board": ["Ts", "Js", "8s", "9s", "2h"], "players": crew})
    assert out["success"] is False and "the Muscle makes" in out["misplaced"][0]["reason"]


@pytest.mark.parametrize("command", [["play"], ["demo", "--max-heists", "1"]])
def test_journal_in_a_folder_that_cannot_exist_exits_2(tmp_path, capsys, command):
    (tmp_path / "afile").write_text("a file, not a folder")
    assert main([*command, "--db", str(tmp_path / "afile" / "t.sqlite3")]) == 2
    assert "cannot create the folder" in capsys.readouterr().err


# --- fuzz: any JSON at all is judged or refused with a named problem --------------------------------------------
_CARD_TEXT = st.sampled_from(["As", "Kd", "2c", "10h", "JACK", "joker", "Qs", "7d", "9c", "Ah", "Zz", ""])
_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.floats(allow_nan=True), st.text(max_size=3),
                  _CARD_TEXT)
_JSON = st.recursive(_LEAF, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=4) | st.sampled_from(["name", "pocket", "chip"]), inner,
                                       max_size=4), max_leaves=15)
_PLAYER = st.fixed_dictionaries({}, optional={
    "name": st.text(max_size=3) | _JSON, "pocket": st.lists(_CARD_TEXT, max_size=4), "chip": st.integers(-1, 9) | _JSON,
    "exit": _JSON, "muscle": _JSON, "face_up": st.lists(_CARD_TEXT, max_size=4) | _JSON})
_SHOWDOWN = st.fixed_dictionaries({}, optional={
    "board": st.lists(_CARD_TEXT | st.lists(_CARD_TEXT, max_size=4), max_size=6) | _JSON,
    "players": st.lists(_PLAYER, max_size=4) | _JSON,
    "variant": st.sampled_from(["holdem", "omaha", "stud", "banana_split", "vote_of_change"]) | _JSON,
    "pocket_size": _JSON, "piles": st.lists(st.lists(_CARD_TEXT, max_size=3), max_size=4) | _JSON,
    "jokers": _JSON, "fingerprint_guess": _JSON, "retina_guess": _JSON})


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(_SHOWDOWN | _JSON)
def test_fuzz_judge_json_judges_or_names_the_problem(data):
    try:
        json.dumps(judge_json(data))
    except ShowdownError:
        pass


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.fixed_dictionaries({"cmd": st.sampled_from(["new_game", "deal", "reveal", "hand", "take", "return", "happy",
                                                      "timer_expired", "showdown", "undo"]) | _JSON},
                             optional={"players": _JSON, "timer": _JSON, "seed": _JSON, "cards": _JSON,
                                       "player": _JSON, "chip": _JSON, "copy": _JSON, "from": _JSON}) | _JSON)
def test_fuzz_command_from_json_reads_or_names_the_problem(data):
    try:
        command_from_json(data)
    except MalformedCommand:
        pass


def test_files_with_a_byte_order_mark_are_read(tmp_path, capsys):
    showdown = tmp_path / "bom.json"
    showdown.write_bytes(b"\xef\xbb\xbf" + json.dumps({"board": BOARD, "players": TWO}).encode())
    assert main(["judge", str(showdown)]) == 0
    assert json.loads(capsys.readouterr().out)["success"] is True
    script = tmp_path / "bom.jsonl"
    script.write_bytes(b"\xef\xbb\xbf" + b'{"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]}\n')
    assert main(["play", "--db", str(tmp_path / "t.sqlite3"), "--script", str(script)]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "chips"


def test_an_empty_journal_path_is_refused_not_a_throwaway_database(tmp_path, capsys):
    script = tmp_path / "moves.jsonl"
    script.write_text('{"cmd": "new_game", "players": ["Ana", "Bo", "Cy"]}\n')
    assert main(["play", "--db", "", "--script", str(script), "--quiet"]) == 2
    assert "needs a file name" in capsys.readouterr().err
