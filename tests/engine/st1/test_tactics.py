"""The Tactics variant: every tactic card and ruling (RULINGS ST1-9 to ST1-14)."""

import json

import pytest

from engine.cards import Card, Tactic, TacticCard, parse_card
from engine.errors import IllegalMoveError, InvalidMoveError
from engine.formations import FormationType
from engine.st1 import Claim, Done, Draw, Game, Options, Pass, Phase, Play
from engine.st1.moves import Banshee, Recruit, Return, Strategist, Traitor
from engine.st1.position import parse_position

NAMES = ["Alice", "Bob"]
T = FormationType


def said(events):
    return [e.describe(NAMES) for e in events]


def tactics(body: str, variant: str = "tactics") -> Game:
    return parse_position(f"variant: {variant}\n{body}")


def codes(cards):
    return [str(c) for c in cards]


# Setup and the turn -----------------------------------------------------------------------------


def test_setup_deals_seven_clan_cards_and_a_tactic_deck():
    # RULINGS ST1-10 and the rulebook's Tactic variant set-up.
    g = Game.new(Options(tactics=True), seed=1)
    assert [len(h) for h in g.hands] == [7, 7]
    assert all(isinstance(c, Card) for h in g.hands for c in h)
    assert len(g.tactic_deck) == 10
    assert len(g.deck) == 54 - 14
    assert sorted(c.code for c in g.tactic_deck) == sorted(
        [
            "joker1",
            "joker2",
            "spy",
            "shield",
            "blind",
            "mud",
            "recruiter",
            "strategist",
            "banshee",
            "traitor",
        ]
    )


def test_after_playing_the_player_chooses_the_deck():
    # RULINGS ST1-10: draw from the clan or the tactic deck.
    g = Game.new(Options(tactics=True, first_player=0), seed=2)
    g.apply(Play(g.hands[0][0], 1))
    assert g.phase is Phase.DRAW
    assert g.legal_moves() == [Draw("clan"), Draw("tactic")]
    events = g.play("draw tactic")
    assert said(events) == ["Alice drew a tactic card."]
    assert isinstance(g.hands[0][-1], TacticCard)
    assert g.turn == 1


def test_an_empty_deck_cannot_be_chosen():
    # RULINGS ST1-10: with one deck empty there is no choice, and the draw happens by itself.
    g = tactics("turn: P1\nhand P1: R1 R2\nhand P2: B1\ntactic deck: empty\n")
    events = g.play("R1 1")
    assert said(events)[-1] == "Alice drew a clan card."
    g = tactics("turn: P1\nhand P1: R1 R2\nhand P2: B1\ndeck: empty\n")
    events = g.play("R1 1")
    assert said(events)[-1] == "Alice drew a tactic card."
    # Asking for the empty deck is refused, with the way out.
    g = tactics(
        "turn: P1\nhand P1: R9 R1\nhand P2: B1\nstone 1: R7 R8 | O1 O2 O4\ntactic deck: empty\n"
    )
    g.play("R9 1")
    assert g.legal_moves() == [Claim(1), Done()]
    with pytest.raises(IllegalMoveError, match="The tactic deck is empty; draw from the clan deck"):
        g.play("draw tactic")
    # The Recruiter's draws: once the tactic deck runs out, the rest come from the clan deck.
    g = tactics("turn: P1\nhand P1: recruiter R1\nhand P2: B1\ntactic deck: empty\n")
    g.tactic_deck.append(TacticCard(Tactic.SPY))
    g.play("recruiter")
    g.play("draw tactic")
    assert g.phase is Phase.RECRUIT_RETURN
    assert len(g.hands[0]) == 4


def test_with_both_decks_empty_there_is_no_draw():
    g = tactics("turn: P1\nhand P1: R1 R2\nhand P2: B1\ndeck: empty\ntactic deck: empty\n")
    events = g.play("R1 1")
    assert said(events)[-1] == "Alice cannot draw: no cards are left."
    assert codes(g.hands[0]) == ["R2"]


def test_claiming_ends_with_the_choice_of_deck_not_done():
    g = tactics("turn: P1\nhand P1: R9 B1 B2 B3 B4 B5 B6\nhand P2: Y1\nstone 1: R7 R8 | O1 O2 O3\n")
    g.play("R9 1")
    assert g.phase is Phase.CLAIM
    assert g.legal_moves() == [Claim(1), Draw("clan"), Draw("tactic")]
    with pytest.raises(IllegalMoveError, match="Choose a deck to draw from"):
        g.play("done")
    g.play("claim 1")
    assert g.phase is Phase.DRAW


def test_expert_tactics_claim_play_then_choose_the_deck():
    g = tactics(
        "turn: P1\nhand P1: B1 B2 B3 B4 B5 B6\nhand P2: Y1\n"
        "stone 1: R7 R8 R9 | O1 O2 O3 | first P1\n",
        variant="tactics-expert",
    )
    assert Claim(1) in g.legal_moves()
    g.play("claim 1")
    g.play("B1 2")
    assert g.phase is Phase.DRAW
    assert Claim(1) not in g.legal_moves()


# Limits ---------------------------------------------------------------------------------------


def test_no_more_than_one_tactic_card_ahead():
    # RULINGS ST1-10 (rulebook example: two played against one, so no third yet).
    g = tactics("turn: P1\nhand P1: spy R1\nhand P2: B1\ntactics played: 2 1\n")
    assert not any(isinstance(m, Play) and isinstance(m.card, TacticCard) for m in g.legal_moves())
    with pytest.raises(IllegalMoveError, match="played 2 tactic cards and your opponent 1"):
        g.play("spy 3")
    g = tactics("turn: P1\nhand P1: spy R1\nhand P2: B1\ntactics played: 1 1\n")
    g.play("spy 3")
    assert g.tactics_played == [2, 1]


def test_ruses_count_towards_the_limit():
    g = tactics("turn: P1\nhand P1: banshee spy\nhand P2: B1\nstone 2: - | B5\n")
    g.play("banshee 2:B5")
    assert g.tactics_played == [1, 0]
    g.play("draw clan")
    g.play("B1 3")
    g.play("draw clan")
    with pytest.raises(IllegalMoveError, match="played 1 tactic card and your opponent 0"):
        g.play("spy 4")


def test_second_joker_stays_in_hand_for_the_rest_of_the_game():
    # RULINGS ST1-11; rules notes R-9: even after the first Joker has left the board.
    g = tactics(
        "turn: P1\nhand P1: joker2 R1\nhand P2: B1\nstone 4: joker1 | -\n"
        "discard: -\ntactics played: 1 1\n"
    )
    assert g.joker_played == [True, False]
    assert Play(TacticCard(Tactic.JOKER, 2), 3) not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="already played a Joker"):
        g.play("joker 3")
    # Remove the first Joker from the board: the second still may not be played.
    g.stones[3].sides[0].clear()
    g.discard.append(TacticCard(Tactic.JOKER, 1))
    with pytest.raises(IllegalMoveError, match="already played a Joker"):
        g.play("joker 3")


def test_passing_with_only_tactic_cards_is_a_choice():
    # RULINGS ST1-9: no clan card can be played, tactic cards in hand: pass or play one.
    g = tactics("turn: P1\nhand P1: spy blind\nhand P2: B1\n")
    moves = g.legal_moves()
    assert Pass() in moves
    assert Play(TacticCard(Tactic.SPY), 1) in moves
    events = g.play("pass")
    assert said(events)[0] == "Alice passes."
    # Her hand is short, so she still draws (rules notes R-1).
    assert g.phase is Phase.DRAW


def test_cannot_pass_while_a_clan_card_can_be_played():
    g = tactics("turn: P1\nhand P1: spy R1\nhand P2: B1\n")
    assert Pass() not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        g.play("pass")


def test_a_player_whose_tactic_cards_are_all_blocked_passes_by_itself():
    g = tactics("turn: P2\nhand P1: spy\nhand P2: B1 B2\ntactics played: 1 0\n")
    g.play("B1 1")
    events = g.play("draw clan")
    assert "Alice cannot play a card and passes." in said(events)


# Elite troops ---------------------------------------------------------------------------------


def test_joker_takes_its_best_value_when_the_stone_is_claimed():
    # RULINGS ST1-11: values fixed at claim time, best for the owner, shown once claimed.
    g = tactics("turn: P1\nhand P1: joker R1\nhand P2: B1\nstone 5: G8 G9 | O1 O2 O3\n")
    assert said(g.play("joker 5")) == ["Alice played the Joker on stone 5."]
    events = g.play("claim 5")
    assert said(events)[0].startswith(
        "Alice claimed stone 5 with a colour run G7(Joker) G8 G9 (24)"
    )
    stone = g.view(None).stones[4]
    assert stone.won_with is not None
    assert stone.won_with.type is T.COLOR_RUN
    assert codes(stone.won_with.wild_values.values()) == ["G7"]


def test_spy_is_a_seven_and_shield_bearer_one_to_three():
    g = tactics(
        "turn: P1\nhand P1: R1\nhand P2: B1\nstone 1: R7 B7 spy | -\nstone 2: Y1 Y2 shield | -\n"
    )
    spy, shield = g.formation(1, 0), g.formation(2, 0)
    assert (spy.type, spy.total) == (T.SAME_STRENGTH, 21)
    assert (shield.type, shield.total) == (T.COLOR_RUN, 6)
    assert codes(shield.wild_values.values()) == ["Y3"]


def test_claim_event_reports_the_wild_values():
    g = tactics(
        "turn: P1 claim\nhand P1: R1\nhand P2: B1\nstone 3: spy Y7 G7 | O1 O2 O4 | first P1\n"
    )
    events = g.play("claim 3")
    assert said(events)[0].startswith(
        "Alice claimed stone 3 with three of a kind R7(Spy) Y7 G7 (21)"
    )


# Combat modes -----------------------------------------------------------------------------------


def test_blind_mans_bluff_compares_totals_only():
    # RULINGS ST1-12
    g = tactics(
        "turn: P1\nhand P1: blind R1\nhand P2: B1\nstone 2: G1 G2 G3 | O9 P9 Y8 | first P1\n"
    )
    assert g.check_claim(2, 0).allowed
    events = g.play("blind 2")
    assert (
        said(events)[0]
        == "Alice played the Blind-Man's Bluff on stone 2: only totals count there now."
    )
    assert not g.check_claim(2, 0).allowed
    assert g.check_claim(2, 1).allowed


def test_mud_fight_needs_four_cards_and_three_are_no_longer_complete():
    # RULINGS ST1-12, ST1-14
    g = tactics("turn: P1\nhand P1: mud R1\nhand P2: B1\nstone 2: G1 G2 G3 | O9 P9 Y8 | first P1\n")
    g.play("mud 2")
    g.play("draw clan")
    stone = g.stones[1]
    assert stone.size == 4
    assert not stone.complete(0) and not stone.complete(1)
    assert g.check_claim(2, 0).reason.startswith("You need 4 cards on your side of stone 2")
    # Bob may now add a fourth card there.
    assert Play(parse_card("B1"), 2) in g.legal_moves()


def test_mud_and_blind_on_one_stone_make_four_card_totals():
    # RULINGS ST1-12: four cards each, compared by total only.
    g = tactics(
        "turn: P1 claim\nhand P1: R1\nhand P2: B1\n"
        "stone 2: G1 G2 G3 G4 | O9 P9 Y8 B2 | mud blind first P1\n"
    )
    assert g.stones[1].rules.size == 4
    check = g.check_claim(2, 1)
    assert check.allowed
    assert check.formation is not None and check.formation.type is T.SUM
    assert check.formation.total == 28


def test_mud_fight_four_of_a_kind_and_four_card_runs():
    g = tactics(
        "turn: P1 claim\nhand P1: R1\nhand P2: B1\n"
        "stone 2: G5 Y5 R5 O5 | B6 B7 B8 B9 | mud first P1\n"
    )
    mine, theirs = g.formation(2, 0), g.formation(2, 1)
    assert mine.type is T.SAME_STRENGTH and theirs.type is T.COLOR_RUN
    assert mine.describe().startswith("four of a kind")


# Ruses ----------------------------------------------------------------------------------------


def test_recruiter_draws_three_then_returns_two_under_their_decks():
    # RULINGS ST1-13
    g = tactics(
        "turn: P1\nhand P1: recruiter R1 R2 R3 R4 R5 R6\nhand P2: B1\n"
        "deck: O1 O2 O3\ntactic deck: spy mud\n"
    )
    events = g.play("recruiter")
    assert said(events) == ["Alice played the Recruiter: they draw three cards and return two."]
    assert g.phase is Phase.RECRUIT_DRAW
    assert g.legal_moves() == [Draw("clan"), Draw("tactic")]
    g.play("draw clan")
    g.play("draw tactic")
    g.play("draw clan")
    assert codes(g.hands[0]) == ["R1", "R2", "R3", "R4", "R5", "R6", "O1", "spy", "O2"]
    assert g.phase is Phase.RECRUIT_RETURN
    assert Return((parse_card("R1"), parse_card("spy"))) in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="Return exactly 2 cards"):
        g.play("return R1")
    with pytest.raises(IllegalMoveError, match="B9 is not in your hand"):
        g.play("return R1 B9")
    events = g.play("return R1 spy")
    assert said(events)[0] == "Alice put 1 clan card and 1 tactic card back under the decks."
    assert str(g.deck[0]) == "R1" and str(g.tactic_deck[0]) == "spy"
    assert g.discard == [TacticCard(Tactic.RECRUITER)]
    # Seven cards in hand again; the turn continues with claims, then no draw is needed.
    assert len(g.hands[0]) == 7
    assert g.turn == 1


def test_the_recruiters_draws_are_marked_for_their_owner_only_until_the_return():
    g = tactics(
        "turn: P1\nhand P1: recruiter R1 R2 R3 R4 R5 R6\nhand P2: B1\n"
        "deck: O1 O2 O3\ntactic deck: spy mud\n"
    )
    g.play("recruiter")
    g.play("draw clan")
    assert codes(g.view(0).recruited) == ["O1"]
    g.play("draw tactic")
    g.play("draw clan")
    assert codes(g.view(0).recruited) == ["O1", "spy", "O2"]
    # The opponent and a bystander see no mark: the cards are hidden from them.
    assert g.view(1).recruited == () and g.view(None).recruited == ()
    # Kept through a restart (JSON) and a replay.
    assert codes(type(g).from_json(g.to_json()).view(0).recruited) == ["O1", "spy", "O2"]
    g.play("return R1 spy")
    assert g.view(0).recruited == () and g.recruited == []


def test_recruiter_draws_what_there_is():
    g = tactics("turn: P1\nhand P1: recruiter R1\nhand P2: B1\ndeck: empty\ntactic deck: empty\n")
    assert Recruit() not in g.legal_moves()
    g.deck.append(parse_card("O1"))
    g.play("recruiter")
    # One clan card only: drawn by itself, then two cards go back.
    assert g.phase is Phase.RECRUIT_RETURN
    assert codes(g.hands[0]) == ["R1", "O1"]


def test_strategist_moves_your_card_to_another_stone_or_discards_it():
    g = tactics("turn: P1\nhand P1: strategist R1\nhand P2: B1\nstone 3: R5 R6 | -\n")
    events = g.play("strategist R5 7")  # the stone may be left out
    assert g.log[-1] == (0, "strategist 3:R5 7")
    assert said(events)[0] == "Alice played the Strategist: moved their R5 from stone 3 to stone 7."
    assert codes(g.stones[2].sides[0]) == ["R6"]
    assert codes(g.stones[6].sides[0]) == ["R5"]
    g = tactics("turn: P1\nhand P1: strategist R1\nhand P2: B1\nstone 3: R5 R6 | -\n")
    g.play("strategist 3:R6 discard")
    assert codes(g.discard) == ["strategist", "R6"]


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("strategist 3:R5 3", "different stone"),
        ("strategist 3:R5 4", "already claimed"),
        ("strategist 4:R7 5", "claimed: its cards cannot move"),
        ("strategist 3:R5 6", "side of stone 6 is full"),
        ("strategist 3:B5 5", "B5 is not on your side"),
        ("strategist 2:R5 5", "R5 is on stone 3, not on stone 2"),
    ],
)
def test_strategist_refusals(move, message):
    g = tactics(
        "turn: P1\nhand P1: strategist R1\nhand P2: B1\nstone 3: R5 | B5\n"
        "stone 4: R7 R8 R9 | - | claimed P1\nstone 6: Y1 Y2 Y3 | -\n"
    )
    before = json.dumps(g.to_json())
    with pytest.raises(IllegalMoveError, match=message):
        g.play(move)
    assert json.dumps(g.to_json()) == before


def test_banshee_discards_an_opponent_card_clan_or_tactic():
    g = tactics(
        "turn: P1\nhand P1: banshee R1\nhand P2: B1\nstone 2: - | B5 spy\ntactics played: 0 1\n"
    )
    events = g.play("banshee spy")
    assert said(events)[0] == "Alice played the Banshee: Bob's Spy on stone 2 is discarded."
    assert codes(g.discard) == ["banshee", "spy"]
    assert codes(g.stones[1].sides[1]) == ["B5"]


def test_banshee_cannot_touch_a_claimed_stone():
    # RULINGS ST1-6
    g = tactics(
        "turn: P1\nhand P1: banshee R1\nhand P2: B1\n"
        "stone 2: R5 R6 R7 | B7 B8 B9 | claimed P2 first P1\n"
    )
    assert not any(isinstance(m, Banshee) for m in g.legal_moves())
    with pytest.raises(IllegalMoveError, match="claimed"):
        g.play("banshee 2:B8")


def test_traitor_takes_an_opponent_clan_card_onto_your_side():
    g = tactics("turn: P1\nhand P1: traitor R1\nhand P2: B1\nstone 3: - | G5 spy\n")
    events = g.play("traitor 3:G5 6")
    assert said(events)[0] == (
        "Alice played the Traitor: took Bob's G5 from stone 3 onto Alice's side of stone 6."
    )
    assert codes(g.stones[5].sides[0]) == ["G5"]
    assert codes(g.stones[2].sides[1]) == ["spy"]


def test_traitor_may_pull_a_card_across_the_same_stone():
    # RULINGS ST1-13 says "an unclaimed stone with room": the same stone qualifies.
    g = tactics("turn: P1\nhand P1: traitor R1\nhand P2: B1\nstone 3: - | G5\n")
    assert Traitor(parse_card("G5"), 3, 3) in g.legal_moves()
    g.play("traitor 3:G5 3")
    assert codes(g.stones[2].sides[0]) == ["G5"]


def test_traitor_takes_only_clan_cards():
    g = tactics(
        "turn: P1\nhand P1: traitor R1\nhand P2: B1\nstone 3: - | spy\ntactics played: 0 1\n"
    )
    with pytest.raises(IllegalMoveError, match="only clan cards"):
        g.play("traitor spy 4")


def test_ruses_without_a_target_are_not_offered():
    g = tactics("turn: P1\nhand P1: banshee traitor strategist R1\nhand P2: B1\n")
    assert not any(isinstance(m, Banshee | Traitor | Strategist) for m in g.legal_moves())
    with pytest.raises(IllegalMoveError, match="not on your opponent's side of any stone"):
        g.play("banshee G5")


def test_a_ruse_is_not_played_on_a_stone():
    g = tactics("turn: P1\nhand P1: banshee R1\nhand P2: B1\n")
    with pytest.raises(InvalidMoveError, match="Say which card the Banshee takes"):
        g.play("banshee 3")


def test_tactic_cards_of_the_other_game_are_refused():
    g = tactics("turn: P1\nhand P1: R1\nhand P2: B1\n")
    with pytest.raises(InvalidMoveError, match="Schotten Totten 2 card"):
        g.play("explosion 3")


# Completion order (RULINGS ST1-14) ----------------------------------------------------------


def test_completion_order_is_decided_afresh_when_a_card_leaves_a_complete_side():
    # RULINGS ST1-14. Both sides make a run totalling 15 and Alice completed first, so she
    # would win the tie. Bob's Banshee takes her G6; she completes again with R6, later
    # than Bob: now Bob completed first and the tie is his.
    g = tactics(
        "turn: P2\nhand P1: R6 Y7\nhand P2: banshee Y1\nstone 5: R4 B5 G6 | O4 P5 Y6 | first P1\n"
    )
    assert g.check_claim(5, 0).allowed and not g.check_claim(5, 1).allowed
    g.play("banshee 5:G6")
    assert not g.stones[4].complete(0)
    assert g.stones[4].first_complete() is None
    g.play("draw clan")
    g.play("R6 5")
    assert g.stones[4].first_complete() == 1
    assert g.formation(5, 0).key == g.formation(5, 1).key
    check = g.check_claim(5, 0)
    assert not check.allowed
    assert "your opponent completed theirs first" in check.reason
    assert g.check_claim(5, 1).allowed


# The proof with tactic cards ----------------------------------------------------------------


def test_proof_gives_wild_cards_on_the_opponents_side_their_best_values():
    # RULINGS ST1-4: a Joker already on the opponent's side could be the missing card.
    g = tactics(
        "turn: P1\nhand P1: R1\nhand P2: B1\nstone 4: R6 R7 R8 | joker G9 | first P1\n"
        "tactics played: 0 1\n"
    )
    check = g.check_claim(4, 0)
    assert not check.allowed
    assert check.completion is not None
    assert check.completion.formation.type is T.COLOR_RUN


def test_proof_ignores_unplayed_tactic_cards():
    # RULINGS ST1-4: the Joker in the opponent's hand is not considered.
    g = tactics(
        "turn: P1\nhand P1: R1\nhand P2: joker B1\nstone 4: R7 R8 R9 | G8 G9\nstone 1: G7 | -\n"
    )
    # G7 is face-up elsewhere: no clan card completes G8 G9 into a colour run.
    assert g.check_claim(4, 0).allowed


def test_discarded_clan_cards_are_not_unseen():
    # rules notes R-7: a discarded clan card is face-up and cannot complete the opponent's side.
    g = tactics(
        "turn: P1\nhand P1: R1\nhand P2: B1\nstone 4: R7 R8 R9 | G8 G9\ndiscard: banshee G7\n"
        "tactics played: 1 0\n"
    )
    assert g.check_claim(4, 0).allowed


def test_views_and_json_carry_tactic_state():
    g = Game.new(Options(tactics=True, expert=True), seed=4)
    for _ in range(12):
        g.apply(g.legal_moves()[-1])
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).to_json() == g.to_json()
    v = g.view(1)
    assert v.tactic_deck_size == len(g.tactic_deck)
    assert v.tactics_played == tuple(g.tactics_played)


def test_recruit_move_prints_and_parses():
    assert str(Recruit()) == "recruiter"
    assert str(Done()) == "done"


def test_cards_returned_to_the_decks_stay_private():
    g = tactics(
        "turn: P1\nhand P1: recruiter R1 R2 R3 R4 R5 R6\nhand P2: B1\n"
        "deck: O1 O2 O3\ntactic deck: empty\n"
    )
    g.play("recruiter")
    g.play("return R1 R2")
    assert g.view(1).last_move == (0, "return 2 cards")
    assert g.view(0).last_move == (0, "return R1 R2")
