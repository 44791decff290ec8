import json
import subprocess
import sys

import pytest

from companion.cards import SUITLESS_JACK, parse_cards
from companion.cli import main
from companion.judge import PlayerHand, RuleOptions, ShowdownError, judge, judge_json
from companion.shapes import Variant


def hand(name, cards, chip, **kw):
    return PlayerHand(name, tuple(parse_cards(cards)), chip, **kw)


# --- the rulebook's worked examples ---------------------------------------------------------------------------
BOARD_TRUE_TIE = parse_cards("2c 2d Ah 7s 4h")


def true_tie_crew(arsene=1, bonnie=2, trudy=3, danny=4):
    return [
        hand("Arsène", "Tc 3s", arsene),  # 2-2-A-10-7
        hand("Bonnie", "Th 3c", bonnie),  # 2-2-A-10-7
        hand("Trudy", "Jc 5s", trudy),  # 2-2-A-J-7
        hand("Danny", "Ad Ac", danny),  # A-A-A-2-2
    ]


def test_rulebook_four_player_true_tie():
    v = judge(BOARD_TRUE_TIE, true_tie_crew())
    assert v.success and v.misplaced == ()
    five = {p.player.name: [str(c) for c in p.hand.five] for p in v.players}
    assert sorted(c[0] for c in five["Arsène"]) == sorted("22AT7")
    assert sorted(c[0] for c in five["Trudy"]) == sorted("22AJ7")
    assert [p.hand.category.label for p in v.players] == ["pair", "pair", "pair", "full house"]
    assert v.reveal_order == ("Arsène", "Bonnie", "Trudy", "Danny")


def test_true_tie_may_sit_either_way():
    assert judge(BOARD_TRUE_TIE, true_tie_crew(arsene=2, bonnie=1)).success


def test_kicker_out_of_order_is_an_alarm_with_reason():
    v = judge(BOARD_TRUE_TIE, true_tie_crew(bonnie=3, trudy=2))
    assert not v.success
    assert [(m.lower, m.higher) for m in v.misplaced] == [("Trudy", "Bonnie")]
    assert "jack beats 10 (second kicker)" in v.misplaced[0].reason
    assert v.misplaced[0].reason.startswith("Trudy took red 2 but holds pair of 2s with ace-jack-7")


BOARD_TEN = parse_cards("Kh 9d 7s 4c 2h")


def ten_player_crew(**chips):
    base = dict(A=0, D=0, C=1, E=2, I=3, J=4, G=5, B=6, F=7, H=8)
    base.update(chips)
    cards = dict(A="3c 5d", D="6h 8c", C="Qd 3h", E="Ac 3d", I="2d 5c", J="Ts 9c", G="Kd 6d", B="4h 5s",
                 F="Jd Js", H="7h 7d")
    return [hand(n, cards[n], base[n], exit=n in "BFH") for n in "ABCDEFGHIJ"]


def test_rulebook_ten_player_game_with_zero_and_exit_chips():
    v = judge(BOARD_TEN, ten_player_crew())
    assert v.success, [m.reason for m in v.misplaced]
    by_name = {p.player.name: p for p in v.players}
    # B took red 6 and is weaker than G on red 5, but B's exit chip leaves B out of the showdown
    assert by_name["B"].hand is None and by_name["G"].hand is not None
    assert set(v.reveal_order) == set("ACDEGIJ") and set(v.reveal_order[:2]) == {"A", "D"}


def test_the_two_zero_chips_rank_equal_but_below_one():
    assert judge(BOARD_TEN, ten_player_crew()).success  # D (stronger) and A both on 0: fine either way
    v = judge(BOARD_TEN, ten_player_crew(D=1, C=0))  # C (king-queen high) on 0 is stronger than D on 1
    assert not v.success and [(m.lower, m.higher) for m in v.misplaced] == [("C", "D")]
    v = judge(BOARD_TEN, ten_player_crew(A=1, C=0))  # A, the weakest, on 1 above both 0-star hands
    assert [(m.lower, m.higher) for m in v.misplaced] == [("C", "A"), ("D", "A")]


def test_exit_chip_holder_still_counts_if_not_exit():
    v = judge(BOARD_TEN, [hand(n, c, ch, exit=False) for n, c, ch in
                          [("B", "4h 5s", 6), ("G", "Kd 6d", 5), ("A", "3c 5d", 1)]])
    assert not v.success and [(m.lower, m.higher) for m in v.misplaced] == [("G", "B")]


FIVE_CARD = RuleOptions(variant=Variant.STUD, pocket_size=5)


def test_rulebook_muscle_example():
    crew = [
        hand("Arsène", "2c 2d Jh 8c 7d", 3, muscle=True),
        hand("Bonny", "2h 2s Ad 8d 7c", 1),
        hand("Trudy", "8h 8s Kc 7h 3s", 2),
        hand("Danny", "5c 5d 5h 9s 3d", 4),  # three of a kind: another category, stronger than any pair
    ]
    v = judge([], crew, FIVE_CARD)
    assert v.success, [m.reason for m in v.misplaced]
    # without the Muscle, Arsène's pair is the weakest
    plain = [PlayerHand(p.name, p.pocket, p.chip) for p in crew]
    v2 = judge([], plain, FIVE_CARD)
    assert not v2.success
    assert {(m.lower, m.higher) for m in v2.misplaced} == {("Bonny", "Arsène"), ("Trudy", "Arsène")}
    # the Muscle never lifts a pair over three of a kind
    crew[0], crew[3] = PlayerHand("Arsène", crew[0].pocket, 4, muscle=True), PlayerHand("Danny", crew[3].pocket, 3)
    v3 = judge([], crew, FIVE_CARD)
    assert [(m.lower, m.higher) for m in v3.misplaced] == [("Danny", "Arsène")]
    assert "Three of a kind beats pair" in v3.misplaced[0].reason


# --- the variants ----------------------------------------------------------------------------------------------
def test_omaha_must_use_exactly_two_pocket_cards():
    board = parse_cards("Ah Kh Qh Jh 2c")
    # one heart in the pocket makes no flush in Omaha (it needs two); with two hearts only three board
    # hearts may join, so no royal flush either: K-Q-J from the board with the pocket 10-9
    one = hand("One", "Td 9s 3d 5s", 1)
    two = hand("Two", "Th 9h 4c 5c", 2)
    v = judge(board, [one, two], RuleOptions(variant=Variant.OMAHA))
    by = {p.player.name: p.hand.describe() for p in v.players}
    assert by["Two"] == "straight flush to the king"
    assert by["One"] == "straight to the king"  # A-K-Q-J-10 would need four board cards
    assert v.success


def test_security_cameras_three_pocket_cards():
    board = parse_cards("2c 7d 9h Js Kc")
    crew = [hand("A", "Ac Ad Ah", 2), hand("B", "3c 4d 5h", 1)]
    with pytest.raises(ShowdownError, match="needs 2"):
        judge(board, crew)
    v = judge(board, crew, RuleOptions(pocket_size=3))
    assert v.success and v.players[0].hand.describe() == "three aces with king-jack"


def test_seven_card_stud():
    crew = [PlayerHand("A", tuple(parse_cards("2c 2d 9h")), 1, own_board=tuple(parse_cards("Kc 7d 4s 3h"))),
            PlayerHand("B", tuple(parse_cards("Ac Ad 9c")), 2, own_board=tuple(parse_cards("Qc 8d 5s 6h")))]
    v = judge([], crew, RuleOptions(variant=Variant.STUD))
    assert v.success and [p.hand.describe() for p in v.players] == ["pair of 2s with king-9-7", "pair of aces with queen-9-8"]


def test_banana_split_uses_left_and_right_piles():
    # pile i lies between seat i and seat i+1
    piles = [parse_cards("Ac Ad Ah"), parse_cards("2c 3d 4h"), parse_cards("9s 9h 9c")]
    crew = [hand("S0", "Kc Kd", 1), hand("S1", "5c 6d", 2), hand("S2", "Qc Jd", 3)]
    v = judge([], crew, RuleOptions(variant=Variant.BANANA_SPLIT, piles=tuple(tuple(p) for p in piles)))
    by = {p.player.name: p.hand.describe() for p in v.players}
    assert by["S0"] == "full house, aces over kings"  # piles 2 (left) and 0 (right): A A A 9 9 9 K K
    assert by["S1"] == "straight to the 6"  # piles 0 and 1: A A A 2 3 4 + 5 6
    assert by["S2"] == "three 9s with queen-jack"  # piles 1 and 2
    assert not v.success


def test_stacked_joker_slot_uses_at_most_one_card():
    board = [*parse_cards("Ah Kh Qh 2c"), parse_cards("Jh Js")]
    crew = [hand("A", "Th 3c", 2), hand("B", "Jd Jc", 1)]
    v = judge(board, crew, RuleOptions(jokers=True))
    by = {p.player.name: p.hand.describe() for p in v.players}
    assert by["A"] == "royal flush"
    # B may use only one jack of the stack: three jacks, not four
    assert by["B"] == "three jacks with ace-king"
    with pytest.raises(ShowdownError, match="Jokers module"):
        judge(board, crew)


def test_suitless_jack_in_a_pocket():
    board = parse_cards("Ah 9h 6h 3h 2c")
    crew = [PlayerHand("A", (parse_cards("Kc")[0], SUITLESS_JACK), 2), hand("B", "4h 5d", 1)]
    v = judge(board, crew)
    assert v.players[0].hand.category.label == "high card"  # the Jack never completes the heart flush
    assert v.players[1].hand.category.label == "flush"
    assert not v.success


def test_fingerprint_and_retina_scans():
    crew = true_tie_crew()
    assert judge(BOARD_TRUE_TIE, crew, RuleOptions(fingerprint_guess="full house")).success
    v = judge(BOARD_TRUE_TIE, crew, RuleOptions(fingerprint_guess="flush"))
    assert not v.success and v.misplaced == () and "Fingerprint Scan" in v.failed_checks[0]
    assert judge(BOARD_TRUE_TIE, crew, RuleOptions(retina_guess=14)).success
    assert not judge(BOARD_TRUE_TIE, crew, RuleOptions(retina_guess=13)).success


# --- bad input -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("crew,message", [
    ([hand("A", "Ah Kd", 1), hand("B", "Ah Qd", 2)], "Ah appears twice"),
    ([hand("A", "2h Kd", 1), hand("B", "3h Qd", 1)], "both hold red 1"),
    ([hand("A", "2h Kd", 9), hand("B", "3h Qd", 1)], "red chip 9 does not exist"),
    ([hand("A", "2h Kd", None), hand("B", "3h Qd", 1)], "A has no red chip"),
    ([hand("A", "2h", 2), hand("B", "3h Qd", 1)], "A shows 1 cards; holdem needs 2"),
    ([hand("A", "2h JR", 2), hand("B", "3h Qd", 1)], "joker"),
    ([hand("A", "2h Kd", 0), hand("B", "3h Qd", 0), hand("C", "4h 4d", 0)], "only two 0-star chips"),
    ([hand("A", "2h Kd", 1)], "at least two players"),
    ([hand("A", "2h Kd", 1, muscle=True), hand("B", "3h Qd", 2, muscle=True)], "only one player can hold the Muscle"),
])
def test_bad_showdowns_name_the_problem(crew, message):
    with pytest.raises(ShowdownError, match=message):
        judge(parse_cards("2c 5d 8h Js Qc"), crew)


def test_board_must_be_complete():
    with pytest.raises(ShowdownError, match="5 cards"):
        judge(parse_cards("2c 5d 8h"), [hand("A", "2h Kd", 1), hand("B", "3h Qd", 2)])


# --- JSON and the command line ---------------------------------------------------------------------------------
ISSUE_EXAMPLE = {"board": ["2c", "2d", "Ah", "Tc", "7s"], "players": [
    {"name": "Ana", "pocket": ["Qs", "Qd"], "chip": 3, "exit": False},
    {"name": "Bo", "pocket": ["3s", "4d"], "chip": 1},
    {"name": "Cy", "pocket": ["Kc", "Jd"], "chip": 2},
]}


def test_judge_json_shape():
    out = judge_json(ISSUE_EXAMPLE)
    assert out["success"] is True and out["misplaced"] == []
    ana = out["players"][0]
    assert ana["category"] == "two pair" and sorted(ana["best_five"]) == sorted(["Qs", "Qd", "2c", "2d", "Ah"])
    assert ana["kickers"] == ["A"] and out["players"][2]["kickers"] == ["A", "K", "J"]
    json.dumps(out)


@pytest.mark.parametrize("data,message", [
    ([], "JSON object"),
    ({"board": ["2c"], "players": []}, "non-empty list"),
    ({"board": ["2c", "2d", "Ah", "Tc", "Zz"], "players": [{"name": "A", "pocket": ["Qs", "Qd"], "chip": 1}]}, "'Zz'"),
    ({**ISSUE_EXAMPLE, "variant": "poker"}, "unknown variant 'poker'"),
    ({**ISSUE_EXAMPLE, "colour": 1}, "unknown field 'colour'"),
    ({"board": ISSUE_EXAMPLE["board"], "players": [{"name": "A", "pocket": ["Qs", "Qd"], "chip": "3"}]}, "whole number"),
])
def test_judge_json_bad_input(data, message):
    with pytest.raises(ShowdownError, match=message):
        judge_json(data)


def test_cli_single_and_lines(tmp_path, capsys):
    f = tmp_path / "one.json"
    f.write_text(json.dumps(ISSUE_EXAMPLE, indent=2))
    assert main(["judge", str(f)]) == 0
    assert json.loads(capsys.readouterr().out)["success"] is True

    bad = dict(ISSUE_EXAMPLE, players=[dict(p, chip=1) for p in ISSUE_EXAMPLE["players"]])
    lines = tmp_path / "many.jsonl"
    lines.write_text("\n".join([json.dumps(ISSUE_EXAMPLE)] * 3 + [json.dumps(bad), "{oops"]) + "\n")
    assert main(["judge", str(lines)]) == 2
    captured = capsys.readouterr()
    outs = [json.loads(line) for line in captured.out.splitlines()]
    assert [o.get("success") for o in outs[:3]] == [True, True, True]
    assert outs[3] == {"line": 4, "error": "Ana and Bo both hold red 1"}
    assert outs[4]["line"] == 5 and "not JSON" in outs[4]["error"]
    assert "2 line(s)" in captured.err


def test_cli_missing_file_exit_2(capsys):
    assert main(["judge", "/nonexistent/showdown.json"]) == 2
    assert "cannot read /nonexistent/showdown.json" in capsys.readouterr().err


def test_cli_stdin_subprocess():
    proc = subprocess.run([sys.executable, "-m", "companion", "judge", "-"], input=json.dumps(ISSUE_EXAMPLE),
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["success"] is True
    proc = subprocess.run([sys.executable, "-m", "companion", "judge", "-"], input='{"board": 3}',
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "'board' must be a list" in proc.stderr
