"""One interface for both games (issue: "the bot and renderer drive both games alike")."""

import json
import random

import pytest

from engine.api import VARIANTS, MatchSpec, game_of, load_match, new_match, replay_match
from engine.errors import GameError


def finish(match, seed):
    rng = random.Random(seed)
    while not match.is_over:
        p = match.to_decide
        moves = match.legal_moves()
        match.play(str(rng.choice(moves)), player=p)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_plays_to_the_end_through_the_same_calls(variant):
    spec = MatchSpec(variant)
    match = new_match(spec, seed=7)
    assert match.kind == game_of(variant)
    view = match.view(match.to_decide)
    assert view.game == match.kind and view.variant == variant
    assert view.legal_moves
    finish(match, 7)
    assert match.outcome is not None
    assert match.legal_moves() == []
    data = json.loads(json.dumps(match.to_json()))
    assert load_match(data).to_json() == match.to_json()
    assert replay_match(spec, 7, match.log).to_json() == match.to_json()


def test_match_lengths():
    assert MatchSpec("classic", rounds=3).describe() == "Schotten Totten, 3 rounds"
    assert MatchSpec("siege-tactics", revenge=True).describe() == (
        "Schotten Totten 2, Tactical, revenge match"
    )
    assert MatchSpec("tactics").describe() == "Schotten Totten, Tactics"
    with pytest.raises(GameError, match="revenge match is for Schotten Totten 2"):
        MatchSpec("classic", revenge=True)
    with pytest.raises(GameError, match="not in rounds"):
        MatchSpec("siege", rounds=3)
    with pytest.raises(GameError, match="not a game here"):
        MatchSpec("poker")


def test_first_seat_starts_or_attacks():
    assert new_match(MatchSpec("classic", first=1), 3).to_decide == 1
    siege = new_match(MatchSpec("siege", first=1), 3)
    assert siege.view(None).attacker == 1 and siege.to_decide == 1


def test_spec_round_trips():
    spec = MatchSpec("classic", rounds=5, first=0)
    assert MatchSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec


def test_prepare_builds_every_claim_table_before_any_claim():
    from engine import cardgame, st1, st2
    from engine.api import prepare

    prepare()
    built = dict(cardgame._TABLES)
    every = {(rules, game.kind) for game in (st1.Game, st2.Game) for rules in game.RULE_SETS}
    assert every <= set(built)
    for variant in VARIANTS:  # whole games then build nothing more
        finish(new_match(MatchSpec(variant), seed=3), 3)
    assert dict(cardgame._TABLES) == built
