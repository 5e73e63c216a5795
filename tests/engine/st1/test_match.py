"""Match play (RULINGS ST1-8)."""

import json
import random

import pytest

from engine.errors import GameError
from engine.outcome import Outcome, Termination
from engine.st1 import Claim, Options
from engine.st1.match import Match, MatchOptions, round_points


def finish_round(m: Match, rng: random.Random) -> list:
    events = []
    start = len(m.rounds)
    while not m.is_over and len(m.rounds) == start:
        moves = m.legal_moves()
        claims = [x for x in moves if isinstance(x, Claim)]
        events += m.apply(claims[0] if claims else rng.choice(moves))
    return events


def test_points_five_for_the_winner_and_one_per_stone_for_the_loser():
    assert round_points(Outcome(0, Termination.FIVE_STONES), (5, 3)) == (5, 3)
    assert round_points(Outcome(1, Termination.THREE_ADJACENT), (2, 3)) == (2, 5)


def test_rounds_are_played_to_the_agreed_number_and_scored():
    m = Match.new(Options(), MatchOptions(rounds=3), seed=21)
    rng = random.Random(0)
    for _ in range(3):
        finish_round(m, rng)
    assert m.is_over
    assert len(m.rounds) == 3
    assert m.scores == tuple(sum(r.points[p] for r in m.rounds) for p in (0, 1))
    a, b = m.scores
    assert m.outcome is not None
    expected = (0 if a > b else 1) if a != b else m.rounds[-1].outcome.winner
    assert m.outcome.winner == expected


def test_the_winner_of_a_round_starts_the_next():
    m = Match.new(Options(), MatchOptions(rounds=4), seed=3)
    rng = random.Random(1)
    events = finish_round(m, rng)
    winner = m.rounds[0].outcome.winner
    assert m.game.first_player == winner
    assert m.game.turn == winner
    assert "RoundStarted" in [e.kind for e in events]
    finish_round(m, rng)
    assert m.rounds[1].first_player == winner


def test_points_target_ends_the_match_when_reached():
    m = Match.new(Options(), MatchOptions(target=10), seed=5)
    rng = random.Random(2)
    while not m.is_over:
        finish_round(m, rng)
    assert max(m.scores) >= 10
    # Before the last round, nobody had reached the target.
    before = [sum(r.points[p] for r in m.rounds[:-1]) for p in (0, 1)]
    assert max(before) < 10


def test_tie_on_points_goes_to_the_last_rounds_winner():
    m = Match.new(Options(), MatchOptions(rounds=2), seed=0)
    from engine.st1.match import RoundResult

    m.rounds = [
        RoundResult(0, Outcome(0, Termination.FIVE_STONES), (5, 3), (5, 3)),
        RoundResult(0, Outcome(1, Termination.FIVE_STONES), (3, 5), (3, 5)),
    ]
    assert m.scores == (8, 8)
    assert m._leader() == 1


def test_resigning_gives_up_the_whole_match():
    m = Match.new(Options(), MatchOptions(rounds=3), seed=4)
    events = m.play("resign", player=0)
    assert m.is_over and m.winner == 1
    assert [e.kind for e in events][-1] == "MatchEnded"


def test_match_replays_and_round_trips_json():
    m = Match.new(Options(expert=True), MatchOptions(rounds=2), seed=9)
    rng = random.Random(3)
    finish_round(m, rng)
    for _ in range(10):
        m.apply(rng.choice(m.legal_moves()))
    again = Match.replay(m.options, m.match, m.seed, m.log)
    assert again.to_json() == m.to_json()
    assert Match.from_json(json.loads(json.dumps(m.to_json()))).to_json() == m.to_json()
    view = m.view(0)
    assert view.match is not None
    assert view.match.round == 2
    assert view.match.scores == m.scores


def test_match_options_are_checked():
    with pytest.raises(GameError):
        MatchOptions(rounds=0)
    with pytest.raises(GameError):
        MatchOptions(target=200)
    assert MatchOptions(rounds=3).describe() == "3 rounds"
    assert MatchOptions(target=12).describe() == "first to 12 points"
