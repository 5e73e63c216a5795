"""The computer players: legal moves only, from the view only, the same move for the same
seed, and levels that behave."""

import random

import pytest

from engine.ai import (
    LEVELS,
    Budget,
    HeuristicPlayer,
    NotYourMoveError,
    RandomPlayer,
    SearchPlayer,
    choose_move,
    player_for,
)
from engine.api import MatchSpec, new_match
from tests.engine.ai.positions import kind, sample_positions, with_other_hidden

POSITIONS = sample_positions(per_variant=4, seed=0)
IDS = [f"{v}-{kind(g)}-{i}" for i, (v, g) in enumerate(POSITIONS)]
TINY = Budget(iterations=6, root_width=4)
PLAYERS = [RandomPlayer(), HeuristicPlayer(), SearchPlayer(TINY)]


def test_positions_cover_every_kind_of_decision():
    kinds = {(v, kind(g)) for v, g in POSITIONS}
    for special in ("draw", "recruit-draw", "recruit-return"):
        assert ("tactics", special) in kinds
    assert ("siege-tactics", "exchange") in kinds
    assert ("siege-tactics", "exchange-out") in kinds  # a decision owed out of turn
    assert {v for v, _ in POSITIONS} == {
        "classic",
        "tactics",
        "expert",
        "tactics-expert",
        "siege",
        "siege-tactics",
    }


@pytest.mark.parametrize(("variant", "game"), POSITIONS, ids=IDS)
def test_every_player_chooses_a_legal_move(variant, game):
    view = game.view(game.to_decide)
    for player in PLAYERS:
        move = player.decide(view, seed=3)
        assert move in view.legal_moves, (player.name, move)
        game.parse_move(move, game.to_decide)  # the engine reads it back


# Positions with hidden cards that can change places (not those with both decks empty).
TWINS = [
    (v, g, with_other_hidden(g, g.to_decide, seed=11))
    for v, g in POSITIONS[::2]
    if g.deck or g.tactic_deck
]


def test_most_positions_can_hide_their_cards_differently():
    assert len(TWINS) >= len(POSITIONS[::2]) - 4
    assert all(twin.to_json() != game.to_json() for _, game, twin in TWINS)


@pytest.mark.parametrize(("variant", "game", "twin"), TWINS, ids=[v for v, _, _ in TWINS])
def test_no_player_peeks_at_hidden_cards(variant, game, twin):
    seat = game.to_decide
    assert twin.view(seat) == game.view(seat)
    for player in PLAYERS:
        for seed in (1, 2):
            a = player.decide(game.view(seat), seed=seed)
            b = player.decide(twin.view(seat), seed=seed)
            assert a == b, (player.name, a, b)


@pytest.mark.parametrize(("variant", "game"), POSITIONS[1::4], ids=IDS[1::4])
def test_the_heuristic_judges_from_the_view_alone(variant, game):
    # Its evaluation ignores the cards it deals itself, so any deal gives the same move.
    view = game.view(game.to_decide)
    moves = {HeuristicPlayer().decide(view, seed=s) for s in range(4)}
    assert len(moves) == 1


@pytest.mark.parametrize(("variant", "game"), POSITIONS[2::5], ids=IDS[2::5])
def test_the_same_seed_gives_the_same_move(variant, game):
    view = game.view(game.to_decide)
    for player in PLAYERS:
        assert player.decide(view, seed=7) == player.decide(view, seed=7)


def test_levels_are_easy_normal_hard():
    assert LEVELS == ("easy", "normal", "hard")
    assert isinstance(player_for("easy"), HeuristicPlayer)
    normal, hard = player_for("normal"), player_for("hard")
    assert isinstance(normal, SearchPlayer) and isinstance(hard, SearchPlayer)
    with pytest.raises(ValueError, match="not a level"):
        player_for("impossible")


@pytest.mark.parametrize(("variant", "game"), POSITIONS[1::3], ids=IDS[1::3])
def test_normal_weighs_only_the_most_natural_moves(variant, game):
    # The normal level judges the quick ordering's first few moves (three in Schotten
    # Totten, six in Schotten Totten 2); a move made by rule (a claim, a draw) is made.
    from engine.ai import NORMAL, st1_policy, st2_policy
    from engine.ai.worlds import sample_world

    view = game.view(game.to_decide)
    chosen = player_for("normal").decide(view, seed=3)
    world = sample_world(view, random.Random(0))
    moves = world.legal_moves()
    policy = st1_policy if view.game == "st1" else st2_policy
    natural = policy.quick_order(world, moves)[: NORMAL[view.game].consider]
    forced = policy.auto_move(world, moves)
    assert chosen in {str(m) for m in natural} or chosen == str(forced)


def test_choose_move_refuses_a_view_without_a_decision():
    _, game = POSITIONS[0]
    waiting = 1 - game.to_decide
    with pytest.raises(NotYourMoveError):
        choose_move(game.view(waiting), "easy", seed=0)
    with pytest.raises(NotYourMoveError):
        choose_move(game.view(None), "easy", seed=0)


@pytest.mark.parametrize("variant", ["classic", "siege"])
def test_normal_beats_random_in_a_small_match(variant):
    wins = 0
    for game_number in range(4):
        match = new_match(MatchSpec(variant, first=0), seed=game_number)
        computer = game_number % 2  # seats alternate
        turn = 0
        while not match.is_over:
            seat = match.to_decide
            view = match.view(seat)
            if seat == computer:
                move = choose_move(view, "normal", seed=turn)
            else:
                move = RandomPlayer().decide(view, seed=turn)
            match.play(move, seat)
            turn += 1
        wins += match.winner == computer
    assert wins == 4
