"""Schotten Totten rules, each test citing the ruling it checks."""

import json

import pytest

from engine.cards import Card, clan_deck
from engine.errors import ClaimRejectedError, IllegalMoveError, InvalidMoveError
from engine.outcome import Termination
from engine.st1 import Claim, Done, Game, Options, Pass, Phase, Play
from engine.st1.position import parse_position

NAMES = ["Alice", "Bob"]


def said(events):
    return [e.describe(NAMES) for e in events]


def test_deal_six_cards_each_from_the_seed():
    g = Game.new(Options(), seed=3)
    assert [len(h) for h in g.hands] == [6, 6]
    assert len(g.deck) == 54 - 12
    again = Game.new(Options(), seed=3)
    assert again.to_json() == g.to_json()
    assert Game.new(Options(), seed=4).to_json()["hands"] != g.to_json()["hands"]


def test_first_player_can_be_chosen_or_drawn_from_the_seed():
    assert Game.new(Options(first_player=1), seed=3).turn == 1
    drawn = {Game.new(Options(), seed=s).turn for s in range(20)}
    assert drawn == {0, 1}


def test_rulebook_example_blue_5_wins_against_green_7_purple_4_blue_3():
    # Rulebook (IELLO 2016) worked example: the opponent has G7 P4 B3; you have G5 R5 and
    # play B5, then claim. RULINGS ST1-3: three of a kind (15) beats a sum (14).
    g = parse_position(
        """
        turn: P2
        hand P1: O1 O2 O3 O4 O5 O6
        hand P2: B5 Y1 Y2 Y3 Y4 Y6
        stone 3: G7 P4 B3 | G5 R5
        """
    )
    events = g.play("B5 3")
    assert said(events) == ["Bob played B5 on stone 3."]
    assert g.phase is Phase.CLAIM
    assert g.legal_moves() == [Claim(3), Done()]
    events = g.play("claim 3")
    assert said(events)[0] == (
        "Bob claimed stone 3 with three of a kind G5 R5 B5 (15) against a sum B3 P4 G7 (14)."
    )
    assert g.stones[2].claimed_by == 1
    # Nothing else to claim: the turn ends with a draw by itself.
    assert said(events)[1:] == ["Bob drew a clan card."]
    assert g.turn == 0


def test_turn_is_play_then_claim_then_draw():
    # RULINGS ST1-1
    g = Game.new(Options(first_player=0), seed=1)
    card = g.hands[0][0]
    events = g.apply(Play(card, 5))
    assert said(events) == [f"Alice played {card} on stone 5.", "Alice drew a clan card."]
    assert g.turn == 1 and g.phase is Phase.PLAY
    assert len(g.hands[0]) == 6


def expert_position(phase_line="turn: P1"):
    return parse_position(
        f"""
        variant: expert
        {phase_line}
        hand P1: R1 R2 R3 B1 B2 B3
        hand P2: Y1 Y2 Y3 Y4 Y5 Y6
        stone 1: G7 G8 G9 | P1 O2
        """
    )


def test_expert_claims_come_before_the_play():
    # RULINGS ST1-1, Expert variant: claim, then play, then draw.
    g = expert_position()
    assert Claim(1) in g.legal_moves()
    g.play("claim 1")
    assert g.stones[0].claimed_by == 0
    g.play("R1 2")
    assert g.turn == 1


def test_base_game_claims_come_after_the_play():
    g = expert_position().to_json()
    g["options"]["variant"] = "classic"
    base = Game.from_json(g)
    assert Claim(1) not in base.legal_moves()
    with pytest.raises(IllegalMoveError, match="after you play a card"):
        base.play("claim 1")
    base.play("R1 2")
    assert base.phase is Phase.CLAIM
    base.play("claim 1")
    assert base.stones[0].claimed_by == 0


def test_expert_claim_after_playing_is_refused():
    g = expert_position()
    g.apply(Play(Card.parse("R1"), 2))
    # The turn has passed; claiming now is for the wrong player at the wrong time.
    with pytest.raises(IllegalMoveError, match="not your turn"):
        g.play("claim 1", player=0)


def test_claim_by_proof_against_an_incomplete_side():
    # RULINGS ST1-4: G7 G8 G9 cannot be beaten strictly by P1 O2 plus anything.
    g = parse_position(
        """
        turn: P1 claim
        hand P1: R1 R2 R3 B1 B2
        hand P2: Y1 Y2 Y3 Y4 Y5 Y6
        stone 1: G7 G8 G9 | P1 O2
        """
    )
    events = g.play("claim 1")
    assert said(events)[0] == (
        "Alice claimed stone 1 with a colour run G7 G8 G9 (24); Bob cannot beat it, whatever"
        " they add."
    )


def test_rejected_claim_shows_a_beating_completion_and_changes_nothing():
    # RULINGS ST1-4: "A rejected claim tells the player a completion that would beat them."
    g = parse_position(
        """
        turn: P1 claim
        hand P1: R1 R2 R3 B1 B2
        hand P2: Y1 Y2 Y3 Y4 Y5 Y6
        stone 1: G1 B5 P9 | O2 O3
        stone 2: G7 G8 G9 | -
        """
    )
    before = g.to_json()
    with pytest.raises(ClaimRejectedError) as err:
        g.play("claim 1")
    message = str(err.value)
    assert message.startswith("You cannot claim stone 1 yet: your opponent could still add")
    assert "beats your sum G1 B5 P9 (15)" in message
    completion = err.value.completion
    assert completion is not None
    assert completion.formation.key > g.formation(1, 0).key
    assert g.to_json() == before


def test_tie_goes_to_the_side_completed_first():
    # RULINGS ST1-3: same type and total, the side completed first wins.
    text = """
        turn: P2 claim
        hand P1: R1
        hand P2: Y1
        stone 4: R5 R6 R7 | B5 B6 B7 | first {first}
    """
    g = parse_position(text.format(first="P2"))
    g.play("claim 4")
    assert g.stones[3].claimed_by == 1
    g = parse_position(text.format(first="P1").replace("turn: P2 claim", "turn: P2 play"))
    check = g.check_claim(4, 1)
    assert not check.allowed
    assert "completed theirs first" in check.reason


def test_stronger_complete_side_wins_and_weaker_cannot_claim():
    g = parse_position(
        """
        variant: expert
        turn: P1
        hand P1: R1
        hand P2: Y1
        stone 4: R5 R6 R8 | B5 B6 B7 | first P1
        """
    )
    with pytest.raises(ClaimRejectedError, match="colour run B5 B6 B7 \\(18\\) beats your colour"):
        g.play("claim 4")


def test_claimed_stone_is_closed():
    # RULINGS ST1-6
    g = parse_position(
        """
        turn: P2
        hand P1: R1 R2
        hand P2: B1 B2
        stone 2: R7 R8 R9 | B5 | claimed P1
        """
    )
    with pytest.raises(IllegalMoveError, match="Stone 2 is already claimed by your opponent"):
        g.play("B1 2")
    assert Play(Card.parse("B1"), 2) not in g.legal_moves()


@pytest.mark.parametrize(
    ("claimed", "termination", "line"),
    [
        (
            "4 5",
            Termination.THREE_ADJACENT,
            "Alice wins the game with three adjacent stones, 4-5-6!",
        ),
        (
            "1 3 5 7",
            Termination.FIVE_STONES,
            "Alice wins the game with five stones: 1, 3, 5, 7, 9!",
        ),
    ],
)
def test_game_ends_at_once_on_three_adjacent_or_five_stones(claimed, termination, line):
    # RULINGS ST1-7. P1 claims stone 6 (or 9) to make three adjacent (or five).
    target = 6 if termination is Termination.THREE_ADJACENT else 9
    lines = [
        f"stone {n}: R1 R2 R3 | - | claimed P1".replace("R1 R2 R3", three(n))
        for n in claimed.split()
    ]
    lines.append(f"stone {target}: G7 G8 G9 | -")
    g = parse_position("turn: P1 claim\nhand P1: O1\nhand P2: O2\n" + "\n".join(lines) + "\n")
    events = g.play(f"claim {target}")
    assert g.outcome is not None
    assert g.outcome.winner == 0
    assert g.outcome.termination is termination
    assert said(events)[-1] == line
    assert g.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        g.play("O1 1")


def three(n):
    """Three distinct cards for stone n (so positions never reuse a card)."""
    colors = "RYBP"
    c = colors[int(n) % 4]
    base = 1 + 3 * ((int(n) // 4) % 2)
    return " ".join(f"{c}{base + i}" for i in range(3))


def test_cannot_pass_while_a_card_can_be_played():
    # RULINGS ST1-9
    g = Game.new(Options(first_player=0), seed=2)
    assert Pass() not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        g.play("pass")


def full_board(p2_stone_9="O1 O2 O4"):
    """P1 has three of a kind on every stone, so P1 can play nowhere."""
    stones = "\n".join(f"stone {n}: R{n} Y{n} B{n} | -" for n in range(1, 9))
    return stones + f"\nstone 9: R9 Y9 B9 | {p2_stone_9} | first P1\n"


def test_a_player_who_cannot_play_passes_and_may_still_claim():
    # RULINGS ST1-9: P1 cannot play anywhere, so P1 passes by itself; claims remain.
    g = parse_position("turn: P2\nhand P1: G9\nhand P2: O9 G8\n" + full_board())
    events = g.play("O9 8")
    assert said(events)[-1] == "Alice cannot play a card and passes."
    assert g.turn == 0 and g.phase is Phase.CLAIM
    assert g.claimable(0) == [9]
    events = g.play("claim 9")
    # Nothing more to claim: Alice still draws (her hand is short), and the turn passes.
    assert said(events)[-1] == "Alice drew a clan card."
    assert g.turn == 1
    assert len(g.hands[0]) == 2


def test_neither_player_can_move_ends_the_game_by_stones_held():
    # RULINGS ST1-9: neither can play nor claim; more stones wins.
    g = parse_position(
        """
        turn: P1
        hand P1: -
        hand P2: -
        stone 1: R1 R2 R3 | B1 B2 B3 | claimed P1
        stone 2: R4 R5 R6 | B4 B5 | claimed P1
        stone 5: Y1 Y2 Y4 | G1 G2 G4 | claimed P2
        stone 9: Y5 | O5
        deck: empty
        last claim: P2
        """
    )
    assert g.outcome is not None
    assert g.outcome.termination is Termination.NO_MOVES_MORE_STONES
    assert g.outcome.winner == 0


def stalemate(last):
    return f"""
        turn: P1
        hand P1: -
        hand P2: -
        stone 1: R1 R2 R3 | B1 B2 B4 | claimed P1
        stone 5: Y1 Y2 Y4 | G1 G2 G3 | claimed P2
        stone 9: Y5 | O5
        deck: empty
        last claim: {last}
    """


@pytest.mark.parametrize(("last", "winner"), [("P1", 0), ("P2", 1)])
def test_stalemate_with_equal_stones_goes_to_the_last_claimer(last, winner):
    # RULINGS ST1-9: equal stones, the player who claimed the most recent stone wins.
    g = parse_position(stalemate(last))
    assert g.outcome is not None
    assert g.outcome.termination is Termination.NO_MOVES_LAST_CLAIM
    assert g.outcome.winner == winner


def test_stalemate_without_any_claimed_stone_is_a_draw():
    # Not in the rules (unreachable in a real game: see README rules notes); a draw.
    g = parse_position("hand P1: -\nhand P2: -\nstone 9: Y5 | O5\ndeck: empty\n")
    assert g.outcome is not None and g.outcome.winner is None


def test_errors_speak_to_the_player_and_change_nothing():
    g = Game.new(Options(first_player=0), seed=11)
    before = json.dumps(g.to_json())
    held = " ".join(str(c) for c in sorted(g.hands[0], key=Card.sort_key))
    missing = next(c for c in clan_deck() if c not in g.hands[0])
    with pytest.raises(IllegalMoveError) as err:
        g.play(f"{missing} 3")
    assert str(err.value) == f"{missing} is not in your hand; you hold {held}."
    with pytest.raises(IllegalMoveError, match="no stone 10"):
        g.play(f"{g.hands[0][0]} 10")
    with pytest.raises(IllegalMoveError, match="not your turn"):
        g.play(f"{g.hands[1][0]} 3", player=1)
    with pytest.raises(InvalidMoveError, match="Say where"):
        g.play(str(g.hands[0][0]))
    with pytest.raises(InvalidMoveError, match="not a Schotten Totten card"):
        g.play("R10 3")
    with pytest.raises(InvalidMoveError):
        g.play("dance")
    with pytest.raises(IllegalMoveError, match="You cannot end your turn now"):
        g.play("done")
    assert json.dumps(g.to_json()) == before


def test_full_side_is_refused():
    g = parse_position(
        """
        turn: P1
        hand P1: R1 R2
        hand P2: B1
        stone 3: G1 G2 G3 | -
        """
    )
    with pytest.raises(IllegalMoveError, match="Your side of stone 3 is full \\(3 cards\\)"):
        g.play("R1 3")


def test_resign_ends_the_game_for_either_player_at_any_time():
    g = Game.new(Options(first_player=0), seed=5)
    events = g.play("resign", player=1)
    assert said(events) == ["Bob resigned.", "Alice wins the game."]
    assert g.outcome is not None and g.outcome.termination is Termination.RESIGNED


def test_timeout_is_logged_and_replayable():
    g = Game.new(Options(first_player=0), seed=5)
    g.play("timeout", player=0)
    assert g.outcome is not None and g.outcome.winner == 1
    assert g.log[-1] == (0, "timeout")
    assert Game.replay(g.options, g.seed, g.log).to_json() == g.to_json()


def test_json_round_trip_and_replay_give_the_same_state():
    g = Game.new(Options(expert=True), seed=8)
    for _ in range(15):
        g.apply(g.legal_moves()[0])
    data = json.loads(json.dumps(g.to_json()))
    assert Game.from_json(data).to_json() == g.to_json()
    assert Game.replay(g.options, g.seed, g.log).to_json() == g.to_json()


def test_view_hides_the_other_hand_and_the_deck():
    g = Game.new(Options(first_player=0), seed=9)
    v = g.view(0)
    assert v.hand is not None and set(v.hand) == set(g.hands[0])
    assert v.hand_sizes == (6, 6)
    assert v.deck_size == 42
    hidden = {str(c) for c in g.hands[1]} | {str(c) for c in g.deck}
    assert not hidden & set(flatten(v))
    spectator = g.view(None)
    assert spectator.hand is None
    assert not ({str(c) for c in g.hands[0]} | hidden) & set(flatten(spectator))


def flatten(obj):
    """Every string form of every value inside a view, recursively."""
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from flatten(getattr(obj, f.name))
    elif isinstance(obj, tuple | list | set | frozenset):
        for x in obj:
            yield from flatten(x)
    elif isinstance(obj, dict):
        for k, x in obj.items():
            yield from flatten(k)
            yield from flatten(x)
    else:
        yield str(obj)
        yield from str(obj).split()


def test_view_lists_the_deciders_moves_only():
    g = Game.new(Options(first_player=0), seed=9)
    assert g.view(0).legal_moves
    assert g.view(1).legal_moves == ()
    assert g.view(0).playable() == frozenset(g.hands[0])


def test_text_rendering_shows_the_board():
    g = parse_position(
        """
        turn: P1
        hand P1: R1
        hand P2: B1
        stone 2: R7 R8 R9 | B5 | claimed P1
        """
    )
    text = g.view(0).to_text(NAMES)
    assert "stone 2: R7 R8 R9" in text
    assert "claimed by Alice: colour run R7 R8 R9 (24)" in text
    assert "your hand (Alice): R1" in text
    assert "to move: Alice" in text


def test_view_shows_the_public_facts_a_computer_player_needs():
    # RULINGS ST1-11 (one Joker each, rules notes R-9), ST1-9 (the last claimer breaks a
    # stalemate) and ST1-13 (the Recruiter's draws left): public facts the table no longer
    # shows, so that a player can rebuild a game from its view.
    g = parse_position(
        """
        variant: tactics
        turn: P1
        hand P1: recruiter R1 R2 R3 R4 R5 R6
        hand P2: B1 B2 B3 B4 B5 B6 B7
        stone 2: joker1 | G1 G2 G3 | claimed P2
        last claim: P2
        tactics played: 1 1
        """
    )
    for viewer in (0, 1, None):
        v = g.view(viewer)
        assert v.jokers_played == (True, False)
        assert v.last_claimer == 1
        assert v.recruit_left == 0
    g.play("recruiter")
    g.play("draw clan")
    assert g.view(1).recruit_left == g.recruit_left == 2
    assert g.view(None).recruit_left == 2


def test_views_never_show_hidden_cards_in_a_whole_tactics_game():
    import random

    g = Game.new(Options(tactics=True, expert=True), seed=21)
    rng = random.Random(21)
    returned: dict[int | None, set[str]] = {0: set(), 1: set(), None: set()}
    while not g.is_over:
        for viewer in (0, 1, None):
            hidden = {str(c) for c in g.deck} | {str(c) for c in g.tactic_deck}
            for p in (0, 1):
                if p != viewer:
                    hidden |= {str(c) for c in g.hands[p]}
            # A player knows the cards they put back under the decks themselves.
            hidden -= returned[viewer]
            # Only the one Joker kind is ever named; "joker" alone could be either copy.
            hidden.discard("joker")
            assert not hidden & set(flatten(g.view(viewer)))
        mover = g.turn
        move = rng.choice(g.legal_moves())
        if str(move).startswith("return"):
            returned[mover] |= set(str(move).split()[1:])
        g.apply(move)


def test_a_claim_won_on_a_tie_says_who_completed_first():
    g = parse_position(
        "turn: P1 claim\nhand P1: O1\nhand P2: O2\nstone 4: R1 R2 R3 | B1 B2 B3 | first P1\n"
    )
    line = said(g.play("claim 4"))[0]
    assert line == (
        "Alice claimed stone 4 with a colour run R1 R2 R3 (6) against a colour run B1 B2 B3 (6):"
        " a tie, won by Alice, who completed their side first."
    )


def test_a_claim_on_a_combat_mode_stone_says_so():
    g = parse_position(
        "variant: tactics\nturn: P1 claim\nhand P1: O1\nhand P2: O2\n"
        "stone 2: R1 B5 G9 Y2 | B1 B2 B3 P1 | mud blind first P1\n"
    )
    (line,) = said(g.play("claim 2"))
    assert line.startswith("Alice claimed stone 2 (with ")
    assert "Mud Fight" in line and "Blind-Man's Bluff" in line


def test_a_refused_claim_prefers_a_counter_example_the_claimant_does_not_hold():
    # P2's G4 G5 beats R1 R2 R3 with G6 (colour run 15) or G3 (colour run 12). P1 holds G6,
    # so the refusal shows G3: a card the claimant can see their opponent might get.
    g = parse_position(
        "variant: expert\nturn: P1\nhand P1: G6 O1\nhand P2: B1\nstone 1: R1 R2 R3 | G4 G5\n"
    )
    with pytest.raises(ClaimRejectedError) as err:
        g.play("claim 1")
    assert "could still add G3 and make a colour run G3 G4 G5 (12)" in str(err.value)
    assert "own hand" not in str(err.value)


def test_a_counter_example_from_the_claimants_hand_says_why_it_counts():
    g = parse_position(
        "variant: expert\nturn: P1\nhand P1: G6 G3 O1\nhand P2: B1\nstone 1: R1 R2 R3 | G4 G5\n"
    )
    with pytest.raises(ClaimRejectedError) as err:
        g.play("claim 1")
    message = str(err.value)
    assert "could still add G6 and make a colour run G4 G5 G6 (15)" in message
    assert "G6 is in your own hand, but a claim must hold against every card not face-up" in message
