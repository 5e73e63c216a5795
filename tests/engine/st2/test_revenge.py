"""The revenge match (RULINGS ST2-9)."""

import json
import random

from engine.outcome import Outcome, Termination
from engine.st2 import Control, Options
from engine.st2.match import Match, SiegeResult, decide

ATT = Termination.FOURTH_TILE_DAMAGED
DEF = Termination.DECK_EMPTY


def result(attacker, winner, deck=10, intact=5, cauldrons=1):
    why = ATT if winner == attacker else DEF
    return SiegeResult(attacker, Outcome(winner, why), deck, intact, cauldrons)


def test_the_same_player_winning_both_is_champion():
    assert decide([result(0, 0), result(1, 0)]) == (0, "won both games")


def test_both_won_as_attacker_more_cards_left_wins():
    w, how = decide([result(0, 0, deck=12), result(1, 1, deck=20)])
    assert w == 1 and "more cards left" in how


def test_both_won_as_defender_more_intact_tiles_plus_cauldrons_wins():
    w, _ = decide([result(0, 1, intact=4, cauldrons=2), result(1, 0, intact=5, cauldrons=0)])
    assert w == 1  # 6 against 5


def test_still_tied_is_a_draw():
    assert decide([result(0, 0, deck=9), result(1, 1, deck=9)])[0] is None
    assert (
        decide([result(0, 1, intact=4, cauldrons=1), result(1, 0, intact=3, cauldrons=2)])[0]
        is None
    )


def play_game(m: Match, rng: random.Random) -> list:
    events = []
    start = len(m.results)
    while not m.is_over and len(m.results) == start:
        moves = m.legal_moves()
        controls = [x for x in moves if isinstance(x, Control)]
        events += m.apply(controls[0] if controls else rng.choice(moves))
    return events


def test_roles_swap_for_the_second_game():
    m = Match.new(Options(attacker=0), revenge=True, seed=4)
    rng = random.Random(0)
    events = play_game(m, rng)
    assert not m.is_over
    assert m.game.attacker == 1 and m.game.turn == 1
    assert "SiegeEnded" in [e.kind for e in events]
    assert m.view(0).revenge is not None and m.view(0).revenge.game == 2
    events = play_game(m, rng)
    assert m.is_over
    assert events[-1].kind == "RevengeEnded"
    assert m.outcome is not None and m.outcome.winner == decide(m.results)[0]


def test_single_siege_ends_with_its_game():
    m = Match.new(Options(), revenge=False, seed=2)
    play_game(m, random.Random(1))
    assert m.is_over and len(m.results) == 1


def test_revenge_match_replays_and_round_trips():
    m = Match.new(Options(tactics=True), revenge=True, seed=12)
    rng = random.Random(5)
    play_game(m, rng)
    for _ in range(15):
        if m.is_over:
            break
        m.apply(rng.choice(m.legal_moves()))
    assert Match.replay(m.options, m.revenge, m.seed, m.log).to_json() == m.to_json()
    assert Match.from_json(json.loads(json.dumps(m.to_json()))).to_json() == m.to_json()


def test_resigning_gives_up_the_revenge_match():
    m = Match.new(Options(), revenge=True, seed=3)
    m.play("resign", player=1)
    assert m.is_over and m.winner == 0
