"""Schotten Totten 2 rules, each test citing the ruling or rulebook example it checks."""

import json

import pytest

from engine.cards import Card, parse_card
from engine.errors import ClaimRejectedError, IllegalMoveError, InvalidMoveError
from engine.formations import FormationType
from engine.moves import Done, Pass, Play
from engine.outcome import Termination
from engine.st2 import Control, Game, Oil, Options, Phase, Retreat
from engine.st2.board import TILE_RULES
from engine.st2.position import format_position, parse_position

NAMES = ["Alice", "Bob"]
T = FormationType


def said(events):
    return [e.describe(NAMES) for e in events]


def codes(cards):
    return [str(c) for c in cards]


def test_deal_six_cards_each_and_the_attacker_starts():
    g = Game.new(Options(attacker=1), seed=3)
    assert [len(h) for h in g.hands] == [6, 6]
    assert len(g.deck) == 60 - 12
    assert g.attacker == 1 and g.turn == 1
    assert {Game.new(Options(), seed=s).attacker for s in range(20)} == {0, 1}
    assert Game.new(Options(), seed=3).to_json() == Game.new(Options(), seed=3).to_json()


def test_the_seven_wall_tiles():
    # RULINGS "The seven wall tiles".
    described = [(i.describe(), d.describe()) for i, d in TILE_RULES]
    assert described == [
        ("3 cards, sum only", "3 cards, run and sum"),
        ("4 cards, all formations", "2 cards, same strength and sum"),
        ("3 cards, all formations", "3 cards, colour and sum"),
        ("2 cards, all formations", "4 cards, lower sum wins"),
        ("3 cards, all formations", "3 cards, colour and sum"),
        ("4 cards, all formations", "2 cards, same strength and sum"),
        ("3 cards, lower sum wins", "3 cards, run and sum"),
    ]


def siege(body: str, variant: str = "siege") -> Game:
    return parse_position(f"variant: {variant}\n{body}")


def test_gate_with_21_cannot_be_beaten():
    # Rulebook example: two cards of one colour with consecutive strengths and the maximum
    # sum of 21 on the gate. The Defender could match it, but would complete later and lose
    # the tie, so the Attacker declares control.
    g = siege("turn: P1\nhand P1: R1 R2\nhand P2: Y1\ntile 4: B10 B11 | -\n")
    assert Control(4) in g.legal_moves()
    events = g.play("control 4")
    assert said(events)[0] == (
        "Alice took control of tile 4 with a colour run B10 B11 (21); Bob cannot beat it,"
        " whatever they add. The tile is damaged (1 of 4)."
    )
    assert g.tiles[3].damaged
    assert g.tiles[3].sides == ([], [])
    assert {"B10", "B11"} <= set(codes(g.discard))


def test_damaged_gate_two_zeros_still_make_control_impossible():
    # Rulebook example: on the damaged gate (4 cards, lower sum wins) the Attacker's run
    # counts only as a total, 6; the Defender has 5 so far. While two 0s are unseen the
    # Defender could still finish lower, so control cannot be declared.
    body = "turn: P1\nhand P1: Y9\nhand P2: Y8\ntile 4: R0 Y1 G2 B3 | P2 P3 | damaged\n"
    g = siege(body + "discard: -\n")
    check = g.check_control(4)
    assert not check.allowed
    assert check.completion is not None
    assert [c.value for c in check.completion.added] == [0, 0]
    assert check.reason.endswith(
        "make the lower sum B0 P0 P2 P3 (5), which beats your lower sum R0 Y1 G2 B3 (6)."
    )
    # With only one 0 left unseen, the best the Defender can do is tie (5 + 0 + 1 = 6),
    # and the Attacker completed first: now control holds.
    g = siege(body + "discard: Y0 G0 B0\n")
    assert g.check_control(4).allowed


def test_retreat_discards_the_attackers_cards():
    # Rulebook retreat example: three cards of one colour totalling 14; the Attacker
    # retreats before the Defender completes a stronger colour.
    g = siege("turn: P1\nhand P1: R1 R2\nhand P2: Y1\ntile 3: G2 G5 G7 | B4 B8\ntile 5: P1 | -\n")
    assert Retreat((3,)) in g.legal_moves() and Retreat((3, 5)) in g.legal_moves()
    events = g.play("retreat 3 5")
    assert said(events) == ["Alice retreated from tiles 3, 5, discarding G2 G5 G7 P1."]
    assert g.tiles[2].sides[0] == [] and g.tiles[2].sides[1] == [parse_card("B4"), parse_card("B8")]
    assert g.phase is Phase.PLAY
    # One preparation action per turn.
    with pytest.raises(IllegalMoveError, match="start of your turn"):
        g.play("retreat 3")


def test_oil_cauldron_burns_the_card_closest_to_the_wall():
    # Rulebook cauldron example: after two 1s, the Defender burns the first 1.
    g = siege("turn: P2\nattacker: P1\nhand P1: Y9\nhand P2: B2 B3\ntile 2: R1 G1 | -\n")
    assert Oil(2) in g.legal_moves()
    events = g.play("oil 2")
    assert said(events) == ["Bob poured boiling oil on tile 2: R1 is discarded (2 cauldrons left)."]
    assert codes(g.tiles[1].sides[0]) == ["G1"]
    assert g.cauldrons == 2
    # Only one cauldron per turn, and only at the start of it.
    with pytest.raises(IllegalMoveError, match="once, before you play"):
        g.play("oil 2")


def test_no_more_than_three_cauldrons():
    g = siege("turn: P2\nhand P1: Y9\nhand P2: B2\ntile 2: R1 | -\ncauldrons: 0\n")
    assert not any(isinstance(m, Oil) for m in g.legal_moves())
    with pytest.raises(IllegalMoveError, match="all three oil cauldrons"):
        g.play("oil 2")


def test_only_the_defender_throws_oil_and_only_the_attacker_retreats():
    g = siege("turn: P1\nhand P1: Y9\nhand P2: B2\ntile 2: R1 | G3\n")
    with pytest.raises(IllegalMoveError, match="Only the Defender"):
        g.play("oil 2")
    g = siege("turn: P2\nhand P1: Y9\nhand P2: B2\ntile 2: R1 | G3\n")
    with pytest.raises(IllegalMoveError, match="Only the Attacker retreats"):
        g.play("retreat 2")


@pytest.mark.parametrize(("played", "opposite"), [("R0", "R11"), ("R11", "R0")])
def test_chicken_versus_chef_discards_both(played, opposite):
    # RULINGS ST2-5
    g = siege(f"turn: P1\nhand P1: {played} Y9\nhand P2: B2\ntile 3: - | {opposite} G4\n")
    events = g.play(f"{played} 3")
    assert said(events)[1] == (
        f"Chicken versus Chef on tile 3: {played} and {opposite} are both discarded."
    )
    assert g.tiles[2].sides == ([], [parse_card("G4")])


def test_chicken_versus_chef_needs_the_same_colour():
    g = siege("turn: P1\nhand P1: R0 Y9\nhand P2: B2\ntile 3: - | B11\n")
    g.play("R0 3")
    assert codes(g.tiles[2].sides[0]) == ["R0"]


def test_the_card_limit_holds_even_before_chicken_versus_chef():
    # RULINGS ST2-5: a full side stays full, even if the card would be discarded at once.
    g = siege("turn: P1\nhand P1: R0 Y9\nhand P2: B2\ntile 4: Y1 Y2 | R11\n")
    assert Play(parse_card("R0"), 4) not in g.legal_moves()
    with pytest.raises(IllegalMoveError, match="side of tile 4 is full"):
        g.play("R0 4")


def test_control_of_a_damaged_tile_wins():
    # RULINGS ST2-7
    # Tile 2's damaged side: a pair and sum. Two 11s can only be tied, never beaten.
    g = siege("turn: P1\nhand P1: Y9\nhand P2: B2\ntile 2: R11 Y11 | - | damaged\n")
    events = g.play("control 2")
    assert g.outcome is not None and g.outcome.winner == 0
    assert g.outcome.termination is Termination.DAMAGED_TILE_TAKEN
    assert said(events)[-1] == "Alice wins the game (control of a damaged wall tile)!"


def test_damaging_a_fourth_tile_wins():
    g = siege(
        "turn: P1\nhand P1: Y9\nhand P2: B2\n"
        "tile 1: - | - | damaged\ntile 2: - | - | damaged\ntile 3: - | - | damaged\n"
        "tile 4: B10 B11 | -\n"
    )
    g.play("control 4")
    assert g.outcome is not None
    assert g.outcome.termination is Termination.FOURTH_TILE_DAMAGED


def test_control_any_time_in_the_attackers_turn_only():
    # RULINGS ST2-1: before the preparation, after it, after playing.
    g = siege("turn: P1\nhand P1: Y9 Y8\nhand P2: B2 B3\ntile 4: B10 | -\n")
    assert Control(4) not in g.legal_moves()
    g = siege("turn: P1\nhand P1: B11 Y8\nhand P2: B2 B3\ntile 4: B10 | -\n")
    g.play("B11 4")
    assert g.phase is Phase.AFTER_PLAY
    assert g.legal_moves() == [Control(4), Done()]
    g.play("control 4")
    assert g.tiles[3].damaged
    g = siege("turn: P2\nhand P1: B11\nhand P2: B2 B3\ntile 4: B10 Y10 | -\n")
    with pytest.raises(IllegalMoveError, match="Only the Attacker declares control"):
        g.play("control 4")


def test_failed_control_explains_and_changes_nothing():
    g = siege("turn: P1\nhand P1: Y9\nhand P2: B2\ntile 3: R1 Y5 G9 | B7 B8\n")
    before = json.dumps(g.to_json())
    with pytest.raises(ClaimRejectedError) as err:
        g.play("control 3")
    assert str(err.value).startswith("You cannot take tile 3 yet: your opponent could still add")
    assert err.value.completion is not None
    assert json.dumps(g.to_json()) == before


def test_colour_run_counts_as_a_sum_on_colour_only_tiles():
    # RULINGS ST2-2: on tile 3's damaged side (colour and sum), the Defender's colour beats
    # the Attacker's colour run, which counts as a sum.
    g = siege(
        "turn: P1\nhand P1: Y9\nhand P2: B2\ntile 3: R9 R10 R11 | B0 B1 B3 | damaged first P1\n"
    )
    mine, theirs = g.formation(3, 0), g.formation(3, 1)
    assert mine.type is T.SUM and theirs.type is T.COLOR
    assert not g.check_control(3).allowed


def test_same_type_and_total_goes_to_the_first_completed():
    # RULINGS ST2-3
    body = "turn: P1\nhand P1: Y9\nhand P2: B2\ntile 1: R5 Y5 G1 | B6 P4 Y1 | first {}\n"
    assert siege(body.format("P1")).check_control(1).allowed
    assert not siege(body.format("P2")).check_control(1).allowed


def test_drawing_from_an_empty_deck_ends_the_game_for_the_defender():
    # RULINGS ST2-8
    g = siege("turn: P1\nhand P1: Y9 Y8\nhand P2: B2\ndeck: empty\n")
    events = g.play("Y9 1")
    assert g.outcome is not None and g.outcome.winner == 1
    assert g.outcome.termination is Termination.DECK_EMPTY
    assert said(events)[-1] == "Bob wins the game (the deck ran out)!"


def test_defender_with_every_side_complete_wins():
    # RULINGS ST2-8: the Defender cannot play a siege card because all formations are complete.
    full = {
        1: "Y1 Y2 Y3",
        2: "G1 G2 G3 G4",
        3: "B1 B2 B3",
        4: "P1 P2",
        5: "Y4 Y5 Y6",
        6: "G5 G6 G7 G8",
        7: "B4 B5 B6",
    }
    tiles = "\n".join(f"tile {n}: - | {cards}" for n, cards in full.items())
    g = siege(f"turn: P1\nhand P1: R9 R8\nhand P2: P9\n{tiles}\n")
    g.play("R9 1")
    assert g.outcome is not None and g.outcome.winner == 1
    assert g.outcome.termination is Termination.DEFENDER_CANNOT_PLAY


def test_attacker_with_a_full_wall_must_retreat_rather_than_pass():
    full = {
        1: "Y1 Y2 Y3",
        2: "G1 G2 G3 G4",
        3: "B1 B2 B3",
        4: "P1 P2",
        5: "Y4 Y5 Y6",
        6: "G5 G6 G7 G8",
        7: "B4 B5 B6",
    }
    tiles = "\n".join(f"tile {n}: {cards} | -" for n, cards in full.items())
    g = siege(f"turn: P1\nhand P1: R9 R8\nhand P2: P9\n{tiles}\n")
    moves = g.legal_moves()
    assert Pass() not in moves
    assert Retreat((2,)) in moves
    with pytest.raises(IllegalMoveError, match="Retreat to make room first"):
        g.play("pass")


def test_errors_speak_to_the_player():
    g = Game.new(Options(attacker=0), seed=11)
    with pytest.raises(IllegalMoveError, match="no tile 8"):
        g.play(f"{g.hands[0][0]} 8")
    with pytest.raises(InvalidMoveError, match="no orange cards"):
        g.play("O5 3")
    with pytest.raises(InvalidMoveError, match="R12 is not a Schotten Totten 2 card; values"):
        g.play("R12 3")
    with pytest.raises(IllegalMoveError, match="not your turn"):
        g.play(f"{g.hands[1][0]} 3", player=1)
    with pytest.raises(InvalidMoveError, match="first game"):
        g.play("banshee 3")


def test_views_hide_hands_and_sort_the_discard_by_colour():
    g = siege("turn: P1\nhand P1: R1 R2\nhand P2: Y1 Y2\ndiscard: P3 R9 B0\n")
    v = g.view(0)
    assert codes(v.discard) == ["R9", "B0", "P3"]
    assert v.hand is not None and codes(v.hand) == ["R1", "R2"]
    assert v.hand_sizes == (2, 2)
    hidden = {str(c) for c in g.hands[1]} | {str(c) for c in g.deck}
    assert not hidden & set(flatten(v))
    spectator = g.view(None)
    assert spectator.hand is None
    assert not ({"R1", "R2"} | hidden) & set(flatten(spectator))


def flatten(obj):
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from flatten(getattr(obj, f.name))
    elif isinstance(obj, tuple | list):
        for x in obj:
            yield from flatten(x)
    else:
        yield str(obj)
        yield from str(obj).split()


def test_json_round_trip_replay_and_positions():
    g = Game.new(Options(), seed=8)
    for _ in range(25):
        g.apply(g.legal_moves()[-1])
    assert Game.from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()
    assert Game.replay(g.options, g.seed, g.log).to_json() == g.to_json()
    text = format_position(g)
    assert format_position(parse_position(text)) == text


def test_card_values_are_checked_in_positions():
    from engine.errors import PositionError

    with pytest.raises(PositionError, match="not a siege card"):
        parse_position("hand P1: O5\n")
    with pytest.raises(PositionError, match="at most 2 cards"):
        parse_position("tile 4: R1 R2 R3 | -\n")
    assert isinstance(parse_card("R11"), Card)
