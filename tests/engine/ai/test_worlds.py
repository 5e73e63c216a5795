"""Worlds dealt from a view give back that very view, whatever the hidden cards were."""

import dataclasses
import random

import pytest

from engine.ai.worlds import WorldError, hidden_cards, sample_world
from engine.cards import card_code
from tests.engine.ai.positions import kind, sample_positions, with_other_hidden

POSITIONS = sample_positions(per_variant=4, seed=100)


def _same_view(a, b):
    """Views equal but for the last move (a world has no log) and the order of the moves."""
    fix = {"last_move": None, "legal_moves": tuple(sorted(a.legal_moves))}
    return dataclasses.replace(a, **fix) == dataclasses.replace(
        b, **{**fix, "legal_moves": tuple(sorted(b.legal_moves))}
    )


@pytest.mark.parametrize(
    ("variant", "game"), POSITIONS, ids=[f"{v}-{kind(g)}" for v, g in POSITIONS]
)
def test_a_world_gives_the_viewer_the_view_it_was_dealt_from(variant, game):
    seat = game.to_decide
    view = game.view(seat)
    for seed in range(3):
        world = sample_world(view, random.Random(seed))
        assert _same_view(world.view(seat), view)
        assert {str(m) for m in world.legal_moves()} == set(view.legal_moves)


@pytest.mark.parametrize(("variant", "game"), POSITIONS[::3])
def test_worlds_depend_on_the_view_and_seed_only(variant, game):
    seat = game.to_decide
    twin = with_other_hidden(game, seat, seed=5)
    assert twin.to_json() != game.to_json()  # the hidden cards really differ
    a = sample_world(game.view(seat), random.Random(9))
    b = sample_world(twin.view(seat), random.Random(9))
    assert a.to_json() == b.to_json()


def test_hidden_cards_are_exactly_the_other_hand_and_the_decks():
    for _, game in POSITIONS:
        seat = game.to_decide
        clan, tactics = hidden_cards(game.view(seat))
        other = game.hands[1 - seat]
        expected = sorted(card_code(c) for c in [*other, *game.deck, *game.tactic_deck])
        assert sorted(card_code(c) for c in [*clan, *tactics]) == expected


def test_a_spectator_or_a_finished_game_has_no_world():
    _, game = POSITIONS[0]
    with pytest.raises(WorldError):
        sample_world(game.view(None), random.Random(0))
    game = type(game).from_json(game.to_json())
    rng = random.Random(1)
    while not game.is_over:
        game.apply(rng.choice(game.legal_moves()))
    with pytest.raises(WorldError):
        sample_world(game.view(0), random.Random(0))
