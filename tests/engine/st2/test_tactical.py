"""The Tactical variant of Schotten Totten 2 (RULINGS ST2-10)."""

import json

import pytest

from engine.cards import Tactic, TacticCard, parse_card
from engine.errors import IllegalMoveError
from engine.formations import FormationType
from engine.moves import Draw
from engine.st2 import Game, Options, Phase
from engine.st2.moves import Exchange, Give, Support
from engine.st2.position import parse_position

NAMES = ["Alice", "Bob"]
T = FormationType


def said(events):
    return [e.describe(NAMES) for e in events]


def codes(cards):
    return [str(c) for c in cards]


def tactical(body: str) -> Game:
    return parse_position("variant: siege-tactics\n" + body)


def test_setup_seven_cards_and_eleven_tactic_cards():
    g = Game.new(Options(tactics=True, attacker=0), seed=2)
    assert [len(h) for h in g.hands] == [7, 7]
    assert len(g.tactic_deck) == 11
    kinds = sorted(c.kind.value for c in g.tactic_deck)
    assert kinds == sorted(
        [
            "joker",
            "joker",
            "spy",
            "shield",
            "redeploy",
            "recruit",
            "desert",
            "treason",
            "explode",
            "support",
            "exchange",
        ]
    )


def test_draw_from_either_deck():
    g = Game.new(Options(tactics=True, attacker=1), seed=2)
    g.play(f"{g.hands[1][0]} 1")
    # The Attacker has nothing to take: the choice of deck ends the turn.
    assert g.legal_moves() == [Draw("siege"), Draw("tactic")]
    g.play("draw tactic")
    assert isinstance(g.hands[1][-1], TacticCard)


def test_tactic_limit():
    g = tactical("turn: P1\nhand P1: spy R1\nhand P2: B1\ntactics played: 1 0\n")
    with pytest.raises(IllegalMoveError, match="played 1 tactic card and your opponent 0"):
        g.play("spy 3")


def test_elite_values_are_chosen_at_control_time():
    # RULINGS ST2-10: Joker any colour 0-11, Spy 10, Shield 1-3, best for the owner.
    g = tactical("turn: P1\nhand P1: R1\nhand P2: B1\ntile 4: spy joker | -\n")
    f = g.formation(4, 0)
    assert (f.type, f.total) == (T.COLOR_RUN, 21)
    assert sorted(codes(f.wild_values.values())) == ["R10", "R11"]
    events = g.play("control 4")
    assert "a colour run R10(Spy) R11(Joker) (21)" in said(events)[0]


def test_redeployment_moves_or_discards_your_card():
    g = tactical("turn: P1\nhand P1: redeploy R1\nhand P2: B1\ntile 3: R5 R6 | -\n")
    events = g.play("redeploy R5 6")
    assert g.log[-1] == (0, "redeploy 3:R5 6")
    assert said(events)[0] == "Alice played Redeployment: moved their R5 from tile 3 to tile 6."
    assert codes(g.actions[0]) == ["redeploy"]
    assert codes(g.tiles[5].sides[0]) == ["R5"]


def test_recruitment_plays_a_discarded_card():
    g = tactical("turn: P1\nhand P1: recruit R1\nhand P2: B1\ndiscard: G7 B3\n")
    events = g.play("recruit G7 2")
    assert (
        said(events)[0]
        == "Alice played Recruitment: took G7 from the discard pile onto Alice's side of tile 2."
    )
    assert codes(g.tiles[1].sides[0]) == ["G7"]
    assert codes(g.discard) == ["B3"]
    with pytest.raises(IllegalMoveError, match="not in the discard pile"):
        tactical("turn: P1\nhand P1: recruit R1\nhand P2: B1\ndiscard: G7\n").play("recruit Y7 2")


def test_desertion_discards_an_opponent_card():
    g = tactical("turn: P1\nhand P1: desert R1\nhand P2: B1\ntile 2: - | G7 B3\n")
    events = g.play("desert 2:B3")
    assert said(events)[0] == "Alice played Desertion: Bob's B3 on tile 2 is discarded."
    assert codes(g.tiles[1].sides[1]) == ["G7"]


def test_treason_takes_any_opponent_card_even_a_tactic_card():
    g = tactical(
        "turn: P1\nhand P1: treason R1\nhand P2: B1\ntile 2: - | spy G7\ntactics played: 0 1\n"
    )
    events = g.play("treason spy 5")
    assert said(events)[0] == (
        "Alice played Treason: took Bob's Spy from tile 2 onto Alice's side of tile 5."
    )
    assert codes(g.tiles[4].sides[0]) == ["spy"]
    assert codes(g.tiles[1].sides[1]) == ["G7"]


def test_explosion_clears_a_tile():
    g = tactical("turn: P1\nhand P1: explode R1\nhand P2: B1\ntile 6: R5 R6 | G7 B3\n")
    g.play("explode 6")
    assert g.tiles[5].sides == ([], [])
    assert set(codes(g.discard)) == {"R5", "R6", "G7", "B3"}
    with pytest.raises(IllegalMoveError, match="no cards to blow up"):
        tactical("turn: P1\nhand P1: explode R1\nhand P2: B1\n").play("explode 6")


def test_support_needs_two_discarded_cards_and_shuffles_from_the_seed():
    g = tactical("turn: P1\nhand P1: support R1\nhand P2: B1\ndiscard: G7\n")
    assert not any(isinstance(m, Support) for m in g.legal_moves())
    body = "turn: P1\nhand P1: support R1\nhand P2: B1\ndiscard: G7 B3 P0\nseed: 5\n"
    a, b = tactical(body), tactical(body)
    a.play("support G7 B3")
    b.play("support B3 G7")
    assert codes(a.discard) == ["P0"]
    assert a.deck == b.deck  # the same seeded shuffle, whatever the order named
    assert parse_card("G7") in a.deck and parse_card("B3") in a.deck
    assert a.log[-1] == b.log[-1] == (0, "support G7 B3")


def test_support_can_make_a_tile_the_attacker_could_take_untakeable_again():
    # RULINGS ST2-4: only G11 would complete the Defender's G9 G10 into something above the
    # Attacker's colour run Y8 Y9 Y10, and G11 is face-up in the discard pile. Support puts it
    # back into the deck: unseen again, it may still come, so the tile cannot be taken.
    g = tactical(
        "attacker: P1\nturn: P2\nhand P1: R1 R2\nhand P2: support B1\n"
        "tile 3: Y8 Y9 Y10 | G9 G10\ndiscard: G11 B3\n"
    )
    assert g.controllable() == [3]
    g.play("support G11 B3", player=1)
    assert parse_card("G11") in g.deck
    assert g.controllable() == []
    assert not g.check_control(3).allowed


def test_a_card_support_puts_back_counts_again_when_the_defence_loses_another_card():
    # The Defender's G10 beats the Attacker's colour run Y7 Y8 Y9 with G8 G9 (G11 is
    # face-up). Support puts G11 back; then G8 goes face-up on tile 1. G9 G10 G11 now beats
    # the Attacker: the answer kept about tile 3 must not look only at completions weaker
    # than G8 G9 G10, as it may when cards only ever leave the unseen pool.
    g = tactical(
        "attacker: P1\nturn: P2\nhand P1: G8 R2\nhand P2: support B1\n"
        "tile 3: Y7 Y8 Y9 | G10\ndiscard: G11 B3\n"
    )
    assert g.controllable() == []
    g.play("support G11 B3", player=1)
    assert g.controllable() == []
    g.play("draw siege", player=1)
    g.play("G8 1", player=0)
    assert g.controllable() == []
    assert not g.check_control(3).allowed


def test_games_with_support_and_exchange_replay_identically():
    # Support shuffles from the game's seeded source: replaying the log gives the same decks.
    import random

    from engine.st2 import Control

    seen = set()
    for seed in range(40):
        g = Game.new(Options(tactics=True), seed)
        rng = random.Random(seed)
        while not g.is_over:
            moves = g.legal_moves()
            controls = [m for m in moves if isinstance(m, Control)]
            g.apply(controls[0] if controls else rng.choice(moves))
        used = {text.split()[0] for _, text in g.log} & {"support", "exchange"}
        if used:
            seen |= used
            assert Game.replay(g.options, g.seed, g.log).to_json() == g.to_json()
    assert seen == {"support", "exchange"}


def test_exchange_asks_the_other_player_out_of_turn():
    g = tactical("turn: P1\nhand P1: exchange R1 R2 R3 R4\nhand P2: B1 B2 B3 B4 B5\n")
    events = g.play("exchange")
    assert g.phase is Phase.EXCHANGE
    assert g.to_decide == 0
    assert said(events)[0] == "Alice played Exchange: each player now gives the other three cards."
    g.play("give R1 R2 R3")
    # Now Bob owes a decision although it is Alice's turn.
    assert g.turn == 0 and g.to_decide == 1
    assert all(isinstance(m, Give) for m in g.legal_moves())
    # Bob's view shows his own hand, not what Alice set aside.
    assert codes(g.view(1).hand) == ["B1", "B2", "B3", "B4", "B5"]
    assert "R1" not in json.dumps([str(x) for x in g.view(1).legal_moves])
    with pytest.raises(IllegalMoveError, match="your opponent is choosing"):
        g.play("R4 1", player=0)
    events = g.play("give B3 B1 B2", player=1)
    assert g.log[-1] == (1, "give B1 B2 B3")
    assert "Alice gave 3 cards to Bob and received 3." in said(events)
    assert sorted(codes(g.hands[1])) == ["B4", "B5", "R1", "R2", "R3"]
    assert {"B1", "B2", "B3"} <= set(codes(g.hands[0]))


def test_exchange_needs_cards_on_both_sides():
    g = tactical("turn: P1\nhand P1: exchange R1\nhand P2: -\n")
    assert Exchange() not in g.legal_moves()


def test_actions_are_kept_beside_their_player_not_in_the_discard():
    g = tactical("turn: P1\nhand P1: desert R1\nhand P2: B1\ntile 2: - | G7\n")
    g.play("desert G7")
    assert codes(g.actions[0]) == ["desert"]
    assert codes(g.discard) == ["G7"]
    assert g.view(1).actions == ((TacticCard(Tactic.DESERT),), ())


def test_the_cards_set_aside_for_an_exchange_stay_private():
    g = tactical("turn: P1\nhand P1: exchange R1 R2 R3 R4\nhand P2: B1 B2 B3 B4 B5\n")
    g.play("exchange")
    g.play("give R1 R2 R3")
    assert g.view(1).last_move == (0, "give 3 cards")
    assert g.view(None).last_move == (0, "give 3 cards")
    assert g.view(0).last_move == (0, "give R1 R2 R3")
