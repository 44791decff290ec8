from itertools import combinations

import numpy as np
import pytest

from companion.bots import desired_star, estimate_strength, river_strength
from companion.cards import parse_cards
from companion.engine import Table
from companion.evaluator import evaluate
from companion.practice import BotCrew


def test_preflop_order_of_classic_hands():
    aces = estimate_strength(parse_cards("As Ah"), [], 3, samples=800, seed=1)
    kings = estimate_strength(parse_cards("Ks Kh"), [], 3, samples=800, seed=1)
    junk = estimate_strength(parse_cards("7c 2d"), [], 3, samples=800, seed=1)
    assert aces > kings > 0.7 > 0.45 > junk


def test_river_strength_is_exact():
    pocket, board = parse_cards("Qs Jd"), parse_cards("2c 7d 9h Tc Kd")
    known = {int(c) for c in pocket + board}
    unknown = [c for c in range(52) if c not in known]
    mine = evaluate(pocket + board)
    share = np.mean([1.0 if mine > v else 0.5 if mine == v else 0.0
                     for v in (evaluate(list(p) + list(board)) for p in combinations(unknown, 2))])
    assert river_strength(pocket, board, np.array(unknown)) == pytest.approx(share, abs=1e-12)
    # the nuts beats every pocket
    assert estimate_strength(parse_cards("As Ks"), parse_cards("Qs Js Ts 2c 3d"), 4) == 1.0


def test_desired_star_spreads_over_the_chips():
    assert [desired_star(s, [1, 2, 3, 4]) for s in (0.0, 0.3, 0.7, 1.0)] == [1, 2, 3, 4]
    assert desired_star(0.0, [0, 0, 1, 2, 3, 4, 5, 6, 7, 8]) == 0


def test_bots_bring_every_round_to_a_close_with_legal_commands():
    table = Table()
    names = ("A", "B", "C", "D", "E", "F", "G")
    table.execute({"cmd": "new_game", "players": [{"name": n, "bot": True} for n in names], "timer": None})
    table.execute({"cmd": "deal", "seed": 4})
    crew = BotCrew(names, samples=100)
    for colour in range(4):
        if colour:
            table.execute({"cmd": "reveal"})
        for _ in range(200):
            if table.state.heist.rounds[colour].closed:
                break
            command = crew.next_command(table.state)
            if command is None:
                break
            table.execute(command)  # an illegal bot move would raise here
        assert table.state.heist.rounds[colour].closed
    assert table.state.phase == "showdown"
