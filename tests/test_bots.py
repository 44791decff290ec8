from itertools import combinations

import numpy as np
import pytest

from companion.bots import estimate_strength, river_strength
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


def test_surest_hands_grab_first_and_a_perfect_crew_sorts_itself_at_the_river():
    table = Table()
    names = ("A", "B", "C", "D", "E")
    table.execute({"cmd": "new_game", "players": list(names), "timer": None})
    table.execute({"cmd": "deal", "seed": 9})
    crew = BotCrew(names, misjudge=0.0)
    for colour in range(4):
        if colour:
            table.execute({"cmd": "reveal"})
        while not table.state.heist.rounds[colour].closed:
            command = crew.next_command(table.state)
            assert command is not None, table.state.heist.rounds[colour]
            table.execute(command)
    heist = table.state.heist
    red = heist.rounds[3]
    by_chip = sorted(names, key=lambda n: red.star_chip_of(n).stars)
    values = [evaluate(list(heist.pockets[n]) + list(heist.board)) for n in by_chip]
    assert values == sorted(values)


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
