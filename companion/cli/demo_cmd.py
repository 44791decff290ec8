"""``gang-companion demo``: a whole game on a synthetic table, bots in every seat, told as it happens.

What a newcomer sees with no camera, no buttons and no Pi: the dealer deals, the bots take chips round by round,
the community cards come up, and the showdown is judged with reasons, heist after heist until three vaults or
three alarms. Every event goes through the real engine and (with ``--db``) the real journal.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any, Callable

from companion.cli import InputError

if TYPE_CHECKING:
    from companion.engine import GameState, HeistState

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("demo", help="watch bots play a whole game on a synthetic table",
                       description="Bots play every seat; the engine, judge and journal are the real ones.")
    p.add_argument("--players", type=int, default=4, help="crew size, 3 to 10 (default 4)")
    p.add_argument("--seed", type=int, default=1, help="shuffle seed (default 1)")
    p.add_argument("--delay", type=float, default=None,
                   help="seconds between lines (default: 0.15 on a terminal, 0 when piped)")
    p.add_argument("--db", default=None, help="journal the game to this SQLite file (default: memory only)")
    p.add_argument("--max-heists", type=int, default=5, help="stop after this many heists (a game needs 3 to 5)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.engine import Deal, NewGame, NextHeist, Reveal, Seat, Showdown, Table
    from companion.engine.commands import DEFAULT_TIMER
    from companion.practice import BotCrew

    if not 3 <= args.players <= 10:
        raise InputError(f"--players must be 3 to 10, got {args.players}")
    if args.delay is not None and not args.delay >= 0:
        raise InputError(f"--delay is seconds between lines, 0 or more, got {args.delay}")
    delay = args.delay if args.delay is not None else (0.15 if sys.stdout.isatty() else 0.0)

    def say(text: str = "") -> None:
        print(text, flush=True)
        if delay:
            time.sleep(delay)

    names = NAMES[: args.players]
    execute: Callable[[Any], Any]
    get_state: Callable[[], GameState]
    if args.db:
        from companion.journal import Journal, JournalError, JournalledGame

        try:
            game = JournalledGame(Journal(args.db))
        except JournalError as exc:
            raise InputError(str(exc)) from None
        if game.state.phase not in ("no_game", "won", "lost", "abandoned"):
            raise InputError(f"{args.db} holds a game under way; use `gang-companion play --db {args.db}` to go on")
        execute, get_state = game.execute, (lambda: game.state)
    else:
        table = Table()
        execute, get_state = table.execute, (lambda: table.state)

    crew = BotCrew(names, seed=args.seed)
    # the game has a round clock: when the bots cannot settle a round, the clock closes it (no real waiting here)
    execute(NewGame(tuple(Seat(n, bot=True) for n in names), timer=DEFAULT_TIMER))
    say(f"A crew of {args.players} bots sits down: {', '.join(names)}. Open three vaults before three alarms sound.")
    for heist_no in range(1, args.max_heists + 1):
        state = get_state()
        say()
        say(f"=== Heist {_heist(state).number}   vaults {state.vaults}  alarms {state.alarms} ===")
        execute(Deal(args.seed * 1000 + heist_no))
        pockets = _heist(get_state()).pockets
        say("Pocket cards (secret at a real table): " + "   ".join(f"{n} {_cards(pockets[n])}" for n in names))
        for colour in range(4):
            if colour:
                execute(Reveal())
                board = _heist(get_state()).board
                say(f"{('', 'Flop', 'Turn', 'River')[colour]}: the board shows {_cards(board)}")
            _play_round(get_state, execute, crew, say)
        execute(Showdown())
        _tell_showdown(_heist(get_state()).verdict, say)
        state = get_state()
        if state.phase in ("won", "lost"):
            break
        execute(NextHeist())
    state = get_state()
    say()
    if state.phase == "won":
        say(f"The crew wins: {state.vaults} vaults opened, {state.alarms} alarms.")
    elif state.phase == "lost":
        say(f"The crew is caught: {state.alarms} alarms, {state.vaults} vaults.")
    else:
        say(f"Stopped after {args.max_heists} heists: {state.vaults} vaults, {state.alarms} alarms.")
    return 0


def _heist(state: "GameState") -> "HeistState":
    assert state.heist is not None, "the engine always has a heist once a game has started"
    return state.heist


def _cards(cards: Any) -> str:
    return " ".join(str(c) for c in cards)


def _play_round(get_state: "Callable[[], GameState]", execute: Callable[[Any], Any], crew: Any,
                say: Callable[[str], None]) -> None:
    from companion.engine import COLOURS, Happy, IllegalCommand, Take, TimerExpired

    colour = _heist(get_state()).current.colour
    moves = []
    while get_state().phase == "chips" and _heist(get_state()).current.colour == colour:
        command = crew.next_command(get_state())
        if command is None:
            execute(TimerExpired())  # bots that cannot settle: the round clock closes it
            moves.append("the clock runs out")
            break
        try:
            execute(command)
        except IllegalCommand as exc:  # a bot misjudged the table: the engine refused, nothing changed
            moves.append(f"(refused: {exc})")
            continue
        if isinstance(command, Take):
            label = "exit" if command.stars < 0 else str(command.stars)
            moves.append(f"{command.player} takes {label}" + (f" from {command.from_player}" if command.from_player else ""))
        elif isinstance(command, Happy):
            pass
    rnd = _heist(get_state()).rounds[colour]
    held = "  ".join(f"{p} {'+'.join(c.label for c in rnd.held_by(p))}" for p in get_state().players)
    say(f"  {COLOURS[colour]:>6} chips: {'; '.join(moves)}")
    say(f"  {'':>6}  → {held}")


def _tell_showdown(verdict: Any, say: Callable[[str], None]) -> None:
    players = {p["name"]: p for p in verdict["players"]}
    say("Showdown, lowest red chip first:")
    for name in verdict["reveal_order"]:
        p = players[name]
        say(f"  red {p['chip']}: {name:<4} {' '.join(p['pocket'])}  →  {p['description']}")
    for p in verdict["players"]:
        if p.get("exit"):
            say(f"  {p['name']} holds an exit chip and sits this showdown out")
    if verdict["success"]:
        say("Every hand is at least as strong as the ones before it: a vault opens!")
    else:
        say("Out of order, the alarm sounds:")
        for m in verdict["misplaced"]:
            say(f"  - {m['reason']}")
