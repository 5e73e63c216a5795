"""Random full sieges with invariants after every move (RULINGS ST2-5 to ST2-8)."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card
from engine.errors import GameError
from engine.st2 import Control, Game, Options
from engine.st2.events import OilThrown
from tests.engine.st2.invariants import check_all


def play_out(seed: int, options: Options) -> Game:
    g = Game.new(options, seed)
    rng = random.Random(seed)
    check_all(g)
    oil = 0
    while not g.is_over:
        moves = g.legal_moves()
        assert moves, "a game that is not over always offers a move"
        p = g.to_decide
        theirs = [c for c in g.hands[1 - p] if isinstance(c, Card)]
        if theirs and rng.random() < 0.2:
            state = json.dumps(g.to_json())
            with pytest.raises(GameError):
                g.play(f"{rng.choice(theirs)} 1", player=p)
            assert json.dumps(g.to_json()) == state
        controls = [m for m in moves if isinstance(m, Control)]
        events = g.apply(controls[0] if controls else rng.choice(moves))
        oil += sum(1 for e in events if isinstance(e, OilThrown))
        check_all(g)
        assert oil <= 3 and g.cauldrons == 3 - oil
    return g


@settings(max_examples=40)
@given(st.integers(0, 2**32), st.booleans())
def test_random_sieges_keep_every_invariant(seed, tactics):
    g = play_out(seed, Options(tactics=tactics))
    assert g.outcome is not None
    assert Game.replay(g.options, g.seed, g.log).to_json() == g.to_json()
    assert Game.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()


def test_every_kind_of_ending_happens():
    endings = set()
    for seed in range(150):
        g = play_out(seed, Options(tactics=seed % 2 == 1))
        assert g.outcome is not None
        endings.add(g.outcome.termination.name)
    assert {"DECK_EMPTY", "DEFENDER_CANNOT_PLAY"} <= endings
    assert endings & {"DAMAGED_TILE_TAKEN", "FOURTH_TILE_DAMAGED"}
