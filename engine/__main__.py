"""The engine from a terminal: `python -m engine demo` and `python -m engine play`.

`demo` plays a game of random legal moves and prints every event and the final board.
`play` is a two-player game at one keyboard, for trying the rules and the move notation.
"""

from __future__ import annotations

import argparse
import random
import sys

from engine.errors import GameError
from engine.st1 import Claim, Game, Options

NAMES = ("P1", "P2")


def demo(options: Options, seed: int) -> None:
    game = Game.new(options, seed)
    rng = random.Random(seed)
    while not game.is_over:
        moves = game.legal_moves()
        claims = [m for m in moves if isinstance(m, Claim)]
        for event in game.apply(claims[0] if claims else rng.choice(moves)):
            print(event.describe(NAMES))
    print()
    print(game.view(None).to_text(NAMES))


def play(options: Options, seed: int) -> None:
    game = Game.new(options, seed)
    print("Moves: `R7 3` plays R7 on stone 3; `claim 4`; `done`; `pass`; `moves`; `quit`.")
    while not game.is_over:
        p = game.to_decide
        assert p is not None
        print()
        print(game.view(p).to_text(NAMES))
        try:
            text = input(f"{NAMES[p]}> ").strip()
        except EOFError:
            return
        if text in ("quit", "exit"):
            return
        if text == "moves":
            print(" | ".join(str(m) for m in game.legal_moves()))
            continue
        try:
            for event in game.play(text, player=p):
                print(event.describe(NAMES))
        except GameError as e:
            print(e)
    print(game.view(None).to_text(NAMES))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    parser.add_argument("command", choices=["demo", "play"])
    parser.add_argument("--variant", default="classic", help="classic, tactics, expert, ...")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        options = Options.from_variant(args.variant)
    except GameError as e:
        parser.error(str(e))
    if args.command == "demo":
        demo(options, args.seed)
    else:
        play(options, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
