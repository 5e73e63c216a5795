"""Random full games to the end, with invariants after every move (RULINGS ST1-6, ST1-7)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import GameError
from engine.st1 import Claim, Game, Options
from engine.st1.board import STONES
from tests.engine.st1.invariants import check_all, claimed_stones


def play_out(seed: int, options: Options, *, probe: bool = True) -> Game:
    g = Game.new(options, seed)
    rng = random.Random(seed)
    check_all(g)
    while not g.is_over:
        moves = g.legal_moves()
        assert moves, "a game that is not over always offers a move"
        claims = [m for m in moves if isinstance(m, Claim)]
        before = claimed_stones(g)
        if probe:
            probe_illegal_moves(g, rng)
        move = claims[0] if claims else rng.choice(moves)
        g.apply(move)
        check_all(g)
        after = claimed_stones(g)
        # A claimed stone stays claimed and unchanged (RULINGS ST1-6).
        for n, snapshot in before.items():
            assert after[n] == snapshot
    assert g.outcome is not None
    held = [sum(1 for s in g.stones if s.claimed_by == p) for p in (0, 1)]
    w = g.outcome.winner
    if g.outcome.termination.name in ("FIVE_STONES", "THREE_ADJACENT"):
        mine = [s.claimed_by == w for s in g.stones]
        assert held[w] >= 5 or any(all(mine[i : i + 3]) for i in range(STONES - 2))
    return g


def probe_illegal_moves(g: Game, rng: random.Random) -> None:
    """Playing a card from the other player's hand is refused and changes nothing."""
    p = g.to_decide
    theirs = [c for c in g.hands[1 - p] if isinstance(c, Card)]
    if not theirs:
        return
    card = rng.choice(theirs)
    state = json.dumps(g.to_json())
    for n in (1, 9):
        with pytest.raises(GameError):
            g.play(f"{card} {n}", player=p)
        assert json.dumps(g.to_json()) == state


@settings(max_examples=60)
@given(st.integers(0, 2**32), st.sampled_from(["classic", "expert", "tactics", "tactics-expert"]))
def test_random_games_keep_every_invariant(seed, variant):
    # Tactics adds: every tactic card in exactly one place, the tactic limit and the Joker
    # limit always hold (checked by check_all after every move).
    g = play_out(seed, Options.from_variant(variant))
    # Replaying the log from the seed gives the identical state.
    assert Game.replay(g.options, g.seed, g.log).to_json() == g.to_json()
    # And so does the JSON round trip.
    assert Game.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()


def test_many_random_games_end_properly():
    for seed in range(120):
        variant = ["classic", "expert", "tactics", "tactics-expert"][seed % 4]
        g = play_out(seed, Options.from_variant(variant), probe=False)
        assert g.outcome is not None


@pytest.mark.parametrize("variant", ["classic", "tactics-expert", "tactics"])
def test_every_legal_move_can_be_applied(variant):
    rng = random.Random(7)
    g = Game.new(Options.from_variant(variant), 7)
    while not g.is_over:
        moves = g.legal_moves()
        for m in rng.sample(moves, min(5, len(moves))):
            copy = Game.from_json(g.to_json())
            copy.apply(m)  # raises if the game offered a move it then refuses
        g.apply(rng.choice(moves))
